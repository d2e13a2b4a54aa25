// sweep-prune/box-intersect against the real box-intersect 1.0.2 on seeded scenes: the same set of pairs, complete
// and bipartite, 1 to 6 dimensions (5 and 6 on the plain fallback), with touching, degenerate, NaN, empty and
// infinite boxes, bounds closer than a float32 step, and early exit through visit.
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, test } from 'vitest';
import boxIntersect, { boxIntersect as named, type Box } from '../../web/src/box-intersect.js';
import { init, SweepPruneError } from '../../web/src/index.js';
import { mulberry32 } from './oracle.js';

type Pairs = [number, number][];
const reference = createRequire(import.meta.url)('box-intersect') as {
  (boxes: ArrayLike<Box>): Pairs;
  (boxes: ArrayLike<Box>, visit: (i: number, j: number) => unknown): unknown;
  (red: ArrayLike<Box>, blue: ArrayLike<Box>): Pairs;
  (red: ArrayLike<Box>, blue: ArrayLike<Box>, visit: (i: number, j: number) => unknown): unknown;
};

beforeAll(() => init());

/** Complete pairs as sorted "min,max" strings (box-intersect may give either order within a pair). */
const unordered = (pairs: Pairs) => pairs.map(([i, j]) => (i < j ? `${i},${j}` : `${j},${i}`)).sort();
/** Bipartite pairs as sorted "red,blue" strings. */
const ordered = (pairs: Pairs) => pairs.map(([i, j]) => `${i},${j}`).sort();

type Scene = (rnd: () => number, d: number, n: number) => number[][];

function box(lo: number[], hi: number[]): number[] {
  return [...lo, ...hi];
}

const scenes: Record<string, Scene> = {
  random: (rnd, d, n) =>
    Array.from({ length: n }, () => {
      const c = Array.from({ length: d }, () => rnd() * 100);
      const h = Array.from({ length: d }, () => rnd() * 10);
      return box(
        c.map((x, a) => x - h[a]!),
        c.map((x, a) => x + h[a]!),
      );
    }),
  // integer grid: many boxes touch exactly, on faces, edges and corners
  touching: (rnd, d, n) =>
    Array.from({ length: n }, () => {
      const lo = Array.from({ length: d }, () => Math.floor(rnd() * 12));
      return box(
        lo,
        lo.map((x) => x + 1 + Math.floor(rnd() * 2)),
      );
    }),
  // points, zero-width slabs and duplicates
  degenerate: (rnd, d, n) =>
    Array.from({ length: n }, (_, i) => {
      const lo = Array.from({ length: d }, () => Math.floor(rnd() * 6) / 2);
      const hi = lo.map((x, a) => (i % 3 === 0 || a === i % d ? x : x + Math.floor(rnd() * 3) / 2));
      return box(lo, hi);
    }),
  // NaN, inverted (empty) and infinite bounds among ordinary boxes, and values beyond float32
  special: (rnd, d, n) =>
    Array.from({ length: n }, (_, i) => {
      const c = Array.from({ length: d }, () => rnd() * 20);
      const b = box(
        c,
        c.map((x) => x + rnd() * 4),
      );
      const a = i % d;
      switch (i % 9) {
        case 0:
          b[a] = NaN;
          break;
        case 1:
          b[d + a] = b[a]! - 1;
          break; // inverted: empty
        case 2:
          b[a] = -Infinity;
          break;
        case 3:
          b[d + a] = Infinity;
          break;
        case 4:
          b[a] = Infinity;
          b[d + a] = Infinity;
          break;
        case 5:
          b[d + a] = 1e39;
          break;
        case 6:
          b[a] = -1e300;
          b[d + a] = -5e38;
          break;
        case 7:
          b[d + a] = NaN;
          break;
      }
      return b;
    }),
  // bounds within a few float64 steps of each other, far below one float32 step (2^-23 near 1)
  subFloat32: (rnd, d, n) =>
    Array.from({ length: n }, () => {
      const lo = Array.from({ length: d }, () => 1 + Math.floor(rnd() * 64) * 2 ** -40);
      return box(
        lo,
        lo.map((x) => x + Math.floor(rnd() * 8) * 2 ** -40),
      );
    }),
  // ordinary decimals (not float32 values) that touch exactly: 0.1 + 0.2 style sums
  decimals: (rnd, d, n) =>
    Array.from({ length: n }, () => {
      const lo = Array.from({ length: d }, () => Math.floor(rnd() * 20) / 10);
      return box(
        lo,
        lo.map((x) => x + 0.1 * (1 + Math.floor(rnd() * 3))),
      );
    }),
};

describe('the same pairs as box-intersect', () => {
  for (const d of [1, 2, 3, 4, 5, 6]) {
    for (const [name, scene] of Object.entries(scenes)) {
      test(`${d}D ${name}: complete and bipartite, arrays and visitors`, () => {
        const rnd = mulberry32(d * 1000 + name.length);
        for (const n of [1, 2, 40, 300]) {
          const red = scene(rnd, d, n);
          const blue = scene(rnd, d, Math.max(1, n >> 1));
          const want = unordered(reference(red));
          const got = boxIntersect(red);
          expect(unordered(got)).toEqual(want);
          for (const [i, j] of got) expect(i).toBeLessThan(j);
          const visited: Pairs = [];
          expect(boxIntersect(red, (i, j) => void visited.push([i, j]))).toBeUndefined();
          expect(unordered(visited)).toEqual(want);

          const wantRB = ordered(reference(red, blue));
          expect(ordered(boxIntersect(red, blue))).toEqual(wantRB);
          expect(ordered(boxIntersect(blue, red).map(([i, j]) => [j, i]))).toEqual(wantRB);
          const visitedRB: Pairs = [];
          expect(boxIntersect(red, blue, (i, j) => void visitedRB.push([i, j]))).toBeUndefined();
          expect(ordered(visitedRB)).toEqual(wantRB);
          // the same list on both sides: bipartite reports (i, i) and both (i, j) and (j, i)
          expect(ordered(boxIntersect(red, red))).toEqual(ordered(reference(red, red)));
        }
      });
    }
  }

  test('array-likes: typed-array boxes and a list that is not an array', () => {
    const rnd = mulberry32(5);
    const boxes = scenes.random!(rnd, 3, 200).map((b) => Float64Array.from(b));
    const list: ArrayLike<Box> = Object.assign({ length: boxes.length }, boxes);
    expect(unordered(boxIntersect(list))).toEqual(unordered(reference(boxes)));
    const f32boxes = boxes.map((b) => Float32Array.from(b));
    expect(unordered(boxIntersect(f32boxes))).toEqual(unordered(reference(f32boxes)));
  });

  test("box-intersect's README examples", () => {
    const boxes = [
      [1, 1, 2, 2],
      [0, -1, 3, 2],
      [2, 1, 4, 5],
      [0.5, 3, 1, 10],
    ];
    // the README's pairs, in some order
    expect(ordered(boxIntersect(boxes))).toEqual(['0,1', '0,2', '1,2']);
    const red = [
      [0, 0, 0, 8, 1, 1],
      [0, 0, 0, 1, 8, 1],
      [0, 0, 0, 1, 1, 8],
    ];
    const blue = [
      [5, 0, 0, 6, 10, 10],
      [0, 5, 0, 10, 6, 10],
      [0, 0, 5, 10, 10, 10],
    ];
    expect(ordered(boxIntersect(red, blue))).toEqual(['0,0', '1,1', '2,2']);
    expect(named).toBe(boxIntersect);
  });

  test('empty input, zero dimensions and all-empty boxes give no pairs, as box-intersect', () => {
    for (const args of [
      [[]],
      [[[]]],
      [[[NaN, 0, 1, 1]]],
      [[[0, 0, 1, 1]], []],
      [[], [[0, 0, 1, 1]]],
      [[[2, 0, 1, 1]], [[0, 0, 1, 1]]],
    ] as ArrayLike<Box>[][]) {
      expect(boxIntersect(...(args as [ArrayLike<Box>]))).toEqual(reference(...(args as [ArrayLike<Box>])));
      const visit = () => 1;
      expect(
        (boxIntersect as (...a: unknown[]) => unknown)(...args, ...(args.length === 1 ? [visit] : [visit])),
      ).toBeUndefined();
    }
  });
});

describe('visit: a value other than undefined stops the search and is returned', () => {
  for (const d of [1, 2, 3, 5]) {
    test(`${d}D`, () => {
      const rnd = mulberry32(77 + d);
      const red = scenes.touching!(rnd, d, 300);
      const blue = scenes.random!(rnd, d, 100);
      const all = new Set(unordered(reference(red)));
      for (const stopValue of [0, null, false, '', 'found', { box: 1 }]) {
        for (const stopAt of [1, 5, 40]) {
          const seen: Pairs = [];
          const r = boxIntersect(red, (i, j) => (seen.push([i, j]), seen.length === stopAt ? stopValue : undefined));
          expect(r).toBe(stopAt <= all.size ? stopValue : undefined);
          expect(seen.length).toBe(Math.min(stopAt, all.size)); // no call after the one that stopped
          for (const p of unordered(seen)) expect(all.has(p)).toBe(true);
        }
      }
      // the same stop rule as box-intersect gives the same answer (the pair it stops at may differ: the order does)
      for (const box of [7, 299]) {
        const touches = (i: number, j: number) => (i === box || j === box ? 'touches' : undefined);
        expect(boxIntersect(red, touches)).toBe(reference(red, touches));
      }
      const cross = new Set(ordered(reference(red, blue)));
      const seen: Pairs = [];
      expect(boxIntersect(red, blue, (i, j) => (seen.push([i, j]), seen.length === 3 ? 'stop' : undefined))).toBe(
        cross.size >= 3 ? 'stop' : undefined,
      );
      for (const p of ordered(seen)) expect(cross.has(p)).toBe(true);
    });
  }
});

describe('errors', () => {
  test('bad arguments throw a SweepPruneError naming the fix', () => {
    const call = boxIntersect as (...a: unknown[]) => unknown;
    const boxes = [[0, 0, 1, 1]];
    expect(() => call()).toThrow(SweepPruneError);
    expect(() => call(boxes, boxes, boxes, boxes)).toThrow(/Invalid arguments/);
    expect(() => call(boxes, boxes, 5)).toThrow(/visit must be a function/);
    expect(() => call(null)).toThrow(/boxes must be an array of boxes/);
    expect(() => call(boxes, 7)).toThrow(/blue must be an array of boxes/);
    expect(() => call(boxes, undefined)).toThrow(/blue must be an array of boxes/);
    expect(() => call(boxes, null, () => 1)).toThrow(/blue must be an array of boxes/);
    expect(() => call([5])).toThrow(/boxes\[0\] must be an array/);
  });

  test('an exception thrown by visit propagates and leaves nothing allocated', async () => {
    const { World } = await import('../../web/src/index.js');
    const boxes = scenes.random!(mulberry32(3), 2, 50);
    for (let k = 0; k < 300; k++) {
      expect(() =>
        boxIntersect(boxes, () => {
          throw new Error('from visit');
        }),
      ).toThrow('from visit');
    }
    // 300 calls that threw: no world was left alive (256 at most)
    const w = new World();
    w.dispose();
  });
});
