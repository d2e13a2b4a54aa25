// The benchmark's measuring, with no DOM: N moving boxes per size, each broadphase timed per frame (the naive JS
// double loop, sorted JS, chapter 11's swap events in JS, the engine), run in slices of about SLICE_MS so the
// caller can report between them. It runs in a worker (workers/benchmark.ts): a single frame of swap events at
// 100 000 boxes takes over a second, which on the page's own thread would stall every other figure.
import { World, type Counters } from 'sweep-prune';
import { Boxes, Engine, SortedJs, SwapJs, naivePairs } from './boxes.js';

export const METHOD_KEYS = ['naive', 'sorted', 'swaps', 'wasm'] as const;
export type MethodKey = (typeof METHOD_KEYS)[number];

const WARMUP = 3;
const MAX_FRAMES = 200;
const MIN_FRAMES = 5;
const MEASURE_MS = 250; // stop measuring a method at one N after this much timed work
const NAIVE_LIMIT_MS = 400; // skip naive when the n^2 extrapolation predicts a slower frame than this
const SLICE_MS = 30; // frames run per request, then the state goes back to the page

export interface Result {
  n: number;
  /** Median ms per frame, or undefined when skipped. */
  ms: number | undefined;
  pairs: number;
}

/** Where the run is, as the page draws it. */
export interface BenchState {
  results: Record<MethodKey, Result[]>;
  /** Index into the sizes and METHOD_KEYS of the cell being measured. */
  size: number;
  method: number;
  /** The typical ms per frame of the cell so far (undefined before its first timed frame). */
  live: number | undefined;
  frames: number;
  pairs: number;
  /** The engine's counters for its last update, while the engine is the method measured. */
  counters: Counters | undefined;
  done: boolean;
}

/**
 * The median, robust to a stray garbage collection; but browsers round performance.now() to 0.1 ms (with jitter),
 * so below half a millisecond the mean of many frames is the better estimate.
 */
export function typical(xs: number[]): number {
  const s = [...xs].sort((p, q) => p - q);
  const median = s[s.length >> 1]!;
  return median >= 0.5 ? median : s.reduce((sum, x) => sum + x, 0) / s.length;
}

export class BenchmarkRun {
  readonly results = Object.fromEntries(METHOD_KEYS.map((k) => [k, [] as Result[]])) as Record<MethodKey, Result[]>;
  #size = 0;
  #method = 0;
  #warmed = false;
  #frames = 0;
  #samples: number[] = [];
  #pairs = 0;
  #boxes: Boxes | undefined;
  #runner: ((b: Float32Array) => number) | undefined;
  #engine: Engine | undefined;
  /** A world that holds the threads' pool from one N to the next, so that its workers stay started. */
  readonly #keeper: World | undefined;

  constructor(
    readonly sizes: readonly number[],
    readonly threads = 1,
  ) {
    if (threads > 1) this.#keeper = new World({ threads });
  }

  get done(): boolean {
    return this.#size >= this.sizes.length;
  }

  /** Threads the engine's worlds run on (1 where threads are not available). */
  get engineThreads(): number {
    return this.#keeper?.threads ?? 1;
  }

  #start(): void {
    const n = this.sizes[this.#size]!;
    const key = METHOD_KEYS[this.#method]!;
    this.#frames = 0;
    this.#samples = [];
    this.#dropEngine();
    const boxes = (this.#boxes = new Boxes(n));
    if (key === 'naive') this.#runner = (b) => naivePairs(b, n);
    else if (key === 'sorted') {
      const s = new SortedJs(n);
      this.#runner = (b) => s.pairs(b);
    } else if (key === 'swaps') {
      const s = new SwapJs(n);
      this.#runner = (b) => s.pairs(b);
    } else {
      const e = (this.#engine = new Engine(boxes, this.threads));
      this.#runner = (b) => e.pairs(b);
    }
  }

  #dropEngine(): void {
    this.#engine?.world.dispose();
    this.#engine = undefined;
  }

  /** Finish the current (N, method) cell and move to the next. */
  #finish(ms: number | undefined): void {
    this.results[METHOD_KEYS[this.#method]!].push({ n: this.sizes[this.#size]!, ms, pairs: this.#pairs });
    this.#runner = undefined;
    this.#method++;
    if (this.#method === METHOD_KEYS.length) {
      this.#method = 0;
      this.#size++;
    }
    this.#dropEngine();
  }

  /** Predicted naive ms at the current N from the last measured size (n^2). */
  #naiveForecast(): number {
    const last = this.results.naive.at(-1);
    if (!last || last.ms === undefined) return last ? Infinity : 0;
    return last.ms * (this.sizes[this.#size]! / last.n) ** 2;
  }

  /** Run every method for a while first, so the JS JIT and the wasm tier-up are done before the first N. */
  #warm(): void {
    const boxes = new Boxes(1000);
    const sorted = new SortedJs(1000);
    const swaps = new SwapJs(1000);
    const engine = new Engine(boxes);
    const until = performance.now() + 150;
    while (performance.now() < until) {
      boxes.move();
      naivePairs(boxes.b, 200);
      sorted.pairs(boxes.b);
      swaps.pairs(boxes.b);
      engine.pairs(boxes.b);
    }
    engine.world.dispose();
    this.#warmed = true;
  }

  /** Measure frames for about SLICE_MS (at least one frame), then return where the run is. */
  slice(): BenchState {
    if (!this.#warmed) this.#warm();
    const tick = performance.now();
    while (!this.done && performance.now() - tick < SLICE_MS) {
      if (!this.#runner) {
        if (METHOD_KEYS[this.#method] === 'naive' && this.#naiveForecast() > NAIVE_LIMIT_MS) {
          this.#finish(undefined);
          continue;
        }
        this.#start();
      }
      const boxes = this.#boxes!;
      boxes.move();
      const t0 = performance.now();
      const pairs = this.#runner!(boxes.b);
      const ms = performance.now() - t0;
      this.#frames++;
      if (this.#frames === 1) this.#pairs = pairs; // every method sees the same first frame: compare its count
      if (this.#frames > WARMUP) this.#samples.push(ms);
      const spent = this.#samples.reduce((s, x) => s + x, 0);
      if (this.#samples.length >= MAX_FRAMES || (this.#samples.length >= MIN_FRAMES && spent > MEASURE_MS)) {
        this.#finish(typical(this.#samples));
      }
    }
    return this.state();
  }

  state(): BenchState {
    return {
      results: this.results,
      size: this.#size,
      method: this.#method,
      live: this.#samples.length ? typical(this.#samples) : undefined,
      frames: this.#frames,
      pairs: this.#pairs,
      counters: this.#engine?.world.counters,
      done: this.done,
    };
  }

  dispose(): void {
    this.#dropEngine();
    this.#keeper?.dispose();
  }
}
