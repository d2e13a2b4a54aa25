// SPDX-License-Identifier: MIT
// The order in which Phaser's `useTree: false` loop walks a group: `group.getChildren()`, the insertion order of
// the group's children (a Set in Phaser 4, Phaser's own Set in Phaser 3). The children of a group a collider names
// are watched from then on (their add, delete and clear, as own properties of that one object, taken back by
// `dispose`): each child gets a rank that grows with each insertion, so sorting by rank is the children's order,
// and a child's rank as it was when a collider's loop began can still be read after a callback removed it.
const STATIC_BODY = 1; // Phaser's CONST.STATIC_BODY

interface Ranked {
  rank: number;
  since: number; // the version at which it joined
}

interface Gone extends Ranked {
  until: number; // the version at which it left
}

interface Member {
  body?: { physicsType?: number } | null;
}

/** One watched group's children: by child, its rank. */
export class GroupOrder {
  readonly children: object;
  readonly live = new Map<unknown, Ranked>();
  // children removed while a collider loop runs: their rank for the loop that began before they left
  readonly gone = new Map<unknown, Gone>();
  /** Children whose body is a StaticBody (not in the dynamic index: looked for in Phaser's static tree). */
  statics = 0;

  constructor(children: object) {
    this.children = children;
  }

  /** The child's rank as it was at `version` (-1: not a child then). */
  rankAt(child: unknown, version: number): number {
    const live = this.live.get(child);
    if (live !== undefined && live.since <= version) return live.rank;
    const gone = this.gone.get(child);
    if (gone !== undefined && gone.since <= version && version < gone.until) return gone.rank;
    return -1;
  }
}

const WATCHED = ['add', 'set', 'delete', 'clear'] as const;

/** The watched groups of one Arcade world. */
export class GroupOrders {
  /** Bumped by every change of a watched group. */
  version = 0;
  #rank = 0;
  #depth = 0; // collider loops running (a callback may start another)
  readonly #orders = new WeakMap<object, GroupOrder>();
  readonly #restore: (() => void)[] = [];
  readonly #withGone = new Set<GroupOrder>();

  /** The order of a group's children (watched from now on). */
  of(group: { children?: unknown }): GroupOrder {
    const children = group.children as object;
    let order = this.#orders.get(group);
    if (order === undefined || order.children !== children) {
      order = new GroupOrder(children);
      this.#watch(order);
      this.#orders.set(group, order);
      this.#reread(order);
    } else if (order.live.size !== sizeOf(children)) {
      this.#reread(order); // changed behind the watch (a Set method called on it directly): read afresh
    }
    return order;
  }

  /** Around a collider loop: children removed meanwhile keep their rank for it. */
  enter(): void {
    this.#depth++;
  }

  leave(): void {
    if (--this.#depth > 0 || this.#withGone.size === 0) return;
    for (const order of this.#withGone) order.gone.clear();
    this.#withGone.clear();
  }

  /** Stop watching every group. */
  dispose(): void {
    for (const restore of this.#restore.splice(0)) restore();
  }

  #reread(order: GroupOrder): void {
    order.live.clear();
    order.statics = 0;
    const version = ++this.version;
    for (const child of membersOf(order.children)) this.#joined(order, child, version);
  }

  #joined(order: GroupOrder, child: unknown, version: number): void {
    order.live.set(child, { rank: ++this.#rank, since: version });
    if ((child as Member | null)?.body?.physicsType === STATIC_BODY) order.statics++;
  }

  #left(order: GroupOrder, child: unknown, version: number): void {
    const ranked = order.live.get(child);
    if (ranked === undefined) return;
    order.live.delete(child);
    if ((child as Member | null)?.body?.physicsType === STATIC_BODY) order.statics--;
    if (this.#depth > 0) {
      order.gone.set(child, { ...ranked, until: version });
      this.#withGone.add(order);
    }
  }

  #watch(order: GroupOrder): void {
    const target = order.children as Record<string, unknown>;
    for (const name of WATCHED) {
      const original = target[name];
      if (typeof original !== 'function') continue;
      const own = Object.getOwnPropertyDescriptor(target, name);
      const fn = original as (this: unknown, ...args: unknown[]) => unknown;
      const changed = (child: unknown, before: unknown[] | undefined): void => this.#changed(order, child, before);
      const watched = function (this: unknown, ...args: unknown[]): unknown {
        const before = name === 'clear' ? [...order.live.keys()] : undefined;
        const result = fn.apply(this, args);
        changed(args[0], before);
        return result;
      };
      Object.defineProperty(target, name, { value: watched, writable: true, configurable: true });
      this.#restore.push(() => {
        if (target[name] !== watched) return; // replaced since by someone else: theirs stays
        if (own === undefined) delete target[name];
        else Object.defineProperty(target, name, own);
      });
    }
  }

  #changed(order: GroupOrder, child: unknown, before: unknown[] | undefined): void {
    const version = ++this.version;
    if (before !== undefined) {
      for (const c of before) this.#left(order, c, version);
      return;
    }
    const present = hasMember(order.children, child);
    if (present && !order.live.has(child)) this.#joined(order, child, version);
    else if (!present && order.live.has(child)) this.#left(order, child, version);
  }
}

function sizeOf(children: object): number {
  const c = children as { size?: number; entries?: unknown[] };
  return typeof c.size === 'number' ? c.size : (c.entries?.length ?? 0);
}

function membersOf(children: object): unknown[] {
  const c = children as { entries?: unknown } & Iterable<unknown>;
  return Array.isArray(c.entries) ? c.entries.slice() : Array.from(c); // Phaser 3's Set : Phaser 4's
}

function hasMember(children: object, child: unknown): boolean {
  const c = children as { has?: (v: unknown) => boolean; contains?: (v: unknown) => boolean };
  if (children instanceof Set) return Set.prototype.has.call(children, child);
  return typeof c.contains === 'function' ? c.contains(child) : c.has!(child);
}
