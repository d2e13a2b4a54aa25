// The benchmark's measuring, with no DOM: N moving boxes per size, each broadphase timed per frame (the naive JS
// double loop, sorted JS, chapter 11's swap events in JS, the engine), in ROUNDS rounds that take the methods in
// turn, so that each one's figure is the median of rounds run at different moments and comes with their spread; run
// in slices of about SLICE_MS so the caller can report between them. It runs in a worker (workers/benchmark.ts): a single frame of swap events at
// 100 000 boxes takes over a second, which on the page's own thread would stall every other figure.
import { World, type Counters } from 'sweep-prune';
import { Boxes, Engine, SortedJs, SwapJs, naivePairs } from './boxes.js';
import { spreadOf, typical } from './times.js';

export const METHOD_KEYS = ['naive', 'sorted', 'swaps', 'wasm'] as const;
export type MethodKey = (typeof METHOD_KEYS)[number];

const WARMUP = 3;
/** Each (N, method) cell is measured in this many rounds, with the other methods' rounds in between. */
export const ROUNDS = 3;
const MAX_FRAMES = 200; // per cell, over its rounds
const MIN_ROUND_FRAMES = 2;
const MEASURE_MS = 250; // stop measuring a method at one N after this much timed work, over its rounds
const NAIVE_LIMIT_MS = 400; // skip naive when the n^2 extrapolation predicts a slower frame than this
const SLICE_MS = 30; // frames run per request, then the state goes back to the page

export interface Result {
  n: number;
  /** The median of the rounds' typical ms per frame, or undefined when skipped. */
  ms: number | undefined;
  /** The fastest and the slowest round's typical ms per frame (the spread over the rounds). */
  lo: number | undefined;
  hi: number | undefined;
  pairs: number;
}

/** Where the run is, as the page draws it. */
export interface BenchState {
  results: Record<MethodKey, Result[]>;
  /** Index into the sizes and METHOD_KEYS of the cell being measured. */
  size: number;
  method: number;
  /** The round (0 to ROUNDS - 1) being measured. */
  round: number;
  /** The typical ms per frame of the cell's round so far (undefined before its first timed frame). */
  live: number | undefined;
  frames: number;
  pairs: number;
  /** The engine's counters for its last update, while the engine is the method measured. */
  counters: Counters | undefined;
  done: boolean;
}

export class BenchmarkRun {
  readonly results = Object.fromEntries(METHOD_KEYS.map((k) => [k, [] as Result[]])) as Record<MethodKey, Result[]>;
  #size = 0;
  #method = 0;
  #round = 0;
  #warmed = false;
  /** The methods measured at the current N: their boxes and broadphase, kept from one round to the next. */
  #cells: Array<Cell | 'skipped' | undefined> = [];
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

  #cell(): Cell | 'skipped' {
    const n = this.sizes[this.#size]!;
    const key = METHOD_KEYS[this.#method]!;
    const made = this.#cells[this.#method];
    if (made) return made;
    const boxes = new Boxes(n);
    const cell: Cell = { boxes, runner: () => 0, frames: 0, rounds: [], pairs: 0, engine: undefined };
    if (key === 'naive') cell.runner = (b) => naivePairs(b, n);
    else if (key === 'sorted') {
      const s = new SortedJs(n);
      cell.runner = (b) => s.pairs(b);
    } else if (key === 'swaps') {
      const s = new SwapJs(n);
      cell.runner = (b) => s.pairs(b);
    } else {
      const e = (cell.engine = new Engine(boxes, this.threads));
      cell.runner = (b) => e.pairs(b);
    }
    return (this.#cells[this.#method] = cell);
  }

  /** The current cell's round is measured: on to the next method, the next round, or the next N. */
  #next(): void {
    this.#method++;
    if (this.#method < METHOD_KEYS.length) return;
    this.#method = 0;
    this.#round++;
    if (this.#round < ROUNDS) return;
    METHOD_KEYS.forEach((key, m) => this.results[key].push(resultOf(this.sizes[this.#size]!, this.#cells[m])));
    this.#dropCells();
    this.#round = 0;
    this.#size++;
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
      if (METHOD_KEYS[this.#method] === 'naive' && this.#round === 0 && !this.#cells[0]) {
        if (this.#naiveForecast() > NAIVE_LIMIT_MS) this.#cells[0] = 'skipped';
      }
      const cell = this.#cell();
      if (cell === 'skipped') {
        this.#next();
        continue;
      }
      if (!cell.rounds[this.#round]) cell.rounds[this.#round] = [];
      const samples = cell.rounds[this.#round]!;
      cell.boxes.move();
      const t0 = performance.now();
      const pairs = cell.runner(cell.boxes.b);
      const ms = performance.now() - t0;
      cell.frames++;
      if (cell.frames === 1) cell.pairs = pairs; // every method sees the same first frame: compare its count
      if (cell.frames > WARMUP) samples.push(ms);
      const spent = samples.reduce((sum, x) => sum + x, 0);
      if (samples.length >= MAX_FRAMES / ROUNDS || (samples.length >= MIN_ROUND_FRAMES && spent > MEASURE_MS / ROUNDS))
        this.#next();
    }
    return this.state();
  }

  state(): BenchState {
    const cell = this.done ? undefined : this.#cells[this.#method];
    const measured = cell === 'skipped' ? undefined : cell;
    const live = measured?.rounds[this.#round];
    return {
      results: this.results,
      size: this.#size,
      method: this.#method,
      round: this.#round,
      live: live?.length ? typical(live) : undefined,
      frames: measured?.frames ?? 0,
      pairs: measured?.pairs ?? 0,
      counters: measured?.engine?.world.counters,
      done: this.done,
    };
  }

  #dropCells(): void {
    for (const c of this.#cells) if (c && c !== 'skipped') c.engine?.world.dispose();
    this.#cells = [];
  }

  dispose(): void {
    this.#dropCells();
    this.#keeper?.dispose();
  }
}

/** One method at one N: its boxes and broadphase, and its timed frames, round by round. */
interface Cell {
  boxes: Boxes;
  runner: (b: Float32Array) => number;
  engine: Engine | undefined;
  frames: number;
  rounds: number[][];
  pairs: number;
}

/** A cell's result: the median of its rounds' typical ms, and their range. */
function resultOf(n: number, cell: Cell | 'skipped' | undefined): Result {
  const spread = cell && cell !== 'skipped' ? spreadOf(cell.rounds) : undefined;
  if (!cell || cell === 'skipped' || !spread) return { n, ms: undefined, lo: undefined, hi: undefined, pairs: 0 };
  return { n, ms: spread.ms, lo: spread.lo, hi: spread.hi, pairs: cell.pairs };
}
