// npm run bench -- --only=rbush: sweep-prune/rbush against rbush 4.0.1, side by side in one process, on the same
// seeded items. (a) every item moves each frame, then one search per item (detect-collisions' frame): rbush removes
// and inserts each item; sweep-prune/rbush is run both ways, with the same remove and insert, and with update(item).
// (b) rbush's own perf workloads (its bench/perf.js, at 100k items instead of 1M): bulk load, insert one by one,
// 1000 searches of 10%, 1% and 0.01% of the area, removing 1000 one by one. (c) detect-collisions' own frame
// (setPosition of every body, then checkAll) on its bundled rbush and on sweep-prune/rbush. The libraries take turns
// run by run; each run's result counts are compared. Ratios are rbush's time / sweep-prune's.
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import RBushReference from 'rbush';
import { mulberry32 } from './scenes.mjs';
import { median } from './stats.mjs';

let sink = 0;

/** n boxes as rbush's perf.js makes them: in [0, 100]², sides up to `size`, float64 values. */
function genData(n, size, rnd) {
  const data = [];
  for (let i = 0; i < n; i++) {
    const x = rnd() * (100 - size);
    const y = rnd() * (100 - size);
    data.push({ minX: x, minY: y, maxX: x + size * rnd(), maxY: y + size * rnd() });
  }
  return data;
}

/**
 * A game's moving things: n boxes of sides 4 to 12 in a square of 100 units² per box, each with a velocity of up to
 * 1 unit per frame, bouncing off the walls. Each library gets its own copy of the same items.
 */
function movers(n, seed) {
  const rnd = mulberry32(seed);
  const side = Math.sqrt(n * 100);
  const items = [];
  for (let i = 0; i < n; i++) {
    const w = 4 + 8 * rnd();
    const h = 4 + 8 * rnd();
    const x = rnd() * (side - w);
    const y = rnd() * (side - h);
    items.push({ minX: x, minY: y, maxX: x + w, maxY: y + h, vx: 2 * rnd() - 1, vy: 2 * rnd() - 1 });
  }
  return { items, side };
}

function step(items, side) {
  for (const b of items) {
    if (b.minX + b.vx < 0 || b.maxX + b.vx > side) b.vx = -b.vx;
    if (b.minY + b.vy < 0 || b.maxY + b.vy > side) b.vy = -b.vy;
    b.minX += b.vx;
    b.maxX += b.vx;
    b.minY += b.vy;
    b.maxY += b.vy;
  }
}

/** One frame: move every item (as the library wants it told), then search once per item; returns the hits. */
function frame(tree, items, side, move) {
  if (move === 'update') {
    step(items, side);
    for (const b of items) tree.update(b);
  } else {
    for (const b of items) tree.remove(b);
    step(items, side);
    for (const b of items) tree.insert(b);
  }
  let hits = 0;
  for (const b of items) hits += tree.search(b).length;
  return hits;
}

function movingBench(RBush, { quick }) {
  const sizes = quick ? [1e3, 1e4] : [1e3, 1e4, 1e5];
  const rows = [];
  console.log('\n## (a) every item moves, then one search per item (ms per frame; x = rbush / sweep-prune)');
  for (const n of sizes) {
    const frames = n >= 1e5 ? 4 : n >= 1e4 ? 12 : 40;
    const libs = [
      { name: 'rbush', make: () => new RBushReference(), move: 'remove+insert' },
      { name: 'sweep-prune/rbush remove+insert', make: () => new RBush(), move: 'remove+insert' },
      { name: 'sweep-prune/rbush update', make: () => new RBush(), move: 'update' },
    ].map((l) => {
      const { items, side } = movers(n, 42);
      const tree = l.make().load(items);
      frame(tree, items, side, l.move); // warm-up
      return { ...l, tree, items, side, times: [], hits: [] };
    });
    for (let f = 0; f < frames; f++) {
      for (let k = 0; k < libs.length; k++) {
        const l = libs[(f + k) % libs.length];
        const t0 = performance.now();
        l.hits.push(frame(l.tree, l.items, l.side, l.move));
        l.times.push(performance.now() - t0);
      }
    }
    for (const l of libs.slice(1)) {
      if (l.hits.some((h, f) => h !== libs[0].hits[f]))
        throw new Error(`rbush bench n=${n}: ${l.name} found other hits`);
    }
    const [ref, ...ours] = libs.map((l) => median(l.times));
    // each frame's times were taken side by side: their ratio is steadier than the medians' on a busy machine
    const runRatio = (l) => median(l.times.map((t, f) => libs[0].times[f] / t));
    const row = { workload: 'move all + search each', n, hits: libs[0].hits.at(-1), rbush: ref };
    const text = ours.map((t, k) => {
      row[libs[k + 1].name] = t;
      return `${libs[k + 1].name} ${t.toFixed(2)} ms (${(ref / t).toFixed(1)}x; frame by frame ${runRatio(libs[k + 1]).toFixed(1)}x)`;
    });
    row.ratio = ref / ours[1];
    row.ratioRemoveInsert = ref / ours[0];
    row.frameRatio = runRatio(libs[2]);
    row.frameRatioRemoveInsert = runRatio(libs[1]);
    rows.push(row);
    console.log(
      `n=${n.toLocaleString('en')}: rbush ${ref.toFixed(2)} ms, ${text.join(', ')} (medians of ${frames} frames)`,
    );
    for (const l of libs) if (l.tree.dispose) l.tree.dispose();
  }
  return rows;
}

/** rbush's perf.js at n items: each workload run `runs` times per library, taking turns, on fresh trees. */
function perfBench(RBush, { quick }) {
  const n = quick ? 1e4 : 1e5;
  const rnd = mulberry32(7);
  const data = genData(n, 1, rnd);
  const bboxes100 = genData(1000, 100 * Math.sqrt(0.1), rnd);
  const bboxes10 = genData(1000, 10, rnd);
  const bboxes1 = genData(1000, 1, rnd);
  const libs = [
    { name: 'rbush', make: () => new RBushReference(16) },
    { name: 'sweep-prune/rbush', make: () => new RBush(16) },
  ];
  const searches = (boxes) => (tree) => {
    let found = 0;
    for (const b of boxes) found += tree.search(b).length;
    return found;
  };
  // each workload: set-up (untimed) and the timed part, which returns a count both libraries must agree on. rbush
  // builds its tree in load and insert; sweep-prune/rbush brings its index up to date at the first query after
  // them: so loading and inserting are timed with one query after, and the searches on a tree already queried once.
  const built = (tree) => (tree.collides(bboxes1[0]), tree);
  const workloads = [
    { name: 'bulk load, then a query', setup: (l) => l.make(), run: (tree) => tree.load(data).collides(bboxes1[0]) },
    {
      name: 'insert one by one, then a query',
      setup: (l) => l.make(),
      run: (tree) => {
        for (let i = 0; i < n; i++) tree.insert(data[i]);
        return tree.collides(bboxes1[0]);
      },
    },
    { name: '1000 searches 10% after load', setup: (l) => built(l.make().load(data)), run: searches(bboxes100) },
    { name: '1000 searches 1% after load', setup: (l) => built(l.make().load(data)), run: searches(bboxes10) },
    { name: '1000 searches 0.01% after load', setup: (l) => built(l.make().load(data)), run: searches(bboxes1) },
    {
      name: '1000 searches 0.01% after inserts',
      setup: (l) => {
        const tree = l.make();
        for (const d of data) tree.insert(d);
        return built(tree);
      },
      run: searches(bboxes1),
    },
    {
      name: 'remove 1000 one by one, then a search',
      setup: (l) => built(l.make().load(data)),
      run: (tree) => {
        for (let i = 0; i < 1000; i++) tree.remove(data[i]);
        return tree.search(bboxes10[0]).length;
      },
    },
  ];
  const runs = quick ? 3 : 7;
  const rows = [];
  console.log(`\n## (b) rbush's perf workloads at ${n.toLocaleString('en')} items (ms; x = rbush / sweep-prune)`);
  for (const w of workloads) {
    const times = libs.map(() => []);
    let want;
    for (let r = 0; r <= runs; r++) {
      for (let k = 0; k < libs.length; k++) {
        const l = (r + k) % libs.length;
        const tree = w.setup(libs[l]);
        globalThis.gc?.();
        const t0 = performance.now();
        const got = w.run(tree);
        const t = performance.now() - t0;
        if (r > 0) times[l].push(t);
        if (want !== undefined && got !== want) throw new Error(`rbush bench ${w.name}: ${got} vs ${want}`);
        want = got;
        sink += tree.all().length;
        tree.dispose?.();
      }
    }
    const [ref, ours] = times.map(median);
    const runRatio = median(times[1].map((t, r) => times[0][r] / t));
    rows.push({ workload: w.name, n, rbush: ref, ours, ratio: ref / ours, runRatio });
    console.log(
      `${w.name}: rbush ${ref.toFixed(1)} ms, sweep-prune/rbush ${ours.toFixed(1)} ms, ${(ref / ours).toFixed(1)}x ` +
        `(medians of ${runs}; run by run ${runRatio.toFixed(1)}x)`,
    );
  }
  return rows;
}

/**
 * detect-collisions 9.27.6 twice: as published, and a second copy whose bundled rbush (dist/external/rbush.js, which
 * its System extends) is sweep-prune/rbush, as tests/js/rbush/detect-collisions.test.ts loads it.
 */
function detectCollisionsBoth(RBush) {
  const require = createRequire(import.meta.url);
  const dist = dirname(require.resolve('detect-collisions'));
  const own = require('detect-collisions');
  for (const key of Object.keys(require.cache)) if (key.startsWith(dist + sep)) delete require.cache[key];
  require.cache[join(dist, 'external', 'rbush.js')] = { exports: { __esModule: true, default: RBush }, loaded: true };
  return { own, ours: require('detect-collisions') };
}

/**
 * (c) detect-collisions' own frame on both: n circles (radius 2 to 6, 100 units² each) moved with setPosition (its
 * System removes and inserts each), then checkAll (a search per body, then its SAT test per candidate).
 */
function detectCollisionsBench(RBush, { quick }) {
  const { own, ours } = detectCollisionsBoth(RBush);
  const sizes = quick ? [1e3] : [1e3, 1e4];
  const rows = [];
  console.log("\n## (c) detect-collisions' System: every circle moved, then checkAll (ms per frame)");
  for (const n of sizes) {
    const frames = n >= 1e4 ? 10 : 30;
    const libs = [
      { name: 'detect-collisions', lib: own },
      { name: 'detect-collisions on sweep-prune/rbush', lib: ours },
    ].map((l) => {
      const rnd = mulberry32(5);
      const side = Math.sqrt(n * 100);
      const system = new l.lib.System();
      const bodies = Array.from({ length: n }, () => {
        const body = system.createCircle({ x: rnd() * side, y: rnd() * side }, 2 + 4 * rnd());
        return { body, vx: 2 * rnd() - 1, vy: 2 * rnd() - 1 };
      });
      return { ...l, system, bodies, side, times: [], hits: [] };
    });
    const frame = (l) => {
      for (const b of l.bodies) {
        const { x, y } = b.body.pos;
        if (x + b.vx < 0 || x + b.vx > l.side) b.vx = -b.vx;
        if (y + b.vy < 0 || y + b.vy > l.side) b.vy = -b.vy;
        b.body.setPosition(x + b.vx, y + b.vy);
      }
      let hits = 0;
      l.system.checkAll(() => {
        hits++;
      });
      return hits;
    };
    for (const l of libs) frame(l); // warm-up
    for (let f = 0; f < frames; f++) {
      for (let k = 0; k < libs.length; k++) {
        const l = libs[(f + k) % libs.length];
        const t0 = performance.now();
        l.hits.push(frame(l));
        l.times.push(performance.now() - t0);
      }
    }
    if (libs[1].hits.some((h, f) => h !== libs[0].hits[f])) throw new Error(`detect-collisions n=${n}: other hits`);
    const [ref, ours2] = libs.map((l) => median(l.times));
    const frameRatio = median(libs[1].times.map((t, f) => libs[0].times[f] / t));
    rows.push({
      workload: 'detect-collisions checkAll',
      n,
      hits: libs[0].hits.at(-1),
      rbush: ref,
      ours: ours2,
      ratio: ref / ours2,
      frameRatio,
    });
    console.log(
      `n=${n.toLocaleString('en')} (${libs[0].hits.at(-1)} collisions): detect-collisions ${ref.toFixed(2)} ms, on sweep-prune/rbush ` +
        `${ours2.toFixed(2)} ms, ${(ref / ours2).toFixed(1)}x (frame by frame ${frameRatio.toFixed(1)}x; medians of ${frames} frames)`,
    );
    for (const l of libs) l.system.dispose?.();
  }
  return rows;
}

/** The three parts; returns their rows and a sink of the results. */
export function rbushBench(RBush, { quick = false } = {}) {
  const rows = [
    ...movingBench(RBush, { quick }),
    ...perfBench(RBush, { quick }),
    ...detectCollisionsBench(RBush, { quick }),
  ];
  return { rows, sink };
}
