// SPDX-License-Identifier: MIT
// The low-level API: a world of boxes addressed by numeric ids, with typed-array views into wasm memory.
import { RESULT_CODES, SweepPruneError } from './errors.js';
import { getEngine } from './loader.js';
import { badBoxError, boxCountOf, withStagedBoxes } from './bulk.js';
import { COUNTER_FIELDS, GENERATION_BITS, type RawExports, SCRATCH_MAX, SCRATCH_MIN, SCRATCH_OUT } from './raw.js';

/** A box id: a 32-bit number, never 0. `slot << 10 | generation`; stale ids are detected. */
export type BoxId = number;

export interface WorldOptions {
  /** Number of axes, 1 to 4. Default 2. */
  dimensions?: number;
  /** Boxes to reserve room for up front (more can always be added). Default 0. */
  capacity?: number;
}

/** Work done by the last `update()`. */
export interface Counters {
  /** Live boxes seen by the update. */
  boxes: number;
  /** Axis the boxes were sorted and swept along. */
  sweepAxis: number;
  /** Adjacent exchanges made by the insertion sorts within each slab when `refreshed` (0 on a still frame, or when rebuilt). */
  swaps: number;
  /** 1 when the moving boxes' slabs were rebuilt (an incoherent frame, or the first update); then `refreshed` is 0. */
  rebuilt: number;
  /** Slabs the boxes were bucketed into along a second axis. */
  slabs: number;
  /** Candidate pairs (overlapping on the sweep axis) tested on the other axes. */
  overlapTests: number;
  /** Overlapping pairs. */
  pairs: number;
  /** Pairs that began overlapping in this update. */
  began: number;
  /** Pairs that stopped overlapping in this update (including pairs of removed boxes). */
  ended: number;
  /** Insertion-sort exchanges made by the last `endpoints()` call. */
  endpointSwaps: number;
  /** Static boxes. */
  staticBoxes: number;
  /** 1 when a static box changed, so the static boxes' index was rebuilt. */
  staticRebuilt: number;
  /**
   * 1 when the moving boxes' sorted slabs were brought up to date in place (a coherent frame; boxes added, removed
   * or switched since the last update are merged into or dropped from their slabs), 0 when they were rebuilt.
   */
  refreshed: number;
}

/** Hits of `castRay`: box ids ordered by distance (ties by id), and the distance to where the ray enters each. */
export interface RayHits {
  ids: Uint32Array;
  distances: Float32Array;
}

/** One axis's sorted endpoints: `values[i]` is a coordinate, `refs[i]` is `slot << 1 | isMax`. */
export interface Endpoints {
  values: Float32Array;
  refs: Uint32Array;
}

const PAIRS = 0;
const BEGAN = 1;
const ENDED = 2;

function checkNumberArray(what: string, name: string, v: ArrayLike<number>, dimensions: number): void {
  if (v == null || typeof v.length !== 'number') {
    throw new SweepPruneError('InvalidArgument', `${what}: ${name} must be an array of ${dimensions} numbers, got ${v === null ? 'null' : typeof v}`);
  }
  if (v.length !== dimensions) {
    throw new SweepPruneError('InvalidDimensions', `${what}: ${name} has ${v.length} coordinates; this world has ${dimensions} dimensions`);
  }
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
  #data: (T | undefined)[] = [];
  #raw: RawExports | undefined;
  #id = 0;
  #scratch = 0;
  #boundsView: Float32Array | undefined;

  constructor(options: WorldOptions = {}) {
    const raw = getEngine();
    if (options === null || typeof options !== 'object') {
      throw new SweepPruneError('InvalidArgument', `new World(options): options must be an object like { dimensions: 2 }, got ${options}`);
    }
    const dimensions = options.dimensions ?? 2;
    const capacity = options.capacity ?? 0;
    if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 4) {
      throw new SweepPruneError('InvalidDimensions', `new World: options.dimensions must be 1, 2, 3 or 4, got ${dimensions}`);
    }
    if (!Number.isInteger(capacity) || capacity < 0 || capacity > 1 << 22) {
      throw new SweepPruneError('CapacityExceeded', `new World: options.capacity must be an integer from 0 to 4194304, got ${capacity}`);
    }
    this.dimensions = dimensions;
    this.#scratch = raw.sp_scratch();
    const r = raw.sp_create_world(dimensions, capacity);
    if (r !== 0) World.#fail(raw, r, 'new World');
    this.#id = new Uint32Array(raw.memory.buffer, this.#scratch + SCRATCH_OUT, 1)[0]!;
    this.#raw = raw;
  }

  static #fail(raw: RawExports, result: number, what: string, boxId?: number): never {
    const code = RESULT_CODES[result] ?? 'InvalidArgument';
    const ptr = raw.sp_result_string(result);
    const bytes = new Uint8Array(raw.memory.buffer, ptr);
    const text = new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
    const hint =
      code === 'StaleBox' ? ' Do not use an id after removeBox().' :
      code === 'InvalidBox' ? ' Use an id returned by addBox() of this world.' :
      code === 'OutOfMemory' ? ' The wasm module reached its memory limit (2 GB); remove boxes or dispose unused worlds.' : '';
    throw new SweepPruneError(code === 'Ok' ? 'InvalidArgument' : code, `${what}: ${text}.${hint}`, boxId);
  }

  #engine(what: string): RawExports {
    const raw = this.#raw;
    if (raw === undefined) {
      throw new SweepPruneError('Disposed', `${what}: this World was disposed; create a new World`);
    }
    return raw;
  }

  #writeBox(raw: RawExports, what: string, min: ArrayLike<number>, max: ArrayLike<number>): void {
    const d = this.dimensions;
    checkNumberArray(what, 'min', min, d);
    checkNumberArray(what, 'max', max, d);
    const f = new Float32Array(raw.memory.buffer, this.#scratch, 8);
    for (let a = 0; a < d; a++) {
      const lo = min[a]!;
      const hi = max[a]!;
      if (typeof lo !== 'number' || typeof hi !== 'number' || !Number.isFinite(lo) || !Number.isFinite(hi)) {
        throw new SweepPruneError('InvalidBounds', `${what}: min[${a}] (${lo}) and max[${a}] (${hi}) must be finite numbers; NaN and Infinity are rejected (use a large finite bound instead)`);
      }
      if (!(lo <= hi)) {
        throw new SweepPruneError('InvertedBounds', `${what}: min[${a}] (${lo}) must be <= max[${a}] (${hi})`);
      }
      f[SCRATCH_MIN / 4 + a] = lo;
      f[SCRATCH_MAX / 4 + a] = hi;
    }
  }

  /**
   * Add a box with bounds `min` and `max` (`dimensions` finite numbers each, `min[a] <= max[a]`; stored as
   * float32). Returns its id. The box takes part in pairs from the next `update()`.
   * May grow wasm memory: views taken before this call must be taken again.
   * @throws SweepPruneError `InvalidBounds`, `InvertedBounds`, `InvalidDimensions`, `CapacityExceeded`, `OutOfMemory`, `Disposed`
   */
  addBox(min: ArrayLike<number>, max: ArrayLike<number>, data?: T): BoxId {
    const raw = this.#engine('addBox');
    this.#writeBox(raw, 'addBox', min, max);
    const r = raw.sp_add_box(this.#id);
    if (r !== 0) World.#fail(raw, r, 'addBox');
    const id = new Uint32Array(raw.memory.buffer, this.#scratch + SCRATCH_OUT, 1)[0]!;
    this.#data[id >>> GENERATION_BITS] = data;
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
    const { result, ids } = withStagedBoxes(raw, bounds, n, d, undefined, (b, out) => raw.sp_add_boxes(this.#id, b, n, out));
    if (result !== 0) {
      throw (result === 1 || result === 2 ? badBoxError('addBoxes', bounds, n, d) : undefined) ?? World.#fail(raw, result, 'addBoxes');
    }
    const data = this.#data;
    // a reused slot may still hold the data of its removed box
    for (let i = 0; i < ids.length && data.length > 0; i++) {
      const slot = ids[i]! >>> GENERATION_BITS;
      if (slot < data.length) data[slot] = undefined;
    }
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
      throw new SweepPruneError('InvalidArgument', `setBoxes: ids must be a Uint32Array (or an array) of box ids, got ${ids === null ? 'null' : typeof ids}`);
    }
    const n = boxCountOf('setBoxes', bounds, d);
    if (n !== ids.length) {
      throw new SweepPruneError('InvalidDimensions', `setBoxes: bounds holds ${n} boxes (${2 * d} numbers each) for ${ids.length} ids; give one box per id`);
    }
    const badId = (i: number, result: number): never => World.#fail(raw, result, `setBoxes: ids[${i}] (${ids[i]})`, ids[i]);
    if (!(ids instanceof Uint32Array)) {
      for (let i = 0; i < n; i++) {
        const id = ids[i]!;
        if (!Number.isInteger(id) || id <= 0 || id > 0xffffffff) badId(i, 6);
      }
    }
    if (!(bounds instanceof Float32Array)) {
      const bad = badBoxError('setBoxes', bounds, n, d);
      if (bad !== undefined) throw bad;
    }
    const { result } = withStagedBoxes(raw, bounds, n, d, ids, (b, idsPtr) => raw.sp_set_boxes(this.#id, idsPtr, b, n));
    if (result === 6 || result === 7) {
      for (let i = 0; i < n; i++) if (!raw.sp_is_box_valid(this.#id, ids[i]!)) badId(i, this.#whyInvalid(raw, ids[i]!));
    }
    if (result !== 0) {
      throw (result === 1 || result === 2 ? badBoxError('setBoxes', bounds, n, d) : undefined) ?? World.#fail(raw, result, 'setBoxes');
    }
  }

  /** The `data` given to `addBox` for a live box (undefined for a stale or unknown id). */
  dataOf(id: BoxId): T | undefined {
    return this.isBoxValid(id) ? this.#data[id >>> GENERATION_BITS] : undefined;
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
    const r = raw.sp_remove_box(this.#id, id);
    if (r !== 0) World.#fail(raw, r, `removeBox(${id})`, id);
    // the data stays until the slot is reused, so forEachEnded can still pass it for this box's ended pairs
  }

  #checkLive(raw: RawExports, what: string, id: BoxId): void {
    this.#checkId(what, id);
    if (!raw.sp_is_box_valid(this.#id, id)) {
      World.#fail(raw, this.#whyInvalid(raw, id), `${what}(${id})`, id);
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
    for (const [name, v] of [['category', category], ['mask', mask]] as const) {
      if (!Number.isInteger(v) || v < -0x80000000 || v > 0xffffffff) {
        throw new SweepPruneError('InvalidArgument', `setBoxFilter(${id}): ${name} must be a 32-bit integer bit mask, got ${v}`);
      }
    }
    raw.sp_set_box_filter(this.#id, id, category >>> 0, mask >>> 0);
  }

  /** A box's filter. @throws SweepPruneError `StaleBox`, `InvalidBox`, `Disposed` */
  getBoxFilter(id: BoxId): { category: number; mask: number } {
    const raw = this.#engine('getBoxFilter');
    this.#checkLive(raw, 'getBoxFilter', id);
    raw.sp_get_box_filter(this.#id, id);
    const out = new Uint32Array(raw.memory.buffer, this.#scratch + SCRATCH_OUT, 2);
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

  #queryResult(raw: RawExports): [number, number, number] {
    const out = new Uint32Array(raw.memory.buffer, this.#scratch + SCRATCH_OUT, 3);
    return [out[0]!, out[1]!, out[2]!];
  }

  /**
   * Ids of the boxes overlapping the box `(min, max)` (closed intervals) whose category shares a bit with `mask`,
   * sorted by id. Answered from the sorted data of the last `update()` (O(log n + candidates)), so it sees the
   * boxes as they were then: call it after `update()`. A view valid until the next query or `update()`.
   * @throws SweepPruneError `InvalidBounds`, `InvertedBounds`, `InvalidDimensions`, `Disposed`
   */
  queryBox(min: ArrayLike<number>, max: ArrayLike<number>, mask = 0xffffffff): Uint32Array {
    return this.#query('queryBox', min, max, mask);
  }

  /** Ids of the boxes containing `point` (closed), as `queryBox(point, point, mask)`. */
  queryPoint(point: ArrayLike<number>, mask = 0xffffffff): Uint32Array {
    return this.#query('queryPoint', point, point, mask);
  }

  // errors name the method the caller used
  #query(what: string, min: ArrayLike<number>, max: ArrayLike<number>, mask: number): Uint32Array {
    const raw = this.#engine(what);
    this.#writeBox(raw, what, min, max);
    const r = raw.sp_query_box(this.#id, mask >>> 0);
    if (r !== 0) World.#fail(raw, r, what);
    const [ptr, , count] = this.#queryResult(raw);
    return count === 0 ? new Uint32Array(0) : new Uint32Array(raw.memory.buffer, ptr, count);
  }

  /**
   * Boxes hit by the ray from `origin` along `direction` (non-zero, any length) within `maxDistance`
   * (default Infinity), whose category shares a bit with `mask`, nearest first. `distances[i]` is the Euclidean
   * distance to where the ray enters box `ids[i]` (0 if the origin is inside). Sees the boxes of the last
   * `update()`; views valid until the next query or `update()`.
   * @throws SweepPruneError `InvalidBounds` (NaN, zero direction, negative maxDistance), `InvalidDimensions`, `Disposed`
   */
  castRay(origin: ArrayLike<number>, direction: ArrayLike<number>, maxDistance = Infinity, mask = 0xffffffff): RayHits {
    const raw = this.#engine('castRay');
    const d = this.dimensions;
    checkNumberArray('castRay', 'origin', origin, d);
    checkNumberArray('castRay', 'direction', direction, d);
    const f = new Float32Array(raw.memory.buffer, this.#scratch, 8);
    let len = 0;
    for (let a = 0; a < d; a++) {
      const o = origin[a]!;
      const v = direction[a]!;
      if (!Number.isFinite(o) || !Number.isFinite(v)) {
        throw new SweepPruneError('InvalidBounds', `castRay: origin[${a}] (${o}) and direction[${a}] (${v}) must be finite numbers`);
      }
      len += v * v;
      f[SCRATCH_MIN / 4 + a] = o;
      f[SCRATCH_MAX / 4 + a] = v;
    }
    if (!(len > 0)) throw new SweepPruneError('InvalidBounds', 'castRay: direction must not be the zero vector');
    if (!(maxDistance >= 0)) throw new SweepPruneError('InvalidBounds', `castRay: maxDistance must be >= 0 (Infinity for an unbounded ray), got ${maxDistance}`);
    const r = raw.sp_cast_ray(this.#id, maxDistance, mask >>> 0);
    if (r !== 0) World.#fail(raw, r, 'castRay');
    const [ids, distances, count] = this.#queryResult(raw);
    const buffer = raw.memory.buffer;
    return count === 0
      ? { ids: new Uint32Array(0), distances: new Float32Array(0) }
      : { ids: new Uint32Array(buffer, ids, count), distances: new Float32Array(buffer, distances, count) };
  }

  /**
   * Set a box's bounds (validated like `addBox`). For moving many boxes, write `bounds` directly instead.
   * @throws SweepPruneError `InvalidBounds`, `InvertedBounds`, `InvalidDimensions`, `StaleBox`, `InvalidBox`, `Disposed`
   */
  setBox(id: BoxId, min: ArrayLike<number>, max: ArrayLike<number>): void {
    const raw = this.#engine('setBox');
    this.#checkLive(raw, 'setBox', id);
    this.#writeBox(raw, `setBox(${id})`, min, max);
    const r = raw.sp_set_box(this.#id, id);
    if (r !== 0) World.#fail(raw, r, `setBox(${id})`, id);
  }

  /**
   * A box's bounds, as float32 values widened to numbers.
   * @throws SweepPruneError `StaleBox`, `InvalidBox`, `Disposed`
   */
  getBox(id: BoxId): { min: number[]; max: number[] } {
    const raw = this.#engine('getBox');
    this.#checkId('getBox', id);
    const r = raw.sp_get_box(this.#id, id);
    if (r !== 0) World.#fail(raw, r, `getBox(${id})`, id);
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
   * Make room for `capacity` boxes, so adding up to that many neither allocates nor grows wasm memory.
   * @throws SweepPruneError `CapacityExceeded`, `OutOfMemory`, `Disposed`
   */
  reserve(capacity: number): void {
    const raw = this.#engine('reserve');
    if (!Number.isInteger(capacity) || capacity < 0 || capacity > 1 << 22) {
      throw new SweepPruneError('CapacityExceeded', `reserve: capacity must be an integer from 0 to 4194304, got ${capacity}`);
    }
    const r = raw.sp_reserve(this.#id, capacity);
    if (r !== 0) World.#fail(raw, r, 'reserve');
  }

  /**
   * The bounds of every slot, as a view into wasm memory: the box with id `id` has its `dimensions` mins at
   * `slotOf(id) * 2 * dimensions` followed by its maxes. Write here to move many boxes with no call per box, then
   * call `update()`, which validates every live box. Slots of removed boxes are ignored.
   *
   * Valid until the next `addBox()` or `reserve()` (which may move or grow memory); this getter always returns a
   * live view, so take it again after adding boxes.
   */
  get bounds(): Float32Array {
    const raw = this.#engine('bounds');
    const buffer = raw.memory.buffer;
    const ptr = raw.sp_bounds(this.#id);
    const length = new Uint32Array(buffer, this.#scratch + SCRATCH_OUT, 1)[0]!;
    const view = this.#boundsView;
    if (view !== undefined && view.buffer === buffer && view.byteOffset === ptr && view.length === length) return view;
    return (this.#boundsView = new Float32Array(buffer, ptr, length));
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
   * @throws SweepPruneError `InvalidBounds`, `InvertedBounds`, `OutOfMemory`, `Disposed`
   */
  update(): void {
    const raw = this.#engine('update');
    const r = raw.sp_update(this.#id);
    if (r !== 0) this.#failValidated(raw, r, 'update');
  }

  // A failure of a call that validates every live box first (update, endpoints): name the bad box and the fix.
  #failValidated(raw: RawExports, result: number, what: string): never {
    const box = raw.sp_last_invalid_box(this.#id) >>> 0;
    if (box === 0 || (RESULT_CODES[result] !== 'InvalidBounds' && RESULT_CODES[result] !== 'InvertedBounds')) {
      World.#fail(raw, result, what);
    }
    const o = this.offsetOf(box);
    const d = this.dimensions;
    const values = Array.from(this.bounds.subarray(o, o + 2 * d));
    World.#fail(
      raw,
      result,
      `${what}: box ${box} has min [${values.slice(0, d).join(', ')}] and max [${values.slice(d).join(', ')}] ` +
        `(bounds[${o}..${o + 2 * d - 1}]); fix them through bounds or setBox(${box}) and call ${what}() again; the frame was rejected`,
      box,
    );
  }

  #pairs(which: number, what: string): Uint32Array {
    const raw = this.#engine(what);
    const ptr = raw.sp_pairs(this.#id, which);
    const buffer = raw.memory.buffer;
    const count = new Uint32Array(buffer, this.#scratch + SCRATCH_OUT, 1)[0]!;
    return count === 0 ? new Uint32Array(0) : new Uint32Array(buffer, ptr, 2 * count);
  }

  /**
   * Overlapping pairs after the last `update()`: box ids `a0, b0, a1, b1, ...`, `a < b` in each pair, in a
   * deterministic order that is not sorted (after coherent motion: the sweep's order). A view into wasm memory,
   * valid until the next `update()` or `dispose()`; use `slice()` to keep it.
   */
  get pairs(): Uint32Array {
    return this.#pairs(PAIRS, 'pairs');
  }

  /** Pairs that began overlapping in the last `update()`, sorted by `(a, b)` (layout and lifetime as `pairs`). */
  get began(): Uint32Array {
    return this.#pairs(BEGAN, 'began');
  }

  /**
   * Pairs that stopped overlapping in the last `update()`, including pairs of removed boxes, sorted by `(a, b)`
   * (layout and lifetime as `pairs`).
   */
  get ended(): Uint32Array {
    return this.#pairs(ENDED, 'ended');
  }

  /** Number of overlapping pairs after the last `update()`. */
  get pairCount(): number {
    return this.#pairs(PAIRS, 'pairCount').length >>> 1;
  }

  #forEach(p: Uint32Array, fn: (a: BoxId, b: BoxId, dataA: T | undefined, dataB: T | undefined) => void): void {
    const data = this.#data;
    for (let i = 0; i < p.length; i += 2) {
      const a = p[i]!;
      const b = p[i + 1]!;
      fn(a, b, data[a >>> GENERATION_BITS], data[b >>> GENERATION_BITS]);
    }
  }

  /**
   * Call `fn(a, b, dataA, dataB)` for every overlapping pair, in `pairs` order, with no allocation per pair.
   * `dataA`/`dataB` are the values given to `addBox`.
   */
  forEachPair(fn: (a: BoxId, b: BoxId, dataA: T | undefined, dataB: T | undefined) => void): void {
    this.#forEach(this.#pairs(PAIRS, 'forEachPair'), fn);
  }

  /** As `forEachPair`, for the pairs that began overlapping in the last `update()`. */
  forEachBegan(fn: (a: BoxId, b: BoxId, dataA: T | undefined, dataB: T | undefined) => void): void {
    this.#forEach(this.#pairs(BEGAN, 'forEachBegan'), fn);
  }

  /**
   * As `forEachPair`, for the pairs that stopped overlapping in the last `update()`. For a pair of a removed box
   * its data is still passed (kept until the slot is reused by a later `addBox`).
   */
  forEachEnded(fn: (a: BoxId, b: BoxId, dataA: T | undefined, dataB: T | undefined) => void): void {
    this.#forEach(this.#pairs(ENDED, 'forEachEnded'), fn);
  }

  /** Work done by the last `update()`. */
  get counters(): Counters {
    const raw = this.#engine('counters');
    const c = new Int32Array(raw.memory.buffer, raw.sp_counters(this.#id), COUNTER_FIELDS);
    return {
      boxes: c[0]!, sweepAxis: c[1]!, swaps: c[2]!, rebuilt: c[3]!, slabs: c[4]!,
      overlapTests: c[5]!, pairs: c[6]!, began: c[7]!, ended: c[8]!, endpointSwaps: c[9]!,
      staticBoxes: c[10]!, staticRebuilt: c[11]!, refreshed: c[12]!,
    };
  }

  /**
   * The sorted endpoint list of one axis, as the textbook sweep keeps it: two entries per live box, ascending, a min
   * before a max at equal values. `refs[i] >> 1` is the box's slot, `refs[i] & 1` is 1 for a max. The list persists
   * and is re-sorted by insertion sort on each call (`counters.endpointSwaps` counts the exchanges).
   * Views into wasm memory, valid until the next call that changes the world.
   * Validates every live box first, like `update()`: NaN, infinite or inverted bounds written through `bounds` throw
   * `InvalidBounds` or `InvertedBounds` with `error.boxId` set, and change nothing.
   * @throws SweepPruneError `InvalidBounds`, `InvertedBounds`, `InvalidDimensions`, `OutOfMemory`, `Disposed`
   */
  endpoints(axis: number): Endpoints {
    const raw = this.#engine('endpoints');
    if (!Number.isInteger(axis) || axis < 0 || axis >= this.dimensions) {
      throw new SweepPruneError('InvalidDimensions', `endpoints: axis must be an integer from 0 to ${this.dimensions - 1}, got ${axis}`);
    }
    const r = raw.sp_endpoints(this.#id, axis);
    if (r !== 0) this.#failValidated(raw, r, 'endpoints');
    const buffer = raw.memory.buffer;
    const [valuesPtr, refsPtr, count] = new Uint32Array(buffer, this.#scratch + SCRATCH_OUT, 3);
    return { values: new Float32Array(buffer, valuesPtr!, count!), refs: new Uint32Array(buffer, refsPtr!, count!) };
  }

  /** True after `dispose()`. */
  get disposed(): boolean {
    return this.#raw === undefined;
  }

  /** Free the world's wasm memory. Idempotent; any other use afterwards throws `Disposed`. */
  dispose(): void {
    const raw = this.#raw;
    if (raw === undefined) return;
    raw.sp_destroy_world(this.#id);
    this.#raw = undefined;
    this.#boundsView = undefined;
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}
