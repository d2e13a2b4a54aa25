// SPDX-License-Identifier: MIT
// A hash map from unordered pairs of slots (integers below 2^31) to values: open addressing with linear probing over
// typed arrays, no deletion; entries that went stale are dropped by `prune` when the table fills up.

/** Decides, when the table is full, which entries to keep. */
export type KeepEntry<V> = (a: number, b: number, value: V) => boolean;

export class PairTable<V> {
  #bits = 6;
  #a = new Int32Array(64).fill(-1); // the smaller slot, -1 for an empty entry
  #b = new Int32Array(64);
  #values: (V | undefined)[] = new Array<V | undefined>(64);
  #count = 0;
  readonly #keep: KeepEntry<V>;

  /** `keep` is asked about every entry when the table is half full: what it refuses is dropped. */
  constructor(keep: KeepEntry<V>) {
    this.#keep = keep;
  }

  /** Entries held (stale ones included until the next prune). */
  get size(): number {
    return this.#count;
  }

  #home(a: number, b: number): number {
    return (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77)) >>> (32 - this.#bits);
  }

  /** The value of the pair `{a, b}`, or undefined. */
  get(a: number, b: number): V | undefined {
    if (a > b) {
      const t = a;
      a = b;
      b = t;
    }
    const keysA = this.#a;
    const keysB = this.#b;
    const mask = keysA.length - 1;
    for (let i = this.#home(a, b); ; i = (i + 1) & mask) {
      const k = keysA[i]!;
      if (k === -1) return undefined;
      if (k === a && keysB[i] === b) return this.#values[i];
    }
  }

  /** Set the value of the pair `{a, b}`. */
  set(a: number, b: number, value: V): void {
    if (a > b) {
      const t = a;
      a = b;
      b = t;
    }
    if (2 * (this.#count + 1) > this.#a.length) this.#prune();
    const keysA = this.#a;
    const keysB = this.#b;
    const mask = keysA.length - 1;
    for (let i = this.#home(a, b); ; i = (i + 1) & mask) {
      const k = keysA[i]!;
      if (k === -1) {
        keysA[i] = a;
        keysB[i] = b;
        this.#values[i] = value;
        this.#count++;
        return;
      }
      if (k === a && keysB[i] === b) {
        this.#values[i] = value;
        return;
      }
    }
  }

  /** Drop every entry. */
  clear(): void {
    this.#a.fill(-1);
    this.#values.fill(undefined);
    this.#count = 0;
  }

  // Keep what `keep` accepts, in a table at most a quarter full after it.
  #prune(): void {
    const oldA = this.#a;
    const oldB = this.#b;
    const oldValues = this.#values;
    const kept: number[] = [];
    for (let i = 0; i < oldA.length; i++) {
      if (oldA[i] !== -1 && this.#keep(oldA[i]!, oldB[i]!, oldValues[i]!)) kept.push(i);
    }
    let bits = this.#bits;
    while (4 * (kept.length + 1) > 1 << bits) bits++;
    this.#bits = bits;
    this.#a = new Int32Array(1 << bits).fill(-1);
    this.#b = new Int32Array(1 << bits);
    this.#values = new Array<V | undefined>(1 << bits);
    this.#count = 0;
    for (const i of kept) this.set(oldA[i]!, oldB[i]!, oldValues[i]!);
  }
}
