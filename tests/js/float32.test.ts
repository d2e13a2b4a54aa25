// Outward rounding of float64 bounds to float32 (web/src/float32.ts), against the definition: the nearest
// float32 values on each side of x.
import { describe, expect, test } from 'vitest';
import {
  FLOAT32_MAX,
  roundDown as float32Down,
  roundUp as float32Up,
  storeDown,
  storeUp,
} from '../../web/src/float32.js';
import { mulberry32 } from './oracle.js';

const isFloat32 = (x: number) => Math.fround(x) === x;

/** The next float32 above a float32 value (by bits, independently of the code under test). */
function nextUp(f: number): number {
  const a = new Float32Array([f]);
  const u = new Int32Array(a.buffer);
  if (f === 0) return 1.401298464324817e-45;
  u[0] = f > 0 ? u[0]! + 1 : u[0]! - 1;
  return a[0]!;
}

describe('float32Down / float32Up', () => {
  test('bracket x with adjacent float32 values (equal when x is one)', () => {
    const rng = mulberry32(3);
    const wrong: number[] = [];
    for (let i = 0; i < 20000; i++) {
      const x = (rng() - 0.5) * 10 ** Math.floor(rng() * 78 - 40); // within the float32 range
      const lo = float32Down(x);
      const hi = float32Up(x);
      const ok =
        isFloat32(lo) &&
        isFloat32(hi) &&
        lo <= x &&
        x <= hi &&
        (isFloat32(x) ? lo === x && hi === x : nextUp(lo) === hi);
      if (!ok) wrong.push(x);
    }
    expect(wrong).toEqual([]);
  });

  test('edges: zero, subnormals, the float32 range, infinities', () => {
    expect(Object.is(float32Down(0), 0)).toBe(true);
    expect(float32Down(1e-50)).toBe(0);
    expect(float32Up(1e-50)).toBe(1.401298464324817e-45);
    expect(float32Down(-1e-50)).toBe(-1.401298464324817e-45);
    expect(float32Up(-1e-50)).toBe(-0);
    expect(float32Down(Number.MAX_VALUE)).toBe(FLOAT32_MAX);
    expect(float32Up(Number.MAX_VALUE)).toBe(FLOAT32_MAX);
    expect(float32Down(-Infinity)).toBe(-FLOAT32_MAX);
    expect(float32Up(Infinity)).toBe(FLOAT32_MAX);
    expect(float32Up(3.4028235e38)).toBe(FLOAT32_MAX); // rounds to Infinity as a float32
    expect(float32Down(0.1)).toBeLessThan(0.1);
    expect(float32Up(0.1)).toBeGreaterThan(0.1);
  });

  test('storeDown / storeUp write what roundDown / roundUp return, at the edges too', () => {
    const f = new Float32Array(1);
    const i = new Int32Array(f.buffer);
    for (const x of [
      0,
      -0,
      1e-50,
      -1e-50,
      0.1,
      -0.1,
      3.4028235e38,
      -3.4028235e38,
      Number.MAX_VALUE,
      -Infinity,
      Infinity,
      1e39,
    ]) {
      storeDown(f, i, 0, x);
      expect(f[0]).toBe(float32Down(x));
      storeUp(f, i, 0, x);
      expect(f[0]).toBe(float32Up(x));
    }
  });
});
