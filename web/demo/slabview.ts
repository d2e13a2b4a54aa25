// The engine's index drawn over a ball scene: world.slabs() as it is after the last update. Each slab is a band
// across the slab axis; inside it, the boxes in the engine's order (sorted by their min on the sweep axis) are
// joined by a line from min to min, the slab's "run"; an arrow names the sweep axis. Whether the last update
// refreshed the slabs in place (a coherent frame) or rebuilt them is written in the corner. For a chosen box, what
// the engine compared it with (prune.ts): its slabs, its reach on the sweep axis, its candidates and its pairs.
import type { Slabs } from 'sweep-prune';
import type { Surface } from './draw.js';
import { BEGAN, CANDIDATE, ENDED, LINK, MUTED } from './palette.js';
import type { Pruning } from './prune.js';
import type { Ball } from './sim.js';

/** Band fills, alternating: faint, so the balls stay the subject. */
const BANDS = ['rgba(77,163,255,0.10)', 'rgba(255,159,26,0.08)'];
const RUNS = [BEGAN, ENDED];

/** What the view drew, from the engine's own answers (published for tests and shown in the counters). */
export interface SlabFacts {
  slabs: number;
  sweepAxis: number;
  slabAxis: number;
  /** Entries in the runs (a box reaching into k slabs counts k times). */
  entries: number;
  /** The slabs in which the linked box's entry was drawn marked. */
  linkedSlabs: number[];
  /** The engine's slab floors (the first is -Infinity). */
  floors: number[];
  /** The corner's label of the sweep axis as drawn: its name and an arrow along it. */
  axisLabel: string;
}

export interface SlabViewOptions {
  /** The linked box's id, or -1: its entry in each slab is ringed. */
  linked: number;
  /** The linked box's comparisons, drawn over the index. */
  pruning?: Pruning | undefined;
  /** Draw the index as one slab: every box in one run (the pruning given is then the one-slab one). */
  oneSlab?: boolean;
  rebuilt: boolean;
}

/** The boxes' ids in one run sorted by min on the sweep axis, as the engine would keep them with one slab. */
function oneRun(s: Slabs, ballOf: (id: number) => Ball | undefined): Uint32Array {
  const ids = [...new Set(s.ids)].filter((id) => ballOf(id));
  const min = (id: number): number => {
    const b = ballOf(id)!;
    return (s.sweepAxis === 0 ? b.x : b.y) - b.r;
  };
  return Uint32Array.from(ids.sort((p, q) => min(p) - min(q)));
}

export function drawSlabs(
  g: Surface,
  s: Slabs,
  ballOf: (id: number) => Ball | undefined,
  o: SlabViewOptions,
): SlabFacts {
  const one = o.oneSlab === true;
  const starts = one ? Uint32Array.of(0, 0) : s.starts;
  const ids = one ? oneRun(s, ballOf) : s.ids;
  if (one) starts[1] = ids.length;
  const slabs = Math.max(0, starts.length - 1);
  const facts: SlabFacts = {
    slabs: Math.max(0, s.starts.length - 1),
    sweepAxis: s.sweepAxis,
    slabAxis: s.slabAxis,
    entries: s.ids.length,
    linkedSlabs: [],
    floors: Array.from(s.floors),
    axisLabel: '',
  };
  if (s.sweepAxis < 0 || slabs === 0) return facts;
  const { ctx } = g;
  const across = one ? -1 : s.slabAxis; // -1: one slab, the whole canvas
  const extent = across === 0 ? g.width : g.height;
  const band = (k: number): [number, number] => [
    k === 0 ? 0 : Math.max(0, s.floors[k]!),
    k + 1 < slabs ? Math.min(extent, s.floors[k + 1]!) : extent,
  ];
  const minEdge = (b: Ball): [number, number] => (s.sweepAxis === 0 ? [b.x - b.r, b.y] : [b.x, b.y - b.r]);
  for (let k = 0; k < slabs; k++) {
    const [lo, hi] = band(k);
    ctx.fillStyle = BANDS[k % 2]!;
    if (across === 0) ctx.fillRect(lo, 0, hi - lo, g.height);
    else ctx.fillRect(0, lo, g.width, hi - lo);
    if (k > 0) {
      if (across === 0) g.line(lo, 0, lo, g.height, MUTED, 1, [3, 5]);
      else g.line(0, lo, g.width, lo, MUTED, 1, [3, 5]);
    }
    // each slab's run: its boxes in the engine's order, through each ball's min edge on the sweep axis: always
    // forward
    ctx.save();
    ctx.globalAlpha = o.pruning ? 0.35 : 0.8;
    ctx.beginPath();
    let first = true;
    for (let e = starts[k]!; e < starts[k + 1]!; e++) {
      const b = ballOf(ids[e]!);
      if (!b) continue;
      const [x, y] = minEdge(b);
      if (first) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
      first = false;
    }
    ctx.strokeStyle = RUNS[k % 2]!;
    ctx.lineWidth = g.stroke(1.5);
    ctx.stroke();
    ctx.restore();
    for (let e = starts[k]!; e < starts[k + 1]!; e++) {
      const b = ballOf(ids[e]!);
      if (!b) continue;
      const [x, y] = minEdge(b);
      g.disc(x, y, 2.5, RUNS[k % 2]!);
      if (ids[e] === o.linked) {
        // the linked box's entry in this slab's run
        g.ring(x, y, 7, '#000', 4);
        g.ring(x, y, 6, LINK, 2.5);
        facts.linkedSlabs.push(k);
      }
    }
    const label = one ? 'one slab' : `slab ${k + 1}`;
    if (across === 0) g.text(label, (lo + hi) / 2, g.height - 10, MUTED, 11);
    else g.text(label, g.width - 6, lo + 10, MUTED, 11, 'right');
  }
  if (o.pruning) drawPruning(g, o.pruning, s.sweepAxis, across, (k) => band(one ? 0 : k), ballOf);
  const axis = 'xyzw'[s.sweepAxis]!;
  // two lines on a dark backing; the spacing follows the font, which grows on a small screen
  const line = g.fontSize(12) * 1.35;
  ctx.fillStyle = 'rgba(0,0,0,0.7)';
  ctx.fillRect(2, 2, g.fontSize(12) * 19, line * 2 + 6);
  // the arrow points along the sweep axis: right for x, down for y (the canvas's y grows downwards)
  facts.axisLabel = `sweep axis: ${axis} ${s.sweepAxis === 0 ? '→' : '↓'}`;
  g.text(facts.axisLabel, 8, 4 + line / 2, '#ddd', 12, 'left', '600');
  g.text(
    one ? 'drawn as one slab' : o.rebuilt ? 'last update: rebuilt' : 'last update: refreshed in place',
    8,
    4 + line * 1.5,
    one ? '#ddd' : o.rebuilt ? ENDED : BEGAN,
    12,
    'left',
    '600',
  );
  return facts;
}

/**
 * A box's comparisons: its slabs outlined, its reach (its interval on the sweep axis, across its slabs) shaded, a
 * line to each candidate (dashed: tested for nothing; solid: a pair reported here; dotted: a pair reported in an
 * earlier slab both share).
 */
function drawPruning(
  g: Surface,
  p: Pruning,
  sweep: number,
  across: number,
  band: (k: number) => [number, number],
  ballOf: (id: number) => Ball | undefined,
): void {
  const me = ballOf(p.id);
  if (!me) return;
  const { ctx } = g;
  const spans = p.slabs.map(band);
  const lo = Math.min(...spans.map((b) => b[0]));
  const hi = Math.max(...spans.map((b) => b[1]));
  ctx.save();
  ctx.setLineDash([g.stroke(6), g.stroke(4)]);
  ctx.strokeStyle = LINK;
  ctx.lineWidth = g.stroke(1.5);
  for (const [a, b] of spans) {
    if (across === 0) ctx.strokeRect(a, 1, b - a, g.height - 2);
    else ctx.strokeRect(1, a, g.width - 2, b - a);
  }
  ctx.restore();
  // the reach: the box's own interval on the sweep axis, inside its slabs
  const [r0, r1] = p.reach;
  ctx.fillStyle = 'rgba(255,255,255,0.12)';
  if (sweep === 0) ctx.fillRect(r0, across === 1 ? lo : 0, r1 - r0, across === 1 ? hi - lo : g.height);
  else ctx.fillRect(across === 0 ? lo : 0, r0, across === 0 ? hi - lo : g.width, r1 - r0);
  for (const edge of [r0, r1]) {
    if (sweep === 0) g.line(edge, across === 1 ? lo : 0, edge, across === 1 ? hi : g.height, LINK, 1.5);
    else g.line(across === 0 ? lo : 0, edge, across === 0 ? hi : g.width, edge, LINK, 1.5);
  }
  for (const c of p.candidates) {
    const b = ballOf(c.id);
    if (!b) continue;
    if (c.reported) g.line(me.x, me.y, b.x, b.y, BEGAN, 3);
    else if (c.overlaps) g.line(me.x, me.y, b.x, b.y, BEGAN, 1.5, [1, 4]);
    else g.line(me.x, me.y, b.x, b.y, CANDIDATE, 1.5, [5, 4]);
    g.ring(b.x, b.y, b.r + 2, c.overlaps ? BEGAN : CANDIDATE, 1.5);
  }
}
