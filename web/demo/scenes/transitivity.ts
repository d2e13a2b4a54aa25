// Chapter 3: why sorting helps. Three draggable balls A, B, C and a live readout of the comparisons that let a
// sorted scan skip intersects(A, C). Under the balls each one's x-interval is a bar on an axis; the edges each
// output line compares are marked in that line's colour, and A-C is joined by a grey dashed "skipped" link when
// the deduction holds. The engine keeps the three boxes and reports which actually overlap.
import { BallScene, type CreateScene, type SceneSetup, type Stat } from '../scene.js';
import type { Surface } from '../draw.js';
import type { Ball } from '../sim.js';
import { intersects } from '../sim.js';
import { BEGAN, ENDED, LINK, MUTED } from '../palette.js';

/** The colours of the two comparisons (output lines 2 and 3) and their marks on the axis. */
const AB = BEGAN;
const BC = ENDED;
/** The axis strip at the bottom of the canvas: the bars' first lane and the lane spacing. */
const AXIS_Y = 405;
const LANE = 16;

const SAY: Record<string, string> = {
  unsorted: 'Not sorted by left edge: no deduction.',
  skip: 'A ends before B starts: intersects(A, C) is false without testing it.',
  test: 'A reaches past the left edge of B: intersects(A, C) has to be tested.',
};

const left = (b: Ball): number => b.x - b.r;
const right = (b: Ball): number => b.x + b.r;

class Transitivity extends BallScene {
  readonly #out: HTMLElement;
  /** The verdict in one sentence, for screen readers: rewritten (and so announced) only when it changes. */
  readonly #said: HTMLElement;

  constructor(surface: Surface, setup: SceneSetup) {
    super(surface, setup);
    this.useWorld(2);
    this.#out = document.createElement('pre');
    this.#out.className = 'live-output';
    const head = document.createElement('div');
    head.className = 'panel-title';
    head.textContent = 'Live output';
    this.#said = document.createElement('p');
    this.#said.className = 'sr-only';
    this.#said.setAttribute('aria-live', 'polite');
    setup.panel.append(head, this.#out, this.#said);
  }

  protected *detect(): Generator<number, void, void> {
    // nothing is tested here: the point is the reasoning in the panel
  }

  panel(): void {
    const [a, b, c] = this.balls as [Ball, Ball, Ball];
    const fmt = (v: boolean): string => `<b class="${v}">${v}</b>`;
    const sorted = left(a) <= left(b) && left(b) <= left(c);
    const ab = right(a) > left(b);
    const bc = right(b) > left(c);
    const lines = [
      `  A.left ≤ B.left ≤ C.left  is ${fmt(sorted)}`,
      `<span class="cmp-ab">■</span> A.right > B.left          is ${fmt(ab)}`,
      `<span class="cmp-bc">■</span> B.right > C.left          is ${fmt(bc)}`,
      '',
    ];
    let verdict: string;
    if (!sorted) {
      lines.push(
        '<span class="note">Not sorted by left edge: no deduction.</span>',
        '<span class="note">Drag the balls into the order A, B, C.</span>',
      );
      verdict = 'unsorted';
    } else if (!ab) {
      lines.push(
        'A ends before B starts, and C starts after B.',
        '<b class="true">Deduce: intersects(A, C) is false. Skip it.</b>',
      );
      verdict = 'skip';
    } else {
      lines.push(`A reaches past B.left: can't skip.`, `intersects(A, C) returns ${fmt(intersects(a, c))}`);
      verdict = 'test';
    }
    const html = lines.join('\n');
    if (this.#out.innerHTML !== html) this.#out.innerHTML = html;
    if (this.#out.dataset.verdict !== verdict) this.#said.textContent = SAY[verdict] ?? verdict;
    this.#out.dataset.verdict = verdict;
    this.#out.dataset.ab = String(ab);
  }

  get verdict(): 'unsorted' | 'skip' | 'test' {
    const [a, b, c] = this.balls as [Ball, Ball, Ball];
    if (!(left(a) <= left(b) && left(b) <= left(c))) return 'unsorted';
    return right(a) > left(b) ? 'test' : 'skip';
  }

  /** The reasoning drawn: the intervals on an axis, the compared edges, the A-C link and the verdict. */
  protected override drawOver(): void {
    const g = this.surface;
    const [a, b, c] = this.balls as [Ball, Ball, Ball];
    const verdict = this.verdict;
    // A-C: skipped (grey, dashed) when deduced, tested (solid) otherwise
    const mx = (a.x + c.x) / 2;
    const my = (a.y + c.y) / 2;
    if (verdict === 'skip') {
      g.line(a.x, a.y, c.x, c.y, MUTED, 2, [8, 7]);
      g.text('A–C skipped', mx, my - 14, MUTED, 14, 'center', '600');
    } else if (verdict === 'test') {
      const hit = intersects(a, c);
      g.line(a.x, a.y, c.x, c.y, '#ddd', 2, hit ? undefined : [3, 5]);
      g.text(`A–C tested: ${hit}`, mx, my - 14, '#ddd', 14, 'center', '600');
    }
    // the axis and one bar per interval, in lanes
    const top = AXIS_Y;
    g.line(0, top - 10, g.width, top - 10, MUTED, 1);
    g.text('x', g.width - 8, top - 18, MUTED, 12, 'right');
    this.balls.forEach((ball, k) => {
      const y = top + k * LANE;
      if (ball === this.setup.link.ball) g.line(left(ball) - 2, y, right(ball) + 2, y, LINK, 10);
      g.line(left(ball), y, right(ball), y, ball.color, 6);
      g.text(ball.label ?? '', left(ball) - 8, y, ball.color, 12, 'right', '700');
    });
    // the compared edges: A.right against B.left, B.right against C.left, joined across the lanes
    const mark = (x: number, y0: number, y1: number, color: string): void => g.line(x, y0, x, y1, color, 3);
    const pair = (p: number, q: number, xp: number, xq: number, color: string): void => {
      const yp = top + p * LANE;
      const yq = top + q * LANE;
      mark(xp, yp - 7, yp + 7, color);
      mark(xq, yq - 7, yq + 7, color);
      g.line(xp, yp, xq, yq, color, 1.5, [3, 3]);
    };
    pair(0, 1, right(a), left(b), AB);
    pair(1, 2, right(b), left(c), BC);
    const say =
      verdict === 'skip'
        ? 'A ends before B starts: skip A–C'
        : verdict === 'test'
          ? 'A reaches past B.left: test A–C'
          : 'not in A, B, C order: no deduction';
    g.text(say, 10, 16, verdict === 'skip' ? AB : verdict === 'test' ? '#ddd' : ENDED, 15, 'left', '700');
    this.surface.canvas.dataset.verdict = verdict;
  }

  override stats(): Stat[] {
    const pairs = this.world!.pairs;
    const names: string[] = [];
    for (let i = 0; i < pairs.length; i += 2)
      names.push(`${this.ballOf(pairs[i]!).label}–${this.ballOf(pairs[i + 1]!).label}`);
    return [
      { key: 'frame', label: 'frame', value: this.step },
      { key: 'candidates', label: 'engine: overlapping boxes, last update', value: names.join(' ') || 'none' },
    ];
  }
}

export const createScene: CreateScene = (canvas, setup) => new Transitivity(canvas, setup);
