// npm run bench -- --only=threads: sweep-prune/threads against the single-threaded module, in one process, taking
// turns run by run. Three worlds see the same scenes: the single-threaded module's, the threaded module's on 1
// thread, and the threaded module's on 2 threads (or --threads=N). Printed: the median ms per frame or run, and the
// medians of each run's ratios "threaded 1 thread / single" (the cost of the threaded build) and "1 thread / N
// threads" (the speed-up), of the run (the bounds written, then update()) and of update() alone.
// Every run's pairs must be equal across the three.
import { cpSync, mkdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compileWrapper } from './compile.mjs';
import { Motion, uniform } from './scenes.mjs';
import { median } from './stats.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

// The compiled wrapper copied to a folder of its own: its modules are a second module graph with a second engine
// (the threaded one) beside the single-threaded engine of the other benchmarks.
async function importThreaded() {
  compileWrapper(['threads.ts']);
  const dir = `${root}build/bench/js-threads`;
  mkdirSync(dir, { recursive: true });
  cpSync(`${root}build/bench/js`, dir, { recursive: true });
  cpSync(`${root}web/src/generated/sweep_prune_threads.wasm`, `${dir}/generated/sweep_prune_threads.wasm`);
  cpSync(`${root}web/src/threads-worker.js`, `${dir}/threads-worker.js`);
  const threads = await import(pathToFileURL(`${dir}/threads.js`).href);
  await threads.init();
  if (!threads.isThreaded()) throw new Error(`threads bench: no threads here (${threads.threadsUnavailableReason()})`);
  return threads;
}

/**
 * Times `frames` runs of each world in turns (ms per run, by world: the bounds written and the update, and the update
 * alone); `next(r)` gives run r's bounds (the same for all).
 */
function race(worlds, frames, next) {
  const times = worlds.map(() => []);
  const updates = worlds.map(() => []);
  for (let r = 0; r < frames; r++) {
    const b = next(r);
    const counts = new Set();
    for (let k = 0; k < worlds.length; k++) {
      const i = (r + k) % worlds.length;
      const w = worlds[i];
      const t0 = performance.now();
      w.bounds.set(b);
      const t1 = performance.now();
      w.update();
      const t2 = performance.now();
      counts.add(`${w.pairCount}/${w.began.length}/${w.ended.length}`);
      // run 0: warm-up (first update, workers joining)
      if (r > 0) {
        times[i].push(t2 - t0);
        updates[i].push(t2 - t1);
      }
    }
    if (counts.size !== 1) throw new Error(`threads bench: the worlds disagree (${[...counts].join(' vs ')})`);
  }
  return { times, updates };
}

export async function threadsBench(sp, { quick = false, threads = 2 } = {}) {
  const tp = await importThreaded();
  const [load1, load5] = loadavg();
  console.log(
    `\n## threads: ${cpus().length} cores, load average ${load1.toFixed(2)} (1 min), ${load5.toFixed(2)} (5 min); ` +
      `x1/single = threaded build at 1 thread over the single-threaded build, speed-up = 1 thread / ${threads} threads`,
  );
  // a world that holds the pool, so that its workers stay started from one scene to the next
  const keeper = new tp.World({ threads });
  for (const end = Date.now() + 10_000; keeper.threads < threads && Date.now() < end;) {
    await new Promise((r) => setTimeout(r, 10));
  }
  if (keeper.threads < threads) {
    throw new Error(
      `threads bench: ${keeper.threads} of ${threads} threads started (${tp.threadsUnavailableReason()})`,
    );
  }
  const rows = [];
  const cases = [
    { workload: 'motion 2D', n: 1e5, frames: quick ? 10 : 40 },
    { workload: 'motion 2D', n: 1e6, frames: quick ? 5 : 16 },
    { workload: 'one-shot uniform 2D', n: 1e6, frames: quick ? 3 : 7 },
  ];
  for (const { workload, n, frames } of cases) {
    globalThis.gc?.();
    const motion = workload.startsWith('motion') ? new Motion(n, 2, 1) : undefined;
    const scenes = motion ? [] : [uniform(n, 2, 1, 1001), uniform(n, 2, 1, 1002)];
    const first = new Float32Array(motion ? motion.boxes : scenes[0]);
    const worlds = [
      new sp.World({ capacity: n }),
      new tp.World({ capacity: n }),
      new tp.World({ capacity: n, threads }),
    ];
    for (const w of worlds) {
      w.addBoxes(first);
      w.update();
    }
    const frame = new Float32Array(first.length);
    const { times, updates } = race(worlds, frames, (r) => {
      if (motion) motion.step();
      frame.set(motion ? motion.boxes : scenes[(r + 1) % 2]);
      return frame;
    });
    for (const w of worlds) w.dispose();
    const [single, one, many] = times.map(median);
    // run by run: the two times of a ratio are milliseconds apart, so a slow second of the machine hits both
    const byRun = (a, b, of = times) => median(of[a].map((t, r) => t / of[b][r]));
    // the speed-up of update() alone, without the bounds' copy into the world (the same serial time in both)
    const row = {
      workload,
      n,
      threads,
      single,
      one,
      many,
      cost: byRun(1, 0),
      speedup: byRun(1, 2),
      updateSpeedup: byRun(1, 2, updates),
    };
    rows.push(row);
    console.log(
      `${workload} n=${n.toLocaleString('en')}: single ${single.toFixed(2)} ms, threaded x1 ${one.toFixed(2)} ms, ` +
        `x${threads} ${many.toFixed(2)} ms; run by run: x1/single ${row.cost.toFixed(2)}, speed-up ` +
        `${row.speedup.toFixed(2)}x, update() alone ${row.updateSpeedup.toFixed(2)}x ` +
        `(medians of ${frames - 1} ${motion ? 'frames' : 'runs'})`,
    );
  }
  keeper.dispose();
  return rows;
}
