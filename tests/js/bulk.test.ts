// World.addBoxes and World.setBoxes: many boxes in one call, against brute force, and every bad input rejected
// with an error naming the box's index and nothing changed.
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { init, SweepPruneError, World, type BoxId } from '../../web/src/index.js';
import { bruteForce, f32, mulberry32, pairSet, type Box } from './oracle.js';
import { snapshot } from './snapshot.js';

beforeAll(() => init());

const worlds: World[] = [];
afterEach(() => {
  for (const w of worlds.splice(0)) w.dispose();
});

function make(dimensions: number): World {
  const w = new World({ dimensions });
  worlds.push(w);
  return w;
}

/** `count` random boxes in [0, 100]^d, flat: mins then maxes per box. */
function randomBounds(rnd: () => number, d: number, count: number, size = 8): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const c = Array.from({ length: d }, () => rnd() * 100);
    const h = Array.from({ length: d }, () => rnd() * size);
    out.push(...c.map((x, a) => x - h[a]!), ...c.map((x, a) => x + h[a]!));
  }
  return out;
}

function boxAt(flat: ArrayLike<number>, i: number, d: number): Box {
  const o = i * 2 * d;
  return {
    min: Array.from({ length: d }, (_, a) => f32(flat[o + a]!)),
    max: Array.from({ length: d }, (_, a) => f32(flat[o + d + a]!)),
  };
}

describe('addBoxes and setBoxes match brute force', () => {
  for (const d of [1, 2, 3, 4]) {
    test(`${d}D: batches (Float32Array and arrays, with count), single adds, removes and bulk moves`, () => {
      const rnd = mulberry32(100 + d);
      const w = make(d);
      const twin = make(d); // the same boxes added one by one
      const mirror = new Map<BoxId, Box>();
      for (let step = 0; step < 8; step++) {
        const n = step === 2 ? 0 : 1 + Math.floor(rnd() * 250);
        const flat = randomBounds(rnd, d, n + 3);
        const ids =
          step % 3 === 0
            ? w.addBoxes(new Float32Array(flat), n)
            : step % 3 === 1
              ? w.addBoxes(flat.slice(0, n * 2 * d))
              : w.addBoxes(flat, n);
        expect(ids).toBeInstanceOf(Uint32Array);
        expect(ids.length).toBe(n);
        for (let i = 0; i < n; i++) {
          const b = boxAt(flat, i, d);
          expect(twin.addBox(b.min, b.max)).toBe(ids[i]);
          mirror.set(ids[i]!, b);
        }
        const live = [...mirror.keys()];
        const moved = live.filter(() => rnd() < 0.3);
        const moves = randomBounds(rnd, d, moved.length);
        w.setBoxes(step % 2 ? new Uint32Array(moved) : moved, step % 2 ? moves : new Float32Array(moves));
        moved.forEach((id, i) => mirror.set(id, boxAt(moves, i, d)));
        w.update();
        expect(pairSet(w.pairs)).toEqual(bruteForce(mirror));
        for (const id of live) expect(w.getBox(id)).toEqual(mirror.get(id));
        for (const id of live.filter(() => rnd() < 0.25)) {
          w.removeBox(id);
          twin.removeBox(id);
          mirror.delete(id);
        }
      }
    });
  }

  test('a reused slot does not keep the data of its removed box', () => {
    const w = make(2);
    const a = w.addBox([0, 0], [1, 1], 'old');
    w.removeBox(a);
    const [b] = w.addBoxes([0, 0, 1, 1]);
    expect(b! >>> 10).toBe(a >>> 10);
    expect(w.dataOf(b!)).toBeUndefined();
  });
});

function caught(fn: () => unknown, code: string, ...patterns: RegExp[]): SweepPruneError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SweepPruneError);
    expect((error as SweepPruneError).code).toBe(code);
    for (const p of patterns) expect((error as SweepPruneError).message).toMatch(p);
    return error as SweepPruneError;
  }
  throw new Error(`expected a SweepPruneError ${code}, nothing was thrown`);
}

describe('bad input is rejected, names the box, and changes nothing', () => {
  for (const d of [1, 2, 3]) {
    test(`${d}D: addBoxes and setBoxes`, () => {
      const w = make(d);
      const good = randomBounds(mulberry32(7), d, 4, 30);
      const ids = Array.from(w.addBoxes(good));
      w.removeBox(ids[3]!);
      w.update();
      w.addBox(Array(d).fill(1), Array(d).fill(2)); // pending: added since the update
      const before = snapshot(w, ids);
      const s = 2 * d;
      const withValue = (box: number, k: number, v: unknown) => {
        const b: unknown[] = good.slice();
        b[box * s + k] = v;
        return b as number[];
      };
      for (const box of [0, 2, 3]) {
        for (const [k, v, code] of [
          [0, NaN, 'InvalidBounds'],
          [d, Infinity, 'InvalidBounds'],
          [d - 1, -Infinity, 'InvalidBounds'],
          [s - 1, 1e39, 'InvalidBounds'],
          [0, '1', 'InvalidBounds'],
          [d - 1, 1000, 'InvertedBounds'],
        ] as const) {
          const bad = withValue(box, k, v);
          const where = new RegExp(`box ${box} \\(bounds\\[${box * s}\\.\\.${box * s + s - 1}\\]\\)`);
          caught(() => w.addBoxes(bad), code, /^addBoxes: /, where, /Nothing was changed/);
          if (typeof v === 'number') caught(() => w.addBoxes(new Float32Array(bad)), code, where);
          if (box < 3) caught(() => w.setBoxes(ids.slice(0, 3), bad.slice(0, 3 * s)), code, /^setBoxes: /, where);
          if (box < 3 && typeof v === 'number')
            caught(
              () => w.setBoxes(new Uint32Array(ids.slice(0, 3)), new Float32Array(bad.slice(0, 3 * s))),
              code,
              where,
            );
        }
      }
      // an inversion float32 cannot see is refused as addBox refuses it
      const close = good.slice();
      close[0] = 1 + 2 ** -40;
      close[d] = 1;
      caught(() => w.addBoxes(close), 'InvertedBounds', /box 0/);
      caught(() => w.addBoxes(good.slice(0, s + 1)), 'InvalidDimensions', /not a multiple of/);
      caught(() => w.addBoxes(good, 5), 'InvalidArgument', /count must be an integer from 0 to 4/);
      caught(() => w.addBoxes(good, -1), 'InvalidArgument', /count/);
      caught(() => w.addBoxes(good, 1.5), 'InvalidArgument', /count/);
      caught(() => w.addBoxes(null as unknown as number[]), 'InvalidArgument', /Float32Array/);
      caught(() => w.addBoxes(5 as unknown as number[]), 'InvalidArgument', /Float32Array/);
      const stale = [ids[0]!, ids[3]!];
      caught(() => w.setBoxes(stale, good.slice(0, 2 * s)), 'StaleBox', /ids\[1\]/);
      caught(() => w.setBoxes(new Uint32Array(stale), new Float32Array(good.slice(0, 2 * s))), 'StaleBox', /ids\[1\]/);
      caught(() => w.setBoxes([ids[0]!, (12345 << 10) | 1], good.slice(0, 2 * s)), 'InvalidBox', /ids\[1\]/);
      caught(() => w.setBoxes([ids[0]!, 1.5], good.slice(0, 2 * s)), 'InvalidBox', /ids\[1\]/);
      caught(() => w.setBoxes([ids[0]!], good.slice(0, 2 * s)), 'InvalidDimensions', /2 boxes .* for 1 ids/);
      caught(() => w.setBoxes(null as unknown as number[], good), 'InvalidArgument', /ids must be/);
      expect(snapshot(w, ids)).toEqual(before);
      w.update();
      expect(w.boxCount).toBe(4);
    });
  }

  test('a disposed world refuses both', () => {
    const w = make(2);
    w.dispose();
    caught(() => w.addBoxes([0, 0, 1, 1]), 'Disposed', /addBoxes/);
    caught(() => w.setBoxes([1], [0, 0, 1, 1]), 'Disposed', /setBoxes/);
  });
});
