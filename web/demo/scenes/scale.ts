// The engine at scale: 10 000 to 100 000 moving boxes (the benchmark's scene), one update per display frame, every
// box in a pair drawn orange. The pixels are written straight into an ImageData (no canvas call per box), so
// drawing is not what limits the frame rate; a toggle swaps the engine for the plain sorted-JS loop.
import { slotOf } from 'sweep-prune';
import { Boxes, Engine, SortedJs } from '../boxes.js';
import type { Surface } from '../draw.js';
import type { CreateScene, Scene, SceneSetup, Stat } from '../scene.js';

const SIZES = [10_000, 30_000, 100_000];
/** Width over height of the area the boxes move in: the canvas's. */
const ASPECT = 3 / 2;
/** Frames averaged in the ms readouts, and the window of the frame rate. */
const WINDOW = 30;
const FPS_WINDOW_MS = 1000;
// ABGR (little-endian ImageData words): background, then a box by the number of pairs it is in: none (blue-grey),
// one (dark brown), two or three (dark orange), four or more (the page's orange). Nearly every box is in some
// pair at this density (4.4 neighbours on average), so the count is what shows the crowds.
const BG = 0xff000000;
const BY_PAIRS = [0xff7a5a3a, 0xff10346b, 0xff125ab8, 0xff125ab8, 0xff1a9fff]; // #3a5a7a #6b3410 #b85a12 #ff9f1a

const mean = (xs: number[]): number => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);

class Scale implements Scene {
  readonly balls = [];
  readonly draggable = false;
  readonly still = false;
  step = 0;
  readonly n: number;
  readonly boxes: Boxes;
  readonly engine: Engine;
  /** Box index of each engine slot. */
  readonly #indexOfSlot: Int32Array;
  #sorted: SortedJs | undefined;
  /** The number of pairs each box is in this frame (saturating at 255). */
  readonly mark: Uint8Array;
  useJs = false;
  pairs = 0;
  enginePairs = 0;
  readonly #updateMs: number[] = [];
  readonly #drawMs: number[] = [];
  readonly #moveMs: number[] = [];
  readonly #frameTimes: number[] = [];
  #image: ImageData | undefined;
  readonly #drawOrder: Int32Array;
  #dirty = true;
  readonly #toggle: HTMLButtonElement;
  readonly #readout: HTMLElement;

  constructor(
    readonly surface: Surface,
    setup: SceneSetup,
  ) {
    // one backing pixel per CSS pixel: a box of 100 000 is a few pixels wide either way, and a quarter of the
    // pixels at DPR 2 is a quarter of the time spent filling and uploading them
    surface.maxRatio = 1;
    surface.fit();
    const n = Number(setup.options.data.n ?? 10_000);
    this.n = SIZES.includes(n) ? n : 10_000;
    this.boxes = new Boxes(this.n, ASPECT);
    this.engine = new Engine(this.boxes);
    const slots = Array.from(this.engine.ids, slotOf);
    this.#indexOfSlot = new Int32Array(slots.reduce((m, x) => Math.max(m, x), 0) + 1).fill(-1);
    slots.forEach((slot, i) => (this.#indexOfSlot[slot] = i));
    this.mark = new Uint8Array(this.n);
    // large boxes first, so the small ones on top of them stay visible (sizes never change)
    const b = this.boxes.b;
    const area = (i: number): number => (b[4 * i + 2]! - b[4 * i]!) * (b[4 * i + 3]! - b[4 * i + 1]!);
    this.#drawOrder = Int32Array.from(Array.from({ length: this.n }, (_, i) => i).sort((p, q) => area(q) - area(p)));

    const bar = document.createElement('div');
    bar.className = 'scale-bar';
    const label = document.createElement('label');
    label.className = 'bench-max';
    label.textContent = 'Boxes ';
    const select = document.createElement('select');
    select.dataset.option = 'n';
    for (const k of SIZES) select.add(new Option(k.toLocaleString('en-US'), String(k), false, k === this.n));
    label.append(select);
    this.#toggle = document.createElement('button');
    this.#toggle.type = 'button';
    this.#toggle.className = 'toggle';
    this.#toggle.dataset.action = 'js';
    this.#toggle.textContent = 'Use the sorted-JS loop instead';
    this.#toggle.setAttribute('aria-pressed', 'false');
    this.#toggle.addEventListener('click', () => this.setJs(!this.useJs));
    bar.append(label, this.#toggle);
    this.#readout = document.createElement('p');
    this.#readout.className = 'scale-readout';
    setup.panel.append(bar, this.#readout);
  }

  /** Switch the broadphase between the engine and the sorted-JS loop (same boxes, same motion). */
  setJs(on: boolean): void {
    this.useJs = on;
    this.#toggle.setAttribute('aria-pressed', String(on));
    this.#updateMs.length = 0;
    this.#frameTimes.length = 0;
    if (on) this.#sorted = new SortedJs(this.n); // starts from a comparison sort, then insertion sort
  }

  *frame(): Generator<number, void, void> {
    this.step++;
    const now = performance.now();
    this.#frameTimes.push(now);
    while (this.#frameTimes[0]! < now - FPS_WINDOW_MS) this.#frameTimes.shift();
    const { boxes, mark } = this;
    boxes.move();
    mark.fill(0);
    const t0 = performance.now();
    this.#push(this.#moveMs, t0 - now);
    if (this.useJs) {
      this.pairs = this.#sorted!.pairs(boxes.b, mark);
      this.#push(this.#updateMs, performance.now() - t0);
    } else {
      this.enginePairs = this.engine.pairs(boxes.b);
      this.#push(this.#updateMs, performance.now() - t0);
      // the pairs the engine hands out are what is drawn (and counted)
      const pairs = this.engine.world.pairs;
      const slots = this.#indexOfSlot;
      for (let k = 0; k < pairs.length; k++) {
        const i = slots[slotOf(pairs[k]!)]!;
        if (mark[i]! < 255) mark[i]!++;
      }
      this.pairs = pairs.length / 2;
    }
    this.#dirty = true;
  }

  #push(xs: number[], x: number): void {
    xs.push(x);
    if (xs.length > WINDOW) xs.shift();
  }

  draw(): void {
    const g = this.surface;
    const { canvas } = g;
    const resized = g.fit();
    const W = canvas.width;
    const H = canvas.height;
    if (W === 0 || H === 0 || (!this.#dirty && !resized)) return;
    this.#dirty = false;
    const t0 = performance.now();
    if (!this.#image || this.#image.width !== W || this.#image.height !== H) this.#image = g.ctx.createImageData(W, H);
    const px = new Uint32Array(this.#image.data.buffer);
    px.fill(BG);
    const { b, side, sideY } = this.boxes;
    const n = this.n;
    const sx = W / side;
    const sy = H / sideY;
    const mark = this.mark;
    const order = this.#drawOrder;
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      const x0 = Math.max(0, Math.floor(b[4 * i]! * sx));
      const y0 = Math.max(0, Math.floor(b[4 * i + 1]! * sy));
      // a pixel of gap at the right and bottom of boxes 3 pixels or wider: neighbours stay apart
      let x1 = Math.floor(b[4 * i + 2]! * sx);
      let y1 = Math.floor(b[4 * i + 3]! * sy);
      x1 = Math.min(W, Math.max(x0 + 1, x1 - x0 >= 3 ? x1 - 1 : x1));
      y1 = Math.min(H, Math.max(y0 + 1, y1 - y0 >= 3 ? y1 - 1 : y1));
      const color = BY_PAIRS[Math.min(4, mark[i]!)]!;
      for (let y = y0; y < y1; y++) {
        const row = y * W;
        for (let k = row + x0; k < row + x1; k++) px[k] = color; // rows are short: a loop beats fill()
      }
    }
    g.ctx.putImageData(this.#image, 0, 0);
    this.#push(this.#drawMs, performance.now() - t0);
  }

  get fps(): number {
    const t = this.#frameTimes;
    return t.length > 1 ? ((t.length - 1) * 1000) / (t.at(-1)! - t[0]!) : 0;
  }

  panel(): void {
    const update = mean(this.#updateMs);
    const draw = mean(this.#drawMs);
    const who = this.useJs ? 'sorted JS' : 'sweep-prune';
    this.#readout.textContent =
      `${this.n.toLocaleString('en-US')} boxes, ${this.pairs.toLocaleString('en-US')} pairs (${(this.pairs / this.n).toFixed(1)} per box) · ` +
      `${who}: ${update.toFixed(2)} ms per update · drawing ${draw.toFixed(2)} ms · ${this.fps.toFixed(0)} frames per second`;
    const d = this.#readout.dataset;
    d.boxes = String(this.n);
    d.pairs = String(this.pairs);
    d.enginePairs = this.useJs ? '' : String(this.enginePairs);
    d.updateMs = update.toFixed(3);
    d.drawMs = draw.toFixed(3);
    d.moveMs = mean(this.#moveMs).toFixed(3);
    d.fps = this.fps.toFixed(1);
    d.mode = this.useJs ? 'js' : 'engine';
  }

  stats(): Stat[] {
    const c = this.engine.world.counters;
    return [
      { key: 'frame', label: 'frame', value: this.step },
      { key: 'pairs', label: 'pairs, last frame', value: this.pairs },
      {
        key: 'updateMs',
        label: `ms per update (${this.useJs ? 'sorted JS' : 'engine'}), mean of ${WINDOW}`,
        value: mean(this.#updateMs).toFixed(2),
      },
      { key: 'fps', label: 'frames per second, last second', value: this.fps.toFixed(0) },
      ...(this.useJs ? [] : [{ key: 'slabs', label: 'engine slabs, last update', value: c.slabs }]),
    ];
  }

  dispose(): void {
    this.engine.world.dispose();
  }
}

export const createScene: CreateScene = (canvas, setup) => new Scale(canvas, setup);
