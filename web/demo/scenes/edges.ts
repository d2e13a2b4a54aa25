// Chapter 6: every ball contributes two edges to one sorted list. The list shown under the canvas is the engine's
// own sorted endpoint list for the x axis (world.endpoints(0)). With data-focus one ball's span of that list is
// highlighted (the largest, or the ball the reader picks), and the balls that overlap it on x with both edges
// outside the span, which reading the span misses, are drawn as missed.
import { slotOf } from 'sweep-prune';
import { BallScene, type CreateScene, type SceneSetup, type Stat } from '../scene.js';
import type { Surface } from '../draw.js';
import type { Ball } from '../sim.js';
import { ENDED, FOCUS, INSIDE, LINK, MUTED } from '../palette.js';
import { EdgeStrip } from '../strip.js';

class Edges extends BallScene {
  readonly #strip: EdgeStrip;
  /** The largest ball: the focus until the reader picks another. */
  readonly #largest: Ball | undefined;
  #inside = new Set<Ball>();
  /** Balls overlapping the focus on x (the engine's pairs) that are not inside its span: the scan's blind spot. */
  #missed = new Set<Ball>();
  #order: number[] = [];
  /** Which balls overlap on x, in words, for screen readers: rewritten only when it changes. */
  readonly #said: HTMLElement;

  constructor(surface: Surface, setup: SceneSetup) {
    super(surface, setup);
    this.labelAll(); // the balls carry the names of their edges in the strip
    this.useWorld(1);
    if (setup.options.data.focus !== undefined) {
      this.#largest = this.balls.reduce((m, b) => (b.r > m.r ? b : m));
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

  /** The focus ball: the one the reader picked (a click, a tap, a key), else the largest. */
  get #focus(): Ball | undefined {
    if (!this.#largest) return undefined;
    const picked = this.setup.link.pinned;
    return picked && this.balls.includes(picked) ? picked : this.#largest;
  }

  protected *detect(): Generator<number, void, void> {
    const { refs } = this.world!.endpoints(0);
    this.#order = Array.from(refs);
    this.#inside = new Set();
    this.#missed = new Set();
    const f = this.#focus;
    if (!f) return;
    const from = this.#order.indexOf(slotOf(f.id) << 1);
    const to = this.#order.indexOf((slotOf(f.id) << 1) | 1);
    for (let i = from + 1; i < to; i++) this.#inside.add(this.ballAtSlot(this.#order[i]! >>> 1));
    // what really overlaps the focus on x: the engine's pairs (a 1D world reports x overlaps)
    const pairs = this.world!.pairs;
    for (let i = 0; i < pairs.length; i += 2) {
      const [a, b] = [this.ballOf(pairs[i]!), this.ballOf(pairs[i + 1]!)];
      const other = a === f ? b : b === f ? a : undefined;
      if (other && !this.#inside.has(other)) this.#missed.add(other);
    }
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
    const g = this.surface;
    g.ring(f.x, f.y, f.r - 3, FOCUS, 5);
    // the blind spot: a ball covering the focus on x with both edges outside its span
    for (const b of this.#missed) {
      g.vline(b.x - b.r, ENDED, 3, [10, 6]);
      g.vline(b.x + b.r, ENDED, 3, [10, 6]);
      g.ring(b.x, b.y, b.r + 5, ENDED, 3, [6, 4]);
      // the note stays inside the canvas: anchored at the ball's side nearer the middle
      const [x, align]: [number, CanvasTextAlign] =
        b.x > g.width * 0.7 ? [b.x + b.r, 'right'] : b.x < g.width * 0.3 ? [b.x - b.r, 'left'] : [b.x, 'center'];
      g.text(
        `missed: ${this.nameOf(b)} covers ${this.nameOf(f)}`,
        x,
        Math.max(14, b.y - b.r - 14),
        ENDED,
        14,
        align,
        '700',
      );
    }
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
    const f = this.#focus;
    const missed = [...this.#missed].map((b) => this.nameOf(b));
    const said = f
      ? `${this.#inside.size} of the balls inside the span of ball ${this.nameOf(f)}` +
        (missed.length ? `; missed by the span, though overlapping it on x: ${missed.join(', ')}.` : '.')
      : `Overlapping on x: ${names.length ? names.join(', ') : 'none'}.`;
    if (this.#said.textContent !== said) this.#said.textContent = said;
    const d = this.surface.canvas.dataset;
    d.focus = f ? String(this.balls.indexOf(f)) : '';
    d.inside = [...this.#inside]
      .map((b) => this.balls.indexOf(b))
      .sort((p, q) => p - q)
      .join(',');
    d.missed = [...this.#missed]
      .map((b) => this.balls.indexOf(b))
      .sort((p, q) => p - q)
      .join(',');
  }

  override stats(): Stat[] {
    const c = this.world!.counters;
    return [
      { key: 'frame', label: 'frame', value: this.step },
      { key: 'candidates', label: 'x-overlapping pairs, last update', value: c.pairs },
      { key: 'swaps', label: 'endpoint swaps, last update', value: c.endpointSwaps },
      ...(this.#focus
        ? [
            { key: 'inside', label: 'balls inside the span', value: this.#inside.size },
            { key: 'missed', label: 'overlapping on x, missed by the span', value: this.#missed.size },
          ]
        : []),
    ];
  }
}

export const createScene: CreateScene = (canvas, setup) => new Edges(canvas, setup);
