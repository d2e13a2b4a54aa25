// Chapter 6: every ball contributes two edges to one sorted list. The list shown under the canvas is the engine's
// own sorted endpoint list for the x axis (world.endpoints(0)); with data-focus the largest ball's span of that list
// is highlighted.
import { slotOf } from 'sweep-prune';
import { BallScene, type CreateScene, type SceneSetup, type Stat } from '../scene.js';
import type { Surface } from '../draw.js';
import type { Ball } from '../sim.js';
import { FOCUS, INSIDE, LINK, MUTED } from '../palette.js';
import { EdgeStrip } from '../strip.js';

class Edges extends BallScene {
  readonly #strip: EdgeStrip;
  readonly #focus: Ball | undefined;
  #inside = new Set<Ball>();
  #order: number[] = [];
  /** Which balls overlap on x, in words, for screen readers: rewritten only when it changes. */
  readonly #said: HTMLElement;

  constructor(surface: Surface, setup: SceneSetup) {
    super(surface, setup);
    this.labelAll(); // the balls carry the names of their edges in the strip
    this.useWorld(1);
    if (setup.options.data.focus !== undefined) {
      this.#focus = this.balls.reduce((m, b) => (b.r > m.r ? b : m));
    }
    this.#strip = new EdgeStrip(
      setup.panel,
      'Sorted array of edges (world.endpoints(0), kept for display)',
      setup.link,
    );
    this.#said = document.createElement('p');
    this.#said.className = 'sr-only';
    this.#said.setAttribute('aria-live', 'polite');
    setup.panel.append(this.#said);
  }

  protected *detect(): Generator<number, void, void> {
    const { refs } = this.world!.endpoints(0);
    this.#order = Array.from(refs);
    this.#inside = new Set();
    const f = this.#focus;
    if (!f) return;
    const from = this.#order.indexOf(slotOf(f.id) << 1);
    const to = this.#order.indexOf((slotOf(f.id) << 1) | 1);
    for (let i = from + 1; i < to; i++) this.#inside.add(this.ballAtSlot(this.#order[i]! >>> 1));
  }

  #edgeColor(b: Ball): string {
    if (b === this.#focus) return FOCUS;
    return this.#inside.has(b) ? INSIDE : this.#focus ? MUTED : b.color;
  }

  protected override colorOf(b: Ball): string {
    return this.#inside.has(b) ? INSIDE : b.color;
  }

  protected override drawUnder(): void {
    for (const b of this.balls) {
      const mine = b === this.setup.link.ball;
      const c = mine ? LINK : this.#edgeColor(b);
      this.surface.vline(b.x - b.r, c, mine ? 3 : 2);
      this.surface.vline(b.x + b.r, c, mine ? 3 : 2);
    }
  }

  protected override drawOver(): void {
    const f = this.#focus;
    if (!f) return;
    this.surface.ring(f.x, f.y, f.r - 3, FOCUS, 5);
  }

  panel(): void {
    this.#strip.update(
      this.#order.map((ref) => {
        const ball = this.ballAtSlot(ref >>> 1);
        return { ref, ball, color: this.#focus ? this.#edgeColor(ball) : ball.color };
      }),
      (b) => this.nameOf(b),
    );
    const pairs = this.world!.pairs;
    const names: string[] = [];
    for (let i = 0; i < pairs.length; i += 2) {
      names.push(`${this.nameOf(this.ballOf(pairs[i]!))} and ${this.nameOf(this.ballOf(pairs[i + 1]!))}`);
    }
    const said = this.#focus
      ? `${this.#inside.size} of the balls inside the span of the highlighted ball.`
      : `Overlapping on x: ${names.length ? names.join(', ') : 'none'}.`;
    if (this.#said.textContent !== said) this.#said.textContent = said;
  }

  override stats(): Stat[] {
    const c = this.world!.counters;
    return [
      { key: 'frame', label: 'frame', value: this.step },
      { key: 'candidates', label: 'x-overlapping pairs, last update', value: c.pairs },
      { key: 'swaps', label: 'endpoint swaps, last update', value: c.endpointSwaps },
      ...(this.#focus ? [{ key: 'inside', label: 'balls inside the span', value: this.#inside.size }] : []),
    ];
  }
}

export const createScene: CreateScene = (canvas, setup) => new Edges(canvas, setup);
