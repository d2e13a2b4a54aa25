// What the engine compares for one box, read from its own index (`world.slabs()`) and the bounds its last update
// read. Inside each slab the boxes are sorted by their min on the sweep axis and a box is compared with the others
// of the slab whose sweep-axis intervals overlap its own (its "reach"): those are its candidates, and each one the
// engine counts in `counters.overlapTests`. A candidate that also overlaps on the other axis is a pair, reported in
// the first slab both boxes touch only. With one slab every box overlapping on the sweep axis is a candidate.
import type { Slabs } from 'sweep-prune';

export interface Candidate {
  /** The other box's id. */
  id: number;
  /** The slab it was compared in (0 for one slab). */
  slab: number;
  /** It overlaps the box on the other axis too: a pair. */
  overlaps: boolean;
  /** The pair is reported here: this is the first slab both boxes touch. */
  reported: boolean;
}

export interface Pruning {
  id: number;
  /** The slabs the box is in. */
  slabs: number[];
  /** Its interval on the sweep axis: the window its candidates' intervals meet. */
  reach: [number, number];
  candidates: Candidate[];
}

/** A 2D box's bounds as [min on axis 0, min on axis 1, max on axis 0, max on axis 1], looked up by id. */
export type BoundsOf = (id: number) => ArrayLike<number>;

const overlap = (a: ArrayLike<number>, b: ArrayLike<number>, axis: number): boolean =>
  a[axis]! <= b[axis + 2]! && b[axis]! <= a[axis + 2]!;

/** The engine's comparisons for box `id` in 2D, slab by slab (`s` and `boundsOf` from the same update). */
export function pruningOf(s: Slabs, boundsOf: BoundsOf, id: number): Pruning {
  const sweep = s.sweepAxis;
  const other = 1 - sweep;
  const me = boundsOf(id);
  const out: Pruning = { id, slabs: [], reach: [me[sweep]!, me[sweep + 2]!], candidates: [] };
  const slabs = Math.max(0, s.starts.length - 1);
  for (let k = 0; k < slabs; k++) {
    const from = s.starts[k]!;
    const to = s.starts[k + 1]!;
    if (!s.ids.subarray(from, to).includes(id)) continue;
    out.slabs.push(k);
    // a pair is reported in the slab where the later of the two starts on the slab axis (slab 0: from -Infinity)
    const floor = k === 0 || s.slabAxis < 0 ? -Infinity : s.floors[k]!;
    for (let e = from; e < to; e++) {
      const j = s.ids[e]!;
      if (j === id) continue;
      const b = boundsOf(j);
      if (!overlap(me, b, sweep)) continue;
      const overlaps = overlap(me, b, other);
      const later = s.slabAxis < 0 ? Infinity : Math.max(me[s.slabAxis]!, b[s.slabAxis]!);
      out.candidates.push({ id: j, slab: k, overlaps, reported: overlaps && later >= floor });
    }
  }
  return out;
}

/** The same box with one slab: every box overlapping it on the sweep axis is a candidate. */
export function oneSlabPruningOf(ids: ArrayLike<number>, sweep: number, boundsOf: BoundsOf, id: number): Pruning {
  const me = boundsOf(id);
  const out: Pruning = { id, slabs: [0], reach: [me[sweep]!, me[sweep + 2]!], candidates: [] };
  for (let e = 0; e < ids.length; e++) {
    const j = ids[e]!;
    if (j === id) continue;
    const b = boundsOf(j);
    if (!overlap(me, b, sweep)) continue;
    const overlaps = overlap(me, b, 1 - sweep);
    out.candidates.push({ id: j, slab: 0, overlaps, reported: overlaps });
  }
  return out;
}
