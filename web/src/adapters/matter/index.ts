// SPDX-License-Identifier: MIT
// sweep-prune/matter: a drop-in broadphase for matter-js 0.19 and 0.20. matter fuses its broadphase (a sort of all
// bodies by min x, then a sweep) and narrowphase in `Detector.collisions`; detectors made here answer that call from a
// sweep-prune World instead and hand the same candidate pairs to matter's own `Collision.collides`.
// matter-js is never imported: the user passes the module, so users who do not import this file pay nothing.
import { SweepPruneError } from '../../errors.js';
import { requireInit } from '../shared/init.js';
import { World, slotOf, type BoxId } from '../../world.js';
import { roundDown, roundUp } from '../../float32.js';
import { OutwardBounds, grown } from '../shared/bounds.js';

/** A 2D vector, as matter's `Vector`. */
export interface MatterVector {
  x: number;
  y: number;
}

/** An axis-aligned box, as matter's `Bounds`. */
export interface MatterBounds {
  min: MatterVector;
  max: MatterVector;
}

/** The fields of a matter `Body` the detector reads (a `Matter.Body` satisfies it). */
export interface MatterBodyLike {
  id: number;
  bounds: MatterBounds;
  parts: MatterBodyLike[];
  vertices: MatterVector[];
  isStatic: boolean;
  isSleeping: boolean;
  collisionFilter: { group?: number | undefined; category?: number | undefined; mask?: number | undefined };
}

/**
 * The parts of the `matter-js` module the adapter uses: pass the module itself (`import Matter from 'matter-js'` or
 * `require('matter-js')`). Its body, pairs and collision types are inferred from it.
 */
export interface MatterModule<B extends MatterBodyLike, P, C> {
  Detector: {
    collisions(detector: never): unknown;
    canCollide(filterA: B['collisionFilter'], filterB: B['collisionFilter']): boolean;
  };
  Collision: { collides(bodyA: B, bodyB: B, pairs?: P): C | null };
  Query: {
    ray(bodies: B[], startPoint: MatterVector, endPoint: MatterVector, rayWidth?: number): C[];
    region(bodies: B[], bounds: MatterBounds, outside?: boolean): B[];
    point(bodies: B[], point: MatterVector): B[];
  };
  Vertices: { contains(vertices: never, point: MatterVector): boolean };
  Body: object;
}

/** What `Engine.create` and `Detector` functions need of a detector: `bodies`, `collisions` and `pairs`. */
interface DetectorFields<B, P, C> {
  bodies: B[];
  collisions: C[];
  pairs: P | null;
}

const HOOK = Symbol.for('sweep-prune/matter.collisions');
const STATE = Symbol.for('sweep-prune/matter.state');
// matter's functions that move a body, change its shape or make it static outside Engine.update (Body.translate,
// rotate and set call these): static bodies are looked at only when one of them was called on them
const MOVERS = ['setPosition', 'setAngle', 'setVertices', 'setParts', 'scale', 'setStatic', 'setCentre'];
const LOG_LIMIT = 4096;
// still bodies become static boxes from this many on, and moving boxes again below STATIC_MODE_OFF
const STATIC_MODE_ON = 256;
const STATIC_MODE_OFF = 128;

/** Shared by the detectors of one matter module: the bodies given to MOVERS, in call order. */
interface HookState {
  log: unknown[];
  /** Calls before log[0]: a detector whose cursor is below it missed some and looks at all its static bodies. */
  start: number;
}

type AnyFn = (...args: unknown[]) => unknown;
/** A function made by matter's `Common.chain` (which `Matter.before` and `Matter.after` use): it calls these in turn. */
type Chained = AnyFn & { _chained?: AnyFn[] };

function sourceOf(fn: unknown): string {
  try {
    return Function.prototype.toString.call(fn);
  } catch {
    return '';
  }
}

// matter's own Detector.collisions (0.19, 0.20) is the one function of a chain that sorts by Detector._compareBoundsX
const isMattersOwn = (fn: unknown): boolean => sourceOf(fn).includes('_compareBoundsX');

/**
 * Put `dispatch` where matter's own `Detector.collisions` is: the function itself, or its place in a chain of
 * `Matter.before`/`Matter.after` hooks, so that the hooks run around this package's detectors as around matter's.
 * Returns matter's own function. Throws `InvalidArgument` when it cannot be told apart from a function installed by
 * hand, which the detectors would otherwise skip without a word.
 */
function replaceOwnCollisions(Matter: { Detector: object; Common?: unknown }, dispatch: (own: AnyFn) => AnyFn): void {
  const Detector = Matter.Detector as Record<string, unknown>;
  const current = Detector.collisions as Chained;
  const hint =
    'create the first SweepPruneDetector before installing it (a hook installed afterwards runs around the ' +
    'detectors), or install it with Matter.before / Matter.after';
  if (Array.isArray(current._chained)) {
    const funcs = current._chained;
    const own = funcs.filter(isMattersOwn);
    const chain = (Matter.Common as { chain?: (...funcs: AnyFn[]) => AnyFn } | undefined)?.chain;
    if (own.length !== 1 || typeof chain !== 'function') {
      throw new SweepPruneError(
        'InvalidArgument',
        `new SweepPruneDetector: Matter.Detector.collisions is a chain of ${funcs.length} functions (Matter.before / ` +
          `Matter.after) and matter's own function could not be found among them; ${hint}`,
      );
    }
    const to = dispatch(own[0]!);
    Detector.collisions = chain(...funcs.map((f) => (f === own[0] ? to : f)));
    return;
  }
  // an engine that keeps function source (not compiled to bytecode): a function that is not matter's was put there
  if (sourceOf(Detector.canCollide).includes('mask') && !isMattersOwn(current)) {
    throw new SweepPruneError(
      'InvalidArgument',
      `new SweepPruneDetector: Matter.Detector.collisions was replaced by a function that is not matter's own, ` +
        `which the detectors would skip; ${hint}`,
    );
  }
  Detector.collisions = dispatch(current);
}

/**
 * Route `Detector.collisions(detector)` to the detector's own method when it has one (detectors of this module, from
 * either the ES or the CommonJS copy), in the place of matter's own function (hooks around it still run), and log
 * the bodies given to matter's MOVERS. Once per matter module.
 */
function installHooks(Matter: { Detector: object; Body: object; Common?: unknown }): HookState {
  const Detector = Matter.Detector as Record<string | symbol, unknown>;
  const existing = Detector[STATE] as HookState | undefined;
  if (existing !== undefined) return existing;
  replaceOwnCollisions(
    Matter,
    (original) =>
      function collisions(this: unknown, detector: unknown) {
        const own = (detector as Record<symbol, AnyFn | undefined> | null | undefined)?.[HOOK];
        return own !== undefined ? own.call(detector) : original.apply(this, [detector]);
      },
  );
  const state: HookState = { log: [], start: 0 };
  const Body = Matter.Body as Record<string, unknown>;
  for (const name of MOVERS) {
    const fn = Body[name];
    if (typeof fn !== 'function') continue;
    Body[name] = function (this: unknown, body: { parent?: unknown }, ...rest: unknown[]) {
      const log = state.log;
      if (log.length >= LOG_LIMIT) {
        state.start += log.length; // detectors that did not read these look at all their static bodies once
        log.length = 0;
      }
      log.push(body?.parent ?? body);
      return (fn as AnyFn).call(this, body, ...rest);
    };
  }
  Object.defineProperty(Detector, STATE, { value: state });
  return state;
}

// One body of the detector: its box and what the World holds for it.
interface Entry<B> {
  body: B;
  id: BoxId;
  /** Index in `detector.bodies`: matter's order of results, and the tie-break of its sort. */
  order: number;
  /** Static or sleeping: a static box of the World. */
  still: boolean;
  /** Place in the list of non-static bodies (looked at every step), or -1 for a static body. */
  dynamic: number;
  /** Bounds not finite: filtered out of every pair (matter's own test would produce NaN collisions). */
  parked: boolean;
  /** Static, and still moved by matter's position solver (see #settling). */
  settling: boolean;
}

const isNumber = (v: unknown): v is number => typeof v === 'number';

/**
 * Throws `InvalidBounds` unless `bounds` is `{ min: { x, y }, max: { x, y } }` of numbers. True when the four are
 * finite: otherwise (NaN, infinite) the query is matter's own, which answers those as it answers any bounds.
 */
function checkBounds(what: string, bounds: MatterBounds): boolean {
  const b = bounds as Partial<MatterBounds> | null | undefined;
  const ok =
    b != null &&
    b.min != null &&
    b.max != null &&
    isNumber(b.min.x) &&
    isNumber(b.min.y) &&
    isNumber(b.max.x) &&
    isNumber(b.max.y);
  if (!ok) {
    throw new SweepPruneError(
      'InvalidBounds',
      `${what}: bounds must be { min: { x, y }, max: { x, y } } of numbers, got ${JSON.stringify(bounds)}`,
    );
  }
  const { min, max } = bounds;
  return Number.isFinite(min.x) && Number.isFinite(min.y) && Number.isFinite(max.x) && Number.isFinite(max.y);
}

/** As `checkBounds`, for a point. */
function checkPoint(what: string, name: string, p: MatterVector): boolean {
  if (p == null || !isNumber(p.x) || !isNumber(p.y)) {
    throw new SweepPruneError(
      'InvalidBounds',
      `${what}: ${name} must be { x, y } of numbers, got ${JSON.stringify(p)}`,
    );
  }
  return Number.isFinite(p.x) && Number.isFinite(p.y);
}

/**
 * A matter-js collision detector on a sweep-prune World: give it to `Engine.create({ detector })` (or use
 * `useSweepPrune(Matter, engine)`), and `Engine.update` finds the same collisions as with matter's own detector.
 *
 * The World holds one box per body (its `bounds`, the parent's for a compound body): static and sleeping bodies are
 * static boxes (from 256 of them on), which cost an update nothing while they stay still. Each step writes the bounds
 * of the awake bodies, looks at the sleeping ones and at static ones given to matter's `Body.setPosition` (and the
 * other functions that move a body), updates the World, and runs matter's own tests on its pairs: both bodies static
 * or sleeping (skipped),
 * `Detector.canCollide`, the float64 bounds test, the part-by-part bounds test of compound bodies, and
 * `Collision.collides(partA, partB, detector.pairs)`.
 *
 * `await init()` from `sweep-prune` before creating one. Owns wasm memory: call `dispose()` when done with it.
 */
export class SweepPruneDetector<
  B extends MatterBodyLike = MatterBodyLike,
  P = unknown,
  C = unknown,
> implements DetectorFields<B, P, C> {
  /** The bodies between which collisions are found; set by matter (`Detector.setBodies`) when the world changes. */
  bodies: B[] = [];
  /** The collisions found by the last step (reused from step to step, as matter does). */
  collisions: C[] = [];
  /** The engine's pairs (set by `Engine.create`): `Collision.collides` reuses their collision records. */
  pairs: P | null = null;

  /**
   * `Engine.create({ detector: SweepPruneDetector })`, the class where an instance belongs, keeps the class as the
   * engine's detector (matter copies `options.detector` as it is) and then sets its `pairs`: this setter is the one
   * point the package is called before matter's own `Detector.collisions` fails on it with a bare TypeError.
   * @throws SweepPruneError `InvalidArgument`, always
   */
  static set pairs(_: unknown) {
    throw new SweepPruneError(
      'InvalidArgument',
      'Engine.create({ detector }): detector is the SweepPruneDetector class; pass an instance: ' +
        '`Engine.create({ detector: new SweepPruneDetector(Matter) })`',
    );
  }

  readonly #matter: MatterModule<B, P, C>;
  readonly #hooks: HookState;
  #world: World | undefined;
  #entries: Entry<B>[] = [];
  #entryOf = new Map<B, Entry<B>>();
  #bySlot: (Entry<B> | undefined)[] = [];
  #bodyBy: (B | undefined)[] = []; // the body of each slot, for the pair loop
  readonly #canCollide: MatterModule<B, P, C>['Detector']['canCollide'];
  // by box slot, for the pair loop (typed arrays: no pointer chase per pair): the float64 bounds last written (to
  // see a still body that moved, and for matter's bounds test), 1 for a still body, the place in detector.bodies
  #bounds64 = new Float64Array(0);
  #stillBy = new Uint8Array(0);
  #orderBy = new Int32Array(0);
  // the World's bounds, written rounded outward
  #bounds!: OutwardBounds;
  #view: Float32Array = new Float32Array(0); // its view in this step
  #syncedBodies: B[] | undefined;
  #syncedLength = -1;
  // queries refresh the World when bodies may have moved since it was last updated
  #stale = true;
  #dynamic: Entry<B>[] = [];
  // still bodies, and whether they are static boxes in the World (see #chooseMode)
  #stillCount = 0;
  #staticMode = false;
  #fresh: Entry<B>[] = [];
  // read up to here in the hooks' log
  #cursor = 0;
  // static bodies that matter still moves: a body made static while its contacts pushed it keeps a position impulse,
  // which Resolver.postSolvePosition goes on applying (and shrinking) every step; looked at every step until it is 0
  #settling: Entry<B>[] = [];

  /**
   * @param Matter the `matter-js` module (0.19 or 0.20).
   * @throws SweepPruneError `NotInitialized` before `await init()`; `InvalidArgument` if `Matter` is not the module.
   */
  constructor(Matter: MatterModule<B, P, C>) {
    requireInit('new SweepPruneDetector', 'matter');
    const m = Matter as Partial<MatterModule<B, P, C>> | null | undefined;
    if (
      m == null ||
      typeof m.Detector?.collisions !== 'function' ||
      typeof m.Detector.canCollide !== 'function' ||
      typeof m.Collision?.collides !== 'function' ||
      typeof m.Query?.ray !== 'function' ||
      typeof m.Query.region !== 'function' ||
      typeof m.Query.point !== 'function' ||
      typeof m.Vertices?.contains !== 'function' ||
      m.Body == null
    ) {
      throw new SweepPruneError(
        'InvalidArgument',
        'new SweepPruneDetector(Matter): pass the matter-js module (0.19 or later), e.g. `import Matter from "matter-js"`',
      );
    }
    this.#matter = Matter;
    this.#canCollide = Matter.Detector.canCollide;
    this.#hooks = installHooks(Matter);
    this.#cursor = this.#hooks.start + this.#hooks.log.length;
    this.#world = new World({ dimensions: 2, events: false }); // the pairs alone: no sort of them by id
    this.#bounds = new OutwardBounds(this.#world);
    // matter's Detector.collisions(detector) calls this (see installHooks)
    Object.defineProperty(this, HOOK, { value: () => this.#collisions() });
  }

  // The step's collisions: the World's pairs through matter's own tests, in the World's pair order.
  #collisions(): C[] {
    const world = this.#sync('Detector.collisions');
    const Matter = this.#matter;
    // looked up per call, as matter's own detector does, so patches of these functions apply
    const canCollide = Matter.Detector.canCollide;
    const collides = Matter.Collision.collides;
    const pairs = this.pairs ?? undefined;
    const bodyBy = this.#bodyBy;
    // matter's own canCollide, written out below (the same test, with no call per pair); a patched one is called
    const ownFilter = canCollide === this.#canCollide;
    const b64 = this.#bounds64;
    const stillBy = this.#stillBy;
    const orderBy = this.#orderBy;
    const ids = world.pairs;
    const collisions = Array.isArray(this.collisions) ? this.collisions : (this.collisions = []);
    let n = 0;
    for (let i = 0; i < ids.length; i += 2) {
      const sa = slotOf(ids[i]!);
      const sb = slotOf(ids[i + 1]!);
      if ((stillBy[sa]! & stillBy[sb]!) !== 0) continue; // both static or sleeping (moving boxes while still bodies are few)
      // matter's float64 test, on the bounds read by this step's #sync (the World's boxes, rounded outward, are a
      // superset)
      const a = sa << 2;
      const b = sb << 2;
      const minXA = b64[a]!;
      const minXB = b64[b]!;
      if (minXA > b64[b + 2]! || minXB > b64[a + 2]! || b64[a + 3]! < b64[b + 1]! || b64[a + 1]! > b64[b + 3]!)
        continue;
      let bodyA = bodyBy[sa]!;
      let bodyB = bodyBy[sb]!;
      const fa = bodyA.collisionFilter;
      const fb = bodyB.collisionFilter;
      if (ownFilter) {
        // Detector.canCollide(fa, fb), term for term
        const group = fa.group;
        if (group === fb.group && group !== 0) {
          if (!(group! > 0)) continue;
        } else if ((fa.mask! & fb.category!) === 0 || (fb.mask! & fa.category!) === 0) continue;
      } else if (!canCollide(fa, fb)) continue;
      // matter calls collides(a, b) with a first in its sort by min x (ties: the earlier in detector.bodies)
      if (minXB < minXA || (minXB === minXA && orderBy[sb]! < orderBy[sa]!)) {
        const t = bodyA;
        bodyA = bodyB;
        bodyB = t;
      }
      const partsA = bodyA.parts as B[];
      const partsB = bodyB.parts as B[];
      const lengthA = partsA.length;
      const lengthB = partsB.length;
      if (lengthA === 1 && lengthB === 1) {
        const collision = collides(bodyA, bodyB, pairs);
        if (collision) collisions[n++] = collision;
        continue;
      }
      for (let k = lengthA > 1 ? 1 : 0; k < lengthA; k++) {
        const partA = partsA[k]!;
        const pa = partA.bounds;
        for (let z = lengthB > 1 ? 1 : 0; z < lengthB; z++) {
          const partB = partsB[z]!;
          const pb = partB.bounds;
          if (pa.min.x > pb.max.x || pa.max.x < pb.min.x || pa.max.y < pb.min.y || pa.min.y > pb.max.y) continue;
          const collision = collides(partA, partB, pairs);
          if (collision) collisions[n++] = collision;
        }
      }
    }
    if (collisions.length !== n) collisions.length = n;
    // Engine.update moves the bodies after this call: the next query refreshes the World first
    this.#stale = true;
    return collisions;
  }

  // Bring the World up to date with the bodies, then update it. Work per step: the non-static bodies (awake ones
  // write their bounds; sleeping ones are compared with what was written), and the bodies given to matter's MOVERS
  // since the last step. Static bodies cost nothing.
  #sync(what: string): World {
    const world = this.#world;
    if (world === undefined) {
      throw new SweepPruneError(
        'Disposed',
        `${what}: this SweepPruneDetector was disposed; create a new one (and give it to the engine)`,
      );
    }
    if (this.bodies !== this.#syncedBodies || this.bodies.length !== this.#syncedLength) this.#syncMembers(world);
    this.#view = this.#bounds.take(); // taken after the boxes were added (which may grow wasm memory)
    const hooks = this.#hooks;
    if (this.#cursor < hooks.start) {
      for (const e of this.#entries) if (e.dynamic < 0) this.#look(world, e);
    } else {
      const entryOf = this.#entryOf;
      const log = hooks.log;
      for (let i = this.#cursor - hooks.start; i < log.length; i++) {
        const e = entryOf.get(log[i] as B);
        if (e !== undefined) this.#look(world, e);
      }
    }
    this.#cursor = hooks.start + hooks.log.length;
    const settling = this.#settling;
    for (let i = settling.length - 1; i >= 0; i--) {
      const e = settling[i]!;
      if (this.#entryOf.get(e.body) === e) this.#look(world, e); // may end its settling
      if (e.settling && this.#entryOf.get(e.body) === e) continue;
      e.settling = false;
      settling[i] = settling[settling.length - 1]!;
      settling.pop();
    }
    this.#chooseMode(world);
    const dynamic = this.#dynamic;
    // backwards: #look may take the entry out of the list (swapping the last one into its place)
    for (let i = dynamic.length - 1; i >= 0; i--) {
      const e = dynamic[i]!;
      const body = e.body;
      if (!e.still && !body.isSleeping && !body.isStatic) {
        const b = body.bounds;
        this.#write(e, b.min.x, b.min.y, b.max.x, b.max.y); // awake: the hot path
      } else {
        this.#look(world, e);
      }
    }
    world.update();
    this.#stale = false;
    return world;
  }

  // Static boxes cost an update nothing while still, but pairs with them make the World sort its pairs by id each
  // update: with few still bodies (matter's stress scenes: four walls) moving boxes are cheaper, and the pairs of
  // two still bodies are skipped here instead. Switched with some hysteresis; O(bodies) per switch.
  #chooseMode(world: World): void {
    const mode = this.#staticMode ? this.#stillCount >= STATIC_MODE_OFF : this.#stillCount >= STATIC_MODE_ON;
    if (mode === this.#staticMode) return;
    this.#staticMode = mode;
    for (const e of this.#entries) if (e.still) world.setBoxStatic(e.id, mode);
  }

  // Bring one body's box up to date: its list, static flag and bounds.
  #look(world: World, e: Entry<B>): void {
    const body = e.body;
    const isStatic = body.isStatic;
    if (isStatic !== e.dynamic < 0) {
      const dynamic = this.#dynamic;
      if (isStatic) {
        const last = dynamic.pop()!;
        if (last !== e) dynamic[(last.dynamic = e.dynamic)] = last;
        e.dynamic = -1;
      } else {
        e.dynamic = dynamic.push(e) - 1;
      }
    }
    const still = isStatic || body.isSleeping;
    const impulse = (body as { positionImpulse?: MatterVector }).positionImpulse;
    const settling = isStatic && impulse != null && (impulse.x !== 0 || impulse.y !== 0);
    if (settling && !e.settling) this.#settling.push(e);
    e.settling = settling;
    const b = body.bounds;
    const minX = b.min.x;
    const minY = b.min.y;
    const maxX = b.max.x;
    const maxY = b.max.y;
    const b64 = this.#bounds64;
    const o = slotOf(e.id) << 2;
    if (still !== e.still) {
      if (this.#staticMode) world.setBoxStatic(e.id, still);
      this.#stillCount += still ? 1 : -1;
      e.still = still;
      this.#stillBy[slotOf(e.id)] = still ? 1 : 0;
    } else if (still && minX === b64[o] && minY === b64[o + 1] && maxX === b64[o + 2] && maxY === b64[o + 3]) {
      return; // a still body that did not move: its static box is unchanged
    }
    this.#write(e, minX, minY, maxX, maxY);
  }

  // Write a box: the bounds rounded outward to float32; bounds that are not finite park the box (no pairs).
  #write(e: Entry<B>, minX: number, minY: number, maxX: number, maxY: number): void {
    const o = slotOf(e.id) << 2;
    const b64 = this.#bounds64;
    b64[o] = minX;
    b64[o + 1] = minY;
    b64[o + 2] = maxX;
    b64[o + 3] = maxY;
    const view = this.#view;
    if (minX <= maxX && minY <= maxY && maxX - minX < Infinity && maxY - minY < Infinity) {
      if (e.parked) this.#park(e, false);
      this.#bounds.box2(o, minX, minY, maxX, maxY);
    } else {
      if (!e.parked) this.#park(e, true);
      view[o] = view[o + 1] = view[o + 2] = view[o + 3] = 0;
    }
  }

  #park(e: Entry<B>, parked: boolean): void {
    e.parked = parked;
    if (parked) this.#world!.setBoxFilter(e.id, 0, 0);
    else this.#world!.setBoxFilter(e.id, 1, 0xffffffff);
  }

  // Room in the per-slot arrays for slots below `count`, growing by half.
  #reserveSlots(count: number): void {
    if (count <= this.#stillBy.length) return;
    const capacity = Math.max(count, this.#stillBy.length + (this.#stillBy.length >> 1), 64);
    this.#bounds64 = grown(this.#bounds64, capacity * 4);
    this.#stillBy = grown(this.#stillBy, capacity);
    this.#orderBy = grown(this.#orderBy, capacity);
  }

  // `detector.bodies` was replaced (Detector.setBodies, Detector.clear) or resized: add and remove boxes to match.
  #syncMembers(world: World): void {
    const bodies = this.bodies;
    const old = this.#entryOf;
    const entryOf = new Map<B, Entry<B>>();
    const entries: Entry<B>[] = [];
    const dynamic: Entry<B>[] = [];
    for (let i = 0; i < bodies.length; i++) {
      const body = bodies[i]!;
      if (entryOf.has(body)) continue; // listed twice: one box
      let e = old.get(body);
      if (e === undefined) {
        const id = world.addBox([0, 0], [0, 0]);
        // a new entry starts as a moving box that was never written (NaN equals nothing): its first look writes it
        e = { body, id, order: 0, still: false, dynamic: 0, parked: false, settling: false };
        const slot = slotOf(id);
        this.#reserveSlots(slot + 1);
        this.#bySlot[slot] = e;
        this.#bodyBy[slot] = body;
        this.#bounds64.fill(NaN, slot << 2, (slot + 1) << 2);
        this.#stillBy[slot] = 0;
        this.#fresh.push(e);
      } else {
        old.delete(body);
      }
      e.order = entries.length;
      this.#orderBy[slotOf(e.id)] = e.order;
      e.dynamic = e.dynamic < 0 ? -1 : dynamic.push(e) - 1;
      entryOf.set(body, e);
      entries.push(e);
    }
    for (const e of old.values()) {
      if (e.still) this.#stillCount--;
      world.removeBox(e.id);
      this.#bySlot[slotOf(e.id)] = undefined;
      this.#bodyBy[slotOf(e.id)] = undefined;
    }
    this.#entryOf = entryOf;
    this.#entries = entries;
    this.#dynamic = dynamic;
    this.#syncedBodies = bodies;
    this.#syncedLength = bodies.length;
    // new static bodies are written here (once); new dynamic ones by the step's pass over the dynamic list
    this.#view = this.#bounds.take();
    for (const e of this.#fresh) if (e.body.isStatic) this.#look(world, e);
    this.#fresh.length = 0;
  }

  // The World for a query: refreshed if the engine stepped, bodies were moved through matter's Body functions, or
  // the body list changed since it was last updated.
  #queryWorld(what: string): World {
    const world = this.#world;
    if (
      world === undefined ||
      this.#stale ||
      this.#cursor !== this.#hooks.start + this.#hooks.log.length ||
      this.bodies !== this.#syncedBodies ||
      this.bodies.length !== this.#syncedLength
    ) {
      return this.#sync(what);
    }
    return world;
  }

  // detector.bodies as the queries see them: each body once, in order
  #bodies(): B[] {
    return this.#entries.map((e) => e.body);
  }

  #candidates(world: World, minX: number, minY: number, maxX: number, maxY: number): Entry<B>[] {
    const ids = world.queryBox([roundDown(minX), roundDown(minY)], [roundUp(maxX), roundUp(maxY)]);
    const bySlot = this.#bySlot;
    const found: Entry<B>[] = [];
    for (let i = 0; i < ids.length; i++) found.push(bySlot[slotOf(ids[i]!)]!);
    return found.sort((a, b) => a.order - b.order);
  }

  /**
   * `Query.region(detector.bodies, bounds, outside)`, accelerated: the bodies whose bounds overlap `bounds` (closed),
   * or with `outside` those that do not, in `detector.bodies` order. The same bodies as matter's query, from a box
   * query of the World instead of a scan of every body. Bounds with a NaN or infinite number: matter's own query.
   * @throws SweepPruneError `InvalidBounds` (not numbers), `Disposed`
   */
  region(bounds: MatterBounds, outside = false): B[] {
    const finite = checkBounds('region', bounds);
    const world = this.#queryWorld('region');
    if (!finite) return this.#matter.Query.region(this.#bodies(), bounds, outside);
    const { min, max } = bounds;
    const found = this.#candidates(world, min.x, min.y, max.x, max.y);
    const inside: B[] = [];
    for (const e of found) {
      const b = e.body.bounds;
      // matter's Bounds.overlaps(body.bounds, bounds)
      if (b.min.x <= max.x && b.max.x >= min.x && b.max.y >= min.y && b.min.y <= max.y) inside.push(e.body);
    }
    if (!outside) return inside;
    const hit = new Set(inside);
    return this.#entries.filter((e) => !hit.has(e.body)).map((e) => e.body);
  }

  /**
   * `Query.point(detector.bodies, point)`, accelerated: the bodies with a part whose vertices contain `point`, in
   * `detector.bodies` order. A point with a NaN or infinite number: matter's own query.
   * @throws SweepPruneError `InvalidBounds` (not numbers), `Disposed`
   */
  point(point: MatterVector): B[] {
    const finite = checkPoint('point', 'point', point);
    const world = this.#queryWorld('point');
    if (!finite) return this.#matter.Query.point(this.#bodies(), point);
    const contains = this.#matter.Vertices.contains;
    const result: B[] = [];
    const { x, y } = point;
    for (const e of this.#candidates(world, x, y, x, y)) {
      const body = e.body;
      const b = body.bounds;
      if (!(x >= b.min.x && x <= b.max.x && y >= b.min.y && y <= b.max.y)) continue;
      const parts = body.parts;
      for (let j = parts.length === 1 ? 0 : 1; j < parts.length; j++) {
        const part = parts[j]!;
        const p = part.bounds;
        if (x >= p.min.x && x <= p.max.x && y >= p.min.y && y <= p.max.y && contains(part.vertices as never, point)) {
          result.push(body);
          break;
        }
      }
    }
    return result;
  }

  /**
   * `Query.ray(detector.bodies, startPoint, endPoint, rayWidth)`, accelerated: matter's own `Query.ray` run on the
   * bodies whose bounds meet the ray's box. The same collisions as matter's query, in `detector.bodies` order.
   * Points with a NaN or infinite number, or an infinite width: matter's own query (a NaN width is its default).
   * @throws SweepPruneError `InvalidBounds` (not numbers, or a negative width), `Disposed`
   */
  ray(startPoint: MatterVector, endPoint: MatterVector, rayWidth?: number): C[] {
    const finiteStart = checkPoint('ray', 'startPoint', startPoint);
    const finite = checkPoint('ray', 'endPoint', endPoint) && finiteStart;
    if (rayWidth !== undefined && (typeof rayWidth !== 'number' || rayWidth < 0)) {
      throw new SweepPruneError('InvalidBounds', `ray: rayWidth must be a number >= 0, got ${rayWidth}`);
    }
    const world = this.#queryWorld('ray');
    if (!finite || rayWidth === Infinity) return this.#matter.Query.ray(this.#bodies(), startPoint, endPoint, rayWidth);
    // the ray is a rectangle about the segment, half its width to each side; the slack covers matter's float64
    // rotation of its vertices
    const half = (rayWidth || 0) / 2;
    const slack =
      half + 1e-9 * (1 + Math.abs(startPoint.x) + Math.abs(startPoint.y) + Math.abs(endPoint.x) + Math.abs(endPoint.y));
    const found = this.#candidates(
      world,
      Math.min(startPoint.x, endPoint.x) - slack,
      Math.min(startPoint.y, endPoint.y) - slack,
      Math.max(startPoint.x, endPoint.x) + slack,
      Math.max(startPoint.y, endPoint.y) + slack,
    );
    return this.#matter.Query.ray(
      found.map((e) => e.body),
      startPoint,
      endPoint,
      rayWidth,
    );
  }

  /**
   * The detector's World (one box per body; its slots are not body ids). For statistics such as `counters`; it is
   * created with `events: false`, so it has no `began` and `ended` lists.
   */
  get world(): World {
    const world = this.#world;
    if (world === undefined) throw new SweepPruneError('Disposed', 'world: this SweepPruneDetector was disposed');
    return world;
  }

  /** True after `dispose()`. */
  get disposed(): boolean {
    return this.#world === undefined;
  }

  /**
   * Free the World's wasm memory. Idempotent. The engine must not step with this detector afterwards (it throws
   * `Disposed`); give the engine another detector first.
   */
  dispose(): void {
    this.#world?.dispose();
    this.#world = undefined;
    this.#entries = [];
    this.#entryOf.clear();
    this.#bySlot = [];
    this.#bodyBy = [];
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}

/** The fields of a matter `Engine` that `useSweepPrune` reads and sets. */
export interface MatterEngineLike<B, P, C> {
  detector: Partial<DetectorFields<B, P, C>>;
  pairs: P;
}

/**
 * Give an existing engine a `SweepPruneDetector`: it takes over the engine's bodies and pairs, and the engine's
 * next `Engine.update` uses it. Returns the detector (dispose it when done with the engine). An engine whose detector
 * is already a `SweepPruneDetector` that is not disposed throws `AlreadyRegistered` and keeps it: a second detector
 * would leave the first one's memory to a handle the engine no longer uses.
 * @throws SweepPruneError `NotInitialized`, `InvalidArgument`, `AlreadyRegistered`
 */
export function useSweepPrune<B extends MatterBodyLike, P, C>(
  Matter: MatterModule<B, P, C>,
  engine: MatterEngineLike<B, P, C>,
): SweepPruneDetector<B, P, C> {
  if (engine == null || typeof engine !== 'object' || engine.detector == null) {
    throw new SweepPruneError(
      'InvalidArgument',
      'useSweepPrune(Matter, engine): engine must be a matter engine (Matter.Engine.create())',
    );
  }
  // a detector of this module, from the ES or the CommonJS copy
  const current = engine.detector as { disposed?: boolean };
  if (HOOK in current && current.disposed !== true) {
    throw new SweepPruneError(
      'AlreadyRegistered',
      'useSweepPrune(Matter, engine): this engine already runs on a SweepPruneDetector (engine.detector); keep ' +
        'using it, or call useMatterDetector(Matter, engine) first',
    );
  }
  const detector = new SweepPruneDetector(Matter);
  detector.bodies = (engine.detector.bodies ?? []).slice(0);
  detector.pairs = engine.pairs;
  engine.detector = detector;
  return detector;
}

/** The parts of the `matter-js` module `useMatterDetector` uses (the module itself satisfies it). */
export interface MatterDetectorModule {
  Detector: { create(): unknown; setBodies(detector: never, bodies: never): void };
}

/**
 * The way back from `useSweepPrune`: give the engine a new matter detector (`Detector.create`) with the engine's
 * bodies (`Detector.setBodies`) and pairs, as `Engine.create` makes it, and dispose the `SweepPruneDetector` the
 * engine had. The engine then steps as if this package had never been used. (`engine.detector =
 * Detector.create()` alone leaves it with no bodies, and so no collisions, until the world next changes.)
 * Returns the new detector. An engine already on a matter detector (never switched, or switched back) is left as it
 * is and its detector returned, as `stopSweepPrune` does for planck: the way back can be called whatever the state.
 * @throws SweepPruneError `InvalidArgument`
 */
export function useMatterDetector<B, P, C>(
  Matter: MatterDetectorModule,
  engine: MatterEngineLike<B, P, C>,
): DetectorFields<B, P, C> {
  const M = Matter as Partial<MatterDetectorModule> | null | undefined;
  if (typeof M?.Detector?.create !== 'function' || typeof M.Detector.setBodies !== 'function') {
    throw new SweepPruneError(
      'InvalidArgument',
      'useMatterDetector(Matter, engine): pass the matter-js module, e.g. `import Matter from "matter-js"`',
    );
  }
  if (engine == null || typeof engine !== 'object' || engine.detector == null) {
    throw new SweepPruneError(
      'InvalidArgument',
      'useMatterDetector(Matter, engine): engine must be a matter engine (Matter.Engine.create())',
    );
  }
  const current = engine.detector as Partial<DetectorFields<B, P, C>> & { dispose?: () => void };
  // a detector of this module, from the ES or the CommonJS copy
  if (!(HOOK in current)) return current as DetectorFields<B, P, C>;
  const detector = Matter.Detector.create() as DetectorFields<B, P, C>;
  Matter.Detector.setBodies(detector as never, (current.bodies ?? []) as never);
  detector.pairs = engine.pairs; // as Engine.create does (Detector.create's options would deep-copy the pairs)
  engine.detector = detector;
  current.dispose?.();
  return detector;
}
