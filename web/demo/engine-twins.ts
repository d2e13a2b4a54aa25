// "In your engine": a game scene built twice from one seed, in the real `phaser` and `matter-js` packages, one world
// on the engine's own broadphase and one on sweep-prune's adapter for it. Each step both are stepped and timed, and
// each counts its collisions and sums its bodies' positions, so the page can show that the drop-in changes the time
// and nothing else. The engines and the adapters are imported here only, when the chapter's figure is first built.
import type PhaserNs from 'phaser';
import type MatterJs from 'matter-js';
import { rng } from './sim.js';

export type TwinKind = 'bullets' | 'swarm' | 'matter';

/** The game world's size, in the engines' units (pixels): each scene fills it. */
export const WORLD = { width: 1600, height: 1200 };

/** What a body is drawn as (its index in the scene's colours). */
export const enum Role {
  Bullet = 0,
  Enemy = 1,
  Static = 2,
}

/** One of the two worlds of a scene. */
export interface Twin {
  /** One 60 Hz step of the engine's world (its whole step: bodies moved, broadphase, collisions); returns its ms. */
  step(): number;
  /** Collisions the engine reported in the last step (callbacks for Phaser, `Detector.collisions` for matter). */
  readonly collisions: number;
  /** The sum of every body's x and 2y after the last step (two worlds that stay identical keep equal sums). */
  fingerprint(): number;
  /** Each body as x, y, width, height, role: five numbers per body. */
  rects(): Float64Array;
  dispose(): void;
}

export interface TwinScene {
  kind: TwinKind;
  own: Twin;
  ours: Twin;
  /** The engine's own broadphase, as the figure names it. */
  ownName: string;
  /** The body count of the scene as built (N). */
  n: number;
}

/**
 * The N the reader can choose per scene: at the top the engine's own step stays near 50 ms on a busy 2-core machine
 * (Phaser's walk of one group is quadratic: 1 250 bodies, 780 000 pairs a step).
 */
export const RANGES: Record<TwinKind, { min: number; max: number; value: number; step: number }> = {
  bullets: { min: 500, max: 5000, value: 2000, step: 500 },
  swarm: { min: 250, max: 1250, value: 1000, step: 250 },
  matter: { min: 100, max: 1500, value: 500, step: 100 },
};

type Phaser = typeof PhaserNs;
type Matter = typeof MatterJs;
interface PhaserParts {
  Phaser: Phaser;
  usePhaserArcade: typeof import('sweep-prune/phaser').usePhaserArcade;
  /** web/scripts/phaser-headless.mjs's: a HEADLESS game whose loop is stepped by hand (the tests build theirs so). */
  createGame: (Phaser: Phaser, options: object) => Promise<unknown>;
}
let phaser: Promise<PhaserParts>;
let matter: Promise<{ Matter: Matter; SweepPruneDetector: typeof import('sweep-prune/matter').SweepPruneDetector }>;

/** The real engines and the adapters, each downloaded once, when a scene first asks for it. */
function loadPhaser(): typeof phaser {
  phaser ??= Promise.all([
    import('phaser'),
    import('sweep-prune/phaser'),
    // @ts-expect-error: a plain .mjs script without types
    import('../scripts/phaser-headless.mjs') as Promise<Pick<PhaserParts, 'createGame'>>,
  ]).then(([p, a, h]) => ({
    Phaser: (p.default ?? p) as Phaser,
    usePhaserArcade: a.usePhaserArcade,
    createGame: h.createGame,
  }));
  return phaser;
}

function loadMatter(): typeof matter {
  matter ??= Promise.all([import('matter-js'), import('sweep-prune/matter')]).then(([m, a]) => {
    const Matter = ((m as { default?: Matter }).default ?? m) as Matter;
    canonicalOrder(Matter);
    return { Matter, SweepPruneDetector: a.SweepPruneDetector };
  });
  return matter;
}

/**
 * Build a scene twice on `seed`: the engine's own broadphase, and sweep-prune's adapter. `tree`: Phaser's own world
 * searches its R-tree (Phaser's default) instead of walking every pair with `useTree: false`, the mode whose results
 * the adapter reproduces exactly.
 */
export async function makeTwins(kind: TwinKind, n: number, seed: number, tree = false): Promise<TwinScene> {
  if (kind === 'matter') {
    const { Matter, SweepPruneDetector } = await loadMatter();
    const own = await matterTwin(Matter, n, seed, undefined);
    const ours = await matterTwin(Matter, n, seed, new SweepPruneDetector(Matter));
    return { kind, own, ours, ownName: 'matter’s Detector', n };
  }
  const parts = await loadPhaser();
  const build = kind === 'bullets' ? bulletPool : swarm;
  const own = await phaserTwin(parts, build, n, seed, false, tree);
  const ours = await phaserTwin(parts, build, n, seed, true, false);
  return { kind, own, ours, ownName: tree ? 'Phaser, its R-tree' : 'Phaser, useTree: false', n };
}

/** Bodies made per task while a world is built, so that building 5 000 of them never holds the page up. */
const CHUNK = 250;
const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Run a builder to its end, one task per chunk of bodies (each `yield` ends a chunk). */
async function chunked<T>(build: Generator<void, T, void>): Promise<T> {
  for (;;) {
    const r = build.next();
    if (r.done) return r.value;
    await nextTask();
  }
}

/** Milliseconds `fn` takes. */
function timed(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

/** The fingerprint of a world: the sum of x + 2y over its bodies. */
function positionSum(points: Iterable<{ x: number; y: number }>): number {
  let sum = 0;
  for (const p of points) sum += p.x + 2 * p.y;
  return sum;
}

// ---- Phaser Arcade ----

type PhaserScene = PhaserNs.Scene;
type Rect = PhaserNs.GameObjects.Rectangle & { body: PhaserNs.Physics.Arcade.Body };
/**
 * Adds the scene's collider or overlap (which calls `hit` per collision) and its bodies, yielding after each CHUNK
 * of bodies; returns the bodies.
 */
type Build = (scene: PhaserScene, n: number, random: () => number, hit: () => void) => Generator<void, Rect[], void>;

const ENEMIES = 300;

/** A crowd of 300 slow enemies and a pool of fast bullets; `overlap(bullets, enemies)`, as a shooter asks it. */
const bulletPool: Build = function* (scene, n, random, hit) {
  const bullets = scene.physics.add.group();
  const enemies = scene.physics.add.group();
  scene.physics.add.overlap(bullets, enemies, hit);
  const bodies: Rect[] = [];
  for (let i = 0; i < n; i++) {
    if (i % CHUNK === CHUNK - 1) yield;
    const enemy = i < Math.min(ENEMIES, n / 2);
    const size = enemy ? 24 : 6;
    const r = scene.add.rectangle(random() * WORLD.width, random() * WORLD.height, size, size) as Rect;
    (enemy ? enemies : bullets).add(r);
    const speed = enemy ? 60 : 400;
    r.body.setVelocity((random() - 0.5) * speed, (random() - 0.5) * speed).setCollideWorldBounds(true);
    r.body.setBounce(1, 1);
    r.setData('role', enemy ? Role.Enemy : Role.Bullet);
    bodies.push(r);
  }
  return bodies;
};

/** One group of small bodies colliding with itself: `collider(group)`, every pair of the group asked. */
const swarm: Build = function* (scene, n, random, hit) {
  const group = scene.physics.add.group();
  // no second object: the group against itself, each pair once (the group twice would ask each pair both ways)
  scene.physics.add.collider(group, undefined as unknown as PhaserNs.Types.Physics.Arcade.ArcadeColliderType, hit);
  const bodies: Rect[] = [];
  for (let i = 0; i < n; i++) {
    if (i % CHUNK === CHUNK - 1) yield;
    const r = scene.add.rectangle(random() * WORLD.width, random() * WORLD.height, 8, 8) as Rect;
    group.add(r);
    r.body
      .setVelocity((random() - 0.5) * 200, (random() - 0.5) * 200)
      .setCollideWorldBounds(true)
      .setBounce(1, 1);
    r.setData('role', i % 2 ? Role.Bullet : Role.Enemy);
    bodies.push(r);
  }
  return bodies;
};

async function phaserTwin(
  { Phaser, usePhaserArcade, createGame }: PhaserParts,
  build: Build,
  n: number,
  seed: number,
  ours: boolean,
  tree: boolean,
): Promise<Twin> {
  let hits = 0;
  const random = rng(seed);
  // the adapter sets useTree: false itself (the mode whose results it gives exactly)
  const made = (await createGame(Phaser, {
    physics: { default: 'arcade', arcade: { useTree: tree, width: WORLD.width, height: WORLD.height } },
    width: 320,
    height: 240,
    create: (scene: PhaserScene) => scene.physics.world.setBounds(0, 0, WORLD.width, WORLD.height),
  })) as { game: PhaserNs.Game; scene: PhaserScene; step: (time: number, delta?: number) => void };
  // the bodies after the game started (its loop is stopped): a chunk per task
  const bodies = await chunked(build(made.scene, n, random, () => hits++));
  const world = made.scene.physics.world;
  const handle = ours ? usePhaserArcade(world) : undefined;
  let time = 0;
  let collisions = 0;
  const rects = new Float64Array(5 * bodies.length);
  return {
    step() {
      hits = 0;
      const ms = timed(() => world.update(time, 1000 / 60));
      world.postUpdate(); // the game objects follow their bodies
      time += 1000 / 60;
      collisions = hits;
      return ms;
    },
    get collisions() {
      return collisions;
    },
    fingerprint: () => positionSum(bodies.map((b) => b.body)),
    rects() {
      bodies.forEach((b, i) => {
        rects.set([b.body.x, b.body.y, b.body.width, b.body.height, b.getData('role') as number], 5 * i);
      });
      return rects;
    },
    dispose() {
      handle?.stop();
      made.game.destroy(true);
      made.step(0, 0); // the stopped loop's next step runs the destruction (the scene shut down, its world destroyed)
    },
  };
}

// ---- matter-js ----

/**
 * matter's own test worker's `stableSort`: collisions and pairs in the order of their bodies' ids, in any detector.
 * matter feeds its solver in the detector's order, so without it the two worlds would drift apart; with it both
 * simulate the same bodies step for step, and the sorting costs both the same.
 */
function canonicalOrder(Matter: Matter): void {
  const { Collision, Pairs } = Matter;
  const collides = Collision.collides;
  const update = Pairs.update;
  const byIds = (a: MatterJs.Collision, b: MatterJs.Collision): number =>
    a.bodyA.id - b.bodyA.id || a.bodyB.id - b.bodyB.id;
  Collision.collides = (a, b, pairs) => (a.id < b.id ? collides(a, b, pairs) : collides(b, a, pairs));
  type PairList = { list: MatterJs.Pair[] };
  Pairs.update = (pairs: PairList, collisions: MatterJs.Collision[], timestamp: number) => {
    collisions.sort(byIds);
    pairs.list.sort((a, b) => byIds(a.collision, b.collision));
    update(pairs as MatterJs.Pairs, collisions, timestamp);
    pairs.list.sort((a, b) => byIds(a.collision, b.collision));
  };
}

/** Static platforms in rows across the level, at this spacing (a level of the static-heavy kind). */
const PLATFORM_GAP = 40;

async function matterTwin(
  Matter: Matter,
  n: number,
  seed: number,
  detector: InstanceType<typeof import('sweep-prune/matter').SweepPruneDetector> | undefined,
): Promise<Twin> {
  const { Bodies, Body, Composite, Engine } = Matter;
  const random = rng(seed);
  // the adapter's detector is typed by what it reads of a body, matter's option by its whole Body
  const engine = Engine.create({
    detector: detector as unknown as MatterJs.Detector | undefined,
    enableSleeping: true,
  });
  const statics: MatterJs.Body[] = [];
  for (let y = 120; y < WORLD.height; y += PLATFORM_GAP) {
    const shift = ((y / PLATFORM_GAP) % 2) * (PLATFORM_GAP / 2);
    for (let x = shift; x < WORLD.width; x += PLATFORM_GAP)
      statics.push(Bodies.rectangle(x, y, 24, 6, { isStatic: true }));
  }
  const drop = (): { x: number; y: number } => ({ x: random() * WORLD.width, y: -20 - random() * 200 });
  const balls: MatterJs.Body[] = [];
  Composite.add(engine.world, statics);
  for (let i = 0; i < n; i++) {
    if (i % CHUNK === CHUNK - 1) await nextTask();
    const ball = Bodies.circle(random() * WORLD.width, random() * WORLD.height, 5, { restitution: 0.3 });
    Composite.add(engine.world, ball);
    balls.push(ball);
  }
  const collisionsOf = (): MatterJs.Collision[] =>
    (engine.detector as unknown as { collisions: MatterJs.Collision[] }).collisions;
  const rects = new Float64Array(5 * (statics.length + balls.length));
  statics.forEach((b, i) => {
    const { min, max } = b.bounds;
    rects.set([min.x, min.y, max.x - min.x, max.y - min.y, Role.Static], 5 * i);
  });
  let collisions = 0;
  return {
    step() {
      // a ball that fell out of the level drops in again from the top (the same calls in both worlds)
      for (const b of balls) if (b.position.y > WORLD.height + 20) Body.setPosition(b, drop());
      const ms = timed(() => Engine.update(engine, 1000 / 60));
      collisions = collisionsOf().length;
      return ms;
    },
    get collisions() {
      return collisions;
    },
    fingerprint: () => positionSum(balls.map((b) => b.position)),
    rects() {
      const o = 5 * statics.length;
      balls.forEach((b, i) => rects.set([b.position.x - 5, b.position.y - 5, 10, 10, Role.Bullet], o + 5 * i));
      return rects;
    },
    dispose() {
      Composite.clear(engine.world, false);
      Engine.clear(engine);
      detector?.dispose();
    },
  };
}
