// Everything observable about a world, read without changing it: the "a failed call changes nothing" checks.
import type { BoxId, World } from '../../web/src/index.js';

export function snapshot(w: World, ids: BoxId[]) {
  return {
    boxes: w.boxCount,
    bounds: Array.from(w.bounds),
    pairs: Array.from(w.pairs),
    began: Array.from(w.began),
    ended: Array.from(w.ended),
    counters: w.counters,
    ids: ids.map((id) => (w.isBoxValid(id) ? w.getBox(id) : null)),
    bytes: w.byteCount, // last: reading pairs makes the world's copy of them once per update
  };
}
