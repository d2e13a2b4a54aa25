// SPDX-License-Identifier: MIT
// A stand-in for the dynamic RTree of an Arcade Physics world (`world.tree`, Phaser's copy of rbush), with rbush's
// API, on an ArcadeIndex. Phaser clears and loads it every step; here a load of the same bodies changes nothing,
// and the boxes are written only when a collider or a search needs them. The static tree stays Phaser's own.
import { SweepPruneError } from '../errors.js';
import { type ArcadeBody, type ArcadeIndex, type BBox, checkBBox } from './arcade-index.js';

function toBBox(item: ArcadeBody): BBox {
  return { minX: item.left, minY: item.top, maxX: item.right, maxY: item.bottom };
}

function compareMinX(a: ArcadeBody, b: ArcadeBody): number {
  return a.left - b.left;
}

function compareMinY(a: ArcadeBody, b: ArcadeBody): number {
  return a.top - b.top;
}

type EqualsFn = (a: ArcadeBody, b: ArcadeBody) => boolean;

const WHAT = 'world.tree';

/** `world.tree`: the dynamic bodies, loaded by Phaser every step. */
export class DynamicTree {
  readonly #index: ArcadeIndex;
  #cleared = false;
  readonly toBBox = toBBox;
  readonly compareMinX = compareMinX;
  readonly compareMinY = compareMinY;

  constructor(index: ArcadeIndex) {
    this.#index = index;
  }

  #apply(): void {
    if (!this.#cleared) return;
    this.#cleared = false;
    this.#index.load([], false);
  }

  /**
   * The bodies whose box (`left`, `top`, `right`, `bottom`, read now) meets `bbox` (closed intervals, as rbush),
   * in the order of `world.bodies` at the last load (the order Phaser's `useTree: false` scans). A new array.
   * @throws SweepPruneError `InvalidBounds` (a bbox that is not four numbers, or has NaN)
   */
  search(bbox: BBox): ArcadeBody[] {
    checkBBox(`${WHAT}.search`, bbox);
    this.#apply();
    const index = this.#index;
    index.prepare();
    const from = index.top;
    const to = index.meeting(bbox.minX, bbox.minY, bbox.maxX, bbox.maxY);
    const found = index.bodies.slice(from, to);
    index.release(from);
    return found;
  }

  /** True if a body's box meets `bbox`. @throws SweepPruneError `InvalidBounds` */
  collides(bbox: BBox): boolean {
    return this.search(bbox).length > 0;
  }

  /** Every body of the tree, in its order. */
  all(): ArcadeBody[] {
    this.#apply();
    return this.#index.all();
  }

  /** Empties the tree (the next `load` replaces its bodies). */
  clear(): this {
    this.#cleared = true;
    this.#index.dirty = true;
    return this;
  }

  /** Adds the bodies (after `clear()`: they become the tree; the same bodies as before change nothing). */
  load(data: readonly ArcadeBody[]): this {
    if (!(data && data.length)) return this; // as rbush
    this.#index.load(data, !this.#cleared);
    this.#cleared = false;
    return this;
  }

  insert(item: ArcadeBody): this {
    if (!item) return this;
    this.#apply();
    this.#index.insert(item);
    return this;
  }

  /** rbush's `remove(item, equalsFn)`: the first body `equalsFn(item, body)` accepts. */
  remove(item: ArcadeBody, equalsFn?: EqualsFn): this {
    if (!item) return this;
    this.#apply();
    const body = equalsFn === undefined ? item : this.all().find((b) => equalsFn(item, b));
    if (body !== undefined) this.#index.remove(body);
    return this;
  }

  /** @throws SweepPruneError `InvalidArgument`: the tree's nodes are not kept (`stop()` gives Phaser's tree back) */
  toJSON(): never {
    throw new SweepPruneError(
      'InvalidArgument',
      `${WHAT}.toJSON: sweep-prune keeps no tree nodes; call stop() on the handle from usePhaserArcade to get Phaser's RTree back`,
    );
  }

  /** @throws SweepPruneError `InvalidArgument`, as `toJSON` */
  fromJSON(): never {
    throw new SweepPruneError(
      'InvalidArgument',
      `${WHAT}.fromJSON: sweep-prune keeps no tree nodes; call stop() on the handle from usePhaserArcade to get Phaser's RTree back`,
    );
  }
}
