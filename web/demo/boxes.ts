// The benchmark's moving boxes (the repository's motion benchmark) and the broadphases timed on them: the naive
// double loop, sorted pairwise with insertion sort, chapter 11's swap events, all in plain JS, and the engine.
import { World } from 'sweep-prune';
import { rng } from './sim.js';

/**
 * N boxes in a square whose side grows with sqrt(N), so the density stays the same (2.2 overlapping pairs per
 * box, measured: about 4.4 neighbours each): spacing K per box per axis, sides from 0.1K to 2K, speed up to 2% of the largest side per
 * frame. These are the parameters of the repository's motion benchmark (tests/bench).
 */
const K = 100;
export class Boxes {
  readonly vel: Float32Array;
  /** minx, miny, maxx, maxy per box: the layout of a 2D World's bounds. */
  readonly b: Float32Array;
  /** The extent on x and on y (equal unless an aspect ratio was given). */
  readonly side: number;
  readonly sideY: number;

  /** `aspect`: width over height of the area the boxes move in; its area, and so the density, stays the same. */
  constructor(
    readonly n: number,
    aspect = 1,
  ) {
    const random = rng(n * 7919);
    const side = (this.side = K * Math.sqrt(n * aspect));
    const sideY = (this.sideY = (K * K * n) / side);
    this.vel = new Float32Array(2 * n);
    this.b = new Float32Array(4 * n);
    for (let i = 0; i < n; i++) {
      for (let a = 0; a < 2; a++) {
        const size = 2 * K * (0.05 + 0.95 * random());
        const lo = random() * ((a ? sideY : side) - size);
        this.b[4 * i + a] = lo;
        this.b[4 * i + 2 + a] = lo + size;
        this.vel[2 * i + a] = (2 * random() - 1) * 0.02 * 2 * K;
      }
    }
  }

  /** Put box `order[k]` in place k (its bounds and its velocity), e.g. to store the boxes in drawing order. */
  reorder(order: ArrayLike<number>): void {
    const b = this.b.slice();
    const vel = this.vel.slice();
    for (let k = 0; k < this.n; k++) {
      const i = order[k]!;
      this.b.set(b.subarray(4 * i, 4 * i + 4), 4 * k);
      this.vel.set(vel.subarray(2 * i, 2 * i + 2), 2 * k);
    }
  }

  move(): void {
    const { vel, b, side, sideY, n } = this;
    for (let i = 0; i < n; i++) {
      for (let a = 0; a < 2; a++) {
        const o = 4 * i + a;
        const v = vel[2 * i + a]!;
        let lo = b[o]! + v;
        const size = b[o + 2]! - b[o]!;
        const extent = a ? sideY : side;
        if (lo < 0 || lo + size > extent) {
          vel[2 * i + a] = -v;
          lo = Math.min(extent - size, Math.max(0, lo));
        }
        b[o] = lo;
        b[o + 2] = lo + size;
      }
    }
  }
}

export function naivePairs(b: Float32Array, n: number): number {
  let count = 0;
  for (let i = 0; i < n; i++) {
    const x0 = b[4 * i]!,
      y0 = b[4 * i + 1]!,
      x1 = b[4 * i + 2]!,
      y1 = b[4 * i + 3]!;
    for (let j = i + 1; j < n; j++) {
      const o = 4 * j;
      if (b[o]! <= x1 && x0 <= b[o + 2]! && b[o + 1]! <= y1 && y0 <= b[o + 3]!) count++;
    }
  }
  return count;
}

/** Sorted pairwise in JS: an order kept between frames, repaired by insertion sort, then a sweep along x. */
export class SortedJs {
  readonly order: Int32Array;
  #first = true;

  constructor(readonly n: number) {
    this.order = Int32Array.from({ length: n }, (_, i) => i);
  }

  /** The overlapping pairs of this frame's bounds; with `out`, written there as box indices (two per pair) while they fit. */
  pairs(b: Float32Array, out?: Uint32Array): number {
    this.sort(b);
    return this.sweep(b, 0, this.n, out, 0);
  }

  /** Put `order` in order of the boxes' min x: a comparison sort the first time, then insertion sort. */
  sort(b: Float32Array): void {
    const { order, n } = this;
    if (this.#first) {
      this.#first = false; // the first frame is incoherent: a comparison sort, not insertion sort
      const sorted = Array.from(order).sort((p, q) => b[4 * p]! - b[4 * q]!);
      order.set(sorted);
      return;
    }
    for (let i = 1; i < n; i++) {
      const k = order[i]!;
      const key = b[4 * k]!;
      let j = i - 1;
      while (j >= 0 && b[4 * order[j]!]! > key) {
        order[j + 1] = order[j]!;
        j--;
      }
      order[j + 1] = k;
    }
  }

  /**
   * The sweep from sorted positions `from` to `to` (each against the boxes after it), after `sort`: `count` pairs
   * were found before, and the new total is returned. A frame's sweep can so be run in slices.
   */
  sweep(b: Float32Array, from: number, to: number, out: Uint32Array | undefined, count: number): number {
    const { order, n } = this;
    for (let i = from; i < to; i++) {
      const p = 4 * order[i]!;
      const x1 = b[p + 2]!,
        y0 = b[p + 1]!,
        y1 = b[p + 3]!;
      for (let j = i + 1; j < n; j++) {
        const q = 4 * order[j]!;
        if (b[q]! > x1) break;
        if (b[q + 1]! <= y1 && y0 <= b[q + 3]!) {
          if (out && 2 * count + 1 < out.length) {
            out[2 * count] = p >> 2;
            out[2 * count + 1] = q >> 2;
          }
          count++;
        }
      }
    }
    return count;
  }
}

/**
 * Chapter 11's algorithm in JS: each axis's endpoint list is kept between frames and repaired by insertion sort,
 * and every swap of a min with a max is an event: a min passing a max west starts an overlap on that axis (the
 * pair is added if the boxes now overlap on both axes), a max passing a min ends one (the pair is removed). The
 * pairs live in a Set between frames; nothing is swept.
 */
export class SwapJs {
  /** Per axis: endpoint refs (box << 1 | 1 for a max) in sorted order, and their values. */
  readonly refs: Int32Array[] = [];
  readonly values: Float32Array[] = [];
  readonly pairSet = new Set<number>();
  #first = true;

  constructor(readonly n: number) {
    for (let a = 0; a < 2; a++) {
      this.refs.push(Int32Array.from({ length: 2 * n }, (_, k) => k));
      this.values.push(new Float32Array(2 * n));
    }
  }

  pairs(b: Float32Array): number {
    const { n } = this;
    for (let a = 0; a < 2; a++) {
      const refs = this.refs[a]!;
      const v = this.values[a]!;
      for (let k = 0; k < 2 * n; k++) {
        const r = refs[k]!;
        v[k] = b[4 * (r >> 1) + a + 2 * (r & 1)]!;
      }
      if (this.#first) {
        // the first frame is incoherent: a comparison sort (mins before maxes at equal values), then one sweep
        const order = Array.from(refs).sort(
          (p, q) => b[4 * (p >> 1) + a + 2 * (p & 1)]! - b[4 * (q >> 1) + a + 2 * (q & 1)]! || (p & 1) - (q & 1),
        );
        refs.set(order);
        for (let k = 0; k < 2 * n; k++) v[k] = b[4 * (refs[k]! >> 1) + a + 2 * (refs[k]! & 1)]!;
      } else this.#repair(b, a, refs, v);
    }
    if (this.#first) {
      this.#first = false;
      const sorted = new SortedJs(n);
      const order = Array.from(sorted.order).sort((p, q) => b[4 * p]! - b[4 * q]!);
      for (let i = 0; i < n; i++) {
        const p = order[i]!;
        for (let j = i + 1; j < n; j++) {
          const q = order[j]!;
          if (b[4 * q]! > b[4 * p + 2]!) break;
          if (b[4 * q + 1]! <= b[4 * p + 3]! && b[4 * p + 1]! <= b[4 * q + 3]!) this.pairSet.add(this.#key(p, q));
        }
      }
    }
    return this.pairSet.size;
  }

  #key(p: number, q: number): number {
    return p < q ? p * this.n + q : q * this.n + p;
  }

  /** Insertion sort of one axis; each min/max swap adds or removes a pair. */
  #repair(b: Float32Array, axis: number, refs: Int32Array, v: Float32Array): void {
    const other = 1 - axis;
    for (let i = 1; i < refs.length; i++) {
      const e = refs[i]!;
      const x = v[i]!;
      let j = i - 1;
      while (j >= 0 && v[j]! > x) {
        const w = refs[j]!;
        const p = e >> 1,
          q = w >> 1;
        if (p !== q && (e & 1) !== (w & 1)) {
          if ((e & 1) === 0) {
            // a min passed a max: the boxes may overlap now; test them fully
            if (
              b[4 * p + other]! <= b[4 * q + other + 2]! &&
              b[4 * q + other]! <= b[4 * p + other + 2]! &&
              b[4 * p + axis]! <= b[4 * q + axis + 2]! &&
              b[4 * q + axis]! <= b[4 * p + axis + 2]!
            ) {
              this.pairSet.add(this.#key(p, q));
            }
          } else this.pairSet.delete(this.#key(p, q)); // a max passed a min: they are apart on this axis
        }
        refs[j + 1] = w;
        v[j + 1] = v[j]!;
        j--;
      }
      refs[j + 1] = e;
      v[j + 1] = x;
    }
  }
}

/** The engine over the same boxes: the bounds copied into its view (one call), then `update()`. */
export class Engine {
  readonly world: World;
  /** Box i's id and the offset of its bounds in the engine's view. */
  readonly ids: Uint32Array;
  readonly offsets: Int32Array;
  readonly contiguous: boolean;

  constructor(boxes: Boxes, threads = 1) {
    const world = (this.world = new World({ dimensions: 2, capacity: boxes.n, threads }));
    this.ids = world.addBoxes(boxes.b);
    this.offsets = Int32Array.from(this.ids, (id) => world.offsetOf(id));
    this.contiguous = this.offsets.every((o, i) => o === this.offsets[0]! + 4 * i);
  }

  pairs(b: Float32Array): number {
    const bounds = this.world.bounds;
    if (this.contiguous) bounds.set(b, this.offsets[0]);
    else for (let i = 0; i < this.offsets.length; i++) bounds.set(b.subarray(4 * i, 4 * i + 4), this.offsets[i]);
    this.world.update();
    return this.world.counters.pairs;
  }
}
