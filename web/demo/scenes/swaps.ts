// Chapter 11: swaps are events. An insertion sort of the edge array (a plain JS loop) keeps a persistent map of
// x-overlapping pairs: when a right edge is passed by a left edge moving west, a pair begins; when a left edge is
// passed by a right edge, a pair ends. The engine (a 1D World) reports began and ended for the same moves, shown
// alongside so the two can be compared.
import { BallScene, type CreateScene, type SceneSetup, type Stat } from '../scene.js';
import type { Surface } from '../draw.js';
import type { Ball } from '../sim.js';
import { BEGAN, BEGAN_GLYPH, ENDED, ENDED_GLYPH, LINK } from '../palette.js';
import { EdgeStrip } from '../strip.js';

const EVENT_MS = 350;
const LOG_LINES = 7;

interface Edge {
  ball: Ball;
  isLeft: boolean;
  x: number;
}

class Swaps extends BallScene {
  readonly edges: Edge[];
  readonly overlapping = new Map<string, [Ball, Ball]>();
  began = 0;
  ended = 0;
  swaps = 0;
  flash: { a: Edge; b: Edge; color: string } | undefined;
  readonly #log: HTMLOListElement;
  readonly #strip: EdgeStrip;
  readonly #summary: HTMLElement;
  #lines: Array<{ text: string; kind: string }> = [];
  engineBegan = 0;
  engineEnded = 0;
  /** The last complete pass: JS events and the engine's for the same move (a held comparison). */
  held:
    | { began: number; ended: number; engineBegan: number; engineEnded: number; overlaps: number; enginePairs: number }
    | undefined;

  constructor(surface: Surface, setup: SceneSetup) {
    super(surface, setup);
    this.syncEveryStep = false; // the engine moves in step with the JS sort, so their events line up
    // every edge starts at its ball's centre: the first sort discovers each initial overlap as a "began" swap
    this.edges = this.balls.flatMap((ball) => [
      { ball, isLeft: true, x: ball.x },
      { ball, isLeft: false, x: ball.x },
    ]);
    this.edges.sort((p, q) => p.x - q.x);
    const world = this.useWorld(1);
    for (const b of this.balls) world.setBox(b.id, [b.x], [b.x]);
    world.update();
    this.#strip = new EdgeStrip(setup.panel, 'The JS edge array (the two edges of a swap are boxed)', setup.link);
    const title = document.createElement('div');
    title.className = 'panel-title';
    title.textContent = 'Events from swaps (JS) and from the engine';
    this.#summary = document.createElement('div');
    this.#summary.className = 'event-summary';
    this.#log = document.createElement('ol');
    this.#log.className = 'event-log';
    setup.panel.append(title, this.#summary, this.#log);
  }

  #key(a: Ball, b: Ball): string {
    const i = this.balls.indexOf(a);
    const j = this.balls.indexOf(b);
    return i < j ? `${i}-${j}` : `${j}-${i}`;
  }

  #event(kind: 'began' | 'ended', a: Ball, b: Ball): void {
    const [p, q] = this.balls.indexOf(a) < this.balls.indexOf(b) ? [a, b] : [b, a];
    this.#lines.unshift({ text: `frame ${this.step}: ${this.nameOf(p)}–${this.nameOf(q)} ${kind}`, kind });
    this.#lines.length = Math.min(this.#lines.length, LOG_LINES);
  }

  protected *detect(): Generator<number, void, void> {
    const e = this.edges;
    this.began = this.ended = this.swaps = 0;
    for (let i = 1; i < e.length; i++) {
      const edge = e[i]!;
      edge.x = edge.isLeft ? edge.ball.x - edge.ball.r : edge.ball.x + edge.ball.r;
      for (let j = i; j > 0; j--) {
        const west = e[j - 1]!;
        west.x = west.isLeft ? west.ball.x - west.ball.r : west.ball.x + west.ball.r;
        if (west.x <= edge.x) break;
        e[j - 1] = edge;
        e[j] = west;
        this.swaps++;
        if (edge.ball === west.ball) continue;
        if (edge.isLeft && !west.isLeft) {
          // a left edge moved west past a right edge: ")(" became "()": entering
          this.overlapping.set(this.#key(edge.ball, west.ball), [west.ball, edge.ball]);
          this.began++;
          this.#event('began', west.ball, edge.ball);
          this.flash = { a: edge, b: west, color: BEGAN };
          yield EVENT_MS;
        } else if (!edge.isLeft && west.isLeft) {
          // a right edge moved west past a left edge: exiting
          this.overlapping.delete(this.#key(edge.ball, west.ball));
          this.ended++;
          this.#event('ended', west.ball, edge.ball);
          this.flash = { a: edge, b: west, color: ENDED };
          yield EVENT_MS;
        }
      }
    }
    this.flash = undefined;
    const world = this.syncWorld();
    this.engineBegan = world.counters.began;
    this.engineEnded = world.counters.ended;
    this.held = {
      began: this.began,
      ended: this.ended,
      engineBegan: this.engineBegan,
      engineEnded: this.engineEnded,
      overlaps: this.overlapping.size,
      enginePairs: world.counters.pairs,
    };
    for (const [a, b] of this.overlapping.values()) yield* this.check(a, b);
  }

  protected override drawUnder(): void {
    const g = this.surface;
    for (const e of this.edges) {
      const lit = this.flash && (this.flash.a === e || this.flash.b === e);
      const mine = e.ball === this.setup.link.ball;
      g.vline(e.x, lit ? this.flash!.color : mine ? LINK : '#555', lit ? 4 : mine ? 3 : 1.5, lit ? [] : [6, 6]);
    }
    if (this.flash) {
      const { a, b, color } = this.flash;
      const x = (a.x + b.x) / 2;
      g.text(color === BEGAN ? `${BEGAN_GLYPH} began` : `${ENDED_GLYPH} ended`, x, 20, color, 18, 'center', '700');
    }
  }

  panel(): void {
    const f = this.flash;
    const ref = (e: Edge): number => (this.balls.indexOf(e.ball) << 1) | (e.isLeft ? 0 : 1);
    const marked = new Map<number, string>(
      f
        ? [
            [ref(f.a), f.color],
            [ref(f.b), f.color],
          ]
        : [],
    );
    this.#strip.update(
      this.edges.map((e) => ({ ref: ref(e), ball: e.ball, color: e.ball.color })),
      (b) => this.nameOf(b),
      marked,
    );
    const h = this.held;
    const same = (p: number, q: number): string => (p === q ? '=' : '≠');
    const html =
      `this pass so far (JS) — swaps: <b>${this.swaps}</b>, <b class="began">${BEGAN_GLYPH} ${this.began} began</b> <b class="ended">${ENDED_GLYPH} ${this.ended} ended</b><br>` +
      (h
        ? `last complete pass, JS vs engine: <b class="began">${BEGAN_GLYPH} ${h.began} ${same(h.began, h.engineBegan)} ${h.engineBegan} began</b> ` +
          `<b class="ended">${ENDED_GLYPH} ${h.ended} ${same(h.ended, h.engineEnded)} ${h.engineEnded} ended</b>`
        : 'last complete pass: none yet');
    if (this.#summary.innerHTML !== html) this.#summary.innerHTML = html;
    this.#summary.dataset.held = h ? `${h.began},${h.ended}=${h.engineBegan},${h.engineEnded}` : '';
    this.#log.replaceChildren(
      ...this.#lines.map((l) => {
        const li = document.createElement('li');
        li.className = l.kind;
        li.textContent = `${l.kind === 'began' ? BEGAN_GLYPH : ENDED_GLYPH} ${l.text}`;
        return li;
      }),
    );
  }

  override stats(): Stat[] {
    const h = this.held;
    return [
      ...super.stats(),
      { key: 'swaps', label: 'sort swaps, this pass so far', value: this.swaps },
      { key: 'overlapsX', label: 'x-overlaps kept, this pass so far', value: this.overlapping.size },
      // the engine updates once per pass, at its end: its count is held beside the JS count of that same moment
      {
        key: 'candidates',
        label: 'x-overlaps, last complete pass: JS vs engine',
        value: h ? `${h.overlaps} ${h.overlaps === h.enginePairs ? '=' : '≠'} ${h.enginePairs}` : '–',
      },
    ];
  }
}

export const createScene: CreateScene = (canvas, setup) => new Swaps(canvas, setup);
