// SPDX-License-Identifier: MIT
// float64 -> float32 rounded outward, so that a box stored as float32 always contains the float64 box it came from:
// no pair the physics engine's own float64 test finds can be lost (a pair it would not test may be added).

/** The largest float32 value, the engine's "unbounded". */
export const FLOAT32_MAX = 3.4028234663852886e38;
const SMALLEST_SUBNORMAL = 1.401298464324817e-45;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * The largest float32 `<= x`, clamped to `[-FLOAT32_MAX, FLOAT32_MAX]` (so ±Infinity and float64 values beyond
 * float32, like a plane's ±1.8e308, are accepted). Clamping keeps every `min <= max` comparison between two rounded
 * values true when it was true before, because both rounding and clamping never reverse an order. `x` must not be NaN.
 */
export function float32Down(x: number): number {
  if (x >= FLOAT32_MAX) return FLOAT32_MAX;
  if (x <= -FLOAT32_MAX) return -FLOAT32_MAX;
  const f = Math.fround(x);
  if (f <= x) return f;
  // rounded up: step one unit in the last place toward -Infinity (f > x > -FLOAT32_MAX, so the result is finite)
  if (f === 0) return -SMALLEST_SUBNORMAL;
  f32[0] = f;
  u32[0] = f > 0 ? u32[0]! - 1 : u32[0]! + 1;
  return f32[0]!;
}

/** The smallest float32 `>= x`, clamped like `float32Down`. */
export function float32Up(x: number): number {
  return -float32Down(-x);
}
