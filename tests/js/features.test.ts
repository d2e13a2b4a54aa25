import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { init, World } from '../../web/src/index.js';
import { f32, minus, mulberry32, overlaps, pairSet, pairStrings, randomBox, type Box } from './oracle.js';

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
  mask: number;
  isStatic: boolean;
}

/** Brute force with filters and static boxes. */
function oracle(boxes: Map<number, Entry>): string[] {
  const entries = [...boxes.entries()].sort((p, q) => p[0] - q[0]);
  const out: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    for (let j = i + 1; j < entries.length; j++) {
      const [x, p] = entries[i]!;
      const [y, q] = entries[j]!;
      if (p.isStatic && q.isStatic) continue;
      if ((p.category & q.mask) === 0 || (q.category & p.mask) === 0) continue;
      if (overlaps(p, q)) out.push(`${x},${y}`);
    }
  }
  return out;
}

describe('filters, groups and static boxes follow brute force', () => {
  for (const d of [1, 2, 3, 4]) {
    test(`${d}D random sequences`, () => {
      const rand = mulberry32(500 + d);
      const w = make(d);
      const boxes = new Map<number, Entry>();
      let prev: string[] = [];
      for (let step = 0; step < 200; step++) {
        const op = rand();
        const ids = [...boxes.keys()];
        if (op < 0.25 || ids.length < 4) {
          for (let k = 0; k < 5; k++) {
            const b = randomBox(rand, d, 0.2);
            boxes.set(w.addBox(b.min, b.max), { ...b, category: 1, mask: 0xffffffff, isStatic: false });
          }
        } else if (op < 0.35) {
          const id = ids[Math.floor(rand() * ids.length)]!;
          w.removeBox(id);
          boxes.delete(id);
        } else if (op < 0.5) {
          const id = ids[Math.floor(rand() * ids.length)]!;
          const e = boxes.get(id)!;
          e.category = 1 << Math.floor(rand() * 3);
          e.mask = rand() < 0.5 ? 0xffffffff : 1 << Math.floor(rand() * 3);
          w.setBoxFilter(id, e.category, e.mask);
          expect(w.getBoxFilter(id)).toEqual({ category: e.category, mask: e.mask >>> 0 });
        } else if (op < 0.65) {
          const id = ids[Math.floor(rand() * ids.length)]!;
          const e = boxes.get(id)!;
          e.isStatic = rand() < 0.7;
          w.setBoxStatic(id, e.isStatic);
          expect(w.isBoxStatic(id)).toBe(e.isStatic);
        } else {
          const view = w.bounds;
          for (const [id, e] of boxes) {
            if (e.isStatic && rand() < 0.95) continue; // statics rarely move
            const o = w.offsetOf(id);
            for (let a = 0; a < d; a++) {
              const dx = (rand() - 0.5) * 4;
              e.min[a] = f32(e.min[a]! + dx);
              e.max[a] = f32(e.max[a]! + dx);
              view[o + a] = e.min[a]!;
              view[o + d + a] = e.max[a]!;
            }
          }
        }
        w.update();
        const now = oracle(boxes);
        expect(pairSet(w.pairs)).toEqual(now);
        expect(pairStrings(w.began)).toEqual(minus(now, prev));
        expect(pairStrings(w.ended)).toEqual(minus(prev, now));
        expect(w.counters.staticBoxes).toBe([...boxes.values()].filter((e) => e.isStatic).length);
        prev = now;
      }
    });
  }

  test('bipartite groups: bullets pair with enemies, never with each other', () => {
    const w = make(2);
    const bullets = [0, 1, 2].map(() => w.addBox([0, 0], [1, 1]));
    const enemies = [0, 1].map(() => w.addBox([0.5, 0.5], [2, 2]));
    bullets.forEach((id) => w.setBoxFilter(id, 1, 2));
    enemies.forEach((id) => w.setBoxFilter(id, 2, 1));
    w.update();
    expect(w.pairCount).toBe(6);
    w.forEachPair((a, b) => expect(bullets.includes(a)).not.toBe(bullets.includes(b)));
  });

  test('thousands of still static boxes and a few moving ones: statics are not rebuilt or swept', () => {
    const w = make(2);
    const rand = mulberry32(4);
    for (let i = 0; i < 5000; i++) {
      const b = randomBox(rand, 2, 0.01);
      w.setBoxStatic(w.addBox(b.min, b.max), true);
    }
    const movers = Array.from({ length: 5 }, () => w.addBox([0, 0], [2, 2]));
    w.update();
    expect(w.counters.staticRebuilt).toBe(1);
    for (let frame = 0; frame < 10; frame++) {
      movers.forEach((id, i) => w.setBox(id, [frame * 9 + i, frame * 9], [frame * 9 + i + 2, frame * 9 + 2]));
      w.update();
      const c = w.counters;
      expect(c.staticRebuilt).toBe(0);
      expect(c.overlapTests).toBeLessThanOrEqual(10); // 5 moving boxes: at most 10 candidate pairs among them
    }
  });
});

describe('queries equal brute force', () => {
  for (const d of [1, 2, 3]) {
    test(`${d}D: queryBox, queryPoint and castRay`, () => {
      const rand = mulberry32(900 + d);
      const w = make(d);
      const boxes = new Map<number, Entry>();
      for (let i = 0; i < 1200; i++) {
        const b = randomBox(rand, d, 0.05);
        const id = w.addBox(b.min, b.max);
        const category = i % 4 === 0 ? 2 : 1;
        w.setBoxFilter(id, category, 0xffffffff);
        if (i % 3 === 0) w.setBoxStatic(id, true);
        boxes.set(id, { ...b, category, mask: 0xffffffff, isStatic: i % 3 === 0 });
      }
      w.update();
      for (let q = 0; q < 40; q++) {
        const region = randomBox(rand, d, 0.3);
        const mask = q % 3 === 0 ? 2 : 0xffffffff;
        const want = [...boxes.entries()]
          .filter(([, e]) => (e.category & mask) !== 0 && overlaps(e, region))
          .map(([id]) => id)
          .sort((x, y) => x - y);
        expect(Array.from(w.queryBox(region.min, region.max, mask))).toEqual(want);
        const point = region.min;
        const inside = [...boxes.entries()]
          .filter(([, e]) => overlaps(e, { min: point, max: point }))
          .map(([id]) => id)
          .sort((x, y) => x - y);
        expect(Array.from(w.queryPoint(point))).toEqual(inside);

        // ray: brute force entry distance with unit direction
        const dir = Array.from({ length: d }, () => rand() - 0.5);
        const len = Math.hypot(...dir);
        const u = dir.map((v) => Math.fround(v) / Math.hypot(...dir.map(Math.fround)));
        const maxDistance = q % 2 ? Infinity : 30;
        const hits: [number, number][] = [];
        for (const [id, e] of boxes) {
          if ((e.category & mask) === 0) continue;
          let t0 = 0;
          let t1 = maxDistance;
          let hit = true;
          for (let a = 0; a < d; a++) {
            const o = Math.fround(point[a]!);
            if (u[a] === 0) {
              if (o < e.min[a]! || o > e.max[a]!) hit = false;
              continue;
            }
            const ta = (e.min[a]! - o) / u[a]!;
            const tb = (e.max[a]! - o) / u[a]!;
            t0 = Math.max(t0, Math.min(ta, tb));
            t1 = Math.min(t1, Math.max(ta, tb));
          }
          if (hit && t0 <= t1) hits.push([id, t0]);
        }
        expect(len).toBeGreaterThan(0);
        const got = w.castRay(point, dir, maxDistance, mask);
        expect([...got.ids].sort((x, y) => x - y)).toEqual(hits.map(([id]) => id).sort((x, y) => x - y));
        for (let i = 0; i < got.ids.length; i++) {
          const t = hits.find(([id]) => id === got.ids[i])![1];
          expect(Math.abs(got.distances[i]! - t)).toBeLessThan(1e-3 * (1 + t));
          if (i > 0) expect(got.distances[i]!).toBeGreaterThanOrEqual(got.distances[i - 1]!);
        }
      }
    });
  }

  test('query errors: bad regions and rays throw and change nothing', () => {
    const w = make(2);
    w.addBox([0, 0], [1, 1]);
    w.update();
    expect(() => w.queryBox([0, NaN], [1, 1])).toThrow(expect.objectContaining({ code: 'InvalidBounds' }));
    expect(() => w.queryBox([2, 0], [1, 1])).toThrow(expect.objectContaining({ code: 'InvertedBounds' }));
    expect(() => w.castRay([0, 0], [0, 0])).toThrow(/zero vector/);
    expect(() => w.castRay([0, 0], [1, 0], -1)).toThrow(/maxDistance/);
    expect(() => w.queryPoint([0])).toThrow(expect.objectContaining({ code: 'InvalidDimensions' }));
    expect(w.pairCount).toBe(0);
    expect(Array.from(w.queryPoint([0.5, 0.5]))).toHaveLength(1);
  });
});

describe('game loop helpers', () => {
  test('user data rides along with ids, and began / ended iterate without allocating pairs', () => {
    const w = make<{ name: string }>(2);
    const ship = { name: 'ship' };
    const rock = { name: 'rock' };
    const a = w.addBox([0, 0], [1, 1], ship);
    const b = w.addBox([0.5, 0.5], [2, 2], rock);
    expect(w.dataOf(a)).toBe(ship);
    w.update();
    const began: string[] = [];
    w.forEachBegan((x, y, dx, dy) => began.push(`${dx!.name}-${dy!.name}`, `${x < y}`));
    expect(began).toEqual(['ship-rock', 'true']);
    w.removeBox(b);
    expect(w.dataOf(b)).toBeUndefined();
    w.update();
    const ended: string[] = [];
    w.forEachEnded((_x, _y, dx, dy) => ended.push(`${dx!.name}-${dy!.name}`));
    expect(ended).toEqual(['ship-rock']);
  });

  test('deterministic order: the same operations give the same pair lists; began and ended sorted by (a, b)', () => {
    const run = () => {
      const w = make(2);
      const rand = mulberry32(42);
      const ids: number[] = [];
      const boxes = new Map<number, Box>();
      const log: number[][] = [];
      for (let frame = 0; frame < 40; frame++) {
        if (frame < 20) {
          // boxes added and removed: merged into and dropped from the index, or the index is rebuilt as it grows
          for (let k = 0; k < 30; k++) {
            const b = randomBox(rand, 2, 0.2);
            const id = w.addBox(b.min, b.max);
            ids.push(id);
            boxes.set(id, b);
          }
          for (let k = 0; k < 10; k++) {
            const id = ids.splice(Math.floor(rand() * ids.length), 1)[0]!;
            w.removeBox(id);
            boxes.delete(id);
          }
        } else {
          // coherent motion: the index is refreshed in place
          for (const id of ids) {
            const b = boxes.get(id)!;
            const dx = (rand() - 0.5) * 2;
            const dy = (rand() - 0.5) * 2;
            const next = { min: [b.min[0]! + dx, b.min[1]! + dy], max: [b.max[0]! + dx, b.max[1]! + dy] };
            w.setBox(id, next.min, next.max);
            boxes.set(id, next);
          }
        }
        w.update();
        log.push(Array.from(w.pairs), Array.from(w.began), Array.from(w.ended));
      }
      expect(w.counters.refreshed).toBe(1);
      return log;
    };
    const first = run();
    expect(run()).toEqual(first);
    for (let k = 0; k < first.length; k++) {
      const list = first[k]!;
      for (let i = 0; i < list.length; i += 2) expect(list[i]! < list[i + 1]!).toBe(true);
      // began and ended (every second and third list) are sorted
      if (k % 3 === 0) continue;
      for (let i = 2; i < list.length; i += 2) {
        expect(list[i - 2]! < list[i]! || (list[i - 2] === list[i] && list[i - 1]! < list[i + 1]!)).toBe(true);
      }
    }
  });
});

describe('slabs(): the engine index, read-only', () => {
  test('every moving box is in each slab it reaches, each slab sorted by min on the sweep axis; statics apart', () => {
    const rand = mulberry32(20);
    for (const d of [1, 2, 3]) {
      const w = new World({ dimensions: d });
      expect(w.slabs().sweepAxis).toBe(-1); // no update yet
      const boxes = new Map<number, Box>();
      const statics = new Set<number>();
      for (let i = 0; i < 3000; i++) {
        const b = randomBox(rand, d, 0.02);
        const id = w.addBox(b.min, b.max);
        boxes.set(id, b);
        if (i % 6 === 0) {
          w.setBoxStatic(id, true);
          statics.add(id);
        }
      }
      w.update();
      for (const wantStatic of [false, true]) {
        const s = w.slabs(wantStatic);
        const c = w.counters;
        if (!wantStatic) {
          expect(s.sweepAxis).toBe(c.sweepAxis);
          expect(s.floors.length).toBe(c.slabs);
          if (d > 1) expect(s.floors.length).toBeGreaterThan(1); // the case worth checking: boxes across slabs
        }
        const slabCount = s.floors.length;
        expect(s.starts.length).toBe(slabCount + 1);
        expect(s.starts[slabCount]).toBe(s.ids.length);
        expect(s.floors[0]).toBe(-Infinity);
        const expected = new Map<number, number>(); // id -> slabs it reaches
        for (const [id, b] of boxes) {
          if (statics.has(id) !== wantStatic) continue;
          let k = 0;
          for (let slab = 0; slab < slabCount; slab++) {
            const lo = s.floors[slab]!;
            const hi = slab + 1 < slabCount ? s.floors[slab + 1]! : Infinity;
            if (s.slabAxis < 0 || (b.max[s.slabAxis]! >= lo && b.min[s.slabAxis]! < hi)) k++;
          }
          expected.set(id, k);
        }
        const seen = new Map<number, number>();
        for (let slab = 0; slab < slabCount; slab++) {
          let last = -Infinity;
          for (let i = s.starts[slab]!; i < s.starts[slab + 1]!; i++) {
            const id = s.ids[i]!;
            const min = boxes.get(id)!.min[s.sweepAxis]!;
            expect(min).toBeGreaterThanOrEqual(last);
            last = min;
            seen.set(id, (seen.get(id) ?? 0) + 1);
          }
        }
        expect(seen).toEqual(expected);
      }
      w.dispose();
    }
  });
});
