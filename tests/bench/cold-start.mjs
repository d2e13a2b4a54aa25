// npm run bench -- --only=cold: from nothing to the first pairs through the JS API: a new World (without events:
// all pairs once), every box added, one update. World.addBoxes (one call into wasm) against the textbook
// box-pruning reference (tests/bench/box_pruning.c) compiled to wasm with the engine's flags, the boxes copied in
// from the same Float32Array, taking turns run by run; then addBoxes against addBox per box, the same way.
// Natively and in wasm from C: `npm run bench:c -- "cold start 2D"`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { uniform } from './scenes.mjs';
import { median } from './stats.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

// box_pruning.c as a standalone module, with the flags the engine's module is compiled with (CMakeLists.txt),
// compiled again when the source is newer than the module
function loadReference() {
  const source = `${root}tests/bench/box_pruning.c`;
  const out = `${root}build/bench/box_pruning.wasm`;
  let stale = true;
  try {
    stale = statSync(out).mtimeMs < statSync(source).mtimeMs;
  } catch {}
  if (stale) {
    mkdirSync(`${root}build/bench`, { recursive: true });
    execFileSync('emcc', [
      ...['-O3', '-msimd128', '-mbulk-memory', '-DNDEBUG', '-ffp-contract=off', '--no-entry', '-sSTANDALONE_WASM'],
      ...['-sALLOW_MEMORY_GROWTH', '-sINITIAL_MEMORY=16MB', '-sTOTAL_STACK=64KB', '-sMAXIMUM_MEMORY=2GB'],
      ...['-sEXPORTED_FUNCTIONS=_BoxPruning,_malloc,_free', source, '-o', out],
    ]);
  }
  const module = new WebAssembly.Module(readFileSync(out));
  // the module's imports (abort, memory growth) are never reached but must be given
  const imports = {};
  for (const { module: m, name, kind } of WebAssembly.Module.imports(module)) {
    if (kind !== 'function') throw new Error(`box_pruning.wasm imports a ${kind}: ${m}.${name}`);
    (imports[m] ??= {})[name] = () => {
      if (name !== 'emscripten_notify_memory_growth') throw new Error(`box_pruning.wasm called ${m}.${name}`);
    };
  }
  const { exports } = new WebAssembly.Instance(module, imports);
  exports._initialize?.();
  return exports;
}

// The reference from nothing to its pairs in wasm memory: the boxes copied in, sorted and swept. Returns the pair
// count; its memory is freed after the clock stops, as the world's is disposed of.
function runReference(ref, flat, n) {
  const bounds = ref.malloc(flat.byteLength);
  new Float32Array(ref.memory.buffer, bounds, flat.length).set(flat);
  const out = ref.malloc(8); // the pair list's pointer and capacity
  new Int32Array(ref.memory.buffer, out, 2).fill(0);
  const count = ref.BoxPruning(bounds, n, 2, out, out + 4);
  return { count, release: () => [new Int32Array(ref.memory.buffer, out, 1)[0], out, bounds].forEach(ref.free) };
}

// Two ways taking turns run by run, after `warm` untimed rounds: the medians of each way's times, and the median
// of each round's ratio (second way's time over the first's). `run(way)` times one run and returns its pair count.
function alternate(run, warm, runs) {
  const times = [[], []];
  const counts = new Set();
  for (let r = 1 - warm; r <= runs; r++) {
    for (let k = 0; k < 2; k++) {
      const way = (r + warm + k) % 2;
      const { t, count } = run(way);
      counts.add(count);
      if (r > 0) times[way].push(t);
    }
  }
  return {
    counts,
    medians: times.map(median),
    runRatio: median(times[0].map((t, r) => times[1][r] / t)),
  };
}

// A new World, its boxes added (by `add`), one update: the time and the pair count.
function coldStart(sp, add) {
  const t0 = performance.now();
  const w = new sp.World({ dimensions: 2, events: false });
  add(w);
  w.update();
  const t = performance.now() - t0;
  const count = w.pairCount;
  w.dispose();
  return { t, count };
}

export function coldStartBench(sp, { quick = false } = {}) {
  const sizes = quick ? [1e4, 1e5] : [1e4, 1e5, 1e6];
  console.log('\n## cold start 2D through the JS API: new World, add every box, one update (ms)');
  const rows = [];
  const ref = loadReference();
  for (const n of sizes) {
    const flat = new Float32Array(uniform(n, 2, 1, 1001));
    const runs = n <= 1e4 ? 31 : n <= 1e5 ? 9 : 3;
    // untimed rounds first: V8 compiles wasm with its baseline compiler and swaps in optimised code only once a
    // function has run enough, so the first small runs time the baseline code (of either side)
    const warm = n <= 1e4 ? 40 : 2;
    const bulk = (w) => w.addBoxes(flat);
    // against the reference: the two alone, turn by turn (nothing else runs between them)
    const vsReference = alternate(
      (way) => {
        if (way === 0) return coldStart(sp, bulk);
        const t0 = performance.now();
        const { count, release } = runReference(ref, flat, n);
        const t = performance.now() - t0;
        release();
        return { t, count };
      },
      warm,
      runs,
    );
    // against addBox per box (its garbage, two views a box, is collected whenever V8 collects it: a forced full
    // collection around its runs made them four times slower, shrinking the young generation)
    const vsSingle = alternate(
      (way) =>
        way === 0
          ? coldStart(sp, bulk)
          : coldStart(sp, (w) => {
              for (let i = 0; i < n; i++)
                w.addBox(flat.subarray(4 * i, 4 * i + 2), flat.subarray(4 * i + 2, 4 * i + 4));
            }),
      Math.min(warm, 10),
      runs,
    );
    const counts = new Set([...vsReference.counts, ...vsSingle.counts]);
    if (counts.size !== 1) throw new Error(`cold start n=${n}: the three ways found different pair counts`);
    const [bulkTime, reference] = vsReference.medians;
    const [bulkTime2, single] = vsSingle.medians;
    rows.push({
      n,
      bulk: bulkTime,
      single,
      ratio: single / bulkTime2,
      runRatio: vsSingle.runRatio,
      reference,
      referenceRatio: reference / bulkTime,
      referenceRunRatio: vsReference.runRatio,
    });
    console.log(
      `n=${n.toLocaleString('en')}: addBoxes ${bulkTime.toFixed(2)} ms, box pruning reference (wasm) ` +
        `${reference.toFixed(2)} ms, ${(reference / bulkTime).toFixed(2)}x (run by run ` +
        `${vsReference.runRatio.toFixed(2)}x); addBox per box ${single.toFixed(1)} ms, ` +
        `${(single / bulkTime2).toFixed(2)}x addBoxes' ${bulkTime2.toFixed(2)} ms (run by run ` +
        `${vsSingle.runRatio.toFixed(2)}x); medians of ${runs}`,
    );
  }
  return rows;
}
