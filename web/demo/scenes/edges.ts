// Chapter 6: every ball contributes two edges to one sorted list. The list shown under the canvas is the engine's
// own sorted endpoint list for the x axis (world.endpoints(0)); with data-focus the largest ball's span of that list
// is highlighted.
import { slotOf } from 'sweep-prune';
import { BallScene, type CreateScene, type SceneSetup, type Stat } from '../scene.js';
import type { Surface } from '../draw.js';
import type { Ball } from '../sim.js';
import { FOCUS, INSIDE, MUTED } from '../palette.js';

class Edges extends BallScene {
  readonly #strip: HTMLElement;
  readonly #glyphs = new Map<number, HTMLElement>();
  readonly #focus: Ball | undefined;
  #inside = new Set<Ball>();
  #order: number[] = [];
  /** Which balls overlap on x, in words, for screen readers: rewritten only when it changes. */
  readonly #said: HTMLElement;

  constructor(surface: Surface, setup: SceneSetup) {
    super(surface, setup);
    this.useWorld(1);
    if (setup.options.data.focus !== undefined) {
      this.#focus = this.balls.reduce((m, b) => (b.r > m.r ? b : m));
    }
    const title = document.createElement('div');
    title.className = 'panel-title';
    title.textContent = 'Sorted array of edges (the engine’s x endpoint list)';
    this.#strip = document.createElement('div');
    this.#strip.className = 'strip';
    this.#strip.setAttribute('role', 'list');
    this.#said = document.createElement('p');
    this.#said.className = 'sr-only';
    this.#said.setAttribute('aria-live', 'polite');
    setup.panel.append(title, this.#strip, this.#said);
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
      const c = this.#edgeColor(b);
      this.surface.vline(b.x - b.r, c, 2);
      this.surface.vline(b.x + b.r, c, 2);
    }
  }

  protected override drawOver(): void {
    const f = this.#focus;
    if (!f) return;
    this.surface.ring(f.x, f.y, f.r - 3, FOCUS, 5);
  }

  panel(): void {
    const n = this.#order.length;
    this.#order.forEach((ref, i) => {
      let g = this.#glyphs.get(ref);
      const ball = this.ballAtSlot(ref >>> 1);
      if (!g) {
        g = document.createElement('span');
        g.setAttribute('role', 'listitem');
        g.textContent = ref & 1 ? ')' : '(';
        g.title = `${ref & 1 ? 'right' : 'left'} edge of ball ${this.balls.indexOf(ball) + 1}`;
        this.#glyphs.set(ref, g);
        this.#strip.append(g);
      }
      g.style.left = `${((i + 0.5) / n) * 100}%`;
      g.style.color = this.#focus ? this.#edgeColor(ball) : ball.color;
    });
    this.#strip.dataset.order = this.#order.join(',');
    const pairs = this.world!.pairs;
    const names: string[] = [];
    for (let i = 0; i < pairs.length; i += 2) {
      names.push(`${this.balls.indexOf(this.ballOf(pairs[i]!)) + 1} and ${this.balls.indexOf(this.ballOf(pairs[i + 1]!)) + 1}`);
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
      { key: 'candidates', label: 'x-overlapping pairs', value: c.pairs },
      { key: 'swaps', label: 'endpoint swaps', value: c.endpointSwaps },
      ...(this.#focus ? [{ key: 'inside', label: 'balls inside the span', value: this.#inside.size }] : []),
    ];
  }
}

export const createScene: CreateScene = (canvas, setup) => new Edges(canvas, setup);
