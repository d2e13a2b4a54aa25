// Chapter 14's simulation, with no DOM: the benchmark's moving boxes, stored largest first (the order they are
// drawn in, so small boxes stay visible on top), moved and handed each step to the engine or to chapter 4's
// sorted-JS loop; each step's pairs (as box indices), every box's pair count, and for one chosen box the
// candidates the broadphase compared it with. It runs in a worker (workers/scale.ts).
import { slotOf, type Counters } from 'sweep-prune';
import { Boxes, Engine, SortedJs } from './boxes.js';
import { oneSlabPruningOf, pruningOf } from './prune.js';

export type ScaleMode = 'engine' | 'js';

/**
 * The buffers a step writes, passed back and forth between the page and the worker (never copied): the boxes and
 * their pairs as adjacency lists, so that the page finds a box's pairs (and its pair count) without a pass over all
 * of them.
 */
export interface StepBuffers {
  /** minx, miny, maxx, maxy per box, in box order. */
  b: Float32Array;
  /** Box i's partners are `adj[start[i]]` to `adj[start[i + 1] - 1]` (n + 1 entries). */
  start: Uint32Array;
  /** Every pair twice, once under each box (grown when they do not fit). */
  adj: Uint32Array;
}

export interface StepResult {
  step: number;
  mode: ScaleMode;
  /** The broadphase's time for this step, and the time to move the boxes. */
  ms: number;
  moveMs: number;
  pairCount: number;
  counters: Counters | undefined;
  /** The engine's index for the faint slab bands (engine mode). */
  slabs: { sweepAxis: number; slabAxis: number; floors: Float32Array } | undefined;
  /** The chosen box and the boxes the broadphase compared it with this step (box indices). */
  chosen: { index: number; candidates: Int32Array; slabs: number[] } | undefined;
}

/**
 * The sorted-JS loop's sweep runs in slices of about SLICE_MS, each followed by a rest as long: at 100 000 boxes one
 * update is hundreds of milliseconds of work, and run in one go it holds a whole core, which on a busy machine of
 * two cores leaves the page's own thread waiting for up to 300 ms a frame. The update's time is its slices' alone.
 */
const SLICE_MS = 8;
const rest = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Width over height of the area the boxes move in (the canvas's). */
export const ASPECT = 3 / 2;

export class ScaleSim {
  readonly boxes: Boxes;
  readonly engine: Engine;
  #sorted: SortedJs | undefined;
  /** Box index of each engine slot. */
  readonly #indexOfSlot: Int32Array;
  #step = 0;

  constructor(readonly n: number) {
    const boxes = (this.boxes = new Boxes(n, ASPECT));
    const b = boxes.b;
    const area = (i: number): number => (b[4 * i + 2]! - b[4 * i]!) * (b[4 * i + 3]! - b[4 * i + 1]!);
    boxes.reorder(Array.from({ length: n }, (_, i) => i).sort((p, q) => area(q) - area(p)));
    this.engine = new Engine(boxes);
    const slots = Array.from(this.engine.ids, slotOf);
    this.#indexOfSlot = new Int32Array(slots.reduce((m, x) => Math.max(m, x), 0) + 1).fill(-1);
    slots.forEach((slot, i) => (this.#indexOfSlot[slot] = i));
  }

  /** Pairs found this step as box indices, two per pair, before they are sorted into adjacency lists. */
  #found = new Uint32Array(0);
  /** Where the next partner of each box goes while the lists are filled. */
  #cursor = new Uint32Array(0);

  /** Move the boxes and find their pairs with `mode`; `chosen` (a box index or -1) gets its candidates listed. */
  async step(mode: ScaleMode, out: StepBuffers, chosen: number): Promise<{ result: StepResult; out: StepBuffers }> {
    const { boxes, n } = this;
    const t0 = performance.now();
    boxes.move();
    const t1 = performance.now();
    let pairCount: number;
    let ms: number;
    // room for 4 pairs per box, nearly twice the scene's density (2.2): grown if a step ever needs more
    if (this.#found.length < 8 * n) this.#found = new Uint32Array(8 * n);
    if (mode === 'js') {
      this.#sorted ??= new SortedJs(n); // starts from a comparison sort, then insertion sort
      ({ pairCount, ms } = await this.#sortedPairs(this.#sorted));
      if (2 * pairCount > this.#found.length) {
        this.#found = new Uint32Array(4 * pairCount);
        this.#sorted.pairs(boxes.b, this.#found); // the same frame again, into room enough (not timed)
      }
    } else {
      this.#sorted = undefined; // the next JS run starts from scratch, as a fresh toggle does
      this.engine.pairs(boxes.b);
      ms = performance.now() - t1;
      // the pairs the engine hands out are what is drawn and counted
      const p = this.engine.world.pairs;
      pairCount = p.length / 2;
      if (this.#found.length < p.length) this.#found = new Uint32Array(2 * p.length);
      const slots = this.#indexOfSlot;
      const found = this.#found;
      for (let k = 0; k < p.length; k++) found[k] = slots[slotOf(p[k]!)]!;
    }
    out = this.#adjacency(out, pairCount);
    out.b.set(boxes.b);
    const world = this.engine.world;
    const s = mode === 'engine' ? world.slabs() : undefined;
    const result: StepResult = {
      step: ++this.#step,
      mode,
      ms,
      moveMs: t1 - t0,
      pairCount,
      counters: mode === 'engine' ? world.counters : undefined,
      slabs: s && { sweepAxis: s.sweepAxis, slabAxis: s.slabAxis, floors: s.floors },
      chosen: undefined,
    };
    if (chosen >= 0 && chosen < n) {
      const b = boxes.b;
      const ids = this.engine.ids;
      // the engine's slabs hold ids; the sorted-JS loop compares every box overlapping on x (one slab along x)
      const boundsOfId = (id: number): Float32Array => {
        const i = this.#indexOfSlot[slotOf(id)]!;
        return b.subarray(4 * i, 4 * i + 4);
      };
      const p = s ? pruningOf(s, boundsOfId, ids[chosen]!) : oneSlabPruningOf(ids, 0, boundsOfId, ids[chosen]!);
      result.chosen = {
        index: chosen,
        candidates: Int32Array.from(p.candidates, (c) => this.#indexOfSlot[slotOf(c.id)]!),
        slabs: p.slabs,
      };
    }
    return { result, out };
  }

  /** The sorted-JS loop's pairs into #found, its sweep in slices with rests between them; `ms` is the work alone. */
  async #sortedPairs(sorted: SortedJs): Promise<{ pairCount: number; ms: number }> {
    const { b } = this.boxes;
    const { n } = this;
    let t0 = performance.now();
    sorted.sort(b);
    let ms = performance.now() - t0;
    let pairCount = 0;
    for (let from = 0; from < n;) {
      t0 = performance.now();
      let spent = 0;
      while (from < n && spent < SLICE_MS) {
        const to = Math.min(n, from + 256);
        pairCount = sorted.sweep(b, from, to, this.#found, pairCount);
        from = to;
        spent = performance.now() - t0;
      }
      ms += spent;
      if (from < n) await rest(spent);
    }
    return { pairCount, ms };
  }

  /** The found pairs as adjacency lists in `out` (a counting sort by box). */
  #adjacency(out: StepBuffers, pairCount: number): StepBuffers {
    const { n } = this;
    if (out.adj.length < 2 * pairCount) out = { ...out, adj: new Uint32Array(4 * pairCount) };
    if (this.#cursor.length !== n) this.#cursor = new Uint32Array(n);
    const { start, adj } = out;
    const found = this.#found;
    const cursor = this.#cursor;
    start.fill(0);
    for (let k = 0; k < 2 * pairCount; k++) start[found[k]! + 1]!++;
    for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
    cursor.set(start.subarray(0, n));
    for (let k = 0; k < 2 * pairCount; k += 2) {
      const p = found[k]!;
      const q = found[k + 1]!;
      adj[cursor[p]!++] = q;
      adj[cursor[q]!++] = p;
    }
    return out;
  }

  dispose(): void {
    this.engine.world.dispose();
  }
}
