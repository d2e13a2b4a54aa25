// npm run bench -- --only=cold: from nothing to the first pairs through the JS API: a new World, every box added,
// one update. World.addBoxes (one call into wasm) against addBox per box, taking turns run by run. The same against
// the textbook box-pruning reference, native and in wasm, is `npm run bench:c -- "cold start 2D"`.
import { uniform } from './scenes.mjs';

function median(times) {
  const s = [...times].sort((a, b) => a - b);
  return s[s.length >> 1];
}

export function coldStartBench(sp, { quick = false } = {}) {
  const sizes = quick ? [1e4, 1e5] : [1e4, 1e5, 1e6];
  console.log('\n## cold start 2D through the JS API: new World, add every box, one update (ms)');
  const rows = [];
  for (const n of sizes) {
    const flat = new Float32Array(uniform(n, 2, 1, 1001));
    const ways = [
      { name: 'addBoxes', add: (w) => w.addBoxes(flat) },
      {
        name: 'addBox per box',
        add: (w) => {
          for (let i = 0; i < n; i++) w.addBox(flat.subarray(4 * i, 4 * i + 2), flat.subarray(4 * i + 2, 4 * i + 4));
        },
      },
    ];
    const runs = n <= 1e4 ? 15 : n <= 1e5 ? 7 : 3;
    const times = ways.map(() => []);
    const counts = new Set();
    for (let r = 0; r <= runs; r++) {
      for (let k = 0; k < ways.length; k++) {
        const way = (r + k) % ways.length;
        globalThis.gc?.();
        const t0 = performance.now();
        const w = new sp.World({ dimensions: 2 });
        ways[way].add(w);
        w.update();
        const t = performance.now() - t0;
        counts.add(w.pairCount);
        w.dispose();
        if (r > 0) times[way].push(t);
      }
    }
    if (counts.size !== 1) throw new Error(`cold start n=${n}: the two ways found different pair counts`);
    const [bulk, single] = times.map(median);
    const runRatio = median(times[0].map((t, r) => times[1][r] / t));
    rows.push({ n, bulk, single, ratio: single / bulk, runRatio });
    console.log(
      `n=${n.toLocaleString('en')}: addBoxes ${bulk.toFixed(1)} ms, addBox per box ${single.toFixed(1)} ms, ` +
        `${(single / bulk).toFixed(2)}x (medians of ${runs}; run by run ${runRatio.toFixed(2)}x)`,
    );
  }
  return rows;
}
