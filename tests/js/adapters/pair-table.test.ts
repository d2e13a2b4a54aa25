// PairSet (sweep-prune/planck's set of contacts) against a plain Set of "a:b" keys, over random adds, deletes and
// lookups, with ids as sweep-prune/planck makes them (creation count * 2^22 + slot, many sharing low bits) and prunes
// that drop the pairs of "destroyed" ids.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { PairSet } from '../../../web/src/adapters/shared/pair-table.js';

const key = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);

describe('PairSet', () => {
  test('holds exactly the pairs added and not deleted, in any order of ids, across prunes', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            op: fc.constantFrom('add', 'add', 'delete', 'has', 'kill'),
            a: fc.integer({ min: 1, max: 40 }),
            b: fc.integer({ min: 1, max: 40 }),
          }),
          { maxLength: 1500 },
        ),
        (ops) => {
          const dead = new Set<number>();
          const id = (n: number) => n * 2 ** 22 + (n % 7); // slots repeat, as slots are reused
          const set = new PairSet((a, b) => !dead.has(a) && !dead.has(b));
          const oracle = new Set<string>();
          for (const { op, a, b } of ops) {
            if (a === b) continue;
            const [x, y] = [id(a), id(b)];
            if (op === 'add' && !dead.has(x) && !dead.has(y)) {
              set.add(x, y);
              oracle.add(key(x, y));
            } else if (op === 'delete') {
              set.delete(y, x);
              oracle.delete(key(x, y));
            } else if (op === 'kill') {
              // a destroyed id: its pairs may be pruned away and are never asked about again
              dead.add(x);
              for (const k of [...oracle]) if (k.split(':').map(Number).includes(x)) oracle.delete(k);
            }
            for (const k of oracle) {
              const [p, q] = k.split(':').map(Number) as [number, number];
              if (!set.has(p, q) || !set.has(q, p)) return false;
            }
            if (!dead.has(x) && !dead.has(y) && set.has(x, y) !== oracle.has(key(x, y))) return false;
          }
          return true;
        },
      ),
      { numRuns: 100 },
    );
  });

  test('grows past its first size and keeps every pair', () => {
    const set = new PairSet(() => true);
    for (let i = 1; i <= 5000; i++) set.add(i * 2 ** 22, (i + 1) * 2 ** 22 + 3);
    expect(set.size).toBe(5000);
    for (let i = 1; i <= 5000; i++) expect(set.has((i + 1) * 2 ** 22 + 3, i * 2 ** 22)).toBe(true);
    for (let i = 1; i <= 5000; i += 2) set.delete(i * 2 ** 22, (i + 1) * 2 ** 22 + 3);
    for (let i = 1; i <= 5000; i++) expect(set.has(i * 2 ** 22, (i + 1) * 2 ** 22 + 3)).toBe(i % 2 === 0);
    expect(set.size).toBe(2500);
  });
});
