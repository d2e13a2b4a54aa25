// SPDX-License-Identifier: MIT
// The dynamic bodies of a Phaser Arcade Physics world (`world.bodies`) as the boxes of one sweep-prune World, and
// what a collider asks of them: "the bodies whose box may meet this body's box now", a superset that Phaser's own `separate` then
// decides on.
//
// A sync (at most once per physics step, and only when a collider or a search needs it) writes every dynamic body's
// box grown by a margin (its "fat" box), updates the World and lists each box's partners. Until the next sync a
// body that stays inside its fat box needs nothing more: any body whose box meets it has a fat box that meets its
// fat box, so it is among its partners. A body that a collider moves out of its fat box becomes "loose": it joins
// the partners of every box it meets where it is now (again each time it moves), and a question about a loose body
// looks at every loose body, until the next sync (one comes early when many are loose).
//
// Bodies with exactly the same box (a pool of bullets parked at one spot) share one box in the World: its first
// body leads, the others follow it, and an answer that holds a leader holds its followers. A pile of n coincident
// bodies then costs the World one box, not n * (n - 1) / 2 pairs. A body whose box is not finite or is inverted is
// "wild": it has no box and is in every answer (Phaser's tests decide on it as they would anyway).
import { roundDown, roundUp } from '../../float32.js';
import { World, slotOf } from '../../world.js';
import { OutwardBounds, grown } from '../shared/bounds.js';

/** The fields of an Arcade `Body` the index reads (Phaser's tree reads the same four). */
export interface ArcadeBody {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

// state bits by slot
const LOOSE = 2; // its box in the World is not to be trusted: looked at by every question until the next sync
const WILD = 4; // bounds not finite, or inverted: no box, in every answer
const MOVED = 8; // moved by a collider since the sync, inside its fat box: its box is read from the body

// a fat box grows each side by this share of the body's smaller side, plus MARGIN_MIN
const MARGIN_SHARE = 0.25;
const MARGIN_MIN = 0.5;
// loose bodies are scanned by every question: a sync comes early once there are this many (plus 1 per 512 bodies)
const LOOSE_MAX = 32;
// within ±2^22 a float32 is within 0.25 of the float64 it stores, less than MARGIN_MIN: a fat box stored as it is
// still holds its body (beyond, it is rounded outward)
const NEAR = 4194304;
// coincident bodies are looked for while the last sync found many pairs a box (or some coincident bodies)
const PAIRS_PER_BOX = 4;
// a dynamic body's slot, kept on the body (a map lookup per body per step cost more than the rest of the answer)
const SLOT = Symbol('sweep-prune/phaser.slot');

type Slotted = ArcadeBody & { [SLOT]?: number };

const hashScratch = new Float64Array(4);
const hashWords = new Int32Array(hashScratch.buffer);

/** The dynamic bodies of one Arcade world. */
export class ArcadeIndex {
  readonly world: World;
  /** Syncs so far (a question that keeps slots across callbacks checks that none came between). */
  syncs = 0;
  /**
   * Set when bodies may have moved since the last sync in ways no collider saw (a new step, user code): the next
   * question syncs, and moves are not tracked until then.
   */
  dirty = true;
  readonly #readBodies: () => Iterable<ArcadeBody>;
  readonly #bounds: OutwardBounds;

  // by slot (the index's own numbering; a slot's box in the World, if any, is #boxId)
  #bodyBy: (ArcadeBody | undefined)[] = [];
  #boxId = new Uint32Array(0); // 0: no box (a follower, a wild body, a slot not in use)
  #state = new Uint8Array(0);
  #fat = new Float32Array(0); // 4 per slot: the fat box, as stored in the World (a follower: its leader's)
  // 4 per slot: the body's own box as the sync read it (exact until the body is MOVED or LOOSE): most answers are
  // found here, without reading the bodies, which lie all over memory
  #box = new Float64Array(0);
  #stamp = new Uint32Array(0);
  #stampValue = 0;
  #leader = new Int32Array(0); // a follower's leader, else -1
  #followHead = new Int32Array(0); // a leader's first follower, else -1
  #followNext = new Int32Array(0); // a follower's next one, else -1
  #freeSlots: number[] = [];
  #slotCount = 0;
  #slotOfBox = new Int32Array(0); // by World slot: the index slot whose box it is
  // the partners of each slot at the last sync: #adj[#adjStart[s] .. #adjStart[s + 1])
  #adjStart = new Int32Array(1);
  #adj = new Int32Array(0);
  #adjSlots = 0; // slots #adjStart covers
  #loose: number[] = [];
  #wild: number[] = [];
  // loose bodies added to the partners of the boxes they meet, until the next sync: a list per slot in three typed
  // arrays (its first entry, each entry's next one, each entry's slot), and the box each loose body was added with
  #extraHead = new Int32Array(0);
  #extraNext = new Int32Array(64);
  #extraSlot = new Int32Array(64);
  #extraCount = 0;
  #extraHeads: number[] = []; // slots whose list is not empty
  #added = new Float64Array(0);
  #updated = false; // the World has been updated once: its index can be queried
  #coincident = true; // look for coincident bodies at the next sync
  #table = new Int32Array(0); // the sync's hash table of boxes (slot + 1)

  #dynamicSlots: number[] = []; // in the order of #items
  #items: ArcadeBody[] = []; // world.bodies at the last sync
  // answers, as slots, on a stack: a callback may ask again while an answer is being walked
  #stack = new Int32Array(256);
  #top = 0;

  /** `readBodies`: the world's dynamic bodies now (`world.bodies`), read at each sync. */
  constructor(readBodies: () => Iterable<ArcadeBody>) {
    this.world = new World({ dimensions: 2, events: false });
    this.#bounds = new OutwardBounds(this.world);
    this.#readBodies = readBodies;
  }

  /** Dynamic bodies at the last sync. */
  get bodyCount(): number {
    return this.#items.length;
  }

  // the body's slot in this index, or -1
  #slotOf(body: ArcadeBody): number {
    const slot = (body as Slotted)[SLOT];
    return slot !== undefined && this.#bodyBy[slot] === body ? slot : -1;
  }

  /** The slot of a dynamic body (after a sync), or -1. */
  dynamicSlot(body: ArcadeBody): number {
    const slot = this.#slotOf(body);
    return slot;
  }

  /** The body of a slot an answer gave. */
  bodyAt(slot: number): ArcadeBody {
    return this.#bodyBy[slot]!;
  }

  /** Slots the per-slot arrays cover. */
  get slotCount(): number {
    return this.#state.length;
  }

  /**
   * True if the slot's box in the World holds its body (a partner list for it can be trusted): every move since
   * the last sync was seen (a collider's, followed by `track`) or the index is `dirty`.
   */
  isTrusted(slot: number): boolean {
    return slot < this.#adjSlots && (this.#state[slot]! & (LOOSE | WILD)) === 0;
  }

  /**
   * False when nothing can meet a trusted slot's body until the next sync: it has no partner, no fellow in a pile,
   * no loose body met its fat box, and no body is wild.
   */
  mayMeet(slot: number): boolean {
    return (
      this.#leader[slot]! >= 0 ||
      this.#followHead[slot]! >= 0 ||
      this.#extraHead[slot]! >= 0 ||
      this.#adjStart[slot + 1]! > this.#adjStart[slot]! ||
      this.#wild.length > 0
    );
  }

  // ---- sync

  /** Sync when bodies may have moved unseen, or when too many are loose. */
  prepare(): void {
    if (this.dirty || this.#loose.length > LOOSE_MAX + (this.#dynamicSlots.length >> 9)) {
      this.sync();
    }
  }

  /** Write every box, update the World and list each box's partners. */
  sync(): void {
    this.#readItems();
    const slots = this.#dynamicSlots;
    this.#cluster(slots);
    const view = this.#bounds.take();
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      if (this.#boxId[slot] !== 0) this.#writeFat(slot, view);
    }
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      const leader = this.#leader[slot]!;
      if (leader >= 0) this.#fat.copyWithin(slot << 2, leader << 2, (leader << 2) + 4);
    }
    this.world.update();
    this.#partners();
    this.#coincident = this.#coincident || this.world.pairs.length > PAIRS_PER_BOX * 2 * slots.length + 128;
    for (const slot of this.#loose) this.#state[slot]! &= ~LOOSE;
    this.#loose.length = 0;
    for (const slot of this.#extraHeads) this.#extraHead[slot] = -1;
    this.#extraHeads.length = 0;
    this.#extraCount = 0;
    this.#updated = true;
    this.dirty = false;
    this.syncs++;
  }

  // world.bodies into slots when it changed since the last sync: new bodies get one, bodies no longer there lose
  // theirs (a body listed twice gets one)
  #readItems(): void {
    const items = this.#items;
    let i = 0;
    let same = true;
    const now = this.#readBodies();
    for (const body of now) {
      if (items[i++] !== body) {
        same = false;
        break;
      }
    }
    if (same && i === items.length) return;
    const fresh = Array.from(now);
    const stampValue = ++this.#stampValue;
    const slots: number[] = [];
    for (const body of fresh) {
      let slot = this.#slotOf(body);
      if (slot < 0) {
        slot = this.#newSlot();
        (body as Slotted)[SLOT] = slot;
        this.#bodyBy[slot] = body;
        this.#state[slot] = 0;
      } else if (this.#stamp[slot] === stampValue) {
        continue; // listed twice: one slot
      }
      this.#stamp[slot] = stampValue;
      slots.push(slot);
    }
    for (const slot of this.#dynamicSlots) {
      if (this.#stamp[slot] !== stampValue) this.#free(slot);
    }
    this.#dynamicSlots = slots;
    this.#items = fresh;
  }

  #newSlot(): number {
    const slot = this.#freeSlots.length > 0 ? this.#freeSlots.pop()! : this.#slotCount++;
    this.#reserve(slot + 1);
    this.#boxId[slot] = 0;
    this.#leader[slot] = -1;
    this.#followHead[slot] = -1;
    return slot;
  }

  #free(slot: number): void {
    const body = this.#bodyBy[slot] as Slotted | undefined;
    if (body !== undefined && body[SLOT] === slot) body[SLOT] = undefined;
    if (this.#boxId[slot] !== 0) this.world.removeBox(this.#boxId[slot]!);
    this.#boxId[slot] = 0;
    this.#bodyBy[slot] = undefined;
    this.#state[slot] = 0;
    this.#freeSlots.push(slot);
  }

  /**
   * Read every body's box; mark wild bodies; while coincident bodies are looked for, make each body whose box is
   * exactly an earlier body's its follower. Then every other body has a box in the World and followers have none.
   */
  #cluster(slots: readonly number[]): void {
    const n = slots.length;
    const look = this.#coincident;
    this.#coincident = false;
    let table = this.#table;
    let mask = 0;
    if (look) {
      let size = 16;
      while (size < 2 * n) size <<= 1;
      if (table.length !== size) this.#table = table = new Int32Array(size);
      else table.fill(0);
      mask = size - 1;
    }
    const bodyBy = this.#bodyBy;
    const box = this.#box;
    const state = this.#state;
    const leaderOf = this.#leader;
    const followHead = this.#followHead;
    const followNext = this.#followNext;
    const wild = this.#wild;
    wild.length = 0;
    const fresh: number[] = [];
    for (let i = 0; i < n; i++) {
      const slot = slots[i]!;
      const body = bodyBy[slot]!;
      const left = body.left;
      const top = body.top;
      const right = body.right;
      const bottom = body.bottom;
      const o = slot << 2;
      box[o] = left;
      box[o + 1] = top;
      box[o + 2] = right;
      box[o + 3] = bottom;
      followHead[slot] = -1;
      let leader = -1;
      // finite and not inverted (NaN fails too)
      if (!(right - left >= 0 && bottom - top >= 0 && right - left < Infinity && bottom - top < Infinity)) {
        state[slot] = (state[slot]! & ~MOVED) | WILD;
        wild.push(slot);
      } else {
        state[slot]! &= ~(MOVED | WILD);
        if (look) {
          hashScratch[0] = left;
          hashScratch[1] = top;
          hashScratch[2] = right;
          hashScratch[3] = bottom;
          let h = 0;
          for (let k = 0; k < 8; k++) h = Math.imul(h ^ hashWords[k]!, 0x9e3779b1);
          let at = (h ^ (h >>> 15)) & mask;
          for (;;) {
            const other = table[at]! - 1;
            if (other < 0) {
              table[at] = slot + 1;
              break;
            }
            const p = other << 2;
            if (box[p] === left && box[p + 1] === top && box[p + 2] === right && box[p + 3] === bottom) {
              leader = other;
              break;
            }
            at = (at + 1) & mask;
          }
        }
      }
      leaderOf[slot] = leader;
      if (leader >= 0) {
        this.#coincident = true;
        followNext[slot] = followHead[leader]!;
        followHead[leader] = slot;
        if (this.#boxId[slot] !== 0) {
          this.world.removeBox(this.#boxId[slot]!);
          this.#boxId[slot] = 0;
        }
      } else if ((state[slot]! & WILD) !== 0) {
        if (this.#boxId[slot] !== 0) {
          this.world.removeBox(this.#boxId[slot]!);
          this.#boxId[slot] = 0;
        }
      } else if (this.#boxId[slot] === 0) {
        fresh.push(slot);
      }
    }
    if (fresh.length > 0) {
      const ids = this.world.addBoxes(new Float32Array(4 * fresh.length));
      let top = 0;
      for (let k = 0; k < ids.length; k++) top = Math.max(top, slotOf(ids[k]!));
      if (this.#slotOfBox.length <= top) {
        this.#slotOfBox = grown(this.#slotOfBox, Math.max(top + 1, 2 * this.#slotOfBox.length, 64));
      }
      for (let k = 0; k < fresh.length; k++) {
        this.#boxId[fresh[k]!] = ids[k]!;
        this.#slotOfBox[slotOf(ids[k]!)] = fresh[k]!;
      }
    }
  }

  #reserve(count: number): void {
    const length = this.#state.length;
    if (count <= length) return;
    const capacity = Math.max(count, length + (length >> 1), 64);
    this.#boxId = grown(this.#boxId, capacity);
    this.#state = grown(this.#state, capacity);
    this.#fat = grown(this.#fat, 4 * capacity);
    this.#box = grown(this.#box, 4 * capacity);
    this.#added = grown(this.#added, 4 * capacity);
    this.#leader = grown(this.#leader, capacity);
    this.#followHead = grown(this.#followHead, capacity);
    this.#followNext = grown(this.#followNext, capacity);
    this.#extraHead = grown(this.#extraHead, capacity, -1);
    this.#stamp = grown(this.#stamp, capacity);
  }

  // a body's fat box into the World (its box as read by #cluster: finite, not inverted)
  #writeFat(slot: number, view: Float32Array): void {
    const o = slot << 2;
    const box = this.#box;
    const left = box[o]!;
    const top = box[o + 1]!;
    const right = box[o + 2]!;
    const bottom = box[o + 3]!;
    const w = right - left;
    const h = bottom - top;
    const m = MARGIN_SHARE * (w < h ? w : h) + MARGIN_MIN;
    const minX = left - m;
    const minY = top - m;
    const maxX = right + m;
    const maxY = bottom + m;
    const b = slotOf(this.#boxId[slot]!) << 2;
    const fat = this.#fat;
    if (minX > -NEAR && minY > -NEAR && maxX < NEAR && maxY < NEAR) {
      view[b] = fat[o] = minX;
      view[b + 1] = fat[o + 1] = minY;
      view[b + 2] = fat[o + 2] = maxX;
      view[b + 3] = fat[o + 3] = maxY;
    } else {
      this.#bounds.box2(b, minX, minY, maxX, maxY);
      fat.set(view.subarray(b, b + 4), o);
    }
  }

  // each slot's partners (leaders and single bodies), from the World's pairs
  #partners(): void {
    const ids = this.world.pairs;
    const slots = this.#state.length;
    const slotOfBox = this.#slotOfBox;
    if (this.#adjStart.length < slots + 1) this.#adjStart = new Int32Array(slots + 1);
    const start = this.#adjStart;
    start.fill(0, 0, slots + 1);
    const pairs = ids.length;
    for (let i = 0; i < pairs; i++) start[slotOfBox[ids[i]! >>> 10]! + 1]!++;
    for (let s = 0; s < slots; s++) start[s + 1]! += start[s]!;
    if (this.#adj.length < pairs) this.#adj = new Int32Array(Math.max(pairs, this.#adj.length * 2));
    const adj = this.#adj;
    // filled from the back of each list: start[s] ends where it began
    for (let s = 0; s < slots; s++) start[s] = start[s + 1]!;
    for (let i = pairs - 2; i >= 0; i -= 2) {
      const a = slotOfBox[ids[i]! >>> 10]!;
      const b = slotOfBox[ids[i + 1]! >>> 10]!;
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
    if (this.dirty || slot >= this.#adjSlots) return false; // the next question syncs anyway
    if ((state & WILD) !== 0) return true;
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
    this.#state[slot]! |= LOOSE;
    this.#loose.push(slot);
    this.#addToPartners(slot, left, top, right, bottom);
    return true;
  }

  // a loose body joins the partner lists of the boxes in the World that meet its box (a NaN box meets none)
  #addToPartners(slot: number, left: number, top: number, right: number, bottom: number): void {
    put4(this.#added, slot << 2, left, top, right, bottom);
    if (!this.#updated || !(left === left && top === top && right === right && bottom === bottom)) return;
    const ids = this.#query(left, top, right, bottom);
    const slotOfBox = this.#slotOfBox;
    for (let k = 0; k < ids.length; k++) {
      const s = slotOfBox[slotOf(ids[k]!)]!;
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
   * Every body that may meet a trusted slot's body (its fellows in a pile, its partners and theirs, loose bodies
   * that met its fat box where they went, wild bodies), pushed on the stack unsorted and unfiltered. For a loose or
   * untracked body, use `nearBox`.
   */
  candidates(slot: number): number {
    const stampValue = ++this.#stampValue;
    this.#stamp[slot] = stampValue; // not its own candidate
    const own = this.#leader[slot]! >= 0 ? this.#leader[slot]! : slot;
    this.#withFollowers(own, stampValue);
    const adj = this.#adj;
    const end = this.#adjStart[own + 1]!;
    for (let k = this.#adjStart[own]!; k < end; k++) this.#withFollowers(adj[k]!, stampValue);
    const next = this.#extraNext;
    const slots = this.#extraSlot;
    for (let e = this.#extraHead[own]!; e >= 0; e = next[e]!) this.#candidate(slots[e]!, stampValue);
    this.#wildOnes(stampValue);
    return this.#top;
  }

  /** Slots whose box in the World meets the box, their followers, and every loose and wild slot, unsorted. */
  nearBox(left: number, top: number, right: number, bottom: number): number {
    const stampValue = ++this.#stampValue;
    if (this.#updated && left === left && top === top && right === right && bottom === bottom) {
      const ids = this.#query(left, top, right, bottom);
      const slotOfBox = this.#slotOfBox;
      for (let k = 0; k < ids.length; k++) this.#withFollowers(slotOfBox[slotOf(ids[k]!)]!, stampValue);
    }
    const loose = this.#loose;
    for (let k = 0; k < loose.length; k++) this.#candidate(loose[k]!, stampValue);
    this.#wildOnes(stampValue);
    return this.#top;
  }

  #wildOnes(stampValue: number): void {
    const wild = this.#wild;
    for (let k = 0; k < wild.length; k++) this.#candidate(wild[k]!, stampValue);
  }

  #withFollowers(leader: number, stampValue: number): void {
    this.#candidate(leader, stampValue);
    const next = this.#followNext;
    for (let f = this.#followHead[leader]!; f >= 0; f = next[f]!) this.#candidate(f, stampValue);
  }

  // the ids of the boxes in the World that meet the box (rounded outward; an inverted box as its min and max)
  #query(left: number, top: number, right: number, bottom: number): Uint32Array {
    return this.world.queryBox(
      [roundDown(Math.min(left, right)), roundDown(Math.min(top, bottom))],
      [roundUp(Math.max(left, right)), roundUp(Math.max(top, bottom))],
    );
  }

  #candidate(s: number, stampValue: number): void {
    if (this.#stamp[s] === stampValue) return;
    this.#stamp[s] = stampValue;
    this.#push(s);
  }

  /** Free the World's wasm memory. */
  dispose(): void {
    this.world.dispose();
    for (const slot of this.#dynamicSlots) (this.#bodyBy[slot] as Slotted)[SLOT] = undefined;
    this.#bodyBy = [];
    this.#items = [];
    this.#dynamicSlots = [];
    this.#loose = [];
    this.#wild = [];
  }
}

function put4(array: Float64Array, o: number, a: number, b: number, c: number, d: number): void {
  array[o] = a;
  array[o + 1] = b;
  array[o + 2] = c;
  array[o + 3] = d;
}
