// A reference run of the page's benchmark, drawn faint under the reader's own: [N, ms per frame] per method, as
// the page measured it (Play, largest N 100 000) on the machine named below. Re-measure with
// `node web/scripts/bench-reference.mjs` after changing the benchmark.

export const REFERENCE_MACHINE = 'a shared 2-core x86-64 VM (Nov 2026, busy), headless Chromium 156.0.8078.79';

export const REFERENCE: Record<'naive' | 'sorted' | 'swaps' | 'wasm', ReadonlyArray<readonly [number, number]>> = {
  naive: [[100, 0.009], [300, 0.083], [1000, 1.3], [3000, 13], [10000, 279.9]],
  sorted: [[100, 0.12], [300, 0.045], [1000, 0.22], [3000, 1], [10000, 4.9], [30000, 58.4], [100000, 179.5]],
  swaps: [[100, 0.008], [300, 0.025], [1000, 0.14], [3000, 0.6], [10000, 3.5], [30000, 13.8], [100000, 327.9]],
  wasm: [[100, 0.013], [300, 0.018], [1000, 0.056], [3000, 0.18], [10000, 0.5], [30000, 1.6], [100000, 13.7]],
};
