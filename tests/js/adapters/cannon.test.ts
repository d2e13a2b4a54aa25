// sweep-prune/cannon against cannon-es's own broadphases, on scenes built with cannon's public API.
// Two checks per scene:
// - one world, our broadphase as cannon uses it, and NaiveBroadphase and SAPBroadphase (same useBoundingBoxes)
//   attached to the same world asked for their pairs at the same moment: the same set of pairs at every step;
// - twin worlds, one with NaiveBroadphase and one with ours, both handing their pairs to the narrowphase in one
//   canonical order (cannon's contacts and solver depend on the pair order): the same pairs at every step and
//   bit-identical bodies after the run, as cannon is deterministic for a given pair order.
import { beforeAll, describe, expect, test } from 'vitest';
import * as CANNON from 'cannon-es';
import { init, SweepPruneError } from '../../../web/src/index.js';
import { SweepPruneBroadphase } from '../../../web/src/adapters/cannon/index.js';
import { updateSphereAABB } from '../../../web/src/adapters/cannon/aabb.js';
import { mulberry32 } from '../oracle.js';
import { Labeled } from './labeled.js';
import { thrown } from './thrown.js';

const beforeInit = thrown(() => new SweepPruneBroadphase());

beforeAll(() => init());

const DT = 1 / 60;
type Label = Map<CANNON.Body, number>;

/** Bodies of the scenes, numbered as they are made. */
class Scene extends Labeled<CANNON.Body, CANNON.World> {
  box(
    x: number,
    y: number,
    z: number,
    hx: number,
    hy: number,
    hz: number,
    options: CANNON.BodyOptions = { mass: 1 },
  ): CANNON.Body {
    const b = new CANNON.Body({
      ...options,
      position: new CANNON.Vec3(x, y, z),
      shape: new CANNON.Box(new CANNON.Vec3(hx, hy, hz)),
    });
    b.quaternion.setFromEuler(this.rng() * 0.6, this.rng() * 0.6, this.rng() * 0.6);
    return this.add(b);
  }
  sphere(x: number, y: number, z: number, r: number, options: CANNON.BodyOptions = { mass: 1 }): CANNON.Body {
    return this.add(new CANNON.Body({ ...options, position: new CANNON.Vec3(x, y, z), shape: new CANNON.Sphere(r) }));
  }
  ground(): CANNON.Body {
    const b = new CANNON.Body({ type: CANNON.Body.STATIC, shape: new CANNON.Plane() });
    b.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
    return this.add(b);
  }
}

interface SceneDef {
  steps: number;
  sleep?: boolean;
  build(s: Scene): void;
  beforeStep?(s: Scene, step: number): void;
}

function pairKeys(p1: readonly CANNON.Body[], p2: readonly CANNON.Body[], label: Label): string[] {
  return p1
    .map((b, i) => {
      const x = label.get(b)!;
      const y = label.get(p2[i]!)!;
      return x < y ? `${x},${y}` : `${y},${x}`;
    })
    .sort();
}

function canonical(p1: CANNON.Body[], p2: CANNON.Body[], label: Label): void {
  const list = p1.map((a, i): [CANNON.Body, CANNON.Body] =>
    label.get(a)! < label.get(p2[i]!)! ? [a, p2[i]!] : [p2[i]!, a],
  );
  list.sort((x, y) => label.get(x[0])! - label.get(y[0])! || label.get(x[1])! - label.get(y[1])!);
  list.forEach(([a, b], i) => {
    p1[i] = a;
    p2[i] = b;
  });
}

/** Hands the pairs over in canonical order and records them, step by step. */
interface Recorder {
  label: Label;
  log: string[][];
}
function record(r: Recorder, p1: CANNON.Body[], p2: CANNON.Body[]): void {
  canonical(p1, p2, r.label);
  r.log.push(pairKeys(p1, p2, r.label));
}

class OrderedNaive extends CANNON.NaiveBroadphase implements Recorder {
  label: Label = new Map();
  log: string[][] = [];
  override collisionPairs(world: CANNON.World, p1: CANNON.Body[], p2: CANNON.Body[]): void {
    super.collisionPairs(world, p1, p2);
    record(this, p1, p2);
  }
}

class OrderedOurs extends SweepPruneBroadphase implements Recorder {
  label: Label = new Map();
  log: string[][] = [];
  override collisionPairs(world: CANNON.World, p1: CANNON.Body[], p2: CANNON.Body[]): void {
    super.collisionPairs(world, p1, p2);
    record(this, p1, p2);
  }
}

/** Ours as cannon uses it, with cannon's broadphases asked for the pairs of the same world at the same moment. */
class Checked extends SweepPruneBroadphase {
  oracles: CANNON.Broadphase[] = [];
  label: Label = new Map();
  pairs = 0;
  override setWorld(world: CANNON.World): void {
    super.setWorld(world);
    for (const o of this.oracles) o.setWorld(world);
  }
  override collisionPairs(world: CANNON.World, p1: CANNON.Body[], p2: CANNON.Body[]): void {
    super.collisionPairs(world, p1, p2);
    const keys = pairKeys(p1, p2, this.label);
    for (const o of this.oracles) {
      const q1: CANNON.Body[] = [];
      const q2: CANNON.Body[] = [];
      o.dirty = true; // the world marks only its own broadphase dirty after each step
      o.collisionPairs(world, q1, q2);
      const expected = pairKeys(q1, q2, this.label);
      if (keys.join(' ') !== expected.join(' '))
        expect({ oracle: o.constructor.name, keys }).toEqual({ oracle: o.constructor.name, keys: expected });
    }
    this.pairs += keys.length;
  }
}

function makeScene(def: SceneDef, broadphase: CANNON.Broadphase, seed: number): Scene {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0), allowSleep: def.sleep ?? false });
  const s = new Scene(world, seed);
  (broadphase as { label?: Label }).label = s.label;
  world.broadphase = broadphase;
  broadphase.setWorld(world);
  def.build(s);
  return s;
}

function step(def: SceneDef, s: Scene, i: number): void {
  def.beforeStep?.(s, i);
  s.world.step(DT);
}

function withBoxes<T extends CANNON.Broadphase>(b: T, on: boolean): T {
  b.useBoundingBoxes = on;
  return b;
}

// cannon's types require the world, its code does not: it is attached by Checked.setWorld
const newSAP = () => new (CANNON.SAPBroadphase as unknown as new () => CANNON.SAPBroadphase)();

/** One world, ours checked against cannon's broadphases (same useBoundingBoxes) at every step. */
function runChecked(
  def: SceneDef,
  boxes: boolean,
  seed = 1,
): { s: Scene; bp: Checked; pairs: number; maxSleeping: number } {
  const bp = withBoxes(new Checked(), boxes);
  bp.oracles = boxes
    ? [withBoxes(new CANNON.NaiveBroadphase(), true), withBoxes(newSAP(), true)]
    : [new CANNON.NaiveBroadphase()];
  const s = makeScene(def, bp, seed);
  let maxSleeping = 0;
  for (let i = 0; i < def.steps; i++) {
    step(def, s, i);
    maxSleeping = Math.max(maxSleeping, s.live.filter((b) => b.sleepState === CANNON.Body.SLEEPING).length);
  }
  return { s, bp, pairs: bp.pairs, maxSleeping };
}

/** Twin worlds in canonical pair order: the pairs of every step and, at the end, every body's state. */
function runTwins(def: SceneDef, seed = 2): number {
  const naive = withBoxes(new OrderedNaive(), true);
  const ours = withBoxes(new OrderedOurs(), true);
  const a = makeScene(def, naive, seed);
  const b = makeScene(def, ours, seed);
  let pairs = 0;
  for (let i = 0; i < def.steps; i++) {
    step(def, a, i);
    step(def, b, i);
    const [x, y] = [naive.log[i]!, ours.log[i]!];
    if (x.join(' ') !== y.join(' ')) expect({ step: i, pairs: y }).toEqual({ step: i, pairs: x });
    pairs += x.length;
  }
  const state = (s: Scene) =>
    s.live.map((body) => {
      const { position: p, quaternion: q, velocity: v } = body;
      return [s.label.get(body), p.x, p.y, p.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, body.sleepState];
    });
  expect(state(b)).toEqual(state(a));
  ours.dispose();
  return pairs;
}

const pile: SceneDef = {
  steps: 150,
  build(s) {
    s.ground();
    for (let k = 0; k < 300; k++) {
      const x = (s.rng() - 0.5) * 8;
      const z = (s.rng() - 0.5) * 8;
      const y = 0.5 + k * 0.12;
      if (k % 3 === 0) s.sphere(x, y, z, 0.3 + s.rng() * 0.3);
      else s.box(x, y, z, 0.2 + s.rng() * 0.4, 0.2 + s.rng() * 0.3, 0.2 + s.rng() * 0.4);
    }
  },
};

const level: SceneDef = {
  steps: 120,
  sleep: true,
  build(s) {
    s.ground();
    // 600 static platforms on three floors, 250 movers dropped onto them
    for (let i = 0; i < 20; i++) {
      for (let j = 0; j < 10; j++) {
        for (let f = 0; f < 3; f++)
          s.box(i * 3, 1 + f * 3, j * 3 + (f % 2) * 1.5, 1.2, 0.15, 1.2, { mass: 0, type: CANNON.Body.STATIC });
      }
    }
    for (let k = 0; k < 250; k++) {
      const x = s.rng() * 57;
      const y = 2 + s.rng() * 9;
      const z = s.rng() * 28;
      if (k % 2 === 0) s.sphere(x, y, z, 0.25 + s.rng() * 0.2);
      else s.box(x, y, z, 0.3, 0.3, 0.3);
    }
  },
};

const churn: SceneDef = {
  steps: 150,
  sleep: true,
  build(s) {
    s.ground();
    for (let k = 0; k < 150; k++) s.sphere(s.rng() * 10, 0.5 + s.rng() * 10, s.rng() * 10, 0.4);
    for (let k = 0; k < 20; k++)
      s.box((k % 5) * 2.5, 0.3, Math.floor(k / 5) * 2.5, 1, 0.3, 1, { mass: 0, type: CANNON.Body.STATIC });
  },
  beforeStep(s, i) {
    if (i % 5 === 4) {
      // remove a random body (sometimes a static one), add a dynamic body and, every 20 steps, a static one
      s.remove(s.live[1 + Math.floor(s.rng() * (s.live.length - 1))]!);
      s.box(s.rng() * 10, 8 + s.rng() * 4, s.rng() * 10, 0.3, 0.4, 0.5);
      if (i % 20 === 19) s.box(s.rng() * 10, 0.3, s.rng() * 10, 1, 0.3, 1, { mass: 0, type: CANNON.Body.STATIC });
    }
  },
};

const filtered: SceneDef = {
  steps: 150,
  sleep: true,
  build(s) {
    s.ground();
    for (let k = 0; k < 8; k++) s.box(k * 3, 2, 0, 0.3, 2, 4, { mass: 0, type: CANNON.Body.STATIC }); // walls
    for (let k = 0; k < 4; k++) {
      // kinematic paddles, two by two at one height and heading for each other
      s.box(k * 6, 0.8 + (k >> 1), 0, 1.5, 0.2, 1.5, {
        mass: 0,
        type: CANNON.Body.KINEMATIC,
        velocity: new CANNON.Vec3(k % 2 ? -3 : 3, 0, 0),
      });
    }
    for (let k = 0; k < 200; k++) {
      // three groups; masks that leave some groups out, one of them asymmetric
      const group = 1 << (k % 3);
      const mask = [-1, 1 | 4, 2 | 8][k % 3]!;
      s.sphere(s.rng() * 22, 0.5 + s.rng() * 6, (s.rng() - 0.5) * 6, 0.3, {
        mass: 1,
        collisionFilterGroup: group,
        collisionFilterMask: mask,
      });
    }
  },
  beforeStep(s, i) {
    if (i % 25 === 24) {
      // a static wall moved by hand, as cannon asks: position, then aabbNeedsUpdate
      const wall = s.live[1 + (Math.floor(i / 25) % 8)]!;
      wall.position.x += 0.6;
      wall.aabbNeedsUpdate = true;
    }
    if (i === 80) s.live[20]!.collisionFilterMask = 2; // a filter changed mid-run
  },
};

describe('sweep-prune/cannon: the pairs of cannon-es broadphases at every step', () => {
  test.each([
    ['a 3D pile of boxes and spheres', pile],
    ['a static-heavy level (600 static, 250 movers), sleeping on', level],
    ['bodies added and removed during the run, sleeping on', churn],
    ['collision groups and masks, kinematic paddles, a static wall moved by hand', filtered],
  ])('%s: same pairs as NaiveBroadphase and SAPBroadphase with bounding boxes', (_, def) => {
    const { bp, pairs, maxSleeping } = runChecked(def, true);
    expect(pairs).toBeGreaterThan(def.steps);
    if (def.sleep) expect(maxSleeping).toBeGreaterThan(0);
    bp.dispose();
  });

  test.each([
    ['a 3D pile', pile],
    ['bodies added and removed during the run', churn],
  ])('%s, useBoundingBoxes false: same pairs as the default NaiveBroadphase (bounding spheres)', (_, def) => {
    const { bp, pairs } = runChecked({ ...def, steps: 100 }, false);
    expect(pairs).toBeGreaterThan(100);
    bp.dispose();
  });

  test.each([
    ['a 3D pile', pile],
    ['a static-heavy level, sleeping on', level],
    ['bodies added and removed during the run', churn],
    ['groups, masks and kinematic paddles', filtered],
  ])('%s: twin worlds in one pair order end bit-identical', (_, def) => {
    expect(runTwins(def)).toBeGreaterThan(def.steps);
  });
});

describe('sweep-prune/cannon: AABBs', () => {
  test('the written-out update of a sphere body gives the numbers of Body.updateAABB', () => {
    const rng = mulberry32(5);
    const wrong: unknown[] = [];
    let fast = 0;
    for (let i = 0; i < 5000; i++) {
      const position = new CANNON.Vec3((rng() - 0.5) * 10 ** (rng() * 6), (rng() - 0.5) * 100, (rng() - 0.5) * 1e-3);
      const radius = rng() * 3;
      const kind = i % 3;
      const [a, b] = [0, 1].map(() => {
        const body = new CANNON.Body({ mass: 1, position: position.clone() });
        body.quaternion.setFromEuler(i, 2 * i, 3 * i);
        if (kind === 2)
          body.addShape(new CANNON.Sphere(radius), new CANNON.Vec3(0.5, 0, 0)); // off centre: the general path
        else body.addShape(kind === 0 ? new CANNON.Sphere(radius) : new CANNON.Box(new CANNON.Vec3(radius, 1, 1)));
        return body;
      }) as [CANNON.Body, CANNON.Body];
      a.aabbNeedsUpdate = true;
      b.aabbNeedsUpdate = true;
      if (updateSphereAABB(a)) fast++;
      else a.updateAABB();
      b.updateAABB();
      const nums = (x: CANNON.Body) => [x.aabb.lowerBound.toArray(), x.aabb.upperBound.toArray(), x.aabbNeedsUpdate];
      if (JSON.stringify(nums(a)) !== JSON.stringify(nums(b))) wrong.push([i, nums(a), nums(b)]);
    }
    expect(wrong).toEqual([]);
    expect(fast).toBe(1667);
  });
});

describe('sweep-prune/cannon: queries', () => {
  test('raycasts and aabbQuery find the bodies NaiveBroadphase finds', () => {
    const { s, bp } = runChecked({ ...level, steps: 60 }, true);
    const world = s.world;
    const naive = bp.oracles[0]!;
    const rng = mulberry32(7);
    let hits = 0;
    for (let k = 0; k < 150; k++) {
      const from = new CANNON.Vec3(rng() * 60, rng() * 12, rng() * 30);
      const to = new CANNON.Vec3(from.x + (rng() - 0.5) * 40, from.y + (rng() - 0.5) * 20, from.z + (rng() - 0.5) * 40);
      const cast = (broadphase: CANNON.Broadphase): string[] => {
        world.broadphase = broadphase;
        const found: string[] = [];
        world.raycastAll(from, to, {}, (r) => found.push(`${s.label.get(r.body!)}:${r.distance}`));
        return found.sort();
      };
      const expected = cast(naive);
      expect(cast(bp)).toEqual(expected);
      hits += expected.length;

      const aabb = new CANNON.AABB();
      aabb.lowerBound.set(Math.min(from.x, to.x), Math.min(from.y, to.y), Math.min(from.z, to.z));
      aabb.upperBound.set(Math.max(from.x, to.x), Math.max(from.y, to.y), Math.max(from.z, to.z));
      const labels = (list: CANNON.Body[]) => list.map((b) => s.label.get(b)!).sort((a, b) => a - b);
      expect(labels(bp.aabbQuery(world, aabb, []))).toEqual(labels(naive.aabbQuery(world, aabb, [])));
    }
    expect(hits).toBeGreaterThan(50);
    bp.dispose();
  });

  test("a box with NaN gets cannon's own broadphases' answer: a raycast from a body gone NaN does not throw", () => {
    const bp = new SweepPruneBroadphase();
    const world = new CANNON.World({ broadphase: bp });
    const rng = mulberry32(3);
    const bodies: CANNON.Body[] = [];
    for (let i = 0; i < 40; i++) {
      const position = new CANNON.Vec3(rng() * 10, rng() * 10, rng() * 10);
      bodies.push(new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(0.6), position }));
      world.addBody(bodies[i]!);
    }
    world.step(DT);
    const own = [new CANNON.NaiveBroadphase(), new CANNON.SAPBroadphase(world)];
    const lost = bodies[0]!;
    lost.position.set(NaN, 0, NaN);
    lost.aabbNeedsUpdate = true;
    const cast = (broadphase: CANNON.Broadphase, to: CANNON.Vec3) => {
      world.broadphase = broadphase;
      const result = new CANNON.RaycastResult();
      const hit = world.raycastClosest(lost.position, to, {}, result);
      const all: number[] = [];
      world.raycastAll(new CANNON.Vec3(-1, 5, 5), to, {}, (r) => all.push(bodies.indexOf(r.body!)));
      return [hit, bodies.indexOf(result.body!), all.sort((a, b) => a - b)];
    };
    const ids = (list: CANNON.Body[]) => list.map((b) => bodies.indexOf(b)).sort((a, b) => a - b);
    const box = (lo: number[], hi: number[]) =>
      new CANNON.AABB({ lowerBound: new CANNON.Vec3(...lo), upperBound: new CANNON.Vec3(...hi) });
    const queries: [number[], number[]][] = [
      [
        [-Infinity, -Infinity, -Infinity],
        [Infinity, Infinity, Infinity],
      ],
      [
        [5, -Infinity, 2],
        [Infinity, 8, Infinity],
      ],
    ];
    for (let i = 0; i < 6; i++) {
      const corners = [0, 0, 0, 10, 10, 10];
      corners[i] = NaN;
      queries.push([corners.slice(0, 3), corners.slice(3)]);
    }
    let found = 0;
    for (const broadphase of own) {
      expect(cast(bp, new CANNON.Vec3(5, 5, 5))).toEqual(cast(broadphase, new CANNON.Vec3(5, 5, 5)));
      expect(cast(bp, new CANNON.Vec3(11, NaN, 5))).toEqual(cast(broadphase, new CANNON.Vec3(11, NaN, 5)));
      for (const [lo, hi] of queries) {
        const expected = ids(broadphase.aabbQuery(world, box(lo, hi), []));
        expect(ids(bp.aabbQuery(world, box(lo, hi), []))).toEqual(expected);
        found += expected.length;
      }
    }
    expect(found).toBeGreaterThan(40);
    bp.dispose();
  });

  test('float64 edges between float32 values: touching boxes pair, a gap below float32 precision does not', () => {
    const bp = new SweepPruneBroadphase();
    const world = new CANNON.World({ broadphase: bp });
    const e = 0.1 + 1e-12; // not a float32 value
    const sphere = (x: number) =>
      new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(e), position: new CANNON.Vec3(x, 0, 0) });
    const a = sphere(0);
    const b = sphere(2 * e); // touches a at x = e exactly, in float64
    const c = sphere(-2 * e - 1e-15); // 1e-15 short of a's face: both faces round to one float32 value
    const plane = new CANNON.Body({ type: CANNON.Body.STATIC, shape: new CANNON.Plane() }); // an AABB of ±Number.MAX_VALUE
    plane.position.set(0, -5, 0);
    plane.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
    for (const body of [a, b, c, plane]) world.addBody(body);
    const label: Label = new Map([
      [a, 0],
      [b, 1],
      [c, 2],
      [plane, 3],
    ]);
    const pairsOf = (broadphase: CANNON.Broadphase) => {
      const p1: CANNON.Body[] = [];
      const p2: CANNON.Body[] = [];
      broadphase.collisionPairs(world, p1, p2);
      return pairKeys(p1, p2, label);
    };
    const ours = pairsOf(bp);
    expect(a.aabb.upperBound.x).toBe(b.aabb.lowerBound.x);
    expect(Math.fround(c.aabb.upperBound.x)).toBe(Math.fround(a.aabb.lowerBound.x));
    expect(ours).toEqual(pairsOf(withBoxes(new CANNON.NaiveBroadphase(), true)));
    expect(ours).toEqual(['0,1', '0,3', '1,3', '2,3']);
    bp.dispose();
  });
});

describe('sweep-prune/cannon: lifetime and errors', () => {
  test('constructing it before init() throws NotInitialized', () => {
    expect(beforeInit).toBeInstanceOf(SweepPruneError);
    expect((beforeInit as SweepPruneError).code).toBe('NotInitialized');
  });

  test('new SweepPruneBroadphase(world) attaches at once, as SAPBroadphase(world) does', () => {
    const world = new CANNON.World();
    const a = new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(1) });
    const b = new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(1), position: new CANNON.Vec3(1, 0, 0) });
    world.addBody(a);
    world.addBody(b);
    world.broadphase = new SweepPruneBroadphase(world);
    const p1: CANNON.Body[] = [];
    const p2: CANNON.Body[] = [];
    world.broadphase.collisionPairs(world, p1, p2);
    expect(p1.length).toBe(1);
    (world.broadphase as SweepPruneBroadphase).dispose();
  });

  test('dispose() detaches, frees, is idempotent; later use throws Disposed', () => {
    const bp = new SweepPruneBroadphase();
    const world = new CANNON.World({ broadphase: bp });
    // cannon's EventTarget keeps its listeners in a (private) table
    const listeners = () => (world as unknown as { _listeners: Record<string, unknown[]> })._listeners;
    expect(listeners().addBody).toHaveLength(1);
    bp.dispose();
    bp.dispose();
    expect(bp.disposed).toBe(true);
    expect(listeners().addBody).toHaveLength(0);
    expect(listeners().removeBody).toHaveLength(0);
    const err = thrown(() => world.step(DT));
    expect(err?.code).toBe('Disposed');
    expect(err?.message).toMatch(/SweepPruneBroadphase.collisionPairs: this broadphase was disposed/);
  });

  test('bad aabbQuery arguments throw and change nothing', () => {
    const bp = new SweepPruneBroadphase();
    const world = new CANNON.World({ broadphase: bp });
    const b = new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(1) });
    world.addBody(b);
    const code = (f: () => unknown) => thrown(f)?.code;
    const box = (lo: number[], hi: number[]) =>
      new CANNON.AABB({ lowerBound: new CANNON.Vec3(...lo), upperBound: new CANNON.Vec3(...hi) });
    expect(code(() => bp.aabbQuery(world, undefined as unknown as CANNON.AABB))).toBe('InvalidArgument');
    expect(code(() => bp.aabbQuery(world, box([0, 0, 2], [1, 1, 1])))).toBe('InvertedBounds');
    expect(code(() => bp.setWorld(null as unknown as CANNON.World))).toBe('InvalidArgument');
    expect(bp.aabbQuery(world, box([0.5, 0.5, 0.5], [3, 3, 3]))).toEqual([b]);
    bp.dispose();
  });
});
