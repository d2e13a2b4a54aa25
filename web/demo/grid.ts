// The uniform grid, the other classic broadphase, in plain JS for chapter 16's comparison: every box is listed in
// each cell it touches, and the boxes of a cell are compared pairwise. A pair sharing several cells is counted as a
// pair once, in the cell that holds the corner where both boxes begin (the larger of their mins on each axis), but it
// is compared in every cell they share: those comparisons are the grid's cost, as candidates are the sweep's.

export interface GridResult {
  /** Overlapping pairs, as box indices (two per pair). */
  pairs: number[];
  /** Pairs of boxes compared: two boxes in the same cell, once per cell they share. */
  tests: number;
  /** Cells with at least one box, and the most boxes in one cell. */
  cells: number;
  fullest: number;
}

/** Boxes (minx, miny, maxx, maxy each) in a grid of `cell`-sized squares from the origin. */
export function gridPairs(b: Float32Array, n: number, cell: number): GridResult {
  const lists = new Map<number, number[]>();
  const key = (cx: number, cy: number): number => cy * 65536 + cx;
  for (let i = 0; i < n; i++) {
    const o = 4 * i;
    const x0 = Math.floor(b[o]! / cell);
    const x1 = Math.floor(b[o + 2]! / cell);
    const y0 = Math.floor(b[o + 1]! / cell);
    const y1 = Math.floor(b[o + 3]! / cell);
    for (let cy = y0; cy <= y1; cy++) {
      for (let cx = x0; cx <= x1; cx++) {
        const k = key(cx, cy);
        const list = lists.get(k);
        if (list) list.push(i);
        else lists.set(k, [i]);
      }
    }
  }
  const result: GridResult = { pairs: [], tests: 0, cells: lists.size, fullest: 0 };
  for (const [k, list] of lists) {
    result.fullest = Math.max(result.fullest, list.length);
    const cx = k % 65536;
    const cy = Math.floor(k / 65536);
    for (let p = 0; p < list.length; p++) {
      const i = list[p]!;
      for (let q = p + 1; q < list.length; q++) {
        const j = list[q]!;
        result.tests++;
        const [oi, oj] = [4 * i, 4 * j];
        if (b[oi]! > b[oj + 2]! || b[oj]! > b[oi + 2]! || b[oi + 1]! > b[oj + 3]! || b[oj + 1]! > b[oi + 3]!) continue;
        // the pair belongs to the cell holding the corner where both begin
        const mx = Math.max(b[oi]!, b[oj]!);
        const my = Math.max(b[oi + 1]!, b[oj + 1]!);
        if (Math.floor(mx / cell) === cx && Math.floor(my / cell) === cy) result.pairs.push(i, j);
      }
    }
  }
  return result;
}
