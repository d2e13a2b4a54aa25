// Chapter 11's four swap cases, one at a time: two balls whose x edges form a four-edge array. Dragging one ball
// past the other makes its edges pass the other's one by one; each pass is classified the chapter's way ("(" passing
// ")" begins a pair, ")" passing "(" ends it, "((" and "))" change nothing) and set beside the engine's began and
// ended for the same update (a 1D World of the two boxes).
import { BallScene, type CreateScene, type SceneSetup, type Stat } from '../scene.js';
import type { Surface } from '../draw.js';
import type { Ball } from '../sim.js';
import { BEGAN, BEGAN_GLYPH, ENDED, ENDED_GLYPH, LINK, MUTED } from '../palette.js';
import { EdgeStrip } from '../strip.js';

type Case = 'began' | 'ended' | 'nothing';
const LOG_LINES = 6;

interface Edge {
  ball: Ball;
  isLeft: boolean;
}
const edgeX = (e: Edge): number => (e.isLeft ? e.ball.x - e.ball.r : e.ball.x + e.ball.r);
const glyph = (e: Edge): string => (e.isLeft ? '(' : ')');

class SwapCases extends BallScene {
  readonly edges: Edge[];
  /** Every pass seen so far, in order, and the engine's began and ended added up over the same updates. */
  readonly cases: Case[] = [];
  engineBegan = 0;
  engineEnded = 0;
  #last: { a: Edge; b: Edge; kind: Case } | undefined;
  #lines: Array<{ text: string; kind: Case }> = [];
  readonly #strip: EdgeStrip;
  readonly #log: HTMLOListElement;
  readonly #summary: HTMLElement;

  constructor(surface: Surface, setup: SceneSetup) {
    super(surface, setup);
    this.syncEveryStep = false; // one update per frame, in detect(): its began and ended are this frame's
    this.edges = this.balls.flatMap((ball) => [
      { ball, isLeft: true },
      { ball, isLeft: false },
    ]);
    this.edges.sort((p, q) => edgeX(p) - edgeX(q));
    this.useWorld(1);
    this.#strip = new EdgeStrip(setup.panel, 'The four edges, sorted (the last pass boxed)', setup.link);
    this.#summary = document.createElement('div');
    this.#summary.className = 'event-summary';
    this.#log = document.createElement('ol');
    this.#log.className = 'event-log short';
    setup.panel.append(this.#summary, this.#log);
  }

  /** Insertion sort of the four edges: each exchange of edges of different balls is one pass, classified. */
  protected *detect(): Generator<number, void, void> {
    const e = this.edges;
    for (let i = 1; i < e.length; i++) {
      for (let j = i; j > 0 && edgeX(e[j - 1]!) > edgeX(e[j]!); j--) {
        const moving = e[j]!; // moving west
        const passed = e[j - 1]!;
        e[j - 1] = moving;
        e[j] = passed;
        if (moving.ball === passed.ball) continue;
        const kind: Case = moving.isLeft === passed.isLeft ? 'nothing' : moving.isLeft ? 'began' : 'ended';
        this.cases.push(kind);
        this.#last = { a: moving, b: passed, kind };
        const what = kind === 'began' ? `${BEGAN_GLYPH} began` : kind === 'ended' ? `${ENDED_GLYPH} ended` : 'nothing';
        this.#lines.unshift({
          text: `${this.nameOf(moving.ball)}${glyph(moving)} passed ${this.nameOf(passed.ball)}${glyph(passed)}: ${glyph(moving)}${glyph(passed)} → ${what}`,
          kind,
        });
        this.#lines.length = Math.min(this.#lines.length, LOG_LINES);
      }
    }
    const world = this.syncWorld();
    this.engineBegan += world.counters.began;
    this.engineEnded += world.counters.ended;
  }

  protected override drawUnder(): void {
    const g = this.surface;
    const last = this.#last;
    for (const e of this.edges) {
      const lit = last && (last.a === e || last.b === e);
      const mine = e.ball === this.setup.link.ball;
      const color = lit
        ? last.kind === 'began'
          ? BEGAN
          : last.kind === 'ended'
            ? ENDED
            : '#ddd'
        : mine
          ? LINK
          : MUTED;
      g.vline(edgeX(e), color, lit ? 3 : 1.5, lit ? [] : [6, 6]);
      g.text(`${this.nameOf(e.ball)}${glyph(e)}`, edgeX(e), g.height - 14, color, 14, 'center', '700');
    }
  }

  panel(): void {
    const last = this.#last;
    const marked = new Map<number, string>();
    const ref = (e: Edge): number => (this.balls.indexOf(e.ball) << 1) | (e.isLeft ? 0 : 1);
    if (last) {
      const c = last.kind === 'began' ? BEGAN : last.kind === 'ended' ? ENDED : '#ddd';
      marked.set(ref(last.a), c);
      marked.set(ref(last.b), c);
    }
    this.#strip.update(
      this.edges.map((e) => ({ ref: ref(e), ball: e.ball, color: e.ball.color })),
      (b) => this.nameOf(b),
      marked,
    );
    const count = (k: Case): number => this.cases.filter((c) => c === k).length;
    const html =
      `passes so far (JS): <b class="began">${BEGAN_GLYPH} ${count('began')} began</b> <b class="ended">${ENDED_GLYPH} ${count('ended')} ended</b> ` +
      `<b>${count('nothing')} nothing</b> · engine, same updates: <b class="began">${BEGAN_GLYPH} ${this.engineBegan}</b> <b class="ended">${ENDED_GLYPH} ${this.engineEnded}</b>`;
    if (this.#summary.innerHTML !== html) this.#summary.innerHTML = html;
    const d = this.#summary.dataset;
    d.cases = this.cases.join(',');
    d.engineBegan = String(this.engineBegan);
    d.engineEnded = String(this.engineEnded);
    this.#log.replaceChildren(
      ...this.#lines.map((l) => {
        const li = document.createElement('li');
        if (l.kind !== 'nothing') li.className = l.kind;
        li.textContent = l.text;
        return li;
      }),
    );
  }

  override stats(): Stat[] {
    return [
      { key: 'frame', label: 'frame', value: this.step },
      { key: 'candidates', label: 'engine x-overlap pairs, last update', value: this.world!.counters.pairs },
    ];
  }
}

export const createScene: CreateScene = (canvas, setup) => new SwapCases(canvas, setup);
