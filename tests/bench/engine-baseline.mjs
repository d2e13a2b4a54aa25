// The engine against a module built from an earlier commit (tests/bench/baseline/), in one process: the same
// wrapper imported twice, each copy with its own module, on the same coherent-motion frames, taking turns frame by
// frame. npm run bench -- --only=engine. The ratio is the baseline's time over ours, frame by frame (median).
import { cpSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { importWrapper } from './compile.mjs';
import { Motion } from './scenes.mjs';
import { peers } from './peers.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The module the engine is measured against, and the commit it was built from. */
export const BASELINE = { commit: 'acd70ec', file: `${root}tests/bench/baseline/sweep_prune-acd70ec.wasm` };

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

// The benchmark's own sweep-prune entry (tests/bench/peers.mjs) on a copy of the wrapper: its world of the scene's
// boxes, and its frame (the bounds copied in, the update, the events read).
const engine = (sp) => peers(sp).find((library) => library.name === 'sweep-prune');

// One frame of one engine: its ms, and its pair count.
function frame(world, boxes) {
  const t0 = performance.now();
  const pairs = world.run(boxes);
  return { ms: performance.now() - t0, pairs };
}

export async function benchEngineBaseline({ quick = false } = {}) {
  const ours = await importWrapper('index.js');
  await ours.init();
  // a second copy of the compiled wrapper, every file under other URLs, so that it loads a module of its own
  cpSync(`${root}build/bench/js`, `${root}build/bench/js-baseline`, { recursive: true });
  const baseline = await import(pathToFileURL(`${root}build/bench/js-baseline/index.js`).href);
  await baseline.init(readFileSync(BASELINE.file));
  const rows = [];
  console.log(`\n== the engine against its module at ${BASELINE.commit} (motion 2D, events on, one thread)`);
  for (const n of quick ? [100_000] : [100_000, 1_000_000]) {
    const frames = n >= 1_000_000 ? 16 : 60;
    const scene = new Motion(n, 2, 7);
    const worlds = [engine(ours).create(scene.boxes, 2), engine(baseline).create(scene.boxes, 2)];
    const times = [[], []];
    const ratios = [];
    for (let f = 0; f < frames; f++) {
      scene.step();
      // each takes the first turn every other frame, so neither always runs on the caches the other left
      const order = f % 2 === 0 ? [0, 1] : [1, 0];
      const t = [];
      for (const k of order) t[k] = frame(worlds[k], scene.boxes);
      if (t[0].pairs !== t[1].pairs) {
        throw new Error(`motion ${n} frame ${f}: ${t[0].pairs} pairs, baseline ${t[1].pairs}`);
      }
      times[0].push(t[0].ms);
      times[1].push(t[1].ms);
      ratios.push(t[1].ms / t[0].ms);
    }
    for (const w of worlds) w.dispose();
    const row = {
      n,
      frames,
      oursMs: median(times[0]),
      baselineMs: median(times[1]),
      ratio: median(ratios),
      ratioMin: Math.min(...ratios),
      ratioMax: Math.max(...ratios),
    };
    rows.push(row);
    console.log(
      `motion 2D n=${n}: ours ${row.oursMs.toFixed(2)} ms, ${BASELINE.commit} ${row.baselineMs.toFixed(2)} ms a frame ` +
        `(medians of ${frames}); ratio ${row.ratio.toFixed(2)}x (frames ${row.ratioMin.toFixed(2)} to ${row.ratioMax.toFixed(2)})`,
    );
  }
  return rows;
}
