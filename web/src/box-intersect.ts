// SPDX-License-Identifier: MIT
// `sweep-prune/box-intersect`: box-intersect 1.0.2's `boxIntersect(red[, blue][, visit])` on the wasm engine.
// Boxes are float64 arrays; the engine stores float32. Each bound is rounded outward (mins down, maxes up), so the
// engine finds every pair box-intersect finds and maybe a few more whose gap is under one float32 step; the pairs
// of boxes that float32 did not hold exactly are tested again in float64, so the set of pairs is box-intersect's.
import { RESULT, RESULT_CODES, SweepPruneError } from './errors.js';
import { roundDown, roundUp } from './float32.js';
import { resultText } from './engine-call.js';
import { getEngine } from './loader.js';
import { PAIR_LIST, type RawExports, SCRATCH_OUT } from './raw.js';

export { init } from './index.js';
export { isInitialized } from './loader.js';

/** A box: `2 * d` numbers, its `d` lower bounds then its `d` upper bounds (`[minX, minY, maxX, maxY]` in 2D). */
export type Box = ArrayLike<number>;

/** Called once per overlapping pair; returning anything but `undefined` stops the search and is returned. */
export type Visitor<R> = (i: number, j: number) => R | undefined | void;

/**
 * The non-empty boxes of a list in float32 (rounded outward) at `bounds[first * stride ..]`, their float64 values
 * in `exact`, and for each kept box its index in the list and whether float32 changed any of its bounds.
 * A box is empty, and skipped as box-intersect skips it, when some axis has `!(lo <= hi)` (NaN or inverted).
 */
function convert(
  boxes: ArrayLike<Box>,
  d: number,
  bounds: Float32Array,
  exact: Float64Array,
  first: number,
  index: Int32Array,
  inexact: Uint8Array,
): number {
  const stride = 2 * d;
  let k = first;
  for (let i = 0, n = boxes.length; i < n; i++) {
    const b = boxes[i]!;
    const o = k * stride;
    let empty = false;
    let changed = 0;
    for (let a = 0; a < d; a++) {
      const lo = +b[a]!;
      const hi = +b[a + d]!;
      if (!(lo <= hi)) {
        empty = true;
        break;
      }
      exact[o + a] = lo;
      exact[o + d + a] = hi;
      // outward: mins down, maxes up; ±Infinity and beyond float32 clamp to the largest float32
      const flo = roundDown(lo);
      const fhi = roundUp(hi);
      if (flo !== lo || fhi !== hi) changed = 1;
      bounds[o + a] = flo;
      bounds[o + d + a] = fhi;
    }
    if (empty) continue;
    index[k] = i;
    inexact[k] = changed;
    k++;
  }
  return k - first;
}

function fail(raw: RawExports, result: number): never {
  const text = resultText(raw, result);
  const code = RESULT_CODES[result];
  throw new SweepPruneError(code === undefined || code === 'Ok' ? 'InvalidArgument' : code, `boxIntersect: ${text}`);
}

/** The same pairs for more than 4 dimensions: sort on the first axis, sweep, test the other axes (float64). */
function sweepPairs(exact: Float64Array, d: number, redCount: number, blueCount: number): Uint32Array {
  const count = redCount + blueCount;
  const stride = 2 * d;
  const order = Array.from({ length: count }, (_, k) => k).sort((p, q) => exact[p * stride]! - exact[q * stride]!);
  const out: number[] = [];
  for (let x = 0; x < count; x++) {
    const p = order[x]!;
    const hi = exact[p * stride + d]!;
    for (let y = x + 1; y < count; y++) {
      const q = order[y]!;
      if (exact[q * stride]! > hi) break;
      if (blueCount > 0 && p < redCount === q < redCount) continue;
      if (overlapsExact(exact, p * stride, q * stride, d)) out.push(Math.min(p, q), Math.max(p, q));
    }
  }
  return Uint32Array.from(out);
}

function overlapsExact(exact: Float64Array, o: number, q: number, d: number): boolean {
  for (let a = 0; a < d; a++) {
    if (exact[o + a]! > exact[q + d + a]! || exact[q + a]! > exact[o + d + a]!) return false;
  }
  return true;
}

type Result<R> = [number, number][] | R | undefined;

/**
 * Report pairs of slots `s0, t0, s1, t1, ...` (`s < t`; red slots first, then blue) as index pairs: `i < j` in a
 * complete search (slots keep list order), `[red, blue]` in a bipartite one.
 */
function report<R>(pairs: Uint32Array, index: Int32Array, visit: Visitor<R> | undefined): Result<R> {
  const count = pairs.length >>> 1;
  if (visit === undefined) {
    // sized once: growing an array of a million pairs step by step costs more than the pairs themselves
    const out: [number, number][] = new Array(count);
    for (let k = 0; k < count; k++) out[k] = [index[pairs[2 * k]!]!, index[pairs[2 * k + 1]!]!];
    return out;
  }
  for (let k = 0; k < count; k++) {
    const r = visit(index[pairs[2 * k]!]!, index[pairs[2 * k + 1]!]!);
    if (r !== undefined) return r;
  }
  return undefined;
}

/**
 * The engine's pairs: a world of the kept boxes (converted straight into wasm memory, red first), one update, the
 * pairs whose boxes float32 did not hold exactly tested again in float64 (sp_filter_pairs, on the float64 bounds
 * written beside the float32 ones), and the world destroyed before returning.
 */
function engineIntersect<R>(
  raw: RawExports,
  red: ArrayLike<Box>,
  blue: ArrayLike<Box> | undefined,
  d: number,
  visit: Visitor<R> | undefined,
): Result<R> {
  const total = blue === undefined ? red.length : red.length + blue.length;
  const stride = 2 * d;
  const index = new Int32Array(total);
  const scratch = raw.sp_scratch();
  let r = raw.sp_create_world(d, 0);
  if (r !== 0) fail(raw, r);
  const world = new Uint32Array(raw.memory.buffer, scratch + SCRATCH_OUT, 1)[0]!;
  // one update and its pairs: no began and ended lists (they would sort every pair by id)
  raw.sp_set_events(world, 0);
  let block = 0;
  let out = 0;
  try {
    // one block: float64 bounds (first, for their alignment), float32 bounds, box ids, re-test flags
    block = raw.malloc(total * (stride * 12 + 5));
    if (block === 0) fail(raw, RESULT.OutOfMemory);
    const exactPtr = block;
    const boundsPtr = exactPtr + total * stride * 8;
    const ids = boundsPtr + total * stride * 4;
    const flagsPtr = ids + total * 4;
    const buffer = raw.memory.buffer; // no call into wasm until these are filled
    const exact = new Float64Array(buffer, exactPtr, total * stride);
    const bounds = new Float32Array(buffer, boundsPtr, total * stride);
    const inexact = new Uint8Array(buffer, flagsPtr, total);
    const redCount = convert(red, d, bounds, exact, 0, index, inexact);
    const blueCount =
      blue === undefined || redCount === 0 ? 0 : convert(blue, d, bounds, exact, redCount, index, inexact);
    if (redCount === 0 || (blue !== undefined && blueCount === 0)) return visit === undefined ? [] : undefined;
    r = raw.sp_add_boxes(world, boundsPtr, redCount + blueCount, ids);
    if (r !== 0) fail(raw, r);
    if (blue !== undefined) {
      // red pairs only with blue: category 1 / mask 2 against category 2 / mask 1
      r =
        raw.sp_set_box_filters(world, ids, redCount, 1, 2) ||
        raw.sp_set_box_filters(world, ids + redCount * 4, blueCount, 2, 1);
      if (r !== 0) fail(raw, r);
    }
    r = raw.sp_update(world);
    if (r !== 0) fail(raw, r);
    raw.sp_pairs(world, PAIR_LIST.pairs);
    const pairCount = new Uint32Array(raw.memory.buffer, scratch + SCRATCH_OUT, 1)[0]!;
    out = raw.malloc(Math.max(8, pairCount * 8));
    if (out === 0) fail(raw, RESULT.OutOfMemory);
    const kept = raw.sp_filter_pairs(world, exactPtr, flagsPtr, out);
    let pairs = new Uint32Array(raw.memory.buffer, out, 2 * kept);
    // visit may call into the engine (and grow its memory, detaching the view): it gets a copy
    if (visit !== undefined) pairs = pairs.slice();
    return report(pairs, index, visit);
  } finally {
    if (out !== 0) raw.free(out);
    if (block !== 0) raw.free(block);
    raw.sp_destroy_world(world);
  }
}

function checkList(name: string, list: unknown): void {
  if (list == null || typeof list !== 'object' || typeof (list as ArrayLike<Box>).length !== 'number') {
    throw new SweepPruneError(
      'InvalidArgument',
      `boxIntersect: ${name} must be an array of boxes ([lo_0, .., lo_d-1, hi_0, .., hi_d-1] each), got ${list === null ? 'null' : typeof list}`,
    );
  }
}

function intersect<R>(red: ArrayLike<Box>, blue: ArrayLike<Box> | undefined, visit: Visitor<R> | undefined): Result<R> {
  const raw = getEngine('boxIntersect', 'box-intersect');
  const empty = visit === undefined ? [] : undefined;
  checkList('boxes', red);
  const n = red.length;
  const m = blue === undefined ? n : blue.length;
  if (!(n > 0) || !(m > 0)) return empty;
  if (red[0] == null || typeof red[0].length !== 'number') {
    throw new SweepPruneError(
      'InvalidArgument',
      `boxIntersect: boxes[0] must be an array of 2 * d numbers (d lower bounds, then d upper bounds), got ${red[0] === null ? 'null' : typeof red[0]}`,
    );
  }
  const d = red[0].length >>> 1;
  if (d <= 0) return empty;
  if (d <= 4) return engineIntersect(raw, red, blue, d, visit);
  // more than 4 dimensions: float64 throughout
  const stride = 2 * d;
  const total = blue === undefined ? n : n + m;
  const exact = new Float64Array(total * stride);
  const index = new Int32Array(total);
  const flags = new Uint8Array(total);
  const unused = new Float32Array(total * stride);
  const redCount = convert(red, d, unused, exact, 0, index, flags);
  const blueCount = blue === undefined || redCount === 0 ? 0 : convert(blue, d, unused, exact, redCount, index, flags);
  if (redCount === 0 || (blue !== undefined && blueCount === 0)) return empty;
  return report(sweepPairs(exact, d, redCount, blueCount), index, visit);
}

/**
 * All overlapping pairs of a list of boxes: `[[i, j], ...]` with `i < j`, indices into `boxes`. Boxes are
 * `2 * d` numbers (mins then maxes, any `d`; 1 to 4 run on the wasm engine), closed, compared in float64; empty
 * boxes (NaN or `lo > hi` on some axis) are skipped. Needs `await init()` once before.
 * @throws SweepPruneError `NotInitialized` (before `init()`), `InvalidArgument`, `OutOfMemory`
 */
export function boxIntersect(boxes: ArrayLike<Box>): [number, number][];
/**
 * Call `visit(i, j)` (`i < j`) for every overlapping pair of `boxes`; when it returns anything but `undefined`,
 * stop and return that value. Returns `undefined` when every pair was visited.
 */
export function boxIntersect<R>(boxes: ArrayLike<Box>, visit: Visitor<R>): R | undefined;
/** All pairs `[[i, j], ...]` of a box of `red` (index `i`) overlapping a box of `blue` (index `j`). */
export function boxIntersect(red: ArrayLike<Box>, blue: ArrayLike<Box>): [number, number][];
/** Call `visit(i, j)` for every box `red[i]` overlapping `blue[j]`; a non-`undefined` return stops and is returned. */
export function boxIntersect<R>(red: ArrayLike<Box>, blue: ArrayLike<Box>, visit: Visitor<R>): R | undefined;
export function boxIntersect<R>(...args: unknown[]): [number, number][] | R | undefined {
  const [a, b, c] = args as [ArrayLike<Box>, unknown, unknown];
  if ((args.length === 2 && typeof b !== 'function') || args.length === 3) checkList('blue', b);
  switch (args.length) {
    case 1:
      return intersect<R>(a, undefined, undefined);
    case 2:
      return typeof b === 'function'
        ? intersect<R>(a, undefined, b as Visitor<R>)
        : intersect<R>(a, b as ArrayLike<Box>, undefined);
    case 3:
      if (typeof c !== 'function') {
        throw new SweepPruneError(
          'InvalidArgument',
          `boxIntersect(red, blue, visit): visit must be a function, got ${typeof c}; omit it to get the pairs as an array`,
        );
      }
      return intersect<R>(a, b as ArrayLike<Box>, c as Visitor<R>);
    default:
      throw new SweepPruneError(
        'InvalidArgument',
        `box-intersect: Invalid arguments (boxIntersect takes 1 to 3 arguments, got ${args.length})`,
      );
  }
}

export default boxIntersect;
