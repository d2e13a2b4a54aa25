// The physics engines' broadphases: sweep-prune/p2 against p2-es's SAPBroadphase, sweep-prune/cannon against
// cannon-es's NaiveBroadphase (its default) and SAPBroadphase, with bounding spheres (its default) and with
// `useBoundingBoxes = true`, which gives the pairs ours gives (checked step by step on a world of its own). `npm run bench -- --only=p2` / `--only=cannon`, or
// `node tests/bench/physics-p2-cannon.mjs [--only=p2|cannon] [--quick]` on its own.
// Each broadphase steps its own copy of one seeded scene (the copies differ only by the order of the pairs handed to
// the narrowphase); the worlds take turns step by step, so machine noise falls on all of them. Printed: the median
// ms per step of the broadphase call and of the whole world.step, and each peer's time as a multiple of ours.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as p2 from 'p2-es';
import * as CANNON from 'cannon-es';
import { compileWrapper, importWrapper } from './compile.mjs';
import { median } from './stats.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const now = () => performance.now();

// The wrapper and the adapters, compiled as they are: p2-es and cannon-es in programs of their own (their types
// clash).
async function load() {
  compileWrapper(['index.ts', 'adapters/p2/index.ts']);
  compileWrapper(['adapters/cannon/index.ts']);
  const sp = await importWrapper('index.js');
  await sp.init();
  return {
    P2Ours: (await importWrapper('adapters/p2/index.js')).SweepPruneBroadphase,
    CannonOurs: (await importWrapper('adapters/cannon/index.js')).SweepPruneBroadphase,
  };
}

function mulberry32(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A subclass of a broadphase that times each call of `method`. */
function timed(Base, method) {
  return class extends Base {
    times = [];
    [method](...args) {
      const t = now();
      const r = super[method](...args);
      this.times.push(now() - t);
      this.pairs = Array.isArray(r) ? r.length / 2 : args[1].length; // p2 returns a flat array, cannon fills p1 and p2
      this.last = args;
      return r;
    }
  };
}

/** Step every world `warm + steps` times, in turns; the medians of the last `steps`. */
function race(entries, warm, steps) {
  const stepTimes = entries.map(() => []);
  for (let i = 0; i < warm + steps; i++) {
    entries.forEach((e, k) => {
      const t = now();
      e.world.step(1 / 60);
      if (i >= warm) stepTimes[k].push(now() - t);
    });
  }
  return entries.map((e, k) => ({
    name: e.name,
    broadphase: median(e.broadphase.times.slice(warm)),
    step: median(stepTimes[k]),
    pairs: e.broadphase.pairs, // at the last step
  }));
}

function report(title, rows, targets) {
  const ours = rows.find((r) => r.ours);
  console.log(`\n${title}`);
  console.log(
    `${'broadphase'.padEnd(42)}${'call ms'.padStart(9)}${'x'.padStart(8)}${'step ms'.padStart(10)}${'x'.padStart(8)}${'pairs'.padStart(8)}`,
  );
  for (const r of rows) {
    const bx = r.broadphase / ours.broadphase;
    const sx = r.step / ours.step;
    console.log(
      `${r.name.padEnd(42)}${r.broadphase.toFixed(3).padStart(9)}${bx.toFixed(2).padStart(8)}${r.step.toFixed(2).padStart(10)}${sx.toFixed(2).padStart(8)}${String(r.pairs).padStart(8)}`,
    );
    r.callRatio = bx;
    r.stepRatio = sx;
  }
  for (const [name, min] of targets) {
    const r = rows.find((x) => x.name === name);
    console.log(
      `  target: broadphase call ${min}x faster than ${name}: ${r.callRatio.toFixed(2)}x ${r.callRatio >= min ? 'met' : 'NOT MET'}`,
    );
  }
}

// p2-es: 2 000 boxes and circles poured into a 100 m wide bin (ground and two walls), gravity on, no sleeping.
function p2Scene(broadphase, seed) {
  const world = new p2.World({ gravity: [0, -10], broadphase });
  const rng = mulberry32(seed);
  const wall = (x, y, angle) => {
    const b = new p2.Body({ mass: 0, position: [x, y], angle });
    b.addShape(new p2.Plane());
    world.addBody(b);
  };
  wall(0, 0, 0);
  wall(-1, 0, -Math.PI / 2);
  wall(101, 0, Math.PI / 2);
  for (let k = 0; k < 2000; k++) {
    const b = new p2.Body({ mass: 1, position: [rng() * 100, 1 + rng() * 40], angle: rng() * Math.PI });
    b.addShape(
      k % 2
        ? new p2.Circle({ radius: 0.25 + rng() * 0.25 })
        : new p2.Box({ width: 0.5 + rng() * 0.5, height: 0.5 + rng() * 0.5 }),
    );
    world.addBody(b);
  }
  return world;
}

// p2-es: a static-heavy level, 1 500 static platforms and 500 movers dropped onto them, sleeping on.
function p2Level(broadphase, seed) {
  const world = new p2.World({ gravity: [0, -10], broadphase });
  world.sleepMode = p2.World.BODY_SLEEPING;
  const rng = mulberry32(seed);
  for (let i = 0; i < 50; i++) {
    for (let j = 0; j < 30; j++) {
      const b = new p2.Body({ mass: 0, position: [i * 4 + (j % 2) * 2, 2 + j * 3] });
      b.addShape(new p2.Box({ width: 2.5, height: 0.3 }));
      world.addBody(b);
    }
  }
  for (let k = 0; k < 500; k++) {
    const b = new p2.Body({ mass: 1, position: [rng() * 198, 3 + rng() * 88] });
    b.addShape(
      k % 2
        ? new p2.Circle({ radius: 0.3 + rng() * 0.3 })
        : new p2.Box({ width: 0.5 + rng() * 0.5, height: 0.5 + rng() * 0.5 }),
    );
    world.addBody(b);
  }
  return world;
}

function benchP2(P2Ours, quick) {
  const rows = [];
  // the target is the bin's (every body moving); the level is reported alongside
  for (const [title, scene, targets] of [
    [
      'p2-es 1.2: 2 000 bodies falling into a bin (getCollisionPairs; median ms per step)',
      p2Scene,
      [['p2-es SAPBroadphase', 2.5]],
    ],
    [
      'p2-es 1.2: a level of 1 500 static platforms and 500 movers, sleeping on (getCollisionPairs; median ms per step)',
      p2Level,
      [],
    ],
  ]) {
    const entries = [
      ['p2-es SAPBroadphase', p2.SAPBroadphase],
      ['sweep-prune/p2', P2Ours, true],
    ].map(([name, Base, ours]) => {
      const broadphase = new (timed(Base, 'getCollisionPairs'))();
      return { name, ours, world: scene(broadphase, 11), broadphase };
    });
    const r = race(entries, quick ? 20 : 60, quick ? 40 : 120).map((x, k) => ({
      ...x,
      ours: entries[k].ours,
      scene: title,
    }));
    report(title, r, targets);
    entries.find((e) => e.ours).broadphase.dispose();
    rows.push(...r);
  }
  return rows;
}

// cannon-es: 2 000 spheres falling on a plane, as cannon's users start (gravity on, no sleeping).
function cannonScene(broadphase, seed) {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0), broadphase });
  const rng = mulberry32(seed);
  const ground = new CANNON.Body({ type: CANNON.Body.STATIC, shape: new CANNON.Plane() });
  ground.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
  world.addBody(ground);
  for (let k = 0; k < 2000; k++) {
    const p = new CANNON.Vec3((rng() - 0.5) * 30, 1 + rng() * 40, (rng() - 0.5) * 30);
    world.addBody(new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(0.5), position: p }));
  }
  return world;
}

const BOXES = 'cannon-es SAPBroadphase, useBoundingBoxes';

/**
 * The steps of the race, untimed, on one world stepped by ours, with `SAPBroadphase` (`useBoundingBoxes = true`)
 * asked for the pairs of the same state before each step: throws unless both give the same set of pairs. (The raced
 * worlds drift apart within a few steps, a contact or two, as the order of the pairs changes the solver's result.)
 */
function checkEqualPairs(CannonOurs, steps) {
  const broadphase = new (timed(CannonOurs, 'collisionPairs'))();
  const world = cannonScene(broadphase, 12);
  const sap = new CANNON.SAPBroadphase(world);
  sap.useBoundingBoxes = true;
  const keys = (as, bs) =>
    as.map((a, k) => Math.min(a.id, bs[k].id) * 2 ** 32 + Math.max(a.id, bs[k].id)).sort((x, y) => x - y);
  let total = 0;
  for (let i = 0; i < steps; i++) {
    const as = [];
    const bs = [];
    sap.dirty = true; // its own world's step sets this; this world's broadphase is ours
    sap.collisionPairs(world, as, bs);
    const want = keys(as, bs);
    world.step(1 / 60);
    const got = keys(broadphase.last[1], broadphase.last[2]);
    if (got.length !== want.length || got.some((x, k) => x !== want[k]))
      throw new Error(`step ${i}: sweep-prune/cannon gave ${got.length} pairs, ${BOXES} ${want.length} (or others)`);
    total += got.length;
  }
  broadphase.dispose();
  console.log(`  the same ${total} pairs as ${BOXES} over ${steps} steps of one world`);
}

function benchCannon(CannonOurs, quick) {
  const entries = [
    ['cannon-es NaiveBroadphase (default)', CANNON.NaiveBroadphase],
    ['cannon-es SAPBroadphase', CANNON.SAPBroadphase],
    [BOXES, CANNON.SAPBroadphase],
    ['sweep-prune/cannon', CannonOurs, true],
  ].map(([name, Base, ours]) => {
    const broadphase = new (timed(Base, 'collisionPairs'))();
    if (name === BOXES) broadphase.useBoundingBoxes = true;
    const world = cannonScene(broadphase, 12);
    return { name, ours, world, broadphase };
  });
  const [warm, steps] = quick ? [10, 20] : [30, 60];
  const rows = race(entries, warm, steps).map((r, k) => ({ ...r, ours: entries[k].ours }));
  report('cannon-es 0.20: 2 000 spheres falling on a plane (collisionPairs; median ms per step)', rows, [
    ['cannon-es NaiveBroadphase (default)', 10],
    ['cannon-es SAPBroadphase', 2],
  ]);
  entries.find((e) => e.ours).broadphase.dispose();
  checkEqualPairs(CannonOurs, warm + steps);
  const peer = rows.find((r) => r.name === BOXES);
  console.log(
    `  at equal pairs: world.step ${peer.stepRatio.toFixed(2)}x faster, collisionPairs ${peer.callRatio.toFixed(1)}x`,
  );
  return rows;
}

export async function runPhysics({ only, quick } = {}) {
  const want = (w) => !only || w.includes(only);
  const { P2Ours, CannonOurs } = await load();
  const results = {};
  if (want('p2-es')) results.p2 = benchP2(P2Ours, quick);
  if (want('cannon-es')) results.cannon = benchCannon(CannonOurs, quick);
  const file = `${root}tests/bench/results/bench-physics.json`;
  mkdirSync(`${root}tests/bench/results`, { recursive: true });
  writeFileSync(
    file,
    JSON.stringify(
      { node: process.version, cpu: cpus()[0]?.model, cores: cpus().length, date: new Date().toISOString(), results },
      null,
      1,
    ),
  );
  console.log(`\nwrote ${file}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  console.log(`node ${process.version}, ${cpus().length} cores, ${cpus()[0]?.model}`);
  await runPhysics({ only: args.find((a) => a.startsWith('--only='))?.slice(7), quick: args.includes('--quick') });
}
