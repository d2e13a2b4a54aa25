// Chapter 16: tunnelling. A small fast box crosses a thin wall. A broadphase sees only where boxes are at each
// update, so a box that jumps further than its width plus the wall's in one frame is on one side, then on the other,
// and never overlaps the wall: the pair is never reported. Its swept box, the box that holds it at the last update and
// at this one, overlaps the wall whenever it crossed. Two worlds get the same motion: one with the box as it is, one
// with its swept box; each counts the crossings it reported. Each run starts a fraction of a jump further on (the
// fractions of the golden ratio), so that the updates land at every distance from the wall in turn: a box faster
// than REACH per update then overlaps the wall on about REACH / speed of its crossings, at every speed.
import { World } from 'sweep-prune';
import { figureData, slider } from '../controls.js';
import type { Surface } from '../draw.js';
import { BEGAN, ENDED, MUTED, WALL_FILL } from '../palette.js';
import type { CreateScene, Scene, SceneSetup, Stat } from '../scene.js';

const WALL = { x0: 296, x1: 304, y0: 60, y1: 340 };
const SIZE = 10;
const GHOSTS = 6;
/** A box overlaps the wall at an update when its centre is within this span: the box's width plus the wall's. */
export const REACH = SIZE + (WALL.x1 - WALL.x0);
const START = 40;
const GOLDEN = (Math.sqrt(5) - 1) / 2;

class Tunnel implements Scene {
  readonly balls = [];
  readonly draggable = false;
  readonly still = false;
  step = 0;
  speed = 24;
  x = START;
  readonly y = 200;
  /** Runs across the canvas so far (each starts at another fraction of a jump). */
  #runs = 0;
  /** Crossings of the wall so far, and those each world reported as a pair. */
  crossings = 0;
  seenPlain = 0;
  seenSwept = 0;
  readonly #plain = new World({ dimensions: 2 });
  readonly #swept = new World({ dimensions: 2 });
  readonly #boxes: [number, number];
  #trail: number[] = [];
  #last: { plain: boolean; swept: boolean } = { plain: false, swept: false };
  readonly #out: HTMLElement;

  constructor(
    readonly surface: Surface,
    setup: SceneSetup,
  ) {
    const wall = [
      [WALL.x0, WALL.y0],
      [WALL.x1, WALL.y1],
    ] as const;
    for (const w of [this.#plain, this.#swept]) w.setBoxStatic(w.addBox(wall[0], wall[1]), true);
    this.#boxes = [this.#plain.addBox(...this.#box(this.x)), this.#swept.addBox(...this.#box(this.x))];
    const label = slider(
      {
        min: 2,
        max: 60,
        value: this.speed,
        knob: 'speed',
        say: (v) => `speed ${v} per frame`,
        keep: figureData(setup.panel),
      },
      (v) => (this.speed = v),
    );
    this.speed = Number(label.querySelector('input')!.value);
    const bar = document.createElement('div');
    bar.className = 'scale-bar';
    bar.append(label);
    this.#out = document.createElement('p');
    this.#out.className = 'scale-readout tunnel-readout';
    setup.panel.append(bar, this.#out);
  }

  #box(x: number, from = x): [[number, number], [number, number]] {
    const h = SIZE / 2;
    return [
      [Math.min(x, from) - h, this.y - h],
      [Math.max(x, from) + h, this.y + h],
    ];
  }

  *frame(): Generator<number, void, void> {
    this.step++;
    const from = this.x;
    let to = from + this.speed;
    if (to > this.surface.width - 20) {
      // back to the left edge, off the record (the jump is not a crossing), a new fraction of a jump further on
      this.#runs++;
      to = START + ((this.#runs * GOLDEN) % 1) * this.speed;
      this.#plain.setBox(this.#boxes[0], ...this.#box(to));
      this.#swept.setBox(this.#boxes[1], ...this.#box(to));
      this.#plain.update();
      this.#swept.update();
      this.x = to;
      this.#trail = [];
      return;
    }
    this.x = to;
    this.#plain.setBox(this.#boxes[0], ...this.#box(to));
    this.#swept.setBox(this.#boxes[1], ...this.#box(to, from));
    this.#plain.update();
    this.#swept.update();
    // a crossing: the box's centre passes the wall's middle; it is seen when a world reports the pair on any of the
    // frames around it (one run of frames with the pair reported is one crossing seen)
    if (from < (WALL.x0 + WALL.x1) / 2 && to >= (WALL.x0 + WALL.x1) / 2) this.crossings++;
    const plain = this.#plain.pairCount > 0;
    const swept = this.#swept.pairCount > 0;
    if (plain && !this.#last.plain) this.seenPlain++;
    if (swept && !this.#last.swept) this.seenSwept++;
    this.#last = { plain, swept };
    this.#trail.push(to);
    if (this.#trail.length > GHOSTS) this.#trail.shift();
  }

  draw(): void {
    const g = this.surface;
    const { ctx } = g;
    g.clear();
    ctx.fillStyle = WALL_FILL;
    ctx.fillRect(WALL.x0, WALL.y0, WALL.x1 - WALL.x0, WALL.y1 - WALL.y0);
    ctx.strokeStyle = MUTED;
    ctx.lineWidth = g.stroke(1);
    ctx.strokeRect(WALL.x0, WALL.y0, WALL.x1 - WALL.x0, WALL.y1 - WALL.y0);
    const h = SIZE / 2;
    // where the box was at the last updates: all a broadphase sees
    this.#trail.forEach((x, i) => {
      ctx.globalAlpha = 0.25 + (0.5 * i) / GHOSTS;
      ctx.strokeStyle = '#ddd';
      ctx.strokeRect(x - h, this.y - h, SIZE, SIZE);
    });
    ctx.globalAlpha = 1;
    const t = this.#trail;
    if (t.length > 1) {
      // the swept box of the last update: blue when it overlaps the wall
      const [a, b] = [t[t.length - 2]!, t[t.length - 1]!];
      ctx.fillStyle = this.#last.swept ? 'rgba(77,163,255,0.25)' : 'rgba(255,255,255,0.06)';
      ctx.fillRect(Math.min(a, b) - h, this.y - h - 6, Math.abs(b - a) + SIZE, SIZE + 12);
      g.text('swept box', (a + b) / 2, this.y - h - 16, this.#last.swept ? BEGAN : MUTED, 12, 'center', '600');
    }
    ctx.fillStyle = this.#last.plain ? ENDED : '#fff';
    ctx.fillRect(this.x - h, this.y - h, SIZE, SIZE);
  }

  panel(): void {
    const missed = this.crossings - this.seenPlain;
    this.#out.textContent =
      `crossings of the wall: ${this.crossings} · the box at each update overlapped it in ${this.seenPlain}` +
      (missed > 0 ? ` (${missed} tunnelled through)` : '') +
      ` · the swept box in ${this.seenSwept} · at speed ${this.speed} the box as it is ` +
      (this.speed <= REACH
        ? `cannot miss it (it moves at most ${REACH}, its width plus the wall's, per update)`
        : `lands on it in about ${Math.round((100 * REACH) / this.speed)} % of crossings (${REACH} / ${this.speed})`);
    const d = this.#out.dataset;
    d.crossings = String(this.crossings);
    d.seenPlain = String(this.seenPlain);
    d.seenSwept = String(this.seenSwept);
  }

  stats(): Stat[] {
    return [
      { key: 'frame', label: 'frame', value: this.step },
      { key: 'crossings', label: 'crossings', value: this.crossings },
      { key: 'plain', label: 'reported, box as it is', value: this.seenPlain },
      { key: 'swept', label: 'reported, swept box', value: this.seenSwept },
    ];
  }

  dispose(): void {
    this.#plain.dispose();
    this.#swept.dispose();
  }
}

export const createScene: CreateScene = (canvas, setup) => new Tunnel(canvas, setup);
