// SPDX-License-Identifier: MIT
// Stand-ins for the two RTrees of an Arcade Physics world (`world.tree`, `world.staticTree`, Phaser's copy of
// rbush), with rbush's API, on an ArcadeIndex. Phaser clears and loads the dynamic tree every step and inserts and
// removes static bodies one by one; here a load of the same bodies changes nothing, and the boxes are written only
// when a collider or a search needs them.
import { SweepPruneError } from '../errors.js';
import { type ArcadeBody, type ArcadeIndex, type BBox, DYNAMIC, STATIC, checkBBox } from './arcade-index.js';

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

/** What both trees share: rbush's queries. */
abstract class Tree {
  protected readonly index: ArcadeIndex;
  protected abstract readonly kind: number;
  protected abstract readonly what: string;
  readonly toBBox = toBBox;
  readonly compareMinX = compareMinX;
  readonly compareMinY = compareMinY;

  constructor(index: ArcadeIndex) {
    this.index = index;
  }

  protected abstract ready(): void;

  /**
   * The bodies whose box (`left`, `top`, `right`, `bottom`, read now) meets `bbox` (closed intervals, as rbush),
   * in the tree's order: the order of `world.bodies` at the last load for the dynamic tree, of insertion for the
   * static one. A new array.
   * @throws SweepPruneError `InvalidBounds` (a bbox that is not four numbers, or has NaN)
   */
  search(bbox: BBox): ArcadeBody[] {
    checkBBox(`${this.what}.search`, bbox);
    this.ready();
    const index = this.index;
    const from = index.top;
    const to = index.meeting(this.kind, -1, bbox.minX, bbox.minY, bbox.maxX, bbox.maxY);
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
    return this.index.all(this.kind);
  }

  /** rbush's `remove(item, equalsFn)`: the first body `equalsFn(item, body)` accepts. */
  protected find(item: ArcadeBody, equalsFn: EqualsFn | undefined): ArcadeBody | undefined {
    if (equalsFn === undefined) return item;
    return this.all().find((body) => equalsFn(item, body));
  }

  /** @throws SweepPruneError `InvalidArgument`: the tree's nodes are not kept (`stop()` gives Phaser's tree back) */
  toJSON(): never {
    throw new SweepPruneError(
      'InvalidArgument',
      `${this.what}.toJSON: sweep-prune keeps no tree nodes; call stop() on the handle from usePhaserArcade to get Phaser's RTree back`,
    );
  }

  /** @throws SweepPruneError `InvalidArgument`, as `toJSON` */
  fromJSON(): never {
    throw new SweepPruneError(
      'InvalidArgument',
      `${this.what}.fromJSON: sweep-prune keeps no tree nodes; call stop() on the handle from usePhaserArcade to get Phaser's RTree back`,
    );
  }
}

/** `world.tree`: the dynamic bodies, loaded by Phaser every step. */
export class DynamicTree extends Tree {
  protected readonly kind = DYNAMIC;
  protected readonly what = 'world.tree';
  #cleared = false;

  protected ready(): void {
    if (this.#cleared) this.#apply();
    this.index.prepare();
  }

  #apply(): void {
    this.#cleared = false;
    this.index.load([], false);
  }

  /** Empties the tree (the next `load` replaces its bodies). */
  clear(): this {
    this.#cleared = true;
    this.index.dirty = true;
    return this;
  }

  /** Adds the bodies (after `clear()`: they become the tree; the same bodies as before change nothing). */
  load(data: readonly ArcadeBody[]): this {
    if (!(data && data.length)) return this; // as rbush
    this.index.load(data, !this.#cleared);
    this.#cleared = false;
    return this;
  }

  insert(item: ArcadeBody): this {
    if (!item) return this;
    if (this.#cleared) this.#apply();
    this.index.insertDynamic(item);
    return this;
  }

  remove(item: ArcadeBody, equalsFn?: EqualsFn): this {
    if (!item) return this;
    if (this.#cleared) this.#apply();
    const body = this.find(item, equalsFn);
    if (body !== undefined) this.index.removeDynamic(body);
    return this;
  }

  override all(): ArcadeBody[] {
    if (this.#cleared) this.#apply();
    return super.all();
  }
}

/** `world.staticTree`: the static bodies, inserted and removed one by one. */
export class StaticTree extends Tree {
  protected readonly kind = STATIC;
  protected readonly what = 'world.staticTree';

  protected ready(): void {
    this.index.prepareStatic();
  }

  clear(): this {
    this.index.clearStatic();
    return this;
  }

  load(data: readonly ArcadeBody[]): this {
    if (!(data && data.length)) return this;
    for (const body of data) this.index.insertStatic(body);
    return this;
  }

  insert(item: ArcadeBody): this {
    if (item) this.index.insertStatic(item);
    return this;
  }

  remove(item: ArcadeBody, equalsFn?: EqualsFn): this {
    if (!item) return this;
    const body = this.find(item, equalsFn);
    if (body !== undefined) this.index.removeStatic(body);
    return this;
  }
}
