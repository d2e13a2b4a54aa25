// npm run bench [-- --quick] [-- --only=motion]: every library on the same seeded scenes, in one process, the
// libraries taking turns run by run (see takeTurns).
// Prints the median ms per run (one-shot) or per frame (motion), mean±std and min, and each library's time as a
// multiple of sweep-prune's; writes tests/bench/results/bench-js.json. Every run's pair count is checked.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { compileWrapper, importWrapper } from './compile.mjs';
import { Motion, clustered, oracleCount, uniform } from './scenes.mjs';
import { consume, getSink, initPeers, peers } from './peers.mjs';
import { benchMatter } from './matter.mjs';
import { benchPlanck } from './planck.mjs';
import { boxIntersectBench, boxIntersectMeshBench } from './box-intersect.mjs';
import { coldStartBench } from './cold-start.mjs';
import { rbushBench } from './rbush.mjs';
import { queriesBench } from './queries.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const verbose = args.includes('--verbose');
const only = args.find((a) => a.startsWith('--only='))?.slice(7);

compileWrapper([
  'index.ts',
  'adapters/matter/index.ts',
  'adapters/phaser/index.ts',
  'adapters/planck/index.ts',
  'box-intersect.ts',
]);
const sp = await importWrapper('index.js');
await sp.init();
await initPeers();
const PruneJuiceOriginal = createRequire(import.meta.url)('@b3gm/prune-juice').default;
const libraries = peers(sp, PruneJuiceOriginal);

// A full garbage collection before each library's set-up (node --expose-gc, as `npm run bench` starts it), so that
// the garbage of the sizes and workloads before (up to a million boxes' worth of objects) is not collected during
// the timed runs. Not before each run: a forced full collection also shrinks V8's young generation, and the
// peers that allocate then pay for many more collections (measured: flatbush 4x slower).
const collectGarbage = globalThis.gc ?? (() => {});

const LIMIT_MS = 8000; // a library whose next size is predicted slower than this per run is skipped
const RUN_BUDGET_MS = 4000; // one-shot: a library stops after this many ms once it has 3 timed runs (a median)
const RUN_LIMIT_MS = 25000; // ... and after this many ms with fewer (fewer runs, noted)
// same, per motion frame: coherent motion scales about as n^1.5 for the peers, or worse (their fixed costs make the
// exponent from 1k to 10k look smaller), so the extrapolation takes an exponent of at least 1.5
const FRAME_LIMIT_MS = 1500;
const MOTION_LIMIT_MS = 20000; // a library stops after this many ms of frames at one size (fewer frames, noted)
const now = () => performance.now();

function stats(times) {
  const s = [...times].sort((a, b) => a - b);
  const mean = s.reduce((x, y) => x + y, 0) / s.length;
  const std = Math.sqrt(s.reduce((x, y) => x + (y - mean) ** 2, 0) / s.length);
  return { median: s[s.length >> 1], mean, std, min: s[0], runs: s.length };
}

function predictSkip(history, n, limit, p1 = 2, pMin = 1) {
  // extrapolate from the last two sizes (exponent at least pMin), or from one size with exponent p1
  if (history.length === 0) return null;
  const [n1, t1] = history[history.length - 1];
  let p = p1;
  if (history.length > 1) {
    const [n0, t0] = history[history.length - 2];
    p = Math.max(pMin, Math.log(t1 / t0) / Math.log(n1 / n0));
  }
  const predicted = t1 * (n / n1) ** p;
  return predicted > limit ? `skipped: about ${Math.round(predicted)} ms predicted from n=${n1}` : null;
}

// Ours must match the oracle exactly. Peers that store positions as centers (physics engines) may round a box
// edge across a neighbour's, and prune-juice decides touching boxes by registration order: a difference of at most
// 1 in 10^4 is reported, anything more stops the run.
function checkCount(lib, count, expected, what) {
  if (count === expected) return undefined;
  if (!lib.ours && Math.abs(count - expected) <= 1e-4 * expected)
    return `${count} pairs vs oracle ${expected} (the peer's float rounding or edge rule)`;
  throw new Error(`${lib.name} ${what}: ${count} pairs, oracle ${expected}`);
}

const results = [];
const file = `${root}tests/bench/results/bench-js.json`;
function save() {
  mkdirSync(`${root}tests/bench/results`, { recursive: true });
  writeFileSync(
    file,
    JSON.stringify(
      { node: process.version, cpu: cpus()[0]?.model, cores: cpus().length, date: new Date().toISOString(), results },
      null,
      1,
    ),
  );
}
const history = new Map(); // workload/library -> [[n, ms]]: one-shot the fastest run, motion the median frame
// workload -> the fastest peer at the last size: never skipped at the next one (the ratio needs it; its run time
// is then capped by the time limits instead)
const fastestPeer = new Map();

function report(workload, n, d, rows) {
  const ours = rows.find((r) => r.ours && r.stats);
  const others = rows.filter((r) => !r.ours && r.stats);
  const fastest = others.reduce((a, r) => (a === null || r.stats.median < a.stats.median ? r : a), null);
  const entry = {
    workload,
    n,
    d,
    fastest: fastest?.name,
    speedup: ours && fastest ? fastest.stats.median / ours.stats.median : null,
    rows,
  };
  if (fastest) fastestPeer.set(workload, fastest.name);
  results.push(entry);
  save(); // after every workload, so a stopped run keeps what it measured
  console.log(
    `\n${workload}, n=${n}, ${d}D: ${rows.find((r) => r.pairs !== undefined)?.pairs ?? '?'} pairs` +
      (entry.speedup
        ? `; ${ours.name} is ${entry.speedup.toFixed(1)}x faster than the fastest peer (${fastest.name})`
        : ''),
  );
  for (const r of rows) {
    const label = r.name.padEnd(24);
    if (!r.stats) {
      console.log(`  ${label} ${r.note}`);
      continue;
    }
    const s = r.stats;
    const ratio = ours ? `${(s.median / ours.stats.median).toFixed(1)}x`.padStart(8) : '';
    console.log(
      `  ${label} ${s.median.toFixed(3).padStart(10)} ms  ${ratio}   mean ${s.mean.toFixed(3)} ± ${s.std.toFixed(3)}, min ${s.min.toFixed(3)}, ${s.runs} runs${r.note ? '; ' + r.note : ''}`,
    );
  }
}

// Libraries take turns: run r (or frame r) of every library, then run r + 1 of every library, starting each turn
// with the next library. This machine's speed swings by up to 2x over seconds (other tenants of the host), so
// libraries timed one after another, each in a block of runs, could land in different phases and the ratio would
// measure the machine; taking turns puts every library's runs in the same phases. A library stops taking turns at
// its own time limits: `each(entry, r)` runs its turn and returns false to stop. `afterTurn(r)` runs after each.
function takeTurns(entries, turns, each, afterTurn = () => {}) {
  const active = [...entries];
  for (let r = 0; r < turns && active.length > 0; r++) {
    for (let k = 0; k < active.length; k++) {
      const e = active[(r + k) % active.length];
      if (each(e, r) === false) e.stopped = true;
    }
    afterTurn(r);
    for (let k = active.length - 1; k >= 0; k--) if (active[k].stopped) active.splice(k, 1);
  }
}

// One-shot: every timed run moves every box to a fresh random place (alternating two seeded scenes).
function oneShot(workload, sizes, d, make) {
  for (const n of sizes) {
    const scenes = [make(n, 1, 1001), make(n, 1, 1002)]; // the same boxes in two random arrangements
    const expected = scenes.map((s) => oracleCount(s, d));
    const runs = n <= 1e3 ? 21 : n <= 1e4 ? 11 : n <= 1e5 ? 5 : 3;
    const rows = [];
    const entries = [];
    for (const lib of libraries) {
      if (!lib.dims.includes(d)) continue;
      const key = `${workload}/${lib.name}`;
      const h = history.get(key) ?? [];
      const skip =
        n > (lib.maxOneShot ?? Infinity)
          ? `skipped above n=${lib.maxOneShot}`
          : fastestPeer.get(workload) === lib.name
            ? null
            : predictSkip(h, n, LIMIT_MS);
      const row = { name: lib.name, ours: lib.ours };
      rows.push(row);
      if (skip) {
        row.note = skip;
        continue;
      }
      collectGarbage();
      entries.push({ lib, row, h, state: lib.create(scenes[1], d), times: [], elapsed: 0, note: undefined });
    }
    // run 0 is every library's warm-up
    takeTurns(entries, runs + 1, (e, r) => {
      const which = r % 2 === 0 ? 0 : 1;
      const t0 = now();
      const count = e.state.run(scenes[which]);
      const t = now() - t0;
      e.note = checkCount(e.lib, count, expected[which], `${workload} n=${n}`) ?? e.note;
      if (r > 0) e.times.push(t);
      e.elapsed += t;
      if (e.times.length >= 3 && e.elapsed > RUN_BUDGET_MS) {
        if (r < runs) e.note = `${e.times.length} runs (time limit)`;
        return false;
      }
      if (e.times.length > 0 && e.elapsed > RUN_LIMIT_MS) {
        e.note = `${e.times.length} runs (time limit)`;
        return false;
      }
      return true;
    });
    for (const e of entries) {
      e.state.dispose?.();
      const s = stats(e.times);
      if (verbose) console.log(`  .. ${e.lib.name} ${s.median.toFixed(3)} ms`);
      // predictions use the fastest run: with 3 to 5 runs, one or two collector pauses can double a peer's
      // median (flatbush once read 1583 ms at 100k, min 335 ms), which would skip it at the next size
      e.h.push([n, s.min]);
      history.set(`${workload}/${e.lib.name}`, e.h);
      Object.assign(e.row, { stats: s, pairs: expected[0], note: e.note });
    }
    report(workload, n, d, rows);
  }
}

// Coherent motion: the same trajectories for every library (each moves its own copy of the scene); mean ms per
// frame over 60 frames. sweep-prune's per-frame counts, checked against the oracle on the first and last frames,
// are the reference for the peers' counts.
function motion(
  workload,
  sizes,
  d,
  filter = () => true,
  frames = 60,
  { frameLimit = FRAME_LIMIT_MS, timeLimit = MOTION_LIMIT_MS } = {},
) {
  for (const n of sizes) {
    const rows = [];
    const entries = [];
    for (const lib of libraries) {
      if (!lib.dims.includes(d) || !filter(lib)) continue;
      const key = `${workload}/${lib.name}`;
      const h = history.get(key) ?? [];
      const skip = fastestPeer.get(workload) === lib.name ? null : predictSkip(h, n, frameLimit, 1.5, 1.5);
      const row = { name: lib.name, ours: lib.ours };
      rows.push(row);
      if (skip) {
        row.note = skip;
        continue;
      }
      const m = new Motion(n, d, 7);
      collectGarbage();
      const state = lib.create(m.boxes, d);
      state.run(m.boxes); // warm-up frame
      entries.push({ lib, row, h, m, state, times: [], counts: [], elapsed: 0, note: undefined });
    }
    const reference = entries.find((e) => e.lib.ours);
    const each = (e, f) => {
      e.m.step();
      const t0 = now();
      e.counts.push(e.state.run(e.m.boxes));
      const t = now() - t0;
      e.times.push(t);
      e.elapsed += t;
      if (f + 1 < frames && e.elapsed > timeLimit) {
        e.note = `${f + 1} frames (time limit)`;
        return false;
      }
      return true;
    };
    // after each turn: the reference against the oracle on the first and last frames, the others against it
    const check = (f) => {
      const boxes = entries.find((e) => e.counts.length === f + 1)?.m.boxes;
      let oracle;
      const expect = () => (oracle ??= oracleCount(boxes, d));
      for (const e of entries) {
        if (e.counts.length !== f + 1) continue;
        const count = e.counts[f];
        if (e === reference || reference === undefined || reference.counts.length <= f) {
          // the reference checks itself on the first and last frames; a library past the reference's frames too
          if (f === 0 || f === frames - 1 || e.stopped)
            e.note = checkCount(e.lib, count, expect(), `${workload} n=${n} frame ${f}`) ?? e.note;
        } else {
          e.note = checkCount(e.lib, count, reference.counts[f], `${workload} n=${n} frame ${f}`) ?? e.note;
        }
      }
    };
    takeTurns(entries, frames, each, check);
    for (const e of entries) {
      const bytesPerBox = e.state.world ? e.state.world.byteCount / n : undefined;
      e.state.dispose?.();
      if (verbose)
        console.log(`  .. ${e.lib.name} ${(e.times.reduce((x, y) => x + y) / e.times.length).toFixed(3)} ms per frame`);
      const s = stats(e.times);
      e.h.push([n, s.median]); // predictions use the median, robust to collector pauses
      s.median = s.mean; // motion reports the mean per frame
      history.set(`${workload}/${e.lib.name}`, e.h);
      Object.assign(e.row, {
        stats: s,
        pairs: e.counts[e.counts.length - 1],
        note: bytesPerBox ? `${bytesPerBox.toFixed(0)} bytes per box` : e.note,
        bytesPerBox,
      });
    }
    report(workload, n, d, rows);
  }
}

const want = (w) => !only || w.includes(only);
console.log(
  `node ${process.version}, ${cpus().length} cores, ${cpus()[0]?.model}; times in ms; x = time / sweep-prune's time`,
);
if (want('one-shot uniform 2D'))
  oneShot('one-shot uniform 2D', quick ? [1e3, 1e4] : [1e3, 1e4, 1e5, 1e6], 2, (n, s, p) => uniform(n, 2, s, p));
if (want('motion 2D')) motion('motion 2D (ms per frame)', quick ? [1e3, 1e4] : [1e3, 1e4, 1e5], 2);
if (want('one-shot clustered 2D'))
  oneShot('one-shot clustered 2D', quick ? [1e4] : [1e4, 1e5], 2, (n, s, p) => clustered(n, s, p));
if (want('one-shot uniform 3D'))
  oneShot('one-shot uniform 3D', quick ? [1e4] : [1e4, 1e5], 3, (n, s, p) => uniform(n, 3, s, p));
// prune-juice takes seconds per frame at 10k: it gets a few frames (at least 2) within 30 s instead of a skip
if (want('PruneJuice')) {
  motion(
    'PruneJuice API, motion 2D (ms per frame)',
    [1e4],
    2,
    (lib) => lib.name.includes('PruneJuice') || lib.name === 'prune-juice',
    60,
    { frameLimit: 10000, timeLimit: 30000 },
  );
}
// the physics engines' broadphases (--only=p2 or --only=cannon for one engine)
if (want('p2-es') || want('cannon-es')) await (await import('./physics-p2-cannon.mjs')).runPhysics({ only, quick });
// physics engines stepped with their own broadphase and with sweep-prune's adapter (tests/bench/matter.mjs)
if (want('matter')) {
  results.push({
    workload: 'matter-js',
    rows: benchMatter(await importWrapper('adapters/matter/index.js'), { quick }),
  });
  save();
}
// planck stepped with its own BroadPhase and with sweep-prune/planck (tests/bench/planck.mjs)
if (want('planck')) {
  results.push({
    workload: 'planck',
    rows: await benchPlanck(await importWrapper('adapters/planck/index.js'), { quick }),
  });
  save();
}
// Phaser's Arcade Physics stepped with its own tree, without it, and on sweep-prune/phaser: scenes as its official
// examples build them (tests/bench/phaser-examples.mjs), then the scaling scenes (tests/bench/phaser.mjs)
if (want('phaser')) {
  const { benchPhaserExamples } = await import('./phaser-examples.mjs');
  results.push({ workload: 'phaser arcade examples', rows: await benchPhaserExamples({ quick }) });
  save();
  const { benchPhaser } = await import('./phaser.mjs');
  results.push({ workload: 'phaser arcade', rows: await benchPhaser({ quick }) });
  save();
}
// box-intersect on uniform boxes, then on a mesh's triangles (alone: npm run bench -- --only=mesh)
if (want('box-intersect uniform')) {
  const { boxIntersect } = await importWrapper('box-intersect.js');
  results.push({ workload: 'box-intersect drop-in', rows: boxIntersectBench(boxIntersect, { quick }) });
  save();
}
if (want('box-intersect mesh')) {
  const { boxIntersect } = await importWrapper('box-intersect.js');
  results.push({ workload: 'box-intersect mesh', rows: boxIntersectMeshBench(boxIntersect, { quick }) });
  save();
}
// sweep-prune/rbush against rbush: moving items searched each frame, then rbush's own perf workloads (--only=rbush)
if (want('rbush')) {
  compileWrapper(['rbush.ts']);
  const { default: RBush } = await importWrapper('rbush.js');
  const r = rbushBench(RBush, { quick });
  results.push({ workload: 'rbush drop-in', rows: r.rows });
  consume(r.sink);
  save();
}
if (want('cold start 2D')) {
  results.push({ workload: 'cold start 2D (JS API)', rows: coldStartBench(sp, { quick }) });
  save();
}
// the queries: nearest against flatbush, first hits against full rays (alone: npm run bench -- --only=nearest)
if (want('nearest')) {
  const q = queriesBench(sp, { quick });
  results.push(...q.results);
  consume(q.sink);
  save();
}

// the engine against its module at an earlier commit (tests/bench/engine-baseline.mjs; alone: --only=engine)
if (want('engine')) {
  const { benchEngineBaseline } = await import('./engine-baseline.mjs');
  results.push({ workload: 'engine against its baseline', rows: await benchEngineBaseline({ quick }) });
  save();
}

// sweep-prune/threads: 2 threads over 1, and the threaded build over the single-threaded one (tests/bench/threads.mjs)
if (want('threads')) {
  const { threadsBench } = await import('./threads.mjs');
  const threads = Number(args.find((a) => a.startsWith('--threads='))?.slice(10) ?? 2);
  results.push({ workload: 'threads', rows: await threadsBench(sp, { quick, threads }) });
  save();
}

console.log(`\nwrote ${file} (sink ${getSink()})`);
