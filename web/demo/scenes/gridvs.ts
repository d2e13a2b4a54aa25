// Chapter 16: a uniform grid (grid.ts) against the engine on one field of moving boxes, with sliders for how
// clustered the boxes are, how much their sizes spread, and the grid's cell size. Both find the same pairs each
// frame; what differs is how many pairs of boxes each compares on the way (the grid: every two boxes sharing a cell,
// once per cell they share; the engine: its candidates, `counters.overlapTests`) and the time each takes per frame:
// the grid lists every box in its cells again (it keeps nothing between frames), the engine updates its sorted runs.
// Every change of a slider starts a fresh field and a fresh World, so what a setting shows never depends on the
// settings before it.
import { World } from 'sweep-prune';
import { typical } from '../times.js';
import { figureData, slider } from '../controls.js';
import type { Surface } from '../draw.js';
import { gridPairs, type GridResult } from '../grid.js';
import { MUTED, PAIR_RAMP } from '../palette.js';
import type { CreateScene, Scene, SceneSetup, Stat } from '../scene.js';
import { rng } from '../sim.js';

const N = 400;
/** The smallest side; with the size spread at 100 %, a few boxes are up to 12 times larger. */
const SIDE = 8;
/** Each box sways around its place by up to this much, with its own period: every box moves every frame. */
const SWAY = 18;
/** Frames whose comparisons and times make the figures shown. */
const WINDOW = 60;
const CENTRES = [
  [0.25, 0.3],
  [0.7, 0.62],
  [0.42, 0.8],
] as const;

/** Boxes in a w x h field: a share `clustering` of them in three clusters, sides from SIDE up with `spread`. */
export function field(clustering: number, spread: number, w: number, h: number, seed = 7): Float32Array {
  const random = rng(seed);
  const b = new Float32Array(4 * N);
  for (let i = 0; i < N; i++) {
    const u = random();
    const side = SIDE * (1 + spread * 11 * u * u * u); // mostly small, a few large
    let x: number;
    let y: number;
    if (random() < clustering) {
      const [cx, cy] = CENTRES[i % CENTRES.length]!;
      const a = random() * Math.PI * 2;
      const d = 45 * Math.sqrt(random());
      x = cx * w + Math.cos(a) * d;
      y = cy * h + Math.sin(a) * d;
    } else {
      x = random() * w;
      y = random() * h;
    }
    x = Math.min(w - side / 2, Math.max(side / 2, x));
    y = Math.min(h - side / 2, Math.max(side / 2, y));
    b.set([x - side / 2, y - side / 2, x + side / 2, y + side / 2], 4 * i);
  }
  return b;
}

class GridVersus implements Scene {
  readonly balls = [];
  readonly draggable = false;
  readonly still = false;
  step = 0;
  clustering = 0;
  spread = 0;
  /** The grid's cell side, as a multiple of the boxes' mean side. */
  cellScale = 1;
  /** The field as built (each box's place), and the boxes where they are this frame. */
  #home: Float32Array = new Float32Array(0);
  #boxes: Float32Array = new Float32Array(0);
  #phase: Float32Array = new Float32Array(0);
  #cell = SIDE;
  #grid: GridResult | undefined;
  #world: World | undefined;
  #ids: Uint32Array = new Uint32Array(0);
  #history: { grid: number[]; engine: number[]; gridMs: number[]; engineMs: number[] } = fresh();
  readonly #out: HTMLElement;

  constructor(
    readonly surface: Surface,
    setup: SceneSetup,
  ) {
    const bar = document.createElement('div');
    bar.className = 'scale-bar';
    const keep = figureData(setup.panel);
    const knob = (o: Parameters<typeof slider>[0], set: (v: number) => void): HTMLLabelElement => {
      const label = slider({ ...o, keep }, (v) => {
        set(v);
        this.#build();
      });
      set(Number(label.querySelector('input')!.value));
      return label;
    };
    bar.append(
      knob({ min: 0, max: 100, value: 0, knob: 'clustering', say: (v) => `clustered ${v} %` }, (v) => {
        this.clustering = v / 100;
      }),
      knob({ min: 0, max: 100, value: 0, knob: 'spread', say: (v) => `size spread ${v} %` }, (v) => {
        this.spread = v / 100;
      }),
      knob(
        { min: 0.5, max: 6, step: 0.5, value: 1, knob: 'cell', say: (v) => `grid cell ${v} × the mean side` },
        (v) => (this.cellScale = v),
      ),
    );
    this.#build();
    this.#out = document.createElement('p');
    this.#out.className = 'scale-readout grid-readout';
    setup.panel.append(bar, this.#out);
  }

  /** A fresh field and World for the sliders; the grid's cell is a multiple of the boxes' mean side. */
  #build(): void {
    const b = (this.#home = field(this.clustering, this.spread, this.surface.width, this.surface.height));
    this.#boxes = b.slice();
    const random = rng(3);
    this.#phase = Float32Array.from({ length: 2 * N }, () => random() * Math.PI * 2);
    let sum = 0;
    for (let i = 0; i < N; i++) sum += b[4 * i + 2]! - b[4 * i]!;
    this.#cell = (this.cellScale * sum) / N;
    this.#world?.dispose();
    this.#world = new World({ dimensions: 2, capacity: N });
    this.#ids = this.#world.addBoxes(new Float32Array(4 * N));
    this.#history = fresh();
    this.step = 0;
    this.#detect();
  }

  /** Both broadphases on the boxes where they are now, each timed; the record of the last WINDOW frames. */
  #detect(): void {
    const world = this.#world!;
    const b = this.#boxes;
    let t = performance.now();
    const bounds = world.bounds;
    for (let i = 0; i < N; i++) bounds.set(b.subarray(4 * i, 4 * i + 4), world.offsetOf(this.#ids[i]!));
    world.update();
    const engineMs = performance.now() - t;
    t = performance.now();
    this.#grid = gridPairs(b, N, this.#cell);
    const gridMs = performance.now() - t;
    const h = this.#history;
    const push = (xs: number[], x: number): void => {
      xs.push(x);
      if (xs.length > WINDOW) xs.shift();
    };
    push(h.grid, this.#grid.tests);
    push(h.engine, world.counters.overlapTests);
    push(h.gridMs, gridMs);
    push(h.engineMs, engineMs);
  }

  *frame(): Generator<number, void, void> {
    this.step++;
    // every box sways around its place, inside the field
    const { width: w, height: h } = this.surface;
    const [home, b, phase] = [this.#home, this.#boxes, this.#phase];
    for (let i = 0; i < N; i++) {
      const o = 4 * i;
      const sx = b[o + 2]! - b[o]!;
      const sy = b[o + 3]! - b[o + 1]!;
      const x = Math.min(w - sx, Math.max(0, home[o]! + SWAY * Math.sin(this.step / 40 + phase[2 * i]!)));
      const y = Math.min(h - sy, Math.max(0, home[o + 1]! + SWAY * Math.sin(this.step / 53 + phase[2 * i + 1]!)));
      b.set([x, y, x + sx, y + sy], o);
    }
    this.#detect();
  }

  draw(): void {
    const g = this.surface;
    const { ctx } = g;
    g.clear();
    // the grid's cells, faint
    ctx.beginPath();
    for (let x = this.#cell; x < g.width; x += this.#cell) ctx.rect(x, 0, 0.6, g.height);
    for (let y = this.#cell; y < g.height; y += this.#cell) ctx.rect(0, y, g.width, 0.6);
    ctx.fillStyle = 'rgba(255,255,255,0.12)';
    ctx.fill();
    const degree = new Uint16Array(N);
    const pairs = this.#grid?.pairs ?? [];
    for (const i of pairs) degree[i]!++;
    const b = this.#boxes;
    for (let i = 0; i < N; i++) {
      const o = 4 * i;
      const color = PAIR_RAMP[Math.min(degree[i]!, PAIR_RAMP.length - 1)]!;
      ctx.globalAlpha = 0.35;
      ctx.fillStyle = color;
      ctx.fillRect(b[o]!, b[o + 1]!, b[o + 2]! - b[o]!, b[o + 3]! - b[o + 1]!);
      ctx.globalAlpha = 1;
      ctx.strokeStyle = color;
      ctx.lineWidth = g.stroke(1);
      ctx.strokeRect(b[o]!, b[o + 1]!, b[o + 2]! - b[o]!, b[o + 3]! - b[o + 1]!);
    }
    g.text(`grid cell ${this.#cell.toFixed(1)}`, g.width - 8, g.height - 12, MUTED, 12, 'right');
  }

  panel(): void {
    const grid = this.#grid;
    const world = this.#world;
    if (!grid || !world) return;
    const c = world.counters;
    const h = this.#history;
    const mean = (xs: number[]): number => xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length);
    const [gridMean, engineMean] = [mean(h.grid), mean(h.engine)];
    const [gridMs, engineMs] = [typical(h.gridMs), typical(h.engineMs)];
    const fewer =
      gridMean < engineMean
        ? 'the grid compares fewer'
        : gridMean > engineMean
          ? 'sweep-prune compares fewer'
          : 'a tie';
    const faster = gridMs < engineMs ? 'the grid is faster' : 'sweep-prune is faster';
    const ms = (x: number): string => x.toFixed(x < 1 ? 3 : 2);
    this.#out.textContent =
      `${N} boxes, ${c.pairs} pairs · per frame, over the last ${h.grid.length}: uniform grid ` +
      `${Math.round(gridMean)} pairs compared (${grid.cells} cells in use, up to ${grid.fullest} boxes in one), ` +
      `${ms(gridMs)} ms · sweep-prune ${Math.round(engineMean)} compared (${c.slabs} slab${c.slabs === 1 ? '' : 's'}), ` +
      `${ms(engineMs)} ms · ${fewer}; ${faster}`;
    const d = this.#out.dataset;
    d.gridTests = String(grid.tests);
    d.gridPairs = String(grid.pairs.length / 2);
    d.engineTests = String(c.overlapTests);
    d.enginePairs = String(c.pairs);
    d.gridMean = String(gridMean);
    d.engineMean = String(engineMean);
    d.gridMs = String(gridMs);
    d.engineMs = String(engineMs);
    d.frames = String(h.grid.length);
    d.field = `${Math.round(this.clustering * 100)},${Math.round(this.spread * 100)}`;
    d.cell = String(this.cellScale);
    // the boxes of the frame these numbers are for (the scene moves its own on)
    (this.#out as HTMLElement & { boxes?: Float32Array }).boxes = this.#boxes.slice();
  }

  stats(): Stat[] {
    const c = this.#world?.counters;
    return [
      { key: 'frame', label: 'frame', value: this.step },
      { key: 'gridTests', label: 'grid: pairs compared', value: this.#grid?.tests ?? 0 },
      { key: 'engineTests', label: 'sweep-prune: pairs compared', value: c?.overlapTests ?? 0 },
      { key: 'pairs', label: 'pairs found by each', value: c?.pairs ?? 0 },
    ];
  }

  dispose(): void {
    this.#world?.dispose();
    this.#world = undefined;
  }
}

function fresh(): { grid: number[]; engine: number[]; gridMs: number[]; engineMs: number[] } {
  return { grid: [], engine: [], gridMs: [], engineMs: [] };
}

export const createScene: CreateScene = (canvas, setup) => new GridVersus(canvas, setup);
