// The reader's own runs as a growth chart (chapters 5 and 9): each ball count the slider settles at becomes a point
// per view, balls on x and mean intersects() calls per pass on y, over the n(n - 1)/2 curve of testing every pair.
// The point of the current count follows its view's mean as passes complete; the points stay when the count moves
// on. The points are published as data-points on the canvas ([n, mean per view] pairs) for scripts.
import { Surface, type MarkerShape } from './draw.js';

export interface Series {
  name: string;
  color: string;
  shape: MarkerShape;
}

export class GrowthChart {
  readonly surface: Surface;
  /** Ball count -> each view's mean intersects() calls per pass (NaN before its first pass). */
  readonly points = new Map<number, number[]>();
  #current: number;

  constructor(
    canvas: HTMLCanvasElement,
    readonly series: readonly Series[],
    readonly maxN: number,
    first: number,
  ) {
    // a wide, low chart beside a wide figure; a squarer one on a narrow screen, where it would be too low to read
    const narrow = window.innerWidth < 760;
    this.surface = new Surface(canvas, narrow ? 600 : 1000, narrow ? 330 : 260);
    this.surface.onResize = () => this.draw();
    this.#current = first;
  }

  /** The slider settled at `n`: its point begins (the one it leaves stays as it was). */
  settle(n: number): void {
    this.#current = n;
    this.points.delete(n); // a count visited again is measured again
  }

  /**
   * The views' means for a run of `n` balls, as they count them now; kept as the point of `n` when `n` is the count
   * the slider settled at and every view has completed a pass (`ready`).
   */
  update(n: number, means: readonly number[], ready: boolean): void {
    if (n !== this.#current || !ready) return;
    this.points.set(n, [...means]);
    this.surface.canvas.dataset.points = JSON.stringify([...this.points].sort((p, q) => p[0] - q[0]));
    this.draw();
  }

  draw(): void {
    const g = this.surface;
    if (g.canvas.width === 0) return;
    const { ctx } = g;
    g.clear('#07080c');
    const { u, L, T, w, h } = g.plotArea(50, 12, 14, 34);
    const top = (this.maxN * (this.maxN - 1)) / 2;
    const px = (n: number): number => L + (n / this.maxN) * w;
    const py = (v: number): number => T + h - (Math.min(v, top) / top) * h;
    for (const v of [0, top / 4, top / 2, (3 * top) / 4, top]) {
      g.line(L, py(v), L + w, py(v), '#222', 1);
      g.text(String(Math.round(v)), L - 6 * u, py(v), '#999', 11, 'right');
    }
    for (let n = 0; n <= this.maxN; n += this.maxN > 20 ? 10 : 5) {
      g.text(String(n), px(n), T + h + 12 * u, '#999', 11);
    }
    g.text('balls', L + w / 2, T + h + 27 * u, '#aaa', 12);
    // every pair: n(n - 1)/2
    ctx.beginPath();
    for (let n = 0; n <= this.maxN; n += 0.5) {
      const v = (n * (n - 1)) / 2;
      if (n === 0) ctx.moveTo(px(n), py(Math.max(0, v)));
      else ctx.lineTo(px(n), py(Math.max(0, v)));
    }
    ctx.save();
    ctx.setLineDash([g.stroke(5), g.stroke(4)]);
    ctx.strokeStyle = '#888';
    ctx.lineWidth = g.stroke(1.5);
    ctx.stroke();
    ctx.restore();
    g.text('n(n − 1)/2: every pair', px(this.maxN * 0.72), py(top * 0.55), '#aaa', 11, 'right');
    const sorted = [...this.points].sort((p, q) => p[0] - q[0]);
    this.series.forEach((s, i) => {
      ctx.beginPath();
      sorted.forEach(([n, means], k) => (k ? ctx.lineTo(px(n), py(means[i]!)) : ctx.moveTo(px(n), py(means[i]!))));
      ctx.strokeStyle = s.color;
      ctx.lineWidth = g.stroke(1.5);
      ctx.stroke();
      for (const [n, means] of sorted) {
        g.marker(s.shape, px(n), py(means[i]!), 4 * u, s.color);
        if (n === this.#current) g.ring(px(n), py(means[i]!), 7 * u, s.color, 1.5);
      }
      // the legend, top left
      const y = T + 8 * u + i * 16 * u;
      g.marker(s.shape, L + 12 * u, y, 4.5 * u, s.color);
      g.text(s.name, L + 22 * u, y, '#ddd', 12, 'left');
    });
  }
}
