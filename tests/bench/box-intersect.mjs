// npm run bench -- --only=box-intersect: sweep-prune/box-intersect against box-intersect 1.0.2 with the same user
// code, arrays of arrays in and an array of [i, j] pairs out: `boxIntersect(boxes)`. The boxes are the uniform
// scenes of scenes.mjs scaled by 1.1, so their bounds are ordinary float64 values (not float32 ones) and every pair
// goes through the float64 re-test. The two take turns run by run; every run's pairs are checked against the other's.
import boxIntersectReference from 'box-intersect';
import { uniform } from './scenes.mjs';
import { median } from './stats.mjs';

function arraysOf(flat, d) {
  const n = flat.length / (2 * d);
  return Array.from({ length: n }, (_, i) => Array.from(flat.subarray(i * 2 * d, (i + 1) * 2 * d), (v) => v * 1.1));
}

/** Sorted "i,j" keys, for the check that both found the same set. */
function keys(pairs) {
  return pairs.map(([i, j]) => (i < j ? i * 4294967296 + j : j * 4294967296 + i)).sort((a, b) => a - b);
}

export function boxIntersectBench(boxIntersect, { quick = false } = {}) {
  const cases = quick
    ? [
        [2, 1e4],
        [2, 1e5],
      ]
    : [
        [2, 1e4],
        [2, 1e5],
        [2, 1e6],
        [3, 1e5],
      ];
  const libraries = [
    { name: 'sweep-prune/box-intersect', run: boxIntersect },
    { name: 'box-intersect', run: boxIntersectReference },
  ];
  console.log(
    '\n## sweep-prune/box-intersect vs box-intersect: boxIntersect(arrays of arrays) -> [i, j] pairs (ms per call)',
  );
  const rows = [];
  for (const [d, n] of cases) {
    const boxes = arraysOf(uniform(n, d, 1, 1001), d);
    const runs = n <= 1e4 ? 9 : n <= 1e5 ? 5 : 3;
    const times = libraries.map(() => []);
    let want;
    // run 0 warms up; then the libraries take turns, starting with the other one each run
    for (let r = 0; r <= runs; r++) {
      for (let k = 0; k < libraries.length; k++) {
        const l = (r + k) % libraries.length;
        globalThis.gc?.();
        const t0 = performance.now();
        const pairs = libraries[l].run(boxes);
        const t = performance.now() - t0;
        if (r > 0) times[l].push(t);
        if (r === 0) {
          const got = keys(pairs);
          if (want === undefined) want = got;
          else if (got.length !== want.length || got.some((x, i) => x !== want[i])) {
            throw new Error(`${d}D n=${n}: the two libraries found different pairs (${got.length} vs ${want.length})`);
          }
        }
      }
    }
    const [ours, theirs] = times.map(median);
    // each run's two times were taken side by side: their ratio is steadier than the medians' on a busy machine
    const runRatio = median(times[0].map((t, r) => times[1][r] / t));
    rows.push({ d, n, pairs: want.length, ours, theirs, ratio: theirs / ours, runRatio });
    console.log(
      `${d}D n=${n.toLocaleString('en')} (${want.length.toLocaleString('en')} pairs): sweep-prune ${ours.toFixed(1)} ms, ` +
        `box-intersect ${theirs.toFixed(1)} ms, ${(theirs / ours).toFixed(1)}x (medians of ${runs}; run by run ${runRatio.toFixed(1)}x)`,
    );
  }
  return rows;
}
