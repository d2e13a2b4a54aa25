// SPDX-License-Identifier: MIT
// A set of unordered pairs of ids (positive integers below 2^53, such as sweep-prune/planck's proxy ids): open
// addressing with linear probing over typed arrays, hashed on the ids' low bits. Entries whose ids went stale are
// dropped by `prune` when the set fills up.

/** Decides, when the set is full, which pairs to keep. */
export type KeepPair = (a: number, b: number) => boolean;

export class PairSet {
  #bits = 6;
  #a = new Float64Array(64); // the smaller id; 0 for an empty entry
  #b = new Float64Array(64);
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
    const keysA = this.#a;
    const keysB = this.#b;
    const mask = keysA.length - 1;
    let i = this.#home(a, b);
    for (;;) {
      const k = keysA[i]!;
      if (k === 0 || (k === a && keysB[i] === b)) return i;
      i = (i + 1) & mask;
    }
  }

  /** Whether the pair `{a, b}` is in the set. */
  has(a: number, b: number): boolean {
    return a < b ? this.#a[this.#find(a, b)] !== 0 : this.#a[this.#find(b, a)] !== 0;
  }

  /** Add the pair `{a, b}`. */
  add(a: number, b: number): void {
    if (a > b) {
      const t = a;
      a = b;
      b = t;
    }
    if (2 * (this.#count + 1) > this.#a.length) this.#prune();
    const i = this.#find(a, b);
    if (this.#a[i] !== 0) return;
    this.#a[i] = a;
    this.#b[i] = b;
    this.#count++;
  }

  /** Remove the pair `{a, b}` (nothing if it is not there). */
  delete(a: number, b: number): void {
    if (a > b) {
      const t = a;
      a = b;
      b = t;
    }
    const keysA = this.#a;
    const keysB = this.#b;
    let i = this.#find(a, b);
    if (keysA[i] === 0) return;
    this.#count--;
    // backward shift: move up each later entry of the run that may sit at the hole, so no probe stops early
    const mask = keysA.length - 1;
    for (let j = (i + 1) & mask; keysA[j] !== 0; j = (j + 1) & mask) {
      const home = this.#home(keysA[j]!, keysB[j]!);
      // j's entry may fill the hole when its home is not in the cyclic interval (i, j]
      if (((j - home) & mask) >= ((j - i) & mask)) {
        keysA[i] = keysA[j]!;
        keysB[i] = keysB[j]!;
        i = j;
      }
    }
    keysA[i] = 0;
    keysB[i] = 0;
  }

  /** Drop every pair. */
  clear(): void {
    this.#a.fill(0);
    this.#b.fill(0);
    this.#count = 0;
  }

  // Keep what `keep` accepts, in a set at most a quarter full after it.
  #prune(): void {
    const oldA = this.#a;
    const oldB = this.#b;
    const kept: number[] = [];
    for (let i = 0; i < oldA.length; i++) if (oldA[i] !== 0 && this.#keep(oldA[i]!, oldB[i]!)) kept.push(i);
    let bits = this.#bits;
    while (4 * (kept.length + 1) > 1 << bits) bits++;
    this.#bits = bits;
    this.#a = new Float64Array(1 << bits);
    this.#b = new Float64Array(1 << bits);
    this.#count = 0;
    for (const i of kept) this.add(oldA[i]!, oldB[i]!);
  }
}
