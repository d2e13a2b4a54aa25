// sweep-prune/matter on the matter-js that Phaser bundles (`Phaser.Physics.Matter.Matter`, 0.20 in Phaser 4), inside
// a real Phaser game (the `phaser` package from npm, HEADLESS, in Node): useSweepPrune on the game's
// `scene.matter.world.engine`, and at every step Phaser's own `Detector.collisions` run on the same bodies in the same
// state as the oracle. Scenes are built with Phaser's matter API: stacks, circles and polygons on static ground,
// compound bodies, sensors, collision categories, sleeping, bodies moved by hand, made static, added and destroyed.
import type PhaserNs from 'phaser';
import { beforeAll, describe, expect, test } from 'vitest';
import { type MatterModule, type MatterBodyLike, useSweepPrune } from '../../../web/src/adapters/matter/index.js';
import { init } from '../../../web/src/index.js';
import { mulberry32 } from '../oracle.js';
import { type Phaser as PhaserApi, load } from './phaser-twin.js';
// @ts-expect-error: a plain .mjs script without types
import { createGame } from '../../../web/scripts/phaser-headless.mjs';

type Scene = PhaserNs.Scene;
type MatterCollision = { bodyA: { id: number }; bodyB: { id: number } };
type Matter = MatterModule<MatterBodyLike, unknown, MatterCollision> & {
  Detector: { create(options: { bodies: MatterBodyLike[] }): unknown };
  Pairs: { update(pairs: unknown, collisions: MatterCollision[], timestamp: number): unknown };
  Body: { create(options: object): MatterBodyLike };
};

let Phaser: PhaserApi;
let Matter: Matter;

beforeAll(async () => {
  Phaser = await load();
  Matter = (Phaser.Physics.Matter as unknown as { Matter: Matter }).Matter;
  await init();
});

/** Part id pairs of a step's collisions, lower id first, sorted. */
function collisionKeys(collisions: MatterCollision[]): string[] {
  return collisions.map(({ bodyA: { id: a }, bodyB: { id: b } }) => (a < b ? `${a}:${b}` : `${b}:${a}`)).sort();
}

/**
 * A level built with Phaser's matter API: static ground and ledges, stacks of boxes, circles and polygons, compound
 * bodies, a sensor, two collision categories. Returns what runs before each step.
 */
function level(scene: Scene, random: () => number): (frame: number) => void {
  const add = scene.matter.add;
  scene.matter.world.setBounds(0, 0, 1200, 800);
  add.rectangle(600, 780, 1200, 40, { isStatic: true });
  for (let i = 0; i < 6; i++)
    add.rectangle(150 + i * 180, 400 + (i % 2) * 150, 120, 16, { isStatic: true, angle: 0.1 * (i - 3) });
  add.rectangle(600, 300, 300, 20, { isStatic: true, isSensor: true });
  const red = scene.matter.world.nextCategory();
  const bodies: MatterJS.BodyType[] = [];
  for (let i = 0; i < 160; i++) {
    const x = 60 + random() * 1080;
    const y = 20 + random() * 350;
    const kind = i % 4;
    const body =
      kind === 0
        ? add.rectangle(x, y, 14 + random() * 20, 14 + random() * 20)
        : kind === 1
          ? add.circle(x, y, 6 + random() * 10)
          : kind === 2
            ? add.polygon(x, y, 3 + (i % 5), 10 + random() * 8)
            : add.trapezoid(x, y, 24, 16, 0.5);
    if (i % 7 === 0) body.collisionFilter.category = red;
    if (i % 11 === 0) body.collisionFilter.mask = ~red;
    bodies.push(body);
  }
  // compound bodies: two parts each
  for (let i = 0; i < 12; i++) {
    const x = 100 + i * 90;
    const parts = [
      ((Matter as any).Bodies as { rectangle(...a: number[]): MatterBodyLike }).rectangle(x, 100, 40, 10),
      ((Matter as any).Bodies as { rectangle(...a: number[]): MatterBodyLike }).rectangle(x, 120, 10, 40),
    ];
    scene.matter.world.add(Matter.Body.create({ parts }) as never);
  }
  return (frame) => {
    if (frame % 20 === 5) {
      // moved by hand, made static and back, destroyed and added, through Phaser's API
      const body = bodies[Math.floor(random() * bodies.length)]!;
      scene.matter.body.setPosition(body, { x: 100 + random() * 1000, y: 50 + random() * 200 }, false);
      const other = bodies[Math.floor(random() * bodies.length)]!;
      scene.matter.body.setStatic(other, !other.isStatic);
      const gone = bodies.splice(Math.floor(random() * bodies.length), 1)[0]!;
      scene.matter.world.remove(gone);
      bodies.push(add.circle(200 + random() * 800, 40, 8));
    }
  };
}

describe('sweep-prune/matter on Phaser.Physics.Matter.Matter, inside a Phaser game', () => {
  for (const sleeping of [false, true]) {
    test(`the same collisions as Phaser's own matter detector every step (sleeping ${sleeping ? 'on' : 'off'})`, async () => {
      const random = mulberry32(3);
      let tick: (frame: number) => void = () => {};
      const made = (await createGame(Phaser, {
        physics: { default: 'matter', matter: { gravity: { x: 0, y: 1 }, enableSleeping: sleeping } },
        width: 1200,
        height: 800,
        create: (scene: Scene) => {
          tick = level(scene, random);
        },
      })) as { game: PhaserNs.Game; scene: Scene; step: (time: number, delta?: number) => void };
      const engine = made.scene.matter.world.engine as unknown as Parameters<typeof useSweepPrune>[1];
      const detector = useSweepPrune(Matter, engine);
      // Phaser's engine calls Pairs.update with the step's collisions, right after Detector.collisions
      const update = Matter.Pairs.update;
      let steps = 0;
      let total = 0;
      let events = 0;
      made.scene.matter.world.on('collisionstart', () => events++);
      Matter.Pairs.update = (pairs, collisions, timestamp) => {
        if (pairs === detector.pairs) {
          const oracle = Matter.Detector.create({ bodies: detector.bodies.slice(0) });
          const expected = collisionKeys(Matter.Detector.collisions(oracle as never) as MatterCollision[]);
          const got = collisionKeys(collisions);
          expect(got).toEqual(expected);
          steps++;
          total += collisions.length;
        }
        return update(pairs, collisions, timestamp);
      };
      let bodies = 0;
      try {
        for (let frame = 0; frame < 240; frame++) {
          tick(frame);
          made.step(frame * (1000 / 60), 1000 / 60);
        }
        bodies = detector.bodies.length;
      } finally {
        Matter.Pairs.update = update;
        detector.dispose();
        made.game.destroy(true);
        made.step(0, 0);
      }
      // Phaser's runner steps the engine as wall time allows: about once a frame
      expect(steps).toBeGreaterThan(200);
      expect(total).toBeGreaterThan(5000);
      expect(events).toBeGreaterThan(100);
      expect(bodies).toBeGreaterThan(180);
    });
  }
});
