// SPDX-License-Identifier: MIT
// The low-level API: a world of boxes addressed by numeric ids, with typed-array views into wasm memory.
import { RESULT, SweepPruneError } from './errors.js';
import { getEngine, releaseKept } from './loader.js';
import { checkOptions } from './options.js';
import { badBoxError, boxCountOf, withStagedBoxes } from './bulk.js';
import { checkMask } from './checks.js';
import { check, fail, outputs, writeBox } from './engine-call.js';
import {
  Queries,
  type DistanceHits,
  type QueryCallback,
  type RayHit,
  type RayHits,
  type RayOptions,
} from './queries.js';
import { attachThreads, checkThreads, type PoolShare } from './threading.js';
import { BoundsViews } from './views.js';
import {
  type BoxId,
  COUNTER_OFFSETS,
  COUNTERS_BYTES,
  type Counters,
  GENERATION_BITS,
  PAIR_LIST,
  type PairList,
  type RawExports,
  SCRATCH_OUT,
} from './raw.js';

export type { BoxId, Counters } from './raw.js';
export type { DistanceHits, QueryCallback, RayHit, RayHits, RayOptions } from './queries.js';

export interface WorldOptions {
  /** Number of axes, 1 to 4. Default 2. */
  dimensions?: number;
  /** Boxes to reserve room for up front (more can always be added). Default 0. */
  capacity?: number;
  /**
   * `false`: `update()` finds the pairs only, with no `began` and `ended` lists (reading them throws), which saves
   * sorting the pairs by id and comparing them with the last update's: most of an update's cost beyond the sweep
   * when many boxes touch static boxes. For callers that need the pairs alone, such as a physics broadphase.
   * Default true.
   */
  events?: boolean;
  /**
   * Threads that share each `update()`: the caller's plus `threads - 1` workers, 1 to 64. Default 1. Needs the
   * threaded engine (`sweep-prune/threads`) and shared memory; without them the world runs on one thread, warns once
   * and `world.threads` reads 1. The results are the same for any number of threads (README "Threads").
   */
  threads?: number;
}

const WORLD_OPTIONS: readonly (keyof WorldOptions)[] = ['dimensions', 'capacity', 'events', 'threads'];
/** One axis's sorted endpoints: `values[i]` is a coordinate, `refs[i]` is `slot << 1 | isMax`. Copies, safe to keep. */
export interface Endpoints {
  values: Float32Array;
  refs: Uint32Array;
}

/** What a `forEach...` callback receives: the two box ids (`a < b`) and the data given to `addBox` for each. */
export type PairCallback<T> = (a: BoxId, b: BoxId, dataA: T | undefined, dataB: T | undefined) => void;

/**
 * The engine's index of the last `update()` (`world.slabs()`): the boxes sorted by their min on `sweepAxis` inside
 * slabs of `slabAxis`. Copies, safe to keep.
 */
export interface Slabs {
  /** Axis the boxes are sorted and swept along; -1 when the index is empty (no update yet, or no boxes). */
  sweepAxis: number;
  /** Axis the slabs cut; -1 when there is one slab. */
  slabAxis: number;
  /** One value per slab: slab `s` holds the boxes reaching into `[floors[s], floors[s + 1])` on `slabAxis`; `floors[0]` is -Infinity. */
  floors: Float32Array;
  /** One more value than slabs: slab `s`'s boxes are `ids[starts[s]]` to `ids[starts[s + 1] - 1]`. */
  starts: Uint32Array;
  /** Box ids, slab after slab, each slab's sorted by min on `sweepAxis`; a box reaching into k slabs is in each. */
  ids: Uint32Array;
}

/** The slot of a box id: its bounds start at `slotOf(id) * 2 * dimensions` in `world.bounds`. */
export function slotOf(id: BoxId): number {
  return id >>> GENERATION_BITS;
}

/**
 * A world of axis-aligned boxes in 1 to 4 dimensions, and all their overlapping pairs.
 *
 * Owns wasm memory: call `dispose()` (or use `using`) when done; it is not garbage-collected.
 */
export class World<T = unknown> {
  /** Number of axes. */
  readonly dimensions: number;
  #threads = 1; // asked for (options.threads)
  #pool: PoolShare | undefined;
  #updatesOnFewerThreads = 0;
  #data: (T | undefined)[] = []; // by slot
  #owner: number[] = []; // by slot: the id whose data #data holds (0 when none)
  // data of boxes removed since the last update (their pairs end at the next one), then of those whose pairs
  // ended in the last update: passed to the forEach callbacks even after the slot is reused
  #removedData = new Map<BoxId, T>();
  #endedData = new Map<BoxId, T>();
  #iterating = 0; // forEach callbacks running
  #raw: RawExports | undefined;
  #id = 0;
  #scratch = 0;
  #views!: BoundsViews;
  #queries!: Queries<T>;
  #events = true;

  constructor(options: WorldOptions = {}) {
    const raw = getEngine('new World');
    if (options === null || typeof options !== 'object') {
      throw new SweepPruneError(
        'InvalidArgument',
        `new World(options): options must be an object like { dimensions: 2 }, got ${options}`,
      );
    }
    checkOptions('new World', options, WORLD_OPTIONS);
    const dimensions = options.dimensions ?? 2;
    const capacity = options.capacity ?? 0;
    if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 4) {
      throw new SweepPruneError(
        'InvalidDimensions',
        `new World: options.dimensions must be 1, 2, 3 or 4, got ${dimensions}`,
      );
    }
    if (!Number.isInteger(capacity) || capacity < 0 || capacity > 1 << 22) {
      throw new SweepPruneError(
        'CapacityExceeded',
        `new World: options.capacity must be an integer from 0 to 4194304, got ${capacity}`,
      );
    }
    if (options.events !== undefined && typeof options.events !== 'boolean') {
      throw new SweepPruneError(
        'InvalidArgument',
        `new World: options.events must be true or false, got ${String(options.events)}`,
      );
    }
    const threads = checkThreads('new World', options.threads ?? 1);
    this.dimensions = dimensions;
    this.#scratch = raw.sp_scratch();
    check(raw, raw.sp_create_world(dimensions, capacity), 'new World');
    this.#id = outputs(raw, this.#scratch, 1)[0]!;
    try {
      this.#pool = attachThreads(raw, this.#id, threads, 'new World');
    } catch (error) {
      raw.sp_destroy_world(this.#id);
      throw error;
    }
    this.#threads = threads;
    this.#raw = raw;
    this.#views = new BoundsViews(raw, this.#id, this.#scratch, dimensions);
    this.#queries = new Queries(
      (what) => this.#engine(what),
      this.#id,
      this.#scratch,
      dimensions,
      (id) => this.#dataFor(id),
    );
    if (options.events === false) {
      this.#events = false;
      raw.sp_set_events(this.#id, 0);
    }
  }

  #engine(what: string): RawExports {
    const raw = this.#raw;
    if (raw === undefined) {
      throw new SweepPruneError('Disposed', `${what}: this World was disposed; create a new World`);
    }
    return raw;
  }

  // A call that may allocate: views that a growth of memory ended are dealt with first, then the result checked.
  #grown(raw: RawExports, result: number, what: string): void {
    this.#views.afterGrowth(what);
    check(raw, result, what);
  }

  /**
   * Add a box with bounds `min` and `max` (`dimensions` numbers within the float32 range each, `min[a] <= max[a]`;
   * stored as float32). Returns its id. The box takes part in pairs from the next `update()`.
   * May grow wasm memory: views taken before this call must be taken again.
   * @throws SweepPruneError `InvalidBounds`, `InvertedBounds`, `InvalidDimensions`, `CapacityExceeded`, `OutOfMemory`, `Disposed`
   */
  addBox(min: ArrayLike<number>, max: ArrayLike<number>, data?: T): BoxId {
    const raw = this.#engine('addBox');
    writeBox(raw, this.#scratch, this.dimensions, 'addBox', min, max);
    const result = raw.sp_add_box(this.#id);
    const id = outputs(raw, this.#scratch, 1)[0]!; // read before afterGrowth, which uses the scratch outputs
    this.#grown(raw, result, 'addBox');
    const slot = id >>> GENERATION_BITS;
    this.#data[slot] = data;
    this.#owner[slot] = id;
    return id;
  }

  /**
   * Add many boxes with one call into the engine: `bounds` holds `2 * dimensions` numbers per box, its mins then
   * its maxes (the layout of `bounds`), for example `[minX, minY, maxX, maxY, ...]` in 2D. `count` (default: all
   * the boxes in `bounds`) uses only the first boxes. Returns the new ids in order (a fresh `Uint32Array`).
   * Every box is validated as `addBox` validates one before anything changes: a bad one throws an error naming its
   * index, and no box is added. A `Float32Array` is copied as it is; other arrays are checked in JS first.
   * May grow wasm memory: views taken before this call must be taken again.
   * @throws SweepPruneError `InvalidBounds`, `InvertedBounds`, `InvalidDimensions` (length not a multiple of
   * `2 * dimensions`), `InvalidArgument`, `CapacityExceeded`, `OutOfMemory`, `Disposed`
   */
  addBoxes(bounds: Float32Array | ArrayLike<number>, count?: number): Uint32Array {
    const raw = this.#engine('addBoxes');
    const d = this.dimensions;
    const n = boxCountOf('addBoxes', bounds, d, count);
    if (!(bounds instanceof Float32Array)) {
      const bad = badBoxError('addBoxes', bounds, n, d);
      if (bad !== undefined) throw bad;
    }
    const { result, ids } = withStagedBoxes(raw, bounds, n, d, undefined, (b, out) =>
      raw.sp_add_boxes(this.#id, b, n, out),
    );
    this.#views.afterGrowth('addBoxes');
    if (result !== 0) {
      throw (
        (result === RESULT.InvalidBounds || result === RESULT.InvertedBounds
          ? badBoxError('addBoxes', bounds, n, d)
          : undefined) ?? fail(raw, result, 'addBoxes')
      );
    }
    // No data, and #owner left as it is: a reused slot's data went to #removedData and its owner to 0 when its box
    // was removed, so #dataFor finds nothing for these boxes, as it should. Writing 10 000 owners into a plain array
    // took a third of addBoxes' time.
    return ids;
  }

  /**
   * Set the bounds of many boxes with one call into the engine: box `ids[i]` gets the `2 * dimensions` numbers at
   * `bounds[i * 2 * dimensions]` (mins then maxes). Every id and every box is validated before anything changes;
   * an error names the index at fault. An id given twice gets its last bounds. To move many boxes every frame,
   * writing `world.bounds` directly costs less still (no copy).
   * @throws SweepPruneError `InvalidBounds`, `InvertedBounds`, `InvalidDimensions` (bounds not `2 * dimensions`
   * numbers per id), `StaleBox`, `InvalidBox`, `InvalidArgument`, `Disposed`
   */
  setBoxes(ids: Uint32Array | ArrayLike<BoxId>, bounds: Float32Array | ArrayLike<number>): void {
    const raw = this.#engine('setBoxes');
    const d = this.dimensions;
    if (ids == null || typeof ids !== 'object' || typeof ids.length !== 'number') {
      throw new SweepPruneError(
        'InvalidArgument',
        `setBoxes: ids must be a Uint32Array (or an array) of box ids, got ${ids === null ? 'null' : typeof ids}`,
      );
    }
    const n = boxCountOf('setBoxes', bounds, d);
    if (n !== ids.length) {
      throw new SweepPruneError(
        'InvalidDimensions',
        `setBoxes: bounds holds ${n} boxes (${2 * d} numbers each) for ${ids.length} ids; give one box per id`,
      );
    }
    const badId = (i: number, result: number): never => fail(raw, result, `setBoxes: ids[${i}] (${ids[i]})`, ids[i]);
    if (!(ids instanceof Uint32Array)) {
      for (let i = 0; i < n; i++) {
        const id = ids[i]!;
        if (!Number.isInteger(id) || id <= 0 || id > 0xffffffff) badId(i, RESULT.InvalidBox);
      }
    }
    if (!(bounds instanceof Float32Array)) {
      const bad = badBoxError('setBoxes', bounds, n, d);
      if (bad !== undefined) throw bad;
    }
    const { result } = withStagedBoxes(raw, bounds, n, d, ids, (b, idsPtr) => raw.sp_set_boxes(this.#id, idsPtr, b, n));
    if (result === RESULT.InvalidBox || result === RESULT.StaleBox) {
      for (let i = 0; i < n; i++) if (!raw.sp_is_box_valid(this.#id, ids[i]!)) badId(i, this.#whyInvalid(raw, ids[i]!));
    }
    if (result !== 0) {
      throw (
        (result === RESULT.InvalidBounds || result === RESULT.InvertedBounds
          ? badBoxError('setBoxes', bounds, n, d)
          : undefined) ?? fail(raw, result, 'setBoxes')
      );
    }
  }

  /** The `data` given to `addBox` (or `setData`) for a live box (undefined for a stale or unknown id). */
  dataOf(id: BoxId): T | undefined {
    return this.isBoxValid(id) ? this.#data[id >>> GENERATION_BITS] : undefined;
  }

  /**
   * Replace a live box's data (what `dataOf`, the pair callbacks and the query callbacks pass for it). After
   * `removeBox`, the data it had then is still passed for its ended pairs.
   * @throws SweepPruneError `StaleBox`, `InvalidBox`, `Disposed`
   */
  setData(id: BoxId, data: T | undefined): void {
    const raw = this.#engine('setData');
    this.#checkLive(raw, 'setData', id);
    const slot = id >>> GENERATION_BITS;
    this.#data[slot] = data;
    this.#owner[slot] = id;
  }

  // The data of a box in a pair list: a live box's, or a removed box's while its pairs can still be reported.
  #dataFor(id: BoxId): T | undefined {
    const slot = id >>> GENERATION_BITS;
    if (this.#owner[slot] === id) return this.#data[slot];
    if (this.#removedData.size === 0 && this.#endedData.size === 0) return undefined;
    return this.#removedData.get(id) ?? this.#endedData.get(id);
  }

  #checkId(what: string, id: BoxId): void {
    if (!Number.isInteger(id) || id <= 0 || id > 0xffffffff) {
      throw new SweepPruneError('InvalidBox', `${what}: ${String(id)} is not a box id; use an id returned by addBox()`);
    }
  }

  /**
   * Remove a box. Its pairs are reported in `ended` by the next `update()`; its id becomes stale.
   * @throws SweepPruneError `StaleBox` (already removed), `InvalidBox`, `Disposed`
   */
  removeBox(id: BoxId): void {
    const raw = this.#engine('removeBox');
    this.#checkId('removeBox', id);
    check(raw, raw.sp_remove_box(this.#id, id), `removeBox(${id})`, id);
    // kept for the forEach callbacks until this box's pairs have ended, even if addBox reuses the slot
    const slot = id >>> GENERATION_BITS;
    const data = this.#data[slot];
    if (data !== undefined) this.#removedData.set(id, data);
    this.#data[slot] = undefined;
    this.#owner[slot] = 0;
  }

  #checkLive(raw: RawExports, what: string, id: BoxId): void {
    this.#checkId(what, id);
    if (!raw.sp_is_box_valid(this.#id, id)) {
      fail(raw, this.#whyInvalid(raw, id), `${what}(${id})`, id);
    }
  }

  #whyInvalid(raw: RawExports, id: BoxId): number {
    return raw.sp_get_box(this.#id, id); // reports StaleBox or InvalidBox without changing anything
  }

  /**
   * Set a box's collision filter: boxes A and B pair only if `(A.category & B.mask) !== 0` and
   * `(B.category & A.mask) !== 0`. Defaults: category 1, mask 0xFFFFFFFF. For two groups that report only cross
   * pairs (bullets and enemies), give one group category 1 / mask 2 and the other category 2 / mask 1.
   * Takes effect at the next `update()`.
   * @throws SweepPruneError `StaleBox`, `InvalidBox`, `InvalidArgument`, `Disposed`
   */
  setBoxFilter(id: BoxId, category: number, mask: number): void {
    const raw = this.#engine('setBoxFilter');
    this.#checkLive(raw, 'setBoxFilter', id);
    const what = `setBoxFilter(${id})`;
    const bits = checkMask(what, 'category', category);
    raw.sp_set_box_filter(this.#id, id, bits, checkMask(what, 'mask', mask));
  }

  /** A box's filter. @throws SweepPruneError `StaleBox`, `InvalidBox`, `Disposed` */
  getBoxFilter(id: BoxId): { category: number; mask: number } {
    const raw = this.#engine('getBoxFilter');
    this.#checkLive(raw, 'getBoxFilter', id);
    raw.sp_get_box_filter(this.#id, id);
    const out = outputs(raw, this.#scratch, 2);
    return { category: out[0]!, mask: out[1]! };
  }

  /**
   * Make a box static (true) or moving (false). Static boxes never pair with each other and, while none of them
   * changes, cost the update almost nothing (their sorted index is rebuilt only when a static box is added,
   * removed or moved). For level geometry and sleeping bodies.
   * @throws SweepPruneError `StaleBox`, `InvalidBox`, `Disposed`
   */
  setBoxStatic(id: BoxId, isStatic: boolean): void {
    const raw = this.#engine('setBoxStatic');
    this.#checkLive(raw, 'setBoxStatic', id);
    raw.sp_set_box_static(this.#id, id, isStatic ? 1 : 0);
  }

  /** True if the box is static (false for moving boxes and invalid ids). */
  isBoxStatic(id: BoxId): boolean {
    const raw = this.#raw;
    if (raw === undefined || !Number.isInteger(id) || id <= 0 || id > 0xffffffff) return false;
    return raw.sp_is_box_static(this.#id, id) !== 0;
  }

  /**
   * Ids of the boxes overlapping the box `(min, max)` (closed intervals) whose category shares a bit with `mask`,
   * sorted by id. Answered from the sorted slabs of the last `update()` (O(log n + candidates)), as every query
   * is: boxes are seen where that update saw them, boxes added since are not seen, boxes removed since are left
   * out, and categories are the current ones. A new array owned by the caller.
   * @throws SweepPruneError `InvalidBounds`, `InvertedBounds`, `InvalidDimensions`, `InvalidArgument` (a mask that is
   * not a 32-bit integer, as for every call that takes one), `OutOfMemory`, `Disposed`
   */
  queryBox(min: ArrayLike<number>, max: ArrayLike<number>, mask = 0xffffffff): Uint32Array {
    return this.#queries.box('queryBox', min, max, mask);
  }

  /** Ids of the boxes containing `point` (closed), as `queryBox(point, point, mask)`. */
  queryPoint(point: ArrayLike<number>, mask = 0xffffffff): Uint32Array {
    return this.#queries.box('queryPoint', point, point, mask);
  }

  /**
   * Boxes hit by the ray from `origin` along `direction` (non-zero, any length), nearest first (ties by id).
   * `distances[i]` is the Euclidean distance to where the ray enters box `ids[i]` (0 if the origin is inside).
   * Either `castRay(origin, direction, maxDistance?, mask?)` (default Infinity and every category), or
   * `castRay(origin, direction, options)` with `RayOptions`: `maxHits` (1 for the first hit only), `blockMask`
   * (stop at the first box of these categories, returned as `blocker`), `ignore` (a box to see through).
   * Answered from the last `update()`, as `queryBox` is. New arrays owned by the caller.
   * @throws SweepPruneError `InvalidBounds` (NaN, infinite or beyond float32, zero direction, negative
   * maxDistance), `InvalidArgument` (a bad option), `InvalidDimensions`, `OutOfMemory`, `Disposed`
   */
  castRay(origin: ArrayLike<number>, direction: ArrayLike<number>, maxDistance?: number, mask?: number): RayHits;
  castRay(origin: ArrayLike<number>, direction: ArrayLike<number>, options: RayOptions): RayHits;
  castRay(
    origin: ArrayLike<number>,
    direction: ArrayLike<number>,
    options?: number | RayOptions,
    mask?: number,
  ): RayHits {
    const opts = typeof options === 'object' && options !== null ? options : { maxDistance: options, mask };
    return this.#queries.castRay(origin, direction, opts);
  }

  /**
   * The first box the ray meets (`castRay` with `maxHits: 1`): the nearest hit, or the blocker when one comes first
   * (with `blockMask`), or undefined. Only the boxes near the origin are searched, however long the ray.
   * @throws SweepPruneError as `castRay`
   */
  firstHit(origin: ArrayLike<number>, direction: ArrayLike<number>, options: RayOptions = {}): RayHit | undefined {
    return this.#queries.firstHit(origin, direction, options);
  }

  /**
   * Call `fn(id, data, distance)` for each box the ray hits, nearest first, with the options of `castRay`, and no
   * allocation per hit. Returns the blocker's id (with `blockMask`), or undefined. `fn` may return `false` to stop,
   * and may change the world and run queries.
   * @throws SweepPruneError as `castRay`, and `InvalidArgument` when fn is not a function
   */
  forEachOnRay(
    origin: ArrayLike<number>,
    direction: ArrayLike<number>,
    fn: QueryCallback<T>,
    options: RayOptions = {},
  ): BoxId | undefined {
    return this.#queries.forEachOnRay(origin, direction, fn, options);
  }

  /**
   * The `k` boxes nearest to `point` (Euclidean distance from the point to the box, 0 inside or on it) within
   * `maxDistance` (default Infinity) whose category shares a bit with `mask`, nearest first, ties by id; fewer when
   * fewer are within reach. Answered from the sorted slabs of the last `update()` by an expanding search (not a scan
   * of every box), so it sees the boxes as `queryBox` does. New arrays owned by the caller.
   * @throws SweepPruneError `InvalidBounds` (a coordinate NaN, infinite or beyond float32; maxDistance NaN or
   * negative), `InvalidArgument` (k not an integer >= 0, a bad mask), `InvalidDimensions`, `OutOfMemory`, `Disposed`
   */
  nearest(point: ArrayLike<number>, k: number, maxDistance = Infinity, mask = 0xffffffff): DistanceHits {
    return this.#queries.nearest('nearest', point, k, maxDistance, mask);
  }

  /**
   * The boxes within `radius` of `center` by box distance (a box counts when any part of it is within the radius,
   * not its centre) whose category shares a bit with `mask`, nearest first, ties by id, with their distances.
   * Answered from the last `update()`, as `queryBox` is. New arrays owned by the caller.
   * @throws SweepPruneError `InvalidBounds` (a coordinate NaN, infinite or beyond float32; radius NaN or negative),
   * `InvalidArgument` (a bad mask), `InvalidDimensions`, `OutOfMemory`, `Disposed`
   */
  queryRadius(center: ArrayLike<number>, radius: number, mask = 0xffffffff): DistanceHits {
    return this.#queries.nearest('queryRadius', center, undefined, radius, mask);
  }

  /**
   * Call `fn(id, data, distance)` for each of the `k` boxes nearest to `point`, nearest first, with no allocation per
   * box (arguments after `fn` as in `nearest`). `fn` may return `false` to stop, and may change the world and query.
   * @throws SweepPruneError as `nearest`, and `InvalidArgument` when fn is not a function
   */
  forEachNearest(
    point: ArrayLike<number>,
    k: number,
    fn: QueryCallback<T>,
    maxDistance = Infinity,
    mask = 0xffffffff,
  ): void {
    this.#queries.forEachNearest('forEachNearest', point, k, maxDistance, mask, fn);
  }

  /**
   * Call `fn(id, data, distance)` for each box within `radius` of `center`, nearest first, with no allocation per
   * box. `fn` may return `false` to stop, and may change the world and query.
   * @throws SweepPruneError as `queryRadius`, and `InvalidArgument` when fn is not a function
   */
  forEachInRadius(center: ArrayLike<number>, radius: number, fn: QueryCallback<T>, mask = 0xffffffff): void {
    this.#queries.forEachNearest('forEachInRadius', center, undefined, radius, mask, fn);
  }

  /**
   * Call `fn(id, data, 0)` for each box overlapping the box `(min, max)`, in id order, with no allocation per box.
   * `fn` may return `false` to stop, and may change the world and query.
   * @throws SweepPruneError as `queryBox`, and `InvalidArgument` when fn is not a function
   */
  forEachInBox(min: ArrayLike<number>, max: ArrayLike<number>, fn: QueryCallback<T>, mask = 0xffffffff): void {
    this.#queries.forEachInBox(min, max, fn, mask);
  }

  /**
   * Set a box's bounds (validated like `addBox`). For moving many boxes, write `bounds` directly instead.
   * @throws SweepPruneError `InvalidBounds`, `InvertedBounds`, `InvalidDimensions`, `StaleBox`, `InvalidBox`, `Disposed`
   */
  setBox(id: BoxId, min: ArrayLike<number>, max: ArrayLike<number>): void {
    const raw = this.#engine('setBox');
    this.#checkLive(raw, 'setBox', id);
    writeBox(raw, this.#scratch, this.dimensions, `setBox(${id})`, min, max);
    check(raw, raw.sp_set_box(this.#id, id), `setBox(${id})`, id);
  }

  /**
   * A box's bounds, as float32 values widened to numbers.
   * @throws SweepPruneError `StaleBox`, `InvalidBox`, `Disposed`
   */
  getBox(id: BoxId): { min: number[]; max: number[] } {
    const raw = this.#engine('getBox');
    this.#checkId('getBox', id);
    check(raw, raw.sp_get_box(this.#id, id), `getBox(${id})`, id);
    const f = new Float32Array(raw.memory.buffer, this.#scratch, 8);
    const d = this.dimensions;
    return { min: Array.from(f.subarray(0, d)), max: Array.from(f.subarray(4, 4 + d)) };
  }

  /** True if `id` names a live box of this world. False after `dispose()`. */
  isBoxValid(id: BoxId): boolean {
    const raw = this.#raw;
    if (raw === undefined || !Number.isInteger(id) || id <= 0 || id > 0xffffffff) return false;
    return raw.sp_is_box_valid(this.#id, id) !== 0;
  }

  /** Number of live boxes. */
  get boxCount(): number {
    return this.#engine('boxCount').sp_box_count(this.#id);
  }

  /** Bytes of wasm memory this world owns. */
  get byteCount(): number {
    return this.#engine('byteCount').sp_byte_count(this.#id);
  }

  /**
   * Boxes the world has room for before its arrays grow (counting removed boxes' slots, which are reused first):
   * adding past it moves `bounds`, ending the view taken before. `reserve(n)` or `new World({ capacity: n })` sets it.
   */
  get capacity(): number {
    return this.#engine('capacity').sp_capacity(this.#id);
  }

  /**
   * Make room for `capacity` boxes, so adding up to that many neither allocates nor moves `bounds`.
   * @throws SweepPruneError `CapacityExceeded`, `OutOfMemory`, `Disposed`
   */
  reserve(capacity: number): void {
    const raw = this.#engine('reserve');
    if (!Number.isInteger(capacity) || capacity < 0 || capacity > 1 << 22) {
      throw new SweepPruneError(
        'CapacityExceeded',
        `reserve: capacity must be an integer from 0 to 4194304, got ${capacity}`,
      );
    }
    this.#grown(raw, raw.sp_reserve(this.#id, capacity), 'reserve');
  }

  /**
   * The bounds of every slot, as a view into wasm memory: the box with id `id` has its `dimensions` mins at
   * `slotOf(id) * 2 * dimensions` followed by its maxes. Write here to move many boxes with no call per box, then
   * call `update()`, which validates every live box. Slots of removed boxes are ignored.
   *
   * The view covers the world's `capacity` (slots past the live ones are unused). Kept, it stays live across
   * updates, queries, events and other worlds' calls until the capacity grows (`addBox` or `addBoxes` past it, or
   * `reserve`: reserve ahead to avoid it) or, where `memoryStats().viewsSurviveGrowth` is false (runtimes without
   * resizable wasm memory buffers, Node 20 among them), wasm memory grows (rare). A write through an ended view is
   * never silent: the next `update()` throws `StaleView`, and after a growth of memory every `update()` and
   * `endpoints()` throws it until `world.bounds` is taken again. The getter is cached and cheap:
   * taking it once per frame before writing never meets either. See docs/views.md.
   */
  get bounds(): Float32Array {
    const raw = this.#engine('bounds');
    return this.#views.get((ptr) => World.#pin(raw, ptr, 'bounds'));
  }

  /** Offset of a box's first min in `bounds` (`slotOf(id) * 2 * dimensions`). Does not check the id. */
  offsetOf(id: BoxId): number {
    return (id >>> GENERATION_BITS) * 2 * this.dimensions;
  }

  /**
   * Bring the pairs up to date with the current bounds. Cost O(n + swaps + candidates) on coherent frames.
   *
   * Validates every live box first. If one has NaN, infinite or inverted bounds (written through `bounds`), it
   * throws `InvalidBounds` or `InvertedBounds` with `error.boxId` set, and keeps the pairs, began and ended of the
   * previous update: the frame is rejected as a whole.
   * @throws SweepPruneError `InvalidBounds`, `InvertedBounds`, `OutOfMemory`, `StaleView`, `Disposed`
   */
  update(): void {
    const raw = this.#engine('update');
    this.#notIterating('update');
    this.#views.check('update');
    if (this.#pool !== undefined) this.#checkPool('update');
    const fewer = this.threads < this.#threads;
    const r = raw.sp_update(this.#id);
    if (r !== 0) this.#failValidated(raw, r, 'update');
    if (fewer) this.#updatesOnFewerThreads++;
    // the removed boxes' pairs have ended in this update: their data now serves forEachEnded, for one update
    const ended = this.#endedData;
    ended.clear();
    this.#endedData = this.#removedData;
    this.#removedData = ended;
  }

  // A worker of the pool failed: report it once (nothing changed), then go on with one thread
  #checkPool(what: string): void {
    try {
      this.#pool!.check(what);
    } catch (error) {
      this.#pool!.release();
      this.#pool = undefined;
      throw error;
    }
  }

  #notIterating(what: string): void {
    if (this.#iterating > 0) {
      throw new SweepPruneError(
        'Busy',
        `${what}: called inside a forEachPair/forEachBegan/forEachEnded callback of the same world, which would change the list being iterated; call it after the loop`,
      );
    }
  }

  // A failure of a call that validates every live box first (update, endpoints): name the bad box and the fix.
  #failValidated(raw: RawExports, result: number, what: string): never {
    const box = raw.sp_last_invalid_box(this.#id) >>> 0;
    if (box === 0 || (result !== RESULT.InvalidBounds && result !== RESULT.InvertedBounds)) {
      fail(raw, result, what);
    }
    const o = this.offsetOf(box);
    const d = this.dimensions;
    const values = Array.from(this.bounds.subarray(o, o + 2 * d));
    fail(
      raw,
      result,
      `${what}: box ${box} has min [${values.slice(0, d).join(', ')}] and max [${values.slice(d).join(', ')}] ` +
        `(bounds[${o}..${o + 2 * d - 1}]); fix them through bounds or setBox(${box}) and call ${what}() again; the frame was rejected`,
      box,
    );
  }

  #pairs(which: PairList, what: string): Uint32Array {
    const raw = this.#engine(what);
    this.#needEvents(what);
    const ptr = raw.sp_pairs(this.#id, which);
    const buffer = raw.memory.buffer;
    const count = outputs(raw, this.#scratch, 1)[0]!;
    World.#pin(raw, ptr, what);
    return new Uint32Array(buffer, ptr, 2 * count);
  }

  // The engine keeps a block handed out as a view from reuse (c/wasm/quarantine.c, docs/views.md)
  static #pin(raw: RawExports, ptr: number, what: string): void {
    if (raw.sp_pin(ptr) === 0) fail(raw, RESULT.OutOfMemory, what);
  }

  /**
   * Overlapping pairs after the last `update()`: box ids `a0, b0, a1, b1, ...`, `a < b` in each pair, in a
   * deterministic order that is not sorted (after coherent motion: the sweep's order). A view into wasm memory
   * (a copy the engine never reads, made at most once per update), valid until the next `update()`; use `slice()`
   * to keep it.
   * @throws SweepPruneError `OutOfMemory`, `Disposed`
   */
  get pairs(): Uint32Array {
    const raw = this.#engine('pairs');
    check(raw, raw.sp_copy_pairs(this.#id), 'pairs');
    const [count, ptr] = outputs(raw, this.#scratch, 2);
    World.#pin(raw, ptr!, 'pairs');
    return new Uint32Array(raw.memory.buffer, ptr!, 2 * count!);
  }

  /** Pairs that began overlapping in the last `update()`, sorted by `(a, b)` (layout and lifetime as `pairs`). */
  get began(): Uint32Array {
    return this.#pairs(PAIR_LIST.began, 'began');
  }

  /**
   * Pairs that stopped overlapping in the last `update()`, including pairs of removed boxes, sorted by `(a, b)`
   * (layout and lifetime as `pairs`).
   */
  get ended(): Uint32Array {
    return this.#pairs(PAIR_LIST.ended, 'ended');
  }

  /** Number of overlapping pairs after the last `update()`. */
  get pairCount(): number {
    const raw = this.#engine('pairCount');
    raw.sp_pairs(this.#id, PAIR_LIST.pairs);
    return outputs(raw, this.#scratch, 1)[0]!;
  }

  #needEvents(what: string): void {
    if (!this.#events) {
      throw new SweepPruneError(
        'InvalidArgument',
        `${what}: this World was created with { events: false }, so its updates make no began or ended lists; create it without that option to read them`,
      );
    }
  }

  // Iterates the engine's own list (never handed out). The callback may add, remove and change boxes, and query
  // (none of which touches the lists of the last update); update() and dispose() inside it throw Busy.
  #forEach(which: PairList, what: string, fn: PairCallback<T>): void {
    const raw = this.#engine(what);
    if (typeof fn !== 'function') {
      throw new SweepPruneError(
        'InvalidArgument',
        `${what}: fn must be a function (a, b, dataA, dataB) => void, got ${typeof fn}`,
      );
    }
    if (which !== PAIR_LIST.pairs) this.#needEvents(what);
    const ptr = raw.sp_pairs(this.#id, which);
    const n = 2 * outputs(raw, this.#scratch, 1)[0]!;
    let p = new Uint32Array(raw.memory.buffer, ptr, n);
    this.#iterating += 1;
    try {
      for (let i = 0; i < n; i += 2) {
        if (p.length !== n) p = new Uint32Array(raw.memory.buffer, ptr, n); // detached by a call in fn
        const a = p[i]!;
        const b = p[i + 1]!;
        fn(a, b, this.#dataFor(a), this.#dataFor(b));
      }
    } finally {
      this.#iterating -= 1;
    }
  }

  /**
   * Call `fn(a, b, dataA, dataB)` for every overlapping pair, in `pairs` order, with no allocation per pair.
   * `dataA`/`dataB` are the values given to `addBox` (for a box removed since the update, its data still). `fn`
   * may add, remove and change boxes and run queries: every pair of the list is still visited. Calling
   * `update()` or `dispose()` inside it throws `Busy`.
   * @throws SweepPruneError `InvalidArgument` (fn not a function), `Disposed`
   */
  forEachPair(fn: PairCallback<T>): void {
    this.#forEach(PAIR_LIST.pairs, 'forEachPair', fn);
  }

  /** As `forEachPair`, for the pairs that began overlapping in the last `update()`. */
  forEachBegan(fn: PairCallback<T>): void {
    this.#forEach(PAIR_LIST.began, 'forEachBegan', fn);
  }

  /**
   * As `forEachPair`, for the pairs that stopped overlapping in the last `update()`. For a pair of a box removed
   * before that update, the box's data is still passed, even when `addBox` has reused its slot since.
   */
  forEachEnded(fn: PairCallback<T>): void {
    this.#forEach(PAIR_LIST.ended, 'forEachEnded', fn);
  }

  /** Work done by the last `update()`. */
  get counters(): Counters {
    const raw = this.#engine('counters');
    // each field read at its offset by name (raw.ts COUNTER_OFFSETS, asserted in c/wasm/exports.c)
    const view = new DataView(raw.memory.buffer, raw.sp_counters(this.#id), COUNTERS_BYTES);
    const counters = {} as Record<keyof Counters, number>;
    for (const name of Object.keys(COUNTER_OFFSETS) as (keyof Counters)[]) {
      counters[name] = view.getInt32(COUNTER_OFFSETS[name], true);
    }
    return counters;
  }

  /**
   * The sorted endpoint list of one axis, as the textbook sweep keeps it: two entries per live box, ascending, a min
   * before a max at equal values. `refs[i] >> 1` is the box's slot, `refs[i] & 1` is 1 for a max. The list persists
   * and is re-sorted by insertion sort on each call (`counters.endpointSwaps` counts the exchanges).
   * New arrays owned by the caller (the engine keeps its own list for the next call).
   * Validates every live box first, like `update()`: NaN, infinite or inverted bounds written through `bounds` throw
   * `InvalidBounds` or `InvertedBounds` with `error.boxId` set, and change nothing.
   * @throws SweepPruneError `InvalidBounds`, `InvertedBounds`, `InvalidDimensions`, `OutOfMemory`, `StaleView`, `Disposed`
   */
  endpoints(axis: number): Endpoints {
    const raw = this.#engine('endpoints');
    if (!Number.isInteger(axis) || axis < 0 || axis >= this.dimensions) {
      throw new SweepPruneError(
        'InvalidDimensions',
        `endpoints: axis must be an integer from 0 to ${this.dimensions - 1}, got ${axis}`,
      );
    }
    this.#views.check('endpoints');
    const r = raw.sp_endpoints(this.#id, axis);
    if (r !== 0) this.#failValidated(raw, r, 'endpoints');
    const buffer = raw.memory.buffer;
    const [valuesPtr, refsPtr, count] = outputs(raw, this.#scratch, 3);
    return {
      values: new Float32Array(buffer, valuesPtr!, count!).slice(),
      refs: new Uint32Array(buffer, refsPtr!, count!).slice(),
    };
  }

  /**
   * The index the last `update()` made of the moving boxes (or, with `statics` true, of the static boxes): the axes
   * it chose, its slabs and each slab's boxes in sorted order, as the engine keeps them. For drawing and
   * teaching; boxes removed since the update may still appear (`isBoxValid` tells).
   * @throws SweepPruneError `Disposed`
   */
  slabs(statics = false): Slabs {
    const raw = this.#engine('slabs');
    check(raw, raw.sp_slabs(this.#id, statics ? 1 : 0), 'slabs');
    const buffer = raw.memory.buffer;
    const [sweepAxis, slabAxis, slabCount, entryCount, floors, starts, ids] = new Int32Array(
      buffer,
      this.#scratch + SCRATCH_OUT,
      7,
    );
    const slabs = slabCount!;
    return {
      sweepAxis: sweepAxis!,
      slabAxis: slabAxis!,
      floors: new Float32Array(buffer, floors!, slabs).slice(),
      starts: slabs === 0 ? new Uint32Array(0) : new Uint32Array(buffer, starts!, slabs + 1).slice(),
      ids: new Uint32Array(buffer, ids!, entryCount!).slice(),
    };
  }

  /**
   * Threads sharing this world's updates now: the caller's and the workers that have started, up to
   * `options.threads`: all of them from the first update when `init()` of sweep-prune/threads started enough
   * workers (`workers`); workers started later take their share once running (tens of milliseconds), the caller's
   * thread doing it until then. 1 where threads are not available, after a worker failed, and after `dispose()`.
   */
  get threads(): number {
    const pool = this.#pool;
    return pool === undefined ? 1 : 1 + Math.min(this.#threads - 1, pool.running());
  }

  /**
   * Updates that ran while fewer than `options.threads` threads were running for this world (`threads` below what
   * was asked: workers not started yet, a worker failed, or threads not available here). 0 for a world of 1 thread.
   */
  get updatesOnFewerThreads(): number {
    return this.#updatesOnFewerThreads;
  }

  /** True after `dispose()`. */
  get disposed(): boolean {
    return this.#raw === undefined;
  }

  /**
   * Free the world's wasm memory. Idempotent; any other use afterwards throws `Disposed`. Views taken before end:
   * they keep what they held, and writes through them reach no world. Throws `Busy` inside a `forEach...` callback
   * of this world.
   */
  dispose(): void {
    const raw = this.#raw;
    if (raw === undefined) return;
    this.#notIterating('dispose');
    raw.sp_destroy_world(this.#id);
    releaseKept(raw);
    this.#pool?.release();
    this.#pool = undefined;
    this.#raw = undefined;
    this.#views.clear();
    this.#data = [];
    this.#owner = [];
    this.#removedData.clear();
    this.#endedData.clear();
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}
