// The engine's index drawn over a ball scene: world.slabs() as it is after the last update. Each slab is a band
// across the slab axis; inside it, the boxes in the engine's order (sorted by their min on the sweep axis) are
// joined by a line from min to min, the slab's "run"; an arrow names the sweep axis. Whether the last update
// refreshed the slabs in place (a coherent frame) or rebuilt them is written in the corner.
import type { World } from 'sweep-prune';
import type { Surface } from './draw.js';
import { BEGAN, ENDED, LINK, MUTED } from './palette.js';
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
  refreshed: boolean;
  rebuilt: boolean;
  /** The slabs in which the linked box's entry was drawn marked. */
  linkedSlabs: number[];
  /** The engine's slab floors (the first is -Infinity). */
  floors: number[];
}

/** The index over the balls; `linked` (a box id, or -1): its entry in each slab is ringed. */
export function drawSlabs(g: Surface, world: World, ballOf: (id: number) => Ball | undefined, linked = -1): SlabFacts {
  const s = world.slabs();
  const c = world.counters;
  const slabs = Math.max(0, s.starts.length - 1);
  const facts: SlabFacts = {
    slabs,
    sweepAxis: s.sweepAxis,
    slabAxis: s.slabAxis,
    entries: s.ids.length,
    refreshed: c.refreshed === 1,
    rebuilt: c.rebuilt === 1,
    linkedSlabs: [],
    floors: Array.from(s.floors),
  };
  if (s.sweepAxis < 0 || slabs === 0) return facts;
  const { ctx } = g;
  const across = s.slabAxis; // -1: one slab, the whole canvas
  const extent = across === 0 ? g.width : g.height;
  for (let k = 0; k < slabs; k++) {
    const lo = k === 0 ? 0 : Math.max(0, s.floors[k]!);
    const hi = k + 1 < slabs ? Math.min(extent, s.floors[k + 1]!) : extent;
    ctx.fillStyle = BANDS[k % 2]!;
    if (across === 0) ctx.fillRect(lo, 0, hi - lo, g.height);
    else ctx.fillRect(0, lo, g.width, hi - lo);
    if (k > 0) {
      if (across === 0) g.line(lo, 0, lo, g.height, MUTED, 1, [3, 5]);
      else g.line(0, lo, g.width, lo, MUTED, 1, [3, 5]);
    }
    // each slab's run: its boxes in the engine's order, min to min
    ctx.save();
    ctx.globalAlpha = 0.8;
    ctx.beginPath();
    let first = true;
    for (let e = s.starts[k]!; e < s.starts[k + 1]!; e++) {
      const b = ballOf(s.ids[e]!);
      if (!b) continue;
      // the run goes through each ball's min edge on the sweep axis, in the engine's order: always forward
      const [x, y] = s.sweepAxis === 0 ? [b.x - b.r, b.y] : [b.x, b.y - b.r];
      if (first) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
      first = false;
    }
    ctx.strokeStyle = RUNS[k % 2]!;
    ctx.lineWidth = g.stroke(1.5);
    ctx.stroke();
    ctx.restore();
    for (let e = s.starts[k]!; e < s.starts[k + 1]!; e++) {
      const b = ballOf(s.ids[e]!);
      if (!b) continue;
      const [x, y] = s.sweepAxis === 0 ? [b.x - b.r, b.y] : [b.x, b.y - b.r];
      g.disc(x, y, 2.5, RUNS[k % 2]!);
      if (s.ids[e] === linked) {
        // the linked box's entry in this slab's run
        g.ring(x, y, 7, '#000', 4);
        g.ring(x, y, 6, LINK, 2.5);
        facts.linkedSlabs.push(k);
      }
    }
    const label = `slab ${k + 1}`;
    if (across === 0) g.text(label, (lo + hi) / 2, g.height - 10, MUTED, 11);
    else g.text(label, g.width - 6, lo + 10, MUTED, 11, 'right');
  }
  const axis = 'xyzw'[s.sweepAxis]!;
  // two lines on a dark backing; the spacing follows the font, which grows on a small screen
  const line = g.fontSize(12) * 1.35;
  ctx.fillStyle = 'rgba(0,0,0,0.7)';
  ctx.fillRect(2, 2, g.fontSize(12) * 19, line * 2 + 6);
  g.text(`sweep axis: ${axis} →`, 8, 4 + line / 2, '#ddd', 12, 'left', '600');
  g.text(
    facts.rebuilt ? 'last update: rebuilt' : 'last update: refreshed in place',
    8,
    4 + line * 1.5,
    facts.rebuilt ? ENDED : BEGAN,
    12,
    'left',
    '600',
  );
  return facts;
}
