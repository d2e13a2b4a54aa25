// Seeded scenes shared by every library, and the oracles that check every pair count.
// Box layout (as World.bounds and box-intersect): n boxes of 2d numbers, d mins then d maxes. Coordinates are
// rounded to float32 so every library sees exactly the numbers the wasm engine stores. tests/bench/bench.c builds
// the same scenes from the same seeds (same generator, same arithmetic), so native and JS counts match.

export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Spacing k per box per axis and box sizes in [0.05, 1] * 2k give about 2 pairs per box in 2D, 4 in 3D.
export const K = 100;
export const side = (n, d) => K * Math.pow(n, 1 / d);

// Sizes come from `seed` and places from `placeSeed`: scenes that differ only in placeSeed have the same boxes
// in new places, so persistent libraries can teleport their bodies from one to the other.

/** Uniform boxes in [0, side]^d. */
export function uniform(n, d, seed, placeSeed = seed + 1000) {
  const rnd = mulberry32(seed);
  const place = mulberry32(placeSeed);
  const L = side(n, d);
  const b = new Float64Array(n * 2 * d);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < d; a++) {
      const size = 2 * K * (0.05 + 0.95 * rnd());
      const lo = place() * (L - size);
      b[i * 2 * d + a] = Math.fround(lo);
      b[i * 2 * d + d + a] = Math.fround(lo + size);
    }
  }
  return b;
}

/** 2D clusters of 500 boxes around uniform centers (about 10 times the uniform density inside a cluster). */
export function clustered(n, seed, placeSeed = seed + 1000) {
  const rnd = mulberry32(seed);
  const place = mulberry32(placeSeed);
  const L = side(n, 2);
  const clusters = Math.ceil(n / 500);
  const centers = new Float64Array(2 * clusters);
  for (let c = 0; c < 2 * clusters; c++) centers[c] = place() * L;
  const b = new Float64Array(n * 4);
  for (let i = 0; i < n; i++) {
    const c = i % clusters;
    for (let a = 0; a < 2; a++) {
      const size = 2 * K * (0.05 + 0.95 * rnd());
      const lo = centers[2 * c + a] + (place() + place() + place() - 1.5) * 8 * K;
      b[i * 4 + a] = Math.fround(lo);
      b[i * 4 + 2 + a] = Math.fround(lo + size);
    }
  }
  return b;
}

/** Coherent motion: boxes of a uniform scene move at up to 2% of the largest box size per frame and bounce. */
export class Motion {
  constructor(n, d, seed) {
    this.n = n;
    this.d = d;
    this.L = side(n, d);
    this.boxes = uniform(n, d, seed);
    const rnd = mulberry32(seed ^ 0x9e3779b9);
    this.vel = new Float64Array(n * d);
    for (let i = 0; i < n * d; i++) this.vel[i] = (2 * rnd() - 1) * 0.02 * 2 * K;
  }

  step() {
    const { n, d, boxes: b, vel, L } = this;
    for (let i = 0; i < n; i++) {
      for (let a = 0; a < d; a++) {
        const o = i * 2 * d + a;
        const size = b[o + d] - b[o];
        let lo = b[o] + vel[i * d + a];
        if (lo < 0 || lo + size > L) {
          vel[i * d + a] = -vel[i * d + a];
          lo = b[o] + vel[i * d + a];
        }
        b[o] = Math.fround(lo);
        b[o + d] = Math.fround(lo + size);
      }
    }
  }
}

function overlaps(b, i, j, d) {
  const p = i * 2 * d;
  const q = j * 2 * d;
  for (let a = 0; a < d; a++) {
    if (b[p + a] > b[q + d + a] || b[q + a] > b[p + d + a]) return false;
  }
  return true;
}

/** Brute force: every pair tested. */
export function bruteForceCount(b, d) {
  const n = b.length / (2 * d);
  let count = 0;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (overlaps(b, i, j, d)) count++;
  return count;
}

/**
 * Uniform grid with cells at least as large as the largest box, so a box touches at most 2 cells per axis. A pair is
 * counted only in the cell that holds the corner made of the larger min on every axis, so it is counted once.
 * Shares no code with any library under test.
 */
export function gridCount(b, d) {
  const n = b.length / (2 * d);
  let cell = 0;
  for (let i = 0; i < n; i++)
    for (let a = 0; a < d; a++) cell = Math.max(cell, b[i * 2 * d + d + a] - b[i * 2 * d + a]);
  cell = cell * 1.001 + 1e-9;
  const cells = new Map();
  const lo = new Int32Array(d);
  const hi = new Int32Array(d);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < d; a++) {
      lo[a] = Math.floor(b[i * 2 * d + a] / cell);
      hi[a] = Math.floor(b[i * 2 * d + d + a] / cell);
    }
    for (let m = 0; m < 1 << d; m++) {
      let key = 0;
      let skip = false;
      for (let a = d - 1; a >= 0; a--) {
        const c = m & (1 << a) ? hi[a] : lo[a];
        if (m & (1 << a) && hi[a] === lo[a]) skip = true;
        key = key * 4096 + (c + 2048);
      }
      if (skip) continue;
      let list = cells.get(key);
      if (list === undefined) cells.set(key, (list = []));
      list.push(i);
    }
  }
  let count = 0;
  for (const [key, list] of cells) {
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const i = list[x];
        const j = list[y];
        if (!overlaps(b, i, j, d)) continue;
        let k = 0;
        for (let a = d - 1; a >= 0; a--) {
          const m = Math.max(b[i * 2 * d + a], b[j * 2 * d + a]);
          k = k * 4096 + (Math.floor(m / cell) + 2048);
        }
        if (k === key) count++;
      }
    }
  }
  return count;
}

export function oracleCount(b, d) {
  return b.length / (2 * d) <= 5000 ? bruteForceCount(b, d) : gridCount(b, d);
}
