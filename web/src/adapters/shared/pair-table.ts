// SPDX-License-Identifier: MIT
// A set of unordered pairs of ids (positive integers below 2^53, such as sweep-prune/planck's proxy ids): open
// addressing with linear probing over typed arrays, hashed on the ids' low bits. Entries whose ids went stale are
// dropped by `prune` when the set fills up.

/** Decides, when the set is full, which pairs to keep. */
export type KeepPair = (a: number, b: number) => boolean;

export class PairSet {
  #bits = 6;
  // entry i: the smaller id at 2i (0 for an empty entry), the larger at 2i + 1 (one cache line for a probe)
  #keys = new Float64Array(2 * 64);
  #count = 0;
  readonly #keep: KeepPair;

  /** `keep` is asked about every pair when the set is half full: what it refuses is dropped. */
  constructor(keep: KeepPair) {
    this.#keep = keep;
  }

  /** Pairs held (stale ones included until the next prune). */
  get size(): number {
    return this.#count;
  }

  #home(a: number, b: number): number {
    return (Math.imul(a | 0, 0x9e3779b1) ^ Math.imul(b | 0, 0x85ebca77)) >>> (32 - this.#bits);
  }

  // The entry of the pair (a < b), or of the empty place where it would go.
  #find(a: number, b: number): number {
    const keys = this.#keys;
    const mask = (keys.length >> 1) - 1;
    let i = this.#home(a, b);
    for (;;) {
      const k = keys[2 * i]!;
      if (k === 0 || (k === a && keys[2 * i + 1] === b)) return i;
      i = (i + 1) & mask;
    }
  }

  /** Whether the pair `{a, b}` is in the set. */
  has(a: number, b: number): boolean {
    return a < b ? this.#keys[2 * this.#find(a, b)] !== 0 : this.#keys[2 * this.#find(b, a)] !== 0;
  }

  /** Add the pair `{a, b}`. */
  add(a: number, b: number): void {
    if (a > b) {
      const t = a;
      a = b;
      b = t;
    }
    if (4 * (this.#count + 1) > this.#keys.length) this.#prune();
    const i = this.#find(a, b);
    if (this.#keys[2 * i] !== 0) return;
    this.#keys[2 * i] = a;
    this.#keys[2 * i + 1] = b;
    this.#count++;
  }

  /** Remove the pair `{a, b}` (nothing if it is not there). */
  delete(a: number, b: number): void {
    if (a > b) {
      const t = a;
      a = b;
      b = t;
    }
    const keys = this.#keys;
    let i = this.#find(a, b);
    if (keys[2 * i] === 0) return;
    this.#count--;
    // backward shift: move up each later entry of the run that may sit at the hole, so no probe stops early
    const mask = (keys.length >> 1) - 1;
    for (let j = (i + 1) & mask; keys[2 * j] !== 0; j = (j + 1) & mask) {
      const home = this.#home(keys[2 * j]!, keys[2 * j + 1]!);
      // j's entry may fill the hole when its home is not in the cyclic interval (i, j]
      if (((j - home) & mask) >= ((j - i) & mask)) {
        keys[2 * i] = keys[2 * j]!;
        keys[2 * i + 1] = keys[2 * j + 1]!;
        i = j;
      }
    }
    keys[2 * i] = 0;
    keys[2 * i + 1] = 0;
  }

  /** The pairs, as `out[2i], out[2i + 1]` (smaller id first); `out` is emptied first. */
  entries(out: number[]): void {
    out.length = 0;
    const keys = this.#keys;
    for (let i = 0; i < keys.length; i += 2) {
      if (keys[i] !== 0) out.push(keys[i]!, keys[i + 1]!);
    }
  }

  /** Drop every pair. */
  clear(): void {
    this.#keys.fill(0);
    this.#count = 0;
  }

  // Keep what `keep` accepts, in a set at most a quarter full after it.
  #prune(): void {
    const old = this.#keys;
    const kept: number[] = [];
    for (let i = 0; i < old.length; i += 2) if (old[i] !== 0 && this.#keep(old[i]!, old[i + 1]!)) kept.push(i);
    let bits = this.#bits;
    while (4 * (kept.length + 1) > 1 << bits) bits++;
    this.#bits = bits;
    this.#keys = new Float64Array(2 << bits);
    this.#count = 0;
    for (const i of kept) this.add(old[i]!, old[i + 1]!);
  }
}
