// Chapter 14's pictures: every box written straight into the pixels of one ImageData (a few integer operations per
// box, no canvas call per box), the engine's slabs as faint bands over them, and a magnifier that shows a small
// region at about ten times the size: its boxes as rectangles, the pairs among them as lines, and for the chosen box
// the candidates the broadphase compared it with (dashed: tested for nothing; solid: a pair).
import type { Surface } from './draw.js';
import { BACKGROUND, BEGAN, CANDIDATE, LENS, PAIR_RAMP } from './palette.js';

/** '#rrggbb' as the little-endian ABGR word of an opaque ImageData pixel. */
function abgr(hex: string): number {
  const v = parseInt(hex.slice(1), 16);
  return (0xff000000 | ((v & 0xff) << 16) | (v & 0xff00) | ((v >> 16) & 0xff)) >>> 0;
}
const RAMP = Uint32Array.from(PAIR_RAMP, abgr);
const BG = abgr(BACKGROUND);

/** The colour of a box in `n` pairs. */
export const rampColor = (n: number): string => PAIR_RAMP[Math.min(n, PAIR_RAMP.length - 1)]!;

/**
 * Boxes (minx, miny, maxx, maxy each, in box units) into `px` (W x H, row-major), coloured by their pair count
 * (`start[i + 1] - start[i]`, the length of box i's adjacency list); `sx`, `sy`: pixels per box unit. Later boxes
 * are drawn over earlier ones.
 */
export function rasterBoxes(
  px: Uint32Array,
  W: number,
  H: number,
  b: Float32Array,
  start: Uint32Array,
  n: number,
  sx: number,
  sy: number,
): void {
  px.fill(BG);
  const top = RAMP.length - 1;
  for (let i = 0; i < n; i++) {
    const o = 4 * i;
    // the boxes stay inside [0, side]: truncation is floor
    const x0 = (b[o]! * sx) | 0;
    const y0 = (b[o + 1]! * sy) | 0;
    let x1 = (b[o + 2]! * sx) | 0;
    let y1 = (b[o + 3]! * sy) | 0;
    // a pixel of gap at the right and bottom of boxes 3 pixels or wider, so neighbours stay apart
    if (x1 - x0 >= 3) x1--;
    else if (x1 <= x0) x1 = x0 + 1;
    if (y1 - y0 >= 3) y1--;
    else if (y1 <= y0) y1 = y0 + 1;
    if (x1 > W) x1 = W;
    if (y1 > H) y1 = H;
    const m = start[i + 1]! - start[i]!;
    const c = RAMP[m < top ? m : top]!;
    for (let y = y0; y < y1; y++) {
      const row = y * W;
      for (let k = row + x0, e = row + x1; k < e; k++) px[k] = c; // rows are short: a loop beats fill()
    }
  }
}

/**
 * The engine's slabs as bands across the slab axis, every other one darkened, cut apart by dark lines (`floors` in
 * box units; `unit`: box units per logical unit).
 */
export function drawBands(g: Surface, slabAxis: number, floors: Float32Array, unit: number): void {
  if (slabAxis < 0 || floors.length < 2) return;
  const { ctx } = g;
  const across = slabAxis === 0;
  const extent = across ? g.width : g.height;
  ctx.save();
  // every other band darkened: over a dense field of bright boxes a light tint or a hairline does not show
  ctx.fillStyle = 'rgba(0,0,0,0.4)';
  ctx.beginPath();
  for (let k = 1; k < floors.length; k++) {
    const lo = floors[k]! / unit;
    const hi = k + 1 < floors.length ? floors[k + 1]! / unit : extent;
    if (k % 2 === 1) {
      if (across) ctx.fillRect(lo, 0, hi - lo, g.height);
      else ctx.fillRect(0, lo, g.width, hi - lo);
    }
    if (across) ctx.rect(lo - 0.5, 0, 1, g.height);
    else ctx.rect(0, lo - 0.5, g.width, 1);
  }
  ctx.fillStyle = 'rgba(0,0,0,0.75)';
  ctx.fill();
  ctx.restore();
}

/** What the magnifier shows: a frame's boxes and pairs, and the chosen box with its candidates. */
export interface LensFrame {
  b: Float32Array;
  n: number;
  /** The pairs as adjacency lists (see rasterBoxes). */
  start: Uint32Array;
  adj: Uint32Array;
  /** Box units per logical unit of the canvas. */
  unit: number;
  chosen: number;
  candidates: Int32Array;
}

export interface Lens {
  x: number;
  y: number;
  r: number;
  zoom: number;
}

/** What the lens drew, for the readout and the tests. */
export interface LensFacts {
  boxes: number;
  pairLines: number;
  /** The chosen box's partners in the frame's pair list. */
  chosenPairs: number[];
}

/** The magnifier over the canvas: a disc showing the region under it `lens.zoom` times larger. */
export function drawLens(g: Surface, lens: Lens, f: LensFrame): LensFacts {
  const { ctx } = g;
  const { b, n, unit, start, adj } = f;
  // the region under the lens, in box units
  const cx = lens.x * unit;
  const cy = lens.y * unit;
  const half = (lens.r / lens.zoom) * unit;
  const scale = lens.zoom / unit; // logical units per box unit inside the lens
  const X = (v: number): number => lens.x + (v - cx) * scale;
  const Y = (v: number): number => lens.y + (v - cy) * scale;
  const rect = (i: number): void => {
    const o = 4 * i;
    ctx.rect(X(b[o]!), Y(b[o + 1]!), (b[o + 2]! - b[o]!) * scale, (b[o + 3]! - b[o + 1]!) * scale);
  };
  const [x0, x1, y0, y1] = [cx - half, cx + half, cy - half, cy + half];
  const inside: number[] = [];
  for (let o = 0; o < 4 * n; o += 4) {
    if (b[o]! > x1 || b[o + 2]! < x0 || b[o + 1]! > y1 || b[o + 3]! < y0) continue;
    inside.push(o >> 2);
  }
  const degree = (i: number): number => start[i + 1]! - start[i]!;
  ctx.save();
  ctx.beginPath();
  ctx.arc(lens.x, lens.y, lens.r, 0, Math.PI * 2);
  ctx.clip();
  ctx.fillStyle = BACKGROUND;
  ctx.fillRect(lens.x - lens.r, lens.y - lens.r, 2 * lens.r, 2 * lens.r);
  ctx.lineWidth = g.stroke(1);
  for (const i of inside) {
    const color = rampColor(degree(i));
    ctx.beginPath();
    rect(i);
    ctx.globalAlpha = 0.22;
    ctx.fillStyle = color;
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.strokeStyle = color;
    ctx.stroke();
  }
  const mid = (i: number, a: number): number => (b[4 * i + a]! + b[4 * i + a + 2]!) / 2;
  // every pair among the boxes in the lens: a thin line between centres
  const shown = new Set(inside);
  let pairLines = 0;
  ctx.beginPath();
  for (const i of inside) {
    for (let k = start[i]!; k < start[i + 1]!; k++) {
      const j = adj[k]!;
      if (j < i || !shown.has(j)) continue;
      ctx.moveTo(X(mid(i, 0)), Y(mid(i, 1)));
      ctx.lineTo(X(mid(j, 0)), Y(mid(j, 1)));
      pairLines++;
    }
  }
  ctx.strokeStyle = 'rgba(220,220,220,0.55)';
  ctx.stroke();
  const c = f.chosen;
  const chosenPairs = c >= 0 && c < n ? Array.from(adj.subarray(start[c]!, start[c + 1]!)) : [];
  if (c >= 0 && c < n) {
    const partners = new Set(chosenPairs);
    // the candidates tested for nothing: dashed outlines, and dashed lines from the chosen box
    ctx.save();
    ctx.setLineDash([g.stroke(4), g.stroke(3)]);
    ctx.strokeStyle = CANDIDATE;
    ctx.lineWidth = g.stroke(1.2);
    ctx.beginPath();
    // only what the lens shows: the sorted-JS loop's candidates are a column of hundreds, and dashed lines ten
    // times the canvas long, clipped or not, cost the compositor 50 to 130 ms a frame on a busy machine
    const reach = lens.r * 1.5;
    const [ax, ay] = [X(mid(c, 0)), Y(mid(c, 1))];
    for (const j of f.candidates) {
      if (partners.has(j)) continue;
      const o = 4 * j;
      if (!(b[o]! > x1 || b[o + 2]! < x0 || b[o + 1]! > y1 || b[o + 3]! < y0)) rect(j);
      const [dx, dy] = [X(mid(j, 0)) - ax, Y(mid(j, 1)) - ay];
      const k = Math.min(1, reach / (Math.hypot(dx, dy) || 1));
      ctx.moveTo(ax, ay);
      ctx.lineTo(ax + dx * k, ay + dy * k);
    }
    ctx.stroke();
    ctx.restore();
    // the pairs: solid lines
    ctx.beginPath();
    for (const j of chosenPairs) {
      ctx.moveTo(X(mid(c, 0)), Y(mid(c, 1)));
      ctx.lineTo(X(mid(j, 0)), Y(mid(j, 1)));
    }
    ctx.strokeStyle = BEGAN;
    ctx.lineWidth = g.stroke(2.5);
    ctx.stroke();
    ctx.beginPath();
    rect(c);
    ctx.strokeStyle = LENS;
    ctx.stroke();
  }
  ctx.restore();
  g.ring(lens.x, lens.y, lens.r + 1.5, '#000', 4);
  g.ring(lens.x, lens.y, lens.r, LENS, 2);
  // the zoom under the rim (over it at the bottom of the canvas), on a dark backing
  const label = `×${lens.zoom.toFixed(lens.zoom < 10 ? 1 : 0)}`;
  const size = g.fontSize(12);
  const y = lens.y + lens.r + size < g.height ? lens.y + lens.r + size * 0.8 : lens.y - lens.r - size * 0.8;
  ctx.fillStyle = 'rgba(0,0,0,0.75)';
  ctx.fillRect(lens.x - size * 1.4, y - size * 0.7, size * 2.8, size * 1.4);
  g.text(label, lens.x, y, LENS, 12, 'center', '700');
  return { boxes: inside.length, pairLines, chosenPairs };
}
