// sweep-prune/matter with matter's plugin hooks, and the way back to matter's detector. Each test loads its own
// copy of matter-js (as matter's test worker does), so hooks installed before the first SweepPruneDetector are
// really there first. The oracle is matter's own detector in a second engine built alike, stepped side by side with
// the pair order made canonical by hooks, as matter's test worker (test/ExampleWorker.js, `stableSort`) does.
import { createRequire } from 'node:module';
import type MatterJs from 'matter-js';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { SweepPruneDetector, useMatterDetector, useSweepPrune } from '../../../web/src/adapters/matter/index.js';
import { init } from '../../../web/src/index.js';
import { mulberry32 } from '../oracle.js';

// Matter.before and Matter.after, which @types/matter-js does not declare
type Hook = (path: string, fn: (this: never, ...args: never[]) => unknown) => unknown;
type Matter = typeof MatterJs & { before: Hook; after: Hook };
const require = createRequire(import.meta.url);

function freshMatter(): Matter {
  delete require.cache[require.resolve('matter-js')];
  return require('matter-js') as Matter;
}

// boxes and circles falling into a bin, the same for every call with the same seed
function build(M: Matter, world: MatterJs.World, seed: number): void {
  const random = mulberry32(seed);
  const { Bodies, Composite } = M;
  Composite.add(world, [
    Bodies.rectangle(400, 625, 900, 50, { isStatic: true }),
    Bodies.rectangle(-25, 300, 50, 1200, { isStatic: true }),
    Bodies.rectangle(825, 300, 50, 1200, { isStatic: true }),
  ]);
  for (let k = 0; k < 90; k++) {
    const x = 40 + random() * 720;
    const y = -300 + random() * 700;
    Composite.add(world, k % 3 ? Bodies.rectangle(x, y, 20 + random() * 20, 20) : Bodies.circle(x, y, 12));
  }
}

const byIds = (a: MatterJs.Collision, b: MatterJs.Collision) => a.bodyA.id - b.bodyA.id || a.bodyB.id - b.bodyB.id;
type PairList = { list: MatterJs.Pair[] };

/** matter's test worker's `stableSort`, with Matter.after / Matter.before: the same order in any detector. */
function stableSort(M: Matter): void {
  const collides = M.Collision.collides;
  M.Collision.collides = (a, b, pairs) => (a.id < b.id ? collides(a, b, pairs) : collides(b, a, pairs));
  M.after('Detector.collisions', function (this: MatterJs.Collision[]) {
    this.sort(byIds);
  });
  const sortPairs = (pairs: PairList) => pairs.list.sort((a, b) => byIds(a.collision, b.collision));
  M.before('Pairs.update', sortPairs);
  M.after('Pairs.update', sortPairs);
}

/** More hooks: one before (Matter.before), one after by hand with Common.chain; each logs what it saw. */
function tracing(M: Matter, log: (entry: string, detector: unknown, self: unknown) => void): void {
  M.before('Detector.collisions', function (this: unknown, detector: unknown) {
    log('before', detector, this);
  });
  const chain = M.Common.chain as unknown as (...f: unknown[]) => typeof M.Detector.collisions;
  M.Detector.collisions = chain(M.Detector.collisions, function (this: unknown, detector: unknown) {
    log('chained', detector, this);
  });
}

// a body's name: its rank among its world's ids (both worlds are built by the same code)
function names(M: Matter, world: MatterJs.World): (id: number) => number {
  const ids = M.Composite.allBodies(world)
    .flatMap((b) => b.parts.map((p) => p.id))
    .sort((a, b) => a - b);
  const rank = new Map(ids.map((id, i) => [id, i]));
  return (id) => rank.get(id) ?? -1;
}

const collisionsOf = (engine: MatterJs.Engine) =>
  (engine.detector as unknown as { collisions: MatterJs.Collision[] }).collisions;
const inOrder = (engine: MatterJs.Engine, name: (id: number) => number) =>
  collisionsOf(engine).map((c) => `${name(c.bodyA.id)}:${name(c.bodyB.id)}`);
const bodyState = (M: Matter, engine: MatterJs.Engine) =>
  M.Composite.allBodies(engine.world).map((b) => [b.position.x, b.position.y, b.angle, b.velocity.x, b.isSleeping]);

// a SweepPruneError with this code, its message matching
function expectCode(fn: () => unknown, code: string, message: RegExp): void {
  expect(fn).toThrow(
    expect.objectContaining({ name: 'SweepPruneError', code, message: expect.stringMatching(message) }),
  );
}

let detectors: SweepPruneDetector[] = [];
beforeAll(() => init());
afterEach(() => {
  for (const d of detectors) d.dispose();
  detectors = [];
});

describe('Matter.before / Matter.after / Common.chain hooks on Detector.collisions', () => {
  for (const when of ['before', 'after'] as const) {
    test(`installed ${when} the first SweepPruneDetector: they run as around matter's own detector`, () => {
      const M = freshMatter();
      const traces = new Map<unknown, string[]>();
      const install = () => {
        stableSort(M);
        tracing(M, (entry, detector, self) => {
          const d = detector as { collisions: unknown };
          traces.get(detector)?.push(`${entry} this=${self === d.collisions ? 'collisions' : String(self)}`);
        });
      };
      if (when === 'before') install();
      const detector = new SweepPruneDetector(M);
      detectors.push(detector as SweepPruneDetector);
      if (when === 'after') install();
      const a = M.Engine.create({ enableSleeping: true });
      const b = M.Engine.create({ enableSleeping: true, detector });
      traces.set(a.detector, []).set(b.detector, []);
      build(M, a.world, 3);
      build(M, b.world, 3);
      const nameA = names(M, a.world);
      const nameB = names(M, b.world);
      let total = 0;
      for (let s = 0; s < 200; s++) {
        M.Engine.update(a, 1000 / 60);
        M.Engine.update(b, 1000 / 60);
        // in the order the after hook sorted them into: a hook that did not run shows here
        expect(inOrder(b, nameB)).toEqual(inOrder(a, nameA));
        total += collisionsOf(a).length;
      }
      expect(total).toBeGreaterThan(2000);
      expect(traces.get(b.detector)).toEqual(traces.get(a.detector));
      expect(traces.get(a.detector)!.slice(0, 2)).toEqual(['before this=undefined', 'chained this=collisions']);
      expect(bodyState(M, b)).toEqual(bodyState(M, a));
    });
  }

  test("a chain in which matter's own function cannot be found throws InvalidArgument and changes nothing", () => {
    const M = freshMatter();
    const chain = M.Common.chain as unknown as (...f: unknown[]) => typeof M.Detector.collisions;
    const replaced = chain(
      () => [],
      () => undefined,
    );
    M.Detector.collisions = replaced;
    expectCode(() => new SweepPruneDetector(M), 'InvalidArgument', /chain of 2 functions.*before installing it/);
    expect(M.Detector.collisions).toBe(replaced);
  });

  test('a function put in place of Detector.collisions by hand throws InvalidArgument; put there later, it runs', () => {
    const M = freshMatter();
    const own = M.Detector.collisions;
    let calls = 0;
    const wrapper = (detector: MatterJs.Detector) => {
      calls++;
      return own(detector);
    };
    M.Detector.collisions = wrapper;
    expectCode(() => new SweepPruneDetector(M), 'InvalidArgument', /not matter's own.*Matter\.after/);
    expect(M.Detector.collisions).toBe(wrapper);
    // the supported order: the detector first, then the wrapper around what is there
    M.Detector.collisions = own;
    const detector = new SweepPruneDetector(M);
    detectors.push(detector as SweepPruneDetector);
    const inner = M.Detector.collisions;
    M.Detector.collisions = (d: MatterJs.Detector) => {
      calls++;
      return inner(d);
    };
    const engine = M.Engine.create({ detector });
    build(M, engine.world, 1);
    for (let s = 0; s < 5; s++) M.Engine.update(engine, 1000 / 60);
    expect(calls).toBe(5);
  });
});

describe('useMatterDetector: the way back to matter’s detector', () => {
  test("an engine stepped with the adapter, then given back matter's detector, steps as if never switched", () => {
    const M = freshMatter();
    stableSort(M);
    const a = M.Engine.create({ enableSleeping: true });
    const b = M.Engine.create({ enableSleeping: true });
    build(M, a.world, 5);
    build(M, b.world, 5);
    const nameA = names(M, a.world);
    const nameB = names(M, b.world);
    const detector = useSweepPrune(M, b);
    let after = 0;
    for (let s = 0; s < 240; s++) {
      if (s === 90) {
        const back = useMatterDetector(M, b);
        expect(b.detector).toBe(back);
        expect(detector.disposed).toBe(true);
        expect(useMatterDetector(M, b)).toBe(back); // already matter's: left as it is
      }
      M.Engine.update(a, 1000 / 60);
      M.Engine.update(b, 1000 / 60);
      expect(inOrder(b, nameB)).toEqual(inOrder(a, nameA));
      if (s >= 90) after += collisionsOf(b).length;
    }
    expect(after).toBeGreaterThan(1000);
    expect(bodyState(M, b)).toEqual(bodyState(M, a));
    // the detector Engine.create makes: the same fields, the engine's pairs, every body
    expect(b.detector).not.toBeInstanceOf(SweepPruneDetector);
    expect(Object.keys(b.detector).sort()).toEqual(Object.keys(a.detector).sort());
    expect(b.detector.pairs).toBe(b.pairs);
    expect(new Set(b.detector.bodies)).toEqual(new Set(M.Composite.allBodies(b.world)));
  });

  test('bad arguments throw InvalidArgument', () => {
    const M = freshMatter();
    expectCode(() => useMatterDetector({} as never, M.Engine.create()), 'InvalidArgument', /matter-js module/);
    expectCode(() => useMatterDetector(M, null as never), 'InvalidArgument', /engine must be a matter engine/);
  });
});
