import { createRequire } from 'node:module';
import { beforeAll, describe, expect, test } from 'vitest';
import DefaultExport, { init, PruneJuice, SweepPruneError } from '../../web/src/index.js';
import { mulberry32 } from './oracle.js';

// The real package, for side-by-side answers (CommonJS, default export only).
const require = createRequire(import.meta.url);
interface Detector<T> {
  register(t: T): void;
  unregister(t: T): void;
  getCollisionCandidates(): T[][];
}
const Original = require('@b3gm/prune-juice').default as new <T>(
  extractors: { getStart(t: T): number; getEnd(t: T): number }[],
) => Detector<T>;

beforeAll(() => init());

/** A user's object: a name and one [start, end] per axis (either order, as prune-juice reads them). */
interface Thing {
  name: number;
  lo: number[];
  hi: number[];
}

function extractorsFor(d: number) {
  return Array.from({ length: d }, (_, a) => ({ getStart: (t: Thing) => t.lo[a]!, getEnd: (t: Thing) => t.hi[a]! }));
}

/** A pair as "first,second" in the order given (both libraries put the object registered earlier first). */
const key = (pair: Thing[]) => `${pair[0]!.name},${pair[1]!.name}`;

type Overlap = 'no' | 'yes' | 'tie';

/**
 * How two intervals overlap for prune-juice, which sorts start and end markers and pairs a box with the boxes
 * active when its first marker passes: 'tie' when its answer depends on how equal markers were ordered (by
 * registration and past frames), as for touching intervals.
 */
function overlap1(a0: number, a1: number, b0: number, b1: number): Overlap {
  const [p0, p1] = a0 <= a1 ? [a0, a1] : [a1, a0];
  const [q0, q1] = b0 <= b1 ? [b0, b1] : [b1, b0];
  const lo = Math.max(p0, q0);
  const hi = Math.min(p1, q1);
  if (lo > hi) return 'no';
  if (lo < hi) return 'yes';
  // a single point in common: certain only for a point strictly inside the other interval
  if ((p0 === p1 && q0 < p0 && p0 < q1) || (q0 === q1 && p0 < q0 && q0 < p1)) return 'yes';
  return 'tie';
}

function overlap(a: Thing, b: Thing): Overlap {
  let result: Overlap = 'yes';
  for (let i = 0; i < a.lo.length; i++) {
    const o = overlap1(a.lo[i]!, a.hi[i]!, b.lo[i]!, b.hi[i]!);
    if (o === 'no') return 'no';
    if (o === 'tie') result = 'tie';
  }
  return result;
}

/**
 * Compare one call's answers: ours must be every closed-interval overlap in float64, each once, earlier registered
 * first; prune-juice's must be the same set except ties, which it may or may not report.
 */
function compare(things: Thing[], rank: Map<Thing, number>, ours: Thing[][], theirs: Thing[][]) {
  const want = new Set<string>();
  const ties = new Set<string>();
  let nearMisses = 0; // apart in float64, overlapping once rounded to float32
  for (let i = 0; i < things.length; i++) {
    for (let j = i + 1; j < things.length; j++) {
      const [a, b] =
        rank.get(things[i]!)! < rank.get(things[j]!)! ? [things[i]!, things[j]!] : [things[j]!, things[i]!];
      const o = overlap(a, b);
      if (o === 'no') {
        if (overlap(rounded(a), rounded(b)) !== 'no') nearMisses++;
        continue;
      }
      want.add(key([a, b]));
      if (o === 'tie') ties.add(key([a, b]));
    }
  }
  const got = ours.map(key);
  expect(got.length).toBe(new Set(got).size);
  expect(new Set(got)).toEqual(want);
  const original = new Set(theirs.map(key));
  expect([...original].filter((k) => !want.has(k))).toEqual([]);
  expect([...want].filter((k) => !ties.has(k) && !original.has(k))).toEqual([]);
  return { ties: ties.size, pairs: want.size, nearMisses };
}

const rounded = (t: Thing): Thing => ({ name: t.name, lo: t.lo.map(Math.fround), hi: t.hi.map(Math.fround) });

/**
 * Coordinates that meet: a few anchors per scene, each used as is and nudged by 1 to 3 steps of `tiny` (far below a
 * float32 step), so boxes touch exactly, overlap by a hair or miss by one. Some values are unbounded.
 */
function sceneValues(rand: () => number, scale: number, withInfinities: boolean): () => number {
  const anchors = Array.from({ length: 12 }, () => (rand() - 0.3) * scale);
  const tiny = scale * 1e-12;
  const unbounded = [Infinity, -Infinity, Number.MAX_VALUE, -Number.MAX_VALUE, 1e39, -1e39];
  return () => {
    const r = rand();
    if (withInfinities && r < 0.04) return unbounded[Math.floor(rand() * unbounded.length)]!;
    if (r < 0.1) return (rand() - 0.3) * scale;
    return anchors[Math.floor(rand() * anchors.length)]! + Math.round((rand() - 0.5) * 6) * tiny;
  };
}

function makeThing(name: number, d: number, value: () => number): Thing {
  return { name, lo: Array.from({ length: d }, value), hi: Array.from({ length: d }, value) };
}

describe('PruneJuice gives the answers of the real prune-juice', () => {
  test('is both the default export and a named export', () => {
    expect(DefaultExport).toBe(PruneJuice);
  });

  test('seeded scenes in 1 to 6 dimensions: float64 near-ties, unbounded values, churn, mutation', () => {
    let ties = 0;
    let pairs = 0;
    let nearMisses = 0;
    for (const d of [1, 2, 3, 4, 6]) {
      for (const seed of [1, 2]) {
        const rand = mulberry32(100 * d + seed);
        const scale = 10 ** Math.floor(rand() * 9 - 3);
        const value = sceneValues(rand, scale, seed === 2);
        const ours = new PruneJuice<Thing>(extractorsFor(d));
        const theirs = new Original<Thing>(extractorsFor(d));
        const rank = new Map<Thing, number>();
        let registrations = 0;
        const live: Thing[] = [];
        const parked: Thing[] = [];
        const register = (t: Thing) => {
          ours.register(t);
          theirs.register(t);
          rank.set(t, registrations++);
          live.push(t);
        };
        const n = d === 1 ? 80 : 150;
        for (let i = 0; i < n; i++) register(makeThing(i, d, value));
        for (let frame = 0; frame < 6; frame++) {
          const result = compare(live, rank, ours.getCollisionCandidates(), theirs.getCollisionCandidates());
          ties += result.ties;
          pairs += result.pairs;
          nearMisses += result.nearMisses;
          // objects mutated in place between calls
          for (const t of live) {
            if (rand() < 0.3) t.lo[Math.floor(rand() * d)] = value();
            if (rand() < 0.3) t.hi[Math.floor(rand() * d)] = value();
          }
          // churn: unregister some, register new ones and some that were unregistered (they become the later one)
          for (let k = 0; k < 10; k++) {
            const t = live.splice(Math.floor(rand() * live.length), 1)[0]!;
            ours.unregister(t);
            theirs.unregister(t);
            parked.push(t);
          }
          for (let k = 0; k < 5; k++) register(parked.splice(Math.floor(rand() * parked.length), 1)[0]!);
          for (let k = 0; k < 5; k++) register(makeThing(n + frame * 5 + k, d, value));
        }
        expect(ours.size).toBe(live.length);
        ours.dispose();
      }
    }
    // the scenes do exercise the cases: pairs, ties and misses that float32 cannot tell from overlaps
    expect(nearMisses).toBeGreaterThan(100);
    expect(pairs).toBeGreaterThan(5000);
    expect(ties).toBeGreaterThan(100);
  });

  test('[0, 0.1] and [0.1 + 1e-9, 1] are not a pair, though equal in float32; [0, 0.1] and [0.1 - 1e-9, 1] are', () => {
    const pj = new PruneJuice<Thing>(extractorsFor(1));
    const a: Thing = { name: 0, lo: [0], hi: [0.1] };
    const b: Thing = { name: 1, lo: [0.1 + 1e-9], hi: [1] };
    pj.register(a);
    pj.register(b);
    expect(pj.getCollisionCandidates()).toEqual([]);
    b.lo[0] = 0.1 - 1e-9;
    expect(pj.getCollisionCandidates()).toEqual([[a, b]]);
    pj.dispose();
  });

  test('Infinity, Number.MAX_VALUE and 1e39 are unbounded, compared in float64 beyond the float32 range', () => {
    const pj = new PruneJuice<Thing>(extractorsFor(2));
    const theirs = new Original<Thing>(extractorsFor(2));
    const things: Thing[] = [
      { name: 0, lo: [-Infinity, 0], hi: [Infinity, 1] }, // an endless floor
      { name: 1, lo: [5, -Number.MAX_VALUE], hi: [6, Number.MAX_VALUE] }, // an endless wall
      { name: 2, lo: [1e39, 0], hi: [2e39, 1] }, // beyond float32, on the floor
      { name: 3, lo: [2.5e39, 0], hi: [Infinity, 1] }, // beyond 2 (float32 cannot tell them apart)
      { name: 4, lo: [7, 2], hi: [8, 3] }, // on nothing
    ];
    for (const t of things) {
      pj.register(t);
      theirs.register(t);
    }
    const want = ['0,1', '0,2', '0,3'];
    expect(pj.getCollisionCandidates().map(key).sort()).toEqual(want);
    expect(theirs.getCollisionCandidates().map(key).sort()).toEqual(want);
    pj.dispose();
  });

  test('each pair lists the object registered first, first; a re-registered object counts as registered last', () => {
    const pj = new PruneJuice<Thing>(extractorsFor(2));
    const theirs = new Original<Thing>(extractorsFor(2));
    const [a, b, c] = [0, 1, 2].map((name): Thing => ({ name, lo: [0, 0], hi: [1, 1] }));
    for (const t of [c!, a!, b!]) {
      pj.register(t);
      theirs.register(t);
    }
    const sorted = (pairs: Thing[][]) => pairs.map(key).sort();
    expect(sorted(pj.getCollisionCandidates())).toEqual(['0,1', '2,0', '2,1']);
    expect(sorted(theirs.getCollisionCandidates())).toEqual(['0,1', '2,0', '2,1']);
    for (const d of [pj, theirs]) {
      d.unregister(c!);
      d.register(c!);
    }
    expect(sorted(pj.getCollisionCandidates())).toEqual(['0,1', '0,2', '1,2']);
    expect(sorted(theirs.getCollisionCandidates())).toEqual(['0,1', '0,2', '1,2']);
    pj.dispose();
  });

  test('touching boxes are a pair whatever the registration order (prune-juice reports one order only)', () => {
    const left: Thing = { name: 0, lo: [0, 0], hi: [1, 1] };
    const right: Thing = { name: 1, lo: [1, 0], hi: [2, 1] };
    for (const order of [
      [left, right],
      [right, left],
    ]) {
      const pj = new PruneJuice<Thing>(extractorsFor(2));
      order.forEach((t) => pj.register(t));
      expect(pj.getCollisionCandidates().map(key)).toEqual([key(order)]);
      pj.dispose();
    }
    const original = new Original<Thing>(extractorsFor(2));
    original.register(left);
    original.register(right);
    expect(original.getCollisionCandidates()).toEqual([]); // the quirk we do not copy
  });

  test('extractor values in either order, and numeric strings and null, read as prune-juice reads them', () => {
    const pj = new PruneJuice<Thing>(extractorsFor(1));
    const a: Thing = { name: 0, lo: [2], hi: [0] }; // from 2 down to 0
    const b: Thing = { name: 1, lo: ['1.5' as unknown as number], hi: [null as unknown as number] }; // 1.5 and 0
    pj.register(a);
    pj.register(b);
    expect(pj.getCollisionCandidates()).toEqual([[a, b]]);
    pj.dispose();
  });
});

describe('PruneJuice reads lazily and fails clearly', () => {
  class Ball {
    constructor(
      readonly id: number,
      public x: number,
    ) {}
  }
  const ballAxis = [{ getStart: (b: Ball) => b.x - 1, getEnd: (b: Ball) => b.x + 1 }];

  test('register() reads nothing; NaN or undefined throws at getCollisionCandidates() naming the object, changing nothing', () => {
    const pj = new PruneJuice<Ball>(ballAxis);
    const theirs = new Original<Ball>(ballAxis);
    const a = new Ball(1, 0);
    const b = new Ball(2, 0.5);
    const c = new Ball(3, NaN); // not placed yet
    let reads = 0;
    const counting = new PruneJuice<Ball>([{ getStart: (t) => (reads++, t.x), getEnd: (t) => t.x }]);
    counting.register(a);
    expect(reads).toBe(0);
    counting.dispose();
    for (const t of [a, c, b]) {
      pj.register(t);
      theirs.register(t);
    }
    expect(pj.size).toBe(3);
    // prune-juice's sort is poisoned by NaN and it loses the pair of a and b; ours says which object is at fault
    expect(theirs.getCollisionCandidates()).toEqual([]);
    const error = (() => {
      try {
        pj.getCollisionCandidates();
      } catch (e) {
        return e as SweepPruneError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(SweepPruneError);
    expect(error!.code).toBe('InvalidBounds');
    expect(error!.message).toMatch(
      /^getCollisionCandidates: extractors\[0\] gave start NaN and end NaN for Ball \{ id: 3, x: NaN \}/,
    );
    expect(error!.message).not.toMatch(/World|#\d/);
    c.x = 10;
    expect(pj.getCollisionCandidates()).toEqual([[a, b]]);
    const undef = { id: 4 } as unknown as Ball; // no x: the extractor gives NaN from undefined
    const missing = new PruneJuice<Ball>([{ getStart: (t) => t.x, getEnd: (t) => t.x }]);
    missing.register(undef);
    expect(() => missing.getCollisionCandidates()).toThrow(/gave start undefined and end undefined for \{ id: 4 \}/);
    missing.dispose();
    pj.dispose();
  });

  test('objects are named by their own toString when they have one', () => {
    class Named {
      x = NaN;
      toString() {
        return 'player one';
      }
    }
    const pj = new PruneJuice<Named>([{ getStart: (t) => t.x, getEnd: (t) => t.x }]);
    pj.register(new Named());
    expect(() => pj.getCollisionCandidates()).toThrow(/for player one;/);
    pj.dispose();
  });

  test('registering twice throws naming the object; unregistering an unknown object is ignored', () => {
    const pj = new PruneJuice<Ball>(ballAxis);
    const a = new Ball(7, 0);
    pj.register(a);
    expect(() => pj.register(a)).toThrow(
      expect.objectContaining({
        code: 'AlreadyRegistered',
        message: expect.stringMatching(/^register: Ball \{ id: 7, x: 0 \} is already registered/),
      }),
    );
    pj.unregister(new Ball(7, 0));
    expect(pj.size).toBe(1);
    pj.unregister(a);
    expect(pj.getCollisionCandidates()).toEqual([]);
    pj.dispose();
  });

  test('register or unregister from inside an extractor is refused, not half-applied', () => {
    const other = new Ball(2, 0);
    let pj: PruneJuice<Ball>;
    const meddling = [{ getStart: (b: Ball) => (pj.register(other), b.x), getEnd: (b: Ball) => b.x }];
    pj = new PruneJuice<Ball>(meddling);
    pj.register(new Ball(1, 0));
    expect(() => pj.getCollisionCandidates()).toThrow(
      expect.objectContaining({
        code: 'InvalidArgument',
        message: expect.stringMatching(/^register: called from an extractor/),
      }),
    );
    expect(pj.size).toBe(1);
    pj.dispose();
  });

  test('a disposed PruneJuice says so, naming no World method', () => {
    const pj = new PruneJuice<Ball>(ballAxis);
    pj.register(new Ball(1, 0));
    pj.dispose();
    pj.dispose();
    expect(pj.disposed).toBe(true);
    for (const [what, call] of [
      ['register', () => pj.register(new Ball(2, 0))],
      ['unregister', () => pj.unregister(new Ball(2, 0))],
      ['getCollisionCandidates', () => pj.getCollisionCandidates()],
    ] as const) {
      expect(call).toThrow(
        expect.objectContaining({
          code: 'Disposed',
          message: `${what}: this PruneJuice was disposed; create a new PruneJuice`,
        }),
      );
    }
  });

  test('constructor arguments are checked; any number of extractors; sortFn is accepted and not called', () => {
    expect(() => new PruneJuice<Thing>([])).toThrow(
      expect.objectContaining({
        code: 'InvalidDimensions',
        message: expect.stringMatching(/^new PruneJuice: .*at least one/),
      }),
    );
    expect(() => new PruneJuice<Thing>([{ getStart: 1 } as never])).toThrow(
      /^new PruneJuice: extractors\[0\] must have getStart\(t\) and getEnd\(t\) functions, got \{ getStart: 1 \}/,
    );
    let called = 0;
    const pj = new PruneJuice<Thing>(extractorsFor(5), (arr, cmp) => {
      called++;
      arr.sort(cmp);
    });
    pj.register(makeThing(0, 5, () => 0));
    pj.getCollisionCandidates();
    expect(called).toBe(0);
    pj.dispose();
  });

  test('instances created and dropped without dispose() in a loop never run out of worlds', () => {
    const ball = new Ball(1, 0);
    for (let i = 0; i < 3000; i++) {
      const pj = new PruneJuice<Ball>(ballAxis);
      pj.register(ball);
      pj.register(new Ball(2, 1));
      expect(pj.getCollisionCandidates().length).toBe(1);
    }
  });
});
