// The nearest-box and first-hit queries (npm run bench -- --only=nearest): sweep-prune's nearest against flatbush's
// neighbors on the same 100k boxes (uniform 2D scene), k = 1 and 16, 10 000 query points; and first-hit rays against
// full castRay. Runs take turns (the machine's speed swings); the median time per 10 000 queries is reported.
import Flatbush from 'flatbush';
import { mulberry32, uniform } from './scenes.mjs';
import { median } from './stats.mjs';

const now = () => performance.now();

// squared distance from (x, y) to box i of the scene, as flatbush measures it
function distance2(b, i, x, y) {
  const dx = Math.max(b[i * 4] - x, 0, x - b[i * 4 + 2]);
  const dy = Math.max(b[i * 4 + 1] - y, 0, y - b[i * 4 + 3]);
  return dx * dx + dy * dy;
}

/**
 * Run the section; returns the result entries (for bench-js.json).
 * @param sp the sweep-prune module (initialised)
 */
export function queriesBench(sp, { quick = false } = {}) {
  const n = quick ? 10_000 : 100_000;
  const queries = quick ? 2_000 : 10_000;
  const turns = quick ? 5 : 9;
  const b = uniform(n, 2, 7);
  const L = Math.sqrt(n) * 100; // the scene's side: points among the boxes
  const world = new sp.World({ dimensions: 2, capacity: n });
  const ids = new Uint32Array(n);
  const index = new Map();
  for (let i = 0; i < n; i++) {
    ids[i] = world.addBox([b[i * 4], b[i * 4 + 1]], [b[i * 4 + 2], b[i * 4 + 3]]);
    index.set(ids[i], i);
  }
  world.update();
  const tree = new Flatbush(n);
  for (let i = 0; i < n; i++) tree.add(b[i * 4], b[i * 4 + 1], b[i * 4 + 2], b[i * 4 + 3]);
  tree.finish();
  const rand = mulberry32(99);
  const points = new Float64Array(2 * queries).map(() => Math.fround(rand() * L));
  // the same count of points over 1.5 times the side, centred: 55% of them outside the boxes, some far
  const spread = new Float64Array(2 * queries).map(() => Math.fround(rand() * 1.5 * L - 0.25 * L));
  const dirs = new Float64Array(2 * queries).map(() => rand() - 0.5);
  const p = [0, 0];
  let sink = 0;
  const results = [];

  // same answers: the k-th distance of both (ties may order differently)
  for (const k of [1, 16]) {
    for (let q = 0; q < 200; q++) {
      const x = points[2 * q],
        y = points[2 * q + 1];
      p[0] = x;
      p[1] = y;
      const ours = world.nearest(p, k);
      const theirs = tree.neighbors(x, y, k);
      const dOurs = distance2(b, index.get(ours.ids[k - 1]), x, y);
      const dTheirs = distance2(b, theirs[k - 1], x, y);
      if (Math.abs(Math.sqrt(dOurs) - Math.sqrt(dTheirs)) > 1e-3 * (1 + Math.sqrt(dTheirs))) {
        throw new Error(`nearest k=${k}: query ${q}: distance ${Math.sqrt(dOurs)} vs flatbush ${Math.sqrt(dTheirs)}`);
      }
    }
  }

  const section = (name, entries) => {
    const times = entries.map(() => []);
    for (let r = 0; r < turns; r++) {
      for (let j = 0; j < entries.length; j++) {
        const e = (r + j) % entries.length;
        const t0 = now();
        entries[e].run();
        times[e].push(now() - t0);
      }
    }
    const base = median(times[0]);
    console.log(
      `\n${name}, n=${n}, ${queries} queries (median ms per ${queries} queries of ${turns} runs taken in turns)`,
    );
    const rows = entries.map((e, j) => {
      const ms = median(times[j]);
      console.log(`  ${e.name.padEnd(34)} ${ms.toFixed(2).padStart(9)} ms  ${(ms / base).toFixed(2).padStart(6)}x`);
      return { name: e.name, median: ms, ratio: ms / base };
    });
    results.push({ workload: name, n, queries, rows });
  };

  for (const [k, where, at] of [
    [1, 'among the boxes', points],
    [16, 'among the boxes', points],
    [1, 'half outside', spread],
  ]) {
    section(`nearest, k = ${k}, points ${where}`, [
      {
        name: 'sweep-prune nearest',
        run: () => {
          for (let q = 0; q < queries; q++) {
            p[0] = at[2 * q];
            p[1] = at[2 * q + 1];
            sink += world.nearest(p, k).ids[0];
          }
        },
      },
      {
        name: 'sweep-prune forEachNearest',
        run: () => {
          const visit = (id) => {
            sink += id;
          };
          for (let q = 0; q < queries; q++) {
            p[0] = at[2 * q];
            p[1] = at[2 * q + 1];
            world.forEachNearest(p, k, visit);
          }
        },
      },
      {
        name: 'flatbush neighbors',
        run: () => {
          for (let q = 0; q < queries; q++) sink += tree.neighbors(at[2 * q], at[2 * q + 1], k)[0];
        },
      },
    ]);
  }

  const d = [0, 0];
  section('rays from random points, unbounded', [
    {
      name: 'sweep-prune firstHit',
      run: () => {
        for (let q = 0; q < queries; q++) {
          p[0] = points[2 * q];
          p[1] = points[2 * q + 1];
          d[0] = dirs[2 * q];
          d[1] = dirs[2 * q + 1];
          sink += world.firstHit(p, d)?.id ?? 0;
        }
      },
    },
    {
      name: 'sweep-prune castRay (every hit)',
      run: () => {
        for (let q = 0; q < queries; q++) {
          p[0] = points[2 * q];
          p[1] = points[2 * q + 1];
          d[0] = dirs[2 * q];
          d[1] = dirs[2 * q + 1];
          sink += world.castRay(p, d).ids[0] ?? 0;
        }
      },
    },
  ]);
  world.dispose();
  return { results, sink };
}
