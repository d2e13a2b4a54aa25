// Chapter 3: why sorting helps. Three draggable balls A, B, C and a live readout of the comparisons that let a
// sorted scan skip intersects(A, C). The engine keeps the three boxes and reports which actually overlap.
import { BallScene, type CreateScene, type SceneSetup, type Stat } from '../scene.js';
import type { Surface } from '../draw.js';
import type { Ball } from '../sim.js';
import { intersects } from '../sim.js';

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
      `A.left ≤ B.left ≤ C.left  is ${fmt(sorted)}`,
      `A.right > B.left          is ${fmt(ab)}`,
      `B.right > C.left          is ${fmt(bc)}`,
      '',
    ];
    let verdict: string;
    if (!sorted) {
      lines.push('<span class="note">Not sorted by left edge: no deduction.</span>', '<span class="note">Drag the balls into the order A, B, C.</span>');
      verdict = 'unsorted';
    } else if (!ab) {
      lines.push('A ends before B starts, and C starts after B.', '<b class="true">Deduce: intersects(A, C) is false. Skip it.</b>');
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

  override stats(): Stat[] {
    const pairs = this.world!.pairs;
    const names: string[] = [];
    for (let i = 0; i < pairs.length; i += 2) names.push(`${this.ballOf(pairs[i]!).label}–${this.ballOf(pairs[i + 1]!).label}`);
    return [
      { key: 'frame', label: 'frame', value: this.step },
      { key: 'candidates', label: 'engine: overlapping boxes', value: names.join(' ') || 'none' },
    ];
  }
}

export const createScene: CreateScene = (canvas, setup) => new Transitivity(canvas, setup);
