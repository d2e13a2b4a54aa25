// The canvas: a fixed logical coordinate system (default 600 x 400) scaled to the element's CSS size, a backing
// store of that CSS size times devicePixelRatio (capped), and the few drawing primitives the scenes share.
import { BACKGROUND } from './palette.js';

/** Backing-store pixels per CSS pixel at most: beyond 2 a phone spends memory and fill rate on no visible gain. */
export const MAX_PIXEL_RATIO = 2;
/** The smallest text drawn on a canvas, in CSS pixels, at any width. */
export const MIN_LABEL_PX = 11;

/**
 * A canvas with a fixed logical size drawn sharply at its CSS size. The backing store exists only while the
 * surface is active (see `activate()` / `release()`), and follows the element's size through a ResizeObserver.
 */
export class Surface {
  readonly ctx: CanvasRenderingContext2D;
  /** Called after the backing store was resized (which clears it): redraw. */
  onResize: (() => void) | undefined;
  /** Backing-store pixels per CSS pixel at most (a figure that writes its own pixels may ask for fewer). */
  maxRatio = MAX_PIXEL_RATIO;
  /** Times the backing store was resized (and so cleared): a scene that redraws only on change compares it. */
  resizes = 0;
  #cssWidth = 0;
  #active = false;
  #minFont = Infinity;

  constructor(
    readonly canvas: HTMLCanvasElement,
    readonly width = 600,
    readonly height = 400,
  ) {
    this.ctx = canvas.getContext('2d')!;
    canvas.style.aspectRatio = `${width} / ${height}`;
    canvas.width = 0;
    canvas.height = 0;
    new ResizeObserver((entries) => {
      const w = entries[entries.length - 1]!.contentRect.width;
      if (w === this.#cssWidth) return;
      this.#cssWidth = w;
      if (this.#active && this.fit()) this.onResize?.();
    }).observe(canvas);
  }

  /** Give the canvas a backing store (and keep it sized) until `release()`. */
  activate(): void {
    this.#active = true;
    this.#cssWidth = this.canvas.getBoundingClientRect().width;
    this.fit();
  }

  /** Drop the backing store: a 0 x 0 canvas costs no memory; its CSS size is unchanged. */
  release(): void {
    this.#active = false;
    this.canvas.width = 0;
    this.canvas.height = 0;
    this.resizes++;
  }

  /** Logical units per CSS pixel (1 before the canvas is laid out). */
  get unit(): number {
    return this.#cssWidth > 0 ? this.width / this.#cssWidth : 1;
  }

  /** The smallest font drawn since the last `clear()`, in CSS pixels (Infinity when no text was drawn). */
  get minFontPx(): number {
    return this.#minFont;
  }

  /**
   * Match the backing store to the CSS size times the pixel ratio (zoom and a move to another screen change it).
   * True when it changed (the canvas was cleared).
   */
  fit(): boolean {
    if (!this.#active) return false;
    const ratio = Math.min(window.devicePixelRatio || 1, this.maxRatio);
    const w = Math.round(this.#cssWidth * ratio);
    const h = Math.round(((this.#cssWidth * this.height) / this.width) * ratio);
    if (w === this.canvas.width && h === this.canvas.height) return false;
    this.canvas.width = w;
    this.canvas.height = h;
    this.resizes++;
    return true;
  }

  /** Start a frame: reset the transform (scale = backing pixels per logical unit) and paint the background. */
  clear(color = BACKGROUND): CanvasRenderingContext2D {
    this.fit();
    const { ctx } = this;
    const s = this.canvas.width / this.width;
    ctx.setTransform(s, 0, 0, s, 0, 0);
    ctx.fillStyle = color;
    ctx.fillRect(0, 0, this.width, this.height);
    this.#minFont = Infinity;
    return ctx;
  }

  /** Client (pointer event) coordinates to logical coordinates. */
  toLocal(clientX: number, clientY: number): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    return { x: ((clientX - r.left) / r.width) * this.width, y: ((clientY - r.top) / r.height) * this.height };
  }

  /** A stroke width given for the full-size figure, never thinner than that many CSS pixels on a small screen. */
  stroke(width: number): number {
    return width * Math.max(1, this.unit);
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

  /**
   * A chart's plot area inside margins given for the full-size canvas (left, right, top, bottom), grown with the
   * labels on a small screen: `u` is that growth, L and T the area's top-left corner, w and h its size.
   */
  plotArea(
    left: number,
    right: number,
    top: number,
    bottom: number,
  ): { u: number; L: number; T: number; w: number; h: number } {
    const u = Math.max(1, this.unit);
    return { u, L: left * u, T: top * u, w: this.width - (left + right) * u, h: this.height - (top + bottom) * u };
  }

  /** A chart's point: each series has a shape as well as a colour, so it is told apart without colour. */
  marker(shape: MarkerShape, x: number, y: number, r: number, color: string): void {
    if (shape === 'disc') return this.disc(x, y, r, color);
    const { ctx } = this;
    ctx.beginPath();
    if (shape === 'square') ctx.rect(x - r, y - r, 2 * r, 2 * r);
    else if (shape === 'diamond') {
      ctx.moveTo(x, y - 1.3 * r);
      ctx.lineTo(x + 1.3 * r, y);
      ctx.lineTo(x, y + 1.3 * r);
      ctx.lineTo(x - 1.3 * r, y);
      ctx.closePath();
    } else {
      ctx.moveTo(x, y - 1.2 * r);
      ctx.lineTo(x + 1.1 * r, y + 0.8 * r);
      ctx.lineTo(x - 1.1 * r, y + 0.8 * r);
      ctx.closePath();
    }
    ctx.fillStyle = color;
    ctx.fill();
  }

  /** A ring around a ball: the keyboard's selection. */
  ring(x: number, y: number, r: number, color: string, width = 2.5, dash?: number[]): void {
    const { ctx } = this;
    ctx.save();
    if (dash) ctx.setLineDash(dash.map((d) => this.stroke(d)));
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.lineWidth = this.stroke(width);
    ctx.strokeStyle = color;
    ctx.stroke();
    ctx.restore();
  }

  line(x0: number, y0: number, x1: number, y1: number, color: string, width = 2, dash?: number[]): void {
    const { ctx } = this;
    ctx.save();
    if (dash) ctx.setLineDash(dash.map((d) => this.stroke(d)));
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.strokeStyle = color;
    ctx.lineWidth = this.stroke(width);
    ctx.stroke();
    ctx.restore();
  }

  /** A full-height vertical line, dashed by default: how edges are drawn. */
  vline(x: number, color: string, width = 1.5, dash: number[] = [6, 6]): void {
    this.line(x, 0, x, this.height, color, width, dash);
  }

  /** The logical font size for `size` (given for the full-size figure): at least MIN_LABEL_PX CSS pixels. */
  fontSize(size: number): number {
    return Math.max(size, MIN_LABEL_PX * this.unit);
  }

  text(
    s: string,
    x: number,
    y: number,
    color: string,
    size = 16,
    align: CanvasTextAlign = 'center',
    weight = 'normal',
  ): void {
    const { ctx } = this;
    const px = this.fontSize(size);
    this.#minFont = Math.min(this.#minFont, px / this.unit);
    ctx.font = `${weight} ${px}px ui-sans-serif, system-ui, sans-serif`;
    ctx.textAlign = align;
    ctx.textBaseline = 'middle';
    ctx.fillStyle = color;
    ctx.fillText(s, x, y);
  }
}

export type MarkerShape = 'square' | 'triangle' | 'diamond' | 'disc';

/** The article's rainbow: hue i/n, light and saturated. */
export function rainbow(i: number, n: number): string {
  return `hsl(${((i / n) * 360).toFixed(1)} 90% 70%)`;
}
