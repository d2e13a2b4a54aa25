// sweep-prune/p2 against p2-es's own SAPBroadphase, on scenes built with p2's public API.
// Two checks per scene:
// - one world, our broadphase as p2 uses it, and SAPBroadphase attached to the same world asked for its pairs at
//   the same moment: the same set of pairs at every step;
// - twin worlds, one with each broadphase, both handing their pairs to the narrowphase in one canonical order
//   (p2's solver depends on the pair order): the same pairs at every step and bit-identical bodies after the run,
//   as p2 is deterministic for a given pair order.
import { beforeAll, describe, expect, test } from 'vitest';
import * as p2 from 'p2-es';
import { init, SweepPruneError } from '../../../web/src/index.js';
import { SweepPruneBroadphase } from '../../../web/src/adapters/p2/index.js';
import { updateSimpleAABB } from '../../../web/src/adapters/p2/aabb.js';
import { mulberry32 } from '../oracle.js';
import { Labeled } from './labeled.js';
import { thrown } from './thrown.js';

// before any init(): the engine is not loaded in this file's module graph yet
const beforeInit = thrown(() => new SweepPruneBroadphase());

beforeAll(() => init());

const DT = 1 / 60;

/** Bodies of the scenes, numbered as they are made. */
class Scene extends Labeled<p2.Body, p2.World> {
  box(x: number, y: number, w: number, h: number, options: p2.BodyOptions = { mass: 1 }): p2.Body {
    const b = new p2.Body({ ...options, position: [x, y] });
    b.addShape(new p2.Box({ width: w, height: h }));
    return this.add(b);
  }
  circle(x: number, y: number, r: number, options: p2.BodyOptions = { mass: 1 }): p2.Body {
    const b = new p2.Body({ ...options, position: [x, y] });
    b.addShape(new p2.Circle({ radius: r }));
    return this.add(b);
  }
  ground(): p2.Body {
    const b = new p2.Body({ mass: 0 });
    b.addShape(new p2.Plane());
    return this.add(b);
  }
}

interface SceneDef {
  steps: number;
  sleep?: boolean;
  circles?: boolean; // boundingVolumeType = BOUNDING_CIRCLE on both broadphases
  build(s: Scene): void;
  beforeStep?(s: Scene, step: number): void;
}

function pairKeys(pairs: readonly p2.Body[], label: Map<p2.Body, number>): string[] {
  const keys: string[] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    const a = label.get(pairs[i]!)!;
    const b = label.get(pairs[i + 1]!)!;
    keys.push(a < b ? `${a},${b}` : `${b},${a}`);
  }
  return keys.sort();
}

/** Sort a flat pair array in place by (lower label, higher label), the lower first in each pair. */
function canonical(pairs: p2.Body[], label: Map<p2.Body, number>): p2.Body[] {
  const list: [p2.Body, p2.Body][] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    const a = pairs[i]!;
    const b = pairs[i + 1]!;
    list.push(label.get(a)! < label.get(b)! ? [a, b] : [b, a]);
  }
  list.sort((x, y) => label.get(x[0])! - label.get(y[0])! || label.get(x[1])! - label.get(y[1])!);
  pairs.length = 0;
  for (const [a, b] of list) pairs.push(a, b);
  return pairs;
}

class OrderedSAP extends p2.SAPBroadphase {
  label = new Map<p2.Body, number>();
  override getCollisionPairs(world: p2.World): p2.Body[] {
    return canonical(super.getCollisionPairs(world), this.label);
  }
}

class OrderedOurs extends SweepPruneBroadphase {
  label = new Map<p2.Body, number>();
  override getCollisionPairs(world: p2.World): p2.Body[] {
    return canonical(super.getCollisionPairs(world), this.label);
  }
}

/** Ours as p2 uses it, with SAPBroadphase asked for the pairs of the same world at the same moment. */
class Checked extends SweepPruneBroadphase {
  readonly oracle = new p2.SAPBroadphase();
  label = new Map<p2.Body, number>();
  pairs = 0;
  override setWorld(world: p2.World): void {
    super.setWorld(world);
    this.oracle.setWorld(world);
  }
  override getCollisionPairs(world: p2.World): p2.Body[] {
    const ours = super.getCollisionPairs(world);
    const keys = pairKeys(ours, this.label);
    const expected = pairKeys(this.oracle.getCollisionPairs(world), this.label);
    if (keys.join(' ') !== expected.join(' ')) expect(keys).toEqual(expected);
    this.pairs += keys.length;
    return ours;
  }
}

function makeScene(def: SceneDef, broadphase: p2.Broadphase, seed: number): Scene {
  const world = new p2.World({ gravity: [0, -10], broadphase });
  if (def.sleep) world.sleepMode = p2.World.BODY_SLEEPING;
  const s = new Scene(world, seed);
  (broadphase as { label?: Map<p2.Body, number> }).label = s.label;
  if (def.circles) {
    broadphase.boundingVolumeType = p2.Broadphase.BOUNDING_CIRCLE;
    if (broadphase instanceof Checked) broadphase.oracle.boundingVolumeType = p2.Broadphase.BOUNDING_CIRCLE;
  }
  def.build(s);
  return s;
}

function step(def: SceneDef, s: Scene, i: number): void {
  def.beforeStep?.(s, i);
  s.world.step(DT);
}

interface RunStats {
  pairs: number;
  maxSleeping: number;
}

/** One world, ours checked against SAPBroadphase at every step. */
function runChecked(def: SceneDef, seed = 1): { s: Scene; bp: Checked; stats: RunStats } {
  const bp = new Checked();
  const s = makeScene(def, bp, seed);
  let maxSleeping = 0;
  for (let i = 0; i < def.steps; i++) {
    step(def, s, i);
    maxSleeping = Math.max(maxSleeping, s.live.filter((b) => b.sleepState === p2.Body.SLEEPING).length);
  }
  return { s, bp, stats: { pairs: bp.pairs, maxSleeping } };
}

/** Twin worlds in canonical pair order: the pairs of every step and, at the end, every body's state. */
function runTwins(def: SceneDef, seed = 2): number {
  const sap = makeScene(def, new OrderedSAP(), seed);
  const ours = makeScene(def, new OrderedOurs(), seed);
  const logs: string[][][] = [[], []];
  sap.world.on('postBroadphase', (e) => logs[0]!.push(pairKeys(e.pairs, sap.label)));
  ours.world.on('postBroadphase', (e) => logs[1]!.push(pairKeys(e.pairs, ours.label)));
  let pairs = 0;
  for (let i = 0; i < def.steps; i++) {
    step(def, sap, i);
    step(def, ours, i);
    const [a, b] = [logs[0]![i]!, logs[1]![i]!];
    if (a.join(' ') !== b.join(' ')) expect({ step: i, pairs: b }).toEqual({ step: i, pairs: a });
    pairs += a.length;
  }
  const state = (s: Scene) =>
    s.live.map((b) => [
      s.label.get(b),
      b.position[0],
      b.position[1],
      b.angle,
      b.velocity[0],
      b.velocity[1],
      b.sleepState,
    ]);
  expect(state(ours)).toEqual(state(sap));
  (ours.world.broadphase as SweepPruneBroadphase).dispose();
  return pairs;
}

const stacks: SceneDef = {
  steps: 240,
  build(s) {
    s.ground();
    for (let c = 0; c < 8; c++) {
      for (let k = 0; k < 12; k++) {
        const x = c * 3 + (s.rng() - 0.5) * 0.2;
        if (k % 3 === 2) s.circle(x, 0.5 + k * 1.05, 0.45);
        else s.box(x, 0.5 + k * 1.05, 0.9 + s.rng() * 0.2, 0.9);
      }
    }
  },
};

const level: SceneDef = {
  steps: 200,
  sleep: true,
  build(s) {
    s.ground();
    // 600 static platforms in a staggered grid, 300 movers dropped onto them
    for (let i = 0; i < 30; i++) {
      for (let j = 0; j < 20; j++) s.box(i * 4 + (j % 2) * 2, 2 + j * 3, 2.5, 0.3, { mass: 0 });
    }
    for (let k = 0; k < 300; k++) {
      const x = s.rng() * 118;
      const y = 2 + s.rng() * 60;
      if (k % 2 === 0) s.circle(x, y + 0.8, 0.3 + s.rng() * 0.3);
      else s.box(x, y + 0.8, 0.5 + s.rng() * 0.5, 0.5 + s.rng() * 0.5);
    }
  },
};

const churn: SceneDef = {
  steps: 200,
  sleep: true,
  build(s) {
    s.ground();
    for (let k = 0; k < 150; k++) s.box(s.rng() * 40, 1 + s.rng() * 20, 0.8, 0.8);
    for (let k = 0; k < 20; k++) s.box(k * 2, 0.3, 1, 0.6, { mass: 0 });
  },
  beforeStep(s, i) {
    if (i % 5 === 4) {
      // remove a random body (sometimes a static one), add a dynamic body and, every 20 steps, a static one
      const victim = s.live[1 + Math.floor(s.rng() * (s.live.length - 1))]!;
      s.remove(victim);
      s.box(s.rng() * 40, 10 + s.rng() * 10, 0.6 + s.rng() * 0.4, 0.6);
      if (i % 20 === 19) s.box(s.rng() * 40, 0.3, 1.2, 0.6, { mass: 0 });
    }
  },
};

const kinematic: SceneDef = {
  steps: 180,
  sleep: true,
  build(s) {
    s.ground();
    for (let k = 0; k < 10; k++) s.box(k * 6, 4, 0.5, 8, { mass: 0 }); // static walls
    for (let k = 0; k < 6; k++) {
      // kinematic paddles, two by two at one height and heading for each other, sweeping through walls and movers
      s.box(k * 9, 1 + (k >> 1) * 1.5, 3, 0.4, { type: p2.Body.KINEMATIC, velocity: [k % 2 ? -4 : 4, 0] });
    }
    for (let k = 0; k < 200; k++) s.circle(s.rng() * 60, 1 + s.rng() * 15, 0.3);
  },
  beforeStep(s, i) {
    if (i % 25 === 24) {
      // a static wall moved by hand, as p2 asks: position, then aabbNeedsUpdate
      const wall = s.live[1 + (Math.floor(i / 25) % 10)]!;
      wall.position[0] += 0.7;
      wall.aabbNeedsUpdate = true;
    }
    if (i === 120) s.live.find((b) => b.type === p2.Body.KINEMATIC)!.type = p2.Body.DYNAMIC; // a type switch
  },
};

const circles: SceneDef = { ...stacks, steps: 150, circles: true };

describe('sweep-prune/p2: the pairs of SAPBroadphase at every step', () => {
  test.each([
    ['falling stacks', stacks],
    ['a static-heavy level (600 static, 300 movers), sleeping on', level],
    ['bodies added and removed during the run, sleeping on', churn],
    ['kinematic paddles, a static wall moved by hand, a type switch', kinematic],
    ['boundingVolumeType BOUNDING_CIRCLE', circles],
  ])('%s: same pairs as SAPBroadphase on the same world', (_, def) => {
    const { bp, stats } = runChecked(def);
    expect(stats.pairs).toBeGreaterThan(def.steps); // the scene has contacts to find
    if (def.sleep) expect(stats.maxSleeping).toBeGreaterThan(0);
    bp.dispose();
  });

  test.each([
    ['falling stacks', stacks],
    ['a static-heavy level, sleeping on', level],
    ['bodies added and removed during the run', churn],
    ['kinematic paddles', kinematic],
  ])('%s: twin worlds in one pair order end bit-identical', (_, def) => {
    expect(runTwins(def)).toBeGreaterThan(def.steps);
  });
});

describe('sweep-prune/p2: AABBs', () => {
  test('the written-out update of a circle or box body gives the bits of Body.updateAABB', () => {
    const rng = mulberry32(5);
    const wrong: unknown[] = [];
    let fast = 0;
    for (let i = 0; i < 5000; i++) {
      const make = () => {
        const b = new p2.Body({
          mass: 1,
          position: [(rng() - 0.5) * 10 ** (rng() * 6), (rng() - 0.5) * 100],
          angle: (rng() - 0.5) * 20,
        });
        return b;
      };
      const seed = Math.floor(rng() * 2 ** 31);
      const bodies = [make(), make()].map((b) => {
        const r = mulberry32(seed);
        const kind = i % 4;
        const shape =
          kind === 0
            ? new p2.Circle({ radius: r() * 3 })
            : kind === 1
              ? new p2.Box({ width: r() * 5, height: r() * 5, angle: r() * 7 })
              : kind === 2
                ? new p2.Box({ width: 1, height: 2 })
                : new p2.Capsule({ length: 2, radius: 0.5 });
        b.addShape(shape, kind === 2 ? [0.1 + r(), 0] : undefined); // off centre: the general path

        return b;
      });
      const [a, b] = bodies as [p2.Body, p2.Body];
      b.position[0] = a.position[0]!;
      b.position[1] = a.position[1]!;
      b.angle = a.angle;
      a.aabbNeedsUpdate = true;
      b.aabbNeedsUpdate = true;
      if (updateSimpleAABB(a)) fast++;
      else a.updateAABB();
      b.updateAABB();
      const bits = (x: p2.Body) => [...x.aabb.lowerBound, ...x.aabb.upperBound, x.aabbNeedsUpdate];
      if (JSON.stringify(bits(a)) !== JSON.stringify(bits(b))) wrong.push([i, bits(a), bits(b)]);
    }
    expect(wrong).toEqual([]);
    expect(fast).toBe(2500);
  });
});

describe('sweep-prune/p2: queries', () => {
  test('raycasts and aabbQuery find the bodies SAPBroadphase finds', () => {
    const { s, bp } = runChecked({ ...level, steps: 90 });
    const world = s.world;
    const rng = mulberry32(7);
    let hits = 0;
    for (let k = 0; k < 150; k++) {
      const from: [number, number] = [rng() * 130 - 5, rng() * 70];
      const to: [number, number] = [from[0] + (rng() - 0.5) * 60, from[1] + (rng() - 0.5) * 60];
      const cast = (broadphase: p2.Broadphase): string[] => {
        world.broadphase = broadphase;
        const found: string[] = [];
        const ray = new p2.Ray({
          mode: p2.Ray.ALL,
          from,
          to,
          callback: (r) => found.push(`${s.label.get(r.body!)}:${r.fraction}`),
        });
        world.raycast(new p2.RaycastResult(), ray);
        return found.sort();
      };
      const expected = cast(bp.oracle);
      expect(cast(bp)).toEqual(expected);
      hits += expected.length;

      const aabb = new p2.AABB({
        lowerBound: [Math.min(from[0], to[0]), Math.min(from[1], to[1])],
        upperBound: [Math.max(from[0], to[0]), Math.max(from[1], to[1])],
      });
      const labels = (list: p2.Body[]) => list.map((b) => s.label.get(b)!).sort((a, b) => a - b);
      expect(labels(bp.aabbQuery(world, aabb, []))).toEqual(labels(bp.oracle.aabbQuery(world, aabb, [])));
    }
    expect(hits).toBeGreaterThan(50);
    // a body moved by hand between steps is found where it is now, as SAPBroadphase finds it
    const moved = s.live[700]!;
    moved.position[0] = 500;
    moved.aabbNeedsUpdate = true;
    const around = new p2.AABB({ lowerBound: [499, moved.position[1] - 1], upperBound: [501, moved.position[1] + 1] });
    expect(bp.aabbQuery(world, around)).toEqual([moved]);
    bp.dispose();
  });
});

describe('sweep-prune/p2: lifetime and errors', () => {
  test('constructing it before init() throws NotInitialized', () => {
    expect(beforeInit).toBeInstanceOf(SweepPruneError);
    expect((beforeInit as SweepPruneError).code).toBe('NotInitialized');
    expect((beforeInit as SweepPruneError).message).toMatch(/new SweepPruneBroadphase\(\).*await init\(\)/);
  });

  test('assigned to world.broadphase directly, it attaches at the first step', () => {
    const world = new p2.World({ gravity: [0, -10] });
    const a = new p2.Body({ mass: 1, position: [0, 0.4] });
    a.addShape(new p2.Circle({ radius: 0.5 }));
    const ground = new p2.Body({ mass: 0 });
    ground.addShape(new p2.Plane());
    world.addBody(a);
    world.addBody(ground);
    const bp = new SweepPruneBroadphase();
    world.broadphase = bp;
    expect(bp.getCollisionPairs(world)).toHaveLength(2);
    bp.dispose();
  });

  test('dispose() detaches, frees, is idempotent; later use throws Disposed', () => {
    const bp = new SweepPruneBroadphase();
    const world = new p2.World({ broadphase: bp });
    // p2's EventEmitter keeps its listeners in a (private) table
    const listeners = () => (world as unknown as { listeners: Record<string, unknown[]> }).listeners;
    expect(listeners().addBody).toHaveLength(1);
    bp.dispose();
    bp.dispose();
    expect(bp.disposed).toBe(true);
    expect(listeners().addBody).toHaveLength(0);
    expect(listeners().removeBody).toHaveLength(0);
    const err = thrown(() => world.step(DT));
    expect(err?.code).toBe('Disposed');
    expect(err?.message).toMatch(/SweepPruneBroadphase.getCollisionPairs: this broadphase was disposed/);
    expect(() => bp.setWorld(world)).toThrow(/disposed/);
  });

  test("a box with NaN gets p2's own broadphases' answer: a raycast from a body gone NaN does not throw", () => {
    const bp = new SweepPruneBroadphase();
    const world = new p2.World({ broadphase: bp });
    const rng = mulberry32(3);
    const bodies: p2.Body[] = [];
    for (let i = 0; i < 40; i++) {
      const b = new p2.Body({ mass: 1, position: [rng() * 10, rng() * 10] });
      b.addShape(new p2.Circle({ radius: 0.6 }));
      world.addBody(b);
      bodies.push(b);
    }
    world.step(DT);
    const own = [new p2.NaiveBroadphase(), new p2.SAPBroadphase()];
    for (const broadphase of own) broadphase.setWorld(world);
    const lost = bodies[0]!;
    lost.position[0] = NaN;
    lost.aabbNeedsUpdate = true;
    const cast = (broadphase: p2.Broadphase, to: [number, number]) => {
      world.broadphase = broadphase;
      const result = new p2.RaycastResult();
      const hit = world.raycast(result, new p2.Ray({ mode: p2.Ray.CLOSEST, from: [...lost.position], to }));
      const all: number[] = [];
      const callback = (r: p2.RaycastResult) => void all.push(bodies.indexOf(r.body!));
      world.raycast(new p2.RaycastResult(), new p2.Ray({ mode: p2.Ray.ALL, from: [-1, 5], to, callback }));
      return [hit, bodies.indexOf(result.body!), all.sort((a, b) => a - b)];
    };
    const ids = (list: p2.Body[]) => list.map((b) => bodies.indexOf(b)).sort((a, b) => a - b);
    const queries: [number[], number[]][] = [
      [
        [-Infinity, -Infinity],
        [Infinity, Infinity],
      ],
      [
        [5, -Infinity],
        [Infinity, 8],
      ],
    ];
    for (let i = 0; i < 4; i++) {
      const corners = [0, 0, 10, 10];
      corners[i] = NaN;
      queries.push([corners.slice(0, 2), corners.slice(2)]);
    }
    let found = 0;
    for (const broadphase of own) {
      expect(cast(bp, [5, 5])).toEqual(cast(broadphase, [5, 5]));
      expect(cast(bp, [11, NaN])).toEqual(cast(broadphase, [11, NaN]));
      for (const [lo, hi] of queries) {
        const aabb = () => new p2.AABB({ lowerBound: lo as p2.Vec2, upperBound: hi as p2.Vec2 });
        const expected = ids(broadphase.aabbQuery(world, aabb(), []));
        expect(ids(bp.aabbQuery(world, aabb(), []))).toEqual(expected);
        found += expected.length;
      }
    }
    expect(found).toBeGreaterThan(40);
    bp.dispose();
  });

  test('bad aabbQuery arguments throw and change nothing', () => {
    const bp = new SweepPruneBroadphase();
    const world = new p2.World({ broadphase: bp });
    const b = new p2.Body({ mass: 1 });
    b.addShape(new p2.Circle({ radius: 1 }));
    world.addBody(b);
    const code = (f: () => unknown) => thrown(f)?.code;
    expect(code(() => bp.aabbQuery(world))).toBe('InvalidArgument');
    expect(code(() => bp.aabbQuery(world, new p2.AABB({ lowerBound: [2, 0], upperBound: [1, 1] })))).toBe(
      'InvertedBounds',
    );
    expect(code(() => bp.setWorld(null as unknown as p2.World))).toBe('InvalidArgument');
    expect(bp.aabbQuery(world, new p2.AABB({ lowerBound: [0.5, 0.5], upperBound: [3, 3] }))).toEqual([b]);
    bp.dispose();
  });

  test('moved to another world, it follows only that one', () => {
    const bp = new SweepPruneBroadphase();
    const first = new p2.World({ broadphase: bp });
    const b = new p2.Body({ mass: 1 });
    b.addShape(new p2.Circle({ radius: 1 }));
    first.addBody(b);
    const second = new p2.World();
    second.broadphase = bp;
    bp.setWorld(second);
    const c = new p2.Body({ mass: 1 });
    c.addShape(new p2.Circle({ radius: 1 }));
    second.addBody(c);
    first.addBody(Object.assign(new p2.Body({ mass: 1 }), {}));
    const everything = new p2.AABB({ lowerBound: [-10, -10], upperBound: [10, 10] });
    expect(bp.aabbQuery(second, everything)).toEqual([c]);
    bp.dispose();
  });
});
