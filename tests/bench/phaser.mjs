// npm run bench -- --only=phaser: Arcade Physics' World.update (the whole step: bodies moved, the tree, the colliders)
// with Phaser's own tree, with `useTree: false`, and on sweep-prune/phaser, at 1 000 to 40 000 dynamic bodies (8 x 8
// in a 6400 x 4800 world, as Phaser's "10000 World Bodies" examples). Each scene and size gets three identical
// games, one per mode, that take turns step by step (forward and backward in turn), each step after a minor garbage
// collection (so that a step pays for its own garbage, not for the garbage of the one before it); each scene runs in
// a process of its own.
// Printed per row: the median ms per step of each mode; ours against the faster of Phaser's two modes (the ratio of
// the medians, and the median of the step-by-step ratio); the share of Phaser's tree-mode step spent in its RTree
// (clear, load, search); and the ratio a broadphase costing nothing would reach: the faster mode over the rest of our
// step (our step without the time in the sweep-prune index: Phaser's own work and the loops' glue). The real phaser package from npm, in Node on
// its HEADLESS renderer (web/scripts/phaser-headless.mjs). A mode predicted slower than LIMIT_MS per step from the
// size before is skipped, and one slower than SLOW_MS per step runs fewer steps; the overlap scene's callbacks are
// counted in every mode and must agree. PHASER_SCENE=<part of a scene's name> runs only the scenes it names.
// On its own: `node tests/bench/phaser.mjs [--quick]` (after web/scripts/setup.sh has built the wasm).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createGame, loadPhaser } from '../../web/scripts/phaser-headless.mjs';
import { compileWrapper, importWrapper } from './compile.mjs';
import { median } from './stats.mjs';

const W = 6400;
const H = 4800;
const SIZES = [1000, 5000, 10000, 40000];
const MODES = ['tree', 'no tree', 'sweep-prune'];
const LIMIT_MS = 120000; // a mode predicted slower than this per step is not run
const SLOW_MS = 1500; // a mode slower than this per step runs SLOW_STEPS timed steps
const SLOW_STEPS = 2;
const ONE_STEP_MS = 20000; // and one slower than this, a single step
const ENEMIES = 300;
const now = () => performance.now();
const minorGc = globalThis.gc ? () => globalThis.gc({ type: 'minor' }) : () => {};

/** Seeded scene builders: `build(scene, n, random, counter)` adds n dynamic bodies and the scene's colliders. */
const scenes = {
  'bullets vs 300 enemies, overlap(bullets, enemies)': (scene, n, random, counter) => {
    const bullets = scene.physics.add.group();
    const enemies = scene.physics.add.group();
    for (let i = 0; i < n; i++) {
      const enemy = i < ENEMIES;
      const r = scene.add.rectangle(random() * W, random() * H, enemy ? 24 : 8, enemy ? 24 : 8);
      (enemy ? enemies : bullets).add(r);
      const speed = enemy ? 60 : 400;
      r.body.setVelocity((random() - 0.5) * speed, (random() - 0.5) * speed).setCollideWorldBounds(true);
      r.body.setBounce(1, 1);
    }
    scene.physics.add.overlap(bullets, enemies, () => counter.count++);
  },
  'swarm as two groups, collider(g1, g2)': (scene, n, random) => {
    const groups = [scene.physics.add.group(), scene.physics.add.group()];
    for (let i = 0; i < n; i++) swarmer(scene, groups[i & 1], random);
    scene.physics.add.collider(groups[0], groups[1]);
  },
  'swarm as one group, collider(group)': (scene, n, random) => {
    const group = scene.physics.add.group();
    for (let i = 0; i < n; i++) swarmer(scene, group, random);
    scene.physics.add.collider(group);
  },
  'no collider': (scene, n, random) => {
    const group = scene.physics.add.group();
    for (let i = 0; i < n; i++) swarmer(scene, group, random);
  },
};

function swarmer(scene, group, random) {
  const r = scene.add.rectangle(random() * W, random() * H, 8, 8);
  group.add(r);
  r.body
    .setVelocity((random() - 0.5) * 200, (random() - 0.5) * 200)
    .setCollideWorldBounds(true)
    .setBounce(1, 1);
}

export function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function makeWorld(Phaser, build, n, mode, usePhaserArcade) {
  const counter = { count: 0 };
  const { game, scene } = await createGame(Phaser, {
    physics: { default: 'arcade', arcade: { useTree: mode !== 'no tree', width: W, height: H } },
    create: (s) => {
      s.physics.world.setBounds(0, 0, W, H);
      build(s, n, mulberry32(n), counter);
    },
  });
  const world = scene.physics.world;
  const handle = mode === 'sweep-prune' ? usePhaserArcade(world) : undefined;
  return { mode, game, world, handle, counter, step: timedStep(world), times: [], done: false };
}

/**
 * One 60 Hz step of an Arcade world as the benches time it: `before` (the scene's update) first, then a minor
 * collection, then `World.update` alone timed (ms returned), then `postUpdate`.
 */
export function timedStep(world, before) {
  let time = 0;
  return () => {
    before?.();
    minorGc(); // each step pays for its own garbage, not for the garbage of the game that stepped before it
    const t = now();
    world.update(time, 1000 / 60);
    const ms = now() - t;
    world.postUpdate();
    time += 1000 / 60;
    return ms;
  };
}

// time spent in `fns` of `object` while `run` runs
function timeInside(object, names, run) {
  const saved = names.map((name) => [name, Object.getOwnPropertyDescriptor(object, name)]);
  let inside = 0;
  let depth = 0;
  for (const name of names) {
    const fn = object[name];
    object[name] = function (...args) {
      if (depth++ > 0) {
        try {
          return fn.apply(this, args);
        } finally {
          depth--;
        }
      }
      const t = now();
      try {
        return fn.apply(this, args);
      } finally {
        inside += now() - t;
        depth--;
      }
    };
  }
  try {
    run();
  } finally {
    for (const [name, d] of saved) {
      if (d === undefined) delete object[name];
      else Object.defineProperty(object, name, d);
    }
  }
  return inside;
}

function predict(history, n) {
  if (history.length === 0) return 0;
  const [n1, t1] = history[history.length - 1];
  let p = 2;
  if (history.length > 1) {
    const [n0, t0] = history[history.length - 2];
    p = Math.max(1, Math.log(t1 / t0) / Math.log(n1 / n0));
  }
  return t1 * (n / n1) ** p;
}

/** The targets the project set for ours against the faster of Phaser's two modes (undefined: none at that size). */
function target(scene, n) {
  if (scene === 'no collider') return 1 / 1.2;
  if (n === 1000) return 1;
  if (n === 10000) return scene.startsWith('swarm as one group') ? 50 : 3;
  if (n === 40000) return 5;
  return undefined;
}

const warmupAt = (n, quick) => Math.max(quick ? 3 : 5, Math.round((quick ? 50000 : 200000) / n));
const stepsAt = (n, quick) => Math.max(quick ? 6 : 15, Math.round((quick ? 125000 : 500000) / n));

/**
 * One scene at every size, in this process: the timed rows, then where the time goes (the functions timed there are
 * wrapped, which changes how the optimising compiler treats them, so it comes after). `adapter` is the compiled
 * sweep-prune/phaser module and `index` the compiled arcade-index module (after `init()`).
 */
async function runScene(name, adapter, index, quick, log) {
  if (!scenes[name]) throw new Error(`phaser bench: no scene "${name}"; the scenes: ${Object.keys(scenes).join(', ')}`);
  const Phaser = await loadPhaser();
  const collect = globalThis.gc ?? (() => {});
  const rows = [];
  const make = async (n, mode) => {
    collect();
    return makeWorld(Phaser, scenes[name], n, mode, adapter.usePhaserArcade);
  };
  const drop = (worlds) => {
    for (const w of worlds) {
      w.handle?.stop();
      w.game.destroy(true);
      w.game.headlessStep(0, 0);
    }
  };
  const history = new Map(MODES.map((m) => [m, []]));
  for (const n of quick ? [1000, 10000] : SIZES) {
    const warmup = warmupAt(n, quick);
    const steps = stepsAt(n, quick);
    const row = { scene: name, bodies: n, ms: {}, notes: {} };
    const worlds = [];
    for (const mode of MODES) {
      const predicted = predict(history.get(mode), n);
      if (predicted > LIMIT_MS) row.notes[mode] = `skipped: about ${Math.round(predicted)} ms predicted`;
      else worlds.push(await make(n, mode));
    }
    // warm-up, then the timed steps; a slow mode stops early
    for (let s = 0; s < warmup + steps; s++) {
      const order = s % 2 ? worlds : [...worlds].reverse();
      for (const w of order) {
        if (w.done) continue;
        const ms = w.step();
        if (s >= warmup || ms > SLOW_MS) w.times.push(ms);
        if (ms > SLOW_MS && (w.times.length >= SLOW_STEPS || ms > ONE_STEP_MS)) w.done = true;
      }
    }
    for (const w of worlds) {
      row.ms[w.mode] = median(w.times);
      if (w.times.length < steps) row.notes[w.mode] = `${w.times.length} steps`;
      history.get(w.mode).push([n, row.ms[w.mode]]);
    }
    // the overlap scene's callbacks: its bodies never move apart, so every mode must count the same
    const counts = new Set(worlds.filter((w) => !w.done).map((w) => w.counter.count));
    if (counts.size > 1) throw new Error(`${name} n=${n}: overlap callbacks differ between modes: ${[...counts]}`);
    const phaser = ['tree', 'no tree'].filter((m) => row.ms[m] !== undefined).map((m) => row.ms[m]);
    row.faster = Math.min(...phaser);
    row.x = row.faster / row.ms['sweep-prune'];
    // the faster mode's steps over ours step by step (the two ran one after the other, in the same phase of this
    // machine's load), their median; none when the faster mode ran only a few steps
    const fasterWorld = worlds.find((w) => w.mode !== 'sweep-prune' && row.ms[w.mode] === row.faster);
    const oursTimes = worlds.find((w) => w.mode === 'sweep-prune').times;
    if (fasterWorld.times.length === oursTimes.length) {
      row.stepX = median(oursTimes.map((t, i) => fasterWorld.times[i] / t));
    }
    row.target = target(name, n);
    row.met = row.target === undefined ? undefined : row.x >= row.target;
    row.treeSlow = worlds.find((w) => w.mode === 'tree')?.done !== false;
    drop(worlds);
    rows.push(row);
    log(timedLine(row));
  }
  for (const row of rows) {
    const warmup = Math.min(warmupAt(row.bodies, quick), 20);
    if (!row.treeSlow) {
      const tree = await make(row.bodies, 'tree');
      for (let s = 0; s < warmup; s++) tree.step();
      let total = 0;
      const inside = timeInside(tree.world.tree, ['clear', 'load', 'search'], () => {
        for (let s = 0; s < 5; s++) total += tree.step();
      });
      row.treeShare = inside / total;
      drop([tree]);
    }
    const ours = await make(row.bodies, 'sweep-prune');
    for (let s = 0; s < warmup; s++) ours.step();
    let total = 0;
    const inside = timeInside(index.ArcadeIndex.prototype, ['sync', 'candidates', 'nearBox'], () => {
      for (let s = 0; s < 5; s++) total += ours.step();
    });
    drop([ours]);
    row.zeroCostX = row.faster / (((total - inside) / total) * row.ms['sweep-prune']);
  }
  return rows;
}

function timedLine(row) {
  const cell = (mode) => {
    const ms = row.ms[mode];
    return (ms === undefined ? '-' : ms.toFixed(2)).padStart(mode === 'sweep-prune' ? 11 : 9);
  };
  const goal =
    row.target === undefined ? '' : `${row.met ? 'met' : 'MISSED'} >= ${row.target.toFixed(row.target < 1 ? 2 : 0)}`;
  const notes = Object.entries(row.notes).map(([m, note]) => `${m}: ${note}`);
  return (
    `  ${row.scene.padEnd(50)} ${String(row.bodies).padStart(6)} ${cell('tree')} ${cell('no tree')} ` +
    `${cell('sweep-prune')}  ${`x${row.x.toFixed(2)}`.padStart(9)}  ` +
    `${(row.stepX ? `x${row.stepX.toFixed(2)}` : '-').padStart(12)}  ${goal.padEnd(12)}` +
    (notes.length ? `  (${notes.join('; ')})` : '')
  );
}

/**
 * Every scene, each in a process of its own (a scene run after another measured differently: the optimising
 * compiler's and the collector's state carried over), with the compiled wrapper of tests/bench/compile.mjs.
 * Returns one row per scene and size.
 */
export async function benchPhaser({ quick = false, log = console.log } = {}) {
  const Phaser = await loadPhaser();
  const sizes = quick ? [1000, 10000] : SIZES;
  log(
    `\n## Phaser ${Phaser.VERSION} Arcade Physics: World.update per step (median ms), three games taking turns, ` +
      `${sizes.map((n) => `${stepsAt(n, quick)} steps after ${warmupAt(n, quick)} at ${n}`).join(', ')}; ` +
      'each scene in a process of its own',
  );
  log(
    '  scene                                              bodies      tree   no tree  sweep-prune  vs faster  ' +
      'step by step  target',
  );
  const only = process.env.PHASER_SCENE; // e.g. PHASER_SCENE=swarm: the scenes whose name has it
  const rows = [];
  for (const name of Object.keys(scenes).filter((k) => !only || k.includes(only))) {
    const child = spawnSync(
      process.execPath,
      ['--expose-gc', fileURLToPath(import.meta.url), '--scene', name, ...(quick ? ['--quick'] : [])],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 },
    );
    if (child.status !== 0) throw new Error(`phaser bench: the scene "${name}" failed (exit ${child.status})`);
    rows.push(...JSON.parse(child.stdout));
  }
  log('\n  where the time goes: tree share = time in RTree clear/load/search over the tree-mode step;');
  log('  zero-cost bound = the faster mode over our step without the time in the sweep-prune index');
  log('  scene                                              bodies  tree share  zero-cost bound');
  for (const row of rows) {
    log(
      `  ${row.scene.padEnd(50)} ${String(row.bodies).padStart(6)} ` +
        `${row.treeShare === undefined ? '          -' : `${(100 * row.treeShare).toFixed(0)}%`.padStart(11)}  ` +
        `x${row.zeroCostX.toFixed(2)}`,
    );
  }
  return rows;
}

// on its own: every scene, each in a child (`--scene <name>`: timed lines on stderr, rows as JSON on stdout)
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  const at = process.argv.indexOf('--scene');
  if (at < 0) {
    compileWrapper(['index.ts', 'adapters/phaser/index.ts']);
    await benchPhaser({ quick });
  } else {
    const sp = await importWrapper('index.js');
    await sp.init();
    const adapter = await importWrapper('adapters/phaser/index.js');
    const index = await importWrapper('adapters/phaser/bodies.js');
    const rows = await runScene(process.argv[at + 1], adapter, index, quick, (line) =>
      process.stderr.write(`${line}\n`),
    );
    process.stdout.write(JSON.stringify(rows));
  }
  process.exit(0); // Phaser's destroyed games leave timers behind
}
