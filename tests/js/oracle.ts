// Brute force and seeded scenes for the JS tests. Independent of the engine.

/** mulberry32: the same scenes on every run. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Box {
  min: number[];
  max: number[];
}

/** Round to float32, as the engine stores bounds. */
export const f32 = Math.fround;

export function overlaps(p: Box, q: Box): boolean {
  for (let a = 0; a < p.min.length; a++) {
    if (p.min[a]! > q.max[a]! || q.min[a]! > p.max[a]!) return false;
  }
  return true;
}

/** All overlapping pairs of `boxes` (keyed by id) as sorted "a,b" strings with a < b. */
export function bruteForce(boxes: Map<number, Box>): string[] {
  const entries = [...boxes.entries()];
  const out: [number, number][] = [];
  for (let i = 0; i < entries.length; i++) {
    for (let j = i + 1; j < entries.length; j++) {
      if (overlaps(entries[i]![1], entries[j]![1])) {
        const x = entries[i]![0];
        const y = entries[j]![0];
        out.push(x < y ? [x, y] : [y, x]);
      }
    }
  }
  out.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  return out.map(([x, y]) => `${x},${y}`);
}

/** A pair view as "a,b" strings, in view order. */
export function pairStrings(view: Uint32Array): string[] {
  const out: string[] = [];
  for (let i = 0; i < view.length; i += 2) out.push(`${view[i]},${view[i + 1]}`);
  return out;
}

/** A pair list as "a,b" strings, sorted by (a, b): for `pairs`, whose order is not sorted. */
export function pairSet(view: Uint32Array): string[] {
  const out: [number, number][] = [];
  for (let i = 0; i < view.length; i += 2) out.push([view[i]!, view[i + 1]!]);
  out.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  return out.map(([x, y]) => `${x},${y}`);
}

export function minus(a: string[], b: string[]): string[] {
  const set = new Set(b);
  return a.filter((x) => !set.has(x));
}

/** A random box in [0, 100]^d with half-extents up to size * 50; or, when `lattice`, from {-1, 0, 0, 1}. */
export function randomBox(rand: () => number, d: number, size: number, lattice = false): Box {
  const min: number[] = [];
  const max: number[] = [];
  for (let a = 0; a < d; a++) {
    if (lattice) {
      const g = [-1, 0, 0, 1];
      const x = g[Math.floor(rand() * 4)]!;
      const y = g[Math.floor(rand() * 4)]!;
      min.push(Math.min(x, y));
      max.push(Math.max(x, y));
    } else {
      const c = rand() * 100;
      const h = rand() * size * 50;
      min.push(f32(c - h));
      max.push(f32(c + h));
    }
  }
  return { min, max };
}

/**
 * `bruteForce` for large 2D scenes: the same exact test, on the pairs of boxes that share a cell of a uniform grid
 * (boxes wider than a cell tested against every box). Output as `bruteForce`.
 */
export function gridPairs(boxes: Map<number, Box>, cell: number): string[] {
  const cells = new Map<number, number[]>();
  const big: number[] = [];
  const key = (x: number, y: number): number => x * 1_000_003 + y;
  for (const [id, b] of boxes) {
    if (b.max[0]! - b.min[0]! > cell || b.max[1]! - b.min[1]! > cell) {
      big.push(id);
      continue;
    }
    for (let x = Math.floor(b.min[0]! / cell); x <= Math.floor(b.max[0]! / cell); x++) {
      for (let y = Math.floor(b.min[1]! / cell); y <= Math.floor(b.max[1]! / cell); y++) {
        const list = cells.get(key(x, y));
        if (list) list.push(id);
        else cells.set(key(x, y), [id]);
      }
    }
  }
  const found = new Set<string>();
  const test = (x: number, y: number): void => {
    if (x !== y && overlaps(boxes.get(x)!, boxes.get(y)!)) found.add(x < y ? `${x},${y}` : `${y},${x}`);
  };
  for (const list of cells.values()) {
    for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) test(list[i]!, list[j]!);
  }
  for (const id of big) for (const other of boxes.keys()) test(id, other);
  return [...found]
    .map((s) => s.split(',').map(Number) as [number, number])
    .sort((p, q) => p[0] - q[0] || p[1] - q[1])
    .map(([x, y]) => `${x},${y}`);
}
