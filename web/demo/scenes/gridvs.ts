// Chapter 16: a uniform grid (grid.ts) against the engine on one field of boxes, with sliders for how clustered the
// boxes are and how much their sizes spread. Both find the same pairs; what differs is how many pairs of boxes each
// compares on the way: the grid, every two boxes sharing a cell (once per cell they share); the engine, its
// candidates (`counters.overlapTests`).
import { World } from 'sweep-prune';
import { slider } from '../controls.js';
import type { Surface } from '../draw.js';
import { gridPairs, type GridResult } from '../grid.js';
import { MUTED, PAIR_RAMP } from '../palette.js';
import type { CreateScene, Scene, SceneSetup, Stat } from '../scene.js';
import { rng } from '../sim.js';

const N = 400;
/** The smallest side; with the size spread at 100 %, a few boxes are up to 12 times larger. */
const SIDE = 8;
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
  readonly still = true;
  step = 0;
  clustering = 0;
  spread = 0;
  #boxes: Float32Array = new Float32Array(0);
  #cell = SIDE;
  #grid: GridResult | undefined;
  readonly #world = new World({ dimensions: 2, capacity: N });
  readonly #ids: Uint32Array;
  readonly #out: HTMLElement;

  constructor(
    readonly surface: Surface,
    setup: SceneSetup,
  ) {
    this.#ids = this.#world.addBoxes(new Float32Array(4 * N));
    const bar = document.createElement('div');
    bar.className = 'scale-bar';
    const knob = (name: string, option: 'clustering' | 'spread'): HTMLLabelElement =>
      slider({ min: 0, max: 100, value: 0, knob: option, say: (v) => `${name} ${v} %` }, (v) => {
        this[option] = v / 100;
        this.#build();
      });
    bar.append(knob('clustered', 'clustering'), knob('size spread', 'spread'));
    this.#build();
    this.#out = document.createElement('p');
    this.#out.className = 'scale-readout grid-readout';
    setup.panel.append(bar, this.#out);
  }

  /** New boxes for the sliders; the grid's cell is their mean side (the usual choice). */
  #build(): void {
    const b = (this.#boxes = field(this.clustering, this.spread, this.surface.width, this.surface.height));
    let sum = 0;
    for (let i = 0; i < N; i++) sum += b[4 * i + 2]! - b[4 * i]!;
    this.#cell = sum / N;
    const bounds = this.#world.bounds;
    for (let i = 0; i < N; i++) bounds.set(b.subarray(4 * i, 4 * i + 4), this.#world.offsetOf(this.#ids[i]!));
    this.#world.update();
    this.#grid = gridPairs(b, N, this.#cell);
  }

  *frame(): Generator<number, void, void> {
    this.step++;
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
    if (!grid) return;
    const c = this.#world.counters;
    const winner =
      grid.tests < c.overlapTests
        ? 'the grid compares fewer'
        : grid.tests > c.overlapTests
          ? 'sweep-prune compares fewer'
          : 'a tie';
    this.#out.textContent =
      `${N} boxes, ${c.pairs} pairs · uniform grid: ${grid.tests} pairs compared (${grid.cells} cells in use, ` +
      `up to ${grid.fullest} boxes in one) · sweep-prune: ${c.overlapTests} compared (${c.slabs} slab${c.slabs === 1 ? '' : 's'}) · ${winner}`;
    const d = this.#out.dataset;
    d.gridTests = String(grid.tests);
    d.gridPairs = String(grid.pairs.length / 2);
    d.engineTests = String(c.overlapTests);
    d.enginePairs = String(c.pairs);
    d.field = `${Math.round(this.clustering * 100)},${Math.round(this.spread * 100)}`;
    (this.#out as HTMLElement & { boxes?: Float32Array }).boxes = this.#boxes;
  }

  stats(): Stat[] {
    const c = this.#world.counters;
    return [
      { key: 'gridTests', label: 'grid: pairs compared', value: this.#grid?.tests ?? 0 },
      { key: 'engineTests', label: 'sweep-prune: pairs compared', value: c.overlapTests },
      { key: 'pairs', label: 'pairs found by each', value: c.pairs },
    ];
  }

  dispose(): void {
    this.#world.dispose();
  }
}

export const createScene: CreateScene = (canvas, setup) => new GridVersus(canvas, setup);
