// The demo's two sorts (web/demo/sorts.ts, the code chapter 10 animates and counts): both sort any input, and their
// counts are what the textbook says, against brute force: insertion sort swaps once per inverted pair and compares
// n - 1 times plus once per swap; on reversed input both are n(n - 1)/2.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { insertionSort, inputKeys, quicksort, sortCosts, type SortTarget } from '../../web/demo/sorts.js';
import { mulberry32 } from './oracle.js';

function sorted(keys: number[], sort: (t: SortTarget) => Generator<number, void, void>): number[] {
  const a = [...keys];
  const t: SortTarget = {
    key: (i) => a[i]!,
    *compare() {},
    *swap(i, j) {
      [a[i], a[j]] = [a[j]!, a[i]!];
    },
  };
  for (const _ of sort(t)) {
    // the target yields no pauses
  }
  return a;
}

function inversions(keys: ArrayLike<number>): number {
  let n = 0;
  for (let i = 0; i < keys.length; i++) for (let j = i + 1; j < keys.length; j++) if (keys[i]! > keys[j]!) n++;
  return n;
}

const keys = fc.array(fc.integer({ min: -20, max: 20 }), { maxLength: 60 });

describe('chapter 10’s sorts', () => {
  test('both sort any input', () => {
    fc.assert(
      fc.property(keys, (k) => {
        const want = [...k].sort((p, q) => p - q);
        expect(sorted(k, (t) => insertionSort(t, k.length))).toEqual(want);
        expect(sorted(k, (t) => quicksort(t, 0, k.length - 1))).toEqual(want);
      }),
    );
  });

  test('insertion sort swaps once per inversion and compares n - 1 times more (stopping comparisons)', () => {
    fc.assert(
      fc.property(keys, (k) => {
        const { insertion } = sortCosts(k);
        const inv = inversions(k);
        expect(insertion.swaps).toBe(inv);
        // each slot's walk ends with one comparison that does not swap, unless it reached slot 0
        expect(insertion.comparisons).toBeGreaterThanOrEqual(inv);
        expect(insertion.comparisons).toBeLessThanOrEqual(inv + Math.max(0, k.length - 1));
      }),
    );
  });

  test('the input orders: sorted costs insertion sort n - 1 comparisons, reversed n(n - 1)/2 of each', () => {
    const random = mulberry32(5);
    for (const n of [2, 12, 100, 1000]) {
      const s = sortCosts(inputKeys('sorted', n, random));
      expect(s.insertion).toEqual({ comparisons: n - 1, swaps: 0 });
      expect(s.quick.swaps).toBe(0);
      expect(s.quick.comparisons).toBeGreaterThan(s.insertion.comparisons);
      const r = sortCosts(inputKeys('reversed', n, random));
      expect(r.insertion).toEqual({ comparisons: (n * (n - 1)) / 2, swaps: (n * (n - 1)) / 2 });
      const f = inputKeys('frame', n, random);
      expect(sortCosts(f).insertion.swaps).toBe(inversions(f));
      expect(inversions(f)).toBeLessThan(n); // moved by at most a gap: only neighbours trade places
      const sh = inputKeys('shuffled', n, random);
      expect([...sh].sort((p, q) => p - q)).toEqual([...inputKeys('sorted', n, random)]);
    }
  });
});
