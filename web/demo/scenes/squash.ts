// Chapter 16: the engine chooses its sweep axis from the boxes. 150 small balls sit in a region the reader squashes
// from a wide, flat strip to a tall, thin column; the engine's index is drawn over them (slabview.ts) and the sweep
// axis it chose (`slabs().sweepAxis`) flips from x to y as the region turns.
import { BallScene, type CreateScene, type SceneSetup, type Stat } from '../scene.js';
import { slider } from '../controls.js';
import type { Surface } from '../draw.js';
import { drawSlabs, type SlabFacts } from '../slabview.js';
import { rng } from '../sim.js';

class Squash extends BallScene {
  /** -1: a wide flat strip; 0: a square; 1: a tall thin column (see region). */
  squash = -1;
  /** Each ball's place in the region, from 0 to 1 on each axis. */
  readonly #homes: Array<[number, number]>;
  #facts: SlabFacts | undefined;
  readonly #out: HTMLElement;

  constructor(surface: Surface, setup: SceneSetup) {
    super(surface, setup);
    const random = rng(setup.options.seed);
    this.#homes = this.balls.map(() => [random(), random()]);
    for (const b of this.balls) b.r = 4;
    this.useWorld(2);
    const say = (v: number): string => {
      const { w, h } = this.regionAt(v / 100);
      return `${w.toFixed(0)} wide, ${h.toFixed(0)} tall`;
    };
    const label = slider({ min: -100, max: 100, value: -100, knob: 'squash', say }, (v) => {
      this.squash = v / 100;
      this.#place();
    });
    this.#out = document.createElement('p');
    this.#out.className = 'scale-readout squash-readout';
    const bar = document.createElement('div');
    bar.className = 'scale-bar';
    bar.append(label);
    setup.panel.append(bar, this.#out);
    this.#place();
  }

  /**
   * The region, centred: its width over its height runs geometrically from 10 (-1: a wide strip, 600 x 60) through
   * 1 (0: a square, where the spreads are equal and the sweep axis flips) to 1/10 (1: a column, 40 x 400), so the
   * slider's middle is where the slabs turn; the largest such rectangle that fits the canvas.
   */
  get region(): { x: number; y: number; w: number; h: number } {
    return this.regionAt(this.squash);
  }

  regionAt(squash: number): { x: number; y: number; w: number; h: number } {
    const { width: W, height: H } = this.surface;
    const aspect = 10 ** -squash;
    const w = Math.min(W, H * aspect);
    const h = w / aspect;
    return { x: (W - w) / 2, y: (H - h) / 2, w, h };
  }

  #place(): void {
    const r = this.region;
    this.balls.forEach((b, i) => {
      const [u, v] = this.#homes[i]!;
      b.x = r.x + b.r + u * (r.w - 2 * b.r);
      b.y = r.y + b.r + v * (r.h - 2 * b.r);
      b.vx = b.vy = 0;
    });
    this.syncWorld();
  }

  protected *detect(): Generator<number, void, void> {
    // nothing is tested: the figure is about the axis the engine chooses
  }

  protected override drawUnder(): void {
    const r = this.region;
    this.surface.ctx.strokeStyle = '#555';
    this.surface.ctx.lineWidth = this.surface.stroke(1);
    this.surface.ctx.strokeRect(r.x, r.y, r.w, r.h);
  }

  protected override drawOver(): void {
    const world = this.world!;
    this.#facts = drawSlabs(this.surface, world.slabs(), (id) => this.ballOf(id), {
      linked: -1,
      rebuilt: world.counters.rebuilt === 1,
    });
  }

  panel(): void {
    const f = this.#facts;
    if (!f) return;
    const r = this.region;
    const c = this.world!.counters;
    this.#out.textContent =
      `the boxes spread ${r.w.toFixed(0)} across and ${r.h.toFixed(0)} down: the engine sweeps along ${'xyzw'[f.sweepAxis]}` +
      (f.slabs > 1 ? `, in ${f.slabs} slabs across ${'xyzw'[f.slabAxis]}` : ', in one slab') +
      ` · ${c.overlapTests} pairs compared, ${c.pairs} overlapping`;
    const d = this.#out.dataset;
    d.sweepAxis = String(f.sweepAxis);
    d.engineSweepAxis = String(c.sweepAxis);
    d.slabs = String(f.slabs);
    d.axisLabel = f.axisLabel;
    d.squash = String(Math.round(this.squash * 100)); // the slider's value this frame was drawn at
    d.aspect = (r.h / r.w).toFixed(3);
  }

  override stats(): Stat[] {
    const c = this.world!.counters;
    return [
      { key: 'sweepAxis', label: 'sweep axis', value: 'xyzw'[c.sweepAxis] ?? '–' },
      { key: 'slabs', label: 'engine slabs', value: c.slabs },
      { key: 'engineTests', label: 'engine tests, last update', value: c.overlapTests },
    ];
  }
}

export const createScene: CreateScene = (canvas, setup) => new Squash(canvas, setup);
