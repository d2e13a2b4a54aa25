// What every scene is, and the ball scene most of them build on: a ball simulation whose broadphase is the
// scene's `detect()`, with the article's "checks" decoration (each tested pair drawn as a line, slowed down).
import { World, slotOf } from 'sweep-prune';
import { rainbow, type Surface } from './draw.js';
import { BALL, LINK, MUTED } from './palette.js';
import { arrange, collide, integrate, makeBalls, resolveAll, rng, settle, type Ball, type BallSpec } from './sim.js';

/** A live number shown under a canvas; `key` is stable (tests and styles use it). */
export interface Stat {
  key: string;
  label: string;
  value: string | number;
}

/**
 * A scene advances in frames. `frame()` is a generator: it yields pauses in milliseconds (the beats of a slowed-down
 * visualisation) and returns when the frame is done, so the player can run it at full speed, in slow motion, or one
 * beat at a time. A negative pause is soft: it is waited like the others, but Step does not stop on it (a sweep line
 * glides between edges in soft pauses and Step goes from edge to edge).
 */
export interface Scene {
  /** Balls the pointer may pick up (empty when the scene has none). */
  readonly balls: Ball[];
  /** Balls carry the dashed "drag me" ring; the canvas takes keyboard focus to move them. */
  readonly draggable: boolean;
  /** What the keyboard selects and moves, when it is not `balls` (the game also moves its aim). */
  readonly handles?: Ball[];
  /** Nothing moves unless dragged: after a drag the player runs a frame even while paused. */
  readonly still: boolean;
  /** The frame number (shared by the views of a lock-step figure). */
  readonly step?: number;
  /** Ball scenes: complete detection passes so far, and their mean intersects() calls. */
  readonly passes?: number;
  readonly meanTested?: number;
  /** A run that comes to an end (the benchmark's): once it has, Play is released, and pressing it runs again. */
  readonly finished?: boolean;
  /** Lock-step figures: move the shared balls one step (the views' frames only detect and count). */
  physics?(): void;
  frame(): Generator<number, void, void>;
  draw(): void;
  stats(): Stat[];
  /** The line of the figure's code block (data-code) the scene is running now: its `data-line` name. */
  readonly codeLine?: string | undefined;
  /** Refresh HTML output under the canvas (edge strips, live output, event logs). */
  panel?(): void;
  /** The axis view's sorted edge lists in words, per axis, for readers who cannot see the strip. */
  axisText?(): Array<{ axis: string; edges: string }>;
  /** The ball whose edge or bar is at (x, y) of the axis view, for linking from it. */
  pickAxis?(x: number, y: number): Ball | undefined;
  /** A ball or handle was moved by the pointer or the keyboard (between frames). */
  moved?(): void;
  dispose(): void;
}

export interface SceneOptions {
  balls: BallSpec;
  seed: number;
  /** Collision detection runs on every (skip + 1)-th step. */
  skip: number;
  /** Colour of the "checks" decoration, or '' for none. */
  checks: string;
  /** Base pause per check in ms (a quarter on the check, +50 ms on a hit, three quarters at the end). */
  delay: number;
  rainbow: boolean;
  labels: string[];
  draggable: boolean;
  still: boolean;
  bounce: boolean;
  /** The scene-specific data attributes of the figure (`data-max` is `max`, ...), as written in the page. */
  data: SceneData;
}

/** Data attributes that one scene or another reads; any other attribute is not a scene option. */
export interface SceneData {
  /** benchmark: the largest N. */
  max?: string;
  /** benchmark: the engine's threads (a cross-origin-isolated page only). */
  threads?: string;
  /** edges: the focus view. */
  focus?: string;
  /** sap: '1' for the 1D sweep. */
  dims?: string;
  /** sap: draw the engine's slabs. */
  slabs?: string;
  /** scale: the number of boxes; engines: the bodies of the scene. */
  n?: string;
  /** engines: which scene runs twice ('bullets', 'swarm' or 'matter'). */
  engine?: string;
  /** engines: 'tree' when Phaser's own world searches its R-tree. */
  tree?: string;
  /** sort: 'quick' for quicksort, else insertion sort. */
  sort?: string;
  /** sorted, sweep: the id of the page's code block whose lines the scene lights as it runs them. */
  code?: string;
  /** sort: this view adds the table of both sorts' costs as the input grows. */
  costs?: string;
  /** sweep: report pairs as the line passes. */
  report?: string;
  /** many balls: a factor on the radius. */
  radiusScale?: string;
  /** 'column' or 'spread': where the balls start (the cases chapter 8 talks about). */
  arrange?: string;
}

/**
 * The ball the reader points at in a figure: hovered, or chosen (pinned) by a click, a tap or the keyboard, or
 * reached through one of its edges in a strip or the axis view. The views of a figure share it, and each draws every
 * representation of that ball marked: its ball, its edges, its interval bars, its pair lines, its slab entries.
 */
export class Link {
  #hovered: Ball | undefined;
  #pinned: Ball | undefined;
  /** Called when the linked ball changes (the player redraws a paused figure). */
  onChange: (() => void) | undefined;

  /** The hovered ball, else the pinned one. */
  get ball(): Ball | undefined {
    return this.#hovered ?? this.#pinned;
  }

  get pinned(): Ball | undefined {
    return this.#pinned;
  }

  /** Hover: linked while the pointer is on it (or on one of its edges). */
  set(ball: Ball | undefined): void {
    this.#change(() => (this.#hovered = ball));
  }

  /** Choose: linked until another is chosen, or nothing (a click or tap on empty space). */
  pin(ball: Ball | undefined): void {
    this.#change(() => (this.#pinned = ball));
  }

  #change(fn: () => void): void {
    const before = this.ball;
    fn();
    if (this.ball !== before) this.onChange?.();
  }
}

export interface SceneSetup {
  options: SceneOptions;
  /** The figure's linked ball (shared by its views). */
  link: Link;
  /** Element under the canvas for HTML output. */
  panel: HTMLElement;
  /** Canvas for the axis view (the engine's sorted endpoint lists), when the figure has one. */
  axis?: Surface;
  /**
   * Side-by-side views in lock step: the player moves the balls (`physics()` of the first view) and every view's
   * frame only runs its broadphase on them. `balls` are the first view's, shared by the others.
   */
  lockstep?: { balls?: Ball[] };
}

export type CreateScene = (canvas: Surface, setup: SceneSetup) => Scene;

/** Passes shown in a counter's sparkline. */
export const SPARK_PASSES = 24;
const BARS = '▁▂▃▄▅▆▇█';

/** A text sparkline: one bar per value, scaled to the largest (0 is the lowest bar). */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(1, ...values);
  return values.map((v) => BARS[Math.min(BARS.length - 1, Math.round((v / max) * (BARS.length - 1)))]).join('') || '–';
}

export interface Check {
  a: Ball;
  b: Ball;
  hit: boolean;
}

/** A ball simulation; subclasses supply `detect()`, the broadphase that feeds pairs to `check()`. */
export abstract class BallScene implements Scene {
  readonly balls: Ball[];
  readonly draggable: boolean;
  readonly still: boolean;
  readonly options: SceneOptions;
  step = 0;
  /** Pairs tested in the current (or last) detection pass, in order. */
  checks: Check[] = [];
  tested = 0;
  hits = 0;
  /** intersects() calls of the last complete pass, and of every pass so far (for the mean and the sparkline). */
  lastTested = 0;
  readonly history: number[] = [];
  #sum = 0;
  #passes = 0;
  /** The balls are moved by the player (lock step), not by this scene's frames. */
  readonly lockstep: boolean;
  world: World | undefined;
  /** Update the world on every step, not only on detection passes. */
  protected syncEveryStep = true;
  readonly #bySlot = new Map<number, Ball>();

  constructor(
    readonly surface: Surface,
    readonly setup: SceneSetup,
  ) {
    const o = (this.options = setup.options);
    const random = rng(o.seed);
    this.lockstep = setup.lockstep !== undefined;
    const shared = setup.lockstep?.balls;
    this.balls = shared ?? makeBalls(o.balls, surface.width, surface.height, random, BALL);
    const sizing = Number(o.data.radiusScale ?? 1); // many balls: smaller ones
    this.balls.forEach((b, i) => {
      if (!shared && sizing !== 1) b.r *= sizing;
      if (o.rainbow) b.color = rainbow(i, this.balls.length);
      const label = o.labels[i];
      if (label !== undefined) b.label = label;
    });
    // where the balls' edges are listed (the axis view), balls and edges carry the same names
    if (setup.axis) this.labelAll();
    this.draggable = o.draggable;
    this.still = o.still;
    if (o.data.arrange && !shared) arrange(this.balls, o.data.arrange, surface.width, surface.height);
    if (o.still && !shared) settle(this.balls);
  }

  /** Name every ball that has no label by its number (1, 2, ...), as its edges are named in strips. */
  protected labelAll(): void {
    this.balls.forEach((b, i) => (b.label ??= String(i + 1)));
  }

  /** The name of a ball in strips and readouts: its label, or its number. */
  nameOf(b: Ball): string {
    return b.label ?? String(this.balls.indexOf(b) + 1);
  }

  /** Lock step: resolve the contacts the last step left (every pair, one order for all views), then move. */
  physics(): void {
    resolveAll(this.balls, this.options.bounce);
    if (!this.still) integrate(this.balls, this.surface.width, this.surface.height);
  }

  /** Put every ball's bounding box in a World of `dimensions` axes (x, then y). */
  protected useWorld(dimensions: 1 | 2): World {
    const world = (this.world = new World({ dimensions, capacity: this.balls.length }));
    for (const b of this.balls) {
      b.id =
        dimensions === 1
          ? world.addBox([b.x - b.r], [b.x + b.r])
          : world.addBox([b.x - b.r, b.y - b.r], [b.x + b.r, b.y + b.r]);
      this.#bySlot.set(slotOf(b.id), b);
    }
    world.update();
    return world;
  }

  /** Copy the balls' boxes into the engine's bounds view (no call per ball) and update. */
  protected syncWorld(): World {
    const world = this.world!;
    const bounds = world.bounds;
    const d = world.dimensions;
    for (const b of this.balls) {
      const o = world.offsetOf(b.id);
      bounds[o] = b.x - b.r;
      bounds[o + d] = b.x + b.r;
      if (d === 2) {
        bounds[o + 1] = b.y - b.r;
        bounds[o + 3] = b.y + b.r;
      }
    }
    world.update();
    return world;
  }

  /** The ball whose box has this slot (`refs[i] >> 1` of an endpoint list). */
  ballAtSlot(slot: number): Ball {
    return this.#bySlot.get(slot)!;
  }

  /** The ball with this box id. */
  ballOf(id: number): Ball {
    return this.#bySlot.get(slotOf(id))!;
  }

  *frame(): Generator<number, void, void> {
    this.step++;
    if (!this.still && !this.lockstep) integrate(this.balls, this.surface.width, this.surface.height);
    if (this.world && this.syncEveryStep) this.syncWorld(); // the axis view follows every step
    if (this.still || this.step % (this.options.skip + 1) === 0) {
      this.checks = [];
      this.tested = 0;
      this.hits = 0;
      yield* this.detect();
      if (this.options.checks && this.checks.length > 0) yield this.options.delay * 0.75;
      this.#passDone();
    }
  }

  #passDone(): void {
    this.lastTested = this.tested;
    this.#sum += this.tested;
    this.#passes++;
    this.history.push(this.tested);
    if (this.history.length > SPARK_PASSES) this.history.shift();
  }

  get passes(): number {
    return this.#passes;
  }

  /** Mean intersects() calls per complete pass since the start. */
  get meanTested(): number {
    return this.#passes ? this.#sum / this.#passes : 0;
  }

  /** The broadphase: call `yield* this.check(a, b)` for every candidate pair. */
  protected abstract detect(): Generator<number, void, void>;

  /** The narrow phase for one pair, instrumented: counted, drawn, and slowed down when the figure asks for it. */
  protected *check(a: Ball, b: Ball): Generator<number, boolean, void> {
    // in lock step the player bounces the shared balls once for all views; a view only tests
    const hit = collide(a, b, this.options.bounce && !this.lockstep);
    this.tested++;
    if (hit) this.hits++;
    this.checks.push({ a, b, hit });
    if (this.options.checks) {
      yield this.options.delay * 0.25;
      if (hit) yield 50;
    }
    return hit;
  }

  /** The colour a ball is drawn in this frame. */
  protected colorOf(b: Ball): string {
    const last = this.checks[this.checks.length - 1];
    if (this.options.checks && last && (last.a === b || last.b === b)) return this.options.checks;
    return b.color;
  }

  draw(): void {
    const g = this.surface;
    g.clear();
    this.drawUnder();
    const { checks } = this;
    const linked = this.setup.link.ball;
    const mine = (c: Check): boolean => linked !== undefined && (c.a === linked || c.b === linked);
    if (this.options.checks) {
      // with a linked ball its pair lines stand out and the others fade
      checks.forEach((c, i) => {
        const latest = i === checks.length - 1;
        g.ctx.globalAlpha = mine(c) || latest ? 1 : linked ? 0.3 : 0.7;
        const width = mine(c) ? 4 : latest ? 3 : 2;
        g.line(c.a.x, c.a.y, c.b.x, c.b.y, this.options.checks, width, c.hit ? undefined : [6, 5]);
      });
      g.ctx.globalAlpha = 1;
    }
    for (const b of this.balls) {
      g.disc(b.x, b.y, b.r, this.colorOf(b));
      if (this.draggable) g.grabRing(b.x, b.y, b.r);
    }
    if (this.options.checks) {
      // lines on top of the balls too, thinner, so pairs between overlapping balls stay visible
      for (const c of checks) {
        g.ctx.globalAlpha = linked && !mine(c) ? 0.3 : 1;
        g.line(c.a.x, c.a.y, c.b.x, c.b.y, this.options.checks, mine(c) ? 2 : 1);
      }
      g.ctx.globalAlpha = 1;
    }
    // labels after every disc, so an overlapping ball never hides one, and apart from each other
    drawLabels(g, this.balls);
    if (linked) {
      g.ring(linked.x, linked.y, linked.r + 4, '#000', 4);
      g.ring(linked.x, linked.y, linked.r + 3, LINK, 2.5);
    }
    this.drawOver();
    if (this.setup.axis && this.world) {
      this.#axisLayout = drawAxisView(this.setup.axis, this.world, {
        colorOf: (slot) => this.ballAtSlot(slot).color,
        labelOf: (slot) => this.nameOf(this.ballAtSlot(slot)),
        linked: linked && this.balls.includes(linked) ? slotOf(linked.id) : -1,
      });
    }
  }

  #axisLayout: AxisLayout | undefined;

  axisText(): Array<{ axis: string; edges: string }> {
    return (this.#axisLayout?.refs ?? []).map((refs, a) => ({
      axis: 'xyzw'[a]!,
      edges: Array.from(refs, (r) => `${r & 1 ? ')' : '('}${this.nameOf(this.ballAtSlot(r >>> 1))}`).join(' '),
    }));
  }

  pickAxis(x: number, y: number): Ball | undefined {
    const slot = this.#axisLayout ? slotAt(this.#axisLayout, x, y) : -1;
    return slot >= 0 ? this.ballAtSlot(slot) : undefined;
  }

  protected drawUnder(): void {}
  protected drawOver(): void {}

  /** Counters name their timescale: the last complete pass, this pass so far, the mean, the engine's last update. */
  stats(): Stat[] {
    const s: Stat[] = [
      { key: 'frame', label: this.lockstep ? 'frame (shared)' : 'frame', value: this.step },
      { key: 'tested', label: 'intersects() calls, last pass', value: this.lastTested },
    ];
    // a slowed-down pass is watched as it runs: its count so far is a counter of its own
    if (this.options.checks) s.push({ key: 'testing', label: 'this pass so far', value: this.tested });
    s.push(
      { key: 'mean', label: 'mean per pass', value: this.meanTested.toFixed(1) },
      { key: 'spark', label: `last ${SPARK_PASSES} passes`, value: sparkline(this.history) },
      { key: 'overlapping', label: 'touching pairs, this pass', value: this.hits },
    );
    return s;
  }

  /** The engine's own numbers for its last update. */
  protected engineStats(): Stat[] {
    if (!this.world) return [];
    const c = this.world.counters;
    return [
      { key: 'candidates', label: 'engine box pairs, last update', value: c.pairs },
      { key: 'swaps', label: 'engine swaps, last update', value: c.swaps },
      { key: 'engineTests', label: 'engine tests, last update', value: c.overlapTests },
    ];
  }

  dispose(): void {
    this.world?.dispose();
    this.world = undefined;
  }
}

/** Where the axis view drew each endpoint: per axis, its row and the list's refs, one cell each. */
export interface AxisLayout {
  left: number;
  cell: number[];
  rowH: number;
  refs: Uint32Array[];
}

export interface AxisOptions {
  colorOf: (slot: number) => string;
  /** A box's name, written under its edges where there is room. */
  labelOf?: (slot: number) => string;
  /** The linked box's slot, or -1: its edges are boxed and its bars drawn bold. */
  linked?: number;
}

/** The slot of the endpoint drawn at (x, y), or -1. */
export function slotAt(layout: AxisLayout, x: number, y: number): number {
  const axis = Math.floor(y / layout.rowH);
  const refs = layout.refs[axis];
  if (!refs) return -1;
  const i = Math.floor((x - layout.left) / layout.cell[axis]!);
  return i >= 0 && i < refs.length ? refs[i]! >>> 1 : -1;
}

/**
 * The axis view: each axis's sorted endpoint list (`world.endpoints()`, the textbook form the engine keeps for
 * display; its broadphase sorts boxes inside slabs, see slabview.ts), one glyph per endpoint in list order
 * ( "(" a min, ")" a max ), in the box's colour and with its name under it where there is room; under the glyphs
 * each box's span of the list is a bar, stacked in lanes, so boxes whose bars share a column overlap on that axis.
 * The places of the linked box's edges are published as data-linked ("x:2,7 y:1,5") for scripts.
 */
export function drawAxisView(g: Surface, world: World, o: AxisOptions): AxisLayout {
  g.clear('#0b0b0f');
  const rowH = g.height / world.dimensions;
  const left = 28;
  const linked = o.linked ?? -1;
  const layout: AxisLayout = { left, cell: [], rowH, refs: [] };
  const marks: string[] = [];
  for (let axis = 0; axis < world.dimensions; axis++) {
    const { refs } = world.endpoints(axis);
    layout.refs.push(refs);
    const n = refs.length;
    const top = axis * rowH;
    const cell = (g.width - left - 8) / Math.max(1, n);
    layout.cell.push(cell);
    const glyphY = top + rowH * 0.22;
    const labelY = top + rowH * 0.47;
    const size = Math.min(18, Math.max(10, cell * 1.4));
    // names fit when a cell is as wide as a name's font is tall
    const labels = o.labelOf !== undefined && cell >= g.fontSize(11) * 1.05;
    g.text('xyzw'[axis]!, 12, glyphY, MUTED, 14, 'center', '600');
    const lanes: number[] = []; // lane -> slot occupying it, or -1
    const laneOf = new Map<number, number>();
    const start = new Map<number, number>();
    const bars: Array<[number, number, number, string, boolean]> = [];
    const mine: number[] = [];
    for (let i = 0; i < n; i++) {
      const ref = refs[i]!;
      const slot = ref >>> 1;
      const isMax = (ref & 1) === 1;
      const cx = left + (i + 0.5) * cell;
      const color = o.colorOf(slot);
      const lit = slot === linked;
      if (lit) {
        mine.push(i);
        g.ctx.fillStyle = LINK;
        g.ctx.fillRect(cx - cell / 2, top + 1, cell, rowH * 0.56);
      }
      g.text(isMax ? ')' : '(', cx, glyphY, lit ? '#000' : color, size, 'center', '700');
      if (labels) g.text(o.labelOf!(slot), cx, labelY, lit ? '#000' : color, 11, 'center', '600');
      if (!isMax) {
        let lane = lanes.indexOf(-1);
        if (lane < 0) lane = lanes.push(-1) - 1;
        lanes[lane] = slot;
        laneOf.set(slot, lane);
        start.set(slot, cx);
      } else {
        const lane = laneOf.get(slot) ?? 0;
        lanes[lane] = -1;
        const y = top + rowH * 0.68 + Math.min(lane, 5) * rowH * 0.055;
        bars.push([start.get(slot) ?? cx, cx, y, color, lit]);
      }
    }
    for (const [x0, x1, y, color, lit] of bars) if (!lit) g.line(x0, y, x1, y, color, 2.5);
    for (const [x0, x1, y, , lit] of bars) if (lit) g.line(x0, y, x1, y, LINK, 4);
    marks.push(`${'xyzw'[axis]}:${mine.join(',')}`);
  }
  g.canvas.dataset.linked = linked >= 0 ? marks.join(' ') : '';
  return layout;
}

/** Where a label that would cover another goes instead: around its ball, above it first (angles in radians). */
const LABEL_ANGLES = [
  -Math.PI / 2,
  Math.PI / 2,
  0,
  Math.PI,
  -Math.PI / 4,
  -(3 * Math.PI) / 4,
  Math.PI / 4,
  (3 * Math.PI) / 4,
];

/**
 * The balls' labels: each in the middle of its ball, unless another label is already there (balls that pass through
 * each other); then just outside its ball on a dark backing, at the first place free of the labels drawn so far.
 */
export function drawLabels(g: Surface, balls: readonly Ball[]): void {
  const placed: Array<{ x: number; y: number; w: number; h: number }> = [];
  // where each label went (logical units), for anyone scripting the page
  const publish = (): void => {
    g.canvas.dataset.labels = JSON.stringify(placed.map((p) => [p.x, p.y, p.w, p.h].map((v) => +v.toFixed(1))));
  };
  const free = (x: number, y: number, w: number, h: number): boolean =>
    placed.every((p) => Math.abs(p.x - x) >= (p.w + w) / 2 || Math.abs(p.y - y) >= (p.h + h) / 2);
  for (const b of balls) {
    if (!b.label) continue;
    const size = Math.min(30, Math.max(12, b.r * 1.1));
    const h = g.fontSize(size);
    const w = h * 0.65 * b.label.length + 4;
    if (free(b.x, b.y, w, h)) {
      placed.push({ x: b.x, y: b.y, w, h });
      g.text(b.label, b.x, b.y + 1, '#000', size, 'center', '600');
      continue;
    }
    const away = b.r + h * 0.7;
    const spots = LABEL_ANGLES.map((a) => [b.x + Math.cos(a) * away, b.y + Math.sin(a) * away] as const);
    const [x, y] = spots.find(([x, y]) => free(x, y, w, h)) ?? spots[0]!;
    placed.push({ x, y, w, h });
    g.ctx.fillStyle = 'rgba(0,0,0,0.8)';
    g.ctx.fillRect(x - w / 2, y - h / 2, w, h);
    g.text(b.label, x, y + 1, '#fff', size, 'center', '600');
  }
  if (placed.length) publish();
}
