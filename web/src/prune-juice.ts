// SPDX-License-Identifier: MIT
// A drop-in for @b3gm/prune-juice 0.0.2, running on the wasm engine.
import { SweepPruneError } from './errors.js';
import { notInitialized } from './loader.js';
import { preview } from './preview.js';
import { GENERATION_BITS } from './raw.js';
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

/** The engine's largest axis count: further axes are tested in JS only. */
const ENGINE_AXES = 4;
const FLOAT32_MAX = 3.4028234663852886e38;

/** An extractor's value as prune-juice's comparisons read it (`a - b` converts with ToNumber). */
function toNumber(v: unknown): number {
  return typeof v === 'symbol' ? NaN : Number(v);
}

/**
 * Same surface and answers as `@b3gm/prune-juice` 0.0.2: register objects, then once per frame call
 * `getCollisionCandidates()`, which pulls every object's bounds through the extractors (positions are read, never
 * pushed) and returns the overlapping pairs. Requires `await init()` first.
 *
 * Pairs are decided in float64, as prune-juice decides them: the engine works on the nearest float32 bounds
 * (rounding keeps the order of numbers, so it never misses a pair), and every candidate pair is tested again on
 * the extractors' own numbers. Infinite and beyond-float32 bounds (`Infinity`, `Number.MAX_VALUE`) mean
 * unbounded. Any number of extractors (axes): the engine sorts on the first four, the others are tested in float64.
 *
 * Differences, all deliberate:
 * - Boxes are closed intervals: boxes that touch (one's end equals the other's start) are always a pair;
 *   prune-juice decides them by the order of its sorted markers, so by registration order and past frames.
 * - An extractor value that is NaN, or converts to NaN (`undefined`, a non-numeric string), makes
 *   `getCollisionCandidates()` throw `InvalidBounds` naming the object, and changes nothing; prune-juice silently
 *   loses pairs of other objects then.
 * - Registering an object already registered throws `AlreadyRegistered` (prune-juice tracks it twice and returns
 *   it paired with itself and every pair of it twice).
 * - At least one extractor (prune-juice with none returns no pairs).
 * - `sortFn` is accepted but not called: sorting happens inside the wasm engine (insertion sort on coherent
 *   frames, radix sort otherwise), so a JS comparator would only slow it down.
 * - The wasm memory is freed when the object is garbage-collected, or at once with `dispose()`.
 */
export class PruneJuice<T> {
  readonly #world: World;
  readonly #extractors: DimensionExtractor<T>[];
  readonly #axes: number; // axes the engine sorts on: min(extractors, 4)
  readonly #index = new Map<T, number>(); // item -> dense index
  readonly #placeholder: number[];
  #items: T[] = [];
  #ids: BoxId[] = [];
  #bySlot: (T | undefined)[] = [];
  #orderBySlot: number[] = []; // registration sequence number per slot: the earlier object comes first in a pair
  #exact = new Float64Array(0); // per slot: the extractors' numbers, mins then maxes, 2 * extractors.length
  #sequence = 0;
  #disposed = false;
  #reading = false;

  constructor(extractors: Array<DimensionExtractor<T>>, sortFn?: SortFunction) {
    if (!Array.isArray(extractors) || extractors.length < 1) {
      throw new SweepPruneError(
        'InvalidDimensions',
        `new PruneJuice: extractors must be an array of { getStart, getEnd } objects, one per axis (at least one), got ${Array.isArray(extractors) ? 'an empty array' : preview(extractors)}`,
      );
    }
    extractors.forEach((e, i) => {
      if (e == null || typeof e.getStart !== 'function' || typeof e.getEnd !== 'function') {
        throw new SweepPruneError(
          'InvalidArgument',
          `new PruneJuice: extractors[${i}] must have getStart(t) and getEnd(t) functions, got ${preview(e)}`,
        );
      }
    });
    if (sortFn !== undefined && typeof sortFn !== 'function') {
      throw new SweepPruneError(
        'InvalidArgument',
        `new PruneJuice: sortFn must be a function or undefined, got ${preview(sortFn)}`,
      );
    }
    this.#extractors = extractors.slice();
    this.#axes = Math.min(extractors.length, ENGINE_AXES);
    this.#placeholder = new Array<number>(this.#axes).fill(0);
    try {
      this.#world = new World({ dimensions: this.#axes });
    } catch (error) {
      throw restate(error, 'new PruneJuice');
    }
    finalizer?.register(this, this.#world, this);
  }

  #check(what: string): void {
    if (this.#disposed) {
      throw new SweepPruneError('Disposed', `${what}: this PruneJuice was disposed; create a new PruneJuice`);
    }
    if (this.#reading) {
      throw new SweepPruneError(
        'InvalidArgument',
        `${what}: called from an extractor during getCollisionCandidates(); register and unregister objects between calls`,
      );
    }
  }

  /** Start tracking an object. Reads nothing: its bounds are read on every `getCollisionCandidates()`. */
  register(item: T): void {
    this.#check('register');
    if (this.#index.has(item)) {
      throw new SweepPruneError(
        'AlreadyRegistered',
        `register: ${preview(item)} is already registered; unregister it first`,
      );
    }
    let id: BoxId;
    try {
      // placeholder bounds: getCollisionCandidates() writes the real ones before every update
      id = this.#world.addBox(this.#placeholder, this.#placeholder);
    } catch (error) {
      throw restate(error, 'register');
    }
    const slot = id >>> GENERATION_BITS;
    const stride = 2 * this.#extractors.length;
    if ((slot + 1) * stride > this.#exact.length) {
      const grown = new Float64Array(Math.max(16, 2 * (slot + 1)) * stride);
      grown.set(this.#exact);
      this.#exact = grown;
    }
    this.#index.set(item, this.#items.length);
    this.#items.push(item);
    this.#ids.push(id);
    this.#bySlot[slot] = item;
    this.#orderBySlot[slot] = this.#sequence++;
  }

  /** Stop tracking an object. Unknown objects are ignored, as in prune-juice. */
  unregister(item: T): void {
    this.#check('unregister');
    const i = this.#index.get(item);
    if (i === undefined) return;
    const id = this.#ids[i]!;
    this.#world.removeBox(id);
    this.#bySlot[id >>> GENERATION_BITS] = undefined;
    const last = this.#items.length - 1;
    if (i !== last) {
      const moved = this.#items[last]!;
      this.#items[i] = moved;
      this.#ids[i] = this.#ids[last]!;
      this.#index.set(moved, i);
    }
    this.#items.pop();
    this.#ids.pop();
    this.#index.delete(item);
  }

  /**
   * Read every registered object's bounds through the extractors and return all overlapping pairs as fresh
   * `[a, b]` arrays, `a` registered before `b` (as prune-juice orders them). Boxes are closed intervals, compared
   * in float64. Infinite and beyond-float32 values are accepted (unbounded).
   * @throws SweepPruneError `InvalidBounds` naming the object if an extractor returns NaN or a value that
   * converts to NaN (such as `undefined`); nothing changes, so the call can be repeated once the object is fixed.
   */
  getCollisionCandidates(): Array<Array<T>> {
    this.#check('getCollisionCandidates');
    const world = this.#world;
    const items = this.#items;
    const ids = this.#ids;
    const ex = this.#extractors;
    const d = ex.length;
    const stride = 2 * d;
    const axes = this.#axes;
    const engineStride = 2 * axes;
    const exact = this.#exact;
    // float32 bounds equal the float64 ones: the engine's pairs need no second test
    let same = d <= ENGINE_AXES;
    const bounds = world.bounds;
    this.#reading = true;
    try {
      for (let i = 0; i < items.length; i++) {
        const item = items[i]!;
        const slot = ids[i]! >>> GENERATION_BITS;
        const o = slot * stride;
        const e32 = slot * engineStride;
        for (let a = 0; a < d; a++) {
          const start = ex[a]!.getStart(item);
          const end = ex[a]!.getEnd(item);
          let lo = typeof start === 'number' ? start : toNumber(start);
          let hi = typeof end === 'number' ? end : toNumber(end);
          if (!(lo <= hi)) {
            if (!(hi < lo)) throw invalidBounds(item, a, start, end);
            // the extractor's ends in either order, as prune-juice reads them
            const t = lo;
            lo = hi;
            hi = t;
          }
          exact[o + a] = lo;
          exact[o + d + a] = hi;
          if (a < axes) {
            // The nearest float32, clamped to the float32 range: both keep the order of numbers, so boxes that
            // overlap in float64 still overlap (no pair is lost); the engine may add pairs, tested again below.
            let lo32 = Math.fround(lo);
            let hi32 = Math.fround(hi);
            if (lo32 !== lo || hi32 !== hi) same = false;
            if (lo32 < -FLOAT32_MAX || hi32 > FLOAT32_MAX) {
              lo32 = lo32 < -FLOAT32_MAX ? -FLOAT32_MAX : lo32 > FLOAT32_MAX ? FLOAT32_MAX : lo32;
              hi32 = hi32 > FLOAT32_MAX ? FLOAT32_MAX : hi32 < -FLOAT32_MAX ? -FLOAT32_MAX : hi32;
              same = false;
            }
            bounds[e32 + a] = lo32;
            bounds[e32 + axes + a] = hi32;
          }
        }
      }
    } finally {
      this.#reading = false;
    }
    try {
      world.update();
    } catch (error) {
      throw restate(error, 'getCollisionCandidates');
    }
    const pairs = world.pairs;
    const bySlot = this.#bySlot;
    const order = this.#orderBySlot;
    const out: T[][] = new Array(pairs.length >>> 1);
    let k = 0;
    for (let i = 0; i < pairs.length; i += 2) {
      const sa = pairs[i]! >>> GENERATION_BITS;
      const sb = pairs[i + 1]! >>> GENERATION_BITS;
      if (!same) {
        // the engine's pair is a candidate: keep it if the float64 boxes overlap on every axis
        const oa = sa * stride;
        const ob = sb * stride;
        let a = 0;
        while (a < d && exact[oa + a]! <= exact[ob + d + a]! && exact[ob + a]! <= exact[oa + d + a]!) a++;
        if (a < d) continue;
      }
      out[k++] = order[sa]! < order[sb]! ? [bySlot[sa]!, bySlot[sb]!] : [bySlot[sb]!, bySlot[sa]!];
    }
    out.length = k;
    return out;
  }

  /** Number of registered objects (0 after `dispose()`). */
  get size(): number {
    return this.#items.length;
  }

  /** True after `dispose()`. */
  get disposed(): boolean {
    return this.#disposed;
  }

  /** Free the wasm memory now instead of at garbage collection. Idempotent; any later call throws `Disposed`. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    finalizer?.unregister(this);
    this.#world.dispose();
    this.#index.clear();
    this.#items = [];
    this.#ids = [];
    this.#bySlot = [];
    this.#orderBySlot = [];
    this.#exact = new Float64Array(0);
  }
}

function invalidBounds(item: unknown, axis: number, start: unknown, end: unknown): SweepPruneError {
  return new SweepPruneError(
    'InvalidBounds',
    `getCollisionCandidates: extractors[${axis}] gave start ${preview(start)} and end ${preview(end)} for ${preview(item)}; ` +
      'getStart and getEnd must return numbers (NaN and undefined are rejected). Nothing changed: fix or unregister ' +
      'the object, then call getCollisionCandidates() again',
  );
}

/** A `World` error as the PruneJuice call that met it, naming no `World` method the user did not call. */
function restate(error: unknown, what: string): unknown {
  if (!(error instanceof SweepPruneError)) return error;
  switch (error.code) {
    case 'NotInitialized':
      return notInitialized(what);
    case 'OutOfMemory':
      return new SweepPruneError(
        'OutOfMemory',
        `${what}: out of wasm memory (the module's limit is 2 GB); unregister objects or dispose() PruneJuice instances and Worlds you no longer use. Nothing changed`,
      );
    case 'CapacityExceeded':
      return new SweepPruneError(
        'CapacityExceeded',
        `${what}: a PruneJuice holds at most 4194304 objects; unregister some first`,
      );
    case 'TooManyWorlds':
      return new SweepPruneError(
        'TooManyWorlds',
        `${what}: every one of the 4194304 world slots is in use or retired (a slot serves 1023 PruneJuice instances or Worlds); dispose() the ones you no longer use`,
      );
    default:
      return error;
  }
}

export default PruneJuice;
