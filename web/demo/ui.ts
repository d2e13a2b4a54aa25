// The player around every figure: pause, step (one beat), slow motion, restart, option controls, dragging with a
// pointer or the keyboard, the ball linked in every view, live counters refreshed for all views in one tick, the
// growth chart of chapters 5 and 9, and the IntersectionObservers that build a figure when it comes near the
// screen, run it only while it is on screen, and release it when it is far away.
import { driveSliders, type SliderDrive } from './canvas-sliders.js';
import { Surface, type MarkerShape } from './draw.js';
import { GrowthChart } from './growth.js';
import { NAMED } from './palette.js';
import { Link, type CreateScene, type Scene, type SceneOptions, type SceneSetup } from './scene.js';
import type { Ball } from './sim.js';

export const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
/** Slow motion: the figure's clock runs at a quarter of the speed (frames and pauses alike). */
const SLOW = 4;
/** At full speed a figure starts at most one frame per 60 Hz display frame (on a 120 Hz display too). */
const FRAME_MS = 1000 / 60;
/** A thrown ball leaves with the pointer's velocity over its last 100 ms, at most 40 units per step. */
const THROW_WINDOW_MS = 100;
const MAX_THROW = 40;
const STATS_EVERY_MS = 100;
/** Arrow keys move the selected ball this many logical units (with Shift: KEY_STEP_BIG). */
const KEY_STEP = 10;
const KEY_STEP_BIG = 50;
/** Enter throws a ball held with the keyboard this fast (units per step), the way its last arrow key went. */
const KEY_THROW = 18;
/** Figures are built within one screen of the viewport, run within 64 px of it, released beyond three screens. */
const NEAR = '100% 0px';
const VISIBLE = '64px 0px';
const FAR = '300% 0px';
const KEYS_HINT =
  'Keys: a number key or Space selects a ball (its edges and pairs light up), the arrow keys move it, Shift with an arrow moves it further.';
const MOVING_KEYS_HINT =
  'Keys: a number key or Space selects a ball (its edges and pairs light up), the arrow keys grab and move it (Shift: further), Enter throws it the way it last moved, Escape lets it go.';

let uid = 0;

function parseOptions(data: DOMStringMap): SceneOptions {
  const balls = data.balls ?? '5';
  const [checks = '', delay = '200'] = (data.checks ?? '').split(':');
  return {
    balls: balls.trim().startsWith('[') ? (JSON.parse(balls) as Array<[number, number, number]>) : Number(balls),
    seed: Number(data.seed ?? 1),
    skip: Number(data.skip ?? 0),
    checks: NAMED[checks] ?? checks,
    delay: Number(delay),
    rainbow: data.rainbow !== undefined,
    labels: data.labels ? data.labels.split(',') : [],
    draggable: data.draggable !== undefined,
    still: data.still !== undefined,
    bounce: data.noBounce === undefined,
    data: data.start ? { ...data, arrange: data.start } : data,
  };
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, parent: HTMLElement): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  e.className = cls;
  parent.append(e);
  return e;
}

/** One canvas of a figure and the scene drawing on it (only while the figure is mounted). */
class View {
  readonly surface: Surface;
  readonly axis: Surface | undefined;
  readonly stats: HTMLElement;
  readonly panel: HTMLElement;
  /** The canvas takes focus, and the arrow keys move the selected ball. */
  readonly keyboard: boolean;
  scene: Scene | undefined;
  frames = 0;
  #gen: Generator<number, void, void> | undefined;
  #wakeAt = 0;
  #held:
    | { ball: Ball; dx: number; dy: number; pointer: number; samples: Array<{ t: number; x: number; y: number }> }
    | undefined;
  #selected = 0;
  /** What the keyboard or the pointer just did, for a screen reader. */
  readonly #status: HTMLElement;
  readonly #axisText: HTMLTableElement | undefined;
  /** A canvas with no balls to move and sliders under it drives the sliders (chapter 16's figures). */
  #drive: SliderDrive | undefined;
  readonly #fonts = new Map<Surface, number>();

  constructor(
    readonly root: HTMLElement,
    readonly factory: CreateScene,
    readonly player: Player,
    data: DOMStringMap,
  ) {
    if (root.dataset.title) el('h4', 'view-title', root).textContent = root.dataset.title;
    const canvas = el('canvas', 'sim', root);
    const alt = root.dataset.alt ?? 'animated demo';
    // every figure with balls is an interactive picture: focusable, and the keys it answers to are described (and
    // shown while focused); the benchmark's chart (data-no-keys) is only a picture
    this.keyboard = data.noKeys === undefined;
    if (this.keyboard) {
      canvas.tabIndex = 0;
      canvas.setAttribute('role', 'application');
      canvas.setAttribute('aria-roledescription', 'interactive figure');
      canvas.setAttribute('aria-label', alt);
      const hint = el('p', 'keys-hint', root);
      hint.id = `keys-${++uid}`;
      hint.textContent = root.dataset.keys ?? (data.still !== undefined ? KEYS_HINT : MOVING_KEYS_HINT);
      canvas.setAttribute('aria-describedby', hint.id);
    } else {
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', alt);
    }
    this.#status = el('p', 'sr-only', root);
    this.#status.setAttribute('aria-live', 'polite');
    this.surface = new Surface(canvas, Number(root.dataset.width ?? 600), Number(root.dataset.height ?? 400));
    this.surface.onResize = () => this.scene && this.player.renderAll();
    if (root.dataset.axis !== undefined) {
      const axis = el('canvas', 'axis', root);
      axis.setAttribute('aria-hidden', 'true');
      // the strip in words: a table a screen reader moves through, refreshed with the counters
      // (in a box of its own: a table sizes to its content whatever its width, and would widen the page)
      this.#axisText = el('table', 'axis-text', el('div', 'sr-only', root));
      this.#axisText.createCaption().textContent =
        'The strip under the canvas in words: each axis’s edges in sorted order, “(” a ball’s left or top edge and “)” its right or bottom edge, with the ball’s name';
      this.axis = new Surface(axis, 600, 120);
      this.axis.onResize = () => this.scene && this.player.renderAll();
      this.#listenAxis(axis);
    }
    this.panel = el('div', 'panel', root);
    this.stats = this.#makeStats();
    this.#listen(canvas);
  }

  /** Counters: all of them on a wide screen; one line and a disclosure button on a narrow one. */
  #makeStats(): HTMLElement {
    const box = el('div', 'stats-box', this.root);
    const stats = el('dl', 'stats', box);
    stats.id = `stats-${++uid}`;
    stats.setAttribute('aria-live', 'off');
    const more = el('button', 'stats-more', box);
    more.type = 'button';
    more.textContent = 'Counters';
    more.setAttribute('aria-expanded', 'false');
    more.setAttribute('aria-controls', stats.id);
    more.addEventListener('click', () => more.setAttribute('aria-expanded', String(box.classList.toggle('open'))));
    return stats;
  }

  /** A fresh scene (and backing stores) from the figure's options; `lockstep` when the figure's views share balls. */
  build(data: DOMStringMap, lockstep?: SceneSetup['lockstep']): void {
    this.scene?.dispose();
    this.panel.replaceChildren();
    const setup: SceneSetup = { options: parseOptions(data), panel: this.panel, link: this.player.link };
    if (lockstep) setup.lockstep = lockstep;
    this.surface.activate();
    if (this.axis) {
      this.axis.activate();
      setup.axis = this.axis;
    }
    this.scene = this.factory(this.surface, setup);
    if (!this.keyboard) this.#driveSliders();
    this.surface.canvas.classList.toggle('draggable', this.scene.draggable);
    this.surface.canvas.classList.toggle('grabbable', this.scene.balls.length > 0);
    this.frames = 0;
    this.#gen = undefined;
    this.#wakeAt = 0;
    this.#selected = 0;
    this.#keyHeld = undefined;
    this.render(true);
  }

  /** Rebuilt panels have new sliders: the canvas drives those, and becomes a keyboard stop once it has some. */
  #driveSliders(): void {
    this.#drive?.stop();
    const canvas = this.surface.canvas;
    this.#drive = driveSliders(canvas, this.panel, (text) => (this.#status.textContent = text));
    if (!this.#drive || canvas.tabIndex === 0) return;
    canvas.tabIndex = 0;
    canvas.setAttribute('role', 'application');
    canvas.setAttribute('aria-roledescription', 'interactive figure');
    const hint = el('p', 'keys-hint', this.root);
    canvas.after(hint); // over the canvas's bottom, as for the figures with balls
    hint.id = `keys-${++uid}`;
    hint.textContent = this.root.dataset.keys ?? this.#drive.hint;
    canvas.setAttribute('aria-describedby', hint.id);
  }

  /** Far from the screen: drop the backing stores and, unless `keep`, the scene with its World. */
  suspend(keep: boolean): void {
    if (this.#held) this.#held.ball.held = false;
    this.#held = undefined;
    this.surface.canvas.classList.remove('grabbing');
    if (!keep) {
      this.scene?.dispose();
      this.scene = undefined;
      this.#gen = undefined;
    }
    this.surface.release();
    this.axis?.release();
  }

  /** Back near the screen with the scene kept by `suspend(true)`. */
  resume(): void {
    this.surface.activate();
    this.axis?.activate();
    this.render(true);
  }

  /**
   * Advance up to one frame, honouring the scene's pauses; `now` is the figure's clock. `beat`: run to the next
   * pause regardless of time. `mayStart`: a new frame may begin (the figure's clock is due for one).
   */
  advance(now: number, slow: number, beat = false, mayStart = true): void {
    const scene = this.scene;
    if (!scene || (!beat && now < this.#wakeAt) || (!this.#gen && !beat && !mayStart)) return;
    // pauses shorter than an animation frame add up: run every beat that is due (catching up at most 50 ms)
    let t = Math.max(this.#wakeAt, now - 50);
    for (let guard = 0; guard < 100_000; guard++) {
      if (!this.#gen) this.#gen = scene.frame();
      const r = this.#gen.next();
      if (r.done) {
        this.#gen = undefined;
        this.frames++;
        this.#wakeAt = 0;
        return;
      }
      // a negative pause is soft: timed like any other, but Step runs through it to the next real beat
      const soft = r.value < 0;
      const ms = Math.abs(r.value);
      if (ms > 0) {
        t += ms * slow;
        if ((beat && !soft) || (!beat && t > now)) {
          this.#wakeAt = beat ? now + ms * slow : t;
          return;
        }
      }
    }
  }

  get midFrame(): boolean {
    return this.#gen !== undefined;
  }

  /**
   * Draw the scene; with `counters`, refresh the counters and the panel too. The player refreshes every view of a
   * figure in the same tick, so that counters shared by side-by-side views never disagree.
   */
  render(counters = false): void {
    const scene = this.scene;
    if (!scene) return;
    scene.draw();
    this.#drawSelection();
    this.player.lightCode(scene.codeLine);
    this.#publishFont(this.surface);
    if (this.axis) this.#publishFont(this.axis);
    // frames run, the frame number and the ball positions (logical canvas units) of what is drawn, for anyone
    // scripting the page: every frame, so the views of a figure can be compared at any moment
    this.root.dataset.frames = String(this.frames);
    this.root.dataset.frame = String(scene.step ?? this.frames);
    this.root.dataset.positions = scene.balls
      .map((b) => `${b.x.toFixed(1)},${b.y.toFixed(1)},${b.r.toFixed(1)}`)
      .join(' ');
    const linked = this.player.link.ball;
    this.root.dataset.linked = linked && scene.balls.includes(linked) ? String(scene.balls.indexOf(linked)) : '';
    if (!counters) return;
    scene.panel?.();
    if (this.#axisText) this.#writeAxisText(scene.axisText?.() ?? []);
    const stats = scene.stats();
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

  #writeAxisText(rows: Array<{ axis: string; edges: string }>): void {
    const table = this.#axisText!;
    const body = table.tBodies[0] ?? table.createTBody();
    while (body.rows.length > rows.length) body.deleteRow(-1);
    rows.forEach((r, i) => {
      const row = body.rows[i] ?? body.insertRow();
      if (!row.cells.length) {
        const th = document.createElement('th');
        th.scope = 'row';
        row.append(th, document.createElement('td'));
      }
      const [th, td] = [row.cells[0]!, row.cells[1]!];
      if (th.textContent !== `${r.axis} axis`) th.textContent = `${r.axis} axis`;
      if (td.textContent !== r.edges) td.textContent = r.edges;
    });
  }

  /** The smallest font the frame drew, in CSS px, as data-min-font on the canvas (checked by the tests). */
  #publishFont(s: Surface): void {
    const px = s.minFontPx;
    if (px === Infinity || this.#fonts.get(s) === px) return;
    this.#fonts.set(s, px);
    s.canvas.dataset.minFont = px.toFixed(2);
  }

  get #handles(): Ball[] {
    return this.scene ? (this.scene.handles ?? this.scene.balls) : [];
  }

  /** While the canvas has keyboard focus (not focus from a click), a ring shows which ball the arrow keys move. */
  #drawSelection(): void {
    if (!this.keyboard || !this.surface.canvas.matches(':focus-visible')) return;
    const b = this.#handles[this.#selected];
    if (!b) return;
    const r = Math.max(b.r, 6) + 5;
    this.surface.ring(b.x, b.y, r + 2, '#000', 2);
    this.surface.ring(b.x, b.y, r, '#fff', 2.5);
  }

  /** A ball grabbed with the arrow keys (in a moving scene it hangs still until thrown or let go), and its way. */
  #keyHeld: { ball: Ball; dx: number; dy: number } | undefined;
  /** The linked ball was chosen with the keyboard (and is let go when the focus leaves). */
  #keyChosen = false;

  #key(e: KeyboardEvent): void {
    const handles = this.#handles;
    if (!handles.length || e.altKey || e.ctrlKey || e.metaKey) return;
    let selected = Math.min(this.#selected, handles.length - 1);
    const arrows: Record<string, [number, number]> = {
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
    };
    const arrow = arrows[e.key];
    if (/^[1-9]$/.test(e.key) && Number(e.key) <= handles.length) selected = Number(e.key) - 1;
    else if (e.key === ' ') selected = (selected + (e.shiftKey ? handles.length - 1 : 1)) % handles.length;
    else if (e.key === 'Enter' || e.key === 'Escape') {
      if (!this.#keyHeld) return;
      e.preventDefault();
      this.#letGo(e.key === 'Enter');
      this.player.renderAll();
      return;
    } else if (!arrow) return;
    e.preventDefault();
    const ball = handles[selected]!;
    if (selected !== this.#selected) {
      this.#letGo(false);
      this.#selected = selected;
      this.#status.textContent = `${ball.label ?? `ball ${selected + 1}`} selected`;
    }
    this.player.link.pin(ball);
    this.#keyChosen = true;
    if (arrow) {
      const step = e.shiftKey ? KEY_STEP_BIG : KEY_STEP;
      this.#place(ball, ball.x + arrow[0] * step, ball.y + arrow[1] * step);
      if (!this.scene?.still) {
        ball.held = true;
        this.#keyHeld = { ball, dx: arrow[0], dy: arrow[1] };
      }
    }
    this.#afterMove();
    this.player.renderAll();
  }

  /** Release the ball grabbed with the keyboard: thrown the way it last moved, or let go to fall. */
  #letGo(thrown: boolean): void {
    const h = this.#keyHeld;
    if (!h) return;
    h.ball.held = false;
    if (thrown) {
      h.ball.vx = h.dx * KEY_THROW;
      h.ball.vy = h.dy * KEY_THROW;
    }
    this.#keyHeld = undefined;
    this.#status.textContent = `${h.ball.label ?? 'the ball'} ${thrown ? 'thrown' : 'let go'}`;
  }

  /** Move a ball inside the canvas and stop it. */
  #place(ball: Ball, x: number, y: number): void {
    ball.x = Math.min(this.surface.width - ball.r, Math.max(ball.r, x));
    ball.y = Math.min(this.surface.height - ball.r, Math.max(ball.r, y));
    ball.vx = ball.vy = 0;
  }

  #pick(clientX: number, clientY: number, slack: number): Ball | undefined {
    if (this.#drive) return undefined; // a drag moves the sliders, not what is drawn
    const p = this.surface.toLocal(clientX, clientY);
    const balls = this.scene?.balls ?? [];
    for (let i = balls.length - 1; i >= 0; i--) {
      const b = balls[i]!;
      if (Math.hypot(p.x - b.x, p.y - b.y) <= b.r + slack) return b;
    }
    return undefined;
  }

  #listen(canvas: HTMLCanvasElement): void {
    const slack = (e: PointerEvent): number => (e.pointerType === 'touch' ? 12 : 2);
    // the canvas lets a vertical swipe scroll the page (touch-action: pan-y) unless the finger lands on a ball:
    // touch-action is fixed when a touch starts, so only cancelling touchstart keeps the page still for the drag
    canvas.addEventListener(
      'touchstart',
      (e) => {
        const t = e.touches[0];
        if (e.touches.length === 1 && t && this.#pick(t.clientX, t.clientY, 12)) e.preventDefault();
      },
      { passive: false },
    );
    // a click or a tap (a press that does not move) chooses the ball under it, or nothing on empty space; a drag
    // links the ball it holds while it is held
    let press: { x: number; y: number; ball: Ball | undefined } | undefined;
    canvas.addEventListener('pointerdown', (e) => {
      const ball = this.#pick(e.clientX, e.clientY, slack(e));
      if (!this.#held) {
        press = { x: e.clientX, y: e.clientY, ball };
        if (ball) this.player.link.set(ball);
      }
      if (!ball || this.#held) return;
      const p = this.surface.toLocal(e.clientX, e.clientY);
      this.#held = {
        ball,
        dx: ball.x - p.x,
        dy: ball.y - p.y,
        pointer: e.pointerId,
        samples: [{ t: e.timeStamp, x: ball.x, y: ball.y }],
      };
      ball.held = true;
      ball.vx = ball.vy = 0;
      canvas.setPointerCapture(e.pointerId);
      canvas.classList.add('grabbing');
      e.preventDefault();
    });
    canvas.addEventListener('pointermove', (e) => {
      const h = this.#held;
      if (!h) {
        if (e.pointerType === 'mouse') {
          const over = this.#pick(e.clientX, e.clientY, 2);
          canvas.classList.toggle('over-ball', over !== undefined);
          this.player.link.set(over);
        }
        return;
      }
      if (e.pointerId !== h.pointer) return;
      const p = this.surface.toLocal(e.clientX, e.clientY);
      this.#place(h.ball, p.x + h.dx, p.y + h.dy);
      h.samples.push({ t: e.timeStamp, x: h.ball.x, y: h.ball.y });
      while (h.samples.length > 2 && h.samples[0]!.t < e.timeStamp - THROW_WINDOW_MS) h.samples.shift();
      this.#afterMove();
    });
    const release = (e: PointerEvent): void => {
      const h = this.#held;
      if (!h || e.pointerId !== h.pointer) return;
      h.ball.held = false;
      // thrown: the velocity of the last pointer samples (a ball held still for a moment is dropped)
      const first = h.samples[0]!;
      const last = h.samples.at(-1)!;
      const dt = last.t - first.t;
      if (e.type === 'pointerup' && dt > 0 && e.timeStamp - last.t < THROW_WINDOW_MS) {
        const perStep = FRAME_MS / dt;
        const clamp = (v: number): number => Math.max(-MAX_THROW, Math.min(MAX_THROW, v));
        h.ball.vx = clamp((last.x - first.x) * perStep);
        h.ball.vy = clamp((last.y - first.y) * perStep);
      }
      this.#held = undefined;
      canvas.classList.remove('grabbing');
      this.#afterMove();
    };
    canvas.addEventListener('pointerup', (e) => {
      if (press && Math.hypot(e.clientX - press.x, e.clientY - press.y) < 6) {
        this.player.link.pin(press.ball);
        this.#keyChosen = false;
      }
      press = undefined;
      release(e);
      if (e.pointerType !== 'mouse') this.player.link.set(undefined); // a finger hovers nothing once lifted
    });
    canvas.addEventListener('pointercancel', (e) => {
      press = undefined;
      release(e);
    });
    // a mouse that leaves unlinks what it hovered (a ball chosen by a click or a tap stays linked)
    canvas.addEventListener('pointerleave', (e) => {
      if (e.pointerType === 'mouse' && !this.#held) this.player.link.set(undefined);
    });
    if (this.keyboard) {
      canvas.addEventListener('keydown', (e) => this.#key(e));
      // the selection ring shows only while focused; focus from the keyboard links the selected ball
      canvas.addEventListener('focus', () => {
        if (!canvas.matches(':focus-visible')) return this.player.renderAll();
        this.player.link.pin(this.#handles[this.#selected]);
        this.#keyChosen = true;
        this.player.renderAll();
      });
      canvas.addEventListener('blur', () => {
        this.#letGo(false);
        // the keyboard's choice ends with the focus
        if (this.#keyChosen && this.player.link.pinned === this.#handles[this.#selected])
          this.player.link.pin(undefined);
        this.#keyChosen = false;
        this.player.renderAll();
      });
    }
  }

  /** The axis view links the ball whose edge or bar is under the pointer. */
  #listenAxis(axis: HTMLCanvasElement): void {
    const at = (e: PointerEvent): Ball | undefined => {
      const p = this.axis!.toLocal(e.clientX, e.clientY);
      return this.scene?.pickAxis?.(p.x, p.y);
    };
    axis.addEventListener('pointermove', (e) => e.pointerType === 'mouse' && this.player.link.set(at(e)));
    axis.addEventListener('pointerdown', (e) => this.player.link.pin(at(e)));
    axis.addEventListener('pointerleave', (e) => e.pointerType === 'mouse' && this.player.link.set(undefined));
  }

  /** While paused (or in a still scene) nothing else redraws: show the move's effect now. */
  #afterMove(): void {
    const scene = this.scene;
    if (!scene) return;
    scene.moved?.();
    if (this.player.paused && scene.still && !this.midFrame) this.advance(this.player.clock, 1, true);
    if (this.player.paused || !this.player.visible) this.player.renderAll();
  }
}

/** A figure: one or more views sharing one set of controls. */
export class Player {
  readonly views: View[] = [];
  paused: boolean;
  slow = false;
  visible = false;
  /** Scenes and backing stores exist (the figure is near the screen). */
  mounted = false;
  /**
   * Side-by-side views (more than one) run in lock step: one set of balls, moved by the player; no view starts
   * frame k + 1 before every view has finished frame k (the slowest sets the pace).
   */
  readonly lockstep: boolean;
  /** The ball the reader points at, in every view of the figure. */
  readonly link = new Link();
  #round = 0;
  #built = false;
  /** The figure's clock in ms: it runs at a quarter of real time in slow motion, and stands still while paused. */
  clock = 0;
  #last: number | undefined;
  #nextFrame = 0;
  #statsAt = 0;
  readonly #growth: GrowthChart | undefined;
  /** Tabbed figures: the views' counts, refreshed with the counters (they stay in sight above the tabs). */
  #tabCounts: (() => void) | undefined;
  readonly #controls: HTMLElement;
  /** data-code: the code block whose lines the scene lights as it runs them, and the line lit. */
  readonly #code: HTMLElement | null;
  #lit: string | undefined;
  /** What the controls just did, for a screen reader (Play, Step, Restart and a run's end). */
  readonly #said: HTMLElement;

  constructor(
    readonly figure: HTMLElement,
    scenes: ReadonlyMap<string, CreateScene>,
  ) {
    this.paused = reducedMotion.matches || figure.dataset.paused !== undefined;
    for (const root of figure.querySelectorAll<HTMLElement>('[data-scene]')) {
      const factory = scenes.get(root.dataset.scene!);
      if (!factory) throw new Error(`no scene named ${root.dataset.scene}`);
      this.views.push(new View(root, factory, this, { ...figure.dataset, ...root.dataset }));
    }
    // data-apart: views side by side on balls of their own (a case and its failure case), each at its own pace
    this.lockstep = this.views.length > 1 && figure.dataset.apart === undefined;
    this.#code = figure.dataset.code ? document.getElementById(figure.dataset.code) : null;
    // a paused figure redraws at once when the linked ball changes; a running one at its next frame
    this.link.onChange = () => {
      if (this.mounted && (this.paused || !this.visible)) this.renderAll();
    };
    this.#controls = this.#makeControls();
    this.#said = document.createElement('p');
    this.#said.className = 'sr-only';
    this.#said.setAttribute('aria-live', 'polite');
    this.#controls.append(this.#said);
    this.#makeSkip();
    if (figure.dataset.growth !== undefined) this.#growth = this.#makeGrowth();
    if (figure.dataset.tabs !== undefined) this.#makeTabs();
    // option controls anywhere in the figure (the ball count, the benchmark's largest N) restart it
    figure.addEventListener('change', (e) => {
      const t = e.target as HTMLInputElement;
      const name = t.dataset?.option;
      if (!name || t.type === 'range') return;
      figure.dataset[name] = t.value;
      this.restart();
    });
    this.figure.dataset.mounted = 'false';
    this.#sync();
  }

  /** Build the scenes (or bring back the kept ones); timed as a performance measure "mount <chapter>". */
  mount(): void {
    if (this.mounted) return;
    const start = performance.now();
    if (this.#built) {
      this.#setMounted(true);
      for (const v of this.views) v.resume();
    } else this.restart();
    performance.measure(`mount ${this.figure.closest('section')?.id ?? ''}`, { start });
  }

  /** Release the backing stores and the scenes; a figure with data-keep (the benchmark) keeps its scene. */
  unmount(): void {
    if (!this.mounted) return;
    const keep = this.figure.dataset.keep !== undefined;
    for (const v of this.views) v.suspend(keep);
    this.#built = keep;
    this.#setMounted(false);
  }

  #setMounted(mounted: boolean): void {
    this.mounted = mounted;
    this.figure.dataset.mounted = String(mounted);
    if (mounted) {
      this.#growth?.surface.activate();
      this.#growth?.draw();
    } else this.#growth?.surface.release();
  }

  /** With the counters: the growth chart's point for this run, the tabs' counts. */
  #refreshed(): void {
    this.#tabCounts?.();
    const g = this.#growth;
    if (!g) return;
    const scenes = this.views.map((v) => v.scene);
    g.update(
      Number(this.figure.dataset.balls),
      scenes.map((s) => s?.meanTested ?? 0),
      scenes.every((s) => (s?.passes ?? 0) > 0),
    );
  }

  /** Options: the figure's data attributes, overridden by each view's. */
  restart(): void {
    this.#setMounted(true);
    this.#built = true;
    this.#round = 0;
    this.link.set(undefined); // the balls are new
    this.link.pin(undefined);

    for (const v of this.views) {
      const data = { ...this.figure.dataset, ...v.root.dataset };
      if (!this.lockstep) v.build(data);
      else v.build(data, v === this.views[0] ? {} : { balls: this.views[0]!.scene!.balls });
    }
    this.#sync();
  }

  setPaused(paused: boolean): void {
    this.paused = paused;
    this.#sync();
    // the counters and panels are refreshed at most every 100 ms while running: show the paused state itself
    if (paused && this.mounted) this.renderAll();
  }

  /** One beat: to the next pause inside a slowed-down frame, or one whole frame. */
  step(): void {
    this.mount();
    this.setPaused(true);
    const now = this.clock;
    if (this.lockstep) this.#advanceTogether(now, 1, true);
    if (!this.lockstep) for (const v of this.views) v.advance(now, 1, true);
    this.renderAll();
  }

  /** Lock step: when every view has finished the round, move the shared balls and start the next round. */
  #advanceTogether(now: number, slow: number, beat = false, mayStart = true): void {
    const views = this.views.filter((v) => v.scene);
    if (!views.length) return;
    if (views.every((v) => v.frames >= this.#round) && (beat || mayStart)) {
      views[0]!.scene!.physics?.();
      this.#round++;
    }
    for (const v of views) if (v.frames < this.#round) v.advance(now, slow, beat);
  }

  tick(now: number): void {
    if (this.paused || !this.mounted) {
      this.#last = undefined;
      return;
    }
    const dt = this.#last === undefined ? FRAME_MS : Math.min(100, now - this.#last);
    this.#last = now;
    this.clock += this.slow ? dt / SLOW : dt;
    // a frame may start when the clock is due (2 ms early is on time: display frames jitter)
    const due = this.clock >= this.#nextFrame - 2;
    if (due) this.#nextFrame = Math.max(this.#nextFrame + FRAME_MS, this.clock - FRAME_MS);
    if (this.lockstep) this.#advanceTogether(this.clock, 1, false, due);
    else for (const v of this.views) v.advance(this.clock, 1, false, due);
    const stats = now - this.#statsAt >= STATS_EVERY_MS;
    if (stats) this.#statsAt = now;
    for (const v of this.views) v.render(stats);
    if (stats) this.#refreshed();
    if (this.#finished) {
      this.setPaused(true);
      this.#say(`Finished. ${this.#counters()}`);
    }
  }

  #say(text: string): void {
    this.#said.textContent = text;
  }

  /** The first counters of each view, as a sentence. */
  #counters(): string {
    return this.views
      .map((v) => {
        const title = v.root.dataset.title ? `${v.root.dataset.title}: ` : '';
        const pairs = [...v.stats.children]
          .slice(0, 4)
          .map((d) => `${d.firstChild?.textContent} ${d.lastChild?.textContent}`);
        return `${title}${pairs.join(', ')}.`;
      })
      .join(' ');
  }

  /**
   * A link before the figure's controls that skips them all: it moves the focus to a mark just after the figure,
   * so the next Tab goes on with the page (a figure holds up to a dozen tab stops).
   */
  #makeSkip(): void {
    const end = document.createElement('span');
    end.id = `after-figure-${++uid}`;
    end.className = 'sr-only';
    end.tabIndex = -1;
    end.textContent = 'End of the figure.';
    this.figure.after(end);
    const skip = document.createElement('a');
    skip.className = 'skip-figure';
    skip.href = `#${end.id}`;
    skip.textContent = 'Skip past this figure';
    skip.addEventListener('click', (e) => {
      e.preventDefault();
      end.focus();
    });
    this.figure.prepend(skip);
  }

  /** Every view's run has come to its end. */
  get #finished(): boolean {
    return this.views.every((v) => v.scene?.finished === true);
  }

  /** Mark the code line the scene runs (`aria-current`, styled as lit); none when the scene is between passes. */
  lightCode(line: string | undefined): void {
    if (!this.#code || line === this.#lit) return;
    this.#lit = line;
    for (const span of this.#code.querySelectorAll<HTMLElement>('[data-line]')) {
      if (span.dataset.line === line) span.setAttribute('aria-current', 'step');
      else span.removeAttribute('aria-current');
    }
    this.#code.dataset.lit = line ?? '';
  }

  /** Every view drawn and its counters refreshed, in one go. */
  renderAll(): void {
    if (!this.mounted) return;
    for (const v of this.views) v.render(true);
    this.#refreshed();
  }

  /** Play keeps its name and says whether it is on with aria-pressed; its icon shows what it does. */
  #sync(): void {
    const c = this.#controls;
    const play = c.querySelector<HTMLButtonElement>('[data-action=play]')!;
    play.setAttribute('aria-pressed', String(!this.paused));
    play.querySelector('.icon')!.textContent = this.paused ? '▶' : '❚❚';
    c.querySelector('[data-action=slow]')?.setAttribute('aria-pressed', String(this.slow));
    this.figure.classList.toggle('paused', this.paused);
    this.figure.dataset.state = this.paused ? 'paused' : 'playing';
  }

  #makeControls(): HTMLElement {
    const bar = document.createElement('div');
    bar.className = 'controls';
    const button = (action: string, text: string, title: string, fn: () => void, icon?: string): void => {
      const b = el('button', '', bar);
      b.type = 'button';
      b.dataset.action = action;
      if (icon !== undefined) {
        const i = el('span', 'icon', b);
        i.setAttribute('aria-hidden', 'true');
        i.textContent = icon;
      }
      b.append(text);
      b.title = title;
      b.addEventListener('click', fn);
    };
    button(
      'play',
      'Play',
      'Play or pause this demo',
      () => {
        if (this.paused && this.#finished) this.restart(); // a run that has ended runs again
        this.setPaused(!this.paused);
        this.#say(this.paused ? `Paused. ${this.#counters()}` : 'Playing.');
      },
      '▶',
    );
    // where nothing moves unless dragged, there is nothing to step through or slow down
    const still = this.figure.dataset.still !== undefined;
    if (!still) {
      button('step', 'Step', 'Advance one step: the next tested pair, or the next frame', () => {
        this.step();
        this.#say(`Stepped. ${this.#counters()}`);
      });
      button('slow', 'Slow motion', 'Run at a quarter of the speed: frames and pauses take four times as long', () => {
        this.slow = !this.slow;
        this.#sync();
      });
    }
    button(
      'restart',
      'Restart',
      'Start this demo again from the beginning',
      () => {
        this.restart();
        this.#say('Restarted.');
      },
      '↺',
    );
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
      // the count the slider settles at (not every count it passes) becomes a point of the growth chart
      input.addEventListener('change', () => this.#growth?.settle(Number(input.value)));
    }
    if (this.figure.dataset.arrange !== undefined) {
      // the cases chapter 8 talks about: a run from balls in a column, or spread out
      const arrange = (kind: string): void => {
        this.figure.dataset.start = kind;
        this.restart();
        delete this.figure.dataset.start;
      };
      button('column', 'Stack in a column', 'Start again with the balls in one column: all overlap on x', () =>
        arrange('column'),
      );
      button('spread', 'Spread out', 'Start again with the balls spread out on a grid', () => arrange('spread'));
    }
    // Play above the figure when what it starts would otherwise be out of sight (the benchmark's long table)
    const first = this.figure.querySelector('.views') ?? this.figure.firstElementChild;
    if (this.figure.dataset.controlsTop !== undefined) this.figure.prepend(bar);
    else this.figure.insertBefore(bar, first?.nextSibling ?? null);
    return bar;
  }

  /** The growth chart under the views (data-growth): one series per view, its mark from the view's data-mark. */
  #makeGrowth(): GrowthChart {
    const box = document.createElement('div');
    box.className = 'growth';
    const title = document.createElement('div');
    title.className = 'panel-title';
    title.textContent = 'Your runs: mean intersects() calls per pass, at each ball count the slider settled at';
    const canvas = document.createElement('canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute(
      'aria-label',
      'Mean intersects() calls per pass against the number of balls, one point per count run, under the curve of every pair',
    );
    box.append(title, canvas);
    this.#controls.after(box);
    const series = this.views.map((v) => {
      const [color = '#ddd', shape = 'disc'] = (v.root.dataset.mark ?? '').split(' ');
      return { name: v.root.dataset.title ?? '', color, shape: shape as MarkerShape };
    });
    const max = Number((this.figure.dataset.ballsRange ?? '2,40').split(',')[1]);
    return new GrowthChart(canvas, series, max, Number(this.figure.dataset.balls ?? 5));
  }

  /** On a narrow screen the views are tabs (one shown at a time); on a wide one the tab list is hidden. */
  #makeTabs(): void {
    const views = this.figure.querySelector<HTMLElement>('.views')!;
    views.classList.add('tabbed');
    const list = document.createElement('div');
    list.className = 'tabs';
    list.setAttribute('role', 'tablist');
    list.setAttribute('aria-label', 'Views');
    const tabs = this.views.map((v, i) => {
      const tab = el('button', '', list);
      tab.type = 'button';
      tab.setAttribute('role', 'tab');
      tab.id = `tab-${++uid}`;
      v.root.id ||= `panel-${uid}`;
      tab.setAttribute('aria-controls', v.root.id);
      v.root.setAttribute('role', 'tabpanel');
      v.root.setAttribute('aria-labelledby', tab.id);
      tab.textContent = v.root.dataset.title ?? `View ${i + 1}`;
      tab.addEventListener('click', () => select(i));
      return tab;
    });
    const select = (i: number, focus = false): void => {
      tabs.forEach((t, k) => {
        t.setAttribute('aria-selected', String(k === i));
        t.tabIndex = k === i ? 0 : -1;
        this.views[k]!.root.classList.toggle('current', k === i);
      });
      if (focus) tabs[i]!.focus();
    };
    list.addEventListener('keydown', (e) => {
      const i = tabs.indexOf(document.activeElement as HTMLButtonElement);
      const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
      if (i < 0 || !d) return;
      e.preventDefault();
      select((i + d + tabs.length) % tabs.length, true);
    });
    select(0);
    // every view's count stays in sight above the tabs (only one view is shown at a time)
    const counts = document.createElement('p');
    counts.className = 'tab-counts';
    counts.setAttribute('aria-live', 'off');
    const label = document.createElement('span');
    label.textContent = 'intersects() calls, last pass:';
    const values = this.views.map((v, i) => {
      const b = document.createElement('b');
      b.dataset.view = v.root.dataset.title ?? '';
      counts.append(i ? ' · ' : ' ', b);
      return b;
    });
    counts.prepend(label);
    this.#tabCounts = () =>
      this.views.forEach((v, i) => {
        const n = v.stats.querySelector('[data-stat=tested] dd')?.textContent ?? '–';
        values[i]!.textContent = `${v.root.dataset.title ?? `View ${i + 1}`} ${n}`;
      });
    views.before(counts, list);
  }
}

const players: Player[] = [];

/** Set up every `figure.demo` of the page: built when near the screen, run while on it, released when far. */
export function mountAll(scenes: ReadonlyMap<string, CreateScene>): Player[] {
  const byFigure = new Map<Element, Player>();
  const watch = (margin: string, fn: (p: Player, on: boolean) => void): IntersectionObserver =>
    new IntersectionObserver(
      (entries) => {
        for (const e of entries) fn(byFigure.get(e.target)!, e.isIntersecting);
      },
      { rootMargin: margin },
    );
  const observers = [
    watch(NEAR, (p, on) => on && p.mount()),
    watch(VISIBLE, (p, on) => (p.visible = on)),
    watch(FAR, (p, on) => on || p.unmount()),
  ];
  for (const figure of document.querySelectorAll<HTMLElement>('figure.demo')) {
    const p = new Player(figure, scenes);
    players.push(p);
    byFigure.set(figure, p);
    for (const o of observers) o.observe(figure);
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
