// npm run bench -- --only=matter: matter-js stepped with its own detector and with sweep-prune/matter, side by side.
// Each scene is run several times, each run with two fresh identical engines, one per detector, that take turns step
// by step (each step the other one goes first, so both see the same phases of this machine's speed). Timed: the whole
// Engine.update, and Detector.collisions alone (matter's broadphase fused with its narrowphase: both detectors run
// the same Collision.collides on the same candidate pairs). Printed per scene: the ratio of the two medians of each
// run (matter / ours), their median over the runs and their spread (min to max), and the step-by-step ratio's
// median and interquartile range over all runs.
// Scenes: a static-heavy level (a 71 x 71 grid of static platforms, 300 circles, sleeping on), and matter's own
// stress examples `stress2` (450 boxes in a stack) and `stress3` (684 mixed polygons).
import { createRequire } from 'node:module';
import { median } from './stats.mjs';

const Matter = createRequire(import.meta.url)('matter-js');
const { Bodies, Common, Composite, Composites, Engine } = Matter;
const now = () => performance.now();

function walls(world, w, h) {
  Composite.add(world, [
    Bodies.rectangle(w / 2, 0, w, 50, { isStatic: true }),
    Bodies.rectangle(w / 2, h, w, 50, { isStatic: true }),
    Bodies.rectangle(w, h / 2, 50, h, { isStatic: true }),
    Bodies.rectangle(0, h / 2, 50, h, { isStatic: true }),
  ]);
}

// 71 x 71 static platforms `width` wide at a 40 spacing, and 300 circles dropped onto them (most fall asleep)
function level(width) {
  return {
    options: { enableSleeping: true },
    warmup: 240,
    steps: 240,
    runs: 3,
    level: true,
    build(world) {
      const platforms = [];
      for (let i = 0; i < 71; i++) {
        for (let j = 0; j < 71; j++)
          platforms.push(Bodies.rectangle(i * 40, 40 + j * 40, width, 6, { isStatic: true }));
      }
      Composite.add(world, platforms);
      const circles = [];
      for (let k = 0; k < 300; k++) {
        const i = (k * 37) % 71;
        const j = Math.floor((k * 53) % 71);
        circles.push(Bodies.circle(i * 40 + ((k % 3) - 1) * 4, 20 + j * 40, 6, { restitution: 0.2 }));
      }
      Composite.add(world, circles);
    },
  };
}

const scenes = {
  // the level of matter-js issue #1309's kind: thousands of still bodies, a few hundred movers, sleeping on
  'static-heavy level (5 041 static, 300 circles, sleeping)': level(30),
  // the same level of touching tiles (each row a continuous floor, as in tile maps): matter's sweep along x then
  // meets the next column's tiles too
  'tile level (5 041 static tiles in touching rows, 300 circles, sleeping)': level(40),
  'matter stress2 (450 boxes)': {
    options: {},
    warmup: 60,
    steps: 150,
    runs: 5,
    build(world) {
      Composite.add(
        world,
        Composites.stack(100, 600 - 25 - 18 * 25, 25, 18, 0, 0, (x, y) => Bodies.rectangle(x, y, 25, 25)),
      );
      walls(world, 800, 600);
    },
  },
  'matter stress3 (684 polygons)': {
    options: { positionIterations: 10, velocityIterations: 10 },
    warmup: 60,
    steps: 150,
    runs: 5,
    build(world) {
      Common._seed = 0; // Common.random is seeded: both engines get the same bodies
      const scale = 0.3;
      Composite.add(
        world,
        Composites.stack(40, 40, 38, 18, 0, 0, (x, y) => {
          const sides = Math.round(Common.random(1, 8));
          if (Math.round(Common.random(0, 1)) === 0) {
            return Common.random() < 0.8
              ? Bodies.rectangle(x, y, Common.random(25, 50) * scale, Common.random(25, 50) * scale)
              : Bodies.rectangle(x, y, Common.random(80, 120) * scale, Common.random(25, 30) * scale);
          }
          return Bodies.polygon(x, y, sides, Common.random(25, 50) * scale);
        }),
      );
      walls(world, 800, 600);
    },
  },
};

// The stress scenes again with the pair order made canonical in both engines, as matter's own test worker does
// (test/ExampleWorker.js, stableSort): both engines then follow the same trajectory, so their steps differ only by
// the detector (the sorting costs both the same). With matter's own orders the two simulations drift apart and
// their contacts differ (1699 against 1675 collisions after 240 steps of stress3).
for (const name of ['matter stress2 (450 boxes)', 'matter stress3 (684 polygons)']) {
  scenes[`${name}, same trajectory`] = { ...scenes[name], canonical: true };
}

function canonicalOrder() {
  const { Collision, Pairs } = Matter;
  const collides = Collision.collides;
  const update = Pairs.update;
  const byIds = (a, b) => a.bodyA.id - b.bodyA.id || a.bodyB.id - b.bodyB.id;
  Collision.collides = (a, b, pairs) => (a.id < b.id ? collides(a, b, pairs) : collides(b, a, pairs));
  Pairs.update = (pairs, collisions, timestamp) => {
    collisions.sort(byIds);
    pairs.list.sort((a, b) => byIds(a.collision, b.collision));
    update(pairs, collisions, timestamp);
    pairs.list.sort((a, b) => byIds(a.collision, b.collision));
  };
  return () => {
    Collision.collides = collides;
    Pairs.update = update;
  };
}

const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const ENGINES = ['matter', 'sweep-prune'];

/** matter / ours: the median over the runs of each run's ratio of medians, its spread, and the step-by-step ratio. */
function ratioStats(runs, key) {
  const perRun = runs.map((r) => median(r.matter[key]) / median(r['sweep-prune'][key]));
  const perStep = runs.flatMap((r) => r.matter[key].map((m, i) => m / r['sweep-prune'][key][i]));
  return {
    median: median(perRun),
    min: Math.min(...perRun),
    max: Math.max(...perRun),
    runs: perRun,
    step: { median: median(perStep), q1: quantile(perStep, 0.25), q3: quantile(perStep, 0.75) },
  };
}

/** One run of a scene: two fresh engines taking turns; per-step times, and the state at the end. */
function runScene(adapter, scene, steps, timing) {
  const restore = scene.canonical ? canonicalOrder() : () => {};
  const detector = new adapter.SweepPruneDetector(Matter);
  const engines = {
    matter: Engine.create({ ...scene.options }),
    'sweep-prune': Engine.create({ ...scene.options, detector }),
  };
  for (const engine of Object.values(engines)) scene.build(engine.world);
  const times = { matter: { update: [], detector: [] }, 'sweep-prune': { update: [], detector: [] } };
  try {
    for (let s = 0; s < scene.warmup + steps; s++) {
      for (const which of s % 2 ? ENGINES : [...ENGINES].reverse()) {
        timing.detectorMs = 0;
        const t = now();
        Engine.update(engines[which], 1000 / 60);
        const update = now() - t;
        if (s >= scene.warmup) {
          times[which].update.push(update);
          times[which].detector.push(timing.detectorMs);
          times[which].rest ??= [];
          times[which].rest.push(update - timing.detectorMs);
        }
      }
    }
  } finally {
    restore();
  }
  return { engines, detector, times };
}

/**
 * Run every scene; `adapter` is the compiled sweep-prune/matter module (after `init()`). Returns one row per scene.
 */
export function benchMatter(adapter, { quick = false, log = console.log } = {}) {
  // time Detector.collisions per detector: wrapped after the adapter's hook is installed (by its first detector)
  const probe = new adapter.SweepPruneDetector(Matter);
  probe.dispose();
  const collisions = Matter.Detector.collisions;
  const timing = { detectorMs: 0 };
  Matter.Detector.collisions = (detector) => {
    const t = now();
    const result = collisions(detector);
    timing.detectorMs += now() - t;
    return result;
  };
  const rows = [];
  try {
    for (const [name, scene] of Object.entries(scenes)) {
      const steps = quick ? scene.steps >> 2 : scene.steps;
      const runCount = quick ? 2 : scene.runs;
      const runs = [];
      let last;
      for (let r = 0; r < runCount; r++) {
        if (last) last.detector.dispose();
        last = runScene(adapter, scene, steps, timing);
        runs.push(last.times);
      }
      const { engines, detector } = last;
      const state = (engine) =>
        Composite.allBodies(engine.world)
          .map((b) => `${b.position.x},${b.position.y},${b.angle}`)
          .join(';');
      const sameBodies = state(engines.matter) === state(engines['sweep-prune']);
      const lastCollisions = {
        matter: engines.matter.detector.collisions.length,
        'sweep-prune': detector.collisions.length,
      };
      // the broadphase alone: Detector.collisions on the last state with Collision.collides stubbed (no narrowphase)
      const collides = Matter.Collision.collides;
      Matter.Collision.collides = () => null;
      const broad = { matter: [], 'sweep-prune': [] };
      try {
        for (let r = 0; r < 200; r++) {
          for (const which of r % 2 ? ENGINES : [...ENGINES].reverse()) {
            const t = now();
            collisions(engines[which].detector);
            broad[which].push(now() - t);
          }
        }
      } finally {
        Matter.Collision.collides = collides;
      }
      const awake = (engine) => Composite.allBodies(engine.world).filter((b) => !b.isStatic && !b.isSleeping).length;
      const row = {
        scene: name,
        bodies: Composite.allBodies(engines.matter.world).length,
        awake: { matter: awake(engines.matter), 'sweep-prune': awake(engines['sweep-prune']) },
        collisions: lastCollisions,
        sameBodies,
        runs: runCount,
      };
      for (const which of ENGINES) {
        const all = (key) => runs.flatMap((r) => r[which][key]);
        row[which] = {
          update: { median: median(all('update')), mean: mean(all('update')) },
          detector: { median: median(all('detector')), mean: mean(all('detector')) },
          rest: { median: median(all('rest')) },
        };
      }
      row.update = ratioStats(runs, 'update');
      row.detector = ratioStats(runs, 'detector');
      row.updateX = row.update.median;
      row.detectorX = row.detector.median;
      // Engine.update's ratio if our detector cost nothing: matter's step over the rest of ours (matter's own phases)
      row.updateCeiling = row.matter.update.median / row['sweep-prune'].rest.median;
      row.broadphase = { matter: median(broad.matter), 'sweep-prune': median(broad['sweep-prune']) };
      row.broadphaseX = row.broadphase.matter / row.broadphase['sweep-prune'];
      detector.dispose();
      rows.push(row);
      const ms = (x) => x.toFixed(3);
      const x = (v) => `x${v.toFixed(2)}`;
      const spread = (st) =>
        `${x(st.median)} over ${runCount} runs (${st.min.toFixed(2)} to ${st.max.toFixed(2)}); ` +
        `step by step ${x(st.step.median)} (quartiles ${st.step.q1.toFixed(2)} to ${st.step.q3.toFixed(2)})`;
      log(`\n## matter-js: ${name}, ${runCount} runs of ${steps} steps after ${scene.warmup} (medians per step, ms)`);
      log(
        `  bodies ${row.bodies}; awake at the end: matter ${row.awake.matter}, sweep-prune ${row.awake['sweep-prune']}; ` +
          `collisions of the last step: ${row.collisions.matter} / ${row.collisions['sweep-prune']}` +
          (scene.canonical ? `; bodies identical at the end: ${sameBodies ? 'yes' : 'NO'}` : ''),
      );
      log(
        `  Engine.update       matter ${ms(row.matter.update.median)}  sweep-prune ${ms(row['sweep-prune'].update.median)}  ` +
          spread(row.update),
      );
      log(
        `  Detector.collisions matter ${ms(row.matter.detector.median)}  sweep-prune ${ms(row['sweep-prune'].detector.median)}  ` +
          spread(row.detector),
      );
      if (scene.level) {
        log(
          `  the rest of the step matter ${ms(row.matter.rest.median)}  sweep-prune ${ms(row['sweep-prune'].rest.median)}  ` +
            `(matter's own phases; Engine.update's ratio with a detector costing nothing: x${row.updateCeiling.toFixed(2)})`,
        );
      }
      log(
        `  broadphase alone    matter ${ms(row.broadphase.matter)}  sweep-prune ${ms(row.broadphase['sweep-prune'])}  ` +
          `${x(row.broadphaseX)}  (Detector.collisions with Collision.collides stubbed, on the last state)`,
      );
    }
  } finally {
    Matter.Detector.collisions = collisions;
  }
  return rows;
}
