// Chapters 1, 8, 9 and 12: the wasm engine is the broadphase. In 1D it reports pairs whose x spans overlap; in 2D
// pairs whose boxes overlap on both axes. Each reported pair goes to intersects().
// With data-slabs the engine's index is drawn over the balls (slabview.ts), with a button that scatters the balls
// so the next update rebuilds it.
import { BallScene, type CreateScene, type SceneSetup, type Stat } from '../scene.js';
import type { Surface } from '../draw.js';
import { drawSlabs, type SlabFacts } from '../slabview.js';

class EngineScene extends BallScene {
  readonly slabView: boolean;
  facts: SlabFacts | undefined;
  /** The frame of the last update that rebuilt the slabs. */
  lastRebuilt = 0;
  readonly #out: HTMLElement | undefined;

  constructor(surface: Surface, setup: SceneSetup) {
    super(surface, setup);
    this.useWorld(setup.options.data.dims === '1' ? 1 : 2);
    this.slabView = setup.options.data.slabs !== undefined;
    if (this.slabView) {
      const bar = document.createElement('div');
      bar.className = 'scale-bar';
      const scatter = document.createElement('button');
      scatter.type = 'button';
      scatter.className = 'toggle';
      scatter.dataset.action = 'scatter';
      scatter.textContent = 'Jump: every ball to a random place in one corner';
      scatter.addEventListener('click', () => this.scatter());
      this.#out = document.createElement('p');
      this.#out.className = 'scale-readout slab-readout';
      bar.append(scatter);
      setup.panel.append(bar, this.#out);
    }
  }

  /**
   * Every ball to a random place in the top-left 60% of the box: the boxes' spread changes, the slabs no longer fit
   * it and the engine rebuilds them (a jump within the same spread is absorbed by the insertion sorts of a small
   * world, up to about 8 swaps per box).
   */
  scatter(): void {
    for (const b of this.balls) {
      b.x = b.r + Math.random() * (0.6 * this.surface.width - 2 * b.r);
      b.y = b.r + Math.random() * (0.6 * this.surface.height - 2 * b.r);
    }
    this.syncWorld();
    this.moved();
  }

  moved(): void {
    if (this.world?.counters.rebuilt) this.lastRebuilt = this.step;
  }

  protected *detect(): Generator<number, void, void> {
    const pairs = this.world!.pairs.slice(); // keep a copy: drawing reads endpoints, which may grow memory
    for (let i = 0; i < pairs.length; i += 2) yield* this.check(this.ballOf(pairs[i]!), this.ballOf(pairs[i + 1]!));
  }

  override *frame(): Generator<number, void, void> {
    yield* super.frame();
    if (this.world?.counters.rebuilt) this.lastRebuilt = this.step;
  }

  protected override drawOver(): void {
    if (!this.slabView || !this.world) return;
    const linked = this.setup.link.ball;
    this.facts = drawSlabs(
      this.surface,
      this.world,
      (id) => (this.world!.isBoxValid(id) ? this.ballOf(id) : undefined),
      linked && this.balls.includes(linked) ? linked.id : -1,
    );
  }

  panel(): void {
    const f = this.facts;
    const out = this.#out;
    if (!out || !f || !this.world) return;
    const c = this.world.counters;
    out.textContent =
      `engine, last update: ${f.slabs} slab${f.slabs === 1 ? '' : 's'} across ${f.slabAxis < 0 ? 'nothing (one slab below 64 boxes)' : 'xyzw'[f.slabAxis]}, ` +
      `sweep axis ${'xyzw'[f.sweepAxis] ?? '–'}, ${f.entries} entries for ${c.boxes} boxes, ` +
      `${f.rebuilt ? 'rebuilt' : 'refreshed in place'} (${c.swaps} swaps); last rebuilt at frame ${this.lastRebuilt}`;
    const d = out.dataset;
    d.slabs = String(f.slabs);
    d.sweepAxis = String(f.sweepAxis);
    d.engineSlabs = String(c.slabs);
    d.engineSweepAxis = String(c.sweepAxis);
    d.rebuilt = String(this.lastRebuilt);
    d.linkedSlabs = f.linkedSlabs.join(',');
    d.floors = f.floors.join(',');
    d.slabAxis = String(f.slabAxis);
  }

  override stats(): Stat[] {
    const s = [...super.stats(), ...this.engineStats()];
    if (this.slabView && this.world) {
      const c = this.world.counters;
      s.push(
        { key: 'slabs', label: 'engine slabs, last update', value: c.slabs },
        { key: 'sweepAxis', label: 'sweep axis', value: 'xyzw'[c.sweepAxis] ?? '–' },
        { key: 'refreshed', label: 'slabs, last update', value: c.rebuilt ? 'rebuilt' : 'refreshed in place' },
      );
    }
    return s;
  }
}

export const createScene: CreateScene = (canvas, setup) => new EngineScene(canvas, setup);
