// SPDX-License-Identifier: MIT
// The fat boxes of sweep-prune/planck's proxies, in two sweep-prune Worlds, and the candidate pairs of moved proxies.
// Movers (proxies of dynamic and kinematic bodies) are in one World, brought up to date when their pairs are wanted;
// statics (static bodies) are static boxes in another, only ever queried. A mover keeps the statics found around it
// (in a region a little larger than its fat box) until its fat box leaves that region or a static box changes, so a
// mover that leaves its fat box in a level of still tiles costs no query most of the time.
//
// The movers' pairs that have no contact are kept as they begin and end (the World's events), so that an update with
// many moved movers visits those and not every pair of a moved mover.
//
// Candidates are a superset of the overlapping pairs (float32 boxes rounded outward, cached regions): the caller
// tests each pair on the float64 fat boxes.
import { World, slotOf } from '../../world.js';
import { roundDown, roundUp } from '../../float32.js';
import { OutwardBounds, grown } from '../shared/bounds.js';
import { PairSet } from '../shared/pair-table.js';

/** Body kinds, as planck's body types. */
export const STATIC = 0;
export const KINEMATIC = 1;
export const DYNAMIC = 2;

// movers' filters (Box2D's rule that a contact has a dynamic body): kinematic boxes pair with dynamic boxes only;
// dynamic boxes keep the World's default filter (category 1, every mask bit)
const CATEGORY = [0, 2, 1];
const MASK = [0, 1, 0xffffffff];

// the cost of a query, of a mover in the movers' update and of a pending pair, in pair tests (about 4 ns each):
// choosing between querying around each moved mover and updating the movers' World (measured in Node 20)
const QUERY_COST = 400;
const MOVER_COST = 30;
const PAIR_COST = 3;
// ... and of testing a moved mover against one other mover directly (few movers: cheaper than a query)
const SCAN_COST = 1;
// proxy ids are creation count * 2^22 + slot (sweep-prune/planck's numbering)
const SLOT_MASK = 2 ** 22 - 1;

/** Receives the candidate pairs, as slots. */
export type Visit = (p: number, q: number) => void;

/** Whether the fat box at `o` has a NaN (a body whose position became NaN): such a box pairs with nothing. */
export function hasNaN(fat: Float64Array, o: number): boolean {
  return fat[o] !== fat[o] || fat[o + 1] !== fat[o + 1] || fat[o + 2] !== fat[o + 2] || fat[o + 3] !== fat[o + 3];
}

// Whether fat boxes at o and p overlap once rounded outward to float32, as the World stores them.
function roundedOverlap(fat: Float64Array, o: number, p: number): boolean {
  return (
    roundDown(fat[o]!) <= roundUp(fat[p + 2]!) &&
    roundDown(fat[p]!) <= roundUp(fat[o + 2]!) &&
    roundDown(fat[o + 1]!) <= roundUp(fat[p + 3]!) &&
    roundDown(fat[p + 1]!) <= roundUp(fat[o + 3]!)
  );
}

// Whether movers of kinds a and b may pair (the movers' World's filters).
function pairable(a: number, b: number): boolean {
  return (CATEGORY[a]! & MASK[b]!) !== 0 && (CATEGORY[b]! & MASK[a]!) !== 0;
}

/** Whether the proxies with ids a and b have a contact. */
export type HasContact = (a: number, b: number) => boolean;

export class ProxyIndex {
  /** By slot: the fat box (minX, minY, maxX, maxY). Replaced when it grows: read it again after `reserve`. */
  fat = new Float64Array(0);
  /** By slot: the proxy id (0 for a free slot), set by the caller. Replaced when it grows. */
  ids = new Float64Array(0);
  /** By slot: STATIC, KINEMATIC or DYNAMIC. Replaced when it grows. */
  kind = new Uint8Array(0);
  // by slot: the box id in its World, 1 while its World has not seen its current box, 1 while its box is parked
  // (NaN), the pair search that last handled it, the region of its cached statics and the static epoch they are of
  #boxIds = new Uint32Array(0);
  #live = new Uint8Array(0);
  #unseen = new Uint8Array(0);
  #parked = new Uint8Array(0);
  #done = new Uint32Array(0);
  #region = new Float64Array(0);
  #regionEpoch = new Uint32Array(0);
  #candidates: (number[] | undefined)[] = [];
  #search = 0;
  // changes whenever a static box is added, removed or moved: cached candidates of another epoch are stale
  #epoch = 1;
  readonly #movers = new World({ dimensions: 2 }); // with began and ended pairs, for #pending
  readonly #statics = new World({ dimensions: 2, events: false });
  readonly #moverBounds = new OutwardBounds(this.#movers);
  readonly #staticBounds = new OutwardBounds(this.#statics);
  // by World slot: the proxy slot whose box it is
  #moverOf = new Int32Array(0);
  #staticOf = new Int32Array(0);
  #moverUnseen: number[] = [];
  #staticUnseen: number[] = [];
  #moversStale = false;
  #staticsStale = false;
  #moverCount = 0;
  #staticCount = 0;
  // the movers' slots, dense (#moverCount of them), and by slot its place there
  #moverSlots = new Int32Array(0);
  #moverPlace = new Int32Array(0);
  readonly #margin: number;
  readonly #hasContact: HasContact;
  // proxy id pairs of movers the movers' World pairs (as of its last update) that have no contact, and maybe a few
  // that no longer pair: each is looked at when one of its proxies moves
  readonly #pending = new PairSet((a, b) => this.#isMover(a) && this.#isMover(b));
  #entries: number[] = [];
  #min = [0, 0];
  #max = [0, 0];
  #found: number[] = [];
  // box ids of the last #query
  #hits: number[] = [];
  readonly #hit = (id: number): void => {
    this.#hits.push(id);
  };

  /**
   * `margin`: the least distance from a mover's fat box to the edge of the region whose statics it keeps;
   * `hasContact`: the caller's set of contacts.
   */
  constructor(margin: number, hasContact: HasContact) {
    this.#margin = margin;
    this.#hasContact = hasContact;
  }

  // Whether `id` is the proxy id of a live mover.
  #isMover(id: number): boolean {
    const slot = id & SLOT_MASK;
    return this.ids[slot] === id && this.kind[slot] !== STATIC;
  }

  /** The proxies with ids a and b made a contact. */
  contactMade(a: number, b: number): void {
    this.#pending.delete(a, b);
  }

  /**
   * The proxies with ids a and b lost their contact: if both are movers, their pair may be wanted again. (Most
   * contacts end because the boxes parted, but the World may still hold the pair, as of its last update, and keep it
   * if they meet again before the next: it is kept until a pass finds the boxes apart.)
   */
  contactEnded(a: number, b: number): void {
    if (this.#isMover(a) && this.#isMover(b)) this.#pending.add(a, b);
  }

  /** The Worlds (movers, statics), for `dispose` and the finalizer. */
  get worlds(): [World, World] {
    return [this.#movers, this.#statics];
  }

  /** Room for slots below `count`. */
  reserve(count: number): void {
    const old = this.kind.length;
    if (count <= old) return;
    const capacity = Math.max(count, old + (old >> 1), 64);
    this.fat = grown(this.fat, capacity * 4);
    this.ids = grown(this.ids, capacity);
    this.kind = grown(this.kind, capacity);
    this.#boxIds = grown(this.#boxIds, capacity);
    this.#live = grown(this.#live, capacity);
    this.#unseen = grown(this.#unseen, capacity);
    this.#parked = grown(this.#parked, capacity);
    this.#done = grown(this.#done, capacity);
    this.#region = grown(this.#region, capacity * 4);
    this.#regionEpoch = grown(this.#regionEpoch, capacity);
    this.#moverSlots = grown(this.#moverSlots, capacity);
    this.#moverPlace = grown(this.#moverPlace, capacity);
  }

  #world(kind: number): World {
    return kind === STATIC ? this.#statics : this.#movers;
  }

  // A box for slot `slot` in its kind's World (written at the next sync).
  #addBox(slot: number, kind: number): void {
    const world = this.#world(kind);
    const boxId = world.addBox([0, 0], [0, 0]);
    const at = slotOf(boxId);
    if (kind === STATIC) {
      if (at >= this.#staticOf.length)
        this.#staticOf = grown(this.#staticOf, Math.max(at + 1, 2 * this.#staticOf.length));
      this.#staticOf[at] = slot;
      world.setBoxStatic(boxId, true);
      this.#staticCount++;
    } else {
      if (at >= this.#moverOf.length) this.#moverOf = grown(this.#moverOf, Math.max(at + 1, 2 * this.#moverOf.length));
      this.#moverOf[at] = slot;
      if (kind === KINEMATIC) world.setBoxFilter(boxId, CATEGORY[kind]!, MASK[kind]!);
      this.#moverSlots[this.#moverCount] = slot;
      this.#moverPlace[slot] = this.#moverCount;
      this.#moverCount++;
    }
    this.#boxIds[slot] = boxId;
    this.#parked[slot] = 0;
    this.#unseen[slot] = 0;
    this.#regionEpoch[slot] = 0;
    this.#candidates[slot] = undefined;
    this.seen(slot);
  }

  #removeBox(slot: number): void {
    const kind = this.kind[slot]!;
    this.#world(kind).removeBox(this.#boxIds[slot]!);
    if (kind === STATIC) {
      this.#staticCount--;
      this.#staticsStale = true;
      this.#epoch++;
    } else {
      // the last mover takes the removed one's place
      const last = this.#moverSlots[--this.#moverCount]!;
      this.#moverSlots[this.#moverPlace[slot]!] = last;
      this.#moverPlace[last] = this.#moverPlace[slot]!;
      this.#moversStale = true;
    }
    this.#unseen[slot] = 0;
    this.#candidates[slot] = undefined;
    this.#regionEpoch[slot] = 0;
  }

  /** Slot `slot` (reserved) gets a box of `kind`; its fat box is `fat[4 slot ..]`. */
  add(slot: number, kind: number): void {
    this.kind[slot] = kind;
    this.#live[slot] = 1;
    this.#addBox(slot, kind);
  }

  /** Slot `slot` has no box any more. */
  remove(slot: number): void {
    this.#removeBox(slot);
    this.#live[slot] = 0;
  }

  /** Slot `slot`'s fat box changed (or is new): its World takes it at the next sync. */
  seen(slot: number): void {
    if (this.#unseen[slot] === 0) {
      this.#unseen[slot] = 1;
      if (this.kind[slot] === STATIC) this.#staticUnseen.push(slot);
      else this.#moverUnseen.push(slot);
    }
    if (this.kind[slot] === STATIC) {
      this.#staticsStale = true;
      this.#epoch++;
    } else {
      this.#moversStale = true;
    }
  }

  /** Slot `slot`'s body changed kind. */
  setKind(slot: number, kind: number): void {
    const old = this.kind[slot]!;
    if (kind === old) return;
    if (old === STATIC || kind === STATIC) {
      this.#removeBox(slot);
      this.kind[slot] = kind;
      this.#addBox(slot, kind);
      return;
    }
    this.kind[slot] = kind;
    if (this.#parked[slot] === 0) this.#movers.setBoxFilter(this.#boxIds[slot]!, CATEGORY[kind]!, MASK[kind]!);
    this.#moversStale = true;
  }

  /** Every box moved by (-x, -y). */
  shift(x: number, y: number): void {
    const fat = this.fat;
    for (let s = 0; s < this.kind.length; s++) {
      if (this.#live[s] === 0) continue;
      const o = s * 4;
      fat[o] = fat[o]! - x;
      fat[o + 1] = fat[o + 1]! - y;
      fat[o + 2] = fat[o + 2]! - x;
      fat[o + 3] = fat[o + 3]! - y;
      this.seen(s);
    }
  }

  // Write the boxes the World has not seen (rounded outward; NaN boxes parked: no pairs, never found), then update.
  #sync(world: World, list: number[]): void {
    const statics = world === this.#statics;
    if (list.length > 0) {
      const bounds = statics ? this.#staticBounds : this.#moverBounds;
      let view = bounds.take();
      const fat = this.fat;
      const unseen = this.#unseen;
      for (let i = 0; i < list.length; i++) {
        const s = list[i]!;
        // removed since, or now in the other World (listed there too: added with its box unseen)
        if (unseen[s] === 0 || (this.kind[s] === STATIC) !== statics) continue;
        unseen[s] = 0;
        const o = s * 4;
        const boxId = this.#boxIds[s]!;
        const nan = hasNaN(fat, o);
        if (nan !== (this.#parked[s] === 1)) {
          this.#parked[s] = nan ? 1 : 0;
          const kind = this.kind[s]!;
          if (nan) world.setBoxFilter(boxId, 0, 0);
          else if (kind === STATIC) world.setBoxFilter(boxId, 1, 0xffffffff);
          else world.setBoxFilter(boxId, CATEGORY[kind]!, MASK[kind]!);
          view = bounds.take();
        }
        const at = world.offsetOf(boxId);
        if (nan) {
          view[at] = view[at + 1] = view[at + 2] = view[at + 3] = 0;
          continue;
        }
        // planck's fat boxes are never inverted (min - e <= max + e); rounding outward keeps min <= max
        bounds.box2(at, fat[o]!, fat[o + 1]!, fat[o + 2]!, fat[o + 3]!);
      }
      list.length = 0;
    }
    world.update();
  }

  #syncMovers(): World {
    if (this.#moversStale) {
      const world = this.#movers;
      this.#sync(world, this.#moverUnseen);
      this.#moversStale = false;
      // pending: the pairs that began without a contact come in, those that ended go out (a removed box's pairs end
      // too; their ids no longer match and are dropped as the set fills)
      const owner = this.#moverOf;
      const ids = this.ids;
      const boxIds = this.#boxIds;
      const began = world.began;
      for (let i = 0; i < began.length; i += 2) {
        const p = owner[slotOf(began[i]!)]!;
        const q = owner[slotOf(began[i + 1]!)]!;
        if (this.#hasContact(ids[p]!, ids[q]!)) continue;
        this.#pending.add(ids[p]!, ids[q]!);
      }
      const ended = world.ended;
      for (let i = 0; i < ended.length; i += 2) {
        const p = owner[slotOf(ended[i]!)]!;
        const q = owner[slotOf(ended[i + 1]!)]!;
        if (boxIds[p] === ended[i] && boxIds[q] === ended[i + 1]) this.#pending.delete(ids[p]!, ids[q]!);
      }
    }
    return this.#movers;
  }

  #syncStatics(): World {
    if (this.#staticsStale) {
      this.#sync(this.#statics, this.#staticUnseen);
      this.#staticsStale = false;
    }
    return this.#statics;
  }

  // Box ids in `world` overlapping the rounded-outward box of fat box `o` grown by `grow` (valid until the next call).
  #query(world: World, o: number, grow: number, mask: number): number[] {
    this.#bounds(o, grow);
    this.#hits.length = 0;
    world.forEachInBox(this.#min, this.#max, this.#hit, mask);
    return this.#hits;
  }

  // The rounded-outward box of fat box `o` grown by `grow`, into #min and #max.
  #bounds(o: number, grow: number): void {
    const fat = this.fat;
    this.#min[0] = roundDown(fat[o]! - grow);
    this.#min[1] = roundDown(fat[o + 1]! - grow);
    this.#max[0] = roundUp(fat[o + 2]! + grow);
    this.#max[1] = roundUp(fat[o + 3]! + grow);
  }

  /**
   * Call `visit(p, q)` for every candidate pair with a slot of `moved` (live slots in the move buffer, each once),
   * each pair once. `moving[slot]` is non-zero for the slots of `moved`.
   */
  pairsOfMoved(moved: number[], moving: Uint8Array, visit: Visit): void {
    const search = ++this.#search;
    // a list of unseen boxes grown long (Worlds not brought up to date for many steps, proxies made and destroyed
    // meanwhile) is taken in now: the lists stay within a few times the number of boxes
    if (this.#moverUnseen.length > 4 * this.#moverCount + 64) this.#syncMovers();
    if (this.#staticUnseen.length > 4 * this.#staticCount + 64) this.#syncStatics();
    let movers = 0;
    let statics = 0;
    for (const p of moved) {
      if (this.kind[p] === STATIC) statics++;
      else movers++;
    }
    if (movers > 0) {
      // an update and a pass over all pairs, a query per moved mover and a test per unseen mover, or a test of each
      // moved mover against every mover
      const full = (this.#moversStale ? MOVER_COST * this.#moverCount : 0) + PAIR_COST * this.#pending.size;
      const queried = movers * (QUERY_COST + this.#moverUnseen.length);
      const scanned = movers * SCAN_COST * this.#moverCount;
      if (scanned <= queried && scanned <= full) this.#moverPairsNear(moved, search, visit, true);
      else if (queried < full) this.#moverPairsNear(moved, search, visit, false);
      else this.#moverPairsFull(moving, visit);
      if (this.#staticCount > 0) {
        for (const p of moved) {
          if (this.kind[p] !== DYNAMIC || hasNaN(this.fat, p * 4)) continue;
          for (const q of this.#staticsAround(p)) visit(p, q);
        }
      }
    }
    if (statics > 0) this.#movedStatics(moved, statics, moving, visit);
  }

  // Mover pairs from the movers' World brought up to date: the pairs without a contact (pending) of which one slot
  // moved; a pair of a moved mover that has a contact needs nothing.
  #moverPairsFull(moving: Uint8Array, visit: Visit): void {
    this.#syncMovers();
    const entries = this.#entries;
    this.#pending.entries(entries);
    const ids = this.ids;
    const fat = this.fat;
    for (let i = 0; i < entries.length; i += 2) {
      const a = entries[i]!;
      const b = entries[i + 1]!;
      const p = a & SLOT_MASK;
      const q = b & SLOT_MASK;
      if (ids[p] !== a || ids[q] !== b || this.kind[p] === STATIC || this.kind[q] === STATIC) {
        this.#pending.delete(a, b); // a proxy destroyed or made static since
        continue;
      }
      if (this.#hasContact(a, b)) {
        this.#pending.delete(a, b);
        continue;
      }
      if (!roundedOverlap(fat, p * 4, q * 4)) {
        this.#pending.delete(a, b); // entered when its contact ended, after the pair itself had ended
        continue;
      }
      if ((moving[p]! | moving[q]!) !== 0) visit(p, q);
    }
  }

  // Mover pairs of each moved mover: with `scan`, from a test against every mover on the fat boxes (few movers);
  // otherwise from a query of the movers' World as of its last update, and a test of each mover it has not seen since.
  #moverPairsNear(moved: number[], search: number, visit: Visit, scan: boolean): void {
    const done = this.#done;
    const unseen = this.#unseen;
    const list = this.#moverUnseen;
    const fat = this.fat;
    const kind = this.kind;
    for (const p of moved) {
      const kp = kind[p]!;
      if (kp === STATIC) continue;
      done[p] = search; // pairs with p are visited from here on: later slots skip it
      const o = p * 4;
      if (hasNaN(fat, o)) continue;
      if (scan) {
        const slots = this.#moverSlots;
        for (let k = 0; k < this.#moverCount; k++) {
          const q = slots[k]!;
          const r = q * 4;
          // closed overlap (false for a NaN box)
          if (!(
            fat[r]! <= fat[o + 2]! &&
            fat[o]! <= fat[r + 2]! &&
            fat[r + 1]! <= fat[o + 3]! &&
            fat[o + 1]! <= fat[r + 3]!
          ))
            continue;
          if (q !== p && done[q] !== search && pairable(kp, kind[q]!)) visit(p, q);
        }
        continue;
      }
      const found = this.#query(this.#movers, o, 0, MASK[kp]!);
      for (let k = 0; k < found.length; k++) {
        const q = this.#moverOf[slotOf(found[k]!)]!;
        if (q === p || unseen[q] === 1 || done[q] === search || this.#boxIds[q] !== found[k]) continue;
        visit(p, q);
      }
      for (let k = 0; k < list.length; k++) {
        const q = list[k]!;
        if (q === p || unseen[q] !== 1 || done[q] === search || kind[q] === STATIC) continue;
        if (pairable(kp, kind[q]!) && !hasNaN(fat, q * 4)) visit(p, q);
      }
    }
  }

  // The statics around dynamic mover p: kept from the last query while p's fat box is inside the region queried and
  // no static box changed; otherwise queried again, in a region `margin` plus the box's size beyond the fat box.
  #staticsAround(p: number): number[] {
    const fat = this.fat;
    const region = this.#region;
    const o = p * 4;
    const cached = this.#candidates[p];
    if (
      cached !== undefined &&
      this.#regionEpoch[p] === this.#epoch &&
      region[o]! <= fat[o]! &&
      region[o + 1]! <= fat[o + 1]! &&
      fat[o + 2]! <= region[o + 2]! &&
      fat[o + 3]! <= region[o + 3]!
    ) {
      return cached;
    }
    const world = this.#syncStatics();
    const grow = this.#margin + 2 * Math.max(fat[o + 2]! - fat[o]!, fat[o + 3]! - fat[o + 1]!);
    region[o] = fat[o]! - grow;
    region[o + 1] = fat[o + 1]! - grow;
    region[o + 2] = fat[o + 2]! + grow;
    region[o + 3] = fat[o + 3]! + grow;
    const found = this.#query(world, o, grow, 0xffffffff);
    const list = cached ?? [];
    list.length = 0;
    for (let k = 0; k < found.length; k++) list.push(this.#staticOf[slotOf(found[k]!)]!);
    this.#candidates[p] = list;
    this.#regionEpoch[p] = this.#epoch;
    return list;
  }

  // Pairs of moved statics (a static body moved by hand, made static, or new) with dynamic movers that did not move
  // (the moved ones found them above: the statics' change made them query again).
  #movedStatics(moved: number[], statics: number, moving: Uint8Array, visit: Visit): void {
    const fat = this.fat;
    const kind = this.kind;
    if (statics <= this.#moverCount) {
      // few: the movers around each moved static
      const world = this.#syncMovers();
      for (const q of moved) {
        if (kind[q] !== STATIC || hasNaN(fat, q * 4)) continue;
        const found = this.#query(world, q * 4, 0, 1); // dynamic boxes (category 1) only
        for (let k = 0; k < found.length; k++) {
          const p = this.#moverOf[slotOf(found[k]!)]!;
          if (moving[p] === 0 && kind[p] === DYNAMIC) visit(q, p);
        }
      }
      return;
    }
    // many (a level being built): the statics around each dynamic mover, keeping the moved ones
    for (let p = 0; p < kind.length; p++) {
      if (this.#live[p] === 0 || moving[p] !== 0 || kind[p] !== DYNAMIC || hasNaN(fat, p * 4)) continue;
      for (const q of this.#staticsAround(p)) if (moving[q] !== 0) visit(q, p);
    }
  }

  /** `visit(slot)` for every box whose float32 box overlaps the float64 box (min, max), after bringing both up. */
  query(minX: number, minY: number, maxX: number, maxY: number, visit: (slot: number) => void): void {
    const min = [roundDown(minX), roundDown(minY)];
    const max = [roundUp(maxX), roundUp(maxY)];
    const statics = this.#syncStatics().queryBox(min, max);
    const movers = this.#syncMovers().queryBox(min, max);
    for (let k = 0; k < statics.length; k++) visit(this.#staticOf[slotOf(statics[k]!)]!);
    for (let k = 0; k < movers.length; k++) visit(this.#moverOf[slotOf(movers[k]!)]!);
  }

  /**
   * The slots whose boxes the segment from (x, y) along (dx, dy) may cross, nearest first; `scale` is the
   * coordinates' magnitude and `slack` the least margin of a fat box around its shape. Float32 rounding of the
   * segment's ends moves the engine's ray by about 2^-24 of the scale: a box it misses by less than the slack holds
   * no shape the ray reaches. With no such slack, every box of the segment's bounding box.
   */
  ray(x: number, y: number, dx: number, dy: number, scale: number, slack: number): number[] {
    const out = this.#found;
    out.length = 0;
    const length = Math.sqrt(dx * dx + dy * dy);
    if (scale * 2 ** -20 < slack && length > 0) {
      const reach = length * (1 + 2 ** -20) + scale * 2 ** -20;
      const a = this.#syncStatics().castRay([x, y], [dx, dy], reach);
      const b = this.#syncMovers().castRay([x, y], [dx, dy], reach);
      // merged by distance
      let i = 0;
      let j = 0;
      while (i < a.ids.length || j < b.ids.length) {
        if (j >= b.ids.length || (i < a.ids.length && a.distances[i]! <= b.distances[j]!)) {
          out.push(this.#staticOf[slotOf(a.ids[i++]!)]!);
        } else {
          out.push(this.#moverOf[slotOf(b.ids[j++]!)]!);
        }
      }
      return out;
    }
    this.query(Math.min(x, x + dx), Math.min(y, y + dy), Math.max(x, x + dx), Math.max(y, y + dy), (s) => out.push(s));
    return out;
  }

  /** Free both Worlds. Idempotent. */
  dispose(): void {
    this.#movers.dispose();
    this.#statics.dispose();
    this.#candidates = [];
    this.#pending.clear();
  }
}
