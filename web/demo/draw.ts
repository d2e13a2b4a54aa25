// The canvas: logical size in CSS-independent units, backing store scaled by devicePixelRatio, and the few
// drawing primitives the scenes share.

export const BACKGROUND = '#000';
export const BALL = '#ccc';

/** A canvas with a fixed logical size (default 600 x 400) drawn sharply at any devicePixelRatio. */
export class Surface {
  readonly ctx: CanvasRenderingContext2D;
  #dpr = 0;

  constructor(
    readonly canvas: HTMLCanvasElement,
    readonly width = 600,
    readonly height = 400,
  ) {
    this.ctx = canvas.getContext('2d')!;
    canvas.style.aspectRatio = `${width} / ${height}`;
    this.fit();
  }

  /** Match the backing store to the current devicePixelRatio (it changes with zoom or a move to another screen). */
  fit(): void {
    const dpr = Math.min(window.devicePixelRatio || 1, 3);
    if (dpr === this.#dpr) return;
    this.#dpr = dpr;
    this.canvas.width = Math.round(this.width * dpr);
    this.canvas.height = Math.round(this.height * dpr);
  }

  /** Start a frame: reset the transform (scale = backing pixels per logical unit) and paint the background. */
  clear(color = BACKGROUND): CanvasRenderingContext2D {
    this.fit();
    const { ctx } = this;
    const s = this.canvas.width / this.width;
    ctx.setTransform(s, 0, 0, s, 0, 0);
    ctx.fillStyle = color;
    ctx.fillRect(0, 0, this.width, this.height);
    return ctx;
  }

  /** Client (pointer event) coordinates to logical coordinates. */
  toLocal(clientX: number, clientY: number): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    return { x: ((clientX - r.left) / r.width) * this.width, y: ((clientY - r.top) / r.height) * this.height };
  }

  disc(x: number, y: number, r: number, fill: string): void {
    const { ctx } = this;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fillStyle = fill;
    ctx.fill();
  }

  /** The dashed inner ring that marks a ball the reader can drag. */
  grabRing(x: number, y: number, r: number): void {
    const { ctx } = this;
    ctx.save();
    ctx.beginPath();
    ctx.arc(x, y, Math.max(2, r - 6), 0, Math.PI * 2);
    ctx.setLineDash([5, 5]);
    ctx.lineWidth = 2;
    ctx.strokeStyle = 'rgba(0,0,0,0.45)';
    ctx.stroke();
    ctx.restore();
  }

  line(x0: number, y0: number, x1: number, y1: number, color: string, width = 2, dash?: number[]): void {
    const { ctx } = this;
    ctx.save();
    if (dash) ctx.setLineDash(dash);
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.stroke();
    ctx.restore();
  }

  /** A full-height vertical line, dashed by default: how edges are drawn. */
  vline(x: number, color: string, width = 1.5, dash: number[] = [6, 6]): void {
    this.line(x, 0, x, this.height, color, width, dash);
  }

  text(s: string, x: number, y: number, color: string, size = 16, align: CanvasTextAlign = 'center', weight = 'normal'): void {
    const { ctx } = this;
    ctx.font = `${weight} ${size}px ui-sans-serif, system-ui, sans-serif`;
    ctx.textAlign = align;
    ctx.textBaseline = 'middle';
    ctx.fillStyle = color;
    ctx.fillText(s, x, y);
  }
}

/** The article's rainbow: hue i/n, light and saturated. */
export function rainbow(i: number, n: number): string {
  return `hsl(${((i / n) * 360).toFixed(1)} 90% 70%)`;
}
