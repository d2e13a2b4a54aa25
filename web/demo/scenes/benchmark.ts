// The live benchmark. N moving boxes (2.2 overlapping pairs per box); per frame, the time the broadphase takes
// with a naive JS double loop, with sorted JS (persistent order, insertion sort, sweep), with chapter 11's swap
// events in JS, and with the wasm engine (bounds copied into its view, then update()). All four count the same
// pairs; the chart plots ms per frame against N on log scales while it runs, over a faint reference run. The
// measuring runs in a worker (workers/benchmark.ts): this scene asks it for a slice at a time and draws its state.
import type { Counters } from 'sweep-prune';
import type { BenchReply, BenchRequest } from '../workers/benchmark.js';
import { METHOD_KEYS, ROUNDS, type BenchState, type MethodKey, type Result } from '../bench-run.js';
import type { MarkerShape, Surface } from '../draw.js';
import type { CreateScene, Scene, SceneSetup, Stat } from '../scene.js';
import { benchmarked, ms as sayMsOnly } from '../times.js';
import { REFERENCE, REFERENCE_MACHINE } from './benchmark-reference.js';

const SIZES = [100, 300, 1000, 3000, 10_000, 30_000, 100_000];

interface Method {
  key: MethodKey;
  label: string;
  /** The label on a small screen, where the chart's labels are relatively larger. */
  short: string;
  color: string;
  /** Each line's points have their own shape too, so the lines are told apart without their colours. */
  shape: MarkerShape;
}
const METHODS: Method[] = [
  { key: 'naive', label: 'naive JS (all pairs)', short: 'naive JS', color: '#f77', shape: 'square' },
  { key: 'sorted', label: 'sorted JS (insertion sort + sweep)', short: 'sorted JS', color: '#fc5', shape: 'triangle' },
  { key: 'swaps', label: 'swap events JS (chapter 11)', short: 'swap JS', color: '#c8f', shape: 'diamond' },
  { key: 'wasm', label: 'sweep-prune (wasm)', short: 'sweep-prune', color: '#5cf', shape: 'disc' },
];
if (METHODS.some((m, i) => m.key !== METHOD_KEYS[i])) throw new Error("the chart lists the methods in the run's order");

function engineStats(c: Counters): Stat[] {
  return [
    { key: 'swaps', label: 'engine swaps', value: c.swaps },
    { key: 'rebuilt', label: 'slabs rebuilt', value: c.rebuilt ? 'yes' : 'no' },
    { key: 'refreshed', label: 'slabs refreshed in place', value: c.refreshed ? 'yes' : 'no' },
    { key: 'engineTests', label: 'engine tests', value: c.overlapTests },
  ];
}

/**
 * The log-log slope over the largest decade measured: log10(ms(N) / ms(N / 10)) for the largest N with both, the
 * exponent k of ms ~ N^k there (2 for all pairs, 1 for linear work). Undefined with less than a decade.
 */
export function slope(points: ReadonlyArray<readonly [number, number]>): number | undefined {
  const at = new Map(points);
  for (const [n, ms] of [...points].sort((p, q) => q[0] - p[0])) {
    const before = at.get(n / 10);
    if (before !== undefined && before > 0 && ms > 0) return Math.log10(ms / before);
  }
  return undefined;
}

/** Threads are offered where the engine can share an update with workers: a cross-origin-isolated page. */
const threadsAvailable = (): boolean => globalThis.crossOriginIsolated === true;

class Benchmark implements Scene {
  readonly balls = [];
  readonly draggable = false;
  readonly still = false;
  readonly sizes: number[];
  #state: BenchState;
  readonly #table: HTMLTableElement;
  readonly #threads: number;
  /** Made at the first Play: a reader who never runs the benchmark loads no second engine. */
  #worker: Worker | undefined;
  /** A slice was asked for and has not come back: ask for no other (a paused figure stops asking). */
  #waiting = false;
  #error = '';
  /** The chart as last drawn: the state it showed and the canvas it drew on (redrawn only when either changed). */
  #drawn: { state: BenchState; resizes: number; at: number; cells: number } | undefined;

  constructor(
    readonly surface: Surface,
    setup: SceneSetup,
  ) {
    const max = Number(setup.options.data.max ?? 100_000);
    this.sizes = SIZES.filter((n) => n <= max);
    this.#state = {
      results: Object.fromEntries(METHOD_KEYS.map((k) => [k, []])) as unknown as BenchState['results'],
      size: 0,
      method: 0,
      round: 0,
      live: undefined,
      frames: 0,
      pairs: 0,
      counters: undefined,
      done: false,
    };
    const label = document.createElement('label');
    label.className = 'bench-max';
    label.textContent = 'Largest N ';
    const select = document.createElement('select');
    select.dataset.option = 'max';
    for (const n of [1000, 10_000, 100_000])
      select.add(new Option(n.toLocaleString('en-US'), String(n), false, n === max));
    label.append(select);
    this.#table = document.createElement('table');
    this.#table.className = 'bench-table';
    setup.panel.append(label);
    this.#threads = threadsAvailable() ? Number(setup.options.data.threads ?? 1) : 1;
    if (threadsAvailable()) setup.panel.append(threadsControl(this.#threads));
    setup.panel.append(this.#table);
    this.surface.canvas.dataset.threads = String(this.#threads);
  }

  #ask(m: BenchRequest): void {
    if (!this.#worker) {
      const worker = (this.#worker = new Worker(new URL('../workers/benchmark.ts', import.meta.url), {
        type: 'module',
      }));
      worker.onmessage = (e: MessageEvent<BenchReply>) => this.#reply(e.data);
      worker.onerror = (e) => this.#fail(e.message || 'the benchmark worker failed to start');
      worker.postMessage({ type: 'start', sizes: this.sizes, threads: this.#threads } satisfies BenchRequest);
    }
    this.#worker.postMessage(m);
  }

  #reply(m: BenchReply): void {
    if (m.type === 'error') return this.#fail(m.message);
    if (m.type === 'ready') this.surface.canvas.dataset.engineThreads = String(m.threads);
    else {
      this.#waiting = false;
      this.#state = m.state;
      // the engine's figures, for chapter 14 to set its own beside
      for (const r of m.state.results.wasm)
        if (r.ms !== undefined)
          benchmarked.set(r.n, { ms: r.ms, lo: r.lo!, hi: r.hi!, rounds: ROUNDS, threads: this.#threads });
    }
  }

  #fail(message: string): void {
    this.#error = message;
    this.#waiting = true; // ask for nothing more
    throw new Error(`benchmark: ${message}`);
  }

  get done(): boolean {
    return this.#state.done;
  }

  get finished(): boolean {
    return this.done;
  }

  /** One frame of the page: ask the worker for the next slice unless one is on its way. */
  *frame(): Generator<number, void, void> {
    if (this.#waiting || this.done) return;
    this.#waiting = true;
    this.#ask({ type: 'slice' });
  }

  draw(): void {
    const g = this.surface;
    const { ctx } = g;
    g.fit();
    // redrawn when a cell is finished or the canvas was cleared, and for the live marker at most 5 times a second:
    // the page's thread stays nearly idle while the worker measures
    const cells = Object.values(this.#state.results).reduce((n, r) => n + r.length, 0);
    const d = this.#drawn;
    const now = performance.now();
    if (d && d.resizes === g.resizes && (d.state === this.#state || (d.cells === cells && now - d.at < 200))) return;
    this.#drawn = { state: this.#state, resizes: g.resizes, at: now, cells };
    g.clear('#07080c');
    // margins and offsets are for the full-size chart; on a small screen they grow with the labels' minimum size
    const { u, L, T, w, h } = g.plotArea(64, 24, 20, 50);
    const nMin = 100,
      nMax = 100_000,
      msMin = 0.001,
      msMax = 1000;
    const px = (n: number): number => L + (Math.log10(n / nMin) / Math.log10(nMax / nMin)) * w;
    const py = (ms: number): number =>
      T + h - (Math.log10(Math.max(ms, msMin) / msMin) / Math.log10(msMax / msMin)) * h;
    for (let e = -3; e <= 3; e++) {
      const y = py(10 ** e);
      g.line(L, y, L + w, y, '#222', 1);
      g.text(e >= 0 ? `${10 ** e} ms` : `${(10 ** e).toString()} ms`, L - 6 * u, y, '#999', 11, 'right');
    }
    for (const n of [100, 1000, 10_000, 100_000]) {
      g.line(px(n), T, px(n), T + h, '#222', 1);
      g.text(n.toLocaleString('en-US'), px(n), T + h + 14 * u, '#999', 11);
    }
    g.text('boxes (N)', L + w / 2, T + h + 32 * u, '#aaa', 12);
    const budget = py(1000 / 60);
    g.line(L, budget, L + w, budget, '#666', 1, [4, 4]);
    const small = u > 1.2;
    g.text(
      small ? '60 fps (16.7 ms)' : 'one 60 fps frame (16.7 ms)',
      L + w - 4 * u,
      budget - 8 * u,
      '#999',
      11,
      'right',
    );
    // the legend on a backing, over the budget line where they meet
    const labels = METHODS.map((m) => (small ? m.short : m.label));
    ctx.font = `normal ${g.fontSize(12)}px ui-sans-serif, system-ui, sans-serif`;
    const legendW = 32 * u + Math.max(...labels.map((l) => ctx.measureText(l).width));
    ctx.fillStyle = 'rgba(7,8,12,0.85)';
    ctx.fillRect(L + 4 * u, T + 1 * u, legendW, METHODS.length * 18 * u);
    // the reference run, faint and dashed, under the live lines
    ctx.globalAlpha = 0.35;
    for (const m of METHODS) {
      const pts = REFERENCE[m.key].filter(([n]) => n <= this.sizes.at(-1)!);
      ctx.beginPath();
      pts.forEach(([n, ms], i) => (i ? ctx.lineTo(px(n), py(ms)) : ctx.moveTo(px(n), py(ms))));
      ctx.strokeStyle = m.color;
      ctx.lineWidth = g.stroke(1.5);
      ctx.setLineDash([g.stroke(5), g.stroke(4)]);
      ctx.stroke();
      ctx.setLineDash([]);
      for (const [n, ms] of pts) g.marker(m.shape, px(n), py(ms), 3 * u, m.color);
    }
    ctx.globalAlpha = 1;
    g.text(
      `faint, dashed: ${small ? 'reference run' : REFERENCE_MACHINE}`,
      L + w - 4 * u,
      T + h - 10 * u,
      '#999',
      11,
      'right',
    );
    METHODS.forEach((m, k) => {
      const pts = this.#state.results[m.key].filter((r) => r.ms !== undefined);
      ctx.beginPath();
      pts.forEach((r, i) => (i ? ctx.lineTo(px(r.n), py(r.ms!)) : ctx.moveTo(px(r.n), py(r.ms!))));
      ctx.strokeStyle = m.color;
      ctx.lineWidth = g.stroke(2.5);
      ctx.stroke();
      for (const r of pts) g.marker(m.shape, px(r.n), py(r.ms!), 4 * u, m.color);
      const y = T + 10 * u + k * 18 * u;
      g.marker(m.shape, L + 14 * u, y, 5 * u, m.color);
      g.text(labels[k]!, L + 26 * u, y, '#ddd', 12, 'left');
    });
    if (!this.done) {
      const n = this.sizes[this.#state.size]!;
      const m = METHODS[this.#state.method]!;
      const live = this.#state.live;
      g.line(px(n), T, px(n), T + h, m.color, 1, [2, 4]);
      if (live !== undefined) g.marker(m.shape, px(n), py(live), 6 * u, m.color);
    }
  }

  panel(): void {
    // the median of the rounds, and under it the fastest and the slowest round
    const fmt = (r: Result | undefined): string =>
      r === undefined
        ? '…'
        : r.ms === undefined
          ? 'skipped'
          : `${sayMsOnly(r.ms)}<small>${sayMsOnly(r.lo!)}–${sayMsOnly(r.hi!)}</small>`;
    const rows = this.sizes.map((n, i) => {
      const [naive, sorted, swaps, wasm] = METHODS.map((m) => this.#state.results[m.key][i]);
      const counts = [naive, sorted, swaps, wasm].filter((r) => r && r.ms !== undefined).map((r) => r!.pairs);
      const agree = counts.length > 1 ? (counts.every((c) => c === counts[0]) ? '✓' : '✗') : '';
      const speedup = sorted?.ms && wasm?.ms ? `${(sorted.ms / wasm.ms).toFixed(1)}×` : '';
      return (
        `<tr><td>${n.toLocaleString('en-US')}</td><td>${fmt(naive)}</td><td>${fmt(sorted)}</td><td>${fmt(swaps)}</td><td>${fmt(wasm)}</td>` +
        `<td>${speedup}</td><td>${wasm ? wasm.pairs.toLocaleString('en-US') : ''} ${agree}</td></tr>`
      );
    });
    // the exponent of each line over its largest decade: what the complexity table predicts, measured
    const k = (x: number | undefined): string => (x === undefined ? '' : x.toFixed(2));
    const measured = METHODS.map((m) =>
      slope(this.#state.results[m.key].filter((r) => r.ms !== undefined).map((r) => [r.n, r.ms!] as const)),
    );
    const reference = METHODS.map((m) => slope(REFERENCE[m.key]));
    const foot =
      `<tr class="slope"><th>slope</th>${measured.map((x) => `<td>${k(x)}</td>`).join('')}<td colspan="2">yours</td></tr>` +
      `<tr class="slope ref"><th>slope</th>${reference.map((x) => `<td>${k(x)}</td>`).join('')}<td colspan="2">reference</td></tr>`;
    const html =
      '<thead><tr><th>N</th><th>naive JS</th><th>sorted JS</th><th>swap JS</th><th>wasm</th><th>sorted ÷ wasm</th><th>pairs</th></tr></thead>' +
      `<tbody>${rows.join('')}</tbody><tfoot>${foot}</tfoot>`;
    if (this.#table.innerHTML !== html) this.#table.innerHTML = html;
    this.#table.dataset.done = String(this.done);
  }

  stats(): Stat[] {
    const st = this.#state;
    const n = this.sizes[st.size];
    return [
      {
        key: 'state',
        label: 'now',
        value: this.#error
          ? `stopped: ${this.#error}`
          : this.done
            ? 'done'
            : `N = ${n!.toLocaleString('en-US')}, ${METHODS[st.method]!.label}, round ${st.round + 1} of ${ROUNDS}`,
      },
      { key: 'frame', label: 'frames measured', value: st.frames },
      { key: 'pairs', label: 'pairs', value: st.pairs },
      ...(st.counters ? engineStats(st.counters) : []),
    ];
  }

  dispose(): void {
    this.#worker?.terminate();
  }
}

/** The threads select: 1, 2, 4 and the machine's cores (sweep-prune/threads shares each update among them). */
function threadsControl(threads: number): HTMLLabelElement {
  const label = document.createElement('label');
  label.className = 'bench-max';
  label.textContent = 'Threads ';
  const select = document.createElement('select');
  select.dataset.option = 'threads';
  const cores = Math.min(64, navigator.hardwareConcurrency || 1);
  for (const n of new Set([1, 2, 4, cores].filter((n) => n <= Math.max(2, cores)).sort((p, q) => p - q)))
    select.add(new Option(String(n), String(n), false, n === threads));
  label.append(select);
  return label;
}

export const createScene: CreateScene = (canvas, setup) => new Benchmark(canvas, setup);
