import { createRequire } from 'node:module';
import { beforeAll, describe, expect, test } from 'vitest';
import DefaultExport, { init, PruneJuice, SweepPruneError } from '../../web/src/index.js';
import { mulberry32 } from './oracle.js';

// the real package, for side-by-side answers (CommonJS, default export only)
const require = createRequire(import.meta.url);
const Original = require('@b3gm/prune-juice').default as new <T>(
  extractors: { getStart(t: T): number; getEnd(t: T): number }[],
) => { register(t: T): void; unregister(t: T): void; getCollisionCandidates(): T[][] };

beforeAll(() => init());

interface MyBox {
  name: number;
  x: number;
  y: number;
  z: number;
  width: number;
  height: number;
  depth: number;
}

const extractors2 = [
  { getStart: (b: MyBox) => b.x, getEnd: (b: MyBox) => b.x + b.width },
  { getStart: (b: MyBox) => b.y, getEnd: (b: MyBox) => b.y + b.height },
];
const extractors3 = [...extractors2, { getStart: (b: MyBox) => b.z, getEnd: (b: MyBox) => b.z + b.depth }];

// Values on a float32-exact grid (multiples of 1/64 below 2^17), so the engine's float32 bounds equal the JS
// numbers the oracle and prune-juice compare.
function randomBoxes(rand: () => number, n: number, size: number): MyBox[] {
  const q = (v: number) => Math.round(v * 64) / 64;
  return Array.from({ length: n }, (_, name) => ({
    name,
    x: q(rand() * 1000), y: q(rand() * 1000), z: q(rand() * 1000),
    width: q(rand() * size), height: q(rand() * size), depth: q(rand() * size),
  }));
}

function bruteForce(boxes: MyBox[], dims: number): string[] {
  const out: string[] = [];
  const ex = dims === 2 ? extractors2 : extractors3;
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      if (ex.every((e) => e.getStart(a) <= e.getEnd(b) && e.getStart(b) <= e.getEnd(a))) out.push(key([a, b]));
    }
  }
  return out.sort();
}

/** A pair as "a,b" with the names in ascending order (prune-juice's pair order is its hash order). */
function key(pair: MyBox[]): string {
  const [p, q] = pair;
  return p!.name < q!.name ? `${p!.name},${q!.name}` : `${q!.name},${p!.name}`;
}

/** True if the pair's boxes touch exactly on some axis (a face or an edge in common). */
function touching(pairKey: string, boxes: MyBox[], dims: number): boolean {
  const [i, j] = pairKey.split(',').map(Number);
  const a = boxes.find((b) => b.name === i)!;
  const b = boxes.find((b) => b.name === j)!;
  const ex = dims === 2 ? extractors2 : extractors3;
  return ex.some((e) => e.getStart(a) === e.getEnd(b) || e.getStart(b) === e.getEnd(a));
}

function keys(pairs: MyBox[][]): string[] {
  return pairs.map(key).sort();
}

describe('PruneJuice, the prune-juice drop-in', () => {
  test('is both the default export and a named export', () => {
    expect(DefaultExport).toBe(PruneJuice);
  });

  test('answers equal brute force and the real prune-juice, frame after frame of motion (2D and 3D)', () => {
    for (const dims of [2, 3]) {
      const rand = mulberry32(dims);
      const boxes = randomBoxes(rand, 600, 60);
      const ours = new PruneJuice<MyBox>(dims === 2 ? extractors2 : extractors3);
      const theirs = new Original<MyBox>(dims === 2 ? extractors2 : extractors3);
      boxes.forEach((b) => {
        ours.register(b);
        theirs.register(b);
      });
      for (let frame = 0; frame < 8; frame++) {
        const want = bruteForce(boxes, dims);
        const got = ours.getCollisionCandidates();
        expect(keys(got)).toEqual(want);
        // prune-juice agrees, except that it drops some touching pairs (its ties depend on registration order)
        const original = keys(theirs.getCollisionCandidates());
        expect(want.filter((k) => !original.includes(k) && !touching(k, boxes, dims))).toEqual([]);
        expect(original.filter((k) => !want.includes(k))).toEqual([]);
        // positions are pulled from the objects on every call: move them in place
        for (const b of boxes) {
          b.x = Math.round((b.x + (rand() - 0.5) * 20) * 64) / 64;
          b.y = Math.round((b.y + (rand() - 0.5) * 20) * 64) / 64;
        }
        if (frame === 4) {
          for (const b of boxes.splice(0, 100)) {
            ours.unregister(b);
            theirs.unregister(b);
          }
        }
      }
      expect(ours.size).toBe(500);
      ours.dispose();
    }
  });

  test('each pair lists the object registered first, first', () => {
    const pj = new PruneJuice<MyBox>(extractors2);
    const [a, b, c] = randomBoxes(mulberry32(9), 3, 1).map((box, name) => ({ ...box, name, x: 0, y: 0, width: 1, height: 1 }));
    pj.register(c!);
    pj.register(a!);
    pj.register(b!);
    const pairs = pj.getCollisionCandidates();
    expect(pairs.length).toBe(3);
    const order = [c, a, b];
    for (const [p, q] of pairs) expect(order.indexOf(p)).toBeLessThan(order.indexOf(q));
    pj.dispose();
  });

  test('touching boxes are a pair whatever the registration order (prune-juice misses one order)', () => {
    const left: MyBox = { name: 0, x: 0, y: 0, z: 0, width: 1, height: 1, depth: 1 };
    const right: MyBox = { name: 1, x: 1, y: 0, z: 0, width: 1, height: 1, depth: 1 };
    for (const order of [[left, right], [right, left]]) {
      const pj = new PruneJuice<MyBox>(extractors2);
      order.forEach((b) => pj.register(b));
      expect(keys(pj.getCollisionCandidates())).toEqual(['0,1']);
      pj.dispose();
    }
    const original = new Original<MyBox>(extractors2);
    original.register(left);
    original.register(right);
    expect(original.getCollisionCandidates()).toEqual([]); // the quirk we do not copy
  });

  test('inverted extractor output is read as an interval, as prune-juice does', () => {
    const pj = new PruneJuice<MyBox>(extractors2);
    const a: MyBox = { name: 0, x: 2, y: 0, z: 0, width: -2, height: 1, depth: 0 }; // x from 2 down to 0
    const b: MyBox = { name: 1, x: 1, y: 0, z: 0, width: 0.5, height: 1, depth: 0 };
    pj.register(a);
    pj.register(b);
    expect(keys(pj.getCollisionCandidates())).toEqual(['0,1']);
    pj.dispose();
  });

  test('a NaN position throws a clear error naming the object and keeps the previous answer', () => {
    const pj = new PruneJuice<MyBox>(extractors2);
    const a: MyBox = { name: 0, x: 0, y: 0, z: 0, width: 1, height: 1, depth: 0 };
    const b: MyBox = { name: 1, x: 0.5, y: 0, z: 0, width: 1, height: 1, depth: 0 };
    pj.register(a);
    pj.register(b);
    expect(keys(pj.getCollisionCandidates())).toEqual(['0,1']);
    b.y = NaN;
    expect(() => pj.getCollisionCandidates()).toThrow(/registered object #1: extractors\[1\] returned start NaN/);
    b.y = 0;
    expect(keys(pj.getCollisionCandidates())).toEqual(['0,1']);
    expect(() => pj.register({ ...a, x: NaN })).toThrow(SweepPruneError);
    expect(pj.size).toBe(2);
    pj.dispose();
  });

  test('registering twice throws; unregistering an unknown object is ignored', () => {
    const pj = new PruneJuice<MyBox>(extractors2);
    const a: MyBox = { name: 0, x: 0, y: 0, z: 0, width: 1, height: 1, depth: 0 };
    pj.register(a);
    expect(() => pj.register(a)).toThrow(expect.objectContaining({ code: 'AlreadyRegistered' }));
    pj.unregister({ ...a });
    expect(pj.size).toBe(1);
    pj.unregister(a);
    expect(pj.getCollisionCandidates()).toEqual([]);
    pj.dispose();
  });

  test('constructor arguments are checked; sortFn is accepted and not called', () => {
    expect(() => new PruneJuice<MyBox>([])).toThrow(expect.objectContaining({ code: 'InvalidDimensions' }));
    expect(() => new PruneJuice<MyBox>([extractors2[0]!, extractors2[0]!, extractors2[0]!, extractors2[0]!, extractors2[0]!])).toThrow(/1 to 4/);
    expect(() => new PruneJuice<MyBox>([{ getStart: 1 } as never])).toThrow(/extractors\[0\] must have getStart/);
    let called = 0;
    const pj = new PruneJuice<MyBox>(extractors2, (arr, cmp) => {
      called++;
      arr.sort(cmp);
    });
    pj.register({ name: 0, x: 0, y: 0, z: 0, width: 1, height: 1, depth: 0 });
    pj.getCollisionCandidates();
    expect(called).toBe(0);
    pj.dispose();
    expect(() => pj.getCollisionCandidates()).toThrow(expect.objectContaining({ code: 'Disposed' }));
  });
});
