// SPDX-License-Identifier: MIT
// What the physics-engine broadphases share: one box per body in a sweep-prune World, kept in step with the body's
// own bounding box (rounded outward to float32), its static-or-sleeping state and its collision filter.
import { World, slotOf } from '../../world.js';
import { roundDown, roundUp, storeDown, storeUp } from '../../float32.js';
import { OutwardBounds, grown } from './bounds.js';

/**
 * How an engine's body is read at every sync, in one call: `out` gets the body's mins (`out[0..d)`) and maxes
 * (`out[d..2d)`) in float64 (NaN or min > max parks the body: no box), then at `2d` 1 for a static box (the engine's
 * static or sleeping bodies, never paired with each other) or 0, and at `2d + 1`, `2d + 2` the box's filter
 * category and mask as unsigned 32-bit integers (A and B pair only if `A.category & B.mask` and
 * `B.category & A.mask` are non-zero).
 */
export type BodyReader<B> = (body: B, out: Float64Array) => void;

const finalizer =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry<World>((world) => world.dispose()) : undefined;

/**
 * The bodies of one physics world as boxes. Bodies are tracked from `add` on; their box is created at the next
 * `sync`, when they are read (a body may get its shapes after it was added). A body whose bounds are NaN or
 * inverted has no box until they are valid again (it pairs with nothing and no query finds it).
 */
export class BodyBoxes<B extends object> {
  readonly dimensions: number;
  readonly #world: World<B>;
  readonly #stride: number; // values read per body: 2 * dimensions bounds, static, category, mask
  readonly #index = new Map<B, number>(); // body -> dense index
  #bodies: B[] = [];
  // by dense index, in typed arrays (the sync's loop reads them for every body): the box id (0: no box, not synced
  // yet or parked), what the last sync read (#stride values; NaN: nothing applied yet), 1 where the stored float32
  // box differs from the body's float64 box
  #ids = new Uint32Array(16);
  #seen = new Float64Array(0);
  #inexact = new Uint8Array(16);
  #inexactCount = 0;
  /** The body of each box slot (`slotOf(id)`). */
  readonly bySlot: (B | undefined)[] = [];
  readonly #tmp: Float64Array;
  readonly #min: number[];
  readonly #max: number[];
  #changed = true;
  readonly #bounds: OutwardBounds;

  constructor(owner: object, dimensions: number) {
    this.dimensions = dimensions;
    this.#stride = 2 * dimensions + 3;
    this.#world = new World<B>({ dimensions, events: false }); // the pairs alone: no sort of them by id
    this.#bounds = new OutwardBounds(this.#world);
    this.#tmp = new Float64Array(this.#stride);
    this.#seen = new Float64Array(16 * this.#stride);
    this.#min = new Array<number>(dimensions).fill(0);
    this.#max = new Array<number>(dimensions).fill(0);
    finalizer?.register(owner, this.#world, this);
  }

  get disposed(): boolean {
    return this.#world.disposed;
  }

  get size(): number {
    return this.#bodies.length;
  }

  add(body: B): void {
    if (this.#index.has(body)) return;
    const i = this.#bodies.length;
    if (i === this.#ids.length) {
      this.#ids = grown(this.#ids, 2 * i);
      this.#inexact = grown(this.#inexact, 2 * i);
      this.#seen = grown(this.#seen, 2 * i * this.#stride);
    }
    this.#index.set(body, i);
    this.#bodies.push(body);
    this.#ids[i] = 0;
    this.#inexact[i] = 0;
    this.#seen.fill(NaN, i * this.#stride, (i + 1) * this.#stride);
  }

  remove(body: B): void {
    const i = this.#index.get(body);
    if (i === undefined) return;
    this.#park(i);
    // move the last body into the hole
    const last = this.#bodies.length - 1;
    const s = this.#stride;
    if (i !== last) {
      const moved = this.#bodies[last]!;
      this.#bodies[i] = moved;
      this.#index.set(moved, i);
      this.#ids[i] = this.#ids[last]!;
      this.#inexact[i] = this.#inexact[last]!;
      this.#seen.copyWithin(i * s, last * s, (last + 1) * s);
    }
    this.#index.delete(body);
    this.#bodies.pop();
    this.#ids[last] = 0;
    this.#inexact[last] = 0;
  }

  /** Track exactly `bodies` (after a change the engine announced with no event). */
  reconcile(bodies: readonly B[]): void {
    const keep = new Set(bodies);
    for (const b of this.#bodies.slice()) if (!keep.has(b)) this.remove(b);
    for (const b of bodies) this.add(b);
  }

  clear(): void {
    for (const b of this.#bodies.slice()) this.remove(b);
  }

  /** Remove the box of dense index `i`, if it has one; it is read afresh at the next sync. */
  #park(i: number): void {
    const id = this.#ids[i]!;
    if (id !== 0) {
      this.#world.removeBox(id);
      this.bySlot[slotOf(id)] = undefined;
      this.#ids[i] = 0;
      this.#changed = true;
    }
    this.#inexactCount -= this.#inexact[i]!;
    this.#inexact[i] = 0;
    this.#seen[i * this.#stride] = NaN;
  }

  /** Round `tmp`'s bounds outward into #min/#max; 1 if a value changed (the float32 box is larger), else 0. */
  #round(tmp: Float64Array): number {
    const d = this.dimensions;
    let inexact = 0;
    for (let a = 0; a < d; a++) {
      const lo = (this.#min[a] = roundDown(tmp[a]!));
      const hi = (this.#max[a] = roundUp(tmp[d + a]!));
      if (lo !== tmp[a] || hi !== tmp[d + a]) inexact = 1;
    }
    return inexact;
  }

  /**
   * True when every stored box equals its body's float64 box (p2's float32 vectors, or integer coordinates): then
   * the engine's pairs are exactly those of the float64 boxes, and a second float64 test can be skipped.
   */
  get exact(): boolean {
    return this.#inexactCount === 0;
  }

  /**
   * Read every tracked body and bring the World up to date: bounds that changed since the last sync are written
   * (rounded outward), boxes created or parked, static flags and filters switched. Calls `update()` only when
   * something changed, so `pairs` stay valid across syncs that find nothing new.
   */
  sync(read: BodyReader<B>): void {
    const d = this.dimensions;
    const d2 = 2 * d;
    const s = this.#stride;
    const tmp = this.#tmp;
    const bodies = this.#bodies;
    const bounds = this.#bounds;
    let view = bounds.take();
    let ints = bounds.ints;
    let changed = false;
    for (let i = 0, n = bodies.length; i < n; i++) {
      read(bodies[i]!, tmp);
      // typed arrays taken per body: #apply may have grown them or moved the World's memory
      const seen = this.#seen;
      const o = i * s;
      const id = this.#ids[i]!;
      if (
        id === 0 ||
        tmp[d2] !== seen[o + d2] ||
        tmp[d2 + 1] !== seen[o + d2 + 1] ||
        tmp[d2 + 2] !== seen[o + d2 + 2]
      ) {
        this.#apply(i, tmp); // a new or parked box, or another static flag or filter: the rare path
        view = bounds.take();
        ints = bounds.ints;
        continue;
      }
      let k = 0;
      while (k < d2 && seen[o + k] === tmp[k]) k++;
      if (k === d2) continue; // not moved
      // moved (the hot path): written rounded outward in place, unless the bounds became invalid
      let valid = true;
      for (let a = 0; a < d; a++) if (!(tmp[a]! <= tmp[d + a]!)) valid = false; // NaN fails too
      if (!valid) {
        this.#apply(i, tmp);
        continue;
      }
      const at = slotOf(id) * d2;
      let inexact = 0;
      for (let a = 0; a < d; a++) {
        const lo = tmp[a]!;
        const hi = tmp[d + a]!;
        storeDown(view, ints, at + a, lo); // the hot path: stored in place, no call per bound
        storeUp(view, ints, at + d + a, hi);
        if (view[at + a] !== lo || view[at + d + a] !== hi) inexact = 1;
      }
      for (k = 0; k < d2; k++) seen[o + k] = tmp[k]!;
      if (inexact !== this.#inexact[i]) {
        this.#inexactCount += inexact - this.#inexact[i]!;
        this.#inexact[i] = inexact;
      }
      changed = true;
    }
    if (changed || this.#changed) this.#world.update();
    this.#changed = false;
  }

  /** Make the box of dense index `i` what `tmp` says (it differs from what was seen last). */
  #apply(i: number, tmp: Float64Array): void {
    const world = this.#world;
    const d = this.dimensions;
    const s = this.#stride;
    const o = i * s;
    const seen = this.#seen;
    let valid = true;
    for (let a = 0; a < d; a++) if (!(tmp[a]! <= tmp[d + a]!)) valid = false; // NaN fails too
    if (!valid) {
      this.#park(i);
      return;
    }
    let id = this.#ids[i]!;
    let inexact = this.#inexact[i]!;
    if (id === 0) {
      inexact = this.#round(tmp);
      // no data on the box: the finalizer's World must not reach the bodies (they reach the broadphase it watches)
      id = world.addBox(this.#min, this.#max);
      this.#ids[i] = id;
      this.bySlot[slotOf(id)] = this.#bodies[i];
      seen[o + 2 * d] = 0; // a new box is moving, category 1, mask all
      seen[o + 2 * d + 1] = 1;
      seen[o + 2 * d + 2] = 0xffffffff;
    } else {
      let moved = false;
      for (let k = 0; k < 2 * d; k++) if (seen[o + k] !== tmp[k]) moved = true;
      if (moved) {
        const view = this.#bounds.take();
        const at = world.offsetOf(id);
        inexact = 0;
        for (let a = 0; a < d; a++) {
          this.#bounds.min(at + a, tmp[a]!);
          this.#bounds.max(at + d + a, tmp[d + a]!);
          if (view[at + a] !== tmp[a] || view[at + d + a] !== tmp[d + a]) inexact = 1;
        }
      }
    }
    this.#inexactCount += inexact - this.#inexact[i]!;
    this.#inexact[i] = inexact;
    const isStatic = tmp[2 * d]!;
    if (isStatic !== seen[o + 2 * d]) world.setBoxStatic(id, isStatic !== 0);
    const category = tmp[2 * d + 1]!;
    const mask = tmp[2 * d + 2]!;
    if (category !== seen[o + 2 * d + 1] || mask !== seen[o + 2 * d + 2]) world.setBoxFilter(id, category, mask);
    for (let k = 0; k < s; k++) seen[o + k] = tmp[k]!;
    this.#changed = true;
  }

  /** Overlapping box pairs of the last sync (ids; `bySlot[slotOf(id)]` is the body). Valid until the next sync. */
  get pairs(): Uint32Array {
    return this.#world.pairs;
  }

  /**
   * Box ids whose boxes overlap the float64 box `tmp` (mins then maxes) rounded outward: every body whose stored
   * box overlaps it, as of the last sync. Valid until the next query or sync.
   */
  query(tmp: Float64Array): Uint32Array {
    this.#round(tmp);
    return this.#world.queryBox(this.#min, this.#max);
  }

  dispose(): void {
    finalizer?.unregister(this);
    this.#world.dispose();
    this.#index.clear();
    this.#bodies = [];
    this.#inexactCount = 0;
  }
}
