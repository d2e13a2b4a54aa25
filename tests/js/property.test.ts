// Property-based tests (fast-check): random sequences of add / remove / move (setBox or the bounds view) / update /
// endpoints / query against the brute-force oracle, in 1 to 4 dimensions.
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { init, World, slotOf } from '../../web/src/index.js';
import { bruteForce, minus, overlaps, pairSet, pairStrings, type Box } from './oracle.js';

beforeAll(() => init());

// Coordinates on a coarse lattice, so that boxes touch, coincide and have zero extent often.
const coord = fc.integer({ min: -12, max: 12 }).map((v) => v / 2);

function boxArb(d: number): fc.Arbitrary<Box> {
  return fc.array(fc.tuple(coord, coord), { minLength: d, maxLength: d }).map((axes) => ({
    min: axes.map(([x, y]) => Math.min(x, y)),
    max: axes.map(([x, y]) => Math.max(x, y)),
  }));
}

type Op =
  | { t: 'add'; box: Box }
  | { t: 'remove'; k: number }
  | { t: 'move'; k: number; dx: number[]; viaView: boolean }
  | { t: 'update' }
  | { t: 'endpoints'; axis: number }
  | { t: 'query'; box: Box };

function opArb(d: number): fc.Arbitrary<Op> {
  const k = fc.nat({ max: 1000 });
  return fc.oneof(
    { weight: 4, arbitrary: boxArb(d).map((box): Op => ({ t: 'add', box })) },
    { weight: 2, arbitrary: k.map((k): Op => ({ t: 'remove', k })) },
    {
      weight: 3,
      arbitrary: fc
        .record({
          k,
          dx: fc.array(
            fc.integer({ min: -4, max: 4 }).map((v) => v / 2),
            { minLength: d, maxLength: d },
          ),
          viaView: fc.boolean(),
        })
        .map((r): Op => ({ t: 'move', ...r })),
    },
    { weight: 3, arbitrary: fc.constant<Op>({ t: 'update' }) },
    { weight: 1, arbitrary: fc.nat({ max: d - 1 }).map((axis): Op => ({ t: 'endpoints', axis })) },
    { weight: 1, arbitrary: boxArb(d).map((box): Op => ({ t: 'query', box })) },
  );
}

function run(d: number, ops: Op[]): void {
  const w = new World({ dimensions: d });
  try {
    const boxes = new Map<number, Box>();
    const removed = new Set<number>();
    let prev: string[] = [];
    let atUpdate: Map<number, Box> | undefined; // the boxes as of the last update, while nothing has changed since
    for (const op of ops) {
      const ids = [...boxes.keys()];
      switch (op.t) {
        case 'add': {
          const id = w.addBox(op.box.min, op.box.max);
          expect(boxes.has(id) || removed.has(id)).toBe(false); // ids are never handed out twice
          boxes.set(id, { min: [...op.box.min], max: [...op.box.max] });
          atUpdate = undefined;
          break;
        }
        case 'remove': {
          if (ids.length === 0) break;
          const id = ids[op.k % ids.length]!;
          w.removeBox(id);
          boxes.delete(id);
          removed.add(id);
          atUpdate = undefined;
          break;
        }
        case 'move': {
          if (ids.length === 0) break;
          const id = ids[op.k % ids.length]!;
          const b = boxes.get(id)!;
          const moved = { min: b.min.map((v, a) => v + op.dx[a]!), max: b.max.map((v, a) => v + op.dx[a]!) };
          if (op.viaView) {
            const view = w.bounds;
            const o = w.offsetOf(id);
            for (let a = 0; a < d; a++) {
              view[o + a] = moved.min[a]!;
              view[o + d + a] = moved.max[a]!;
            }
          } else {
            w.setBox(id, moved.min, moved.max);
          }
          boxes.set(id, moved);
          atUpdate = undefined;
          break;
        }
        case 'update': {
          w.update();
          const now = bruteForce(boxes);
          expect(pairSet(w.pairs)).toEqual(now);
          expect(pairStrings(w.began)).toEqual(minus(now, prev));
          expect(pairStrings(w.ended)).toEqual(minus(prev, now));
          expect(w.counters.boxes).toBe(boxes.size);
          prev = now;
          atUpdate = new Map(boxes);
          break;
        }
        case 'endpoints': {
          const { values, refs } = w.endpoints(op.axis);
          expect(values.length).toBe(2 * boxes.size);
          const slots = new Map([...boxes].map(([id, b]) => [slotOf(id), b]));
          for (let i = 0; i < values.length; i++) {
            if (i > 0) {
              expect(values[i - 1]!).toBeLessThanOrEqual(values[i]!);
              if (values[i - 1] === values[i]) expect(refs[i - 1]! & 1).toBeLessThanOrEqual(refs[i]! & 1);
            }
            const b = slots.get(refs[i]! >>> 1)!;
            expect(values[i]).toBe(refs[i]! & 1 ? b.max[op.axis] : b.min[op.axis]);
          }
          break;
        }
        case 'query': {
          const hits = Array.from(w.queryBox(op.box.min, op.box.max));
          if (atUpdate === undefined) break; // queries see the last update; only checked while nothing moved since
          const want = [...atUpdate]
            .filter(([, b]) => overlaps(b, op.box))
            .map(([id]) => id)
            .sort((x, y) => x - y);
          expect(hits).toEqual(want);
          break;
        }
      }
      // stale ids are never accepted
      for (const id of removed) expect(w.isBoxValid(id)).toBe(false);
    }
  } finally {
    w.dispose();
  }
}

describe('random operation sequences match brute force', () => {
  for (const d of [1, 2, 3, 4]) {
    test(`${d}D`, () => {
      fc.assert(
        fc.property(fc.array(opArb(d), { maxLength: 80 }), (ops) => run(d, ops)),
        { numRuns: 150, seed: 1000 + d },
      );
    });
  }

  test('any dimension, long sequences', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 4 })
          .chain((d) => fc.tuple(fc.constant(d), fc.array(opArb(d), { minLength: 100, maxLength: 400 }))),
        ([d, ops]) => run(d, ops),
      ),
      { numRuns: 40, seed: 42 },
    );
  });
});
