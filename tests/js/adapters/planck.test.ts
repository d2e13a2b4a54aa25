// sweep-prune/planck against planck's own BroadPhase: the real planck from npm, scenes of the kinds planck's examples
// show (planck-scenes.ts). Three ways:
// (1) one world on our broadphase, with planck's own BroadPhase fed the same calls beside it as the oracle: at every
//     updatePairs our pairs are exactly planck's minus those that already have a contact (and minus the pairs
//     planck's createContact drops unseen: same body, no dynamic body), and testOverlap and getFatAABB answer as
//     planck's on every call; planck's own pair order (default), so the run is not steered toward agreement;
// (2) two identical worlds, one per broadphase, each handing its new pairs to createContact sorted by proxy id (both
//     number proxies in creation order, so the sort is the same): the same contacts at every step, the same
//     begin-contact and end-contact events in the same order, and bit-identical bodies;
// (3) queryAABB and rayCast on random probes, against planck's own on the identical world of (2).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as planck from 'planck';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  SweepPruneBroadPhase,
  stopSweepPrune,
  useSweepPrune,
  type PlanckAABB,
  type PlanckBroadPhaseLike,
  type PlanckFixtureProxy,
  type PlanckVec2,
} from '../../../web/src/adapters/planck/index.js';
import { init } from '../../../web/src/index.js';
import { mulberry32 } from '../oracle.js';
import { scenes, type Driver } from './planck-scenes.js';

const { World, Vec2 } = planck;
type World = planck.World;
type Fixture = planck.Fixture;

// planck's internals the tests read (the adapter's contract)
type Internals = World & { m_broadPhase: PlanckBroadPhaseLike; createContact: unknown };
const internals = (world: World) => world as Internals;

// a SweepPruneError with this code, its message matching
function expectCode(fn: () => unknown, code: string, message = /./): void {
  expect(fn).toThrow(
    expect.objectContaining({ name: 'SweepPruneError', code, message: expect.stringMatching(message) }),
  );
}

describe('before init()', () => {
  test('useSweepPrune throws NotInitialized naming init()', () => {
    expectCode(() => useSweepPrune(new World()), 'NotInitialized', /await init\(\)/);
  });

  test('with the CommonJS copy initialised in the same program, the error names sweep-prune/planck', () => {
    // what the CommonJS copy's init() records in the realm (a program that imports and requires the package)
    const copies = ((globalThis as { [k: symbol]: Set<string> | undefined })[
      Symbol.for('sweep-prune/loaded-copies')
    ] ??= new Set());
    const had = copies.has('CommonJS');
    copies.add('CommonJS');
    try {
      expectCode(
        () => useSweepPrune(new World()),
        'NotInitialized',
        /^useSweepPrune: the ES module copy of sweep-prune \(import from 'sweep-prune\/planck', .*The CommonJS copy/,
      );
    } finally {
      if (!had) copies.delete('CommonJS');
    }
  });
});

const STEPS = 240;
const dt = 1 / 60;

// ---- names that are the same in two identical worlds: body and fixture places in planck's lists

function fixtureNames(world: World): Map<Fixture, string> {
  const names = new Map<Fixture, string>();
  let i = 0;
  for (let b = world.getBodyList(); b; b = b.getNext(), i++) {
    let j = 0;
    for (let f = b.getFixtureList(); f; f = f.getNext(), j++) names.set(f, `${i}.${j}`);
  }
  return names;
}

function contactName(names: Map<Fixture, string>, c: planck.Contact): string {
  return `${names.get(c.getFixtureA())}#${c.getChildIndexA()}-${names.get(c.getFixtureB())}#${c.getChildIndexB()}`;
}

/** Every contact of the world, in list order, with its touching flag. */
function contacts(world: World): string[] {
  const names = fixtureNames(world);
  const out: string[] = [];
  for (let c = world.getContactList(); c; c = c.getNext())
    out.push(`${contactName(names, c)}${c.isTouching() ? '+' : ''}`);
  return out;
}

/** Positions, angles and velocities of every body, as their exact doubles. */
function bodies(world: World): number[] {
  const out: number[] = [];
  for (let b = world.getBodyList(); b; b = b.getNext()) {
    const p = b.getPosition();
    const v = b.getLinearVelocity();
    out.push(p.x, p.y, b.getAngle(), v.x, v.y, b.getAngularVelocity());
  }
  return out;
}

// ---- (1) planck's own BroadPhase beside ours, fed the same calls

type Proxy = PlanckFixtureProxy;
// the world gives every FixtureProxy our id (planck's BroadPhase beside it keeps its own, mapped in Beside)
const proxyKey = (a: Proxy, b: Proxy): string =>
  a.proxyId < b.proxyId ? `${a.proxyId}:${b.proxyId}` : `${b.proxyId}:${a.proxyId}`;

/** The world's broadphase calls go to ours and to planck's; every answer is compared. */
class Beside implements PlanckBroadPhaseLike {
  readonly ours: SweepPruneBroadPhase;
  readonly planck = new planck.BroadPhase() as unknown as PlanckBroadPhaseLike;
  readonly #world: World;
  readonly #planckId = new Map<number, number>();
  failures: string[] = [];
  reported = 0;

  constructor(world: World, ours: SweepPruneBroadPhase) {
    this.#world = world;
    this.ours = ours;
  }

  #fail(what: string): void {
    if (this.failures.length < 10) this.failures.push(what);
  }

  createProxy(aabb: PlanckAABB, userData: Proxy): number {
    const id = this.ours.createProxy(aabb, userData);
    this.#planckId.set(id, this.planck.createProxy(aabb, userData));
    return id;
  }
  destroyProxy(id: number): void {
    this.ours.destroyProxy(id);
    this.planck.destroyProxy(this.#planckId.get(id)!);
    this.#planckId.delete(id);
  }
  moveProxy(id: number, aabb: PlanckAABB, d: PlanckVec2): void {
    this.ours.moveProxy(id, aabb, d);
    this.planck.moveProxy(this.#planckId.get(id)!, aabb, d);
    this.getFatAABB(id); // compared
  }
  touchProxy(id: number): void {
    this.ours.touchProxy(id);
    this.planck.touchProxy(this.#planckId.get(id)!);
  }
  testOverlap(a: number, b: number): boolean {
    const ours = this.ours.testOverlap(a, b);
    if (ours !== this.planck.testOverlap(this.#planckId.get(a)!, this.#planckId.get(b)!)) {
      this.#fail(`testOverlap(${a}, ${b}) is ${ours}, planck's the opposite`);
    }
    return ours;
  }
  getFatAABB(id: number): PlanckAABB {
    const ours = this.ours.getFatAABB(id);
    const theirs = this.planck.getFatAABB(this.#planckId.get(id)!);
    const o = [ours.lowerBound.x, ours.lowerBound.y, ours.upperBound.x, ours.upperBound.y];
    const t = [theirs.lowerBound.x, theirs.lowerBound.y, theirs.upperBound.x, theirs.upperBound.y];
    if (o.some((v, i) => !Object.is(v, t[i]))) this.#fail(`fat box of ${id}: ${o} against planck's ${t}`);
    return ours;
  }
  getUserData(id: number): Proxy {
    return this.ours.getUserData(id);
  }
  query(aabb: PlanckAABB, callback: (id: number) => boolean): void {
    this.ours.query(aabb, callback);
  }
  rayCast(input: planck.RayCastInput, callback: (input: planck.RayCastInput, id: number) => number): void {
    this.ours.rayCast(input, callback);
  }
  shiftOrigin(origin: PlanckVec2): void {
    this.ours.shiftOrigin(origin);
    (this.planck as unknown as planck.BroadPhase).shiftOrigin(origin);
  }
  getProxyCount(): number {
    return this.ours.getProxyCount();
  }
  getTreeHeight(): number {
    return this.ours.getTreeHeight();
  }
  getTreeBalance(): number {
    return this.ours.getTreeBalance();
  }
  getTreeQuality(): number {
    return this.ours.getTreeQuality();
  }

  // planck's pairs, minus what its createContact drops before looking at filters (same body, no dynamic body) and
  // the pairs that have a contact, against ours (handed on to the world's callback)
  updatePairs(callback: (a: Proxy, b: Proxy) => void): void {
    const existing = new Set<string>();
    for (let c = this.#world.getContactList(); c; c = c.getNext()) {
      const pa = (c.getFixtureA() as unknown as { m_proxies: Proxy[] }).m_proxies[c.getChildIndexA()]!;
      const pb = (c.getFixtureB() as unknown as { m_proxies: Proxy[] }).m_proxies[c.getChildIndexB()]!;
      existing.add(proxyKey(pa, pb));
    }
    const expected = new Set<string>();
    this.planck.updatePairs((a, b) => {
      const ba = (a.fixture as Fixture).getBody();
      const bb = (b.fixture as Fixture).getBody();
      if (ba === bb || (!ba.isDynamic() && !bb.isDynamic())) return;
      const key = proxyKey(a, b);
      if (!existing.has(key)) expected.add(key);
    });
    const got = new Set<string>();
    this.ours.updatePairs((a, b) => {
      const key = proxyKey(a, b);
      if (got.has(key)) this.#fail(`pair ${key} reported twice`);
      if (a.proxyId < b.proxyId !== true) this.#fail(`pair ${key} not lower id first`);
      got.add(key);
      callback(a, b);
    });
    this.reported += got.size;
    for (const key of expected) if (!got.has(key)) this.#fail(`planck reports ${key}, ours does not`);
    for (const key of got) if (!expected.has(key)) this.#fail(`ours reports ${key}, planck does not`);
  }
}

/** Each contact once (no fixture pair twice). */
function duplicateContacts(world: World): string[] {
  const seen = new Set<string>();
  const dup: string[] = [];
  const names = fixtureNames(world);
  for (let c = world.getContactList(); c; c = c.getNext()) {
    const a = `${names.get(c.getFixtureA())}#${c.getChildIndexA()}`;
    const b = `${names.get(c.getFixtureB())}#${c.getChildIndexB()}`;
    const key = a < b ? `${a}|${b}` : `${b}|${a}`;
    if (seen.has(key)) dup.push(key);
    seen.add(key);
  }
  return dup;
}

describe("the same pairs as planck's BroadPhase, call by call (planck's own pair order)", () => {
  beforeAll(() => init());
  for (const [name, scene] of Object.entries(scenes)) {
    test(name, () => {
      const world = new World();
      const ours = useSweepPrune(world);
      const beside = new Beside(world, ours);
      internals(world).m_broadPhase = beside;
      const drive = scene(world, mulberry32(7));
      let contactsSeen = 0;
      for (let s = 0; s < STEPS; s++) {
        drive(s);
        world.step(dt);
        contactsSeen = Math.max(contactsSeen, world.getContactCount());
        expect(beside.failures, `step ${s}`).toEqual([]);
        expect(duplicateContacts(world), `step ${s}`).toEqual([]);
      }
      expect(beside.reported).toBeGreaterThan(0);
      expect(contactsSeen).toBeGreaterThan(0);
      ours.dispose();
    });
  }
});

// ---- (2) two identical worlds, the new pairs in one canonical order

// the order sweep-prune/planck hands new pairs over, imposed on a world (shared with the package test's scene)
const { canonical } = createRequire(import.meta.url)('../../package/app/planck-scene.cjs') as {
  canonical: (world: World) => void;
};

/** begin-contact and end-contact events of the world, in order, named alike in both worlds. */
function recordEvents(world: World): string[] {
  const log: string[] = [];
  world.on('begin-contact', (c) => log.push(`begin ${contactName(fixtureNames(world), c)}`));
  world.on('end-contact', (c) => log.push(`end ${contactName(fixtureNames(world), c)}`));
  return log;
}

interface Pair {
  planck: World;
  ours: World;
  drive: [Driver, Driver];
  events: [string[], string[]];
}

function pairOfWorlds(name: string): Pair {
  const scene = scenes[name]!;
  const theirs = new World();
  const ours = new World();
  useSweepPrune(ours);
  const drive: [Driver, Driver] = [scene(theirs, mulberry32(11)), scene(ours, mulberry32(11))];
  canonical(theirs);
  canonical(ours);
  return { planck: theirs, ours, drive, events: [recordEvents(theirs), recordEvents(ours)] };
}

/** Step both worlds, comparing contacts, events and bodies after every step. */
function stepBoth(p: Pair, from: number, to: number): void {
  for (let s = from; s < to; s++) {
    p.drive[0](s);
    p.drive[1](s);
    p.planck.step(dt);
    p.ours.step(dt);
    expect(contacts(p.ours), `contacts after step ${s}`).toEqual(contacts(p.planck));
    expect(p.events[1], `events of step ${s}`).toEqual(p.events[0]);
    expect(bodies(p.ours), `bodies after step ${s}`).toEqual(bodies(p.planck));
    p.events[0].length = 0;
    p.events[1].length = 0;
  }
}

describe('two identical worlds: the same contacts, events and bodies at every step', () => {
  beforeAll(() => init());
  for (const name of Object.keys(scenes)) {
    test(name, () => {
      const p = pairOfWorlds(name);
      let began = 0;
      p.ours.on('begin-contact', () => began++);
      stepBoth(p, 0, STEPS);
      expect(began).toBeGreaterThan(0);
      stopSweepPrune(p.ours);
    });
  }

  test('switching broadphase mid-run: useSweepPrune on a running world, and stopSweepPrune back', () => {
    const p = pairOfWorlds('churn');
    stopSweepPrune(p.ours); // both on planck's own for a while
    canonical(p.ours);
    stepBoth(p, 0, 60);
    useSweepPrune(p.ours); // takes over the proxies, their fat boxes, the move buffer and the contacts
    canonical(p.ours);
    stepBoth(p, 60, 140);
    const back = stopSweepPrune(p.ours);
    expect(back).toBeInstanceOf(planck.BroadPhase);
    expect(internals(p.ours).m_broadPhase).toBe(back);
    expect(Object.prototype.hasOwnProperty.call(p.ours, 'createContact')).toBe(false);
    canonical(p.ours);
    stepBoth(p, 140, 200);
  });

  test('a serialisation round trip: the restored world steps as planck restores it', () => {
    const p = pairOfWorlds('joints');
    stepBoth(p, 0, 80);
    const json = planck.Serializer.toJson(p.ours);
    expect(json).toEqual(planck.Serializer.toJson(p.planck));
    const restored: Pair = {
      planck: planck.Serializer.fromJson(json),
      ours: planck.Serializer.fromJson(json),
      drive: [() => {}, () => {}],
      events: [[], []],
    };
    useSweepPrune(restored.ours);
    canonical(restored.planck);
    canonical(restored.ours);
    restored.events = [recordEvents(restored.planck), recordEvents(restored.ours)];
    stepBoth(restored, 80, 200);
    stopSweepPrune(p.ours);
    stopSweepPrune(restored.ours);
  });
});

describe("each world's own pair order: the same contacts, in another order, so a pile drifts", () => {
  beforeAll(() => init());

  test("without one order, the contact lists' order differs first, then the bodies", () => {
    const scene = scenes.pyramids!;
    const theirs = new World();
    const ours = new World();
    useSweepPrune(ours);
    const drive = [scene(theirs, mulberry32(11)), scene(ours, mulberry32(11))];
    let orderOnly = -1; // the first step whose contacts are the same set in another list order
    let drift = -1;
    for (let s = 0; s < STEPS && drift < 0; s++) {
      drive[0]!(s);
      drive[1]!(s);
      theirs.step(dt);
      ours.step(dt);
      const [a, b] = [contacts(theirs), contacts(ours)];
      if (orderOnly < 0 && a.join() !== b.join()) {
        expect([...b].sort(), `the same contacts at step ${s}`).toEqual([...a].sort());
        orderOnly = s;
      }
      if (bodies(ours).join() !== bodies(theirs).join()) drift = s;
    }
    expect(orderOnly).toBeGreaterThanOrEqual(0);
    expect(drift).toBeGreaterThanOrEqual(orderOnly);
    stopSweepPrune(ours);
  });

  test('docs/planck.md gives the recipe for one order that these tests use', () => {
    const doc = readFileSync(new URL('../../../docs/planck.md', import.meta.url), 'utf8');
    const block = /```js\n(function canonical\(world\) \{[\s\S]*?\n\})\n```/.exec(doc);
    const flat = (code: string) => code.replace(/\s+/g, ' ');
    expect(block, 'a js block defining canonical(world)').not.toBeNull();
    expect(flat(block![1]!)).toBe(flat(canonical.toString()));
  });
});

// ---- (3) queries

function randomBox(random: () => number, x0: number, x1: number, y0: number, y1: number): PlanckAABB {
  const cx = x0 + random() * (x1 - x0);
  const cy = y0 + random() * (y1 - y0);
  const w = random() * random() * 12;
  const h = random() * random() * 12;
  return { lowerBound: new Vec2(cx - w, cy - h), upperBound: new Vec2(cx + w, cy + h) };
}

describe("queryAABB and rayCast give what planck's own give", () => {
  beforeAll(() => init());
  for (const name of ['pyramids', 'chains', 'churn', 'bullets']) {
    test(name, () => {
      const p = pairOfWorlds(name);
      const random = mulberry32(99);
      let hits = 0;
      for (const until of [1, 100, 200]) {
        stepBoth(p, until === 1 ? 0 : until - 100, until);
        const names = [fixtureNames(p.planck), fixtureNames(p.ours)];
        const worlds = [p.planck, p.ours] as const;
        for (let k = 0; k < 150; k++) {
          const box = randomBox(random, -60, 60, -25, 30);
          const found = worlds.map((w, i) => {
            const out: string[] = [];
            w.queryAABB(box, (f) => {
              out.push(names[i]!.get(f)!);
              return true;
            });
            return out.sort();
          });
          expect(found[1], `queryAABB ${JSON.stringify(box)}`).toEqual(found[0]);
          hits += found[0]!.length;
          // the first found when the callback stops at once is one of them
          let first: string | undefined;
          p.ours.queryAABB(box, (f) => ((first = names[1]!.get(f)), false));
          if (found[0]!.length > 0) expect(found[0]).toContain(first);
          else expect(first).toBeUndefined();

          const p1 = new Vec2(-60 + random() * 120, -25 + random() * 55);
          const p2 = random() < 0.2 ? p1.clone() : new Vec2(-60 + random() * 120, -25 + random() * 55);
          // every hit (the callback returns 1: the ray is not clipped)
          const all = worlds.map((w, i) => {
            const out: string[] = [];
            w.rayCast(p1, p2, (f, point, normal, fraction) => {
              out.push(`${names[i]!.get(f)} ${fraction} ${point.x},${point.y} ${normal.x},${normal.y}`);
              return 1;
            });
            return out.sort();
          });
          expect(all[1], `rayCast ${p1} ${p2}`).toEqual(all[0]);
          // the closest hit (the callback clips the ray at each hit)
          const closest = worlds.map((w, i) => {
            let hit: [string, number] | undefined;
            w.rayCast(p1, p2, (f, _point, _normal, fraction) => {
              hit = [names[i]!.get(f)!, fraction];
              return fraction;
            });
            return hit;
          });
          expect(closest[1]?.[1], `closest hit's fraction ${p1} ${p2}`).toBe(closest[0]?.[1]);
          if (closest[1] !== undefined)
            expect(all[0]!.some((h) => h.startsWith(`${closest[1]![0]} ${closest[1]![1]} `))).toBe(true);
        }
      }
      expect(hits).toBeGreaterThan(0);
      stopSweepPrune(p.ours);
    });
  }
});

// ---- contract details and errors

describe('the broadphase contract', () => {
  beforeAll(() => init());
  let world: World;
  let bp: SweepPruneBroadPhase;
  afterAll(() => bp?.dispose());

  test("useSweepPrune keeps the world's broadphase once installed, and reports planck's statistics", () => {
    world = new World();
    for (let i = 0; i < 5; i++)
      world.createBody({ type: 'dynamic', position: new Vec2(i, 0) }).createFixture(new planck.Circle(0.5), 1);
    bp = useSweepPrune(world);
    expect(useSweepPrune(world)).toBe(bp);
    expect(internals(world).m_broadPhase).toBe(bp);
    expect(world.getProxyCount()).toBe(5);
    expect(world.getTreeHeight()).toBe(0);
    expect(world.getTreeBalance()).toBe(0);
    expect(world.getTreeQuality()).toBe(0);
  });

  test('proxy ids grow with creation, and each names its FixtureProxy', () => {
    const ids: number[] = [];
    for (let b = world.getBodyList(); b; b = b.getNext()) {
      const proxy = (b.getFixtureList() as unknown as { m_proxies: Proxy[] }).m_proxies[0]!;
      expect(bp.getUserData(proxy.proxyId)).toBe(proxy);
      ids.push(proxy.proxyId);
    }
    // planck's body list is newest first
    expect([...ids].reverse()).toEqual([...ids].sort((a, b) => a - b));
  });

  test('getFatAABB is the box grown by aabbExtension (planck.Settings), as an AABB', () => {
    const b = world.getBodyList()!;
    const proxy = (b.getFixtureList() as unknown as { m_proxies: Proxy[] }).m_proxies[0]!;
    const fat = bp.getFatAABB(proxy.proxyId);
    expect(fat).toBeInstanceOf(planck.AABB);
    expect(fat.lowerBound.x).toBe(proxy.aabb.lowerBound.x - planck.Settings.aabbExtension);
    expect(fat.upperBound.y).toBe(proxy.aabb.upperBound.y + planck.Settings.aabbExtension);
  });

  test('bad arguments throw a SweepPruneError and change nothing', () => {
    expectCode(() => useSweepPrune({} as World), 'InvalidArgument', /planck 1\.x World/);
    expectCode(
      () => world.queryAABB({ lowerBound: new Vec2(NaN, 0), upperBound: new Vec2(1, 1) }, () => true),
      'InvalidBounds',
      /NaN/,
    );
    expectCode(
      () => world.queryAABB({ lowerBound: new Vec2(2, 0), upperBound: new Vec2(1, 1) }, () => true),
      'InvertedBounds',
    );
    expectCode(() => world.rayCast(new Vec2(0, 0), new Vec2(Infinity, 1), () => 1), 'InvalidBounds', /finite/);
    expectCode(
      () => bp.moveProxy(12345, { lowerBound: new Vec2(0, 0), upperBound: new Vec2(1, 1) }, new Vec2(0, 0)),
      'InvalidArgument',
      /not a live proxy id/,
    );
    expectCode(() => bp.shiftOrigin(new Vec2(NaN, 0)), 'InvalidBounds');
    expect(world.getProxyCount()).toBe(5);
  });

  test('a body whose position became NaN pairs with nothing new, and the world steps on', () => {
    const other = new World();
    useSweepPrune(other);
    const lost = other.createBody({ type: 'dynamic', position: new Vec2(0, 0) });
    lost.createFixture(new planck.Circle(1), 1);
    lost.setTransform(new Vec2(NaN, 0), 0);
    const late = other.createBody({ type: 'dynamic', position: new Vec2(0.5, 0) });
    late.createFixture(new planck.Circle(1), 1);
    expect(() => other.step(dt)).not.toThrow();
    expect(other.getContactCount()).toBe(0);
    const found: unknown[] = [];
    other.queryAABB({ lowerBound: new Vec2(-5, -5), upperBound: new Vec2(5, 5) }, (f) => found.push(f.getBody()) > 0);
    expect(found).toEqual([late]);
    stopSweepPrune(other);
  });

  test('inside a step the world is busy: useSweepPrune and stopSweepPrune throw Busy', () => {
    const other = new World();
    other.createBody({ type: 'dynamic' }).createFixture(new planck.Circle(1), 1);
    other.createBody({ type: 'dynamic', position: new Vec2(0.5, 0) }).createFixture(new planck.Circle(1), 1);
    const errors: unknown[] = [];
    other.on('begin-contact', () => {
      try {
        useSweepPrune(other);
      } catch (e) {
        errors.push(e);
      }
    });
    other.step(dt);
    expect(errors).toEqual([expect.objectContaining({ code: 'Busy' })]);
  });

  test('after stopSweepPrune the old broadphase throws Disposed', () => {
    const other = new World();
    other.createBody({ type: 'dynamic' }).createFixture(new planck.Circle(1), 1);
    const old = useSweepPrune(other);
    stopSweepPrune(other);
    expect(old.disposed).toBe(true);
    expectCode(() => old.updatePairs(() => {}), 'Disposed', /stopSweepPrune/);
    expect(stopSweepPrune(other)).toBe(internals(other).m_broadPhase); // not ours: left as it is
    other.step(dt);
  });

  test('many worlds created and dropped, each with its own broadphase', () => {
    for (let k = 0; k < 50; k++) {
      const w = new World();
      w.createBody({ type: 'dynamic' }).createFixture(new planck.Box(1, 1), 1);
      useSweepPrune(w);
      w.step(dt);
      if (k % 2 === 0) stopSweepPrune(w);
    }
  });
});
