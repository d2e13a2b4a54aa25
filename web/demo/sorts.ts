// Chapter 10's two sorts, written once: quicksort (Hoare partition, middle pivot) and insertion sort, over any array
// seen through a `SortTarget`. The figure's target flashes and pauses at each comparison and swap; `sortCosts` runs
// the same code with a target that only counts, to give both sorts' costs on inputs of any size and order.

/** What a sort sees of its array: each slot's key, a comparison (a beat of the figure), and a swap. */
export interface SortTarget {
  key(i: number): number;
  /** Slots i and j are compared (i === j: slot i against the pivot); yields the figure's pauses. */
  compare(i: number, j: number): Generator<number, void, void>;
  swap(i: number, j: number): Generator<number, void, void>;
}

/** Insertion sort: each slot moved left past every larger key (one comparison per neighbour on sorted input). */
export function* insertionSort(t: SortTarget, n: number): Generator<number, void, void> {
  for (let i = 1; i < n; i++) {
    for (let j = i; j > 0; j--) {
      yield* t.compare(j - 1, j);
      if (!(t.key(j - 1) > t.key(j))) break;
      yield* t.swap(j - 1, j);
    }
  }
}

/** Quicksort (Hoare partition, middle pivot) over slots lo..hi. */
export function* quicksort(t: SortTarget, lo: number, hi: number): Generator<number, void, void> {
  if (lo >= hi) return;
  const pivot = t.key((lo + hi) >> 1);
  let i = lo;
  let j = hi;
  while (i <= j) {
    for (;;) {
      yield* t.compare(i, i);
      if (!(t.key(i) < pivot)) break;
      i++;
    }
    for (;;) {
      yield* t.compare(j, j);
      if (!(t.key(j) > pivot)) break;
      j--;
    }
    if (i <= j) {
      if (i < j) yield* t.swap(i, j);
      i++;
      j--;
    }
  }
  yield* quicksort(t, lo, j);
  yield* quicksort(t, i, hi);
}

export interface Cost {
  comparisons: number;
  swaps: number;
}

/** Both sorts' comparisons and swaps on a copy of `keys` (the same code the figure animates, only counting). */
export function sortCosts(keys: ArrayLike<number>): { quick: Cost; insertion: Cost } {
  const run = (sort: (t: SortTarget) => Generator<number, void, void>): Cost => {
    const a = Float64Array.from(keys);
    const cost = { comparisons: 0, swaps: 0 };
    const target: SortTarget = {
      key: (i) => a[i]!,
      *compare() {
        cost.comparisons++;
      },
      *swap(i, j) {
        [a[i], a[j]] = [a[j]!, a[i]!];
        cost.swaps++;
      },
    };
    for (const _ of sort(target)) {
      // the counting target yields no pauses
    }
    return cost;
  };
  return {
    quick: run((t) => quicksort(t, 0, keys.length - 1)),
    insertion: run((t) => insertionSort(t, keys.length)),
  };
}

/** The input orders the reader can choose for the cost table. */
export type InputOrder = 'frame' | 'sorted' | 'shuffled' | 'reversed';

/**
 * n keys in an order: 'frame' is the article's case, last frame's sorted order after every key moved a little (by
 * up to the gap between two keys, so that some neighbours trade places, as edges do between two frames); 'sorted'
 * unchanged; 'shuffled' at random; 'reversed' backwards.
 */
export function inputKeys(order: InputOrder, n: number, random: () => number): Float64Array {
  const keys = Float64Array.from({ length: n }, (_, i) => i);
  if (order === 'frame') for (let i = 0; i < n; i++) keys[i]! += (random() - 0.5) * 2;
  if (order === 'reversed') keys.reverse();
  if (order === 'shuffled') {
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [keys[i], keys[j]] = [keys[j]!, keys[i]!];
    }
  }
  return keys;
}
