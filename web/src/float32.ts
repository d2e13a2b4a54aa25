// SPDX-License-Identifier: MIT
// float64 bounds to float32 boxes, rounded outward (mins down, maxes up), so a box holds every point of the float64
// bounds and no overlap a float64 test finds is lost (the adapters and box-intersect re-test their candidates in
// float64). Infinite and beyond-float32 values clamp to the largest float32, the engine's "unbounded": rounding
// and clamping never reverse an order, so every min <= max that held still holds.

/** The largest float32 value. */
export const FLOAT32_MAX = 3.4028234663852886e38;

/** A number float32 holds as a finite value: not NaN, not infinite, not beyond ±FLOAT32_MAX once rounded. */
export function isFloat32(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(Math.fround(v));
}
const FLT_MAX = FLOAT32_MAX;
const f32 = new Float32Array(1);
const i32 = new Int32Array(f32.buffer);

/** The largest float32 <= x (for a min), clamped to the finite float32 range. NaN stays NaN. */
export function roundDown(x: number): number {
  f32[0] = x;
  const v = f32[0]!;
  if (v <= x) return v === -Infinity ? -FLT_MAX : v === Infinity ? FLT_MAX : v;
  if (v === Infinity) return FLT_MAX;
  if (v === 0)
    i32[0] = 0x80000001 | 0; // x < 0 rounded to zero: the negative float32 nearest zero
  else i32[0]! += v > 0 ? -1 : 1;
  return f32[0] === -Infinity ? -FLT_MAX : f32[0]!; // below -FLT_MAX: clamped
}

/** The smallest float32 >= x (for a max), clamped to the finite float32 range. NaN stays NaN. */
export function roundUp(x: number): number {
  f32[0] = x;
  const v = f32[0]!;
  if (v >= x) return v === Infinity ? FLT_MAX : v === -Infinity ? -FLT_MAX : v;
  if (v === -Infinity) return -FLT_MAX;
  if (v === 0)
    i32[0] = 1; // x > 0 rounded to zero: the positive float32 nearest zero
  else i32[0]! += v > 0 ? 1 : -1;
  return f32[0] === Infinity ? FLT_MAX : f32[0]!; // above FLT_MAX: clamped
}

/** `f[o] = roundDown(x)` in place: `i` views the same memory as `f` (no scratch round trip in a hot loop). */
export function storeDown(f: Float32Array, i: Int32Array, o: number, x: number): void {
  f[o] = x;
  const v = f[o]!;
  if (v > x) {
    if (v === Infinity) f[o] = FLT_MAX;
    else if (v === 0) i[o] = 0x80000001 | 0;
    else if (((i[o]! += v > 0 ? -1 : 1), f[o] === -Infinity)) f[o] = -FLT_MAX; // below -FLT_MAX: clamped
  } else if (v === -Infinity || v === Infinity) {
    f[o] = v > 0 ? FLT_MAX : -FLT_MAX;
  }
}

/** `f[o] = roundUp(x)` in place: `i` views the same memory as `f`. */
export function storeUp(f: Float32Array, i: Int32Array, o: number, x: number): void {
  f[o] = x;
  const v = f[o]!;
  if (v < x) {
    if (v === -Infinity) f[o] = -FLT_MAX;
    else if (v === 0) i[o] = 1;
    else if (((i[o]! += v > 0 ? 1 : -1), f[o] === Infinity)) f[o] = FLT_MAX; // above FLT_MAX: clamped
  } else if (v === Infinity || v === -Infinity) {
    f[o] = v > 0 ? FLT_MAX : -FLT_MAX;
  }
}
