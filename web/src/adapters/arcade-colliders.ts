// SPDX-License-Identifier: MIT
// The two collider loops of Arcade Physics that ask the broadphase, on an ArcadeIndex:
// - a body against a group (`collideSpriteVsGroup`, which `collider(g1, g2)` and `overlap(g1, g2)` run for each
//   body of g1): Phaser's own loop over a search of its tree, with the search answered by the index;
// - a group against itself (`collider(group)`): Phaser runs `collideSpriteVsSprite` on every pair i < j of the
//   group's children, in that order; here only on the pairs whose boxes meet when their turn comes, in the same
//   order, so every call that can do anything is made, and in Phaser's order.
import { type ArcadeBody, type ArcadeIndex, DYNAMIC, STATIC } from './arcade-index.js';

/** Phaser's `CONST.DYNAMIC_BODY` and `CONST.STATIC_BODY`. */
const DYNAMIC_BODY = 0;
const STATIC_BODY = 1;

/** A callback of `collider`/`overlap`, as Phaser calls it. */
export type ArcadeCallback = ((a: unknown, b: unknown) => unknown) | null | undefined;

/** An Arcade body as the loops use it: Phaser's `Body` and `StaticBody`. */
export interface Body extends ArcadeBody {
  enable: boolean;
  checkCollision: { none: boolean };
  gameObject?: unknown;
  isBody?: boolean;
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

/**
 * Phaser's `collideSpriteVsGroup`, its search of the tree answered by the index: the bodies of the group's kind
 * whose box meets the sprite's box as the loop starts, in the index's order (the order of `world.bodies` for
 * dynamic bodies, of insertion for static ones). `phaser` is Phaser's own function, for what the index does not
 * answer (a dynamic group with `useTree` off).
 */
export function collideSpriteVsGroup(
  index: ArcadeIndex,
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
  if (!world.useTree && group.physicsType !== STATIC_BODY) {
    phaser.call(world, sprite, group, collide, process, context, overlapOnly);
    return;
  }
  index.prepare();
  const kind = group.physicsType === DYNAMIC_BODY ? DYNAMIC : STATIC;
  const syncs = index.syncs;
  const slotA = index.dynamicSlot(bodyA);
  if (!index.mayMeet(slotA)) return; // most bodies of a sparse scene: nothing to search
  const from = index.top;
  const to = index.meetingOf(kind, slotA, bodyA);
  const bodies = index.bodies as Body[];
  try {
    for (let k = from; k < to; k++) {
      const bodyB = bodies[k]!;
      if (bodyA === bodyB || !bodyB.enable || bodyB.checkCollision.none || !group.contains!(bodyB.gameObject)) {
        continue;
      }
      if (world.separate(bodyA, bodyB, process, context, overlapOnly)) {
        if (collide) collide.call(context, bodyA.gameObject, bodyB.gameObject);
        world._total++;
      }
      // a callback may have synced the index (its slots then name other bodies)
      if (slotA >= 0 && index.syncs === syncs) index.trackSlot(slotA, bodyA);
      else index.track(bodyA);
      index.track(bodyB);
    }
  } finally {
    index.release(from);
  }
}

/**
 * Phaser's loop of a group (or array) against itself: `spriteVsSprite(members[i], members[j])` for i < j, here for
 * the pairs whose boxes meet when their turn comes, in the same order. `members` is not changed.
 */
export function collideSelf(
  index: ArcadeIndex,
  spriteVsSprite: SpriteVsSprite,
  world: WorldCalls,
  members: readonly unknown[],
  collide: ArcadeCallback,
  process: ArcadeCallback,
  context: unknown,
  overlapOnly: boolean,
): void {
  const n = members.length;
  const bodies: (Body | null)[] = new Array<Body | null>(n);
  for (let i = 0; i < n; i++) bodies[i] = bodyOf(members[i]);
  index.prepare();
  const self = new SelfPass(index, bodies);
  for (let i = 0; i < n; i++) {
    const bodyI = bodies[i];
    if (!bodyI) continue;
    index.prepare(); // a sync when many bodies are loose
    self.map();
    let rowEnd = self.row(i, -1);
    if (rowEnd === 0) continue; // most rows: the body's own box is not even read
    let rowStart = 0;
    let left = bodyI.left;
    let top = bodyI.top;
    let right = bodyI.right;
    let bottom = bodyI.bottom;
    while (rowStart < rowEnd) {
      const j = self.partners[rowStart++]!;
      const bodyJ = bodies[j]!;
      const l = bodyI.left;
      const t = bodyI.top;
      const r = bodyI.right;
      const b = bodyI.bottom;
      // every call that can do anything passes Phaser's intersects(), which needs the boxes to meet (closed)
      if (!(bodyJ.left <= r && bodyJ.top <= b && bodyJ.right >= l && bodyJ.bottom >= t)) continue;
      spriteVsSprite.call(world, members[i], members[j], collide, process, context, overlapOnly);
      self.track(j);
      self.track(i);
      // body i left its fat box, or moved while loose: the rest of its row is looked for again around its new box
      if (
        self.isLoose(i) &&
        (bodyI.left !== left || bodyI.top !== top || bodyI.right !== right || bodyI.bottom !== bottom)
      ) {
        left = bodyI.left;
        top = bodyI.top;
        right = bodyI.right;
        bottom = bodyI.bottom;
        self.map();
        rowEnd = self.row(i, j);
        rowStart = 0;
      }
    }
  }
}

/** The state of one group-against-itself loop: which member each slot is, which members are loose. */
class SelfPass {
  readonly #index: ArcadeIndex;
  readonly #bodies: readonly (Body | null)[];
  // by member: its slot (-1: none), 1 if its row looks around its box (a body the index does not hold as a trusted
  // moving box, or one out of its fat box), the last row it was put in
  readonly #slot: Int32Array;
  readonly #loose: Uint8Array;
  readonly #seen: Uint32Array;
  #looseList: number[] = []; // the members the index does not hold: every row looks at them
  #row = 0;
  // by slot: the member it is (valid where #memberStamp is this pass's stamp)
  #memberOf = new Int32Array(0);
  #syncs = -1;
  /** The partners of the current row, ascending. */
  partners: Int32Array;

  constructor(index: ArcadeIndex, bodies: readonly (Body | null)[]) {
    this.#index = index;
    this.#bodies = bodies;
    const n = bodies.length;
    this.#slot = new Int32Array(n);
    this.#loose = new Uint8Array(n);
    this.#seen = new Uint32Array(n);
    this.partners = new Int32Array(16);
  }

  /** Map slots to members (again after a sync, which may have given slots to other bodies). */
  map(): void {
    const index = this.#index;
    if (this.#syncs === index.syncs) return;
    this.#syncs = index.syncs;
    const bodies = this.#bodies;
    const memberOf = new Int32Array(index.slotCount).fill(-1);
    this.#looseList = [];
    for (let i = 0; i < bodies.length; i++) {
      const body = bodies[i];
      this.#slot[i] = -1;
      this.#loose[i] = 0;
      if (!body) continue;
      const slot = index.dynamicSlot(body);
      // a body twice in the array, or one the index does not hold as a trusted moving box, is looked at by every row
      if (slot >= 0 && index.isTrusted(slot) && memberOf[slot] === -1) {
        memberOf[slot] = i;
        this.#slot[i] = slot;
      } else {
        this.#loose[i] = 1;
        this.#looseList.push(i);
      }
    }
    this.#memberOf = memberOf;
  }

  isLoose(i: number): boolean {
    return this.#loose[i] === 1;
  }

  /** After a call that may have moved member `i`'s body. */
  track(i: number): void {
    const index = this.#index;
    if (index.syncs !== this.#syncs) {
      index.track(this.#bodies[i]!); // slots changed under this pass: the next map() sees the body's state
      return;
    }
    const slot = this.#slot[i]!;
    if (slot < 0) return; // not held by the index: every row looks at it
    // out of its fat box: its own row looks around it, and the index adds it to the lists of the boxes it meets
    if (index.trackSlot(slot, this.#bodies[i]!)) this.#loose[i] = 1;
  }

  /** The members after `after` (and after `i`) whose box may meet member i's box: into `partners`, ascending. */
  row(i: number, after: number): number {
    const index = this.#index;
    const body = this.#bodies[i]!;
    const from = index.top;
    const to =
      this.#loose[i] === 0
        ? index.candidates(this.#slot[i]!)
        : index.nearBox(body.left, body.top, body.right, body.bottom);
    const stack = index.stack;
    const memberOf = this.#memberOf;
    const looseList = this.#looseList;
    if (this.partners.length < to - from + looseList.length) {
      this.partners = new Int32Array(2 * (to - from + looseList.length));
    }
    const partners = this.partners;
    const stamp = ++this.#row;
    const seen = this.#seen;
    const bodies = this.#bodies;
    const min = after > i ? after : i;
    let count = 0;
    for (let k = from; k < to + looseList.length; k++) {
      const j = k < to ? memberOf[stack[k]!]! : looseList[k - to]!;
      if (j <= min || seen[j] === stamp || !bodies[j]) continue;
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
