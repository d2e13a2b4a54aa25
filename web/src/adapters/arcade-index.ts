// SPDX-License-Identifier: MIT
// The bodies of a Phaser Arcade Physics world as the boxes of one sweep-prune World: the dynamic tree's bodies as
// moving boxes, the static tree's as static boxes, and what a collider asks of them, "the bodies of this kind whose
// box meets this body's box now", answered from the World's pairs.
//
// A sync (at most once per physics step, and only when a collider or a search needs it) writes every dynamic body's
// box grown by a margin (its "fat" box), updates the World and lists each box's partners. Until the next sync a
// body that stays inside its fat box needs nothing more: any body whose box meets it has a fat box that meets its
// fat box, so it is among its partners. A body that a collider moves out of its fat box becomes "loose": it joins
// the partners of every box it meets where it is now (again each time it moves), and a question about a loose body
// looks at every loose body, until the next sync (one comes early when many are loose). Every answer is filtered by
// the bodies' boxes, as Phaser's tree filters its leaves: the box the sync read while a body has not moved since,
// else the body's own.
import { SweepPruneError } from '../errors.js';
import { roundDown, roundUp, storeDown, storeUp } from '../float32.js';
import { World, slotOf } from '../world.js';

/** The fields of an Arcade `Body` or `StaticBody` the index reads (Phaser's tree reads the same four). */
export interface ArcadeBody {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

export const DYNAMIC = 1;
export const STATIC = 2;

// state bits by slot
const DEAD = 1; // taken out of its tree: skipped by every answer; its box goes at the next sync
const LOOSE = 2; // its box in the World is not to be trusted: looked at by every question until the next sync
const PARKED = 4; // bounds not finite or inverted: never an answer (Phaser's tests are all false on NaN)
const MOVED = 8; // moved by a collider since the sync, inside its fat box: its box is read from the body

// a fat box grows each side by this share of the body's smaller side, plus MARGIN_MIN
const MARGIN_SHARE = 0.25;
const MARGIN_MIN = 0.5;
// loose bodies are scanned by every question: a sync comes early once there are this many (plus 1 per 512 bodies)
const LOOSE_MAX = 32;
// within ±2^22 a float32 is within 0.25 of the float64 it stores, less than MARGIN_MIN: a fat box stored as it is
// still holds its body (beyond, it is rounded outward)
const NEAR = 4194304;
// a dynamic body's slot, kept on the body (a map lookup per body per step cost more than the rest of the answer)
const SLOT = Symbol('sweep-prune/phaser.slot');

type Slotted = ArcadeBody & { [SLOT]?: number };

/** The bodies of one tree, as Phaser gave them, in the order its answers keep. */
export class ArcadeIndex {
  readonly world: World;
  /** Syncs so far (a question that keeps slots across callbacks checks that none came between). */
  syncs = 0;
  /** Set when bodies may have moved since the last sync in ways no collider saw (a new step, user code). */
  dirty = true;
  /** From the dynamic tree's load (a step's start) to the step's end: the colliders of the step are running. */
  inStep = false;

  // by slot
  #bodyBy: (ArcadeBody | undefined)[] = [];
  #ids = new Uint32Array(0);
  #kind = new Uint8Array(0);
  #state = new Uint8Array(0);
  #copies = new Uint32Array(0); // a static body inserted twice is answered twice, as by Phaser's tree
  // the order of answers: a dynamic body's place in the last `load`, a static body's last insertion
  #rank = new Float64Array(0);
  #fat = new Float32Array(0); // 4 per slot: the box in the World (a dynamic body's fat box), as stored there
  // 4 per slot: the body's own box as the sync read it (exact until the body is MOVED or LOOSE): most answers are
  // found here, without reading the bodies, which lie all over memory
  #box = new Float64Array(0);
  #stamp = new Uint32Array(0);
  #stampValue = 0;
  // the partners of each slot at the last sync: #adj[#adjStart[s] .. #adjStart[s + 1])
  #adjStart = new Int32Array(1);
  #adj = new Int32Array(0);
  #adjSlots = 0; // slots #adjStart covers
  #loose: number[] = [];
  // loose bodies added to the partners of the boxes they meet, until the next sync: a list per slot in three typed
  // arrays (its first entry, each entry's next one, each entry's slot), and the box each loose body was added with
  #extraHead = new Int32Array(0);
  #extraNext = new Int32Array(64);
  #extraSlot = new Int32Array(64);
  #extraCount = 0;
  #extraHeads: number[] = []; // slots whose list is not empty
  #added = new Float64Array(0);
  #updated = false; // the World has been updated once: its index can be queried

  readonly #staticOf = new Map<ArcadeBody, number>();
  #dynamicSlots: number[] = []; // in load order
  #items: ArcadeBody[] = []; // the dynamic tree's bodies (the last load, then inserts)
  #itemsChanged = false;
  #removedSince = new Set<ArcadeBody>(); // removed from the dynamic tree since #items was last reconciled
  #deadDynamic = 0;
  #deadStatic: number[] = []; // static slots whose boxes go at the next sync
  #staticSeq = 0;
  #view: Float32Array = new Float32Array(0);
  #ints: Int32Array = new Int32Array(0);
  // answers, as slots, on a stack: a callback may ask again while an answer is being walked
  #stack = new Int32Array(256);
  #top = 0;
  /** The bodies of the slots on the stack, where `meeting` put them (a sync in a callback does not change them). */
  readonly bodies: ArcadeBody[] = [];

  constructor() {
    this.world = new World({ dimensions: 2, events: false });
  }

  // ---- the trees' contents

  /** The dynamic tree becomes `bodies` (Phaser: `clear()` then `load(Array.from(world.bodies))` every step). */
  load(bodies: readonly ArcadeBody[], append: boolean): void {
    this.dirty = true;
    this.inStep = true;
    const items = this.#items;
    if (append) {
      if (bodies.length === 0) return;
      this.#items = items.concat(bodies);
    } else {
      let same = bodies.length === items.length && this.#deadDynamic === 0 && this.#removedSince.size === 0;
      for (let i = 0; same && i < bodies.length; i++) same = bodies[i] === items[i];
      if (same) return; // the same bodies in the same order: no change of membership
      this.#items = bodies.slice(); // Phaser 3 passes its live list of bodies
      this.#removedSince.clear();
    }
    this.#itemsChanged = true;
  }

  insertDynamic(body: ArcadeBody): void {
    this.#items = this.#items.concat(body);
    this.#removedSince.delete(body);
    this.#itemsChanged = true;
    this.dirty = true;
  }

  // the body's slot as a dynamic body of this index, or -1
  #slotOf(body: ArcadeBody): number {
    const slot = (body as Slotted)[SLOT];
    return slot !== undefined && this.#bodyBy[slot] === body && this.#kind[slot] === DYNAMIC ? slot : -1;
  }

  removeDynamic(body: ArcadeBody): void {
    this.#removedSince.add(body);
    this.#itemsChanged = true;
    const slot = this.#slotOf(body);
    if (slot >= 0 && (this.#state[slot]! & DEAD) === 0) {
      this.#state[slot]! |= DEAD;
      this.#deadDynamic++;
    }
  }

  insertStatic(body: ArcadeBody): void {
    let slot = this.#staticOf.get(body);
    if (slot === undefined) {
      slot = this.#addBoxes(1)[0]!;
      this.#kind[slot] = STATIC;
      this.#bodyBy[slot] = body;
      this.#state[slot] = 0;
      this.#copies[slot] = 0;
      this.world.setBoxStatic(this.#ids[slot]!, true);
      this.#staticOf.set(body, slot);
    } else if ((this.#state[slot]! & DEAD) !== 0) {
      this.#state[slot]! &= ~DEAD;
      this.#copies[slot] = 0;
    }
    this.#copies[slot]!++;
    this.#rank[slot] = ++this.#staticSeq;
    this.#writeStatic(slot, body);
    // the World's index sees the new box from its next update: until then the body is loose
    const o = slot << 2;
    const box = this.#box;
    this.#makeLoose(slot, box[o]!, box[o + 1]!, box[o + 2]!, box[o + 3]!);
  }

  removeStatic(body: ArcadeBody): void {
    const slot = this.#staticOf.get(body);
    if (slot === undefined || (this.#state[slot]! & DEAD) !== 0) return;
    if (--this.#copies[slot]! > 0) return;
    this.#state[slot]! |= DEAD;
    this.#deadStatic.push(slot);
  }

  clearDynamic(): void {
    this.load([], false);
  }

  clearStatic(): void {
    for (const slot of this.#staticOf.values()) {
      if ((this.#state[slot]! & DEAD) === 0) {
        this.#copies[slot] = 1;
        this.removeStatic(this.#bodyBy[slot]!);
      }
    }
  }

  /** The members of a tree, in answer order (each static body as many times as it was inserted). */
  all(kind: number): ArcadeBody[] {
    if (kind === DYNAMIC) {
      if (!this.#itemsChanged) return this.#dynamicSlots.map((s) => this.#bodyBy[s]!);
      // not reconciled yet (that waits for a sync: slots stay as the colliders' answers left them)
      const removed = this.#removedSince;
      return [...new Set(this.#items)].filter((body) => !removed.has(body));
    }
    const slots = [...this.#staticOf.values()].filter((s) => (this.#state[s]! & DEAD) === 0);
    slots.sort((a, b) => this.#rank[a]! - this.#rank[b]!);
    return slots.flatMap((s) => new Array<ArcadeBody>(this.#copies[s]!).fill(this.#bodyBy[s]!));
  }

  /** The slot of a body of the dynamic tree (after a sync), or -1. */
  dynamicSlot(body: ArcadeBody): number {
    const slot = this.#slotOf(body);
    return slot < 0 || (this.#state[slot]! & DEAD) !== 0 ? -1 : slot;
  }

  /** Slots the per-slot arrays cover. */
  get slotCount(): number {
    return this.#kind.length;
  }

  /**
   * True if the slot's box in the World holds its body (a partner list for it can be trusted): every move since
   * the last sync was seen (a collider's, followed by `track`) or the index is `dirty`.
   */
  isTrusted(slot: number): boolean {
    return (this.#state[slot]! & (DEAD | LOOSE | PARKED)) === 0;
  }

  /** False when a trusted dynamic slot has no partner: no body can meet it (its box is not even read). */
  mayMeet(slot: number): boolean {
    return (
      slot < 0 ||
      slot >= this.#adjSlots ||
      !this.isTrusted(slot) ||
      this.#extraHead[slot]! >= 0 ||
      this.#adjStart[slot + 1]! > this.#adjStart[slot]!
    );
  }

  // ---- sync

  /** Sync when bodies may have moved unseen, or when too many are loose. */
  prepare(): void {
    if (this.dirty || this.#loose.length > LOOSE_MAX + (this.#dynamicSlots.length >> 9)) {
      this.sync();
    }
  }

  /** Before a question about static bodies alone: a sync only when many are loose (moving boxes do not matter). */
  prepareStatic(): void {
    if (this.#loose.length > LOOSE_MAX + (this.#dynamicSlots.length >> 9)) this.sync();
  }

  /** Write every box, update the World and list each box's partners. */
  sync(): void {
    if (this.#itemsChanged) this.#reconcile();
    const world = this.world;
    for (const slot of this.#deadStatic) {
      if ((this.#state[slot]! & DEAD) === 0) continue; // inserted again since
      world.removeBox(this.#ids[slot]!);
      this.#staticOf.delete(this.#bodyBy[slot]!);
      this.#free(slot);
    }
    this.#deadStatic.length = 0;
    this.#takeView();
    const slots = this.#dynamicSlots;
    const bodyBy = this.#bodyBy;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      this.#writeDynamic(slot, bodyBy[slot]!);
    }
    world.update();
    this.#partners();
    for (const slot of this.#loose) this.#state[slot]! &= ~LOOSE;
    this.#loose.length = 0;
    for (const slot of this.#extraHeads) this.#extraHead[slot] = -1;
    this.#extraHeads.length = 0;
    this.#extraCount = 0;
    this.#updated = true;
    if (this.#top === 0) this.bodies.length = 0; // answers walked: no body kept alive by them
    this.dirty = false;
    this.syncs++;
  }

  // #items into boxes: new bodies get one, bodies no longer there lose theirs; ranks follow #items' order
  #reconcile(): void {
    const stampValue = ++this.#stampValue;
    const items = this.#items;
    const removed = this.#removedSince;
    const slots: number[] = [];
    const fresh: ArcadeBody[] = [];
    const freshRank: number[] = [];
    for (let i = 0; i < items.length; i++) {
      const body = items[i]!;
      if (removed.size !== 0 && removed.has(body)) continue;
      const slot = this.#slotOf(body);
      if (slot < 0) {
        fresh.push(body);
        freshRank.push(i);
        continue;
      }
      if (this.#stamp[slot] === stampValue) continue; // listed twice: one box
      this.#stamp[slot] = stampValue;
      this.#state[slot]! &= ~DEAD;
      this.#rank[slot] = i;
      slots.push(slot);
    }
    for (const slot of this.#dynamicSlots) {
      if (this.#stamp[slot] === stampValue) continue;
      this.world.removeBox(this.#ids[slot]!);
      this.#free(slot);
    }
    if (fresh.length > 0) {
      const added = this.#addBoxes(fresh.length);
      for (let k = 0; k < fresh.length; k++) {
        const slot = added[k]!;
        const body = fresh[k]!;
        if (this.#slotOf(body) >= 0) {
          this.world.removeBox(this.#ids[slot]!); // listed twice, both new: one box
          this.#ids[slot] = 0;
          continue;
        }
        (body as Slotted)[SLOT] = slot;
        this.#bodyBy[slot] = body;
        this.#kind[slot] = DYNAMIC;
        this.#state[slot] = 0;
        this.#rank[slot] = freshRank[k]!;
        this.#stamp[slot] = stampValue;
        slots.push(slot);
      }
    }
    this.#dynamicSlots = slots;
    this.#items = items.length === slots.length ? items : slots.map((s) => this.#bodyBy[s]!);
    removed.clear();
    this.#itemsChanged = false;
    this.#deadDynamic = 0;
    this.dirty = true;
  }

  // `count` new boxes (bounds written later): their slots
  #addBoxes(count: number): number[] {
    const ids = this.world.addBoxes(new Float32Array(4 * count));
    let top = 0;
    for (let k = 0; k < count; k++) top = Math.max(top, slotOf(ids[k]!));
    this.#reserve(top + 1);
    const slots: number[] = [];
    for (let k = 0; k < count; k++) {
      const slot = slotOf(ids[k]!);
      this.#ids[slot] = ids[k]!;
      slots.push(slot);
    }
    this.#view = new Float32Array(0); // wasm memory may have moved
    return slots;
  }

  #free(slot: number): void {
    this.#bodyBy[slot] = undefined;
    this.#kind[slot] = 0;
    this.#state[slot] = 0;
    this.#ids[slot] = 0;
  }

  #reserve(count: number): void {
    if (count <= this.#kind.length) return;
    const capacity = Math.max(count, this.#kind.length + (this.#kind.length >> 1), 64);
    const grow = <A extends Uint8Array | Uint32Array | Float32Array | Float64Array>(
      old: A,
      make: (n: number) => A,
      per = 1,
    ): A => {
      const next = make(capacity * per);
      next.set(old);
      return next;
    };
    this.#ids = grow(this.#ids, (n) => new Uint32Array(n));
    this.#kind = grow(this.#kind, (n) => new Uint8Array(n));
    this.#state = grow(this.#state, (n) => new Uint8Array(n));
    this.#copies = grow(this.#copies, (n) => new Uint32Array(n));
    this.#rank = grow(this.#rank, (n) => new Float64Array(n));
    this.#fat = grow(this.#fat, (n) => new Float32Array(n), 4);
    this.#box = grow(this.#box, (n) => new Float64Array(n), 4);
    this.#added = grow(this.#added, (n) => new Float64Array(n), 4);
    const heads = new Int32Array(capacity).fill(-1);
    heads.set(this.#extraHead);
    this.#extraHead = heads;
    this.#stamp = grow(this.#stamp, (n) => new Uint32Array(n));
  }

  #takeView(): void {
    const view = this.world.bounds;
    if (view !== this.#view) {
      this.#view = view;
      this.#ints = new Int32Array(view.buffer, view.byteOffset, view.length);
    }
  }

  // a dynamic body's fat box; bounds not finite (or inverted) park it
  #writeDynamic(slot: number, body: ArcadeBody): void {
    const left = body.left;
    const top = body.top;
    const right = body.right;
    const bottom = body.bottom;
    const w = right - left;
    const h = bottom - top;
    const m = MARGIN_SHARE * (w < h ? w : h) + MARGIN_MIN;
    const minX = left - m;
    const minY = top - m;
    const maxX = right + m;
    const maxY = bottom + m;
    const o = slot << 2;
    put4(this.#box, o, left, top, right, bottom);
    if (w >= 0 && h >= 0 && minX > -NEAR && minY > -NEAR && maxX < NEAR && maxY < NEAR) {
      const state = this.#state[slot]!;
      if ((state & PARKED) !== 0) this.#unpark(slot);
      this.#state[slot] = state & ~(MOVED | PARKED);
      const view = this.#view;
      const fat = this.#fat;
      view[o] = fat[o] = minX;
      view[o + 1] = fat[o + 1] = minY;
      view[o + 2] = fat[o + 2] = maxX;
      view[o + 3] = fat[o + 3] = maxY;
    } else {
      this.#state[slot]! &= ~MOVED;
      this.#store(slot, minX, minY, maxX, maxY);
    }
  }

  #writeStatic(slot: number, body: ArcadeBody): void {
    this.#takeView();
    const o = slot << 2;
    const box = this.#box;
    put4(box, o, body.left, body.top, body.right, body.bottom);
    this.#store(slot, box[o]!, box[o + 1]!, box[o + 2]!, box[o + 3]!);
  }

  // a box rounded outward to float32 (bounds not finite, or inverted, park it)
  #store(slot: number, minX: number, minY: number, maxX: number, maxY: number): void {
    if (!(maxX - minX >= 0 && maxY - minY >= 0 && maxX - minX < Infinity && maxY - minY < Infinity)) {
      this.#park(slot);
      return;
    }
    if ((this.#state[slot]! & PARKED) !== 0) this.#unpark(slot);
    const o = slot << 2;
    const view = this.#view;
    const ints = this.#ints;
    storeDown(view, ints, o, minX);
    storeDown(view, ints, o + 1, minY);
    storeUp(view, ints, o + 2, maxX);
    storeUp(view, ints, o + 3, maxY);
    this.#fat.set(view.subarray(o, o + 4), o);
  }

  #unpark(slot: number): void {
    this.#state[slot]! &= ~PARKED;
    this.world.setBoxFilter(this.#ids[slot]!, 1, 0xffffffff);
    this.#takeView();
  }

  #park(slot: number): void {
    if ((this.#state[slot]! & PARKED) === 0) {
      this.#state[slot]! |= PARKED;
      this.world.setBoxFilter(this.#ids[slot]!, 0, 0);
      this.#takeView();
    }
    const o = slot << 2;
    this.#view[o] = this.#view[o + 1] = this.#view[o + 2] = this.#view[o + 3] = 0;
    this.#fat.fill(NaN, o, o + 4);
  }

  // each slot's partners, from the World's pairs
  #partners(): void {
    const ids = this.world.pairs;
    const slots = this.#kind.length;
    if (this.#adjStart.length < slots + 1) this.#adjStart = new Int32Array(slots + 1);
    const start = this.#adjStart;
    start.fill(0, 0, slots + 1);
    const pairs = ids.length;
    for (let i = 0; i < pairs; i++) start[(ids[i]! >>> 10) + 1]!++;
    for (let s = 0; s < slots; s++) start[s + 1]! += start[s]!;
    if (this.#adj.length < pairs) this.#adj = new Int32Array(Math.max(pairs, this.#adj.length * 2));
    const adj = this.#adj;
    // filled from the back of each list: start[s] ends where it began
    for (let s = 0; s < slots; s++) start[s] = start[s + 1]!;
    for (let i = pairs - 2; i >= 0; i -= 2) {
      const a = ids[i]! >>> 10;
      const b = ids[i + 1]! >>> 10;
      adj[--start[a]!] = b;
      adj[--start[b]!] = a;
    }
    start[slots] = pairs;
    this.#adjSlots = slots;
  }

  // ---- moves seen by the colliders

  /**
   * After a collider moved `body` (or may have): if its box left its fat box, it becomes loose. Returns true if
   * the body is loose now (a question about it must not use its partner list).
   */
  track(body: ArcadeBody): boolean {
    const slot = this.#slotOf(body);
    return slot >= 0 && this.trackSlot(slot, body);
  }

  trackSlot(slot: number, body: ArcadeBody): boolean {
    const state = this.#state[slot]!;
    if ((state & (DEAD | PARKED)) !== 0) return false;
    const o = slot << 2;
    const left = body.left;
    const top = body.top;
    const right = body.right;
    const bottom = body.bottom;
    if ((state & LOOSE) !== 0) {
      const added = this.#added;
      if (left !== added[o] || top !== added[o + 1] || right !== added[o + 2] || bottom !== added[o + 3]) {
        this.#addToPartners(slot, left, top, right, bottom); // moved again: met where it is now
      }
      return true;
    }
    const box = this.#box;
    if (left === box[o] && top === box[o + 1] && right === box[o + 2] && bottom === box[o + 3]) return false;
    this.#state[slot] = state | MOVED;
    const fat = this.#fat;
    if (left >= fat[o]! && top >= fat[o + 1]! && right <= fat[o + 2]! && bottom <= fat[o + 3]!) return false;
    this.#makeLoose(slot, left, top, right, bottom);
    return true;
  }

  #makeLoose(slot: number, left: number, top: number, right: number, bottom: number): void {
    if ((this.#state[slot]! & LOOSE) === 0) {
      this.#state[slot]! |= LOOSE;
      this.#loose.push(slot);
    }
    this.#addToPartners(slot, left, top, right, bottom);
  }

  // a loose body joins the partner lists of the boxes in the World that meet its box (a NaN box meets none)
  #addToPartners(slot: number, left: number, top: number, right: number, bottom: number): void {
    put4(this.#added, slot << 2, left, top, right, bottom);
    if (!this.#updated || !(left === left && top === top && right === right && bottom === bottom)) return;
    const ids = this.#query(left, top, right, bottom);
    for (let k = 0; k < ids.length; k++) {
      const s = slotOf(ids[k]!);
      if (s === slot) continue;
      if (this.#extraCount === this.#extraNext.length) {
        const next = new Int32Array(2 * this.#extraCount);
        next.set(this.#extraNext);
        this.#extraNext = next;
        const slots = new Int32Array(2 * this.#extraCount);
        slots.set(this.#extraSlot);
        this.#extraSlot = slots;
      }
      const e = this.#extraCount++;
      const head = this.#extraHead[s]!;
      if (head < 0) this.#extraHeads.push(s);
      this.#extraNext[e] = head;
      this.#extraSlot[e] = slot;
      this.#extraHead[s] = e;
    }
  }

  // ---- questions

  /** The stack position before an answer: pass it to `release` when done with the answer. */
  get top(): number {
    return this.#top;
  }

  get stack(): Int32Array {
    return this.#stack;
  }

  release(top: number): void {
    this.#top = top;
  }

  #push(slot: number): void {
    if (this.#top === this.#stack.length) {
      const stack = new Int32Array(this.#stack.length * 2);
      stack.set(this.#stack);
      this.#stack = stack;
    }
    this.#stack[this.#top++] = slot;
  }

  /**
   * The bodies of `kind` whose live box meets the box (closed intervals, as Phaser's tree tests its leaves) of
   * `body` (or the box given), pushed on the stack as slots, sorted by rank. Returns the stack position after them.
   * `slot`: the body's own slot when it has one (-1 otherwise); its partner list is used when it can be trusted.
   */
  meeting(kind: number, slot: number, left: number, top: number, right: number, bottom: number): number {
    const stampValue = ++this.#stampValue;
    const from = this.#top;
    if (
      slot >= 0 &&
      slot < this.#adjSlots &&
      (this.#state[slot]! & (DEAD | LOOSE | PARKED)) === 0 &&
      (this.#kind[slot] === DYNAMIC || kind === DYNAMIC)
    ) {
      const adj = this.#adj;
      const end = this.#adjStart[slot + 1]!;
      for (let k = this.#adjStart[slot]!; k < end; k++)
        this.#consider(adj[k]!, kind, stampValue, left, top, right, bottom);
      const next = this.#extraNext;
      const slots = this.#extraSlot;
      for (let e = this.#extraHead[slot]!; e >= 0; e = next[e]!)
        this.#consider(slots[e]!, kind, stampValue, left, top, right, bottom);
    } else {
      if (!(left === left && top === top && right === right && bottom === bottom)) return from; // NaN meets nothing
      const ids = this.#query(left, top, right, bottom);
      for (let k = 0; k < ids.length; k++) this.#consider(slotOf(ids[k]!), kind, stampValue, left, top, right, bottom);
      const loose = this.#loose;
      for (let k = 0; k < loose.length; k++) this.#consider(loose[k]!, kind, stampValue, left, top, right, bottom);
    }
    const to = this.#top;
    this.#sortByRank(from, to);
    const stack = this.#stack;
    const bodies = this.bodies;
    for (let k = from; k < to; k++) bodies[k] = this.#bodyBy[stack[k]!]!;
    return to;
  }

  /** `meeting` for a body's own box: the box the sync read while the body has not moved, else the body's. */
  meetingOf(kind: number, slot: number, body: ArcadeBody): number {
    if (slot >= 0 && (this.#state[slot]! & (LOOSE | MOVED | DEAD | PARKED)) === 0) {
      const o = slot << 2;
      const box = this.#box;
      return this.meeting(kind, slot, box[o]!, box[o + 1]!, box[o + 2]!, box[o + 3]!);
    }
    return this.meeting(kind, slot, body.left, body.top, body.right, body.bottom);
  }

  /** True if the slot's box in the World (a dynamic body's fat box) meets the box (closed intervals). */
  fatMeets(slot: number, left: number, top: number, right: number, bottom: number): boolean {
    const o = slot << 2;
    const fat = this.#fat;
    return fat[o]! <= right && fat[o + 1]! <= bottom && fat[o + 2]! >= left && fat[o + 3]! >= top;
  }

  #consider(s: number, kind: number, stampValue: number, l: number, t: number, r: number, b: number): void {
    const state = this.#state[s]!;
    if (this.#kind[s] !== kind || this.#stamp[s] === stampValue || (state & (DEAD | PARKED)) !== 0) return;
    this.#stamp[s] = stampValue;
    let meets: boolean;
    if ((state & (LOOSE | MOVED)) === 0) {
      const o = s << 2;
      const box = this.#box;
      meets = box[o]! <= r && box[o + 1]! <= b && box[o + 2]! >= l && box[o + 3]! >= t; // the body's box, exactly
    } else if ((state & LOOSE) === 0 && !this.fatMeets(s, l, t, r, b)) {
      meets = false; // inside a fat box that does not meet
    } else {
      const body = this.#bodyBy[s]!;
      meets = body.left <= r && body.top <= b && body.right >= l && body.bottom >= t;
    }
    if (meets) {
      const copies = kind === STATIC ? this.#copies[s]! : 1;
      for (let c = 0; c < copies; c++) this.#push(s);
    }
  }

  #sortByRank(from: number, to: number): void {
    const stack = this.#stack;
    const rank = this.#rank;
    for (let i = from + 1; i < to; i++) {
      const s = stack[i]!;
      const r = rank[s]!;
      let j = i - 1;
      while (j >= from && rank[stack[j]!]! > r) {
        stack[j + 1] = stack[j]!;
        j--;
      }
      stack[j + 1] = s;
    }
  }

  /**
   * Partners of a trusted slot (fat boxes meeting at the last sync, and loose bodies that met its fat box where they
   * went), pushed on the stack unsorted and unfiltered except for dead and parked ones. For a loose or untracked
   * body, use `nearBox`.
   */
  candidates(slot: number): number {
    const stampValue = ++this.#stampValue;
    const adj = this.#adj;
    const end = this.#adjStart[slot + 1]!;
    for (let k = this.#adjStart[slot]!; k < end; k++) this.#candidate(adj[k]!, stampValue);
    const next = this.#extraNext;
    const slots = this.#extraSlot;
    for (let e = this.#extraHead[slot]!; e >= 0; e = next[e]!) this.#candidate(slots[e]!, stampValue);
    return this.#top;
  }

  /** Slots whose box in the World meets the box, and every loose slot, pushed on the stack unsorted. */
  nearBox(left: number, top: number, right: number, bottom: number): number {
    const stampValue = ++this.#stampValue;
    if (left === left && top === top && right === right && bottom === bottom) {
      const ids = this.#query(left, top, right, bottom);
      for (let k = 0; k < ids.length; k++) this.#candidate(slotOf(ids[k]!), stampValue);
    }
    const loose = this.#loose;
    for (let k = 0; k < loose.length; k++) this.#candidate(loose[k]!, stampValue);
    return this.#top;
  }

  // the ids of the boxes in the World that meet the box (rounded outward; an inverted box as its min and max)
  #query(left: number, top: number, right: number, bottom: number): Uint32Array {
    return this.world.queryBox(
      [roundDown(Math.min(left, right)), roundDown(Math.min(top, bottom))],
      [roundUp(Math.max(left, right)), roundUp(Math.max(top, bottom))],
    );
  }

  #candidate(s: number, stampValue: number): void {
    if (this.#stamp[s] === stampValue || (this.#state[s]! & (DEAD | PARKED)) !== 0) return;
    this.#stamp[s] = stampValue;
    this.#push(s);
  }

  /** Free the World's wasm memory. */
  dispose(): void {
    this.world.dispose();
    for (const slot of this.#dynamicSlots) (this.#bodyBy[slot] as Slotted)[SLOT] = undefined;
    this.#bodyBy = [];
    this.#staticOf.clear();
    this.#items = [];
    this.#dynamicSlots = [];
    this.#loose = [];
  }
}

function put4(array: Float64Array, o: number, a: number, b: number, c: number, d: number): void {
  array[o] = a;
  array[o + 1] = b;
  array[o + 2] = c;
  array[o + 3] = d;
}

/** Throws `InvalidBounds` unless `bbox` is `{ minX, minY, maxX, maxY }` of numbers that are not NaN. */
export function checkBBox(what: string, bbox: unknown): asserts bbox is BBox {
  const b = bbox as Partial<BBox> | null | undefined;
  const ok =
    b != null &&
    typeof b.minX === 'number' &&
    typeof b.minY === 'number' &&
    typeof b.maxX === 'number' &&
    typeof b.maxY === 'number' &&
    b.minX === b.minX &&
    b.minY === b.minY &&
    b.maxX === b.maxX &&
    b.maxY === b.maxY;
  if (!ok) {
    throw new SweepPruneError(
      'InvalidBounds',
      `${what}: bbox must be { minX, minY, maxX, maxY } of numbers (not NaN), got ${JSON.stringify(bbox)}`,
    );
  }
}

/** A search box, as Phaser's tree takes it. */
export interface BBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}
