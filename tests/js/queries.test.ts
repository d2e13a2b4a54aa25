// nearest, queryRadius, castRay options, firstHit and the query callbacks against brute force, in 1 to 4
// dimensions, on seeded and degenerate scenes; setData; bad arguments.
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { init, World, type RayOptions } from '../../web/src/index.js';
import { f32, mulberry32, randomBox, type Box } from './oracle.js';

beforeAll(() => init());

let worlds: World<unknown>[] = [];
afterEach(() => {
  worlds.forEach((w) => w.dispose());
  worlds = [];
});

function make<T = unknown>(dimensions: number): World<T> {
  const w = new World<T>({ dimensions });
  worlds.push(w as World<unknown>);
  return w;
}

interface Entry extends Box {
  category: number;
}

type Hit = [id: number, distance: number, category: number];

const byDistance = (p: Hit, q: Hit): number => p[1] - q[1] || p[0] - q[0];

/** Euclidean distance from a point to a box (0 inside), rounded to float32 once at the end. */
function boxDistance(e: Box, p: number[]): number {
  let sum = 0;
  for (let a = 0; a < p.length; a++) {
    const gap = Math.max(e.min[a]! - p[a]!, p[a]! - e.max[a]!, 0);
    sum += gap * gap;
  }
  return f32(Math.sqrt(sum));
}

/** Where the ray o + t u (u unit) enters the box within [0, maxDistance], or -1. */
function rayEntry(e: Box, o: number[], u: number[], maxDistance: number): number {
  let enter = 0;
  let leave = maxDistance;
  for (let a = 0; a < o.length; a++) {
    if (u[a] === 0) {
      if (o[a]! < e.min[a]! || o[a]! > e.max[a]!) return -1;
      continue;
    }
    const inv = 1 / u[a]!;
    const t1 = (e.min[a]! - o[a]!) * inv;
    const t2 = (e.max[a]! - o[a]!) * inv;
    enter = Math.max(enter, Math.min(t1, t2));
    leave = Math.min(leave, Math.max(t1, t2));
  }
  return enter <= leave ? enter : -1;
}

function nearestOracle(boxes: Map<number, Entry>, p: number[], k: number, maxDistance: number, mask: number): Hit[] {
  const all: Hit[] = [];
  for (const [id, e] of boxes) {
    if ((e.category & mask) !== 0) all.push([id, boxDistance(e, p), e.category]);
  }
  return all
    .sort(byDistance)
    .filter((h) => h[1] <= f32(maxDistance))
    .slice(0, k);
}

function rayOracle(
  boxes: Map<number, Entry>,
  o: number[],
  dir: number[],
  options: RayOptions,
): { hits: Hit[]; blocker?: Hit } {
  const len = Math.sqrt(dir.reduce((s, v) => s + f32(v) * f32(v), 0));
  const u = dir.map((v) => f32(v) / len);
  const origin = o.map(f32);
  const mask = options.mask ?? 0xffffffff;
  const blockMask = options.blockMask ?? 0;
  const all: Hit[] = [];
  for (const [id, e] of boxes) {
    if ((e.category & (mask | blockMask)) === 0 || id === options.ignore) continue;
    const t = rayEntry(e, origin, u, f32(options.maxDistance ?? Infinity));
    if (t >= 0) all.push([id, f32(t), e.category]);
  }
  all.sort(byDistance);
  const hits: Hit[] = [];
  for (const h of all) {
    if ((h[2] & blockMask) !== 0) return { hits, blocker: h };
    if ((h[2] & mask) !== 0) {
      hits.push(h);
      if (hits.length === options.maxHits) break;
    }
  }
  return { hits };
}

const pairsOf = (ids: Uint32Array, distances: Float32Array): [number, number][] =>
  Array.from(ids, (id, i) => [id, distances[i]!]);
const plain = (hits: Hit[]): [number, number][] => hits.map(([id, t]) => [id, t]);

// scene: 'random' boxes of mixed sizes (zero extents among them); 'lattice': boxes with corners in {-1, 0, 1}
// (touching, nested, repeated, zero-extent: many equal distances) and a grid of touching unit boxes
function buildScene(
  d: number,
  scene: 'random' | 'lattice',
  seed: number,
): { w: World<string>; boxes: Map<number, Entry>; rand: () => number } {
  const rand = mulberry32(seed);
  const w = make<string>(d);
  const boxes = new Map<number, Entry>();
  const add = (b: Box, i: number): void => {
    const category = i % 3 === 0 ? 2 : i % 7 === 3 ? 4 : 1;
    const id = w.addBox(b.min, b.max, `box ${i}`);
    w.setBoxFilter(id, category, 0xffffffff);
    if (i % 4 === 1) w.setBoxStatic(id, true);
    boxes.set(id, { min: b.min.map(f32), max: b.max.map(f32), category });
  };
  if (scene === 'random') {
    for (let i = 0; i < 1500; i++) add(randomBox(rand, d, i % 10 === 0 ? 0.2 : i % 10 === 1 ? 0 : 0.03), i);
  } else {
    for (let i = 0; i < 120; i++) add(randomBox(rand, d, 0, true), i);
    const side = [0, 40, 8, 4, 3][d]!;
    for (let c = 0; c < side ** d; c++) {
      const min = Array.from({ length: d }, (_, a) => Math.floor(c / side ** a) % side);
      add({ min, max: min.map((v) => v + 1) }, 120 + c);
    }
  }
  w.update();
  // after the update: removed boxes are left out, moved ones are seen where the update saw them, added ones are not
  // seen, and categories are the current ones
  const ids = [...boxes.keys()];
  for (let i = 0; i < 15; i++) {
    const id = ids[Math.floor(rand() * ids.length)]!;
    if (!boxes.has(id)) continue;
    w.removeBox(id);
    boxes.delete(id);
  }
  for (const [id, e] of boxes) {
    if (rand() < 0.05) {
      e.category = e.category === 2 ? 1 : 2;
      w.setBoxFilter(id, e.category, 0xffffffff);
    }
  }
  const bounds = w.bounds;
  for (let i = 0; i < bounds.length; i++) bounds[i] = bounds[i]! + 2.5;
  w.addBox(Array(d).fill(0.5), Array(d).fill(0.5), 'late');
  return { w, boxes, rand };
}

function randomPoint(rand: () => number, d: number, scene: 'random' | 'lattice'): number[] {
  // lattice: integer and half-integer points (corners, edges, faces of the boxes)
  return Array.from({ length: d }, () =>
    scene === 'lattice' ? Math.floor(rand() * 13) / 2 - 1.5 : f32(rand() * 110 - 5),
  );
}

describe('nearest, queryRadius and rays equal brute force', () => {
  for (const d of [1, 2, 3, 4]) {
    for (const scene of ['random', 'lattice'] as const) {
      test(`${d}D ${scene}`, () => {
        const { w, boxes, rand } = buildScene(d, scene, 31 * d + (scene === 'random' ? 0 : 7));
        for (let q = 0; q < 30; q++) {
          const p = randomPoint(rand, d, scene);
          const mask = q % 3 === 0 ? 2 : 0xffffffff;
          const maxDistance = [Infinity, 3, 0, 1.5][q % 4]!;
          for (const k of [0, 1, 3, 16, 5000]) {
            const want = nearestOracle(boxes, p, k, maxDistance, mask);
            const got = w.nearest(p, k, maxDistance, mask);
            expect(pairsOf(got.ids, got.distances)).toEqual(plain(want));
          }
          const radius = [0, 1, 2.5, 10][q % 4]!;
          const within = nearestOracle(boxes, p, Infinity, radius, mask);
          const got = w.queryRadius(p, radius, mask);
          expect(pairsOf(got.ids, got.distances)).toEqual(plain(within));

          // rays from the point, in a random direction or (lattice) along an axis, so along the boxes' faces
          const dir = Array.from({ length: d }, () => (scene === 'lattice' && q % 2 === 0 ? 0 : rand() - 0.5));
          if (scene === 'lattice' && q % 2 === 0) dir[q % d] = q % 4 === 0 ? 1 : -1;
          if (dir.every((v) => f32(v) === 0)) dir[0] = 1;
          const options: RayOptions[] = [
            {},
            { maxHits: 1 },
            { maxHits: 3, maxDistance: 20 },
            { blockMask: 4 },
            { blockMask: 4, mask: 2, maxDistance: 30 },
            { blockMask: 4, maxHits: 2 },
            { maxDistance: 0 },
          ];
          for (const o of options) {
            const first = rayOracle(boxes, p, dir, o).hits[0];
            const withIgnore = first ? [o, { ...o, ignore: first[0] }] : [o];
            for (const opts of withIgnore) {
              const want = rayOracle(boxes, p, dir, opts);
              const hits = w.castRay(p, dir, opts);
              expect(pairsOf(hits.ids, hits.distances)).toEqual(plain(want.hits));
              expect(hits.blocker).toEqual(want.blocker && { id: want.blocker[0], distance: want.blocker[1] });
              const one = w.firstHit(p, dir, opts);
              const nearest = rayOracle(boxes, p, dir, { ...opts, maxHits: 1 });
              const expected = nearest.hits[0] ?? nearest.blocker;
              expect(one).toEqual(expected && { id: expected[0], distance: expected[1] });
            }
          }
          // the positional form is the options form
          const positional = w.castRay(p, dir, 40, mask);
          const want = rayOracle(boxes, p, dir, { maxDistance: 40, mask });
          expect(pairsOf(positional.ids, positional.distances)).toEqual(plain(want.hits));
        }
      });
    }
  }
});

describe('query callbacks', () => {
  test('visit what the array forms return, with each box data and distance, and stop on false', () => {
    const { w, boxes, rand } = buildScene(2, 'random', 5);
    for (let q = 0; q < 10; q++) {
      const p = randomPoint(rand, 2, 'random');
      const seen: [number, string | undefined, number][] = [];
      const collect = (id: number, data: string | undefined, distance: number): void => {
        seen.push([id, data, distance]);
      };
      const expectSame = (ids: Uint32Array, distances: Float32Array): void => {
        expect(seen).toEqual(Array.from(ids, (id, i) => [id, w.dataOf(id), distances[i]]));
        expect(seen.every(([id, data]) => data !== undefined && boxes.has(id))).toBe(true);
        seen.length = 0;
      };
      const near = w.nearest(p, 10, Infinity, 3);
      w.forEachNearest(p, 10, collect, Infinity, 3);
      expectSame(near.ids, near.distances);
      const round = w.queryRadius(p, 8);
      w.forEachInRadius(p, 8, collect);
      expectSame(round.ids, round.distances);
      const dir = [rand() - 0.5, rand() - 0.5];
      const ray = w.castRay(p, dir, { blockMask: 4 });
      expect(w.forEachOnRay(p, dir, collect, { blockMask: 4 })).toBe(ray.blocker?.id);
      expectSame(ray.ids, ray.distances);
      const region = randomBox(rand, 2, 0.3);
      const inBox = w.queryBox(region.min, region.max);
      w.forEachInBox(region.min, region.max, collect);
      expectSame(inBox, new Float32Array(inBox.length));
      // stop early
      let visits = 0;
      w.forEachInRadius(p, 50, () => (++visits < 3 ? undefined : false));
      expect(visits).toBe(Math.min(3, w.queryRadius(p, 50).ids.length));
    }
  });

  test('a callback may query, add and remove boxes and update: the loop still visits its own results', () => {
    const w = make<number>(2);
    const ids = Array.from({ length: 50 }, (_, i) => w.addBox([i, 0], [i + 0.5, 1], i));
    w.update();
    const visited: number[] = [];
    w.forEachInRadius([0, 0], 10, (_id, data) => {
      visited.push(data!);
      // a nested loop, a query and changes: none disturbs the outer loop
      w.forEachNearest([40, 0], 2, () => {});
      w.castRay([0, 0.5], [1, 0]);
      w.addBox([100, 100], [101, 101]);
      w.update();
    });
    expect(visited).toEqual(Array.from({ length: 11 }, (_, i) => i));
    expect(w.isBoxValid(ids[0]!)).toBe(true);
  });

  test('setData replaces what dataOf and every callback passes; a removed box keeps it for its ended pairs', () => {
    const w = make<string>(2);
    const a = w.addBox([0, 0], [1, 1], 'a');
    const b = w.addBox([0.5, 0.5], [2, 2]);
    w.update();
    w.setData(b, 'b');
    expect(w.dataOf(b)).toBe('b');
    const data: (string | undefined)[] = [];
    w.forEachNearest([0, 0], 2, (_, d) => {
      data.push(d);
    });
    w.forEachPair((_x, _y, da, db) => data.push(da, db));
    expect(data).toEqual(['a', 'b', 'a', 'b']);
    w.setData(a, 'a2');
    w.removeBox(a);
    const c = w.addBox([5, 5], [6, 6], 'c'); // may reuse a's slot
    w.update();
    const ended: (string | undefined)[] = [];
    w.forEachEnded((_x, _y, da, db) => ended.push(da, db));
    expect(ended).toEqual(['a2', 'b']);
    expect(w.dataOf(c)).toBe('c');
    expect(() => w.setData(a, 'x')).toThrow(expect.objectContaining({ code: 'StaleBox' }));
    expect(() => w.setData(0, 'x')).toThrow(expect.objectContaining({ code: 'InvalidBox' }));
    expect(w.dataOf(c)).toBe('c');
  });
});

describe('query arguments', () => {
  test('bad arguments throw a SweepPruneError naming the call and the argument, and change nothing', () => {
    const w = make(2);
    const a = w.addBox([0, 0], [1, 1]);
    w.addBox([1, 0], [2, 1]);
    w.update();
    const before = w.nearest([3, 0], 2);
    const expectError = (f: () => unknown, code: string, message: RegExp): void =>
      expect(f).toThrow(
        expect.objectContaining({ name: 'SweepPruneError', code, message: expect.stringMatching(message) }),
      );
    expectError(() => w.nearest([0, NaN], 1), 'InvalidBounds', /nearest: point\[1\] is NaN/);
    expectError(() => w.nearest([0], 1), 'InvalidDimensions', /nearest: point has 1 coordinate/);
    expectError(() => w.nearest([0, 0], -1), 'InvalidArgument', /nearest: k must be an integer >= 0/);
    expectError(() => w.nearest([0, 0], 1.5), 'InvalidArgument', /k must be/);
    expectError(() => w.nearest([0, 0], 1, -1), 'InvalidBounds', /nearest: maxDistance must be a number >= 0/);
    expectError(() => w.nearest([0, 0], 1, NaN), 'InvalidBounds', /maxDistance/);
    expectError(() => w.nearest([0, 0], 1, Infinity, 1.5), 'InvalidArgument', /nearest: mask must be a 32-bit integer/);
    expectError(() => w.queryRadius([0, 0], -2), 'InvalidBounds', /queryRadius: radius must be a number >= 0/);
    expectError(() => w.queryRadius([0, 1e39], 2), 'InvalidBounds', /beyond the float32 range/);
    expectError(
      () => w.castRay([0, 0], [1, 0], { maxHits: -1 }),
      'InvalidArgument',
      /castRay: maxHits must be an integer >= 0/,
    );
    expectError(() => w.castRay([0, 0], [1, 0], { ignore: -3 }), 'InvalidArgument', /castRay: ignore must be a box id/);
    expectError(
      () => w.castRay([0, 0], [1, 0], { blockMask: 2 ** 33 }),
      'InvalidArgument',
      /blockMask must be a 32-bit/,
    );
    expectError(
      () => w.castRay([0, 0], [1, 0], { maxDistance: -1 }),
      'InvalidBounds',
      /maxDistance must be a number >= 0/,
    );
    expectError(() => w.firstHit([0, 0], [0, 0]), 'InvalidBounds', /firstHit: direction must not be the zero vector/);
    expectError(
      () => w.firstHit([0, 0], [1, 0], null as unknown as RayOptions),
      'InvalidArgument',
      /firstHit: options must be an object/,
    );
    expectError(
      () => w.forEachNearest([0, 0], 1, 'f' as never),
      'InvalidArgument',
      /forEachNearest: fn must be a function/,
    );
    expectError(() => w.forEachOnRay([0, 0], [1, 0], undefined as never), 'InvalidArgument', /forEachOnRay: fn/);
    expectError(() => w.forEachInBox([1, 0], [0, 0], () => {}), 'InvertedBounds', /forEachInBox: min\[0\]/);
    expectError(() => w.forEachInRadius([0, 0], NaN, () => {}), 'InvalidBounds', /forEachInRadius: radius/);
    // the world and the results handed out before are unchanged
    expect(Array.from(before.ids)).toEqual(Array.from(w.nearest([3, 0], 2).ids));
    expect(w.pairCount).toBe(1);
    expect(w.boxCount).toBe(2);
    expect(w.firstHit([-1, 0.5], [1, 0])).toEqual({ id: a, distance: 1 });
    w.dispose();
    expectError(() => w.nearest([0, 0], 1), 'Disposed', /nearest: this World was disposed/);
  });

  test('every call that takes a mask rejects the same bad masks with InvalidArgument, and takes the same good ones', () => {
    const w = make(2);
    // categories 1, 2, 4, 8 on four boxes in a row, all under the point (2, 0.5) and the box queried
    const categories = [1, 2, 4, 8];
    const ids = categories.map((c, i) => {
      const id = w.addBox([i, 0], [i + 4, 1]);
      w.setBoxFilter(id, c, 0xffffffff);
      return id;
    });
    w.update();
    const pairs = w.pairCount;
    const calls: [string, (mask: number) => unknown][] = [
      ['queryBox', (m) => w.queryBox([2, 0], [3, 1], m)],
      ['queryPoint', (m) => w.queryPoint([3.5, 0.5], m)],
      ['forEachInBox', (m) => w.forEachInBox([2, 0], [3, 1], () => {}, m)],
      ['nearest', (m) => w.nearest([3.5, 0.5], 4, Infinity, m)],
      ['queryRadius', (m) => w.queryRadius([3.5, 0.5], 1, m)],
      ['forEachNearest', (m) => w.forEachNearest([3.5, 0.5], 4, () => {}, Infinity, m)],
      ['forEachInRadius', (m) => w.forEachInRadius([3.5, 0.5], 1, () => {}, m)],
      ['castRay', (m) => w.castRay([-1, 0.5], [1, 0], { mask: m })],
      ['castRay', (m) => w.castRay([-1, 0.5], [1, 0], { blockMask: m })],
      ['firstHit', (m) => w.firstHit([-1, 0.5], [1, 0], { mask: m })],
      ['forEachOnRay', (m) => w.forEachOnRay([-1, 0.5], [1, 0], () => {}, { mask: m })],
      [`setBoxFilter(${ids[0]})`, (m) => w.setBoxFilter(ids[0]!, m, 0xffffffff)],
      [`setBoxFilter(${ids[0]})`, (m) => w.setBoxFilter(ids[0]!, 1, m)],
    ];
    const bad = ['x', NaN, -1.5, 1.5, 2 ** 40, 2 ** 32, -(2 ** 31) - 1, Infinity, null, {}] as unknown as number[];
    for (const [what, call] of calls) {
      for (const mask of bad) {
        expect(() => call(mask), `${what} with mask ${String(mask)}`).toThrow(
          expect.objectContaining({
            code: 'InvalidArgument',
            message: expect.stringMatching(
              new RegExp(
                `^${what.replace(/[()]/g, '\\$&')}: (mask|blockMask|category) must be a 32-bit integer bit mask`,
              ),
            ),
          }),
        );
      }
    }
    expect(w.getBoxFilter(ids[0]!)).toEqual({ category: 1, mask: 0xffffffff }); // nothing changed
    // the good ones, signed or unsigned: the boxes whose category shares a bit with the mask, as brute force finds
    const inBox = (m: number): number[] => ids.filter((_, i) => (categories[i]! & m) !== 0 && i + 4 >= 2 && i <= 3);
    for (const mask of [0, 1, 6, -1, 0xffffffff, -(2 ** 31), 2 ** 31, 0x7fffffff]) {
      expect(Array.from(w.queryBox([2, 0], [3, 1], mask)).sort((p, q) => p - q)).toEqual(inBox(mask));
      const seen: number[] = [];
      w.forEachInBox([2, 0], [3, 1], (id) => void seen.push(id), mask);
      expect(seen.sort((p, q) => p - q)).toEqual(inBox(mask));
    }
    w.update();
    expect(w.pairCount).toBe(pairs);
  });

  test('results are copies the caller owns: later queries and updates leave them as they were', () => {
    const w = make(2);
    for (let i = 0; i < 20; i++) w.addBox([i, 0], [i + 0.5, 1]);
    w.update();
    const near = w.nearest([0, 0], 5);
    const kept = Array.from(near.ids);
    w.queryRadius([15, 0], 3);
    w.castRay([20, 0.5], [-1, 0]);
    for (let i = 0; i < 5000; i++) w.addBox([i, 5], [i + 1, 6]); // grows wasm memory
    w.update();
    expect(Array.from(near.ids)).toEqual(kept);
    expect(near.distances.length).toBe(5);
  });
});
