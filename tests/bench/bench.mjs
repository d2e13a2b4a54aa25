// npm run bench [-- --quick] [-- --only=motion]: every library on the same seeded scenes, in one process.
// Prints the median ms per run (one-shot) or per frame (motion), mean±std and min, and each library's time as a
// multiple of sweep-prune's; writes tests/bench/results/bench-js.json. Every run's pair count is checked.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { Motion, clustered, oracleCount, uniform } from './scenes.mjs';
import { consume, getSink, initPeers, peers } from './peers.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const verbose = args.includes('--verbose');
const only = args.find((a) => a.startsWith('--only='))?.slice(7);

// The TypeScript wrapper, compiled as is (the wasm is embedded by web/scripts/setup.sh).
const out = `${root}build/bench/js`;
execFileSync(`${root}node_modules/.bin/tsc`, [`${root}web/src/index.ts`, '--outDir', out, '--target', 'es2022', '--module',
  'esnext', '--moduleResolution', 'bundler', '--skipLibCheck', '--lib', 'es2022,dom,esnext.disposable', '--types', 'node'], { stdio: 'inherit' });
const sp = await import(pathToFileURL(`${out}/index.js`).href);
await sp.init();
await initPeers();
const PruneJuiceOriginal = createRequire(import.meta.url)('@b3gm/prune-juice').default;
const libraries = peers(sp, PruneJuiceOriginal);

// A full garbage collection before each library's runs (node --expose-gc, as `npm run bench` starts it): the
// garbage of the libraries before (a million boxes' worth of objects) would otherwise be collected by V8's
// background threads during the next library's timed runs, on one of this machine's two cores.
const collectGarbage = globalThis.gc ?? (() => {});

const LIMIT_MS = 8000; // a library whose next size is predicted slower than this per run is skipped
const RUN_BUDGET_MS = 4000; // one-shot: a library stops after this many ms once it has 3 timed runs (a median)
const RUN_LIMIT_MS = 25000; // ... and after this many ms with fewer (fewer runs, noted)
const FRAME_LIMIT_MS = 1500; // same, per motion frame (coherent motion scales about as n^1.5 for the peers)
const MOTION_LIMIT_MS = 20000; // a library stops after this many ms of frames at one size (fewer frames, noted)
const now = () => performance.now();

function stats(times) {
  const s = [...times].sort((a, b) => a - b);
  const mean = s.reduce((x, y) => x + y, 0) / s.length;
  const std = Math.sqrt(s.reduce((x, y) => x + (y - mean) ** 2, 0) / s.length);
  return { median: s[s.length >> 1], mean, std, min: s[0], runs: s.length };
}

function predictSkip(history, n, limit, p1 = 2) {
  // extrapolate from the last two sizes (exponent at least 1), or from one size with exponent p1
  if (history.length === 0) return null;
  const [n1, t1] = history[history.length - 1];
  let p = p1;
  if (history.length > 1) {
    const [n0, t0] = history[history.length - 2];
    p = Math.max(1, Math.log(t1 / t0) / Math.log(n1 / n0));
  }
  const predicted = t1 * (n / n1) ** p;
  return predicted > limit ? `skipped: about ${Math.round(predicted)} ms predicted from n=${n1}` : null;
}

// Ours must match the oracle exactly. Peers that store positions as centers (physics engines) may round a box
// edge across a neighbour's, and prune-juice decides touching boxes by registration order: a difference of at most
// 1 in 10^4 is reported, anything more stops the run.
function checkCount(lib, count, expected, what) {
  if (count === expected) return undefined;
  if (!lib.ours && Math.abs(count - expected) <= 1e-4 * expected) return `${count} pairs vs oracle ${expected} (the peer's float rounding or edge rule)`;
  throw new Error(`${lib.name} ${what}: ${count} pairs, oracle ${expected}`);
}

const results = [];
const file = `${root}tests/bench/results/bench-js.json`;
function save() {
  mkdirSync(`${root}tests/bench/results`, { recursive: true });
  writeFileSync(file, JSON.stringify({ node: process.version, cpu: cpus()[0]?.model, cores: cpus().length, date: new Date().toISOString(), results }, null, 1));
}
const history = new Map(); // workload/library -> [[n, median]]
// workload -> the fastest peer at the last size: never skipped at the next one (the ratio needs it; its run time
// is then capped by the time limits instead)
const fastestPeer = new Map();

function report(workload, n, d, rows) {
  const ours = rows.find((r) => r.ours && r.stats);
  const others = rows.filter((r) => !r.ours && r.stats);
  const fastest = others.reduce((a, r) => (a === null || r.stats.median < a.stats.median ? r : a), null);
  const entry = { workload, n, d, fastest: fastest?.name, speedup: ours && fastest ? fastest.stats.median / ours.stats.median : null, rows };
  if (fastest) fastestPeer.set(workload, fastest.name);
  results.push(entry);
  save(); // after every workload, so a stopped run keeps what it measured
  console.log(`\n${workload}, n=${n}, ${d}D: ${rows.find((r) => r.pairs !== undefined)?.pairs ?? '?'} pairs` +
    (entry.speedup ? `; ${ours.name} is ${entry.speedup.toFixed(1)}x faster than the fastest peer (${fastest.name})` : ''));
  for (const r of rows) {
    const label = r.name.padEnd(24);
    if (!r.stats) { console.log(`  ${label} ${r.note}`); continue; }
    const s = r.stats;
    const ratio = ours ? `${(s.median / ours.stats.median).toFixed(1)}x`.padStart(8) : '';
    console.log(`  ${label} ${s.median.toFixed(3).padStart(10)} ms  ${ratio}   mean ${s.mean.toFixed(3)} ± ${s.std.toFixed(3)}, min ${s.min.toFixed(3)}, ${s.runs} runs${r.note ? '; ' + r.note : ''}`);
  }
}

// One-shot: every timed run moves every box to a fresh random place (alternating two seeded scenes).
function oneShot(workload, sizes, d, make) {
  for (const n of sizes) {
    const scenes = [make(n, 1, 1001), make(n, 1, 1002)]; // the same boxes in two random arrangements
    const expected = scenes.map((s) => oracleCount(s, d));
    const runs = n <= 1e3 ? 21 : n <= 1e4 ? 11 : n <= 1e5 ? 5 : 3;
    const rows = [];
    for (const lib of libraries) {
      if (!lib.dims.includes(d)) continue;
      const key = `${workload}/${lib.name}`;
      const h = history.get(key) ?? [];
      const skip = n > (lib.maxOneShot ?? Infinity) ? `skipped above n=${lib.maxOneShot}`
        : fastestPeer.get(workload) === lib.name ? null : predictSkip(h, n, LIMIT_MS);
      if (skip) { rows.push({ name: lib.name, ours: lib.ours, note: skip }); continue; }
      collectGarbage();
      const state = lib.create(scenes[1], d);
      const times = [];
      let note;
      const start = now();
      for (let r = 0; r <= runs; r++) {
        const which = r % 2 === 0 ? 0 : 1;
        const t0 = now();
        const count = state.run(scenes[which]);
        const t = now() - t0;
        note = checkCount(lib, count, expected[which], `${workload} n=${n}`) ?? note;
        if (r > 0) times.push(t); // run 0 is the warm-up
        const elapsed = now() - start;
        if (times.length >= 3 && elapsed > RUN_BUDGET_MS) { if (r < runs) note = `${times.length} runs (time limit)`; break; }
        if (times.length > 0 && elapsed > RUN_LIMIT_MS) { note = `${times.length} runs (time limit)`; break; }
      }
      state.dispose?.();
      const s = stats(times);
      if (verbose) console.log(`  .. ${lib.name} ${s.median.toFixed(3)} ms`);
      h.push([n, s.median]);
      history.set(key, h);
      rows.push({ name: lib.name, ours: lib.ours, stats: s, pairs: expected[0], note });
    }
    report(workload, n, d, rows);
  }
}

// Coherent motion: the same trajectories for every library; mean ms per frame over 60 frames. Ours run first:
// their per-frame counts, checked against the oracle, are the reference for the peers.
const oursFirst = [...libraries].sort((p, q) => Number(!!q.ours) - Number(!!p.ours));
function motion(workload, sizes, d, filter = () => true, frames = 60, { frameLimit = FRAME_LIMIT_MS, timeLimit = MOTION_LIMIT_MS } = {}) {
  for (const n of sizes) {
    let reference; // per-frame pair counts of the first library, checked against the oracle on two frames
    const rows = [];
    for (const lib of oursFirst) {
      if (!lib.dims.includes(d) || !filter(lib)) continue;
      const key = `${workload}/${lib.name}`;
      const h = history.get(key) ?? [];
      const skip = fastestPeer.get(workload) === lib.name ? null : predictSkip(h, n, frameLimit, 1.5);
      if (skip) { rows.push({ name: lib.name, ours: lib.ours, note: skip }); continue; }
      const m = new Motion(n, d, 7);
      collectGarbage();
      const state = lib.create(m.boxes, d);
      state.run(m.boxes); // warm-up frame
      const times = [];
      const counts = [];
      let note;
      const start = now();
      for (let f = 0; f < frames; f++) {
        if (f > 0 && now() - start > timeLimit) { note = `${f} frames (time limit)`; break; }
        m.step();
        const t0 = now();
        counts.push(state.run(m.boxes));
        times.push(now() - t0);
        if (reference === undefined && (f === 0 || f === frames - 1)) {
          checkCount(lib, counts[f], oracleCount(m.boxes, d), `${workload} n=${n} frame ${f}`);
        }
        // the reference library may have stopped early (time limit): past its frames, the oracle checks the last one
        if (reference !== undefined && f < reference.length) note = checkCount(lib, counts[f], reference[f], `${workload} n=${n} frame ${f}`) ?? note;
        else if (reference !== undefined && f === frames - 1) note = checkCount(lib, counts[f], oracleCount(m.boxes, d), `${workload} n=${n} frame ${f}`) ?? note;
      }
      let bytesPerBox;
      if (state.world) bytesPerBox = state.world.byteCount / n;
      state.dispose?.();
      reference ??= counts;
      if (verbose) console.log(`  .. ${lib.name} ${(times.reduce((x, y) => x + y) / times.length).toFixed(3)} ms per frame`);
      const s = stats(times);
      h.push([n, s.median]); // predictions use the median, robust to collector pauses
      s.median = s.mean; // motion reports the mean per frame
      history.set(key, h);
      rows.push({ name: lib.name, ours: lib.ours, stats: s, pairs: counts[counts.length - 1], note: bytesPerBox ? `${bytesPerBox.toFixed(0)} bytes per box` : note, bytesPerBox });
    }
    report(workload, n, d, rows);
  }
}

const want = (w) => !only || w.includes(only);
console.log(`node ${process.version}, ${cpus().length} cores, ${cpus()[0]?.model}; times in ms; x = time / sweep-prune's time`);
if (want('one-shot uniform 2D')) oneShot('one-shot uniform 2D', quick ? [1e3, 1e4] : [1e3, 1e4, 1e5, 1e6], 2, (n, s, p) => uniform(n, 2, s, p));
if (want('motion 2D')) motion('motion 2D (ms per frame)', quick ? [1e3, 1e4] : [1e3, 1e4, 1e5], 2);
if (want('one-shot clustered 2D')) oneShot('one-shot clustered 2D', quick ? [1e4] : [1e4, 1e5], 2, (n, s, p) => clustered(n, s, p));
if (want('one-shot uniform 3D')) oneShot('one-shot uniform 3D', quick ? [1e4] : [1e4, 1e5], 3, (n, s, p) => uniform(n, 3, s, p));
// prune-juice takes seconds per frame at 10k: it gets a few frames (at least 2) within 30 s instead of a skip
if (want('PruneJuice')) {
  motion('PruneJuice API, motion 2D (ms per frame)', [1e4], 2, (lib) => lib.name.includes('PruneJuice') || lib.name === 'prune-juice', 60,
    { frameLimit: 10000, timeLimit: 30000 });
}

console.log(`\nwrote ${file} (sink ${getSink()})`);
