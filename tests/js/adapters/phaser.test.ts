// sweep-prune/phaser against Phaser's own Arcade Physics: the real `phaser` package from npm, on its HEADLESS
// renderer in Node (web/scripts/phaser-headless.mjs stands in for the few browser objects it touches), scenes built
// with Phaser's API. Each scene runs in two identical games stepped side by side, one Phaser's own with
// `useTree: false` (the oracle, nothing sorted: tests/js/adapters/phaser-twin.ts) and one on sweep-prune: every
// frame's collide and process callbacks, world events and queries must be the same, in the same order, and every
// body's position and velocity bit-identical after every frame.
import type PhaserNs from 'phaser';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { usePhaserArcade } from '../../../web/src/adapters/phaser/index.js';
import { init } from '../../../web/src/index.js';
import {
  type Build,
  type Game,
  type Phaser as PhaserApi,
  type Recorder,
  destroyGames,
  load,
  makeGame,
  runTwins,
} from './phaser-twin.js';
// @ts-expect-error: a plain .mjs module without types
import { scenes as examples } from '../../bench/phaser-examples.mjs';

type Scene = PhaserNs.Scene;
type GameObject = PhaserNs.GameObjects.GameObject;
type Rect = PhaserNs.GameObjects.Rectangle & { body: PhaserNs.Physics.Arcade.Body };

// a SweepPruneError with this code, its message matching
function expectCode(fn: () => unknown, code: string, message = /./): void {
  expect(fn).toThrow(
    expect.objectContaining({ name: 'SweepPruneError', code, message: expect.stringMatching(message) }),
  );
}

let Phaser: PhaserApi;
const games: Game[] = [];

async function game(build: Build, physics: PhaserNs.Types.Core.PhysicsConfig, ours: boolean): Promise<Game> {
  const made = await makeGame(Phaser, build, physics, ours);
  games.push(made);
  return made;
}

afterEach(() => {
  destroyGames(...games.splice(0));
});

beforeAll(async () => {
  Phaser = await load();
});

const arcade = (gravityY = 0, extra: Record<string, unknown> = {}): PhaserNs.Types.Core.PhysicsConfig => ({
  default: 'arcade',
  arcade: { gravity: { x: 0, y: gravityY }, ...extra },
});

describe('before init()', () => {
  test('usePhaserArcade throws NotInitialized naming init()', async () => {
    const g = await game(() => () => {}, arcade(), false);
    expectCode(() => usePhaserArcade(g.world), 'NotInitialized', /await init\(\)/);
  });
});

// ---- scenes

// `collider(group)`: Phaser's types ask for a second object, its code runs the group against itself without one
const ALONE = undefined as unknown as PhaserNs.Types.Physics.Arcade.ArcadeColliderType;

const name = (o: unknown): string => (o as { name?: string }).name ?? String(o);

/** `what a b` in the frame's log, as Phaser passes the two objects. */
function logger(recorder: Recorder, what: string): (a: unknown, b: unknown) => void {
  return (a, b) => recorder.log.push(`${recorder.frame} ${what} ${name(a)} ${name(b)}`);
}

function rect(scene: Scene, recorder: Recorder, label: string, x: number, y: number, w: number, h: number): Rect {
  const r = scene.add.rectangle(x, y, w, h) as Rect;
  r.name = label;
  recorder.tracked.push(r);
  return r;
}

/**
 * A bullet-hell: `count` bullets fired at `enemies` moving enemies, walls in a static group. Bullets that hit an
 * enemy or a wall are destroyed in the callback, bullets leaving the world are destroyed, and new ones are fired
 * every frame. Enemies collide with the walls and with each other (the same group passed twice).
 */
const bulletHell =
  (count: number, enemies: number, jumps = false): Build =>
  (scene, recorder, random) => {
    const W = 1600;
    const H = 1200;
    scene.physics.world.setBounds(0, 0, W, H);
    const walls = scene.physics.add.staticGroup();
    for (let i = 0; i < 24; i++) {
      const wall = scene.add.rectangle(
        100 + random() * 1400,
        100 + random() * 1000,
        20 + random() * 120,
        20 + random() * 60,
      );
      wall.name = `wall${i}`;
      walls.add(wall);
    }
    const foes = scene.physics.add.group();
    for (let i = 0; i < enemies; i++) {
      const e = rect(scene, recorder, `enemy${i}`, random() * W, random() * H, 16 + (i % 3) * 8, 20);
      foes.add(e);
      e.body.setVelocity((random() - 0.5) * 120, (random() - 0.5) * 120).setCollideWorldBounds(true);
      e.body.setBounce(1, 1);
    }
    const shots = scene.physics.add.group();
    let fired = 0;
    const fire = (): void => {
      const gun = fired % 8;
      const b = rect(scene, recorder, `bullet${fired++}`, (gun + 0.5) * (W / 8), gun % 2 ? 20 : H - 20, 6, 6);
      shots.add(b);
      const angle = random() * Math.PI * 2;
      b.body.setVelocity(Math.cos(angle) * 400, Math.sin(angle) * 400);
    };
    for (let i = 0; i < count; i++) fire();
    const hit = logger(recorder, 'hit');
    const tested = logger(recorder, 'process');
    scene.physics.add.overlap(
      shots,
      foes,
      (bullet, enemy) => {
        hit(bullet, enemy);
        (bullet as GameObject).destroy();
      },
      (bullet, enemy) => {
        tested(bullet, enemy);
        return (name(bullet).length + name(enemy).length) % 4 !== 0; // some hits rejected
      },
    );
    const blocked = logger(recorder, 'blocked');
    scene.physics.add.collider(shots, walls, (bullet, wall) => {
      blocked(bullet, wall);
      (bullet as GameObject).destroy();
    });
    scene.physics.add.collider(foes, walls, logger(recorder, 'foe-wall'));
    const bumped = logger(recorder, 'foe-foe');
    let bumps = 0;
    scene.physics.add.collider(foes, foes, (a, b) => {
      bumped(a, b);
      // now and then an enemy jumps elsewhere inside the callback: the enemies after it must meet it there
      if (jumps && ++bumps % 3 === 0) (b as Rect).body.reset(random() * W, random() * H);
    });
    return () => {
      for (const b of shots.getChildren().slice() as Rect[]) {
        if (b.body.x < -40 || b.body.x > W + 40 || b.body.y < -40 || b.body.y > H + 40) b.destroy();
      }
      for (let i = 0; i < 24; i++) fire();
    };
  };

/**
 * A swarm colliding with itself (`collider(group)`): boxes and circles of mixed sizes, some immovable, not pushable,
 * with parts of `checkCollision` off, reporting world bounds and collide events; a process callback rejecting some
 * pairs. Every 10 frames bodies are disabled, enabled again, destroyed, created and moved by hand.
 */
const swarm =
  (count: number): Build =>
  (scene, recorder, random) => {
    const W = 1000;
    const H = 800;
    const world = scene.physics.world;
    world.setBounds(0, 0, W, H);
    const group = scene.physics.add.group();
    let made = 0;
    const spawn = (): Rect => {
      const i = made++;
      const size = 6 + (i % 6) * 2;
      const r = rect(scene, recorder, `s${i}`, 20 + random() * (W - 40), 20 + random() * (H - 40), size, size);
      group.add(r);
      const body = r.body;
      if (i % 4 === 0) body.setCircle(size / 2);
      body.setVelocity((random() - 0.5) * 300, (random() - 0.5) * 300);
      body.setBounce(0.6 + (i % 5) * 0.1, 0.8);
      if (i % 3 === 0) body.setCollideWorldBounds(true, 1, 1, true);
      if (i % 7 === 0) body.checkCollision.left = false;
      if (i % 11 === 0) body.checkCollision.none = true;
      if (i % 13 === 0) body.setImmovable(true);
      if (i % 17 === 0) body.pushable = false;
      if (i % 5 === 0) body.onCollide = true;
      return r;
    };
    for (let i = 0; i < count; i++) spawn();
    world.on('collide', (a: GameObject, b: GameObject) =>
      recorder.log.push(`${recorder.frame} event ${a.name} ${b.name}`),
    );
    world.on('worldbounds', (body: PhaserNs.Physics.Arcade.Body, up: boolean, down: boolean) =>
      recorder.log.push(`${recorder.frame} bounds ${body.gameObject.name} ${up} ${down}`),
    );
    const tested = logger(recorder, 'process');
    const collided = logger(recorder, 'collide');
    let collisions = 0;
    scene.physics.add.collider(
      group,
      ALONE,
      (a, b) => {
        collided(a, b);
        // now and then a body jumps elsewhere inside the callback: the pairs after it must meet it there
        const jumper = ++collisions % 4 === 0 ? a : collisions % 4 === 2 ? b : undefined;
        if (jumper) (jumper as Rect).body.reset(20 + random() * (W - 40), 20 + random() * (H - 40));
      },
      (a, b) => {
        tested(a, b);
        return (name(a).length * 7 + name(b).length) % 5 !== 0;
      },
    );
    const disabled: Rect[] = [];
    return (frame) => {
      if (frame % 10 !== 5) return;
      const members = group.getChildren() as Rect[];
      for (const r of disabled.splice(0)) if (r.body) world.enableBody(r);
      for (let k = 0; k < 4; k++) {
        const r = members[Math.floor(random() * members.length)]!;
        if (r.body && r.body.enable) {
          world.disableBody(r.body);
          disabled.push(r);
        }
      }
      for (let k = 0; k < 3; k++) members[Math.floor(random() * members.length)]!.destroy();
      for (let k = 0; k < 3; k++) spawn();
      for (let k = 0; k < 2; k++) {
        const r = members[Math.floor(random() * members.length)]!;
        if (r.body) r.body.reset(20 + random() * (W - 40), 20 + random() * (H - 40));
      }
      // the scene's own call between steps, after the moves by hand
      world.collide(group, ALONE, logger(recorder, 'direct'));
    };
  };

/**
 * A crowd: two groups under gravity piling up in a pit, pushing each other about, colliding across the groups and
 * the first group with itself passed twice (`collider(reds, reds)`): a body moved by one separation meets others
 * later in the same collider.
 */
const crowd =
  (count: number): Build =>
  (scene, recorder, random) => {
    scene.physics.world.setBounds(0, 0, 400, 600);
    const reds = scene.physics.add.group();
    const blues = scene.physics.add.group();
    for (let i = 0; i < count; i++) {
      const r = rect(scene, recorder, `c${i}`, 20 + random() * 360, random() * 500, 8 + (i % 3) * 3, 8 + (i % 4) * 2);
      (i % 3 ? reds : blues).add(r);
      r.body
        .setVelocity((random() - 0.5) * 160, (random() - 0.5) * 60)
        .setBounce(0.3, 0.2)
        .setCollideWorldBounds(true);
      if (i % 9 === 0) r.body.setImmovable(true);
    }
    scene.physics.add.collider(reds, blues, logger(recorder, 'red-blue'));
    scene.physics.add.collider(reds, reds, logger(recorder, 'red-red'));
    return () => {};
  };

/** A tilemap layer of `cells` (1 = solid) with 32 x 32 tiles, colliding on 1. */
function tileLayer(scene: Scene, cells: number[][]): PhaserNs.Tilemaps.TilemapLayer {
  if (!scene.textures.exists('tiles')) scene.textures.createCanvas('tiles', 64, 32);
  const map = scene.make.tilemap({ data: cells, tileWidth: 32, tileHeight: 32 });
  const tiles = map.addTilesetImage('tiles', 'tiles', 32, 32)!;
  const layer = map.createLayer(0, tiles, 0, 0) as PhaserNs.Tilemaps.TilemapLayer;
  layer.setCollision(1);
  return layer;
}

/**
 * Groups whose order is not the order of `world.bodies`: bodies made first and added to their groups later in a
 * shuffled order, bodies in two groups, groups interleaved, members removed and added again (also inside callbacks,
 * in the middle of a collider's loop), falling into a pit so that most bodies touch several others. Colliders of
 * every kind `collideObjects` walks: group against group, an overlap of a group sharing members, arrays against
 * arrays, a sprite against an array and back, a static group.
 */
const groupOrders =
  (count: number): Build =>
  (scene, recorder, random) => {
    const W = 600;
    const H = 500;
    scene.physics.world.setBounds(0, 0, W, H);
    const made: Rect[] = [];
    for (let i = 0; i < count; i++) {
      const size = 10 + (i % 4) * 6;
      const r = rect(scene, recorder, `o${i}`, 40 + random() * (W - 80), 20 + random() * (H - 200), size, size);
      scene.physics.add.existing(r);
      r.body.setVelocity((random() - 0.5) * 200, (random() - 0.5) * 100).setCollideWorldBounds(true);
      r.body.setBounce(0.3, 0.2);
      if (i % 5 === 0) r.body.setCircle(size / 2);
      made.push(r);
    }
    const shuffled = made.slice();
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    const balls = scene.physics.add.group();
    const crates = scene.physics.add.group();
    const marked = scene.physics.add.group();
    for (const [k, r] of shuffled.entries()) {
      (k % 2 ? crates : balls).add(r);
      if (k % 3 === 0) marked.add(r); // in two groups
    }
    const floor = scene.physics.add.staticGroup();
    for (let i = 0; i < 6; i++) {
      const f = scene.add.rectangle(50 + i * 100, H - 30 - (i % 2) * 40, 90, 16);
      f.name = `floor${i}`;
      floor.add(f);
    }
    const sorted = (g: PhaserNs.Physics.Arcade.Group): Rect[] => g.getChildren().slice() as Rect[];
    const lefts = sorted(balls).filter((_, k) => k % 4 === 1);
    const rights = sorted(crates).filter((_, k) => k % 4 === 2);
    const loner = sorted(balls)[0]!;
    let calls = 0;
    scene.physics.add.collider(balls, crates, (a, b) => {
      logger(recorder, 'ball-crate')(a, b);
      // now and then a crate leaves its group and joins it again, inside the loop: it goes to the end of the order
      if (++calls % 7 === 0) {
        crates.remove(b as Rect);
        crates.add(b as Rect);
      }
    });
    scene.physics.add.overlap(marked, balls, logger(recorder, 'marked-ball'));
    scene.physics.add.collider(lefts, rights, logger(recorder, 'left-right'));
    scene.physics.add.collider(loner, rights, logger(recorder, 'loner-right'));
    scene.physics.add.overlap(rights, loner, logger(recorder, 'right-loner'));
    scene.physics.add.collider(crates, crates, logger(recorder, 'crate-crate'));
    scene.physics.add.collider(balls, floor, logger(recorder, 'ball-floor'));
    scene.physics.add.collider(floor, crates, logger(recorder, 'floor-crate'));
    scene.physics.world.gravity.y = 300;
    return (frame) => {
      if (frame % 10 === 5) {
        // between steps: a ball moves to the end of its group's order, another leaves the marked group
        const b = sorted(balls)[frame % balls.getLength()]!;
        balls.remove(b);
        balls.add(b);
        const m = sorted(marked)[0];
        if (m) marked.remove(m);
      }
    };
  };

/**
 * A pool of bullets parked at one spot (as `createMultiple` leaves them: enabled bodies, inactive), fired a few
 * at a time at moving enemies and parked again when they hit one or leave the world: `overlap(enemies, bullets)`.
 */
const bulletPool =
  (count: number, enemies: number): Build =>
  (scene, recorder, random) => {
    const W = 1200;
    const H = 900;
    scene.physics.world.setBounds(0, 0, W, H);
    const bullets = scene.physics.add.group();
    for (let i = 0; i < count; i++) {
      const b = rect(scene, recorder, `b${i}`, -50, -50, 6, 6);
      b.setActive(false);
      bullets.add(b);
    }
    const foes = scene.physics.add.group();
    for (let i = 0; i < enemies; i++) {
      const e = rect(scene, recorder, `e${i}`, random() * W, random() * H, 30, 30);
      foes.add(e);
      e.body.setVelocity((random() - 0.5) * 100, (random() - 0.5) * 100).setCollideWorldBounds(true);
      e.body.setBounce(1, 1);
    }
    const park = (b: Rect): void => {
      b.setActive(false);
      b.body.reset(-50, -50);
    };
    const hit = logger(recorder, 'hit');
    scene.physics.add.overlap(foes, bullets, (enemy, bullet) => {
      if (!(bullet as Rect).active) return; // a parked bullet that an enemy reached
      hit(enemy, bullet);
      park(bullet as Rect);
    });
    return () => {
      for (const b of bullets.getChildren() as Rect[]) {
        if (b.active && (b.body.x < -20 || b.body.x > W + 20 || b.body.y < -20 || b.body.y > H + 20)) park(b);
      }
      for (let k = 0; k < 6; k++) {
        const b = bullets.getFirst(false) as Rect | null;
        if (!b) break;
        b.setActive(true);
        b.body.reset(W / 2, H / 2);
        const angle = random() * Math.PI * 2;
        b.body.setVelocity(Math.cos(angle) * 300, Math.sin(angle) * 300);
      }
    };
  };

/**
 * A platformer: `count` bodies under gravity falling on a tilemap layer and on a static group of platforms (two of
 * which move every 30 frames), colliding with each other too; every 15 frames `overlapRect` and `overlapCirc`
 * queries, and every 20 frames bodies destroyed and created.
 */
const platformer =
  (count: number): Build =>
  (scene, recorder, random) => {
    const W = 1280;
    const H = 960;
    const world = scene.physics.world;
    world.setBounds(0, 0, W, H);
    const cells: number[][] = [];
    for (let y = 0; y < 30; y++) {
      const row: number[] = [];
      for (let x = 0; x < 40; x++) row.push(y === 29 || (y === 20 && x % 8 < 5) || (x === 0 && y > 15) ? 1 : 0);
      cells.push(row);
    }
    const layer = tileLayer(scene, cells);
    const platforms = scene.physics.add.staticGroup();
    for (let i = 0; i < 20; i++) {
      const p = scene.add.rectangle(40 + (i % 10) * 125, 300 + Math.floor(i / 10) * 200 + (i % 3) * 30, 90, 12);
      p.name = `platform${i}`;
      platforms.add(p);
    }
    const players = scene.physics.add.group();
    let made = 0;
    const spawn = (): void => {
      const i = made++;
      const r = rect(
        scene,
        recorder,
        `p${i}`,
        20 + random() * (W - 40),
        random() * 500,
        6 + (i % 4) * 2,
        8 + (i % 3) * 2,
      );
      players.add(r);
      r.body
        .setVelocity((random() - 0.5) * 100, 0)
        .setBounce(0.2, 0.1)
        .setCollideWorldBounds(true);
    };
    for (let i = 0; i < count; i++) spawn();
    const landed = logger(recorder, 'platform');
    let landings = 0;
    scene.physics.add.collider(players, platforms, (player, platform) => {
      landed(player, platform);
      // now and then a platform moves inside the callback: the bodies after it must meet it there
      if (++landings % 50 === 0) {
        const p = platform as PhaserNs.GameObjects.Rectangle;
        p.setPosition(40 + random() * (W - 80), 200 + random() * 500);
        (p.body as PhaserNs.Physics.Arcade.StaticBody).updateFromGameObject();
      }
    });
    scene.physics.add.collider(players, layer, (a, tile) => {
      const t = tile as PhaserNs.Tilemaps.Tile;
      recorder.log.push(`${recorder.frame} tile ${name(a)} ${t.x},${t.y}`);
    });
    scene.physics.add.collider(players, ALONE, logger(recorder, 'stack'));
    return (frame) => {
      if (frame % 15 === 7) {
        for (let k = 0; k < 4; k++) {
          const x = random() * W;
          const y = random() * H;
          const rectHits = scene.physics.overlapRect(x, y, 40 + random() * 200, 40 + random() * 200, true, true);
          recorder.log.push(`${frame} overlapRect ${rectHits.map((b) => b.gameObject.name).join(',')}`);
          const circleHits = scene.physics.overlapCirc(x, y, 20 + random() * 100, true, true);
          recorder.log.push(`${frame} overlapCirc ${circleHits.map((b) => b.gameObject.name).join(',')}`);
        }
      }
      if (frame % 30 === 10) {
        for (const i of [3, 14]) {
          const p = platforms.getChildren()[i] as PhaserNs.GameObjects.Rectangle;
          p.setPosition(p.x + (frame % 60 === 10 ? 60 : -60), p.y);
          (p.body as PhaserNs.Physics.Arcade.StaticBody).updateFromGameObject();
        }
      }
      if (frame % 10 === 3) {
        // bodies put on platforms by hand, then the scene's own overlap call between steps
        for (let k = 0; k < 3; k++) {
          const p = platforms.getChildren()[Math.floor(random() * 20)] as PhaserNs.GameObjects.Rectangle;
          const r = players.getChildren()[Math.floor(random() * players.getLength())] as Rect;
          r.body.reset(p.x, p.y - 4);
        }
        scene.physics.overlap(players, platforms, logger(recorder, 'direct'));
      }
      if (frame % 20 === 19) {
        const members = players.getChildren();
        for (let k = 0; k < 5; k++) members[Math.floor(random() * members.length)]!.destroy();
        for (let k = 0; k < 5; k++) spawn();
      }
    };
  };

// ---- the differential tests

describe('sweep-prune/phaser against Phaser with useTree: false, two games side by side, unsorted', () => {
  beforeAll(() => init());

  async function twins(build: Build, physics: PhaserNs.Types.Core.PhysicsConfig, frames: number): Promise<number> {
    const oracle = await game(build, physics, false);
    const ours = await game(build, physics, true);
    const { events, divergence } = runTwins(oracle, ours, frames);
    expect(divergence).toBeUndefined();
    return events;
  }

  test('a bullet-hell: overlaps, process and collide callbacks, static walls, bodies fired and destroyed every frame', async () => {
    const events = await twins(bulletHell(2000, 300), arcade(), 90);
    expect(events).toBeGreaterThan(1000);
  });

  // Phaser's tree is loaded once a step: an enemy moved elsewhere by a callback is found only near where it was,
  // until the next step. sweep-prune finds it where it is, as a tree kept up to date would (the oracle here).
  test('enemies moved elsewhere inside callbacks are met where they are, as by an up-to-date tree', async () => {
    const events = await twins(bulletHell(1000, 300, true), arcade(), 90);
    expect(events).toBeGreaterThan(1000);
  });

  test('a crowd of two groups piling up: bodies moved by a separation are met where they are by the next ones', async () => {
    const events = await twins(crowd(600), arcade(300), 120);
    expect(events).toBeGreaterThan(5000);
  });

  test('a swarm colliding with itself: circles, checkCollision, immovable, events, bodies disabled and moved by hand', async () => {
    const events = await twins(swarm(700), arcade(), 120);
    expect(events).toBeGreaterThan(1000);
  });

  test('groups in an order of their own, members re-added inside a loop, arrays, a sprite, a static group', async () => {
    const events = await twins(groupOrders(120), arcade(), 150);
    expect(events).toBeGreaterThan(2000);
  });

  test('a pool of 2 000 bullets parked at one spot, fired at enemies and parked again', async () => {
    const events = await twins(bulletPool(2000, 40), arcade(), 120);
    expect(events).toBeGreaterThan(50);
  });

  test('a platformer: a tilemap layer, static platforms that move, 1 000 bodies piling up, overlapRect and overlapCirc', async () => {
    const events = await twins(platformer(1000), arcade(400), 120);
    expect(events).toBeGreaterThan(5000);
  });
});

/** A scene of tests/bench/phaser-examples.mjs: built as the Phaser Arcade example of its name builds it. */
interface Example {
  width: number;
  height: number;
  gravityY?: number;
  build(scene: Scene, random: () => number, count: (what: string, a: unknown, b: unknown) => void): (() => void) | void;
}

describe("scenes built as Phaser's official Arcade examples, against Phaser with useTree: false", () => {
  beforeAll(() => init());

  // the benchmark's scenes at their own sizes, bodies compared after every frame (40 000 world bodies with no
  // collider runs the same code as 10 000)
  for (const [label, spec] of Object.entries(examples as Record<string, Example>)) {
    if (label.startsWith('40 000')) continue;
    test(label, async () => {
      const build: Build = (scene, recorder, random) => {
        scene.physics.world.setBounds(0, 0, spec.width, spec.height);
        const index = new Map<unknown, number>();
        const tick = spec.build(scene, random, (what, a, b) =>
          recorder.log.push(`${recorder.frame} ${what} ${index.get(a)} ${index.get(b)}`),
        );
        for (const body of scene.physics.world.bodies) {
          index.set(body.gameObject, recorder.tracked.length);
          recorder.tracked.push(body.gameObject);
        }
        return () => tick?.();
      };
      const oracle = await game(build, arcade(spec.gravityY ?? 0), false);
      const ours = await game(build, arcade(spec.gravityY ?? 0), true);
      const { events, divergence } = runTwins(oracle, ours, 60);
      expect(divergence).toBeUndefined();
      if (!label.includes('no collider')) expect(events).toBeGreaterThan(0);
    });
  }
});

// ---- the handle and the trees' API

/** Bodies moving about in one group (no collider): for the trees' own queries. */
const drift: Build = (scene, recorder, random) => {
  scene.physics.world.setBounds(0, 0, 800, 600);
  const group = scene.physics.add.group();
  for (let i = 0; i < 400; i++) {
    const r = rect(scene, recorder, `d${i}`, random() * 800, random() * 600, 4 + (i % 5) * 3, 4 + (i % 3) * 5);
    group.add(r);
    r.body.setVelocity((random() - 0.5) * 200, (random() - 0.5) * 200).setCollideWorldBounds(true, 1, 1);
  }
  const walls = scene.physics.add.staticGroup();
  for (let i = 0; i < 30; i++) {
    const w = scene.add.rectangle(random() * 800, random() * 600, 10 + random() * 60, 10 + random() * 60);
    w.name = `w${i}`;
    walls.add(w);
  }
  return () => {};
};

describe('usePhaserArcade: the handle and the trees', () => {
  beforeAll(() => init());

  test("while in use the world runs with useTree: false and keeps Phaser's own trees; stop() gives useTree back", async () => {
    const g = await game(drift, arcade(), true);
    const { tree, staticTree } = g.world;
    expect(g.world.useTree).toBe(false);
    for (let frame = 0; frame < 5; frame++) g.step(frame * (1000 / 60));
    expect(g.world.tree).toBe(tree);
    expect(g.world.staticTree).toBe(staticTree);
    expect(tree.all()).toEqual([]); // Phaser builds no tree in this mode
    g.handle!.stop();
    expect(g.world.useTree).toBe(true);
    g.step(5 * (1000 / 60));
    expect(new Set(g.world.tree.all())).toEqual(g.world.bodies); // Phaser's own tree again, from its next step
  });

  test('what is not an Arcade world throws InvalidArgument; a second use of one world throws AlreadyRegistered', async () => {
    const g = await game(drift, arcade(), true);
    for (const bad of [null, {}, { bodies: new Set(), staticBodies: new Set() }, g.scene]) {
      expectCode(() => usePhaserArcade(bad as never), 'InvalidArgument', /scene\.physics\.world/);
    }
    expectCode(() => usePhaserArcade(g.world), 'AlreadyRegistered', /stop\(\)/);
    g.handle!.stop();
    const again = usePhaserArcade(g.world);
    g.step(0);
    expect(g.world.useTree).toBe(false);
    again.stop();
  });

  test("stop() gives back useTree and the functions mid-game; the game goes on the same as Phaser's", async () => {
    const physics = arcade(0, { useTree: false });
    const oracle = await game(swarm(300), physics, false);
    const ours = await game(swarm(300), physics, true);
    expect(runTwins(oracle, ours, 20).divergence).toBeUndefined();
    ours.handle!.stop();
    expect(ours.handle!.stopped).toBe(true);
    expectCode(() => ours.handle!.world, 'Disposed');
    expect(ours.world.useTree).toBe(false);
    for (const name of ['collideObjects', 'collideSpriteVsGroup', 'collideSpriteVsSprite', 'destroy']) {
      expect(Object.prototype.hasOwnProperty.call(ours.world, name), name).toBe(false);
    }
    expect(Object.prototype.hasOwnProperty.call(ours.world.colliders, 'update')).toBe(false);
    ours.handle!.stop(); // idempotent
    // from here both games run Phaser's own code alike
    expect(runTwins(oracle, ours, 20).divergence).toBeUndefined();
  });

  test("the world's destroy (its scene shutting down) stops the handle", async () => {
    const g = await game(drift, arcade(), true);
    g.step(0);
    destroyGames(games.splice(games.indexOf(g), 1)[0]);
    expect(g.handle!.stopped).toBe(true);
  });
});
