// Chapters 1, 8, 9 and 12: the wasm engine is the broadphase. In 1D it reports pairs whose x spans overlap; in 2D
// pairs whose boxes overlap on both axes. Each reported pair goes to intersects().
// With data-slabs the engine's index is drawn over the balls (slabview.ts), with what it compares the chosen ball
// with, a button that scatters the balls so the next update rebuilds it, and one that draws the index as one slab.
import { World } from 'sweep-prune';
import { BallScene, type CreateScene, type SceneSetup, type Stat } from '../scene.js';
import type { Surface } from '../draw.js';
import { oneSlabPruningOf, pruningOf, type Pruning } from '../prune.js';
import { drawSlabs, type SlabFacts } from '../slabview.js';

class EngineScene extends BallScene {
  readonly slabView: boolean;
  facts: SlabFacts | undefined;
  /** The frame of the last update that rebuilt the slabs. */
  lastRebuilt = 0;
  readonly #out: HTMLElement | undefined;
  readonly #said: HTMLElement | undefined;
  /** The chosen ball's comparisons, as last drawn. */
  #pruning: Pruning | undefined;
  #oneSlab = false;
  /** The boxes' intervals on the sweep axis in a 1D world: its pairs are the tests one slab would cost. */
  #line: { world: World; ids: number[]; axis: number } | undefined;

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
      const one = document.createElement('button');
      one.type = 'button';
      one.className = 'toggle';
      one.dataset.action = 'one-slab';
      one.setAttribute('aria-pressed', 'false');
      one.textContent = 'Draw it as one slab';
      one.addEventListener('click', () => {
        this.#oneSlab = !this.#oneSlab;
        one.setAttribute('aria-pressed', String(this.#oneSlab));
        one.textContent = this.#oneSlab ? 'Back to the engine’s slabs' : 'Draw it as one slab';
        this.setup.link.onChange?.(); // redraw now, paused or not
      });
      this.#out = document.createElement('p');
      this.#out.className = 'scale-readout slab-readout';
      this.#said = document.createElement('p');
      this.#said.className = 'prune-readout';
      bar.append(scatter, one);
      setup.panel.append(bar, this.#said, this.#out);
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
    const world = this.world;
    const s = world.slabs();
    const linked = this.setup.link.ball;
    const id = linked && this.balls.includes(linked) ? linked.id : -1;
    // the bounds the last update read (the balls may have been dragged since): what the engine compared
    const bounds = world.bounds;
    const boundsOf = (box: number): Float32Array => bounds.subarray(world.offsetOf(box), world.offsetOf(box) + 4);
    this.#pruning =
      id < 0 || s.sweepAxis < 0
        ? undefined
        : this.#oneSlab
          ? oneSlabPruningOf(
              this.balls.map((b) => b.id),
              s.sweepAxis,
              boundsOf,
              id,
            )
          : pruningOf(s, boundsOf, id);
    this.facts = drawSlabs(this.surface, s, (box) => (world.isBoxValid(box) ? this.ballOf(box) : undefined), {
      linked: id,
      pruning: this.#pruning,
      oneSlab: this.#oneSlab,
      rebuilt: world.counters.rebuilt === 1,
    });
  }

  /** The tests one slab would cost: the pairs overlapping on the sweep axis, as a 1D world of the same boxes counts. */
  #oneSlabTests(axis: number): number {
    const world = this.world!;
    if (this.#line?.axis !== axis) {
      this.#line?.world.dispose();
      const line = new World({ dimensions: 1, capacity: this.balls.length });
      this.#line = { world: line, ids: this.balls.map(() => line.addBox([0], [0])), axis };
    }
    const { world: line, ids } = this.#line;
    const from = world.bounds;
    const to = line.bounds;
    this.balls.forEach((b, i) => {
      const o = world.offsetOf(b.id);
      const l = line.offsetOf(ids[i]!);
      to[l] = from[o + axis]!;
      to[l + 1] = from[o + 2 + axis]!;
    });
    line.update();
    return line.counters.pairs;
  }

  panel(): void {
    const f = this.facts;
    const out = this.#out;
    if (!out || !f || !this.world) return;
    const c = this.world.counters;
    const axis = 'xyzw'[f.sweepAxis] ?? '–';
    const slabs =
      f.slabs === 1
        ? 'one slab (below 64 boxes the engine keeps one)'
        : `${f.slabs} slabs across ${'xyzw'[f.slabAxis]}`;
    out.textContent =
      `engine, last update: ${slabs}, sweep axis ${axis}, ${f.entries} entries for ${c.boxes} boxes, ` +
      `${c.rebuilt ? 'rebuilt' : 'refreshed in place'} (${c.swaps} swaps); last rebuilt at frame ${this.lastRebuilt}`;
    const d = out.dataset;
    d.slabs = String(f.slabs);
    d.sweepAxis = String(f.sweepAxis);
    d.engineSlabs = String(c.slabs);
    d.engineSweepAxis = String(c.sweepAxis);
    d.rebuilt = String(this.lastRebuilt);
    d.linkedSlabs = f.linkedSlabs.join(',');
    d.floors = f.floors.join(',');
    d.slabAxis = String(f.slabAxis);
    d.tests = String(c.overlapTests);
    this.#explain(f, axis, c.overlapTests);
  }

  /** The chosen ball's comparisons in words, and what one slab would cost. */
  #explain(f: SlabFacts, axis: string, tests: number): void {
    const said = this.#said!;
    const d = said.dataset;
    const one = this.#oneSlab ? this.#oneSlabTests(f.sweepAxis) : undefined;
    d.oneSlab = String(this.#oneSlab);
    d.oneSlabTests = one === undefined ? '' : String(one);
    d.tests = String(tests);
    const p = this.#pruning;
    const whole =
      one === undefined
        ? ''
        : ` With one slab every update would cost ${one} tests (the pairs overlapping on ${axis}, as a one-dimensional world of the same boxes counts them), against the engine’s ${tests} with ${f.slabs === 1 ? 'its one slab' : `its ${f.slabs} slabs`}.`;
    if (!p) {
      d.ball = d.candidates = d.pairs = '';
      said.textContent = `Choose a ball (point at it, tap it, or Tab to the canvas and press a number key or Space) to see what the engine compares it with.${whole}`;
      return;
    }
    const me = this.ballOf(p.id);
    const pairs = p.candidates.filter((c) => c.reported).length;
    const elsewhere = p.candidates.filter((c) => c.overlaps && !c.reported).length;
    const where = this.#oneSlab
      ? 'Drawn as one slab, it would be compared'
      : `It is in slab${p.slabs.length > 1 ? 's' : ''} ${p.slabs.map((k) => k + 1).join(' and ')}; the engine compared it`;
    const nothing = p.candidates.length - pairs - elsewhere;
    const times = p.candidates.length === 1 ? 'once' : `${p.candidates.length} times`;
    said.textContent =
      `Ball ${this.nameOf(me)} (white ring). ${where} ${times} with a box ${this.#oneSlab ? '' : 'of its slab '}whose ${axis} span meets its own (its reach, shaded): ` +
      `${pairs} found its pairs (solid blue), ${elsewhere ? `${elsewhere} a pair already found in a slab both share (dotted), ` : ''}` +
      `${nothing} found nothing (dashed cyan).${whole}`;
    d.ball = String(this.balls.indexOf(me));
    d.candidates = String(p.candidates.length);
    d.pairs = String(pairs);
  }

  override dispose(): void {
    this.#line?.world.dispose();
    super.dispose();
  }

  override stats(): Stat[] {
    const s = [...super.stats(), ...this.engineStats()];
    if (!this.slabView || !this.world) return s;
    // the readout under the buttons says the rest (sweep axis, rebuilt or refreshed, swaps): a few counters only
    const keep = new Set(['frame', 'tested', 'candidates', 'engineTests']);
    return [
      ...s.filter((x) => keep.has(x.key)),
      { key: 'slabs', label: 'engine slabs, last update', value: this.world.counters.slabs },
    ];
  }
}

export const createScene: CreateScene = (canvas, setup) => new EngineScene(canvas, setup);
