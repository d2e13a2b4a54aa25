// sweep-prune/matter against matter-js's own detector: the real matter-js from npm, scenes built with its public API.
// Two ways: (1) one engine on our detector, and at every step matter's own Detector.collisions run on the same bodies
// in the same state, as the oracle (default pair order, sleeping, adds and removes, hand moves); (2) two identical
// engines, one per detector, stepped side by side with the pair order made canonical as matter's own test worker
// does (test/ExampleWorker.js, `stableSort`): the same collisions and contact pairs at every step, and bit-identical
// bodies at the end.
import Matter from 'matter-js';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { SweepPruneDetector, useMatterDetector, useSweepPrune } from '../../../web/src/adapters/matter/index.js';
import { roundDown, roundUp, storeDown, storeUp } from '../../../web/src/float32.js';
import { init } from '../../../web/src/index.js';
import { mulberry32 } from '../oracle.js';

const { Bodies, Body, Collision, Composite, Composites, Detector, Engine, Pairs, Query } = Matter;

// a SweepPruneError with this code, its message matching
function expectCode(fn: () => unknown, code: string, message = /./): void {
  expect(fn).toThrow(
    expect.objectContaining({ name: 'SweepPruneError', code, message: expect.stringMatching(message) }),
  );
}

describe('before init()', () => {
  test('new SweepPruneDetector throws NotInitialized naming init()', () => {
    expectCode(() => new SweepPruneDetector(Matter), 'NotInitialized', /await init\(\)/);
  });
});

// ---- scenes: each builds into an empty world with a seeded PRNG, so two calls build identical worlds

type Scene = (world: Matter.World, random: () => number) => void;

function walls(world: Matter.World, w: number, h: number): void {
  Composite.add(world, [
    Bodies.rectangle(w / 2, h + 25, w + 100, 50, { isStatic: true }),
    Bodies.rectangle(-25, h / 2, 50, h * 2, { isStatic: true }),
    Bodies.rectangle(w + 25, h / 2, 50, h * 2, { isStatic: true }),
  ]);
}

const scenes: Record<string, Scene> = {
  // boxes and polygons in stacks falling on a floor
  stacks: (world) => {
    walls(world, 800, 600);
    Composite.add(
      world,
      Composites.stack(100, 100, 10, 6, 0, 0, (x: number, y: number) => Bodies.rectangle(x, y, 30, 30)),
    );
    Composite.add(
      world,
      Composites.pyramid(450, 0, 9, 6, 0, 0, (x: number, y: number) => Bodies.rectangle(x, y, 32, 32)),
    );
    Composite.add(
      world,
      Composites.stack(420, 250, 6, 3, 4, 4, (x: number, y: number, column: number) =>
        column % 2 ? Bodies.circle(x, y, 12) : Bodies.polygon(x, y, 5, 14),
      ),
    );
  },
  // a grid of static platforms (touching on x, as matter's sweep sees them) and circles falling through it
  staticHeavy: (world, random) => {
    const platforms: Matter.Body[] = [];
    for (let i = 0; i < 24; i++) {
      for (let j = 0; j < 24; j++) {
        const angle = (i + j) % 5 === 0 ? 0.3 : 0;
        platforms.push(Bodies.rectangle(40 + i * 40, 60 + j * 40, 28, 6, { isStatic: true, angle }));
      }
    }
    Composite.add(world, platforms);
    walls(world, 1000, 1040);
    const movers: Matter.Body[] = [];
    for (let k = 0; k < 160; k++) {
      movers.push(Bodies.circle(30 + random() * 940, -400 + random() * 900, 5 + random() * 6, { restitution: 0.3 }));
    }
    Composite.add(world, movers);
  },
  // compound bodies (parts), a non-colliding group, filtered categories
  compound: (world, random) => {
    walls(world, 800, 600);
    for (let k = 0; k < 12; k++) {
      const x = 100 + (k % 6) * 110;
      const y = 100 + Math.floor(k / 6) * 150;
      const parts = [Bodies.rectangle(x, y, 60, 12), Bodies.rectangle(x, y, 12, 60), Bodies.circle(x + 30, y, 9)];
      Composite.add(world, Body.create({ parts, angle: random() }));
    }
    // a chain in one non-colliding group (negative): its links never collide with each other
    const group = Body.nextGroup(true);
    for (let k = 0; k < 8; k++) {
      Composite.add(world, Bodies.rectangle(300 + k * 22, 40 + k * 3, 30, 10, { collisionFilter: { group } }));
    }
    // a rope of constraints: sleeping links are still moved by their constraints
    const rope = Composites.stack(560, 60, 8, 1, 6, 0, (x: number, y: number) =>
      Bodies.rectangle(x, y, 20, 8, { collisionFilter: { group: Body.nextGroup(true) } }),
    );
    Composites.chain(rope, 0.5, 0, -0.5, 0, { stiffness: 0.8, length: 2 });
    Composite.add(
      rope,
      Matter.Constraint.create({
        bodyB: rope.bodies[0]!,
        pointB: { x: -10, y: 0 },
        pointA: { x: 550, y: 60 },
        stiffness: 0.5,
      }),
    );
    Composite.add(world, rope);
    const red = 0x2;
    const blue = 0x4;
    for (let k = 0; k < 30; k++) {
      const cat = k % 2 ? red : blue;
      Composite.add(
        world,
        Bodies.rectangle(60 + random() * 680, 300 + random() * 200, 20, 20, {
          collisionFilter: { category: cat, mask: 0x1 | cat },
        }),
      );
    }
  },
};

// ---- stepping and comparing

// fields of matter 0.20 that @types/matter-js 0.20 does not declare
const pairList = (pairs: Matter.Pairs) =>
  (pairs as unknown as { list: (Matter.Pair & { contactCount: number })[] }).list;
const lastCollisions = (engine: Matter.Engine) =>
  (engine.detector as unknown as { collisions: Matter.Collision[] }).collisions;

/** Part id pairs of a step's collisions, lower id first, sorted. */
function collisionKeys(collisions: Matter.Collision[], name: (id: number) => number): string[] {
  return collisions
    .map((c) => {
      const a = name(c.bodyA.id);
      const b = name(c.bodyB.id);
      return a < b ? `${a}:${b}` : `${b}:${a}`;
    })
    .sort();
}

/** matter's own Detector.collisions on the same bodies in their current state (pairs are not reused). */
function oracleCollisions(bodies: Matter.Body[]): Matter.Collision[] {
  const plain = Detector.create({ bodies: bodies.slice(0) });
  return Detector.collisions(plain);
}

// Wrap Pairs.update (Engine.update calls it with the step's collisions, right after Detector.collisions) to check
// ours against the oracle on the very same state. Restored by the returned function.
function checkEveryStep(detector: SweepPruneDetector<Matter.Body, Matter.Pairs, Matter.Collision>): {
  restore: () => void;
  steps: () => number;
  collisions: () => number;
} {
  const original = Pairs.update;
  let steps = 0;
  let total = 0;
  Pairs.update = (pairs, collisions, timestamp) => {
    if (pairs === detector.pairs) {
      const id = (n: number) => n;
      const expected = collisionKeys(oracleCollisions(detector.bodies), id);
      expect(collisionKeys(collisions, id)).toEqual(expected);
      steps++;
      total += collisions.length;
    }
    return original(pairs, collisions, timestamp);
  };
  return { restore: () => void (Pairs.update = original), steps: () => steps, collisions: () => total };
}

let detectors: SweepPruneDetector<Matter.Body, Matter.Pairs, Matter.Collision>[] = [];
function ours(): SweepPruneDetector<Matter.Body, Matter.Pairs, Matter.Collision> {
  const d = new SweepPruneDetector(Matter);
  detectors.push(d);
  return d;
}

describe('sweep-prune/matter', () => {
  beforeAll(() => init());
  afterEach(() => {
    for (const d of detectors) d.dispose();
    detectors = [];
  });

  describe('the same collisions as matter.Detector on the same state, every step', () => {
    for (const [name, build] of Object.entries(scenes)) {
      for (const sleeping of [false, true]) {
        test(`${name}, sleeping ${sleeping ? 'on' : 'off'}, 240 steps`, () => {
          const detector = ours();
          const engine = Engine.create({ detector, enableSleeping: sleeping });
          build(engine.world, mulberry32(7));
          const check = checkEveryStep(detector);
          try {
            for (let s = 0; s < 240; s++) Engine.update(engine, 1000 / 60);
          } finally {
            check.restore();
          }
          expect(check.steps()).toBe(240);
          expect(check.collisions()).toBeGreaterThan(1000);
          if (sleeping) expect(Composite.allBodies(engine.world).some((b) => b.isSleeping)).toBe(true);
        });
      }
    }

    test('bodies added and removed mid-run, static bodies moved by hand, sleepers woken, a detector swapped in', () => {
      const engine = Engine.create({ enableSleeping: true });
      const random = mulberry32(11);
      scenes.staticHeavy!(engine.world, random);
      // start on matter's detector, then swap ours in mid-simulation
      for (let s = 0; s < 30; s++) Engine.update(engine, 1000 / 60);
      const detector = useSweepPrune(Matter, engine);
      detectors.push(detector);
      expect(engine.detector).toBe(detector);
      const check = checkEveryStep(detector);
      const added: Matter.Body[] = [];
      try {
        for (let s = 0; s < 300; s++) {
          if (s % 7 === 0) {
            const b =
              random() < 0.5
                ? Bodies.circle(50 + random() * 900, -50, 8)
                : Body.create({
                    parts: [Bodies.rectangle(500 + random() * 300, -40, 40, 8), Bodies.rectangle(500, -40, 8, 40)],
                  });
            added.push(b);
            Composite.add(engine.world, b);
          }
          if (s % 11 === 5 && added.length > 2) Composite.remove(engine.world, added.splice(1, 1)[0]!);
          if (s % 13 === 0) {
            // a static platform moved, rotated and scaled by hand
            const platforms = Composite.allBodies(engine.world).filter((b) => b.isStatic);
            const p = platforms[Math.floor(random() * platforms.length)]!;
            Body.setPosition(p, { x: p.position.x + 15, y: p.position.y - 10 });
            Body.rotate(p, 0.2);
            if (s % 2) Body.scale(p, 1.5, 1);
          }
          if (s % 17 === 0) {
            for (const b of Composite.allBodies(engine.world)) {
              if (b.isSleeping) {
                Matter.Sleeping.set(b, false);
                Body.applyForce(b, b.position, { x: 0, y: -0.002 * b.mass });
              }
            }
          }
          if (s === 200) {
            // more hand moves than the movers' log keeps: the static body moved before them is still seen
            const p = Composite.allBodies(engine.world).find((b) => b.isStatic)!;
            const before = { min: { ...p.bounds.min }, max: { ...p.bounds.max } };
            Body.setPosition(p, { x: p.position.x - 100, y: p.position.y });
            const q = added[added.length - 1]!;
            for (let k = 0; k < 5000; k++) Body.setPosition(q, { x: q.position.x, y: q.position.y });
            expect(detector.region(p.bounds)).toContain(p);
            expect(detector.region(before)).not.toContain(p);
            // a sleeping body moved without matter's Body functions (as a constraint moves one) is seen too
            const sleeper = Composite.allBodies(engine.world).find((b) => b.isSleeping)!;
            const from = { min: { ...sleeper.bounds.min }, max: { ...sleeper.bounds.max } };
            const shift = { x: 3000, y: 0 }; // out of the level, where nothing wakes it
            for (const part of sleeper.parts) {
              Matter.Vertices.translate(part.vertices, shift, 1);
              Matter.Bounds.shift(part.bounds, { x: part.bounds.min.x + shift.x, y: part.bounds.min.y });
              part.position.x += shift.x;
            }
            Engine.update(engine, 1000 / 60); // queries see such a move after the next step (the step looks)
            expect(sleeper.isSleeping).toBe(true);
            expect(detector.region(sleeper.bounds)).toContain(sleeper);
            expect(detector.region(from)).not.toContain(sleeper);
          }
          if (s === 150) {
            // a body made static by hand, and a static one made dynamic
            Body.setStatic(added[0]!, true);
            Body.setStatic(
              Composite.allBodies(engine.world).find((b) => b.isStatic && b.angle === 0)!,
              false,
            );
          }
          Engine.update(engine, 1000 / 60);
        }
      } finally {
        check.restore();
      }
      expect(check.steps()).toBe(301);
      expect(detector.world.boxCount).toBe(Composite.allBodies(engine.world).length);
    });

    // Body.setStatic keeps a body's position impulse, which matter's Resolver.postSolvePosition goes on applying (and
    // shrinking) every step: a static body that still moves without any of matter's Body functions
    test('bodies made static while their contacts push them: the moves matter still gives them are seen', () => {
      const detector = ours();
      const engine = Engine.create({ detector });
      walls(engine.world, 800, 600);
      const stack = Composites.stack(200, 100, 12, 10, 0, 0, (x: number, y: number) => Bodies.rectangle(x, y, 24, 24));
      Composite.add(engine.world, stack);
      const check = checkEveryStep(detector);
      let frozen = 0;
      try {
        for (let s = 0; s < 200; s++) {
          if (s >= 40 && s % 10 === 0) {
            for (const b of Composite.allBodies(stack)) {
              const impulse = (b as unknown as { positionImpulse: Matter.Vector }).positionImpulse; // not in @types
              if (!b.isStatic && (impulse.x !== 0 || impulse.y !== 0) && (b.id + s) % 5 === 0) {
                Body.setStatic(b, true);
                frozen++;
              }
            }
            Composite.add(engine.world, Bodies.circle(220 + (s % 7) * 40, 0, 10));
          }
          Engine.update(engine, 1000 / 60);
        }
      } finally {
        check.restore();
      }
      expect(frozen).toBeGreaterThan(10);
      expect(check.steps()).toBe(200);
    });

    test('still bodies switch to static boxes when many sleep, and back when they wake', () => {
      const detector = ours();
      const engine = Engine.create({ detector, enableSleeping: true });
      walls(engine.world, 800, 600);
      Composite.add(
        engine.world,
        Composites.stack(50, 300, 25, 12, 0, 0, (x: number, y: number) => Bodies.rectangle(x, y, 26, 24)),
      );
      const check = checkEveryStep(detector);
      const staticBoxes: number[] = [];
      try {
        for (let s = 0; s < 420; s++) {
          if (s === 300) {
            for (const b of Composite.allBodies(engine.world)) {
              if (b.isSleeping) {
                Matter.Sleeping.set(b, false);
                Body.applyForce(b, b.position, { x: 0, y: -0.01 * b.mass });
              }
            }
          }
          Engine.update(engine, 1000 / 60);
          staticBoxes.push(detector.world.counters.staticBoxes);
        }
      } finally {
        check.restore();
      }
      expect(Math.max(...staticBoxes.slice(0, 300))).toBeGreaterThanOrEqual(256);
      expect(Math.min(...staticBoxes.slice(300, 330))).toBe(0);
    });

    test('Detector.clear, then new bodies', () => {
      const detector = ours();
      const engine = Engine.create({ detector });
      scenes.stacks!(engine.world, mulberry32(1));
      for (let s = 0; s < 20; s++) Engine.update(engine, 1000 / 60);
      Engine.clear(engine);
      Composite.clear(engine.world, false);
      expect(detector.bodies).toEqual([]);
      scenes.compound!(engine.world, mulberry32(2));
      const check = checkEveryStep(detector);
      try {
        for (let s = 0; s < 60; s++) Engine.update(engine, 1000 / 60);
      } finally {
        check.restore();
      }
      expect(detector.world.boxCount).toBe(Composite.allBodies(engine.world).length);
    });
  });

  describe('two engines side by side, pair order canonical (matter test worker stableSort)', () => {
    const restore: (() => void)[] = [];
    beforeAll(() => {
      // as test/ExampleWorker.js: collides() with the lower id first, collisions and pairs sorted by ids
      const collides = Collision.collides;
      Collision.collides = (a, b, pairs) => (a.id < b.id ? collides(a, b, pairs) : collides(b, a, pairs));
      const update = Pairs.update;
      const byIds = (a: Matter.Collision, b: Matter.Collision) => a.bodyA.id - b.bodyA.id || a.bodyB.id - b.bodyB.id;
      Pairs.update = (pairs, collisions, timestamp) => {
        collisions.sort(byIds);
        const list = pairList(pairs);
        list.sort((a, b) => byIds(a.collision, b.collision));
        update(pairs, collisions, timestamp);
        list.sort((a, b) => byIds(a.collision, b.collision));
      };
      restore.push(
        () => void (Collision.collides = collides),
        () => void (Pairs.update = update),
      );
    });
    afterAll(() => restore.forEach((r) => r()));

    // Both worlds are built by the same code; a body's name is its rank among its world's ids (parts included).
    function names(world: Matter.World): (id: number) => number {
      const ids = Composite.allBodies(world)
        .flatMap((b) => b.parts.map((p) => p.id))
        .sort((a, b) => a - b);
      const rank = new Map(ids.map((id, i) => [id, i]));
      return (id) => rank.get(id) ?? -1;
    }

    function pairState(engine: Matter.Engine, name: (id: number) => number): unknown[] {
      return pairList(engine.pairs).map((p) => [
        name(p.bodyA.id),
        name(p.bodyB.id),
        p.isActive,
        p.contactCount,
        p.collision.depth,
        p.collision.normal.x,
        p.collision.normal.y,
      ]);
    }

    for (const [name, build] of Object.entries(scenes)) {
      test(`${name}, sleeping on: same collisions and contact pairs each step, same bodies after 300 steps`, () => {
        const detector = ours();
        const a = Engine.create({ enableSleeping: true });
        const b = Engine.create({ enableSleeping: true, detector });
        build(a.world, mulberry32(3));
        build(b.world, mulberry32(3));
        const nameA = names(a.world);
        const nameB = names(b.world);
        for (let s = 0; s < 300; s++) {
          Engine.update(a, 1000 / 60);
          Engine.update(b, 1000 / 60);
          expect(collisionKeys(detector.collisions, nameB)).toEqual(collisionKeys(lastCollisions(a), nameA));
          expect(pairState(b, nameB)).toEqual(pairState(a, nameA));
        }
        const bodiesA = Composite.allBodies(a.world);
        const bodiesB = Composite.allBodies(b.world);
        expect(bodiesB.map((x) => [x.position.x, x.position.y, x.angle, x.velocity.x, x.isSleeping])).toEqual(
          bodiesA.map((x) => [x.position.x, x.position.y, x.angle, x.velocity.x, x.isSleeping]),
        );
        expect(bodiesA.some((x) => x.isSleeping)).toBe(true);
      });
    }
  });

  describe('queries give what matter.Query gives', () => {
    test('region, point and ray on a running scene, also after hand moves between queries', () => {
      const detector = ours();
      const engine = Engine.create({ detector, enableSleeping: true });
      scenes.staticHeavy!(engine.world, mulberry32(5));
      scenes.compound!(engine.world, mulberry32(6));
      const random = mulberry32(9);
      let hits = 0;
      const ids = (list: { id: number }[]) => list.map((b) => b.id);
      const rayKey = (cs: Matter.Collision[]) => cs.map((c) => [c.bodyA.id, c.depth, c.normal.x, c.normal.y]);
      for (let s = 0; s < 120; s++) {
        Engine.update(engine, 1000 / 60);
        if (s % 10 === 3) {
          const p = Composite.allBodies(engine.world)[Math.floor(random() * 50)]!;
          Body.setPosition(p, { x: p.position.x + 30 * (random() - 0.5), y: p.position.y + 30 * (random() - 0.5) });
        }
        const all = Composite.allBodies(engine.world);
        for (let q = 0; q < 6; q++) {
          const x = random() * 1000;
          const y = random() * 1000;
          const w = random() * 200;
          const bounds = { min: { x, y }, max: { x: x + w, y: y + w / 2 } };
          const region = detector.region(bounds);
          expect(ids(region)).toEqual(ids(Query.region(all, bounds)));
          expect(ids(detector.region(bounds, true))).toEqual(ids(Query.region(all, bounds, true)));
          // the point: sometimes a body's centre, so that points inside bodies are tested
          const point = q % 2 ? { x, y } : { ...all[Math.floor(random() * all.length)]!.position };
          const found = detector.point(point);
          expect(ids(found)).toEqual(ids(Query.point(all, point)));
          const end = { x: x + (random() - 0.5) * 600, y: y + (random() - 0.5) * 600 };
          const width = q % 3 === 0 ? undefined : random() * 10;
          const ray = detector.ray(point, end, width);
          expect(rayKey(ray)).toEqual(rayKey(Query.ray(all, point, end, width)));
          // an axis-aligned ray of zero width along a platform's edge
          const edge = all.find((b) => b.isStatic && b.angle === 0)!;
          const from = { x: edge.bounds.min.x - 20, y: edge.bounds.min.y };
          const to = { x: edge.bounds.max.x + 20, y: edge.bounds.min.y };
          expect(rayKey(detector.ray(from, to))).toEqual(rayKey(Query.ray(all, from, to)));
          hits += region.length + found.length + ray.length;
        }
      }
      expect(hits).toBeGreaterThan(500);
    });

    test('NaN and infinite query arguments get what matter.Query gives (a ray from a body gone NaN: no throw)', () => {
      const detector = ours();
      const engine = Engine.create({ detector });
      scenes.stacks!(engine.world, mulberry32(5));
      for (let s = 0; s < 30; s++) Engine.update(engine, 1000 / 60);
      const all = Composite.allBodies(engine.world);
      const lost = all[10]!;
      Body.setPosition(lost, { x: NaN, y: 300 });
      const ids = (list: { id: number }[]) => list.map((b) => b.id);
      const rayKey = (cs: Matter.Collision[]) => cs.map((c) => [c.bodyA.id, c.depth, c.normal.x, c.normal.y]);
      let found = 0;
      const v = (x: number, y: number) => ({ x, y });
      for (const bounds of [
        { min: v(0, NaN), max: v(800, 600) },
        { min: v(-Infinity, -Infinity), max: v(Infinity, Infinity) },
        { min: v(400, -Infinity), max: v(Infinity, 500) },
        { min: v(NaN, NaN), max: v(NaN, NaN) },
      ]) {
        for (const outside of [false, true]) {
          const expected = ids(Query.region(all, bounds, outside));
          expect(ids(detector.region(bounds, outside))).toEqual(expected);
          found += expected.length;
        }
      }
      for (const point of [lost.position, v(Infinity, 300), v(200, -Infinity)]) {
        expect(ids(detector.point(point))).toEqual(ids(Query.point(all, point)));
      }
      const rays: [Matter.Vector, Matter.Vector, number | undefined][] = [
        [lost.position, v(400, 300), undefined],
        [v(0, 560), v(800, NaN), 4],
        [v(0, 560), v(800, 560), NaN],
        [v(0, 560), v(Infinity, 560), undefined],
        [v(0, 560), v(800, 560), Infinity],
      ];
      for (const [from, to, width] of rays) {
        const expected = rayKey(Query.ray(all, from, to, width));
        expect(rayKey(detector.ray(from, to, width))).toEqual(expected);
        found += expected.length;
      }
      expect(found).toBeGreaterThan(100);
      for (let s = 0; s < 5; s++) Engine.update(engine, 1000 / 60); // the NaN body collides with nothing
    });

    test('query arguments that are not numbers throw InvalidBounds', () => {
      const detector = ours();
      expectCode(() => detector.region(null as never), 'InvalidBounds', /region/);
      expectCode(
        () => detector.region({ min: { x: 0, y: '1' as never }, max: { x: 1, y: 1 } }),
        'InvalidBounds',
        /region: bounds/,
      );
      expectCode(() => detector.point({ x: undefined as never, y: 0 }), 'InvalidBounds', /point: point/);
      expectCode(() => detector.ray({ x: 0, y: 0 }, null as never), 'InvalidBounds', /ray: endPoint/);
      expectCode(() => detector.ray({ x: 0, y: 0 }, { x: 1, y: 1 }, -1), 'InvalidBounds', /rayWidth/);
    });
  });

  describe('lifetime and errors', () => {
    test('dispose() frees the World; the engine then throws Disposed; dispose is idempotent', () => {
      const detector = new SweepPruneDetector(Matter);
      const engine = Engine.create({ detector });
      scenes.stacks!(engine.world, mulberry32(1));
      Engine.update(engine, 1000 / 60);
      const world = detector.world;
      detector.dispose();
      expect(detector.disposed).toBe(true);
      expect(world.disposed).toBe(true);
      detector.dispose();
      expectCode(
        () => Engine.update(engine, 1000 / 60),
        'Disposed',
        /Detector\.collisions: this SweepPruneDetector was disposed/,
      );
      expectCode(() => detector.region({ min: { x: 0, y: 0 }, max: { x: 1, y: 1 } }), 'Disposed');
      expectCode(() => detector.world, 'Disposed');
    });

    test('a module that is not matter-js throws InvalidArgument', () => {
      expectCode(() => new SweepPruneDetector({} as never), 'InvalidArgument', /matter-js module/);
      expectCode(() => new SweepPruneDetector(null as never), 'InvalidArgument');
      expectCode(() => useSweepPrune(Matter, null as never), 'InvalidArgument', /useSweepPrune/);
    });

    test('Engine.create given the class instead of an instance throws InvalidArgument naming the fix', () => {
      // matter would keep the class as the engine's detector and fail in its first update with a bare TypeError
      expectCode(
        () => Engine.create({ detector: SweepPruneDetector as never }),
        'InvalidArgument',
        /detector is the SweepPruneDetector class; pass an instance: .*new SweepPruneDetector\(Matter\)/,
      );
    });

    test('a second useSweepPrune on an engine throws AlreadyRegistered and the engine keeps its detector', () => {
      const engine = Engine.create();
      scenes.stacks!(engine.world, mulberry32(5));
      const first = useSweepPrune(Matter, engine);
      detectors.push(first);
      expectCode(() => useSweepPrune(Matter, engine), 'AlreadyRegistered', /useMatterDetector\(Matter, engine\)/);
      const made = Engine.create({ detector: ours() });
      expectCode(() => useSweepPrune(Matter, made), 'AlreadyRegistered');
      expect(engine.detector).toBe(first);
      for (let s = 0; s < 30; s++) Engine.update(engine, 1000 / 60);
      expect(first.collisions.length).toBeGreaterThan(0);
      // a disposed one is no longer in use: replacing it is how the engine gets a working detector again
      first.dispose();
      const second = useSweepPrune(Matter, engine);
      detectors.push(second);
      expect(engine.detector).toBe(second);
      Engine.update(engine, 1000 / 60);
      expect(second.collisions.length).toBeGreaterThan(0);
    });

    test("useMatterDetector on an engine never switched returns the engine's own detector, unchanged", () => {
      const engine = Engine.create();
      scenes.stacks!(engine.world, mulberry32(6));
      Engine.update(engine, 1000 / 60);
      const own = engine.detector;
      const bodies = own.bodies;
      expect(useMatterDetector(Matter, engine)).toBe(own);
      expect(engine.detector).toBe(own);
      expect(own.bodies).toBe(bodies);
    });

    test("matter's own detectors are untouched: a plain engine steps as before", () => {
      const detector = ours();
      const mine = Engine.create({ detector });
      const plain = Engine.create();
      scenes.stacks!(plain.world, mulberry32(4));
      scenes.stacks!(mine.world, mulberry32(4));
      for (let s = 0; s < 5; s++) Engine.update(plain, 1000 / 60);
      expect(plain.detector).not.toBeInstanceOf(SweepPruneDetector);
      expect(lastCollisions(plain).length).toBeGreaterThan(0);
    });
  });

  describe('outward rounding float64 -> float32', () => {
    test('roundDown(x) is the largest float32 <= x and roundUp(x) the smallest >= x', () => {
      const next = (v: number, up: boolean) => {
        const f = new Float32Array([v]);
        const i = new Int32Array(f.buffer);
        if (v === 0) return up ? 1.401298464324817e-45 : -1.401298464324817e-45;
        i[0]! += v > 0 === up ? 1 : -1;
        return f[0]!;
      };
      const values = fc.oneof(
        fc.double({ noNaN: true, min: -3e38, max: 3e38 }),
        fc.double({ noNaN: true, min: -1e-38, max: 1e-38 }),
        fc.integer({ min: -1e6, max: 1e6 }).map((n) => n / 1024),
      );
      fc.assert(
        fc.property(values, (x) => {
          const lo = roundDown(x);
          const hi = roundUp(x);
          expect(Math.fround(lo)).toBe(lo);
          expect(Math.fround(hi)).toBe(hi);
          expect(lo <= x && x <= hi).toBe(true);
          expect(next(lo, true) > x || lo === x).toBe(true);
          expect(next(hi, false) < x || hi === x).toBe(true);
          const f = new Float32Array(4);
          const i = new Int32Array(f.buffer);
          storeDown(f, i, 1, x);
          storeUp(f, i, 2, x);
          expect([f[1], f[2]]).toEqual([lo, hi]);
        }),
        { numRuns: 5000 },
      );
      expect(roundDown(1e39)).toBe(3.4028234663852886e38);
      expect(roundUp(-1e39)).toBe(-3.4028234663852886e38);
      expect(roundDown(-1e39)).toBe(-3.4028234663852886e38);
      expect(roundUp(1e-50)).toBe(1.401298464324817e-45);
      expect(roundDown(-1e-50)).toBe(-1.401298464324817e-45);
      expect(Object.is(roundDown(-0), -0)).toBe(true);
      const f = new Float32Array(2);
      const i = new Int32Array(f.buffer);
      storeDown(f, i, 0, -1e39);
      storeUp(f, i, 1, 1e39);
      expect([f[0], f[1]]).toEqual([-3.4028234663852886e38, 3.4028234663852886e38]);
      storeDown(f, i, 0, -1e-50);
      storeUp(f, i, 1, 1e-50);
      expect([f[0], f[1]]).toEqual([-1.401298464324817e-45, 1.401298464324817e-45]);
    });
  });
});
