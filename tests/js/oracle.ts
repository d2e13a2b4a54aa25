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
