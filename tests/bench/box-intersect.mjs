// npm run bench -- --only=box-intersect: sweep-prune/box-intersect against box-intersect 1.0.2 with the same user
// code, arrays of arrays in and an array of [i, j] pairs out: `boxIntersect(boxes)`. The boxes are the uniform
// scenes of scenes.mjs scaled by 1.1, so their bounds are ordinary float64 values (not float32 ones) and every pair
// goes through the float64 re-test. The two take turns run by run; the first run's pairs are checked against the
// other's. `--only=mesh`: the triangles of a height-field mesh (boxIntersectMeshBench), with arrays and with a visitor.
import boxIntersectReference from 'box-intersect';
import { mulberry32, uniform } from './scenes.mjs';
import { median } from './stats.mjs';

function arraysOf(flat, d) {
  const n = flat.length / (2 * d);
  return Array.from({ length: n }, (_, i) => Array.from(flat.subarray(i * 2 * d, (i + 1) * 2 * d), (v) => v * 1.1));
}

/** Sorted "i,j" keys, for the check that both found the same set. */
function keys(pairs) {
  return pairs.map(([i, j]) => (i < j ? i * 4294967296 + j : j * 4294967296 + i)).sort((a, b) => a - b);
}

/**
 * `runs` timed calls of each library's `run(boxes)` after one warm-up call, the libraries taking turns (each run
 * starting with the other one). The warm-up's pairs are compared: `keys` of the results of `run`, or the count
 * when `run` returns a number (a visitor). Returns the times per library and the pairs' keys (or count).
 */
function race(libraries, boxes, runs, what) {
  const times = libraries.map(() => []);
  let want;
  for (let r = 0; r <= runs; r++) {
    for (let k = 0; k < libraries.length; k++) {
      const l = (r + k) % libraries.length;
      globalThis.gc?.();
      const t0 = performance.now();
      const pairs = libraries[l].run(boxes);
      const t = performance.now() - t0;
      if (r > 0) times[l].push(t);
      if (r === 0) {
        const got = typeof pairs === 'number' ? pairs : keys(pairs);
        const same =
          typeof got === 'number' ? got === want : got.length === want?.length && got.every((x, i) => x === want[i]);
        if (want !== undefined && !same) {
          const count = (x) => (typeof x === 'number' ? x : x.length);
          throw new Error(`${what}: the two libraries found different pairs (${count(got)} vs ${count(want)})`);
        }
        want = got;
      }
    }
  }
  return { times, want };
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
    const { times, want } = race(libraries, boxes, runs, `${d}D n=${n}`);
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

/**
 * The triangles of a height field: a `cells` x `cells` grid of unit cells, two triangles per cell, the heights a
 * seeded value noise (three octaves, smoothstep between lattice points). Neighbouring triangles share vertices, so
 * their boxes touch or overlap, as the triangles of a real mesh do. One box per triangle, [minX, minY, minZ, maxX,
 * maxY, maxZ], z up.
 */
export function heightFieldTriangles(cells, seed) {
  const rnd = mulberry32(seed);
  const octaves = [
    [32, 12],
    [8, 3],
    [2, 0.4],
  ].map(([period, amplitude]) => {
    const m = Math.ceil(cells / period) + 2;
    return { period, amplitude, m, lattice: Float64Array.from({ length: m * m }, () => rnd()) };
  });
  const smooth = (t) => t * t * (3 - 2 * t);
  const height = (x, y) => {
    let z = 0;
    for (const { period, amplitude, m, lattice } of octaves) {
      const fx = x / period;
      const fy = y / period;
      const ix = Math.floor(fx);
      const iy = Math.floor(fy);
      const tx = smooth(fx - ix);
      const ty = smooth(fy - iy);
      const at = (i, j) => lattice[j * m + i];
      const a = at(ix, iy) + (at(ix + 1, iy) - at(ix, iy)) * tx;
      const b = at(ix, iy + 1) + (at(ix + 1, iy + 1) - at(ix, iy + 1)) * tx;
      z += amplitude * (a + (b - a) * ty);
    }
    return z;
  };
  const v = cells + 1;
  const heights = new Float64Array(v * v);
  for (let j = 0; j < v; j++) for (let i = 0; i < v; i++) heights[j * v + i] = height(i, j);
  const boxes = [];
  const triangle = (p, q, r) => {
    const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    for (const [x, y] of [p, q, r]) {
      const z = heights[y * v + x];
      box[0] = Math.min(box[0], x);
      box[1] = Math.min(box[1], y);
      box[2] = Math.min(box[2], z);
      box[3] = Math.max(box[3], x);
      box[4] = Math.max(box[4], y);
      box[5] = Math.max(box[5], z);
    }
    boxes.push(box);
  };
  for (let j = 0; j < cells; j++) {
    for (let i = 0; i < cells; i++) {
      triangle([i, j], [i + 1, j], [i + 1, j + 1]);
      triangle([i, j], [i + 1, j + 1], [i, j + 1]);
    }
  }
  return boxes;
}

/**
 * npm run bench -- --only=mesh: the boxes of the 200 978 triangles of a 317 x 317 height field (a mesh's
 * self-intersection or collision broadphase), `boxIntersect(boxes)` returning the pairs and `boxIntersect(boxes,
 * visit)` counting them, each against box-intersect 1.0.2 doing the same.
 */
export function boxIntersectMeshBench(boxIntersect, { quick = false } = {}) {
  const cells = quick ? 100 : 317;
  const boxes = heightFieldTriangles(cells, 2024);
  const runs = quick ? 3 : 5;
  console.log(
    `\n## sweep-prune/box-intersect vs box-intersect: the ${boxes.length.toLocaleString('en')} triangles of a ` +
      `${cells} x ${cells} height field (ms per call)`,
  );
  const counting = (run) => (b) => {
    let count = 0;
    run(b, () => {
      count++;
    });
    return count;
  };
  const rows = [];
  for (const [mode, wrap] of [
    ['arrays: boxIntersect(boxes)', (run) => run],
    ['visitor: boxIntersect(boxes, visit)', counting],
  ]) {
    const libraries = [
      { name: 'sweep-prune/box-intersect', run: wrap(boxIntersect) },
      { name: 'box-intersect', run: wrap(boxIntersectReference) },
    ];
    const { times, want } = race(libraries, boxes, runs, `mesh ${mode}`);
    const pairs = typeof want === 'number' ? want : want.length;
    const [ours, theirs] = times.map(median);
    const runRatio = median(times[0].map((t, r) => times[1][r] / t));
    rows.push({ scene: 'mesh', mode, n: boxes.length, pairs, ours, theirs, ratio: theirs / ours, runRatio });
    console.log(
      `${mode} (${pairs.toLocaleString('en')} pairs): sweep-prune ${ours.toFixed(1)} ms, box-intersect ` +
        `${theirs.toFixed(1)} ms, ${(theirs / ours).toFixed(2)}x (medians of ${runs}; run by run ${runRatio.toFixed(2)}x)`,
    );
  }
  return rows;
}
