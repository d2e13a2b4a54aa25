// SPDX-License-Identifier: MIT
// The collider loops of Arcade Physics that ask the broadphase, as Phaser runs them with `useTree: false`, on an
// ArcadeIndex. Phaser's loops call `separate` (or `collideSpriteVsSprite`) on every pair they walk, and a call on
// two bodies whose boxes do not meet does nothing (Phaser's `intersects` needs the boxes to meet); here the calls
// are made only for the pairs whose boxes may meet when their turn comes, in the loops' own order, so every call
// that can do anything is made, in the same order, with the same arguments:
// - a body against a dynamic group (`collideSpriteVsGroup`, which `collider(g1, g2)` and `overlap(g1, g2)` run for
//   each child of g1): the group's children in their order (`group.getChildren()`);
// - an array (a group's children, a plain group's, an array of sprites) against itself (i < j) or against another
//   array (every i, then every j), as `collideObjects` walks them.
// A static group is searched in Phaser's own static tree, as Phaser does in both of its modes.
import type { ArcadeBody, ArcadeIndex } from './bodies.js';
import type { GroupOrder, GroupOrders } from './groups.js';

/** Phaser's `CONST.STATIC_BODY`. */
const STATIC_BODY = 1;

/** A callback of `collider`/`overlap`, as Phaser calls it. */
export type ArcadeCallback = ((a: unknown, b: unknown) => unknown) | null | undefined;

/** An Arcade body as the loops use it: Phaser's `Body` and `StaticBody`. */
export interface Body extends ArcadeBody {
  enable: boolean;
  checkCollision: { none: boolean };
  gameObject?: unknown;
  isBody?: boolean;
  isCircle?: boolean;
  physicsType?: number;
}

/** What a group, sprite or body passed to a collider may have. */
export interface Collidable {
  isBody?: boolean;
  isParent?: boolean;
  isTilemap?: boolean;
  body?: Body | null;
  physicsType?: number;
  children?: Iterable<unknown> | { entries: unknown[] };
  length?: number;
  getLength?(): number;
  contains?(child: unknown): boolean;
}

/** The members of an Arcade `World` the loops call (Phaser's own functions, or the user's patches of them). */
export interface WorldCalls {
  useTree: boolean;
  staticTree: { search(bbox: { minX: number; minY: number; maxX: number; maxY: number }): Body[] };
  _total: number;
  canCollide?: (a: unknown, b: unknown) => boolean;
  separate(a: Body, b: Body, process: ArcadeCallback, context: unknown, overlapOnly: boolean): boolean;
}

/** Phaser's signature for a collider loop over two objects: they, then the collider's callbacks and its kind. */
export type PairLoop<A, B, R> = (
  this: WorldCalls,
  a: A,
  b: B,
  collide: ArcadeCallback,
  process: ArcadeCallback,
  context: unknown,
  overlapOnly: boolean,
) => R;

export type SpriteVsSprite = PairLoop<unknown, unknown, unknown>;
export type SpriteVsGroup = PairLoop<Collidable, Collidable, void>;

export function bodyOf(object: unknown): Body | null {
  const o = object as Collidable | null | undefined;
  if (o == null) return null;
  return o.isBody ? (o as unknown as Body) : (o.body ?? null);
}

// the candidates of the group loops running (a callback may start another), on one stack: a child's rank in its
// group and its body; each loop's from its base to rowTop
let rowRanks = new Float64Array(64);
const rowBodies: (Body | undefined)[] = [];
let rowTop = 0;

// a sync costs about as much as Phaser's walk of this many pairs per dynamic body
const WALK_PER_BODY = 4;

/**
 * Whether a loop is answered by Phaser's own walk of every pair or by the index. A step whose loops walk few pairs
 * in all (a player against a group, one enemy against a bullet pool) is cheaper walked than synced: Phaser walks
 * while the pairs walked this step, and last step, stay under `WALK_PER_BODY` per dynamic body, and the index is not
 * synced yet in this step (once it is, its answers cost less than any walk).
 */
export class WalkBudget {
  #spent = 0;
  #last = 0;
  readonly #index: ArcadeIndex;
  readonly #bodies: () => number;

  /** `bodies`: the number of dynamic bodies in the world now. */
  constructor(index: ArcadeIndex, bodies: () => number) {
    this.#index = index;
    this.#bodies = bodies;
  }

  /** At each step's start. */
  stepBegan(): void {
    this.#last = this.#spent;
    this.#spent = 0;
  }

  /** True to let Phaser walk a loop of `pairs` pairs. */
  walk(pairs: number): boolean {
    this.#spent += pairs;
    if (!this.#index.dirty) return false;
    const budget = WALK_PER_BODY * this.#bodies();
    return this.#spent <= budget && this.#last <= budget;
  }
}

/**
 * Phaser's `collideSpriteVsGroup` as `useTree: false` runs it for a dynamic group: `separate` with each child of the
 * group in order, here with the children whose body may meet the sprite's body when their turn comes. `phaser` is
 * Phaser's own function, for a static group (its static tree) and for a world whose `useTree` was set to false.
 */
export function collideSpriteVsGroup(
  index: ArcadeIndex,
  orders: GroupOrders,
  budget: WalkBudget,
  phaser: SpriteVsGroup,
  world: WorldCalls,
  sprite: Collidable,
  group: Collidable,
  collide: ArcadeCallback,
  process: ArcadeCallback,
  context: unknown,
  overlapOnly: boolean,
): void {
  const bodyA = bodyOf(sprite);
  if (group.physicsType === STATIC_BODY) {
    phaser.call(world, sprite, group, collide, process, context, overlapOnly);
    if (bodyA) index.track(bodyA); // its separations moved the sprite (a static body never moves)
    return;
  }
  const length = typeof group.getLength === 'function' ? group.getLength() : (group.length ?? 0);
  if (budget.walk(length)) {
    walk(world, () => phaser.call(world, sprite, group, collide, process, context, overlapOnly));
    return;
  }
  const canCollide = world.canCollide;
  // the test Phaser makes first: 3.70 and later added collision categories and getLength
  if (typeof canCollide === 'function') {
    if (
      group.getLength!() === 0 ||
      !bodyA ||
      !bodyA.enable ||
      bodyA.checkCollision.none ||
      !canCollide.call(world, bodyA, group)
    ) {
      return;
    }
  } else if (group.length === 0 || !bodyA || !bodyA.enable || bodyA.checkCollision.none) {
    return;
  }
  const order = orders.of(group);
  index.prepare();
  const slotA = index.dynamicSlot(bodyA);
  // most bodies of a sparse scene: nothing near, nothing to sort or walk
  if (order.statics === 0 && slotA >= 0 && index.isTrusted(slotA) && !index.mayMeet(slotA)) return;
  const version = orders.version; // the children as getChildren() gives them now
  const base = rowTop; // this loop's candidates on the row stack (a callback may start another loop)
  let entered = false;
  try {
    let after = -1; // the rank of the last child walked
    for (;;) {
      // the children after `after` whose body may meet bodyA where it is now
      index.prepare();
      const start = new RowStart(index, bodyA);
      const from = index.top;
      const to = start.trusted
        ? index.candidates(start.slot)
        : index.nearBox(start.left, start.top, start.right, start.bottom);
      const stack = index.stack;
      rowTop = base;
      for (let k = from; k < to; k++) addChild(order, version, index.bodyAt(stack[k]!) as Body, after);
      index.release(from);
      if (order.statics > 0) {
        const box = { minX: bodyA.left, minY: bodyA.top, maxX: bodyA.right, maxY: bodyA.bottom };
        for (const body of world.staticTree.search(box)) addChild(order, version, body, after);
      }
      const end = rowTop;
      if (end === base) return; // most bodies of a sparse scene: nothing near
      if (!entered) {
        orders.enter(); // children removed by a callback from here on keep their rank for this loop
        entered = true;
      }
      sortRow(base, end);
      let again = false;
      for (let k = base; k < end && !again; k++) {
        const bodyB = rowBodies[k]!;
        after = rowRanks[k]!;
        // as Phaser's loop (separate would refuse them too)
        if (bodyB === bodyA || !bodyB.enable || apart(bodyA, bodyB)) continue;
        if (world.separate(bodyA, bodyB, process, context, overlapOnly)) {
          if (collide) collide.call(context, bodyA.gameObject, bodyB.gameObject);
          world._total++;
        }
        index.track(bodyB);
        again = start.lookAgain(index, bodyA);
      }
      if (!again) return;
    }
  } finally {
    rowTop = base;
    for (let k = base; k < rowBodies.length && rowBodies[k] !== undefined; k++) rowBodies[k] = undefined;
    if (entered) orders.leave();
  }
}

/** Run Phaser's own loop as `useTree: false` runs it (the world's setting while in use, unless changed since). */
export function walk<R>(world: WorldCalls, run: () => R): R {
  if (!world.useTree) return run();
  world.useTree = false;
  try {
    return run();
  } finally {
    world.useTree = true;
  }
}

/** What a row's search of the index covered: the body's slot if trusted, its box, the sync. */
class RowStart {
  readonly syncs: number;
  readonly slot: number;
  readonly trusted: boolean;
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;

  constructor(index: ArcadeIndex, body: Body) {
    this.syncs = index.syncs;
    this.slot = index.dynamicSlot(body);
    this.trusted = this.slot >= 0 && index.isTrusted(this.slot);
    // a trusted body is followed through its fat box: its own box is read only to search around it
    this.left = this.trusted ? NaN : body.left;
    this.top = this.trusted ? NaN : body.top;
    this.right = this.trusted ? NaN : body.right;
    this.bottom = this.trusted ? NaN : body.bottom;
  }

  /**
   * After a call that may have moved the row's body: true if the rest of the row is to be looked for again, when
   * the body left what the search covered (its fat box; its box, for a search around it) or a callback synced the
   * index (its fat boxes are new).
   */
  lookAgain(index: ArcadeIndex, body: Body): boolean {
    if (index.syncs !== this.syncs || index.dirty) return true;
    if (this.trusted) return index.trackSlot(this.slot, body);
    index.track(body);
    return body.left !== this.left || body.top !== this.top || body.right !== this.right || body.bottom !== this.bottom;
  }
}

/**
 * True if two rectangles are strictly apart on an axis: Phaser's `intersects` is then false and `separate` does
 * nothing. A NaN bound is never apart (Phaser's rectangle test finds NaN boxes meeting); a circle never is either,
 * as Phaser tests it from its centre, whose rounding can make it touch a box its bounds stay a hair away from.
 */
function apart(a: Body, b: Body): boolean {
  return (b.left > a.right || b.top > a.bottom || b.right < a.left || b.bottom < a.top) && !a.isCircle && !b.isCircle;
}

// a candidate onto the row stack when it is a child of the group (as the loop began) after `after`
function addChild(order: GroupOrder, version: number, body: Body, after: number): void {
  const child = body.gameObject as Collidable | undefined;
  if (child === undefined || child.body !== body) return;
  const rank = order.rankAt(child, version);
  if (rank <= after) return;
  if (rowTop === rowRanks.length) {
    const grown = new Float64Array(2 * rowTop);
    grown.set(rowRanks);
    rowRanks = grown;
  }
  rowRanks[rowTop] = rank;
  rowBodies[rowTop++] = body;
}

// the row stack from `from` to `to` by rank (rows are short: insertion, else a sort of indices)
function sortRow(from: number, to: number): void {
  const ranks = rowRanks;
  const bodies = rowBodies;
  if (to - from > 32) {
    const order = Array.from({ length: to - from }, (_, i) => from + i).sort((a, b) => ranks[a]! - ranks[b]!);
    const r = order.map((i) => ranks[i]!);
    const b = order.map((i) => bodies[i]);
    for (let i = 0; i < r.length; i++) {
      ranks[from + i] = r[i]!;
      bodies[from + i] = b[i];
    }
    return;
  }
  for (let i = from + 1; i < to; i++) {
    const r = ranks[i]!;
    const body = bodies[i];
    let j = i - 1;
    while (j >= from && ranks[j]! > r) {
      ranks[j + 1] = ranks[j]!;
      bodies[j + 1] = bodies[j];
      j--;
    }
    ranks[j + 1] = r;
    bodies[j + 1] = body;
  }
}

/**
 * Phaser's loops over arrays in `collideObjects`: `spriteVsSprite(rows[i], cols[j])` for every i, then every j
 * (`self`: the same array, j > i), here for the pairs whose bodies may meet when their turn comes, in the same
 * order. The arrays are not changed.
 */
export function collidePairs(
  index: ArcadeIndex,
  spriteVsSprite: SpriteVsSprite,
  world: WorldCalls,
  rows: readonly unknown[],
  cols: readonly unknown[],
  self: boolean,
  collide: ArcadeCallback,
  process: ArcadeCallback,
  context: unknown,
  overlapOnly: boolean,
): void {
  const rowBodiesOf: (Body | null)[] = rows.map(bodyOf);
  const colBodies: (Body | null)[] = self ? rowBodiesOf : cols.map(bodyOf);
  index.prepare();
  const pass = new PairPass(index, colBodies);
  for (let i = 0; i < rows.length; i++) {
    const bodyI = rowBodiesOf[i];
    if (!bodyI) continue;
    let after = self ? i : -1;
    for (;;) {
      index.prepare(); // a sync when many bodies are loose
      pass.map();
      const start = new RowStart(index, bodyI);
      const count = pass.row(bodyI, start.trusted ? start.slot : -1, after);
      if (count === 0) break; // most rows: nothing near
      const partners = pass.partners.slice(0, count);
      let again = false;
      for (let k = 0; k < count && !again; k++) {
        const j = partners[k]!;
        after = j;
        const bodyJ = colBodies[j]!;
        if (apart(bodyI, bodyJ)) continue;
        spriteVsSprite.call(world, rows[i], cols[j], collide, process, context, overlapOnly);
        index.track(bodyJ);
        again = start.lookAgain(index, bodyI);
      }
      if (!again) break;
    }
  }
}

/** The columns of one array loop: which column each slot is, which columns every row looks at. */
class PairPass {
  readonly #index: ArcadeIndex;
  readonly #bodies: readonly (Body | null)[];
  readonly #seen: Uint32Array;
  #row = 0;
  #looseList: number[] = []; // columns the index does not hold (or holds twice): every row looks at them
  #memberOf = new Int32Array(0); // by slot: its column (-1: none)
  #syncs = -1;
  /** The columns of the current row, ascending. */
  partners: Int32Array;

  constructor(index: ArcadeIndex, bodies: readonly (Body | null)[]) {
    this.#index = index;
    this.#bodies = bodies;
    this.#seen = new Uint32Array(bodies.length);
    this.partners = new Int32Array(16);
  }

  /** Map slots to columns (again after a sync, which may have given slots to other bodies). */
  map(): void {
    const index = this.#index;
    if (this.#syncs === index.syncs) return;
    this.#syncs = index.syncs;
    const bodies = this.#bodies;
    const memberOf = new Int32Array(index.slotCount).fill(-1);
    this.#looseList = [];
    for (let j = 0; j < bodies.length; j++) {
      const body = bodies[j];
      if (!body) continue;
      const slot = index.dynamicSlot(body);
      if (slot >= 0 && memberOf[slot] === -1) memberOf[slot] = j;
      else this.#looseList.push(j);
    }
    this.#memberOf = memberOf;
  }

  /**
   * The columns after `after` whose body may meet `body` (its slot when trusted, else -1: looked for around its
   * box): into `partners`, ascending. Returns their count.
   */
  row(body: Body, slot: number, after: number): number {
    const index = this.#index;
    const from = index.top;
    const to = slot >= 0 ? index.candidates(slot) : index.nearBox(body.left, body.top, body.right, body.bottom);
    const stack = index.stack;
    const memberOf = this.#memberOf;
    const looseList = this.#looseList;
    if (this.partners.length < to - from + looseList.length) {
      this.partners = new Int32Array(2 * (to - from + looseList.length));
    }
    const partners = this.partners;
    const stamp = ++this.#row;
    const seen = this.#seen;
    let count = 0;
    for (let k = from; k < to + looseList.length; k++) {
      const j = k < to ? memberOf[stack[k]!]! : looseList[k - to]!;
      if (j <= after || seen[j] === stamp) continue;
      seen[j] = stamp;
      // insertion into the sorted partners (rows are short)
      let p = count++;
      while (p > 0 && partners[p - 1]! > j) {
        partners[p] = partners[p - 1]!;
        p--;
      }
      partners[p] = j;
    }
    index.release(from);
    return count;
  }
}
