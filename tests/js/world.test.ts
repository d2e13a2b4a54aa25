import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { init, SweepPruneError, World, slotOf } from '../../web/src/index.js';
import { bruteForce, f32, minus, mulberry32, pairSet, pairStrings, randomBox, type Box } from './oracle.js';

beforeAll(() => init());

let world: World | undefined;
afterEach(() => {
  world?.dispose();
  world = undefined;
});

function make(dimensions: number): World {
  world = new World({ dimensions });
  return world;
}

function expectThrows(fn: () => unknown, code: string, message?: RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(SweepPruneError);
  expect((caught as SweepPruneError).code).toBe(code);
  if (message) expect((caught as SweepPruneError).message).toMatch(message);
}

describe('pairs equal brute force', () => {
  for (const d of [1, 2, 3, 4]) {
    test(`random and degenerate scenes, ${d}D`, () => {
      const rand = mulberry32(d * 1000);
      for (const [n, size, lattice] of [
        [0, 0.1, false],
        [1, 0.1, false],
        [50, 0.3, false],
        [400, 0.05, false],
        [2000, 0.02, false],
        [300, 0, true],
        [64, 0, true],
      ] as const) {
        const w = make(d);
        const boxes = new Map<number, Box>();
        for (let i = 0; i < n; i++) {
          const b = randomBox(rand, d, size, lattice);
          boxes.set(w.addBox(b.min, b.max), b);
        }
        w.update();
        expect(pairSet(w.pairs)).toEqual(bruteForce(boxes));
        expect(w.counters.pairs).toBe(w.pairCount);
        w.dispose();
      }
    });
  }

  test('touching faces overlap (closed intervals), and a box never pairs with itself', () => {
    const w = make(2);
    const a = w.addBox([0, 0], [1, 1]);
    const b = w.addBox([1, 0], [2, 1]); // shares the face x = 1
    const c = w.addBox([2, 1], [3, 2]); // shares one corner with b
    const e = w.addBox([3.5, 0], [3.5, 0]); // zero extent, alone
    w.update();
    expect(pairSet(w.pairs)).toEqual([`${a},${b}`, `${b},${c}`]);
    expect(w.isBoxValid(e)).toBe(true);
  });
});

describe('began and ended follow brute force over long operation sequences', () => {
  for (const d of [1, 2, 3, 4]) {
    test(`${d}D: add / move (setBox and bounds view) / remove / update`, () => {
      const rand = mulberry32(77 + d);
      const w = make(d);
      const boxes = new Map<number, Box>();
      let prev: string[] = [];
      for (let step = 0; step < 250; step++) {
        const op = rand();
        if (op < 0.3 || boxes.size === 0) {
          for (let k = 1 + Math.floor(rand() * 6); k > 0; k--) {
            const b = randomBox(rand, d, 0.15, step % 5 === 0);
            boxes.set(w.addBox(b.min, b.max), b);
          }
        } else if (op < 0.45) {
          const ids = [...boxes.keys()];
          for (let k = 1 + Math.floor(rand() * 5); k > 0 && ids.length; k--) {
            const id = ids.splice(Math.floor(rand() * ids.length), 1)[0]!;
            w.removeBox(id);
            boxes.delete(id);
          }
        } else {
          const view = w.bounds;
          let i = 0;
          for (const [id, b] of boxes) {
            for (let a = 0; a < d; a++) {
              const dx = (rand() - 0.5) * 3;
              b.min[a] = f32(b.min[a]! + dx);
              b.max[a] = f32(b.max[a]! + dx);
            }
            if (i++ % 2) {
              w.setBox(id, b.min, b.max);
            } else {
              const o = w.offsetOf(id);
              for (let a = 0; a < d; a++) {
                view[o + a] = b.min[a]!;
                view[o + d + a] = b.max[a]!;
              }
            }
          }
        }
        if (rand() < 0.8) {
          w.update();
          const now = bruteForce(boxes);
          expect(pairSet(w.pairs)).toEqual(now);
          expect(pairStrings(w.began)).toEqual(minus(now, prev));
          expect(pairStrings(w.ended)).toEqual(minus(prev, now));
          prev = now;
        }
      }
    });
  }
});

describe('views', () => {
  test('views are re-made after memory growth and still read correctly', () => {
    const w = make(2);
    const a = w.addBox([0, 0], [1, 1]);
    const b = w.addBox([0.5, 0.5], [2, 2]);
    w.update();
    const oldPairs = w.pairs;
    const oldBounds = w.bounds;
    const bufferBefore = oldPairs.buffer;
    // a second world big enough to force the wasm memory to grow
    const big = new World({ dimensions: 2, capacity: 1 << 20 });
    try {
      // growth detached the old buffer: old views read as empty, writes to them would be lost
      expect(bufferBefore.byteLength).toBe(0);
      expect(oldBounds.length).toBe(0);
      expect(w.bounds === oldBounds).toBe(false);
      expect(Array.from(w.bounds.subarray(w.offsetOf(a), w.offsetOf(a) + 4))).toEqual([0, 0, 1, 1]);
      expect(pairSet(w.pairs)).toEqual([`${a},${b}`]);
      // writes through the new view land in the engine
      const v = w.bounds;
      v[w.offsetOf(b)] = 5;
      v[w.offsetOf(b) + 2] = 6;
      w.update();
      expect(w.pairCount).toBe(0);
      expect(pairStrings(w.ended)).toEqual([`${a},${b}`]);
      expect(w.getBox(b)).toEqual({ min: [5, 0.5], max: [6, 2] });
    } finally {
      big.dispose();
    }
  });

  test('endpoints are the sorted edges of every box, min before max at equal values', () => {
    const w = make(2);
    const ids = [w.addBox([3, 0], [5, 1]), w.addBox([1, 0], [3, 1]), w.addBox([4, 0], [4, 1])];
    const { values, refs } = w.endpoints(0);
    expect(Array.from(values)).toEqual([1, 3, 3, 4, 4, 5]);
    const who = Array.from(refs, (r) => `${ids.findIndex((id) => slotOf(id) === r >>> 1)}${r & 1 ? ')' : '('}`);
    expect(who).toEqual(['1(', '0(', '1)', '2(', '2)', '0)']);
    w.setBox(ids[2]!, [0, 0], [0.5, 1]);
    const after = w.endpoints(0);
    expect(Array.from(after.values)).toEqual([0, 0.5, 1, 3, 3, 5]);
    expect(w.counters.endpointSwaps).toBeGreaterThan(0);
    w.removeBox(ids[0]!);
    expect(w.endpoints(0).values.length).toBe(4);
  });
});

describe('errors: each bad call throws a SweepPruneError and changes nothing', () => {
  function snapshot(w: World) {
    return { boxes: w.boxCount, bounds: Array.from(w.bounds), pairs: Array.from(w.pairs) };
  }

  test('NaN, infinite and inverted bounds are rejected by addBox and setBox', () => {
    const w = make(2);
    const a = w.addBox([0, 0], [1, 1]);
    w.addBox([0, 0], [1, 1]);
    w.update();
    const before = snapshot(w);
    expectThrows(() => w.addBox([0, NaN], [1, 1]), 'InvalidBounds', /min\[1\] is NaN/);
    expectThrows(() => w.addBox([0, 0], [Infinity, 1]), 'InvalidBounds', /Infinity/);
    expectThrows(() => w.addBox([2, 0], [1, 1]), 'InvertedBounds', /min\[0\] \(2\) must be <= max\[0\] \(1\)/);
    expectThrows(() => w.addBox([0, 0, 0], [1, 1, 1]), 'InvalidDimensions', /3 coordinates; this world has 2/);
    expectThrows(() => w.addBox(null as never, [1, 1]), 'InvalidArgument');
    expectThrows(() => w.addBox([0, 1e39], [1, 1e39]), 'InvalidBounds'); // finite in JS, infinite as float32
    expectThrows(() => w.setBox(a, [0, 0], [-1, 1]), 'InvertedBounds');
    expectThrows(() => w.setBox(a, [NaN, 0], [1, 1]), 'InvalidBounds');
    expect(snapshot(w)).toEqual(before);
  });

  test('stale, foreign and malformed ids are rejected', () => {
    const w = make(2);
    const a = w.addBox([0, 0], [1, 1]);
    const b = w.addBox([0, 0], [1, 1]);
    w.removeBox(a);
    const before = snapshot(w);
    expectThrows(() => w.removeBox(a), 'StaleBox', /removeBox\(\d+\): stale box id/);
    expectThrows(() => w.setBox(a, [0, 0], [1, 1]), 'StaleBox');
    expectThrows(() => w.getBox(a), 'StaleBox');
    expectThrows(() => w.removeBox(b + 1), 'InvalidBox');
    expectThrows(() => w.removeBox((12345 << 10) | 1), 'InvalidBox');
    expectThrows(() => w.removeBox(0), 'InvalidBox');
    expectThrows(() => w.removeBox(-1), 'InvalidBox');
    expectThrows(() => w.removeBox(1.5), 'InvalidBox');
    expect(w.isBoxValid(a)).toBe(false);
    expect(snapshot(w)).toEqual(before);
    // an id of another world is not accepted by this one
    const other = new World({ dimensions: 2 });
    try {
      expectThrows(() => other.removeBox(b), 'InvalidBox');
    } finally {
      other.dispose();
    }
  });

  test('bad bounds written through the view reject the frame, name the box and keep the previous pairs', () => {
    const w = make(2);
    const a = w.addBox([0, 0], [2, 2]);
    const b = w.addBox([1, 1], [3, 3]);
    w.update();
    const view = w.bounds;
    view[w.offsetOf(b)] = 10; // b moves away...
    view[w.offsetOf(b) + 2] = 11;
    view[w.offsetOf(a) + 1] = NaN; // ...but a is poisoned
    let caught: SweepPruneError | undefined;
    try {
      w.update();
    } catch (error) {
      caught = error as SweepPruneError;
    }
    expect(caught?.code).toBe('InvalidBounds');
    expect(caught?.boxId).toBe(a);
    expect(caught?.message).toContain(`box ${a}`);
    expect(pairSet(w.pairs)).toEqual([`${a},${b}`]);
    expect(pairStrings(w.began)).toEqual([`${a},${b}`]);
    view[w.offsetOf(a) + 1] = 5; // min y 5 > max y 2
    expectThrows(() => w.update(), 'InvertedBounds');
    view[w.offsetOf(a) + 1] = 0;
    w.update();
    expect(w.pairCount).toBe(0);
    expect(pairStrings(w.ended)).toEqual([`${a},${b}`]);
  });

  test('use after dispose throws Disposed; dispose is idempotent', () => {
    const w = new World();
    const a = w.addBox([0, 0], [1, 1]);
    w.dispose();
    w.dispose();
    expect(w.disposed).toBe(true);
    expectThrows(() => w.addBox([0, 0], [1, 1]), 'Disposed', /disposed/);
    expectThrows(() => w.update(), 'Disposed');
    expectThrows(() => w.pairs, 'Disposed');
    expectThrows(() => w.bounds, 'Disposed');
    expect(w.isBoxValid(a)).toBe(false);
  });

  test('options are validated', () => {
    expectThrows(() => new World({ dimensions: 5 }), 'InvalidDimensions', /1, 2, 3 or 4/);
    expectThrows(() => new World({ dimensions: 0 }), 'InvalidDimensions');
    expectThrows(() => new World({ capacity: -1 }), 'CapacityExceeded');
    const w = make(3);
    expectThrows(() => w.endpoints(3), 'InvalidDimensions');
    expectThrows(() => w.reserve(1 << 23), 'CapacityExceeded');
  });
});
