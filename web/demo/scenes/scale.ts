// Chapter 14: the engine at scale. 1 000 to 100 000 moving boxes (the benchmark's scene), moved and updated in a
// worker (workers/scale.ts) one step per display frame at most, each box drawn in the colour of the number of pairs
// it is in, the engine's slabs as faint bands, and a magnifier on one box: its pairs and the candidates the
// broadphase compared it with. A toggle hands the same boxes to chapter 4's sorted-JS loop; a rolling chart plots
// the milliseconds of every update, engine and JS alike.
import type { StepBuffers, StepResult, ScaleMode } from '../scale-sim.js';
import type { ScaleReply, ScaleRequest } from '../workers/scale.js';
import { slider } from '../controls.js';
import { Surface } from '../draw.js';
import { drawMsChart, MS_CHART_KEY, type Sample } from '../ms-chart.js';
import { PAIR_RAMP } from '../palette.js';
import { drawBands, drawLens, rasterBoxes, type LensFacts } from '../scale-view.js';
import type { CreateScene, Scene, SceneSetup, Stat } from '../scene.js';
import { benchmarked, sayMs, spreadOf, type Spread } from '../times.js';
import type { Ball } from '../sim.js';

const MIN_N = 1000;
const MAX_N = 100_000;
/** Updates in the readout's figure (ROUNDS runs of consecutive updates), and in the rolling chart. */
const WINDOW = 30;
const ROUNDS = 3;
const CHART = 240;
const RATE_WINDOW_MS = 1000;
const LENS_R = 95;
/**
 * After an update the next is asked for only once as long again has passed, so that the worker holds at most half a
 * core (the sorted-JS loop also rests within its update: scale-sim.ts).
 */
const REST = 1;

/** What the magnifier showed last, kept together so that a script reads one consistent frame. */
export interface LensState {
  boxes: Float32Array;
  chosen: number;
  chosenPairs: number[];
  candidates: number;
}

const median = (xs: readonly number[]): number => {
  if (!xs.length) return 0;
  const s = [...xs].sort((p, q) => p - q);
  return s[s.length >> 1]!;
};
const clampN = (n: number): number =>
  Math.min(MAX_N, Math.max(MIN_N, Math.round((Number.isFinite(n) ? n : 10_000) / 1000) * 1000));

class Scale implements Scene {
  readonly balls: Ball[];
  readonly draggable = true;
  readonly still = false;
  step = 0;
  n: number;
  mode: ScaleMode = 'engine';
  readonly #worker: Worker;
  /** The boxes' area for the frames of the last build (box units). */
  #geometry: { n: number; side: number; sideY: number } | undefined;
  #frame: { result: StepResult; buffers: StepBuffers } | undefined;
  /** The buffers of an older frame, handed back with the next request (the worker writes them again). */
  #spare: StepBuffers | undefined;
  #waiting = false;
  /** No step is asked for before this time (performance.now()): the worker's rest. */
  #restUntil = 0;
  #chosen = -1;
  readonly #lens: Ball;
  readonly #samples: Sample[] = [];
  readonly #drawMs: number[] = [];
  readonly #rasterMs: number[] = [];
  readonly #updatesAt: number[] = [];
  #image: ImageData | undefined;
  #raster = false;
  /** What the canvas shows: redrawn when a frame arrives, the magnifier moves or the canvas is resized. */
  #drawn: { frame: unknown; x: number; y: number; resizes: number } | undefined;
  #facts: LensFacts | undefined;
  #error = '';
  readonly #chart: Surface;
  readonly #toggle: HTMLButtonElement;
  readonly #readout: HTMLElement;
  readonly #caption: HTMLElement;
  readonly #figure: HTMLElement | null;
  readonly #listeners = new AbortController();

  constructor(
    readonly surface: Surface,
    setup: SceneSetup,
  ) {
    // one backing pixel per CSS pixel: the boxes are a few pixels wide either way, and a quarter of the pixels at
    // DPR 2 is a quarter of the time spent filling and uploading them
    surface.maxRatio = 1;
    surface.fit();
    this.n = clampN(Number(setup.options.data.n ?? 10_000));
    this.#figure = setup.panel.closest('figure');
    this.#lens = { x: 300, y: 200, r: LENS_R, vx: 0, vy: 0, color: '', held: false, id: 0, label: 'magnifier' };
    this.balls = [this.#lens];

    const bar = document.createElement('div');
    bar.className = 'scale-bar';
    const label = slider(
      {
        min: MIN_N,
        max: MAX_N,
        step: 1000,
        value: this.n,
        knob: 'n',
        say: (v) => `${v.toLocaleString('en-US')} boxes`,
      },
      () => {},
      (v) => this.build(v),
    );
    this.#toggle = document.createElement('button');
    this.#toggle.type = 'button';
    this.#toggle.className = 'toggle';
    this.#toggle.dataset.action = 'js';
    this.#toggle.addEventListener('click', () => this.setMode(this.mode === 'js' ? 'engine' : 'js'));
    bar.append(label, this.#toggle);
    const legend = document.createElement('p');
    legend.className = 'ramp-legend';
    legend.append('pairs a box is in: ');
    PAIR_RAMP.forEach((color, k) => {
      const s = document.createElement('span');
      s.style.setProperty('--swatch', color);
      s.textContent = k === PAIR_RAMP.length - 1 ? `${k}+` : String(k);
      legend.append(s);
    });
    this.#caption = document.createElement('p');
    this.#caption.className = 'lens-caption';
    this.#readout = document.createElement('p');
    this.#readout.className = 'scale-readout';
    const chart = document.createElement('canvas');
    chart.className = 'ms-chart';
    chart.setAttribute('role', 'img');
    chart.setAttribute('aria-label', 'Milliseconds per update, the last updates, engine and sorted JS');
    const chartTitle = document.createElement('div');
    chartTitle.className = 'panel-title';
    chartTitle.innerHTML = `Milliseconds per update, one mark per update: ${MS_CHART_KEY}`;
    setup.panel.append(bar, legend, this.#caption, this.#readout, chartTitle, chart);
    this.#chart = new Surface(chart, 600, 130);
    this.#chart.onResize = () => this.#drawChart();
    this.#chart.activate();
    this.setMode('engine');

    this.#worker = new Worker(new URL('../workers/scale.ts', import.meta.url), { type: 'module' });
    this.#worker.onmessage = (e: MessageEvent<ScaleReply>) => this.#reply(e.data);
    this.#worker.onerror = (e) => this.#fail(e.message || 'the worker failed to start');
    this.build(this.n);
    // a tap or click away from the magnifier moves it there (the view drags it when it is grabbed)
    surface.canvas.addEventListener(
      'pointerdown',
      (e) => {
        const p = surface.toLocal(e.clientX, e.clientY);
        if (Math.hypot(p.x - this.#lens.x, p.y - this.#lens.y) <= this.#lens.r) return;
        this.#lens.x = Math.min(surface.width - LENS_R, Math.max(LENS_R, p.x));
        this.#lens.y = Math.min(surface.height - LENS_R, Math.max(LENS_R, p.y));
        this.moved();
      },
      { signal: this.#listeners.signal },
    );
  }

  #post(m: ScaleRequest, transfer: Transferable[] = []): void {
    this.#worker.postMessage(m, { transfer });
  }

  /** New boxes in the worker; the last frame stays on screen until the first of the new ones. */
  build(n: number): void {
    this.n = clampN(n);
    if (this.#figure) this.#figure.dataset.n = String(this.n); // Restart keeps the count
    this.#chosen = -1;
    this.#updatesAt.length = 0;
    this.#post({ type: 'build', n: this.n });
  }

  /** Switch the broadphase between the engine and the sorted-JS loop (same boxes, same motion). */
  setMode(mode: ScaleMode): void {
    this.mode = mode;
    const js = mode === 'js';
    this.#toggle.setAttribute('aria-pressed', String(js));
    this.#toggle.textContent = js ? 'Give the boxes back to the engine' : 'Use the sorted-JS loop instead';
    this.#updatesAt.length = 0;
  }

  #reply(m: ScaleReply): void {
    if (m.type === 'error') return this.#fail(m.message);
    if (m.type === 'built') {
      this.#geometry = { n: m.n, side: m.side, sideY: m.sideY };
      return;
    }
    this.#waiting = false;
    this.#restUntil = performance.now() + REST * m.result.ms;
    if (m.n !== this.#geometry?.n) return; // a frame of the boxes before a rebuild
    if (this.#frame && this.#frame.buffers.b.length === m.buffers.b.length) this.#spare = this.#frame.buffers;
    this.#frame = { result: m.result, buffers: m.buffers };
    this.step = m.result.step;
    this.#samples.push({ ms: m.result.ms, js: m.result.mode === 'js', n: m.n });
    if (this.#samples.length > CHART) this.#samples.shift();
    const now = performance.now();
    this.#updatesAt.push(now);
    while (this.#updatesAt[0]! < now - RATE_WINDOW_MS) this.#updatesAt.shift();
    this.#raster = true;
    if (this.#chosen < 0)
      this.moved(); // a fresh build: choose the box under the magnifier
    else if (!this.#lens.held) {
      // the magnifier follows its box
      const b = m.buffers.b;
      const c = this.#chosen;
      this.#lens.x = this.#clampX((b[4 * c]! + b[4 * c + 2]!) / 2 / this.#unit);
      this.#lens.y = this.#clampY((b[4 * c + 1]! + b[4 * c + 3]!) / 2 / this.#unit);
    }
  }

  #fail(message: string): void {
    this.#error = message;
    throw new Error(`scale: ${message}`);
  }

  get #unit(): number {
    return this.#geometry ? this.#geometry.side / this.surface.width : 1;
  }

  #clampX(x: number): number {
    return Math.min(this.surface.width - LENS_R, Math.max(LENS_R, x));
  }

  #clampY(y: number): number {
    return Math.min(this.surface.height - LENS_R, Math.max(LENS_R, y));
  }

  /** The magnifier was moved: the box nearest its centre is the chosen one. */
  moved(): void {
    const f = this.#frame;
    if (!f) return;
    const b = f.buffers.b;
    const cx = this.#lens.x * this.#unit;
    const cy = this.#lens.y * this.#unit;
    let best = -1;
    let bestD = Infinity;
    for (let i = 0, n = b.length / 4; i < n; i++) {
      const dx = (b[4 * i]! + b[4 * i + 2]!) / 2 - cx;
      const dy = (b[4 * i + 1]! + b[4 * i + 3]!) / 2 - cy;
      const d = dx * dx + dy * dy;
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    this.#chosen = best;
  }

  *frame(): Generator<number, void, void> {
    if (this.#waiting || !this.#geometry || performance.now() < this.#restUntil) return;
    this.#waiting = true;
    const spare = this.#spare;
    this.#spare = undefined;
    this.#post(
      { type: 'step', mode: this.mode, chosen: this.#chosen, buffers: spare },
      spare ? [spare.b.buffer, spare.start.buffer, spare.adj.buffer] : [],
    );
  }

  get zoom(): number {
    return Math.max(2, 10 * Math.sqrt((this.#geometry?.n ?? this.n) / MAX_N));
  }

  draw(): void {
    const g = this.surface;
    const { canvas, ctx } = g;
    g.fit();
    const W = canvas.width;
    const H = canvas.height;
    const f = this.#frame;
    const geo = this.#geometry;
    if (W === 0 || H === 0) return;
    if (!f || !geo) {
      g.clear();
      g.text(`building ${this.n.toLocaleString('en-US')} boxes…`, g.width / 2, g.height / 2, '#999', 16);
      return;
    }
    const lens = this.#lens;
    const d = this.#drawn;
    if (d && d.frame === f && d.x === lens.x && d.y === lens.y && d.resizes === g.resizes) return;
    this.#drawn = { frame: f, x: lens.x, y: lens.y, resizes: g.resizes };
    const t0 = performance.now();
    const fresh = this.#raster || !this.#image || this.#image.width !== W || this.#image.height !== H;
    if (fresh) {
      if (!this.#image || this.#image.width !== W || this.#image.height !== H) this.#image = ctx.createImageData(W, H);
      const { b, start } = f.buffers;
      rasterBoxes(new Uint32Array(this.#image.data.buffer), W, H, b, start, geo.n, W / geo.side, H / geo.sideY);
      this.#raster = false;
      this.#rasterMs.push(performance.now() - t0);
      if (this.#rasterMs.length > WINDOW) this.#rasterMs.shift();
    }
    ctx.putImageData(this.#image!, 0, 0);
    ctx.setTransform(W / g.width, 0, 0, W / g.width, 0, 0);
    const unit = this.#unit;
    const slabs = f.result.slabs;
    if (slabs) {
      drawBands(g, slabs.slabAxis, slabs.floors, unit);
      // where the bands begin across the canvas (logical units), for anyone scripting the page
      canvas.dataset.bandAxis = String(slabs.slabAxis);
      canvas.dataset.bandEdges = Array.from(slabs.floors.subarray(1), (f) => (f / unit).toFixed(1)).join(',');
    }
    const chosen = f.result.chosen?.index === this.#chosen ? f.result.chosen : undefined;
    this.#facts = drawLens(
      g,
      { x: this.#lens.x, y: this.#lens.y, r: LENS_R, zoom: this.zoom },
      {
        b: f.buffers.b,
        n: geo.n,
        start: f.buffers.start,
        adj: f.buffers.adj,
        unit,
        chosen: chosen ? this.#chosen : -1,
        candidates: chosen?.candidates ?? new Int32Array(0),
      },
    );
    const state: LensState = {
      boxes: f.buffers.b,
      chosen: chosen ? this.#chosen : -1,
      chosenPairs: this.#facts.chosenPairs,
      candidates: chosen?.candidates.length ?? 0,
    };
    (this.#readout as HTMLElement & { lens?: LensState }).lens = state;
    if (fresh) {
      this.#drawMs.push(performance.now() - t0);
      if (this.#drawMs.length > WINDOW) this.#drawMs.shift();
      this.#drawChart(); // not part of drawing the boxes: not timed
    }
  }

  #drawChart(): void {
    if (this.#chart.canvas.width > 0) drawMsChart(this.#chart, this.#samples, CHART);
  }

  get updatesPerSecond(): number {
    const t = this.#updatesAt;
    return t.length > 1 ? ((t.length - 1) * 1000) / (t.at(-1)! - t[0]!) : 0;
  }

  /**
   * The current broadphase's ms per update over its last WINDOW updates of the current boxes, stated as the
   * benchmark states its own (times.ts): ROUNDS runs of consecutive updates, their median and their spread.
   */
  get updateSpread(): Spread | undefined {
    const js = this.mode === 'js';
    const n = this.#geometry?.n;
    const last = this.#samples
      .filter((s) => s.js === js && s.n === n)
      .slice(-WINDOW)
      .map((s) => s.ms);
    const per = Math.ceil(last.length / ROUNDS);
    return spreadOf(Array.from({ length: ROUNDS }, (_, k) => last.slice(k * per, (k + 1) * per)));
  }

  get updateMs(): number {
    return this.updateSpread?.ms ?? 0;
  }

  /** This figure's engine figure against the benchmark's at the same N, when the benchmark has measured it. */
  #againstBenchmark(spread: Spread | undefined, n: number): string {
    const b = benchmarked.get(n);
    const d = this.#readout.dataset;
    d.benchmarkMs = b ? String(b.ms) : '';
    if (!b || !spread || this.mode !== 'engine') return '';
    const ratio = spread.ms / b.ms;
    d.benchmarkRatio = ratio.toFixed(2);
    return (
      ` · the benchmark (chapter 15) at this N: ${sayMs(b)}${b.threads > 1 ? ` on ${b.threads} threads` : ''}, ` +
      `so an update here takes ${ratio.toFixed(1)} times as long`
    );
  }

  panel(): void {
    const f = this.#frame;
    const spread = this.updateSpread;
    const update = spread?.ms ?? 0;
    const draw = median(this.#drawMs);
    const who = this.mode === 'js' ? 'sorted JS' : 'sweep-prune';
    const pairs = f?.result.pairCount ?? 0;
    const n = this.#geometry?.n ?? this.n;
    const ratio = update > 0 ? draw / update : 0;
    const fmt = (x: number): string => x.toLocaleString('en-US');
    this.#readout.textContent = this.#error
      ? `stopped: ${this.#error}`
      : `${fmt(n)} boxes, ${fmt(pairs)} pairs (${(pairs / n).toFixed(1)} per box) · ${who}: ${spread ? sayMs(spread) : '…'} per update ` +
        `(the median of ${ROUNDS} runs of ${WINDOW / ROUNDS} updates; in brackets the fastest and the slowest run)` +
        this.#againstBenchmark(spread, n) +
        ` · drawing ${draw.toFixed(2)} ms, ${ratio < 1 ? `${ratio.toFixed(2)} times` : `${ratio.toFixed(1)} times`} the update · ` +
        `${this.updatesPerSecond.toFixed(0)} updates per second`;
    const d = this.#readout.dataset;
    d.boxes = String(n);
    d.pairs = String(pairs);
    d.enginePairs = f?.result.counters ? String(f.result.counters.pairs) : '';
    d.updateMs = update.toFixed(3);
    d.drawMs = draw.toFixed(3);
    d.drawRatio = ratio.toFixed(3);
    d.rasterMs = median(this.#rasterMs).toFixed(3);
    d.moveMs = (f?.result.moveMs ?? 0).toFixed(3);
    d.updatesPerSecond = this.updatesPerSecond.toFixed(1);
    d.mode = this.mode;
    const chosen = f?.result.chosen;
    const facts = this.#facts;
    if (!chosen || !facts || chosen.index !== this.#chosen) {
      this.#caption.textContent =
        'Magnifier: drag it, tap where it should look, or Tab to the canvas and use the arrow keys.';
      return;
    }
    const c = chosen.candidates.length;
    const p = facts.chosenPairs.length;
    const boxes = (k: number): string => (k === 1 ? '1 box' : `${fmt(k)} boxes`);
    const slabs = chosen.slabs.length;
    this.#caption.textContent =
      `Magnifier ×${this.zoom.toFixed(this.zoom < 10 ? 1 : 0)} on box ${fmt(chosen.index)} (white): ` +
      (this.mode === 'js'
        ? `the sorted-JS loop compared it with ${boxes(c)}, every box that overlaps it on x (cyan, dashed), and `
        : `the engine compared it with ${boxes(c)} of its ${slabs === 1 ? 'slab' : `${slabs} slabs`} that overlap it on x (cyan, dashed), and `) +
      `${p} of them overlap${p === 1 ? 's' : ''} it (blue): ${p === 1 ? '1 pair' : `${p} pairs`}.`;
    const cd = this.#caption.dataset;
    cd.chosen = String(chosen.index);
    cd.candidates = String(c);
    cd.pairs = String(p);
  }

  stats(): Stat[] {
    const c = this.#frame?.result.counters;
    return [
      { key: 'frame', label: 'updates', value: this.step },
      { key: 'pairs', label: 'pairs, last update', value: this.#frame?.result.pairCount ?? 0 },
      {
        key: 'updateMs',
        label: `ms per update (${this.mode === 'js' ? 'sorted JS' : 'engine'}), median of ${ROUNDS} runs`,
        value: this.updateMs.toFixed(2),
      },
      { key: 'ups', label: 'updates per second', value: this.updatesPerSecond.toFixed(0) },
      ...(c
        ? [
            { key: 'slabs', label: 'engine slabs, last update', value: c.slabs },
            { key: 'engineTests', label: 'engine tests, last update', value: c.overlapTests },
          ]
        : []),
    ];
  }

  dispose(): void {
    this.#listeners.abort();
    this.#worker.terminate();
    this.#chart.release();
  }
}

export const createScene: CreateScene = (canvas, setup) => new Scale(canvas, setup);
