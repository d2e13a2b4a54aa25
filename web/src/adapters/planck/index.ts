// SPDX-License-Identifier: MIT
// sweep-prune/planck: planck.js's broadphase (`world.m_broadPhase`, Box2D's b2BroadPhase) on a sweep-prune World.
// The same contract as planck's BroadPhase: fattened boxes, a move buffer, `updatePairs` reporting the overlaps of the
// moved proxies. The boxes live in sweep-prune Worlds (planck-index.ts); the pairs that already have a contact are
// skipped through a set of contacts kept by the world's own createContact and destroyContact, routed through here;
// planck's createContact (filters, joints, sensors, the contact itself) makes the new ones.
// planck is never imported: everything is read from the world given to `useSweepPrune`, so users who do not import
// this file pay nothing.
import { SweepPruneError } from '../../errors.js';
import { requireInit } from '../shared/init.js';
import { PairSet } from '../shared/pair-table.js';
import { DYNAMIC, KINEMATIC, ProxyIndex, STATIC, type Visit } from './proxies.js';

/** A 2D vector, as planck's `Vec2Value`. */
export interface PlanckVec2 {
  x: number;
  y: number;
}

/** An axis-aligned box, as planck's `AABBValue`. */
export interface PlanckAABB {
  lowerBound: PlanckVec2;
  upperBound: PlanckVec2;
}

/** planck's `RayCastInput`: the ray from `p1` to `p1 + maxFraction * (p2 - p1)`. */
export interface PlanckRayCastInput {
  p1: PlanckVec2;
  p2: PlanckVec2;
  maxFraction: number;
}

/** The fields of planck's internal objects the broadphase reads (planck 1.x; every name is planck's own). */
interface ContactLike {
  m_fixtureA: FixtureLike | null;
  m_fixtureB: FixtureLike | null;
  m_indexA: number;
  m_indexB: number;
}
interface ContactEdgeLike {
  contact: ContactLike;
  prev: ContactEdgeLike | null;
  next: ContactEdgeLike | null;
  other: BodyLike | null;
}
interface BodyLike {
  m_type: string;
  m_contactList: ContactEdgeLike | null;
  m_fixtureList: FixtureLike | null;
  m_next: BodyLike | null;
}
interface FixtureLike {
  m_body: BodyLike;
  m_next: FixtureLike | null;
  m_proxies: PlanckFixtureProxy[];
  m_proxyCount: number;
}

/** planck's `FixtureProxy`: the user data of every proxy (planck's World creates them). */
export interface PlanckFixtureProxy {
  aabb: PlanckAABB;
  fixture: unknown;
  childIndex: number;
  proxyId: number;
}

/** A planck `BroadPhase`, as the world uses it (planck's own class and `SweepPruneBroadPhase` both are one). */
export interface PlanckBroadPhaseLike {
  createProxy(aabb: PlanckAABB, userData: PlanckFixtureProxy): number;
  destroyProxy(proxyId: number): void;
  moveProxy(proxyId: number, aabb: PlanckAABB, displacement: PlanckVec2): void;
  touchProxy(proxyId: number): void;
  updatePairs(callback: (a: PlanckFixtureProxy, b: PlanckFixtureProxy) => void): void;
  testOverlap(proxyIdA: number, proxyIdB: number): boolean;
  getFatAABB(proxyId: number): PlanckAABB;
  getUserData(proxyId: number): PlanckFixtureProxy;
}

/** The parts of a planck `World` the adapter uses (a `planck.World` is one). */
export interface PlanckWorldLike {
  getBodyList(): unknown;
  isLocked(): boolean;
}

type CreateContact = (this: object, proxyA: PlanckFixtureProxy, proxyB: PlanckFixtureProxy) => void;
type DestroyContact = (this: object, contact: ContactLike) => void;

interface WorldInternals extends PlanckWorldLike {
  m_broadPhase: PlanckBroadPhaseLike & { m_moveBuffer?: unknown };
  getBodyList(): BodyLike | null;
  getContactList(): (ContactLike & { getNext(): unknown }) | null;
  createContact: CreateContact;
  destroyContact: DestroyContact;
}

// proxy ids: creation count * 2^22 + slot. Ordered by creation as planck's tree node ids are (the pair's lower id is
// the contact's fixture A), and the slot is read back with one mask (ids stay below 2^53).
const SLOT_BITS = 22;
const SLOT_SCALE = 2 ** SLOT_BITS;
const SLOT_MASK = SLOT_SCALE - 1;
const MAX_CREATIONS = 2 ** (53 - SLOT_BITS) - 1;
// the class's doors for useSweepPrune and stopSweepPrune (set in its static block; not part of its type)
let attach: (world: WorldInternals) => SweepPruneBroadPhase;
let detach: (bp: SweepPruneBroadPhase, world: WorldInternals) => PlanckBroadPhaseLike & { m_moveBuffer?: unknown };

const finalizer =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<ProxyIndex>((index) => index.dispose())
    : undefined;

/** The `aabbExtension` and `aabbMultiplier` planck's tree uses, read off a probe tree of the world's own class. */
function probeSettings(BroadPhase: new () => PlanckBroadPhaseLike): { extension: number; multiplier: number } {
  const probe = new BroadPhase();
  const userData = {} as PlanckFixtureProxy;
  const id = probe.createProxy({ lowerBound: { x: 0, y: 0 }, upperBound: { x: 0, y: 0 } }, userData);
  const extension = probe.getFatAABB(id).upperBound.x;
  // a move out of the fat box by +1 along x: the new fat box reaches multiplier * 1 beyond the extension
  const far = 4 * extension + 4;
  probe.moveProxy(id, { lowerBound: { x: far, y: 0 }, upperBound: { x: far, y: 0 } }, { x: 1, y: 0 });
  const multiplier = probe.getFatAABB(id).upperBound.x - (far + extension);
  if (!(extension >= 0 && extension < Infinity && multiplier >= 0 && multiplier < Infinity)) {
    throw new SweepPruneError(
      'InvalidArgument',
      `useSweepPrune: could not read planck's aabbExtension and aabbMultiplier (got ${extension}, ${multiplier}); is this planck 1.x?`,
    );
  }
  return { extension, multiplier };
}

function checkAABB(what: string, aabb: PlanckAABB): void {
  const a = aabb as Partial<PlanckAABB> | null | undefined;
  if (a == null || a.lowerBound == null || a.upperBound == null) {
    throw new SweepPruneError(
      'InvalidArgument',
      `${what}: aabb must be { lowerBound: { x, y }, upperBound: { x, y } }, got ${String(aabb)}`,
    );
  }
}

// The box of a query: not NaN, not inverted (planck's tree would answer a NaN box with every proxy).
function checkQueryAABB(what: string, aabb: PlanckAABB): void {
  checkAABB(what, aabb);
  const { lowerBound: lo, upperBound: hi } = aabb;
  for (const axis of ['x', 'y'] as const) {
    if (Number.isNaN(lo[axis]) || Number.isNaN(hi[axis])) {
      throw new SweepPruneError('InvalidBounds', `${what}: aabb has NaN on ${axis} (${lo[axis]}, ${hi[axis]})`);
    }
    if (lo[axis] > hi[axis]) {
      throw new SweepPruneError(
        'InvertedBounds',
        `${what}: aabb lowerBound.${axis} (${lo[axis]}) is above upperBound.${axis} (${hi[axis]})`,
      );
    }
  }
}

function kindOf(proxy: PlanckFixtureProxy): number {
  const type = (proxy.fixture as FixtureLike).m_body.m_type;
  return type === 'static' ? STATIC : type === 'kinematic' ? KINEMATIC : DYNAMIC;
}

// The proxy ids of a contact's two fixture children; undefined when a proxy was destroyed first (Body.setActive
// destroys the proxies, then the contacts).
function contactIds(c: ContactLike): [number, number] | undefined {
  const a = c.m_fixtureA?.m_proxies[c.m_indexA]?.proxyId;
  const b = c.m_fixtureB?.m_proxies[c.m_indexB]?.proxyId;
  return a == null || b == null ? undefined : [a, b];
}

/**
 * planck's `BroadPhase` on a sweep-prune World: install it with `useSweepPrune(world)`. Keeps Box2D's contract (fat
 * boxes grown by `aabbExtension` and, when moved, by `aabbMultiplier` times the displacement; `updatePairs` reports
 * the fat-box overlaps of the proxies created, moved out of their fat box or touched since the last call), so on
 * the same state the world has the same set of contacts as with planck's own. Pairs that already have a contact are
 * not reported (planck's `createContact` would reject them after walking a contact list).
 *
 * The new pairs come in another order than planck's tree walk gives (see `#dispatch`), and planck's solver walks the
 * contacts in the order they were created, so a world on this broadphase drifts away from the same world on planck's
 * as with any change of broadphase: the same kinds of contacts, made at other moments. Two worlds step bit-identically
 * only when both hand their new pairs to `createContact` in one order (docs/planck.md, "Pair order").
 *
 * Owns wasm memory: `stopSweepPrune(world)` gives the world planck's own broadphase back and frees it (otherwise it
 * is freed once the world is garbage-collected).
 */
export class SweepPruneBroadPhase implements PlanckBroadPhaseLike {
  #index: ProxyIndex | undefined;
  readonly #extension: number;
  readonly #multiplier: number;
  /** The class of planck's own broadphase, for `stopSweepPrune`. */
  readonly #planck: new () => PlanckBroadPhaseLike;
  #created = 0;
  #count = 0;
  #slots = 0;
  #free: number[] = [];
  #wrappers: [CreateContact, DestroyContact] | undefined;
  // by slot: proxy id (0: free; the index's array), user data, its body (pairs of one body are skipped, as planck's
  // createContact does), 1 while in the move buffer; the fat boxes and kinds are the index's
  #ids = new Float64Array(0);
  #data: (PlanckFixtureProxy | undefined)[] = [];
  #bodies: unknown[] = [];
  #moved = new Uint8Array(0);
  #movedList: number[] = [];
  #unique: number[] = [];
  // the proxy id pairs of the world's contacts: entered by the world's createContact, removed by its destroyContact
  // (both routed through this broadphase); a pair of a destroyed proxy is dropped as the set fills (ids are never
  // reused)
  readonly #contacts = new PairSet((a, b) => this.#ids[a & SLOT_MASK] === a && this.#ids[b & SLOT_MASK] === b);
  // the ids (lower first) of the pair #report hands to the callback, found to have no contact (0: none)
  readonly #checked = new Float64Array(2);
  // the new pairs of the running updatePairs (lower id, higher id), handed to its callback once all are found
  readonly #found: number[] = [];
  readonly #order: number[] = [];
  readonly #visit: Visit = (p, q) => this.#collect(p, q);

  /** Use `useSweepPrune(world)`, which makes one with the world's settings and moves its proxies over. */
  private constructor(extension: number, multiplier: number, planck: new () => PlanckBroadPhaseLike) {
    this.#extension = extension;
    this.#multiplier = multiplier;
    this.#planck = planck;
    // a mover keeps the statics around it while its fat box moves less than this (and its own size) from where
    // they were found
    this.#index = new ProxyIndex(8 * extension, (a, b) => this.#contacts.has(a, b));
    finalizer?.register(this, this.#index, this);
  }

  static {
    attach = (world) => SweepPruneBroadPhase.#attach(world);
    detach = (bp, world) => bp.#detach(world);
  }

  // A broadphase holding the world's proxies, fat boxes, move buffer and contacts, and the world's createContact
  // and destroyContact routed through it (for useSweepPrune).
  static #attach(world: WorldInternals): SweepPruneBroadPhase {
    const old = world.m_broadPhase;
    const planck = old.constructor as new () => PlanckBroadPhaseLike;
    const { extension, multiplier } = probeSettings(planck);
    const bp = new SweepPruneBroadPhase(extension, multiplier, planck);
    // the proxies in planck's id order (their creation order), with their fat boxes and move-buffer membership
    const proxies: PlanckFixtureProxy[] = [];
    for (let b = world.getBodyList(); b !== null; b = b.m_next) {
      for (let f = b.m_fixtureList; f !== null; f = f.m_next) {
        for (let i = 0; i < f.m_proxyCount; i++) proxies.push(f.m_proxies[i]!);
      }
    }
    proxies.sort((a, b) => a.proxyId - b.proxyId);
    const buffer = Array.isArray(old.m_moveBuffer) ? new Set(old.m_moveBuffer as unknown[]) : undefined;
    for (const proxy of proxies) {
      const moved = buffer === undefined || buffer.has(proxy.proxyId); // unknown buffer: every proxy looks again
      proxy.proxyId = bp.#add(old.getFatAABB(proxy.proxyId), 0, proxy, moved);
    }
    for (let c = world.getContactList(); c !== null; c = c.getNext() as typeof c) {
      const ids = contactIds(c);
      if (ids !== undefined) bp.#contacts.add(ids[0], ids[1]);
    }
    const create = world.createContact;
    const destroy = world.destroyContact;
    const wrappers: [CreateContact, DestroyContact] = [
      function createContact(this: object, proxyA, proxyB) {
        bp.#createContact(this, create, proxyA, proxyB);
      },
      function destroyContact(this: object, contact) {
        const ids = contactIds(contact);
        if (ids !== undefined) {
          bp.#contacts.delete(ids[0], ids[1]);
          bp.#index?.contactEnded(ids[0], ids[1]);
        }
        destroy.call(this, contact);
      },
    ];
    world.createContact = wrappers[0];
    world.destroyContact = wrappers[1];
    bp.#wrappers = wrappers;
    return bp;
  }

  // Planck's own broadphase with these proxies, their fat boxes and move buffer, and the world's own createContact
  // and destroyContact back (for stopSweepPrune).
  #detach(world: WorldInternals): PlanckBroadPhaseLike & { m_moveBuffer?: unknown } {
    const index = this.#live('stopSweepPrune');
    const own = world as Partial<WorldInternals>;
    if (this.#wrappers !== undefined && own.createContact === this.#wrappers[0]) delete own.createContact;
    if (this.#wrappers !== undefined && own.destroyContact === this.#wrappers[1]) delete own.destroyContact;
    const bp = new this.#planck() as PlanckBroadPhaseLike & { m_moveBuffer?: unknown };
    const slots: number[] = [];
    for (let s = 0; s < this.#slots; s++) if (this.#ids[s] !== 0) slots.push(s);
    slots.sort((a, b) => this.#ids[a]! - this.#ids[b]!);
    const fat = index.fat;
    const moved: number[] = [];
    for (const s of slots) {
      const o = s * 4;
      const aabb = { lowerBound: { x: fat[o]!, y: fat[o + 1]! }, upperBound: { x: fat[o + 2]!, y: fat[o + 3]! } };
      const proxy = this.#data[s]!;
      const id = bp.createProxy(aabb, proxy);
      // the tree fattened it once more; the leaf gets the exact fat box (inside its ancestors' boxes: the tree stays
      // valid)
      const leaf = bp.getFatAABB(id);
      leaf.lowerBound.x = aabb.lowerBound.x;
      leaf.lowerBound.y = aabb.lowerBound.y;
      leaf.upperBound.x = aabb.upperBound.x;
      leaf.upperBound.y = aabb.upperBound.y;
      proxy.proxyId = id;
      if (this.#moved[s] !== 0) moved.push(id);
    }
    if (Array.isArray(bp.m_moveBuffer)) bp.m_moveBuffer = moved;
    return bp;
  }

  #live(what: string): ProxyIndex {
    const index = this.#index;
    if (index === undefined) {
      throw new SweepPruneError(
        'Disposed',
        `SweepPruneBroadPhase.${what}: this broadphase was disposed (stopSweepPrune); the world must not use it any more`,
      );
    }
    return index;
  }

  // The slot of a proxy id, checked.
  #slot(what: string, proxyId: number): number {
    const slot = proxyId & SLOT_MASK;
    if (this.#ids[slot] !== proxyId || proxyId <= 0) {
      this.#live(what);
      throw new SweepPruneError(
        'InvalidArgument',
        `SweepPruneBroadPhase.${what}: ${String(proxyId)} is not a live proxy id of this broadphase`,
      );
    }
    return slot;
  }

  // Room in the per-slot arrays for slots below `count`.
  #reserve(index: ProxyIndex, count: number): void {
    index.reserve(count);
    this.#ids = index.ids;
    const old = this.#moved.length;
    if (count <= old) return;
    const capacity = index.kind.length;
    const moved = new Uint8Array(capacity);
    moved.set(this.#moved);
    this.#moved = moved;
  }

  // A proxy with the box `aabb` grown by `grow`; returns its id.
  #add(aabb: PlanckAABB, grow: number, userData: PlanckFixtureProxy, moved: boolean): number {
    const index = this.#live('createProxy');
    if (this.#created >= MAX_CREATIONS) {
      throw new SweepPruneError('CapacityExceeded', `createProxy: ${MAX_CREATIONS} proxies were created in this world`);
    }
    const slot = this.#free.pop() ?? this.#slots;
    if (slot > SLOT_MASK) {
      throw new SweepPruneError('CapacityExceeded', `createProxy: at most ${SLOT_MASK + 1} proxies at once`);
    }
    if (slot === this.#slots) this.#slots++;
    this.#reserve(index, slot + 1);
    const fat = index.fat;
    const o = slot * 4;
    fat[o] = aabb.lowerBound.x - grow;
    fat[o + 1] = aabb.lowerBound.y - grow;
    fat[o + 2] = aabb.upperBound.x + grow;
    fat[o + 3] = aabb.upperBound.y + grow;
    index.add(slot, kindOf(userData));
    const id = ++this.#created * SLOT_SCALE + slot;
    this.#ids[slot] = id;
    this.#data[slot] = userData;
    this.#bodies[slot] = (userData.fixture as FixtureLike).m_body;
    this.#moved[slot] = 0;
    if (moved) this.#buffer(slot);
    this.#count++;
    return id;
  }

  #buffer(slot: number): void {
    if (this.#moved[slot] === 0) this.#movedList.push(slot);
    this.#moved[slot] = 1;
  }

  /** A proxy for `aabb` grown by `aabbExtension`, in the move buffer. Returns its id (ids grow with creation). */
  createProxy(aabb: PlanckAABB, userData: PlanckFixtureProxy): number {
    checkAABB('createProxy', aabb);
    if (userData == null || (userData.fixture as FixtureLike | null)?.m_body == null) {
      throw new SweepPruneError('InvalidArgument', 'createProxy: userData must be a planck FixtureProxy');
    }
    const id = this.#add(aabb, this.#extension, userData, true);
    // contacts this fixture child already has (planck's Fixture._reset makes new proxies under live contacts) are
    // entered under the new id; a new or re-activated body has none, and its list is empty
    const fixture = userData.fixture as FixtureLike;
    for (let e = fixture.m_body.m_contactList; e !== null; e = e.next) {
      const c = e.contact;
      let other: number | null | undefined;
      if (c.m_fixtureA === fixture && c.m_indexA === userData.childIndex) {
        other = c.m_fixtureB?.m_proxies[c.m_indexB]?.proxyId;
      } else if (c.m_fixtureB === fixture && c.m_indexB === userData.childIndex) {
        other = c.m_fixtureA?.m_proxies[c.m_indexA]?.proxyId;
      }
      if (other != null) this.#contacts.add(id, other);
    }
    return id;
  }

  /** Remove a proxy (and from the move buffer). */
  destroyProxy(proxyId: number): void {
    const slot = this.#slot('destroyProxy', proxyId);
    this.#index!.remove(slot);
    this.#ids[slot] = 0;
    this.#data[slot] = undefined;
    this.#bodies[slot] = undefined;
    this.#moved[slot] = 0;
    this.#free.push(slot);
    this.#count--;
  }

  /**
   * Box2D's `MoveProxy`: nothing while `aabb` is inside the fat box; otherwise the fat box becomes `aabb` grown by
   * `aabbExtension` and, on the side it moves to, by `aabbMultiplier` times `displacement`, and the proxy is buffered.
   */
  moveProxy(proxyId: number, aabb: PlanckAABB, displacement: PlanckVec2): void {
    const slot = this.#slot('moveProxy', proxyId);
    const index = this.#index!;
    const fat = index.fat;
    const o = slot * 4;
    const lo = aabb.lowerBound;
    const hi = aabb.upperBound;
    if (fat[o]! <= lo.x && fat[o + 1]! <= lo.y && hi.x <= fat[o + 2]! && hi.y <= fat[o + 3]!) return;
    const e = this.#extension;
    let minX = lo.x - e;
    let minY = lo.y - e;
    let maxX = hi.x + e;
    let maxY = hi.y + e;
    const dx = displacement.x;
    const dy = displacement.y;
    const m = this.#multiplier;
    if (dx < 0) minX += dx * m;
    else maxX += dx * m;
    if (dy < 0) minY += dy * m;
    else maxY += dy * m;
    fat[o] = minX;
    fat[o + 1] = minY;
    fat[o + 2] = maxX;
    fat[o + 3] = maxY;
    this.#buffer(slot);
    index.seen(slot);
  }

  /** Buffer a proxy, so its pairs are reported again (planck calls it when filters or the body type change). */
  touchProxy(proxyId: number): void {
    const slot = this.#slot('touchProxy', proxyId);
    this.#index!.setKind(slot, kindOf(this.#data[slot]!));
    this.#buffer(slot);
  }

  /** Box2D's `BufferMove` (the same as `touchProxy`). */
  bufferMove(proxyId: number): void {
    this.touchProxy(proxyId);
  }

  /** Box2D's `UnBufferMove`: take a proxy out of the move buffer. */
  unbufferMove(proxyId: number): void {
    this.#moved[this.#slot('unbufferMove', proxyId)] = 0;
  }

  /** Whether the fat boxes of two proxies overlap (closed, planck's `AABB.testOverlap`). */
  testOverlap(proxyIdA: number, proxyIdB: number): boolean {
    const a = (proxyIdA & SLOT_MASK) * 4;
    const b = (proxyIdB & SLOT_MASK) * 4;
    const ids = this.#ids;
    if (ids[a >> 2] !== proxyIdA || ids[b >> 2] !== proxyIdB) {
      this.#slot('testOverlap', ids[a >> 2] !== proxyIdA ? proxyIdA : proxyIdB);
    }
    const fat = this.#index!.fat;
    return !(
      fat[b]! - fat[a + 2]! > 0 ||
      fat[b + 1]! - fat[a + 3]! > 0 ||
      fat[a]! - fat[b + 2]! > 0 ||
      fat[a + 1]! - fat[b + 3]! > 0
    );
  }

  /** A copy of a proxy's fat box (planck's returns the tree's own object). */
  getFatAABB(proxyId: number): PlanckAABB {
    const slot = this.#slot('getFatAABB', proxyId);
    const o = slot * 4;
    const fat = this.#index!.fat;
    // planck's AABB class, from the proxy's own box (planck is not imported)
    const AABB: unknown = this.#data[slot]!.aabb.constructor;
    const out =
      typeof AABB === 'function' && AABB !== Object
        ? (new (AABB as new () => PlanckAABB)() as Partial<PlanckAABB>)
        : undefined;
    if (out?.lowerBound == null || out.upperBound == null) {
      return { lowerBound: { x: fat[o]!, y: fat[o + 1]! }, upperBound: { x: fat[o + 2]!, y: fat[o + 3]! } };
    }
    out.lowerBound.x = fat[o]!;
    out.lowerBound.y = fat[o + 1]!;
    out.upperBound.x = fat[o + 2]!;
    out.upperBound.y = fat[o + 3]!;
    return out as PlanckAABB;
  }

  /** The user data given to `createProxy` (planck's `FixtureProxy`). */
  getUserData(proxyId: number): PlanckFixtureProxy {
    return this.#data[this.#slot('getUserData', proxyId)]!;
  }

  /** The number of proxies (planck 1.5's own returns the move buffer's length). */
  getProxyCount(): number {
    return this.#count;
  }

  /** 0: there is no tree (planck's value for an empty tree). */
  getTreeHeight(): number {
    return 0;
  }

  /** 0: there is no tree (planck's value for an empty tree). */
  getTreeBalance(): number {
    return 0;
  }

  /** 0: there is no tree (planck's value for an empty tree). */
  getTreeQuality(): number {
    return 0;
  }

  /** Move every fat box by `-newOrigin` (as planck's tree does; the move buffer is unchanged). */
  shiftOrigin(newOrigin: PlanckVec2): void {
    const index = this.#live('shiftOrigin');
    const { x, y } = newOrigin;
    if (!Number.isFinite(x) || !Number.isFinite(y)) {
      throw new SweepPruneError('InvalidBounds', `shiftOrigin: newOrigin must be finite, got (${x}, ${y})`);
    }
    index.shift(x, y);
  }

  /**
   * Report to `callback` (planck's `World.createContact`) every pair of proxies whose fat boxes overlap, one of them
   * buffered since the last call, that has no contact yet; then empty the move buffer. Lower proxy id first, the
   * pairs sorted by higher id, then lower id, both descending.
   */
  updatePairs(callback: (a: PlanckFixtureProxy, b: PlanckFixtureProxy) => void): void {
    const index = this.#live('updatePairs');
    if (typeof callback !== 'function') {
      throw new SweepPruneError('InvalidArgument', `updatePairs: callback must be a function, got ${typeof callback}`);
    }
    const moved = this.#movedList;
    if (moved.length === 0) return;
    const flags = this.#moved;
    // each buffered live proxy once (a slot freed and reused while buffered is listed twice)
    const unique = this.#unique;
    unique.length = 0;
    for (const p of moved) {
      if (flags[p] !== 1) continue;
      flags[p] = 2;
      unique.push(p);
    }
    for (const p of unique) flags[p] = 1;
    const found = this.#found;
    found.length = 0;
    try {
      if (unique.length > 0) index.pairsOfMoved(unique, flags, this.#visit);
    } finally {
      for (const p of moved) flags[p] = 0;
      moved.length = 0;
    }
    this.#dispatch(found, callback);
  }

  // Hand the found pairs to the callback sorted by higher id, then lower id, both descending: planck's own order
  // groups them the same way (its move buffer is taken from the end, newest proxy first, and each proxy's query
  // reports its pairs with older ones). planck puts each new contact first in the world's and the bodies' lists and
  // the solver walks them in that order: pairs grouped by proxy keep neighbouring contacts together (the order of a
  // hash set made 20 pyramids' step about 15% slower), and in AddPair's cloud planck's and this order resolve the
  // overlaps alike, where ascending order left 25% more contacts after 90 steps.
  #dispatch(found: number[], callback: (a: PlanckFixtureProxy, b: PlanckFixtureProxy) => void): void {
    const n = found.length >> 1;
    const order = this.#order;
    order.length = n;
    for (let i = 0; i < n; i++) order[i] = 2 * i;
    order.sort((i, j) => found[j + 1]! - found[i + 1]! || found[j]! - found[i]!);
    const data = this.#data;
    const checked = this.#checked;
    try {
      for (let k = 0; k < n; k++) {
        const low = found[order[k]!]!;
        const high = found[order[k]! + 1]!;
        // the pair has no contact: the world's createContact, called by the callback, need not look again
        checked[0] = low;
        checked[1] = high;
        callback(data[low & SLOT_MASK]!, data[high & SLOT_MASK]!);
      }
    } finally {
      checked[0] = 0;
      found.length = 0;
    }
  }

  // Slots sa and sb are a candidate pair: if their fat boxes overlap (planck's float64 test) and they have no
  // contact, keep them for the callback (lower id first).
  #collect(sa: number, sb: number): void {
    const fat = this.#index!.fat;
    const a = sa * 4;
    const b = sb * 4;
    if (
      fat[b]! - fat[a + 2]! > 0 ||
      fat[b + 1]! - fat[a + 3]! > 0 ||
      fat[a]! - fat[b + 2]! > 0 ||
      fat[a + 1]! - fat[b + 3]! > 0
    ) {
      return;
    }
    const bodies = this.#bodies;
    if (bodies[sa] === bodies[sb]) return; // planck's createContact skips these too
    const ids = this.#ids;
    const ia = ids[sa]!;
    const ib = ids[sb]!;
    if (this.#contacts.has(ia, ib)) return;
    if (ia < ib) this.#found.push(ia, ib);
    else this.#found.push(ib, ia);
  }

  // planck's World.createContact for the world's own calls (see useSweepPrune): the pair's contact is looked up in
  // the set of contacts instead of in body B's contact list, and a new contact is entered in it.
  #createContact(world: object, create: CreateContact, proxyA: PlanckFixtureProxy, proxyB: PlanckFixtureProxy): void {
    const sa = proxyA.proxyId & SLOT_MASK;
    const sb = proxyB.proxyId & SLOT_MASK;
    if (this.#ids[sa] !== proxyA.proxyId || this.#ids[sb] !== proxyB.proxyId || this.#index === undefined) {
      create.call(world, proxyA, proxyB); // not proxies of this broadphase: planck's own way
      return;
    }
    const checked = this.#checked[0] === proxyA.proxyId && this.#checked[1] === proxyB.proxyId;
    this.#checked[0] = 0;
    if (!checked && this.#contacts.has(proxyA.proxyId, proxyB.proxyId)) return;
    // every contact of the world is in the set (made here, or entered when the broadphase was attached): there is
    // none for this pair, so planck's walk of body B's contact list is given an empty list, which is then put back
    // behind what planck added (Contact.create puts a new contact first)
    const bodyB = (proxyB.fixture as FixtureLike).m_body;
    const head = bodyB.m_contactList;
    bodyB.m_contactList = null;
    try {
      create.call(world, proxyA, proxyB);
    } finally {
      const added = bodyB.m_contactList as ContactEdgeLike | null;
      if (added === null) {
        bodyB.m_contactList = head;
      } else {
        this.#contacts.add(proxyA.proxyId, proxyB.proxyId);
        this.#index.contactMade(proxyA.proxyId, proxyB.proxyId);
        let tail = added;
        while (tail.next !== null) tail = tail.next;
        tail.next = head;
        if (head !== null) head.prev = tail;
      }
    }
  }

  /**
   * planck's `BroadPhase.query`: `callback(proxyId)` for each proxy whose fat box overlaps `aabb` (closed); return
   * `false` to stop. The order is the Worlds' (static bodies' proxies first), not the tree's.
   * @throws SweepPruneError `InvalidArgument`, `InvalidBounds` (NaN), `InvertedBounds`, `Disposed`
   */
  query(aabb: PlanckAABB, callback: (proxyId: number) => boolean): void {
    checkQueryAABB('query', aabb);
    const index = this.#live('query');
    const { lowerBound: lo, upperBound: hi } = aabb;
    const found: number[] = [];
    index.query(lo.x, lo.y, hi.x, hi.y, (slot) => found.push(slot));
    for (let k = 0; k < found.length; k++) {
      const s = found[k]!;
      if (this.#ids[s] === 0) continue; // destroyed by an earlier callback
      const fat = index.fat;
      const o = s * 4;
      if (lo.x - fat[o + 2]! > 0 || lo.y - fat[o + 3]! > 0 || fat[o]! - hi.x > 0 || fat[o + 1]! - hi.y > 0) continue;
      if (callback(this.#ids[s]!) === false) return;
    }
  }

  /**
   * planck's `BroadPhase.rayCast`: `callback(subInput, proxyId)` for each proxy whose fat box the ray may cross, with
   * planck's own tests on each (the segment's box, clipped to the current `maxFraction`, and the separating axis).
   * The callback returns 0 to stop, a fraction to clip the ray there, or a negative number to go on. Proxies come
   * nearest first (planck's come in tree order): a callback that clips to its hits sees the nearest hit first.
   * @throws SweepPruneError `InvalidArgument`, `InvalidBounds` (NaN or infinite), `Disposed`
   */
  rayCast(input: PlanckRayCastInput, callback: (subInput: PlanckRayCastInput, proxyId: number) => number): void {
    const i = input as Partial<PlanckRayCastInput> | null | undefined;
    if (i == null || i.p1 == null || i.p2 == null) {
      throw new SweepPruneError('InvalidArgument', 'rayCast: input must be { p1, p2, maxFraction }');
    }
    const p1x = input.p1.x;
    const p1y = input.p1.y;
    const p2x = input.p2.x;
    const p2y = input.p2.y;
    let maxFraction = input.maxFraction;
    for (const v of [p1x, p1y, p2x, p2y, maxFraction]) {
      if (!Number.isFinite(v)) {
        throw new SweepPruneError(
          'InvalidBounds',
          `rayCast: p1, p2 and maxFraction must be finite, got (${p1x}, ${p1y}), (${p2x}, ${p2y}), ${maxFraction}`,
        );
      }
    }
    const index = this.#live('rayCast');
    // planck's unit direction r (Vec2.normalize: left as it is below EPSILON) and its normal v, for the separating
    // axis test, computed as planck computes them
    let rx = p2x - p1x;
    let ry = p2y - p1y;
    const length = Math.sqrt(rx * rx + ry * ry);
    if (!(length < 1e-9)) {
      const inverse = 1.0 / length;
      rx *= inverse;
      ry *= inverse;
    }
    const vx = -1 * ry;
    const vy = 1 * rx;
    const avx = Math.abs(vx);
    const avy = Math.abs(vy);
    // candidates: the boxes along the segment, nearest first; every float32 box holds its float64 fat box, and a fat
    // box holds its shape aabbExtension inside its edges (see ProxyIndex.ray)
    const ex = maxFraction * (p2x - p1x);
    const ey = maxFraction * (p2y - p1y);
    const scale = Math.max(Math.abs(p1x), Math.abs(p1y), Math.abs(p1x + ex), Math.abs(p1y + ey), 1);
    const found = index.ray(p1x, p1y, ex, ey, scale, this.#extension).slice();
    for (let k = 0; k < found.length; k++) {
      const s = found[k]!;
      if (this.#ids[s] === 0) continue; // destroyed by an earlier callback
      const fat = index.fat;
      const o = s * 4;
      // planck's DynamicTree.rayCast tests on the current maxFraction: the segment's box, then the separating axis
      const tx = (1 - maxFraction) * p1x + maxFraction * p2x;
      const ty = (1 - maxFraction) * p1y + maxFraction * p2y;
      const sMinX = Math.min(p1x, tx);
      const sMinY = Math.min(p1y, ty);
      const sMaxX = Math.max(p1x, tx);
      const sMaxY = Math.max(p1y, ty);
      if (sMinX - fat[o + 2]! > 0 || sMinY - fat[o + 3]! > 0 || fat[o]! - sMaxX > 0 || fat[o + 1]! - sMaxY > 0)
        continue;
      const cx = (fat[o]! + fat[o + 2]!) * 0.5;
      const cy = (fat[o + 1]! + fat[o + 3]!) * 0.5;
      const hx = (fat[o + 2]! - fat[o]!) * 0.5;
      const hy = (fat[o + 3]! - fat[o + 1]!) * 0.5;
      if (Math.abs(vx * (p1x - cx) + vy * (p1y - cy)) - (avx * hx + avy * hy) > 0) continue;
      const subInput = { p1: { x: p1x, y: p1y }, p2: { x: p2x, y: p2y }, maxFraction };
      const value = callback(subInput, this.#ids[s]!);
      if (value === 0) return;
      if (value > 0) maxFraction = value;
    }
  }

  /** True after `dispose()` (or `stopSweepPrune`). */
  get disposed(): boolean {
    return this.#index === undefined;
  }

  /** Free the wasm memory. Idempotent. A world must not use this broadphase afterwards (it throws `Disposed`). */
  dispose(): void {
    if (this.#index === undefined) return;
    finalizer?.unregister(this);
    this.#index.dispose();
    this.#index = undefined;
    this.#data = [];
    this.#bodies = [];
    this.#ids = new Float64Array(0);
    this.#contacts.clear();
    this.#movedList.length = 0;
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}

function internals(what: string, world: PlanckWorldLike): WorldInternals {
  const w = world as Partial<WorldInternals> | null | undefined;
  const bp = w?.m_broadPhase as Partial<PlanckBroadPhaseLike> | undefined;
  if (
    w == null ||
    typeof w.getBodyList !== 'function' ||
    typeof w.isLocked !== 'function' ||
    bp == null ||
    typeof bp.createProxy !== 'function' ||
    typeof bp.updatePairs !== 'function' ||
    typeof bp.getFatAABB !== 'function'
  ) {
    throw new SweepPruneError('InvalidArgument', `${what}(world): world must be a planck 1.x World (new World())`);
  }
  if (w.isLocked()) {
    throw new SweepPruneError(
      'Busy',
      `${what}(world): the world is in a step; call it between steps (or from world.queueUpdate)`,
    );
  }
  return w as WorldInternals;
}

/**
 * Give a planck world this package's broadphase: `world.m_broadPhase` becomes a `SweepPruneBroadPhase` holding the
 * world's proxies (fat boxes and move buffer as they were). Returns it; a world that has one already keeps it. The
 * world then makes the same contacts on the same state, created in another order (see `SweepPruneBroadPhase`).
 * `await init()` from `sweep-prune` first.
 * @throws SweepPruneError `NotInitialized`, `InvalidArgument` (not a planck 1.x world), `Busy` (inside a step)
 */
export function useSweepPrune(world: PlanckWorldLike): SweepPruneBroadPhase {
  requireInit('useSweepPrune', 'planck');
  const w = internals('useSweepPrune', world);
  if (w.m_broadPhase instanceof SweepPruneBroadPhase) return w.m_broadPhase;
  const bp = attach(w);
  w.m_broadPhase = bp;
  return bp;
}

/**
 * Give the world planck's own broadphase back, holding its current proxies (the same fat boxes and move buffer, so
 * the next steps are those planck's would have made), and free this one. Returns planck's broadphase. A world that
 * does not use sweep-prune's is left as it is.
 * @throws SweepPruneError `InvalidArgument` (not a planck 1.x world), `Busy` (inside a step)
 */
export function stopSweepPrune(world: PlanckWorldLike): PlanckBroadPhaseLike {
  const w = internals('stopSweepPrune', world);
  const ours = w.m_broadPhase;
  if (!(ours instanceof SweepPruneBroadPhase)) return ours;
  const planck = detach(ours, w);
  w.m_broadPhase = planck;
  ours.dispose();
  return planck;
}
