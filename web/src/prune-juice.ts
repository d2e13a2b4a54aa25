// SPDX-License-Identifier: MIT
// A drop-in for @b3gm/prune-juice 0.0.2, running on the wasm engine.
import { SweepPruneError } from './errors.js';
import { World, type BoxId } from './world.js';

/** Reads one axis of a user's box: the low and high coordinates. */
export interface DimensionExtractor<T> {
  getStart(t: T): number;
  getEnd(t: T): number;
}

/** prune-juice's pluggable sort. Accepted for compatibility; see `PruneJuice`. */
export interface SortFunction {
  <U>(arr: Array<U>, cmp: (a: U, b: U) => number): void;
}

const finalizer =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry<World>((world) => world.dispose()) : undefined;

/**
 * Same surface as `@b3gm/prune-juice`: register objects, then once per frame call `getCollisionCandidates()`,
 * which pulls every object's bounds through the extractors (positions are read, never pushed) and returns the
 * overlapping pairs. Requires `await init()` first.
 *
 * Differences, all deliberate:
 * - Boxes are closed intervals: touching boxes are always a pair (prune-juice decides them by registration order).
 * - `getStart`/`getEnd` may come in either order (as in prune-juice); NaN or infinite values throw.
 * - Registering the same object twice throws `AlreadyRegistered` (prune-juice returns self-pairs).
 * - 1 to 4 extractors (dimensions).
 * - `sortFn` is accepted but not called: sorting happens inside the wasm engine (insertion sort on coherent
 *   frames, radix sort otherwise), so a JS comparator would only slow it down.
 * - The wasm memory is freed when the object is garbage-collected, or at once with `dispose()`.
 */
export class PruneJuice<T> {
  readonly #world: World;
  readonly #extractors: DimensionExtractor<T>[];
  readonly #index = new Map<T, number>(); // item -> dense index
  #items: T[] = [];
  #ids: BoxId[] = [];
  #order: number[] = []; // registration sequence number per dense index
  #bySlot: (T | undefined)[] = [];
  #orderBySlot: number[] = [];
  #sequence = 0;

  constructor(extractors: Array<DimensionExtractor<T>>, sortFn?: SortFunction) {
    if (!Array.isArray(extractors) || extractors.length < 1 || extractors.length > 4) {
      throw new SweepPruneError('InvalidDimensions', `new PruneJuice: extractors must be an array of 1 to 4 { getStart, getEnd } objects (one per axis), got ${Array.isArray(extractors) ? extractors.length : typeof extractors}`);
    }
    extractors.forEach((e, i) => {
      if (e == null || typeof e.getStart !== 'function' || typeof e.getEnd !== 'function') {
        throw new SweepPruneError('InvalidArgument', `new PruneJuice: extractors[${i}] must have getStart(t) and getEnd(t) functions`);
      }
    });
    if (sortFn !== undefined && typeof sortFn !== 'function') {
      throw new SweepPruneError('InvalidArgument', `new PruneJuice: sortFn must be a function or undefined, got ${typeof sortFn}`);
    }
    this.#extractors = extractors.slice();
    this.#world = new World({ dimensions: extractors.length });
    finalizer?.register(this, this.#world, this);
  }

  #bounds(item: T, what: string): [number[], number[]] {
    const min: number[] = [];
    const max: number[] = [];
    const ex = this.#extractors;
    for (let a = 0; a < ex.length; a++) {
      const s = ex[a]!.getStart(item);
      const e = ex[a]!.getEnd(item);
      if (typeof s !== 'number' || typeof e !== 'number' || !Number.isFinite(s) || !Number.isFinite(e)) {
        throw new SweepPruneError('InvalidBounds', `${what}: extractors[${a}] returned start ${s} and end ${e}; both must be finite numbers`);
      }
      min.push(s < e ? s : e);
      max.push(s < e ? e : s);
    }
    return [min, max];
  }

  /** Start tracking an object. Its bounds are read now and on every `getCollisionCandidates()`. */
  register(item: T): void {
    if (this.#index.has(item)) {
      throw new SweepPruneError('AlreadyRegistered', 'register: this object is already registered; unregister it first');
    }
    const [min, max] = this.#bounds(item, 'register');
    const id = this.#world.addBox(min, max);
    const slot = id >>> 10;
    this.#index.set(item, this.#items.length);
    this.#items.push(item);
    this.#ids.push(id);
    const seq = this.#sequence++;
    this.#order.push(seq);
    this.#bySlot[slot] = item;
    this.#orderBySlot[slot] = seq;
  }

  /** Stop tracking an object. Unknown objects are ignored, as in prune-juice. */
  unregister(item: T): void {
    const i = this.#index.get(item);
    if (i === undefined) return;
    const id = this.#ids[i]!;
    this.#world.removeBox(id);
    this.#bySlot[id >>> 10] = undefined;
    const last = this.#items.length - 1;
    if (i !== last) {
      const moved = this.#items[last]!;
      this.#items[i] = moved;
      this.#ids[i] = this.#ids[last]!;
      this.#order[i] = this.#order[last]!;
      this.#index.set(moved, i);
    }
    this.#items.pop();
    this.#ids.pop();
    this.#order.pop();
    this.#index.delete(item);
  }

  /**
   * Read every registered object's bounds and return all overlapping pairs as `[a, b]`, `a` registered before `b`.
   * A fresh array each call.
   * @throws SweepPruneError `InvalidBounds` if an extractor returns NaN or a non-finite value (nothing changes).
   */
  getCollisionCandidates(): Array<Array<T>> {
    const world = this.#world;
    const items = this.#items;
    const ids = this.#ids;
    const ex = this.#extractors;
    const d = ex.length;
    const stride = 2 * d;
    const bounds = world.bounds;
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      const base = (ids[i]! >>> 10) * stride;
      for (let a = 0; a < d; a++) {
        const s = ex[a]!.getStart(item);
        const e = ex[a]!.getEnd(item);
        if (s <= e) {
          bounds[base + a] = s;
          bounds[base + d + a] = e;
        } else {
          bounds[base + a] = e;
          bounds[base + d + a] = s;
        }
      }
    }
    try {
      world.update();
    } catch (error) {
      if (error instanceof SweepPruneError && error.boxId !== undefined) {
        const item = this.#bySlot[error.boxId >>> 10];
        const index = item === undefined ? -1 : this.#index.get(item)!;
        this.#bounds(item as T, `getCollisionCandidates: registered object #${index}`);
      }
      throw error;
    }
    const pairs = world.pairs;
    const bySlot = this.#bySlot;
    const order = this.#orderBySlot;
    const out: T[][] = new Array(pairs.length >>> 1);
    for (let i = 0, k = 0; i < pairs.length; i += 2, k++) {
      const sa = pairs[i]! >>> 10;
      const sb = pairs[i + 1]! >>> 10;
      out[k] = order[sa]! < order[sb]! ? [bySlot[sa]!, bySlot[sb]!] : [bySlot[sb]!, bySlot[sa]!];
    }
    return out;
  }

  /** Number of registered objects. */
  get size(): number {
    return this.#items.length;
  }

  /** Free the wasm memory now instead of at garbage collection. Any later call throws `Disposed`. */
  dispose(): void {
    finalizer?.unregister(this);
    this.#world.dispose();
  }
}

export default PruneJuice;
