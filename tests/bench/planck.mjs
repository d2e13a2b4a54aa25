// npm run bench -- --only=planck (or alone: node tests/bench/planck.mjs [--quick] [--scene=tumbler]): planck stepped
// with its own BroadPhase and with sweep-prune/planck, side by side.
// Each scene is run several times, each run with three fresh identical worlds, each on its own copy of the planck
// module, that take turns step by step (each step another one goes first, so all see the same phases of this
// machine's speed): one on planck's BroadPhase, one on ours, and planck's replayed: a world whose broadphase costs
// nothing, handing over the pairs that made new contacts and the overlap answers recorded from planck's world, so it
// steps exactly as that world (checked in every run), and sparing the world's createContact its walk of a contact
// list as ours does. Timed: world.step. Printed per scene: planck's time over ours
// (per run the ratio of the mean steps; their median over the runs and their spread), and the bound: planck's step
// over its replay's, the ratio a broadphase costing nothing would give.
// The broadphase's share of a step is read from V8's sampling profiler (node:inspector) in one more run per world,
// after all the timed runs and with V8's inlining off (planck's optimised code otherwise inlines the small broadphase
// methods, testOverlap and moveProxy, into its own, where the profiler counts them; calls then cost more on both sides):
// the samples inside the broadphase's methods (createProxy, destroyProxy, moveProxy, touchProxy, updatePairs,
// testOverlap, and the world's createContact with its walk of a contact list), less those inside
// planck's Contact.create and shouldCollide (the new contact itself and the filters, the same work on both sides).
// Timing every call instead would cost more than the calls (a timer read is about 0.1 us; testOverlap and moveProxy
// take less); a world's step less its replay's would count everything, but is within the steps' noise where the
// broadphase is a small share.
// Scenes: Box2D's broadphase stress test AddPair (400 circles and a bullet box, as in planck's example/AddPair.ts),
// a tumbler of 2 000 and of 5 000 boxes (example/Tumbler.ts, filled at once), 20 pyramids of 20 rows
// (example/Pyramid.ts), and a level of 5 000 static tiles with 300 movers.
import { createRequire } from 'node:module';
import { Session } from 'node:inspector';
import v8 from 'node:v8';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { compileWrapper, importWrapper } from './compile.mjs';
import { mulberry32 } from './scenes.mjs';
import { median } from './stats.mjs';

const require = createRequire(import.meta.url);
const now = () => performance.now();
const dt = 1 / 60;

// A fresh copy of the planck module for each world: planck pools contacts in a module-level list that never shrinks
// and takes from its front (Array.prototype.shift, O(n) once the list is long), so a run after one that destroyed
// many contacts would pay for that run's contacts at every new one, and worlds sharing one pool would share that cost.
function freshPlanck() {
  for (const key of Object.keys(require.cache)) if (key.includes('/node_modules/planck/')) delete require.cache[key];
  return require('planck');
}

// Box2D's Tumbler (example/Tumbler.ts): a box container turned by a motor, here holding `count` boxes of half a
// metre at the example's density (an eighth of the container's area; planck's example: 200 boxes in 40 x 40 m),
// filled at once on a grid
function tumbler(count) {
  const half = Math.sqrt((count * 0.25) / 0.125) / 2; // the container's half side
  return {
    warmup: 60,
    steps: 120,
    runs: 3,
    stepTarget: 1.1,
    build(world, random, { Vec2, Box, RevoluteJoint }) {
      world.setGravity(new Vec2(0, -10));
      const ground = world.createBody();
      const container = world.createBody({ type: 'dynamic', position: new Vec2(0, half), allowSleep: false });
      for (const [hx, hy, x, y] of [
        [0.5, half, half, 0],
        [0.5, half, -half, 0],
        [half, 0.5, 0, half],
        [half, 0.5, 0, -half],
      ]) {
        container.createFixture(new Box(hx, hy, new Vec2(x, y), 0), 5);
      }
      const motor = { motorSpeed: 0.08 * Math.PI, maxMotorTorque: 1e10, enableMotor: true };
      world.createJoint(new RevoluteJoint(motor, ground, container, new Vec2(0, half)));
      const box = new Box(0.25, 0.25);
      const side = Math.ceil(Math.sqrt(count));
      const pitch = (2 * half - 2) / side;
      for (let i = 0; i < count; i++) {
        const x = -half + 1 + pitch * ((i % side) + 0.5) + (random() - 0.5) * 0.01;
        const y = 1 + pitch * (Math.floor(i / side) + 0.5);
        world.createBody({ type: 'dynamic', position: new Vec2(x, y) }).createFixture(box, 1);
      }
    },
  };
}

// Box2D's AddPair: 400 circles in a 6 x 2 m cloud and a 3 m box shot through it at 150 m/s as a bullet; from the
// first step, so the measured steps hold the cloud spreading and the box's pass
const addPair = {
  warmup: 0,
  steps: 90,
  runs: 5,
  stepTarget: 1.8,
  build(world, random, { Vec2, Box, Circle }) {
    const circle = new Circle(0.1);
    for (let i = 0; i < 400; i++) {
      world
        .createBody({ type: 'dynamic', position: new Vec2(-6 + random() * 6, 4 + random() * 2) })
        .createFixture(circle, 0.01);
    }
    const box = world.createBody({ type: 'dynamic', bullet: true, position: new Vec2(-40, 5) });
    box.createFixture(new Box(1.5, 1.5), 1);
    box.setLinearVelocity(new Vec2(150, 0));
  },
};

// 20 of planck's Pyramid example (example/Pyramid.ts) side by side on one edge
const pyramids = {
  warmup: 60,
  steps: 120,
  runs: 3,
  build(world, random, { Vec2, Box, Edge }) {
    world.setGravity(new Vec2(0, -10));
    world.createBody().createFixture(new Edge(new Vec2(-250, 0), new Vec2(250, 0)), 0);
    const box = new Box(0.5, 0.5);
    for (let p = 0; p < 20; p++) {
      const x = new Vec2(-240 + p * 24, 0.75);
      for (let i = 0; i < 20; i++) {
        const y = x.clone();
        for (let j = i; j < 20; j++) {
          world.createBody({ type: 'dynamic', position: y }).createFixture(box, 5);
          y.x += 1.125;
        }
        x.x += 0.5625;
        x.y += 1.0;
      }
    }
  },
};

const scenes = {
  'AddPair (400 circles, a bullet box)': addPair,
  'tumbler, 2 000 boxes': tumbler(2000),
  'tumbler, 5 000 boxes': tumbler(5000),
  '20 pyramids of 20 rows (4 200 boxes)': pyramids,
  // a level of 5 041 static tiles (71 x 71 platforms 1.5 m wide at a 2 m pitch) with 300 circles and boxes falling
  // through it; every mover against the tiles is a continuous-collision pair
  'static level (5 041 tiles, 300 movers)': {
    warmup: 60,
    steps: 180,
    runs: 3,
    stepTarget: 1.1,
    build(world, random, { Vec2, Box, Circle }) {
      world.setGravity(new Vec2(0, -10));
      const tile = world.createBody();
      for (let i = 0; i < 71; i++) {
        for (let j = 0; j < 71; j++) {
          const angle = (i + j) % 5 === 0 ? 0.3 : 0;
          tile.createFixture(new Box(0.75, 0.15, new Vec2(i * 2, -j * 2), angle), 0);
        }
      }
      for (let k = 0; k < 300; k++) {
        const body = world.createBody({
          type: 'dynamic',
          position: new Vec2(random() * 140, 2 + random() * 20),
        });
        body.createFixture(k % 2 ? new Circle(0.3) : new Box(0.3, 0.2), 1);
      }
    },
  },
};

// The worlds of a run: planck's, planck's replayed (below) and ours
const ENGINES = ['planck', 'sweep-prune'];
const WORLDS = ['planck', 'planck replayed', 'sweep-prune'];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The scene in a new world of its own planck module (its own contact pool, as a game's one world has). */
function sceneWorld(scene, broadPhase) {
  const planck = freshPlanck();
  const world = new planck.World();
  if (broadPhase) world.m_broadPhase = broadPhase;
  scene.build(world, mulberry32(5), planck);
  return world;
}

/**
 * The answers planck's broadphase gave its world over `steps` steps: for each updatePairs call the pairs that made a
 * new contact (as creation numbers of their proxies, in the order handed over), and every testOverlap answer.
 */
function record(scene, steps) {
  const planck = freshPlanck();
  const world = new planck.World();
  const bp = world.m_broadPhase;
  const number = new Map(); // FixtureProxy -> its creation number
  const createProxy = bp.createProxy.bind(bp);
  bp.createProxy = (aabb, proxy) => {
    number.set(proxy, number.size);
    return createProxy(aabb, proxy);
  };
  scene.build(world, mulberry32(5), planck);
  const pairs = [];
  const overlaps = [];
  const updatePairs = bp.updatePairs.bind(bp);
  bp.updatePairs = (callback) => {
    const made = [];
    updatePairs((a, b) => {
      const before = world.getContactCount();
      callback(a, b);
      if (world.getContactCount() > before) made.push(number.get(a), number.get(b));
    });
    pairs.push(Int32Array.from(made));
  };
  const testOverlap = bp.testOverlap.bind(bp);
  bp.testOverlap = (a, b) => {
    const overlap = testOverlap(a, b);
    overlaps.push(overlap ? 1 : 0);
    return overlap;
  };
  for (let s = 0; s < steps; s++) world.step(dt);
  return { pairs, overlaps: Uint8Array.from(overlaps) };
}

/**
 * A broadphase costing nothing: it hands the world the recorded pairs and overlap answers of planck's, in the
 * recorded order, so the world steps exactly as planck's (checked at the end of every run). Proxies are numbered by
 * creation, as in the recording.
 */
class ReplayBroadPhase {
  #proxies = [];
  #call = 0;
  #test = 0;
  constructor(recording) {
    this.recording = recording;
  }
  createProxy(aabb, proxy) {
    this.#proxies.push(proxy);
    return this.#proxies.length - 1;
  }
  destroyProxy() {}
  moveProxy() {}
  touchProxy() {}
  updatePairs(callback) {
    const made = this.recording.pairs[this.#call++];
    if (made === undefined) throw new Error('planck bench: the replay ran past its recording');
    for (let i = 0; i < made.length; i += 2) {
      const a = this.#proxies[made[i]];
      const b = this.#proxies[made[i + 1]];
      // as sweep-prune/planck does: the pair has no contact, so the world's createContact walks an empty contact
      // list of body B, put back behind the new contact after
      const body = b.fixture.m_body;
      const head = body.m_contactList;
      body.m_contactList = null;
      callback(a, b);
      const added = body.m_contactList;
      if (added === null) {
        body.m_contactList = head;
        continue;
      }
      let tail = added;
      while (tail.next !== null) tail = tail.next;
      tail.next = head;
      if (head !== null) head.prev = tail;
    }
  }
  testOverlap() {
    return this.recording.overlaps[this.#test++] === 1;
  }
  getProxyCount() {
    return this.#proxies.length;
  }
}

/** Every body's position, angle and velocities, as a string (equal for bit-identical worlds). */
function bodies(world) {
  const out = [];
  for (let b = world.getBodyList(); b; b = b.getNext()) {
    const p = b.getPosition();
    const v = b.getLinearVelocity();
    out.push(p.x, p.y, b.getAngle(), v.x, v.y, b.getAngularVelocity());
  }
  return out.join(',');
}

/**
 * One run: three fresh worlds taking turns (each step another one goes first): planck's, its replay, and ours.
 * Per-step times of the measured steps.
 */
function timedRun(adapter, scene, recording, steps) {
  const made = {
    planck: sceneWorld(scene),
    'planck replayed': sceneWorld(scene, new ReplayBroadPhase(recording)),
    'sweep-prune': sceneWorld(scene),
  };
  adapter.useSweepPrune(made['sweep-prune']);
  const times = Object.fromEntries(WORLDS.map((w) => [w, []]));
  for (let s = 0; s < scene.warmup + steps; s++) {
    for (let k = 0; k < WORLDS.length; k++) {
      const which = WORLDS[(s + k) % WORLDS.length];
      const t = now();
      made[which].step(dt);
      if (s >= scene.warmup) times[which].push(now() - t);
    }
  }
  const contacts = { planck: made.planck.getContactCount(), 'sweep-prune': made['sweep-prune'].getContactCount() };
  const replayed = bodies(made.planck) === bodies(made['planck replayed']);
  adapter.stopSweepPrune(made['sweep-prune']);
  return { times, contacts, replayed };
}

// ---- the broadphase's share, from a sampling profile of one world's measured steps

const session = new Session();
const post = (method, params) =>
  new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));

const PLANCK_BROADPHASE =
  /^(BroadPhase\d*\.(createProxy|destroyProxy|moveProxy|touchProxy|updatePairs|testOverlap)|World\d*\.createContact)$/;
const OURS = /\/build\/bench\/js\/adapters\/planck\/index\.js$/;
// ours also routes the world's createContact and destroyContact through it (to keep its set of contacts)
const OUR_BROADPHASE =
  /^(createProxy|destroyProxy|moveProxy|touchProxy|updatePairs|testOverlap|createContact|destroyContact)$/;
// inside the broadphase's calls but not broadphase work: the new contact object, the filters, the ending contact
const NOT_BROADPHASE =
  /^(Contact\d*\.create|Body\d*\.shouldCollide|Fixture\d*\.shouldCollide|World\d*\.destroyContact)$/;

/**
 * Samples of the profile inside world.step, and of those inside the broadphase. Samples are counted, not weighted by
 * their time deltas: on a machine shared with other work a delta also holds the time the process waited for a core.
 */
function broadphaseSamples(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // per node, from the root down: [inside world.step, inside the broadphase]
  const memo = new Map();
  const classify = (id) => {
    if (memo.has(id)) return memo.get(id);
    const n = byId.get(id);
    const [step, bp] = parent.has(id) ? classify(parent.get(id)) : [false, false];
    const { functionName: name, url } = n.callFrame;
    let inside = bp;
    if (NOT_BROADPHASE.test(name)) inside = false;
    else if (!bp && (PLANCK_BROADPHASE.test(name) || (OURS.test(url) && OUR_BROADPHASE.test(name)))) inside = true;
    const v = [step || /^World\d*\.step$/.test(name), inside];
    memo.set(id, v);
    return v;
  };
  let total = 0;
  let bp = 0;
  for (const sample of profile.samples) {
    const [step, inside] = classify(sample);
    if (!step) continue;
    total++;
    if (inside) bp++;
  }
  return { bp, total };
}

async function profiledShare(adapter, scene, steps) {
  const share = {};
  for (const which of ENGINES) {
    const world = sceneWorld(scene);
    if (which === 'sweep-prune') adapter.useSweepPrune(world);
    for (let s = 0; s < scene.warmup; s++) world.step(dt);
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 100 });
    await post('Profiler.start');
    for (let s = 0; s < steps; s++) world.step(dt);
    const { profile } = await post('Profiler.stop');
    await post('Profiler.disable');
    const { bp, total } = broadphaseSamples(profile);
    share[which] = bp / total;
    if (which === 'sweep-prune') adapter.stopSweepPrune(world);
  }
  return share;
}

/**
 * Run every scene (or those whose name matches `match`); `adapter` is the compiled sweep-prune/planck module (after
 * `init()`). Returns one row per scene.
 */
export async function benchPlanck(adapter, { quick = false, log = console.log, match = '' } = {}) {
  const timed = [];
  for (const [name, scene] of Object.entries(scenes)) {
    if (!new RegExp(match).test(name)) continue;
    const steps = quick ? scene.steps >> 2 : scene.steps;
    const runCount = quick ? 2 : scene.runs;
    log(`planck: ${name}: ${runCount} timed runs of ${steps} steps after ${scene.warmup}`);
    const recording = record(scene, scene.warmup + steps);
    timedRun(adapter, scene, recording, Math.min(steps, 30)); // warm-up run: compiled code for every world
    const runs = [];
    let contacts;
    for (let r = 0; r < runCount; r++) {
      const run = timedRun(adapter, scene, recording, steps);
      if (!run.replayed) throw new Error(`planck bench: ${name}: the replay did not step as planck's world`);
      runs.push(Object.fromEntries(WORLDS.map((w) => [w, mean(run.times[w])])));
      contacts = run.contacts;
    }
    timed.push({ name, scene, steps, runs, contacts });
  }
  // the profiled runs after every timed one: code compiled without inlining (see the top) stays so
  const shares = [];
  session.connect();
  v8.setFlagsFromString('--no-turbo-inlining');
  try {
    for (const { name, scene, steps } of timed) {
      log(`planck: ${name}: profiled runs`);
      shares.push(await profiledShare(adapter, scene, steps));
    }
  } finally {
    v8.setFlagsFromString('--turbo-inlining');
    session.disconnect();
  }
  const rows = [];
  for (let i = 0; i < timed.length; i++) {
    const { name, scene, steps, runs, contacts } = timed[i];
    const share = shares[i];
    const row = { scene: name, runs: runs.length, steps, contacts, share };
    for (const which of ENGINES) {
      const step = median(runs.map((r) => r[which]));
      row[which] = { step, broadphase: step * share[which] };
    }
    const perRun = runs.map((r) => r.planck / r['sweep-prune']);
    row.stepX = median(perRun);
    row.stepRange = [Math.min(...perRun), Math.max(...perRun)];
    row.broadphaseX = row.planck.broadphase / row['sweep-prune'].broadphase;
    // world.step's ratio with a broadphase costing nothing: planck's step over its replay's
    row.bound = median(runs.map((r) => r.planck / r['planck replayed']));
    rows.push(row);
    const ms = (x) => x.toFixed(2);
    const pc = (x) => `${(100 * x).toFixed(0)}%`;
    log(`\n## planck: ${name}, ${runs.length} runs of ${steps} steps after ${scene.warmup} (mean ms per step)`);
    log(
      `  world.step     planck ${ms(row.planck.step)}  sweep-prune ${ms(row['sweep-prune'].step)}  ` +
        `x${row.stepX.toFixed(2)} (runs ${row.stepRange.map((v) => v.toFixed(2)).join(' to ')}); ` +
        `planck's replayed on a broadphase costing nothing: x${row.bound.toFixed(2)}`,
    );
    log(
      `  broadphase     planck ${ms(row.planck.broadphase)} (${pc(share.planck)})  ` +
        `sweep-prune ${ms(row['sweep-prune'].broadphase)} (${pc(share['sweep-prune'])})  x${row.broadphaseX.toFixed(1)}` +
        `; contacts at the end ${contacts.planck} / ${contacts['sweep-prune']}`,
    );
  }
  if (rows.length > 0) log(targetTable(rows));
  return rows;
}

const BROADPHASE_TARGET = 5;

/** The rows as a table: times, ratios, the bound of a broadphase costing nothing, and whether each target is met. */
function targetTable(rows) {
  const lines = [
    '',
    '## planck: targets (broadphase at least x5 on every scene; world.step at least the x shown, never below x1)',
    '| scene | world.step planck / ours (ms) | step x | step target | bound | broadphase planck / ours (ms) | bp x | bp target |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const ms = (x) => x.toFixed(2);
  const mark = (ok) => (ok ? 'met' : 'MISSED');
  for (const row of rows) {
    const stepTarget = scenes[row.scene].stepTarget ?? 1;
    lines.push(
      `| ${row.scene} | ${ms(row.planck.step)} / ${ms(row['sweep-prune'].step)} | x${row.stepX.toFixed(2)} | ` +
        `x${stepTarget}: ${mark(row.stepX >= stepTarget)} | x${row.bound.toFixed(2)} | ` +
        `${ms(row.planck.broadphase)} / ${ms(row['sweep-prune'].broadphase)} | x${row.broadphaseX.toFixed(1)} | ` +
        `x${BROADPHASE_TARGET}: ${mark(row.broadphaseX >= BROADPHASE_TARGET)} |`,
    );
  }
  const [one, five, fifteen] = loadavg();
  lines.push(
    `node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), ` +
      `load average ${one.toFixed(2)} ${five.toFixed(2)} ${fifteen.toFixed(2)}`,
  );
  return lines.join('\n');
}

// run alone: node tests/bench/planck.mjs [--quick] [--scene=<a regular expression matching scene names>]
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  compileWrapper(['index.ts', 'adapters/planck/index.ts']);
  await (await importWrapper('index.js')).init();
  await benchPlanck(await importWrapper('adapters/planck/index.js'), {
    quick: args.includes('--quick'),
    match: args.find((a) => a.startsWith('--scene='))?.slice(8) ?? '',
  });
}
