// Chapter 17: the drop-in at work. A Phaser Arcade or matter-js scene runs twice from one seed, once on the engine's
// own broadphase and once on sweep-prune's adapter (engine-twins.ts): both are stepped each frame, in turns, and the
// figure shows each one's milliseconds per step and the collisions each reported, which must be equal, as must
// their bodies. The engines are downloaded when the figure is first built (near the screen), never before.
import { typical } from '../times.js';
import { choice, slider } from '../controls.js';
import type { Surface } from '../draw.js';
import { RANGES, Role, WORLD, makeTwins, type TwinKind, type TwinScene } from '../engine-twins.js';
import { MUTED } from '../palette.js';
import type { CreateScene, Scene, SceneSetup, Stat } from '../scene.js';

const KINDS: Record<TwinKind, string> = {
  bullets: 'Phaser: bullets against a crowd',
  swarm: 'Phaser: a group against itself',
  matter: 'matter-js: a level of platforms',
};
const LOADING: Record<TwinKind, string> = {
  bullets: 'Loading Phaser and sweep-prune/phaser…',
  swarm: 'Loading Phaser and sweep-prune/phaser…',
  matter: 'Loading matter-js and sweep-prune/matter…',
};
const PHASER_MODES = {
  walk: 'useTree: false (every pair walked)',
  tree: 'its R-tree (Phaser’s default)',
};
/** Steps whose times make the medians and spreads shown. */
const WINDOW = 60;
const SEED = 17;
const ROLE_COLOURS = ['#fc5', '#f77', '#59617a'];
/** The two panes of the canvas: the engine's own broadphase on the left, the adapter on the right. */
const PANE = { top: 30, width: 292, gap: 16 };

/** One world's record since the scene was built. */
class Tally {
  readonly times: number[] = [];
  collisions = 0;
  total = 0;
  /** The collisions as of the last step both worlds made (what the table shows, so that the two rows agree). */
  shown = { collisions: 0, total: 0 };

  add(ms: number, collisions: number): void {
    this.times.push(ms);
    if (this.times.length > WINDOW) this.times.shift();
    this.collisions = collisions;
    this.total += collisions;
  }

  settle(): void {
    this.shown = { collisions: this.collisions, total: this.total };
  }

  get ms(): number {
    return this.times.length ? typical(this.times) : NaN;
  }

  /** The middle half of the last steps' times (first to third quartile). */
  get spread(): [number, number] {
    const s = [...this.times].sort((a, b) => a - b);
    return [s[Math.floor(s.length / 4)] ?? NaN, s[Math.floor((3 * s.length) / 4)] ?? NaN];
  }
}

class Engines implements Scene {
  readonly balls = [];
  readonly draggable = false;
  readonly still = false;
  step = 0;
  readonly kind: TwinKind;
  readonly n: number;
  /** Phaser's own world searches its R-tree (its default) instead of walking every pair. */
  readonly tree: boolean;
  #twins: TwinScene | undefined;
  #error = '';
  #disposed = false;
  #own = new Tally();
  #ours = new Tally();
  /** Steps at which the two worlds' collisions, or their bodies, differed (0 while the adapter is exact). */
  #collisionsDiffered = 0;
  /** Steps made by the two worlds together (each world's step is half of a step of both). */
  #half = 0;
  #bodiesDiffered = 0;
  readonly #table: HTMLTableElement;
  readonly #verdict: HTMLParagraphElement;

  constructor(
    readonly surface: Surface,
    setup: SceneSetup,
  ) {
    // the choices live on the figure, so Restart builds the same scene again
    const figure = setup.panel.closest('figure')!;
    const data = figure.dataset;
    this.kind = (data.engine as TwinKind | undefined) ?? 'bullets';
    const range = RANGES[this.kind];
    this.n = Math.min(range.max, Math.max(range.min, Number(data.n ?? range.value)));
    const bar = document.createElement('div');
    bar.className = 'scale-bar engines-bar';
    const { label: choose, select } = choice('Scene', KINDS, this.kind, 'engine');
    // a new scene starts at its own default N
    select.addEventListener('change', () => {
      data.engine = select.value;
      delete data.n;
      figure.querySelector<HTMLButtonElement>('[data-action=restart]')?.click();
    });
    const count = slider(
      { ...range, value: this.n, knob: 'n', say: (v) => `N = ${v.toLocaleString('en-US')} bodies` },
      () => {},
      (v) => {
        data.n = String(v);
        figure.querySelector<HTMLButtonElement>('[data-action=restart]')?.click();
      },
    );
    bar.append(choose, count);
    this.tree = data.tree === 'tree' && this.kind !== 'matter';
    if (this.kind !== 'matter') {
      const { label, select: mode } = choice('Phaser’s own', PHASER_MODES, this.tree ? 'tree' : 'walk', 'tree');
      mode.addEventListener('change', () => {
        data.tree = mode.value;
        figure.querySelector<HTMLButtonElement>('[data-action=restart]')?.click();
      });
      bar.append(label);
    }
    this.#table = document.createElement('table');
    this.#table.className = 'bench-table engines-table';
    this.#verdict = document.createElement('p');
    this.#verdict.className = 'scale-readout engines-verdict';
    setup.panel.append(bar, this.#table, this.#verdict);
    makeTwins(this.kind, this.n, SEED, this.tree).then(
      (twins) => {
        if (this.#disposed) {
          twins.own.dispose();
          twins.ours.dispose();
        } else {
          this.#twins = twins;
          this.draw(); // a paused figure shows the worlds at once
          this.panel();
        }
      },
      (e: unknown) => {
        this.#error = `The engines could not start: ${(e as Error).message}`;
        this.draw();
        this.panel();
        console.error(e);
      },
    );
  }

  get ready(): boolean {
    return this.#twins !== undefined;
  }

  /**
   * One world's step per frame, so that no task holds both: the worlds take turns, each pair of steps started by
   * the other one, so both see the same phases of a busy machine. `step` counts the steps both have made.
   */
  *frame(): Generator<number, void, void> {
    const t = this.#twins;
    if (!t) return;
    const ownFirst = (this.#half >> 1) % 2 === 0;
    const own = this.#half % 2 === 0 ? ownFirst : !ownFirst;
    const [world, tally] = own ? [t.own, this.#own] : [t.ours, this.#ours];
    tally.add(world.step(), world.collisions);
    if (++this.#half % 2) return;
    this.step++;
    this.#own.settle();
    this.#ours.settle();
    if (t.own.collisions !== t.ours.collisions) this.#collisionsDiffered++;
    if (t.own.fingerprint() !== t.ours.fingerprint()) this.#bodiesDiffered++;
  }

  draw(): void {
    const g = this.surface;
    const { ctx } = g;
    g.clear();
    const t = this.#twins;
    if (!t) {
      g.text(this.#error || LOADING[this.kind], g.width / 2, g.height / 2, MUTED, 16);
      if (!this.#error) {
        // a bar runs under the text while the engines download (a megabyte and more, on a slow network seconds)
        const x = ((performance.now() / 4) % (g.width + 120)) - 120;
        ctx.fillStyle = MUTED;
        ctx.fillRect(x, g.height / 2 + 22, 120, g.stroke(3));
      }
      return;
    }
    const s = PANE.width / WORLD.width;
    const h = WORLD.height * s;
    const panes: Array<[string, typeof t.own]> = [
      [t.ownName, t.own],
      ['sweep-prune', t.ours],
    ];
    panes.forEach(([name, world], i) => {
      const x0 = i * (PANE.width + PANE.gap);
      g.text(name, x0 + PANE.width / 2, PANE.top / 2, '#ddd', 14, 'center', '600');
      ctx.strokeStyle = MUTED;
      ctx.lineWidth = g.stroke(1);
      ctx.strokeRect(x0, PANE.top, PANE.width, h);
      const r = world.rects();
      const least = g.stroke(1.2);
      for (let k = 0; k < r.length; k += 5) {
        ctx.fillStyle = ROLE_COLOURS[r[k + 4]!]!;
        const w = Math.max(least, r[k + 2]! * s);
        const hh = Math.max(r[k + 4] === Role.Static ? g.stroke(1) : least, r[k + 3]! * s);
        ctx.fillRect(x0 + r[k]! * s, PANE.top + r[k + 1]! * s, w, hh);
      }
    });
  }

  panel(): void {
    const t = this.#twins;
    const ms = (x: number): string => (Number.isFinite(x) ? x.toFixed(x < 10 ? 2 : 1) : '–');
    const row = (name: string, tally: Tally): string => {
      const [lo, hi] = tally.spread;
      return (
        `<tr><th scope="row">${name}</th><td>${ms(tally.ms)}</td><td>${ms(lo)}–${ms(hi)}</td>` +
        `<td>${tally.shown.collisions.toLocaleString('en-US')}</td><td>${tally.shown.total.toLocaleString('en-US')}</td></tr>`
      );
    };
    const html =
      `<caption>${t ? `${t.n.toLocaleString('en-US')} bodies, ${this.step} steps of each world; ms: the median of the last ${WINDOW} steps` : 'starting'}</caption>` +
      '<thead><tr><th scope="col">broadphase</th><th scope="col">ms / step</th><th scope="col">middle half</th>' +
      '<th scope="col">collisions, last step</th><th scope="col">in all</th></tr></thead>' +
      `<tbody>${row(t?.ownName ?? 'the engine’s own', this.#own)}${row('sweep-prune', this.#ours)}</tbody>`;
    if (this.#table.innerHTML !== html) this.#table.innerHTML = html;
    const d = this.#table.dataset;
    d.steps = String(this.step);
    d.ownTotal = String(this.#own.shown.total);
    d.oursTotal = String(this.#ours.shown.total);
    d.collisionsDiffered = String(this.#collisionsDiffered);
    d.bodiesDiffered = String(this.#bodiesDiffered);
    d.ownMs = String(this.#own.ms);
    d.oursMs = String(this.#ours.ms);
    if (!t || this.step === 0) {
      this.#verdict.textContent = this.#error;
      return;
    }
    const ratio = this.#own.ms / this.#ours.ms;
    const same =
      this.#collisionsDiffered === 0 && this.#bodiesDiffered === 0
        ? `the same collisions and the same bodies at every one of the ${this.step} steps`
        : `collisions differed at ${this.#collisionsDiffered} steps and bodies at ${this.#bodiesDiffered}` +
          (this.tree ? ' (Phaser’s R-tree separates the pairs in another order, so its bodies take other paths)' : '');
    const speed = !Number.isFinite(ratio)
      ? ''
      : ratio >= 1.05
        ? `sweep-prune's step takes ${ms(this.#ours.ms)} ms where the engine's own takes ${ms(this.#own.ms)}: ${ratio.toFixed(1)}× faster`
        : ratio > 1 / 1.05
          ? `both steps take about as long (${ratio.toFixed(2)}×): at this N the engine's own broadphase is no bottleneck`
          : `sweep-prune's step is slower here (${ratio.toFixed(2)}×)`;
    this.#verdict.textContent = `${same}; ${speed}.`;
    this.#verdict.dataset.ratio = String(ratio);
  }

  stats(): Stat[] {
    return [
      { key: 'frame', label: 'steps', value: this.step },
      { key: 'bodies', label: 'bodies per world', value: this.n },
    ];
  }

  dispose(): void {
    this.#disposed = true;
    this.#twins?.own.dispose();
    this.#twins?.ours.dispose();
    this.#twins = undefined;
  }
}

export const createScene: CreateScene = (canvas, setup) => new Engines(canvas, setup);
