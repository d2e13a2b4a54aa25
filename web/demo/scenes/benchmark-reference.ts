// A reference run of the page's benchmark, drawn faint under the reader's own: [N, ms per frame] per method, as
// the page measured it (Play, largest N 100 000) on the machine named below. Re-measure with
// `node web/scripts/bench-reference.mjs` after changing the benchmark.

export const REFERENCE_MACHINE = 'a shared 2-core x86-64 VM (Nov 2026), headless Chromium 156.0.8078.79';

export const REFERENCE: Record<'naive' | 'sorted' | 'swaps' | 'wasm', ReadonlyArray<readonly [number, number]>> = {
  naive: [
    [100, 0.011],
    [300, 0.083],
    [1000, 1.3],
    [3000, 12.8],
    [10000, 162.7],
  ],
  sorted: [
    [100, 0.027],
    [300, 0.043],
    [1000, 0.22],
    [3000, 0.9],
    [10000, 4.3],
    [30000, 19.5],
    [100000, 111.6],
  ],
  swaps: [
    [100, 0.007],
    [300, 0.027],
    [1000, 0.13],
    [3000, 0.6],
    [10000, 3],
    [30000, 14.8],
    [100000, 173.1],
  ],
  wasm: [
    [100, 0.021],
    [300, 0.033],
    [1000, 0.053],
    [3000, 0.18],
    [10000, 0.5],
    [30000, 1.6],
    [100000, 5.6],
  ],
};
