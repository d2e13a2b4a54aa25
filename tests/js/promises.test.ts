// The README's promises about views, queries and data, checked the way users break them: views kept across calls
// that allocate and written to, queries after moves, data of removed boxes whose slots are reused, callbacks that
// change the world. Every check compares with brute force or with what was put in.
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { init, SweepPruneError, World, type BoxId } from '../../web/src/index.js';
import { bruteForce, mulberry32, overlaps, pairSet, randomBox, type Box } from './oracle.js';

beforeAll(() => init());

/** The world's pairs, and each live box's stored bounds, against brute force over what the test put in. */
function expectIntact(w: World, boxes: Map<BoxId, Box>): void {
  for (const [id, b] of boxes) {
    expect(w.isBoxValid(id)).toBe(true);
    expect(w.getBox(id)).toEqual({ min: b.min.map(Math.fround), max: b.max.map(Math.fround) });
  }
  expect(w.boxCount).toBe(boxes.size);
  w.update();
  expect(pairSet(w.pairs)).toEqual(bruteForce(boxes));
}

function fill(view: { length: number; [i: number]: number }, value: number): void {
  for (let i = 0; i < view.length; i++) view[i] = value;
}

describe('a view kept past its lifetime can never write into the world', () => {
  test('bounds kept across addBox past the capacity: the lost write is reported and never lands in the world', () => {
    const w = new World({ dimensions: 2 });
    const boxes = new Map<BoxId, Box>();
    const a = w.addBox([0, 0], [1, 1]);
    boxes.set(a, { min: [0, 0], max: [1, 1] });
    w.update();
    const v = w.bounds;
    const capacity = w.capacity;
    for (let i = 0; i < capacity; i++) {
      const b = { min: [5 + i, 5], max: [6 + i, 6] };
      boxes.set(w.addBox(b.min, b.max), b);
    }
    expect(w.capacity).toBeGreaterThan(capacity); // the bounds moved
    v[w.offsetOf(a)] = 0.25; // lost: the next update says so
    fill(v, NaN);
    expect(() => w.update()).toThrowError(expect.objectContaining({ code: 'StaleView' }));
    expectIntact(w, boxes);
    w.dispose();
  });

  test('every kind of view, kept across the calls that reallocate it and then overwritten', () => {
    const rand = mulberry32(18);
    const w = new World<number>({ dimensions: 2 });
    const other = new World({ dimensions: 3 });
    const boxes = new Map<BoxId, Box>();
    const add = (n: number) => {
      for (let i = 0; i < n; i++) {
        const b = randomBox(rand, 2, 0.08);
        boxes.set(w.addBox(b.min, b.max, i), b);
      }
    };
    add(40);
    w.update();
    // the scene has pairs (checked as the view is taken: the calls below may already move the engine's arrays, which
    // detaches the views taken before)
    expect(w.pairs.length).toBeGreaterThan(0);
    const kept = {
      bounds: w.bounds,
      pairs: w.pairs,
      began: w.began,
      ended: w.ended,
      query: w.queryBox([0, 0], [100, 100]),
      ray: w.castRay([0, 50], [1, 0]),
      endpoints: w.endpoints(0),
      otherBounds: other.bounds,
    };
    // calls that grow every array: many more boxes, an update with many more pairs, big queries, endpoints
    add(4000);
    w.update();
    w.queryBox([0, 0], [100, 100]);
    w.castRay([0, 50], [1, 0]);
    w.endpoints(0);
    other.addBox([0, 0, 0], [1, 1, 1]);
    for (const view of [
      kept.bounds,
      kept.pairs,
      kept.began,
      kept.ended,
      kept.query,
      kept.ray.ids,
      kept.ray.distances,
      kept.endpoints.values,
      kept.endpoints.refs,
      kept.otherBounds,
    ]) {
      fill(view, 0xffffffff);
    }
    // the writes into the ended bounds view are reported by the update that would have lost them, and change nothing
    expect(() => w.update()).toThrowError(expect.objectContaining({ code: 'StaleView' }));
    expectIntact(w, boxes);
    // the results handed out as copies still hold what they held
    expect(kept.query.length).toBe(40);
    expect(kept.endpoints.refs.length).toBe(80);
    w.dispose();
    other.dispose();
  });

  test('views kept across dispose do not reach the next world', () => {
    const w = new World({ dimensions: 2 });
    w.addBox([0, 0], [1, 1]);
    w.addBox([0.5, 0.5], [2, 2]);
    w.update();
    const views = [w.bounds, w.pairs, w.began, w.ended];
    w.dispose();
    const next = new World({ dimensions: 2 });
    const boxes = new Map<BoxId, Box>([[next.addBox([0, 0], [1, 1]), { min: [0, 0], max: [1, 1] }]]);
    for (const v of views) fill(v, NaN);
    expectIntact(next, boxes);
    next.dispose();
  });

  test('writes into a live pairs view do not change the next update (the engine keeps its own list)', () => {
    const rand = mulberry32(7);
    for (const withStatic of [false, true]) {
      const w = new World({ dimensions: 2 });
      const boxes = new Map<BoxId, Box>();
      const statics = new Set<BoxId>();
      for (let i = 0; i < 300; i++) {
        const b = randomBox(rand, 2, 0.1);
        const id = w.addBox(b.min, b.max);
        if (withStatic && i % 3 === 0) {
          w.setBoxStatic(id, true);
          statics.add(id);
        }
        boxes.set(id, b);
      }
      // static boxes never pair with each other
      const oracle = () => bruteForce(boxes).filter((p) => !p.split(',').every((id) => statics.has(Number(id))));
      w.update();
      let previous = pairSet(w.pairs);
      expect(previous).toEqual(oracle());
      for (let frame = 0; frame < 5; frame++) {
        fill(w.pairs, frame); // garbage where the last update's pairs are
        for (const [id, b] of boxes) {
          if (rand() < 0.2) {
            const dx = (rand() - 0.5) * 4;
            const moved = { min: [b.min[0]! + dx, b.min[1]!], max: [b.max[0]! + dx, b.max[1]!] };
            w.setBox(id, moved.min, moved.max);
            boxes.set(id, moved);
          }
        }
        w.update();
        const now = oracle();
        expect(pairSet(w.pairs)).toEqual(now);
        expect(pairSet(w.began)).toEqual(now.filter((p) => !previous.includes(p)));
        expect(pairSet(w.ended)).toEqual(previous.filter((p) => !now.includes(p)));
        previous = now;
      }
      w.dispose();
    }
  });
});

describe('every query answers from the last update', () => {
  test('castRay, queryBox and queryPoint all see a box moved after the update where the update saw it', () => {
    const w = new World({ dimensions: 2 });
    const a = w.addBox([5, -1], [6, 1]);
    const s = w.addBox([8, -1], [9, 1]);
    w.setBoxStatic(s, true);
    w.update();
    w.setBox(a, [5, 10], [6, 12]);
    w.setBox(s, [8, 10], [9, 12]);
    expect(Array.from(w.castRay([0, 0], [1, 0]).ids)).toEqual([a, s]);
    expect(Array.from(w.castRay([0, 0], [1, 0]).distances)).toEqual([5, 8]);
    expect(Array.from(w.queryBox([4, -1], [10, 1]))).toEqual([a, s]);
    expect(Array.from(w.queryPoint([5.5, 0]))).toEqual([a]);
    expect(w.castRay([0, 11], [1, 0]).ids.length).toBe(0);
    w.update();
    expect(Array.from(w.castRay([0, 11], [1, 0]).ids)).toEqual([a, s]);
    expect(w.castRay([0, 0], [1, 0]).ids.length).toBe(0);
    w.dispose();
  });

  test('results held side by side keep their values (the game-loop pattern)', () => {
    const w = new World({ dimensions: 2 });
    const ids = [w.addBox([2, -1], [3, 1]), w.addBox([6, -1], [7, 1]), w.addBox([20, 20], [21, 21])];
    w.update();
    const hits = w.castRay([0, 0], [1, 0], 50);
    const near = w.queryBox([19, 19], [22, 22]);
    const far = w.queryBox([-100, -100], [100, 100]);
    expect(Array.from(hits.ids)).toEqual([ids[0], ids[1]]);
    expect(Array.from(hits.distances)).toEqual([2, 6]);
    expect(Array.from(near)).toEqual([ids[2]]);
    expect(Array.from(far)).toEqual(ids);
    w.dispose();
  });
});

describe('forEach callbacks', () => {
  test('forEachEnded passes a removed box its own data when its slot is reused in the same frame', () => {
    const w = new World<string>({ dimensions: 2 });
    const x = w.addBox([0, 0], [1, 1], 'x');
    w.addBox([0.5, 0.5], [2, 2], 'y');
    w.update();
    w.removeBox(x);
    const z = w.addBox([10, 10], [11, 11], 'z');
    expect(z >>> 10).toBe(x >>> 10); // z took x's slot
    const seen: string[] = [];
    w.forEachPair((a, _b, da, db) => seen.push(`pair ${a === x} ${da} ${db}`)); // x's pairs of the last update
    w.update();
    w.forEachEnded((_a, _b, da, db) => seen.push(`ended ${da} ${db}`));
    expect(seen).toEqual(['pair true x y', 'ended x y']);
    expect(w.dataOf(z)).toBe('z');
    expect(w.dataOf(x)).toBeUndefined();
    w.dispose();
  });

  test('a 2 000-box scene with 25 removed and 25 added per frame: every event gets the data of its own boxes', () => {
    const rand = mulberry32(2000);
    const w = new World<{ id: number }>({ dimensions: 2 });
    const live = new Map<BoxId, Box>();
    const dataOfId = new Map<BoxId, { id: number }>();
    let serial = 0;
    const add = () => {
      const b = randomBox(rand, 2, 0.03);
      const data = { id: serial++ };
      const id = w.addBox(b.min, b.max, data);
      live.set(id, b);
      dataOfId.set(id, data);
    };
    for (let i = 0; i < 2000; i++) add();
    w.update();
    let checked = 0;
    for (let frame = 0; frame < 4; frame++) {
      const ids = [...live.keys()];
      for (let i = 0; i < 25; i++) {
        const id = ids[Math.floor(rand() * ids.length)]!;
        if (!live.has(id)) continue;
        w.removeBox(id);
        live.delete(id);
        add(); // often the slot just freed
      }
      w.update();
      for (const fn of [w.forEachPair, w.forEachBegan, w.forEachEnded]) {
        fn.call(w, (a, b, da, db) => {
          expect(da).toBe(dataOfId.get(a));
          expect(db).toBe(dataOfId.get(b));
          checked += 1;
        });
      }
    }
    expect(checked).toBeGreaterThan(1000);
    w.dispose();
  });

  test('adding 20 000 boxes inside the callback does not skip the remaining pairs', () => {
    const w = new World({ dimensions: 2 });
    for (let i = 0; i < 3; i++) {
      w.addBox([i * 10, 0], [i * 10 + 1, 1]);
      w.addBox([i * 10 + 0.5, 0.5], [i * 10 + 2, 2]);
    }
    w.update();
    expect(w.began.length).toBe(6);
    const calls: number[] = [];
    w.forEachBegan((a) => {
      if (calls.length === 0) for (let i = 0; i < 20_000; i++) w.addBox([1000 + i, 0], [1000 + i, 0]);
      calls.push(a);
    });
    expect(calls.length).toBe(3);
    w.dispose();
  });

  test('update() and dispose() inside a callback of the same world throw Busy and change nothing', () => {
    const w = new World({ dimensions: 2 });
    w.addBox([0, 0], [1, 1]);
    w.addBox([0.5, 0.5], [2, 2]);
    w.update();
    const codes: string[] = [];
    w.forEachPair(() => {
      for (const call of [() => w.update(), () => w.dispose()]) {
        try {
          call();
        } catch (e) {
          codes.push((e as SweepPruneError).code);
        }
      }
    });
    expect(codes).toEqual(['Busy', 'Busy']);
    expect(w.disposed).toBe(false);
    expect(w.pairCount).toBe(1);
    expect(() => w.forEachPair(42 as never)).toThrowError(/fn must be a function/);
    w.dispose();
  });
});

// An update that may first report writes through an ended bounds view (StaleView, changing nothing), then runs.
function update(w: World<string>): void {
  try {
    w.update();
  } catch (error) {
    expect((error as SweepPruneError).code).toBe('StaleView');
    w.update();
  }
}

// Random sequences of adds, removes (slots reused within a frame), moves, updates and callbacks, with views taken
// before calls that allocate and then written to: the pairs stay brute force's and every callback gets the data of
// its own boxes.
test('property: slot reuse, callbacks with data and stale views written to', () => {
  type Op = { t: 'add' | 'remove' | 'update' | 'scribble' | 'callbacks'; k: number; box: Box };
  const coord = fc.integer({ min: -8, max: 8 }).map((v) => v / 2);
  const box = fc.tuple(coord, coord, coord, coord).map(([a, b, c, d]) => ({
    min: [Math.min(a, b), Math.min(c, d)],
    max: [Math.max(a, b), Math.max(c, d)],
  }));
  const op = fc.record({
    t: fc.constantFrom<Op['t']>('add', 'add', 'remove', 'update', 'scribble', 'callbacks'),
    k: fc.nat({ max: 1000 }),
    box,
  });
  fc.assert(
    fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
      const w = new World<string>({ dimensions: 2 });
      const live = new Map<BoxId, Box>();
      const names = new Map<BoxId, string>();
      let stale: (Float32Array | Uint32Array)[] = [];
      let n = 0;
      for (const o of ops) {
        if (o.t === 'add') {
          stale.push(w.bounds, w.pairs, w.began);
          const name = `b${n++}`;
          const id = w.addBox(o.box.min, o.box.max, name);
          live.set(id, o.box);
          names.set(id, name);
        } else if (o.t === 'remove' && live.size > 0) {
          const id = [...live.keys()][o.k % live.size]!;
          w.removeBox(id);
          live.delete(id);
        } else if (o.t === 'update') {
          stale.push(w.pairs, w.ended);
          update(w);
          expect(pairSet(w.pairs)).toEqual(bruteForce(live));
        } else if (o.t === 'scribble') {
          // pair lists are never read back by the engine; a bounds view only once ended (live, it moves boxes)
          const bounds = w.bounds;
          for (const v of stale)
            if (v instanceof Uint32Array || v.byteOffset !== bounds.byteOffset) fill(v, 0x7fc00001);
          stale = [];
        } else {
          for (const fn of [w.forEachPair, w.forEachBegan, w.forEachEnded]) {
            fn.call(w, (a, b, da, db) => {
              expect(da).toBe(names.get(a));
              expect(db).toBe(names.get(b));
              expect(a).toBeLessThan(b);
            });
          }
        }
      }
      for (const [id, b] of live) expect(overlaps(b, b) && w.isBoxValid(id)).toBe(true);
      update(w);
      expect(pairSet(w.pairs)).toEqual(bruteForce(live));
      w.dispose();
    }),
    { numRuns: 150, seed: 18 },
  );
});
