// The player around every figure: pause, step (one beat), slow motion, restart, option controls, dragging, live
// counters, and the IntersectionObserver that runs only the figures on screen.
import { Surface } from './draw.js';
import type { CreateScene, Scene, SceneOptions, SceneSetup } from './scene.js';
import type { Ball } from './sim.js';

export const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
const SLOW = 4; // slow motion: one frame every 4 animation frames, pauses 4x longer
const STATS_EVERY_MS = 100;

function parseOptions(data: DOMStringMap): SceneOptions {
  const balls = data.balls ?? '5';
  const [checks = '', delay = '200'] = (data.checks ?? '').split(':');
  return {
    balls: balls.trim().startsWith('[') ? (JSON.parse(balls) as Array<[number, number, number]>) : Number(balls),
    seed: Number(data.seed ?? 1),
    skip: Number(data.skip ?? 0),
    checks,
    delay: Number(delay),
    rainbow: data.rainbow !== undefined,
    labels: data.labels ? data.labels.split(',') : [],
    draggable: data.draggable !== undefined,
    still: data.still !== undefined,
    bounce: data.noBounce === undefined,
    data,
  };
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, parent: HTMLElement): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  e.className = cls;
  parent.append(e);
  return e;
}

/** One canvas of a figure and the scene drawing on it. */
class View {
  readonly surface: Surface;
  readonly axis: Surface | undefined;
  readonly stats: HTMLElement;
  readonly panel: HTMLElement;
  scene!: Scene;
  frames = 0;
  #gen: Generator<number, void, void> | undefined;
  #wakeAt = 0;
  #statsAt = 0;
  #held: { ball: Ball; dx: number; dy: number; pointer: number } | undefined;

  constructor(
    readonly root: HTMLElement,
    readonly factory: CreateScene,
    readonly player: Player,
  ) {
    if (root.dataset.title) el('h4', 'view-title', root).textContent = root.dataset.title;
    const canvas = el('canvas', 'sim', root);
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', root.dataset.alt ?? 'animated demo');
    this.surface = new Surface(canvas, Number(root.dataset.width ?? 600), Number(root.dataset.height ?? 400));
    if (root.dataset.axis !== undefined) {
      const axis = el('canvas', 'axis', root);
      axis.setAttribute('aria-hidden', 'true');
      this.axis = new Surface(axis, 600, 84);
    }
    this.panel = el('div', 'panel', root);
    this.stats = el('dl', 'stats', root);
    this.stats.setAttribute('aria-live', 'off');
    this.#listen(canvas);
  }

  build(data: DOMStringMap): void {
    this.scene?.dispose();
    this.panel.replaceChildren();
    const setup: SceneSetup = { options: parseOptions(data), panel: this.panel };
    if (this.axis) setup.axis = this.axis;
    this.scene = this.factory(this.surface, setup);
    this.surface.canvas.classList.toggle('draggable', this.scene.draggable);
    this.surface.canvas.classList.toggle('grabbable', this.scene.balls.length > 0);
    this.frames = 0;
    this.#gen = undefined;
    this.#wakeAt = 0;
    this.render(true);
  }

  /** Advance up to one frame, honouring the scene's pauses. `beat`: run to the next pause regardless of time. */
  advance(now: number, slow: number, beat = false): void {
    if (!beat && now < this.#wakeAt) return;
    // pauses shorter than an animation frame add up: run every beat that is due (catching up at most 50 ms)
    let t = Math.max(this.#wakeAt, now - 50);
    for (let guard = 0; guard < 100_000; guard++) {
      if (!this.#gen) this.#gen = this.scene.frame();
      const r = this.#gen.next();
      if (r.done) {
        this.#gen = undefined;
        this.frames++;
        this.#wakeAt = 0;
        return;
      }
      if (r.value > 0) {
        t += r.value * slow;
        if (beat || t > now) {
          this.#wakeAt = beat ? now + r.value * slow : t;
          return;
        }
      }
    }
  }

  get midFrame(): boolean {
    return this.#gen !== undefined;
  }

  render(force = false): void {
    this.scene.draw();
    const now = performance.now();
    if (!force && now - this.#statsAt < STATS_EVERY_MS) return;
    this.#statsAt = now;
    this.scene.panel?.();
    this.root.dataset.frames = String(this.frames);
    // ball positions (logical canvas units), for anyone scripting the page
    this.root.dataset.positions = this.scene.balls.map((b) => `${b.x.toFixed(1)},${b.y.toFixed(1)},${b.r.toFixed(1)}`).join(' ');
    const stats = this.scene.stats();
    if (this.stats.childElementCount !== stats.length) {
      this.stats.replaceChildren(
        ...stats.map((s) => {
          const d = document.createElement('div');
          d.dataset.stat = s.key;
          d.append(document.createElement('dt'), document.createElement('dd'));
          return d;
        }),
      );
    }
    stats.forEach((s, i) => {
      const d = this.stats.children[i] as HTMLElement;
      d.dataset.stat = s.key;
      d.firstChild!.textContent = s.label;
      d.lastChild!.textContent = typeof s.value === 'number' ? s.value.toLocaleString('en-US') : s.value;
    });
  }

  #listen(canvas: HTMLCanvasElement): void {
    const pick = (e: PointerEvent): Ball | undefined => {
      const p = this.surface.toLocal(e.clientX, e.clientY);
      const slack = e.pointerType === 'touch' ? 12 : 2;
      const balls = this.scene.balls;
      for (let i = balls.length - 1; i >= 0; i--) {
        const b = balls[i]!;
        if (Math.hypot(p.x - b.x, p.y - b.y) <= b.r + slack) return b;
      }
      return undefined;
    };
    canvas.addEventListener('pointerdown', (e) => {
      const ball = pick(e);
      if (!ball || this.#held) return;
      const p = this.surface.toLocal(e.clientX, e.clientY);
      this.#held = { ball, dx: ball.x - p.x, dy: ball.y - p.y, pointer: e.pointerId };
      ball.held = true;
      ball.vx = ball.vy = 0;
      canvas.setPointerCapture(e.pointerId);
      canvas.classList.add('grabbing');
      e.preventDefault();
    });
    canvas.addEventListener('pointermove', (e) => {
      const h = this.#held;
      if (!h) {
        if (e.pointerType === 'mouse') canvas.classList.toggle('over-ball', pick(e) !== undefined);
        return;
      }
      if (e.pointerId !== h.pointer) return;
      const p = this.surface.toLocal(e.clientX, e.clientY);
      const { ball } = h;
      ball.x = Math.min(this.surface.width - ball.r, Math.max(ball.r, p.x + h.dx));
      ball.y = Math.min(this.surface.height - ball.r, Math.max(ball.r, p.y + h.dy));
      ball.vx = ball.vy = 0;
      this.#afterDrag();
    });
    const release = (e: PointerEvent): void => {
      const h = this.#held;
      if (!h || e.pointerId !== h.pointer) return;
      h.ball.held = false;
      this.#held = undefined;
      canvas.classList.remove('grabbing');
      this.#afterDrag();
    };
    canvas.addEventListener('pointerup', release);
    canvas.addEventListener('pointercancel', release);
  }

  /** While paused (or in a still scene) nothing else redraws: show the drag's effect now. */
  #afterDrag(): void {
    if (this.player.paused && this.scene.still && !this.midFrame) this.advance(performance.now(), 1, true);
    if (this.player.paused || !this.player.visible) this.render(true);
  }
}

/** A figure: one or more views sharing one set of controls. */
export class Player {
  readonly views: View[] = [];
  paused: boolean;
  slow = false;
  visible = false;
  #ticks = 0;
  readonly #controls: HTMLElement;

  constructor(
    readonly figure: HTMLElement,
    scenes: ReadonlyMap<string, CreateScene>,
  ) {
    this.paused = reducedMotion.matches || figure.dataset.paused !== undefined;
    for (const root of figure.querySelectorAll<HTMLElement>('[data-scene]')) {
      const factory = scenes.get(root.dataset.scene!);
      if (!factory) throw new Error(`no scene named ${root.dataset.scene}`);
      this.views.push(new View(root, factory, this));
    }
    this.#controls = this.#makeControls();
    // option controls anywhere in the figure (the ball count, the benchmark's largest N) restart it
    figure.addEventListener('change', (e) => {
      const t = e.target as HTMLInputElement;
      const name = t.dataset?.option;
      if (!name || t.type === 'range') return;
      figure.dataset[name] = t.value;
      this.restart();
    });
    this.restart();
  }

  /** Options: the figure's data attributes, overridden by each view's. */
  restart(): void {
    for (const v of this.views) v.build({ ...this.figure.dataset, ...v.root.dataset });
    this.#sync();
  }

  setPaused(paused: boolean): void {
    this.paused = paused;
    this.#sync();
  }

  /** One beat: to the next pause inside a slowed-down frame, or one whole frame. */
  step(): void {
    this.setPaused(true);
    const now = performance.now();
    for (const v of this.views) {
      v.advance(now, 1, true);
      v.render(true);
    }
  }

  tick(now: number): void {
    if (this.paused) return;
    this.#ticks++;
    if (!this.slow || this.#ticks % SLOW === 0) {
      for (const v of this.views) v.advance(now, this.slow ? SLOW : 1);
    }
    for (const v of this.views) v.render();
  }

  #sync(): void {
    const c = this.#controls;
    const play = c.querySelector<HTMLButtonElement>('[data-action=play]')!;
    play.textContent = this.paused ? '▶ Play' : '❚❚ Pause';
    play.setAttribute('aria-pressed', String(!this.paused));
    c.querySelector('[data-action=slow]')!.setAttribute('aria-pressed', String(this.slow));
    this.figure.classList.toggle('paused', this.paused);
    this.figure.dataset.state = this.paused ? 'paused' : 'playing';
  }

  #makeControls(): HTMLElement {
    const bar = document.createElement('div');
    bar.className = 'controls';
    const button = (action: string, text: string, title: string, fn: () => void): void => {
      const b = el('button', '', bar);
      b.type = 'button';
      b.dataset.action = action;
      b.textContent = text;
      b.title = title;
      b.addEventListener('click', fn);
    };
    button('play', '', 'Pause or play this demo', () => this.setPaused(!this.paused));
    button('step', 'Step', 'Advance one step: the next tested pair, or the next frame', () => this.step());
    button('slow', 'Slow motion', 'Run at a quarter of the speed', () => {
      this.slow = !this.slow;
      this.#sync();
    });
    button('restart', '↺ Restart', 'Start this demo again from the beginning', () => this.restart());
    const range = this.figure.dataset.ballsRange; // "min,max": the figure offers a ball-count control
    if (range) {
      const [min = '2', max = '40'] = range.split(',');
      const label = el('label', 'count', bar);
      const text = el('span', '', label);
      const input = el('input', '', label);
      input.type = 'range';
      input.min = min;
      input.max = max;
      input.value = this.figure.dataset.balls ?? '5';
      input.dataset.option = 'balls';
      const show = (): void => {
        text.textContent = `${input.value} balls`;
      };
      show();
      input.addEventListener('input', () => {
        show();
        this.figure.dataset.balls = input.value;
        this.restart();
      });
    }
    const first = this.figure.querySelector('.views') ?? this.figure.firstElementChild;
    this.figure.insertBefore(bar, first?.nextSibling ?? null);
    return bar;
  }
}

const players: Player[] = [];

/** Mount every `figure.demo` of the page; only figures on screen (and the page when visible) run. */
export function mountAll(scenes: ReadonlyMap<string, CreateScene>): Player[] {
  const observer = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        const p = players.find((q) => q.figure === e.target);
        if (p) p.visible = e.isIntersecting;
      }
    },
    { rootMargin: '64px 0px' },
  );
  for (const figure of document.querySelectorAll<HTMLElement>('figure.demo')) {
    const p = new Player(figure, scenes);
    players.push(p);
    observer.observe(figure);
  }
  const note = document.querySelector<HTMLElement>('.motion-note');
  if (note) note.hidden = !reducedMotion.matches;
  reducedMotion.addEventListener('change', () => {
    if (note) note.hidden = !reducedMotion.matches;
    for (const p of players) p.setPaused(reducedMotion.matches);
  });
  const loop = (now: number): void => {
    for (const p of players) if (p.visible) p.tick(now);
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
  return players;
}
