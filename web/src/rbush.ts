// SPDX-License-Identifier: MIT
// `sweep-prune/rbush`: rbush 4's class (insert, load, remove, search, collides, all, toBBox, toJSON) on a World.
// Each item is one box of a 2D world. Changes only mark the world out of date; the first query after them brings it
// up to date with one `update()`. The world holds each box rounded outward to float32, so a query's candidates
// include every item rbush would return; each is tested again on the item's float64 box with rbush's own test.
import { SweepPruneError } from './errors.js';
import { roundDown, roundUp } from './float32.js';
import { getEngine, notInitialized } from './loader.js';
import { checkOptions } from './options.js';
import { preview } from './preview.js';
import { GENERATION_BITS } from './raw.js';
import { World, type BoxId } from './world.js';

export { init } from './index.js';
export { isInitialized } from './loader.js';

/** A box as rbush reads it: closed on every side (boxes that touch overlap). */
export interface BBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** The second argument of `new RBush`: what rbush does not have. */
export interface RBushOptions {
  /**
   * `true`: keep the pairs that began and ended overlapping at each refresh of the index, for `began()` and
   * `ended()`. Costs a sort of the pairs at each refresh. Default false.
   */
  events?: boolean;
}

/** The JSON form of `toJSON()`: one rbush leaf node holding every item, with their common extent. */
export interface RBushNode<T> extends BBox {
  children: T[];
  height: number;
  leaf: boolean;
}

const finalizer =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry<World>((world) => world.dispose()) : undefined;

const OPTIONS: readonly (keyof RBushOptions)[] = ['events'];

/**
 * rbush 4's API and answers on the sweep-prune engine. `await init()` once before `new RBush()`.
 *
 * Results are rbush's: `search(bbox)` returns every item whose box overlaps `bbox` (closed: touching counts), decided
 * in float64 as rbush decides it. `search`, `all` and `pairs` list items in one order: by the slot of their box, a
 * number given at `insert` or `load` (a removed item's slot is reused by a later insert), so the same calls give the
 * same order every time. rbush's order follows its tree.
 *
 * What differs from rbush, on purpose (docs/rbush.md): a box is read with `toBBox` when the item is inserted, loaded
 * or updated, never at search time; an item's box must be numbers with min <= max (NaN or inverted throws, and
 * nothing changes); `toJSON()` is one leaf of every item (there is no tree); `maxEntries`, `compareMinX` and
 * `compareMinY` are accepted and never used; the wasm memory is freed when the object is garbage-collected, or at once
 * with `dispose()`. What it adds: `update(item)` moves an item in place, `pairs()` gives every overlapping pair, and
 * with `{ events: true }`, `began()` and `ended()` give the pairs that changed.
 */
export default class RBush<T = any> {
  readonly #world: World<T>;
  readonly #events: boolean;
  #items: (T | undefined)[] = []; // by slot: the item whose box it is (undefined: free)
  #ids: number[] = []; // by slot: its box id
  #exact = new Float64Array(64); // by slot: minX, minY, maxX, maxY in float64
  // item -> its box (the first, when inserted more than once). An item removed since the refresh keeps its entry
  // until then, so that inserting it again takes its box back with no change to the map (#live tells which).
  #entry = new Map<T, BoxId>();
  // The same id kept on the item itself, under a symbol of this tree (not enumerable: copies, JSON and deep-equal
  // comparisons do not see it), so that moving and searching an item needs no map lookup. A hint, checked against
  // #items before use; items that cannot take it (frozen) use the map alone.
  readonly #key = Symbol('sweep-prune/rbush box');
  #extra = new Map<T, BoxId[]>(); // item -> its further boxes
  // Boxes of items removed since the last refresh, still in the world: taken back by the same item, reused by other
  // inserts, removed from the world at the refresh. An id may be listed twice or taken back: #ids and #items tell.
  #freed: BoxId[] = [];
  #pending: (T | undefined)[] = []; // by slot: the item a freed box held, while its entry may take it back
  #count = 0;
  #stale = false; // the world's index is older than the items
  #bounds: Float32Array | undefined;
  #box = new Float64Array(4); // the last box read by #read
  #min = [0, 0];
  #max = [0, 0];
  #disposed = false;
  // Each item's own search answered from the pairs of the last refresh: per slot, the slot itself and the slots it
  // pairs with in float64, ascending (slots #near[#nearStart[s]] to #near[#nearStart[s + 1] - 1]). Built once per
  // refresh, when enough searches asked for an item's own box to pay for it.
  #nearStart = new Int32Array(0);
  #near = new Int32Array(0);
  #nearBuilt = false;
  #ownSearches = 0;
  #extent: Float64Array | undefined; // the items' extent at the last refresh (computed when collides needs it)

  /**
   * `maxEntries` is accepted for rbush's sake and not used (there is no tree). `options.events` keeps the began
   * and ended pairs. Throws `NotInitialized` before `init()`, `InvalidArgument` for a bad argument.
   */
  constructor(maxEntries?: number, options: RBushOptions = {}) {
    getEngine('new RBush', 'rbush');
    if (maxEntries !== undefined && typeof maxEntries !== 'number') {
      throw new SweepPruneError(
        'InvalidArgument',
        `new RBush(maxEntries): maxEntries must be a number or undefined, got ${preview(maxEntries)}`,
      );
    }
    if (options === null || typeof options !== 'object') {
      throw new SweepPruneError(
        'InvalidArgument',
        `new RBush(maxEntries, options): options must be an object like { events: true }, got ${preview(options)}`,
      );
    }
    checkOptions('new RBush', options, OPTIONS);
    if (options.events !== undefined && typeof options.events !== 'boolean') {
      throw new SweepPruneError(
        'InvalidArgument',
        `new RBush: options.events must be true or false, got ${preview(options.events)}`,
      );
    }
    this.#events = options.events === true;
    try {
      this.#world = new World<T>({ dimensions: 2, events: this.#events });
    } catch (error) {
      throw restate(error, 'new RBush');
    }
    finalizer?.register(this, this.#world, this);
  }

  /** The box of an item: rbush's default reads `minX`, `minY`, `maxX` and `maxY` from the item itself. */
  toBBox(item: T): BBox {
    return item as unknown as BBox;
  }

  /** rbush sorts by it when it builds its tree; accepted for subclasses that override it, never called here. */
  compareMinX(a: T, b: T): number {
    return (a as unknown as BBox).minX - (b as unknown as BBox).minX;
  }

  /** rbush sorts by it when it builds its tree; accepted for subclasses that override it, never called here. */
  compareMinY(a: T, b: T): number {
    return (a as unknown as BBox).minY - (b as unknown as BBox).minY;
  }

  #check(what: string): void {
    if (this.#disposed) {
      throw new SweepPruneError('Disposed', `${what}: this RBush was disposed; create a new RBush`);
    }
  }

  // The item's box through toBBox into #box, checked: numbers, min <= max on both axes (±Infinity allowed).
  #read(what: string, item: T): Float64Array {
    const b = this.toBBox(item);
    if (b === null || typeof b !== 'object') {
      throw new SweepPruneError(
        'InvalidBounds',
        `${what}: toBBox(${preview(item)}) must return { minX, minY, maxX, maxY }, got ${preview(b)}. Nothing changed`,
      );
    }
    return readBox(what, this.#box, b, item);
  }

  #view(): Float32Array {
    let b = this.#bounds;
    // ended by a growth of capacity (addBox) or, where views do not survive it, of wasm memory (any world's)
    if (b === undefined || b.length === 0) b = this.#bounds = this.#world.bounds;
    return b;
  }

  // Keep a slot's float64 box (the caller writes the world's float32 one, rounded outward).
  #store(slot: number, box: Float64Array): void {
    if (4 * slot + 4 > this.#exact.length) {
      const grown = new Float64Array(Math.max(8 * slot + 8, 2 * this.#exact.length));
      grown.set(this.#exact);
      this.#exact = grown;
    }
    const exact = this.#exact;
    const o = 4 * slot;
    exact[o] = box[0]!;
    exact[o + 1] = box[1]!;
    exact[o + 2] = box[2]!;
    exact[o + 3] = box[3]!;
  }

  // A freed box still in the world, for another item (none with events: a box would change items under its pairs).
  #reuse(): BoxId | undefined {
    if (this.#events) return undefined;
    const freed = this.#freed;
    let id: BoxId | undefined;
    while ((id = freed.pop()) !== undefined) {
      const slot = id >>> GENERATION_BITS;
      if (this.#ids[slot] !== id || this.#items[slot] !== undefined) continue; // taken back, or listed twice
      const was = this.#pending[slot];
      if (was !== undefined) {
        this.#pending[slot] = undefined;
        if (this.#entry.get(was) === id) this.#entry.delete(was);
      }
      return id;
    }
    return undefined;
  }

  // The item's first box if it is in the tree (its entry may name a box it was removed from since the refresh).
  #live(item: T): BoxId | undefined {
    const hint = this.#hint(item);
    // the hint names the first box only when the item has one box (the map orders an item's boxes)
    if (hint !== undefined && this.#items[hint >>> GENERATION_BITS] === item && this.#extra.size === 0) return hint;
    const id = this.#entry.get(item);
    return id !== undefined && this.#items[id >>> GENERATION_BITS] === item ? id : undefined;
  }

  // The id the item carries for this tree, if any (not checked).
  #hint(item: T): BoxId | undefined {
    return (item as { [key: symbol]: BoxId | undefined })[this.#key];
  }

  #setEntry(item: T, id: BoxId): void {
    this.#entry.set(item, id);
    if ((item as { [key: symbol]: BoxId })[this.#key] === id) return;
    try {
      Object.defineProperty(item, this.#key, { value: id, writable: true, configurable: true });
    } catch {
      // frozen or sealed: the map alone
    }
  }

  // A box for `item` with the box in #box: a freed one moved there when there is one, else a new one.
  #place(item: T, box: Float64Array): void {
    let id = this.#reuse();
    let slot: number;
    if (id !== undefined) {
      slot = id >>> GENERATION_BITS;
      const f = this.#view();
      const o = 4 * slot;
      f[o] = roundDown(box[0]!);
      f[o + 1] = roundDown(box[1]!);
      f[o + 2] = roundUp(box[2]!);
      f[o + 3] = roundUp(box[3]!);
    } else {
      const min = this.#min;
      const max = this.#max;
      min[0] = roundDown(box[0]!);
      min[1] = roundDown(box[1]!);
      max[0] = roundUp(box[2]!);
      max[1] = roundUp(box[3]!);
      try {
        id = this.#world.addBox(min, max, this.#events ? item : undefined);
      } catch (error) {
        throw restate(error, 'insert');
      }
      this.#bounds = undefined;
      slot = id >>> GENERATION_BITS;
      this.#ids[slot] = id;
    }
    this.#store(slot, box);
    this.#remember(item, id);
    this.#items[slot] = item;
    this.#count++;
    this.#stale = true;
  }

  // Before #items holds the new box's item.
  #remember(item: T, id: BoxId): void {
    if (this.#live(item) === undefined) this.#setEntry(item, id);
    else {
      const more = this.#extra.get(item);
      if (more === undefined) this.#extra.set(item, [id]);
      else more.push(id);
    }
  }

  // Forget one box of `item` (`id`, or its latest when undefined); returns it, or undefined when the item has none.
  #forget(item: T, id?: BoxId): BoxId | undefined {
    const first = this.#entry.get(item);
    if (first === undefined) return undefined;
    const more = this.#extra.get(item);
    if (more === undefined) {
      if (id !== undefined && id !== first) return undefined;
      this.#entry.delete(item);
      return first;
    }
    let taken: BoxId;
    if (id === undefined) {
      taken = more.pop()!; // the latest entry: the item keeps its first place in the order
    } else if (id === first) {
      taken = first;
      this.#setEntry(item, more.shift()!);
    } else {
      const k = more.indexOf(id);
      if (k < 0) return undefined;
      taken = more[k]!;
      more.splice(k, 1);
    }
    if (more.length === 0) this.#extra.delete(item);
    return taken;
  }

  // `item` given: its entry stays, and inserting it again before the refresh takes this box back.
  #release(id: BoxId, item?: T): void {
    const slot = id >>> GENERATION_BITS;
    this.#items[slot] = undefined;
    this.#pending[slot] = item;
    this.#freed.push(id);
    this.#count--;
    this.#stale = true;
  }

  // Bring the world's index up to date with the items: the freed boxes removed, one update.
  #refresh(what: string): void {
    if (!this.#stale) return;
    const world = this.#world;
    const freed = this.#freed;
    const ids = this.#ids;
    const items = this.#items;
    try {
      for (let i = 0; i < freed.length; i++) {
        const id = freed[i]!;
        const slot = id >>> GENERATION_BITS;
        if (ids[slot] !== id || items[slot] !== undefined) continue; // taken back, or listed twice
        world.removeBox(id);
        ids[slot] = 0;
        const was = this.#pending[slot];
        if (was !== undefined) {
          this.#pending[slot] = undefined;
          if (this.#entry.get(was) === id) this.#entry.delete(was);
        }
      }
      freed.length = 0;
      this.#view(); // a view a growth of memory ended must be taken again before update() (docs/views.md)
      world.update();
    } catch (error) {
      throw restate(error, what);
    }
    this.#stale = false;
    this.#nearBuilt = false;
    this.#ownSearches = 0;
    this.#extent = undefined;
  }

  /**
   * Add an item; its box is read with `toBBox` now. An item may be inserted more than once (each is an entry, as in
   * rbush). `insert()` with no item does nothing, as in rbush.
   * @throws SweepPruneError `InvalidBounds` (a bound not a number, or NaN), `InvertedBounds` (min > max), `Disposed`
   */
  insert(item?: T): this {
    this.#check('insert');
    if (!item) return this;
    const box = this.#read('insert', item);
    const id = this.#hint(item) ?? this.#entry.get(item);
    if (id !== undefined) {
      const slot = id >>> GENERATION_BITS;
      if (this.#items[slot] === undefined && this.#pending[slot] === item && this.#ids[slot] === id) {
        // removed since the refresh and inserted again (detect-collisions moves a body so): a move of its box
        this.#pending[slot] = undefined;
        this.#items[slot] = item;
        this.#move(id, box);
        this.#count++;
        this.#stale = true;
        return this;
      }
    }
    this.#place(item, box);
    return this;
  }

  /**
   * Add many items. Every box is read and checked before any is added: a bad one throws naming its index, and
   * nothing changes. Empty or missing data does nothing, as in rbush.
   * @throws SweepPruneError `InvalidArgument` (an item that is not an object), `InvalidBounds`, `InvertedBounds`, `Disposed`
   */
  load(data?: readonly T[]): this {
    this.#check('load');
    if (!(data && data.length)) return this;
    const n = data.length;
    const boxes = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) {
      const item = data[i]!;
      if (!item) {
        throw new SweepPruneError(
          'InvalidArgument',
          `load: data[${i}] is ${preview(item)}; every item must be an object. Nothing changed`,
        );
      }
      boxes.set(this.#read(`load: data[${i}]`, item), 4 * i);
    }
    // boxes freed since the refresh first, the rest added with one call
    let i = 0;
    if (!this.#events) {
      for (; i < n && this.#freed.length > 0; i++) this.#place(data[i]!, boxes.subarray(4 * i, 4 * i + 4));
    }
    const rest = n - i;
    if (rest === 0) return this;
    const f32 = new Float32Array(4 * rest);
    for (let k = 0; k < 4 * rest; k += 4) {
      const o = 4 * i + k;
      f32[k] = roundDown(boxes[o]!);
      f32[k + 1] = roundDown(boxes[o + 1]!);
      f32[k + 2] = roundUp(boxes[o + 2]!);
      f32[k + 3] = roundUp(boxes[o + 3]!);
    }
    let ids: Uint32Array;
    try {
      ids = this.#world.addBoxes(f32);
    } catch (error) {
      throw restate(error, 'load');
    }
    this.#bounds = undefined;
    const items = this.#items;
    const slots = this.#ids;
    for (let k = 0; k < rest; k++, i++) {
      const item = data[i]!;
      const id = ids[k]!;
      const slot = id >>> GENERATION_BITS;
      slots[slot] = id;
      this.#store(slot, boxes.subarray(4 * i, 4 * i + 4));
      this.#remember(item, id);
      items[slot] = item;
      if (this.#events) this.#world.setData(id, item);
    }
    this.#count += rest;
    this.#stale = true;
    return this;
  }

  /**
   * Remove an item: by reference, or with `equalsFn(item, stored)`, the first stored item (in `all()`'s order)
   * whose box overlaps `item`'s box and that `equalsFn` accepts. An item not found is ignored, as in rbush; an
   * item inserted twice loses one entry per call.
   * @throws SweepPruneError `InvalidArgument` (equalsFn not a function), `Disposed`; with equalsFn also the
   * `toBBox` errors of `insert`
   */
  remove(item?: T, equalsFn?: (a: T, b: T) => boolean): this {
    this.#check('remove');
    if (!item) return this;
    if (equalsFn === undefined) {
      const id = this.#live(item);
      if (id === undefined) return this;
      if (this.#extra.has(item)) this.#release(this.#forget(item)!);
      else this.#release(id, item);
      return this;
    }
    if (typeof equalsFn !== 'function') {
      throw new SweepPruneError(
        'InvalidArgument',
        `remove(item, equalsFn): equalsFn must be a function (a, b) => boolean, got ${preview(equalsFn)}`,
      );
    }
    const box = this.#read('remove', item);
    const items = this.#items;
    const [minX, minY, maxX, maxY] = box;
    const exact = this.#exact;
    for (const slot of this.#candidates('remove', minX!, minY!, maxX!, maxY!)) {
      const o = 4 * slot;
      const stored = items[slot];
      const overlaps = exact[o]! <= maxX! && exact[o + 1]! <= maxY! && exact[o + 2]! >= minX! && exact[o + 3]! >= minY!;
      if (stored !== undefined && overlaps && equalsFn(item, stored)) {
        const id = this.#forget(stored, this.#ids[slot]);
        if (id !== undefined) this.#release(id);
        return this;
      }
    }
    return this;
  }

  /**
   * Move an item already in the tree to the box `toBBox` gives now: rbush's `remove` then `insert`, in one step that
   * keeps its slot (so its place in the results). Every entry of an item inserted twice moves.
   * @throws SweepPruneError `InvalidArgument` (the item is not in the tree), the `toBBox` errors of `insert`, `Disposed`
   */
  update(item: T): this {
    this.#check('update');
    const first = this.#live(item);
    if (first === undefined) {
      throw new SweepPruneError(
        'InvalidArgument',
        `update: ${preview(item)} is not in this RBush; insert it first (update moves an item already inserted)`,
      );
    }
    const box = this.#read('update', item);
    this.#move(first, box);
    const more = this.#extra.get(item);
    if (more !== undefined) for (const id of more) this.#move(id, box);
    this.#stale = true;
    return this;
  }

  #move(id: BoxId, box: Float64Array): void {
    const slot = id >>> GENERATION_BITS;
    const f = this.#view();
    const o = 4 * slot;
    f[o] = roundDown(box[0]!);
    f[o + 1] = roundDown(box[1]!);
    f[o + 2] = roundUp(box[2]!);
    f[o + 3] = roundUp(box[3]!);
    this.#store(slot, box);
  }

  /** Remove every item. */
  clear(): this {
    this.#check('clear');
    const items = this.#items;
    for (let slot = 0; slot < items.length; slot++) {
      if (items[slot] !== undefined) this.#release(this.#ids[slot]!);
    }
    this.#entry.clear();
    this.#extra.clear();
    return this;
  }

  // Slots of the items whose box may overlap the query (float32 candidates, still to be tested in float64).
  #candidates(what: string, minX: number, minY: number, maxX: number, maxY: number): Uint32Array {
    this.#refresh(what);
    // an inverted query box still has answers under rbush's test (the items spanning its gap): search the gap
    const min = this.#min;
    const max = this.#max;
    min[0] = roundDown(Math.min(minX, maxX));
    min[1] = roundDown(Math.min(minY, maxY));
    max[0] = roundUp(Math.max(minX, maxX));
    max[1] = roundUp(Math.max(minY, maxY));
    const ids = this.#world.queryBox(min, max);
    for (let k = 0; k < ids.length; k++) ids[k] = ids[k]! >>> GENERATION_BITS;
    return ids;
  }

  /**
   * The items whose box overlaps `bbox` (closed: touching counts), tested in float64 as rbush tests them, in slot
   * order. Brings the index up to date first if anything changed since the last query.
   * @throws SweepPruneError `InvalidBounds` (a bound not a number, or NaN), `OutOfMemory`, `Disposed`
   */
  search(bbox: BBox): T[] {
    this.#check('search');
    const q = readQuery('search', this.#box, bbox);
    const minX = q[0]!;
    const minY = q[1]!;
    const maxX = q[2]!;
    const maxY = q[3]!;
    const items = this.#items;
    const exact = this.#exact;
    const result: T[] = [];
    // an item's own box (detect-collisions searches with the body itself): the pairs already hold the answer
    const own = this.#live(bbox as unknown as T);
    if (own !== undefined && !this.#stale) {
      const slot = own >>> GENERATION_BITS;
      const o = 4 * slot;
      if (
        (this.#nearBuilt || ++this.#ownSearches >= 16 + (this.#count >>> 6)) &&
        exact[o] === minX &&
        exact[o + 1] === minY &&
        exact[o + 2] === maxX &&
        exact[o + 3] === maxY &&
        !this.#extra.has(bbox as unknown as T)
      ) {
        if (!this.#nearBuilt) this.#buildNear();
        const near = this.#near;
        for (let k = this.#nearStart[slot]!, end = this.#nearStart[slot + 1]!; k < end; k++) {
          result.push(items[near[k]!]!);
        }
        return result;
      }
    }
    const slots = this.#candidates('search', minX, minY, maxX, maxY);
    for (let k = 0; k < slots.length; k++) {
      const slot = slots[k]!;
      const o = 4 * slot;
      if (exact[o]! <= maxX && exact[o + 1]! <= maxY && exact[o + 2]! >= minX && exact[o + 3]! >= minY) {
        const item = items[slot];
        if (item !== undefined) result.push(item);
      }
    }
    return result;
  }

  // True when a query box covers so much of the items' extent (a sixteenth or more, by area) that `collides` reads
  // the float64 boxes in slot order until the first hit instead of asking the engine, which finds and sorts every
  // hit. (A search must visit every box then, which measured no faster than the engine's answer.) Refreshes the index.
  #large(what: string, minX: number, minY: number, maxX: number, maxY: number): boolean {
    this.#refresh(what);
    if (this.#count < 256) return false;
    let e = this.#extent;
    if (e === undefined) {
      e = this.#extent = Float64Array.of(Infinity, Infinity, -Infinity, -Infinity);
      const exact = this.#exact;
      const items = this.#items;
      for (let slot = 0; slot < items.length; slot++) {
        if (items[slot] === undefined) continue;
        const o = 4 * slot;
        if (exact[o]! < e[0]!) e[0] = exact[o]!;
        if (exact[o + 1]! < e[1]!) e[1] = exact[o + 1]!;
        if (exact[o + 2]! > e[2]!) e[2] = exact[o + 2]!;
        if (exact[o + 3]! > e[3]!) e[3] = exact[o + 3]!;
      }
    }
    const w = e[2]! - e[0]!;
    const h = e[3]! - e[1]!;
    if (!(w > 0 && h > 0 && w < Infinity && h < Infinity)) return false; // unbounded or flat: no estimate
    const fx = (Math.min(Math.max(minX, maxX), e[2]!) - Math.max(Math.min(minX, maxX), e[0]!)) / w;
    const fy = (Math.min(Math.max(minY, maxY), e[3]!) - Math.max(Math.min(minY, maxY), e[1]!)) / h;
    return fx > 0 && fy > 0 && fx * fy >= 1 / 16;
  }

  // #near and #nearStart from the pairs of the last refresh, tested again in float64 (rbush's closed test).
  #buildNear(): void {
    const pairs = this.#world.pairs;
    const exact = this.#exact;
    const slots = this.#items.length;
    const start = this.#nearStart.length >= slots + 1 ? this.#nearStart.fill(0) : new Int32Array(slots + 1);
    const kept = new Uint8Array(pairs.length >>> 1);
    for (let k = 0, p = 0; k < pairs.length; k += 2, p++) {
      const sa = pairs[k]! >>> GENERATION_BITS;
      const sb = pairs[k + 1]! >>> GENERATION_BITS;
      if (overlaps(exact, 4 * sa, 4 * sb)) {
        kept[p] = 1;
        start[sa + 1]!++;
        start[sb + 1]!++;
      }
    }
    const items = this.#items;
    for (let slot = 0; slot < slots; slot++) {
      start[slot + 1]! += start[slot]! + (items[slot] !== undefined ? 1 : 0);
    }
    const near = this.#near.length >= start[slots]! ? this.#near : new Int32Array(start[slots]!);
    const fill = start.slice(0, slots);
    for (let slot = 0; slot < slots; slot++) if (items[slot] !== undefined) near[fill[slot]!++] = slot;
    for (let k = 0, p = 0; k < pairs.length; k += 2, p++) {
      if (kept[p] === 0) continue;
      const sa = pairs[k]! >>> GENERATION_BITS;
      const sb = pairs[k + 1]! >>> GENERATION_BITS;
      near[fill[sa]!++] = sb;
      near[fill[sb]!++] = sa;
    }
    // each list ascending (slot order, as queries answer): insertion sort, the lists are short
    for (let slot = 0; slot < slots; slot++) {
      for (let i = start[slot]! + 1, end = start[slot + 1]!; i < end; i++) {
        const v = near[i]!;
        let j = i - 1;
        while (j >= start[slot]! && near[j]! > v) {
          near[j + 1] = near[j]!;
          j--;
        }
        near[j + 1] = v;
      }
    }
    this.#nearStart = start;
    this.#near = near;
    this.#nearBuilt = true;
  }

  /**
   * True if some item's box overlaps `bbox` (as `search(bbox).length > 0`, without making the list).
   * @throws SweepPruneError as `search`
   */
  collides(bbox: BBox): boolean {
    this.#check('collides');
    const q = readQuery('collides', this.#box, bbox);
    const minX = q[0]!;
    const minY = q[1]!;
    const maxX = q[2]!;
    const maxY = q[3]!;
    const exact = this.#exact;
    if (this.#large('collides', minX, minY, maxX, maxY)) {
      const items = this.#items;
      for (let slot = 0; slot < items.length; slot++) {
        const o = 4 * slot;
        if (exact[o]! <= maxX && exact[o + 1]! <= maxY && exact[o + 2]! >= minX && exact[o + 3]! >= minY) {
          if (items[slot] !== undefined) return true;
        }
      }
      return false;
    }
    const slots = this.#candidates('collides', minX, minY, maxX, maxY);
    for (let k = 0; k < slots.length; k++) {
      const o = 4 * slots[k]!;
      if (exact[o]! <= maxX && exact[o + 1]! <= maxY && exact[o + 2]! >= minX && exact[o + 3]! >= minY) return true;
    }
    return false;
  }

  /** Every item, in slot order (an item inserted twice is listed twice). A new array. */
  all(): T[] {
    this.#check('all');
    const out: T[] = [];
    const items = this.#items;
    for (let slot = 0; slot < items.length; slot++) {
      const item = items[slot];
      if (item !== undefined) out.push(item);
    }
    return out;
  }

  /**
   * Every pair of items whose boxes overlap (closed, float64), each once as `[a, b]` with `a` before `b` in slot
   * order, the pairs in the engine's order (deterministic, not sorted). An item inserted twice pairs with itself.
   * @throws SweepPruneError `OutOfMemory`, `Disposed`
   */
  pairs(): [T, T][] {
    this.#check('pairs');
    this.#refresh('pairs');
    const pairs = this.#world.pairs;
    const items = this.#items;
    const exact = this.#exact;
    const out: [T, T][] = [];
    for (let k = 0; k < pairs.length; k += 2) {
      const sa = pairs[k]! >>> GENERATION_BITS;
      const sb = pairs[k + 1]! >>> GENERATION_BITS;
      const a = 4 * sa;
      const b = 4 * sb;
      if (
        exact[a]! <= exact[b + 2]! &&
        exact[b]! <= exact[a + 2]! &&
        exact[a + 1]! <= exact[b + 3]! &&
        exact[b + 1]! <= exact[a + 3]!
      ) {
        out.push(sa < sb ? [items[sa]!, items[sb]!] : [items[sb]!, items[sa]!]);
      }
    }
    return out;
  }

  #changes(what: 'began' | 'ended'): [T, T][] {
    this.#check(what);
    if (!this.#events) {
      throw new SweepPruneError(
        'InvalidArgument',
        `${what}: this RBush keeps no events; create it with new RBush(maxEntries, { events: true })`,
      );
    }
    this.#refresh(what);
    const out: [T, T][] = [];
    const visit = (_a: BoxId, _b: BoxId, dataA: T | undefined, dataB: T | undefined) => out.push([dataA!, dataB!]);
    if (what === 'began') this.#world.forEachBegan(visit);
    else this.#world.forEachEnded(visit);
    return out;
  }

  /**
   * With `{ events: true }`: the pairs that began overlapping at the last refresh of the index (the first query
   * after changes refreshes it; this call does too), as `[a, b]`, sorted by slot. Decided on the float32 boxes
   * rounded outward. @throws SweepPruneError `InvalidArgument` without `events`, `Disposed`
   */
  began(): [T, T][] {
    return this.#changes('began');
  }

  /** As `began()`, the pairs that stopped overlapping, including those of removed items. */
  ended(): [T, T][] {
    return this.#changes('ended');
  }

  /**
   * One rbush leaf node holding every item in slot order, with their extent (`Infinity`/`-Infinity` when empty):
   * rbush's node shape, so `fromJSON` of rbush (or of this class) takes it. There is no tree inside.
   */
  toJSON(): RBushNode<T> {
    this.#check('toJSON');
    const children = this.all();
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    const exact = this.#exact;
    const items = this.#items;
    for (let slot = 0; slot < items.length; slot++) {
      if (items[slot] === undefined) continue;
      const o = 4 * slot;
      minX = Math.min(minX, exact[o]!);
      minY = Math.min(minY, exact[o + 1]!);
      maxX = Math.max(maxX, exact[o + 2]!);
      maxY = Math.max(maxY, exact[o + 3]!);
    }
    return { children, height: 1, leaf: true, minX, minY, maxX, maxY };
  }

  /**
   * Replace every item by the items of a node tree: rbush's `toJSON()` (any height) or this class's. Boxes are read
   * with `toBBox`, as `load` reads them; a bad one throws and nothing changes.
   * @throws SweepPruneError `InvalidArgument` (not a node with `children`), the errors of `load`, `Disposed`
   */
  fromJSON(data: RBushNode<unknown>): this {
    this.#check('fromJSON');
    const items: T[] = [];
    const walk = (node: unknown, path: string): void => {
      if (node === null || typeof node !== 'object' || !Array.isArray((node as RBushNode<unknown>).children)) {
        throw new SweepPruneError(
          'InvalidArgument',
          `fromJSON: ${path} must be a node { children: [...], leaf, height }, got ${preview(node)}. Nothing changed`,
        );
      }
      const n = node as RBushNode<unknown>;
      if (n.leaf) for (const child of n.children) items.push(child as T);
      else n.children.forEach((child, i) => walk(child, `${path}.children[${i}]`));
    };
    walk(data, 'data');
    // checked before the old items go: a bad box leaves this tree as it was
    for (let i = 0; i < items.length; i++) this.#read(`fromJSON: item ${i}`, items[i]!);
    return this.clear().load(items);
  }

  /** rbush's root node, as `toJSON()` gives it; assigning one is `fromJSON`. */
  get data(): RBushNode<T> {
    return this.toJSON();
  }

  set data(node: RBushNode<T>) {
    this.fromJSON(node);
  }

  /** True after `dispose()`. */
  get disposed(): boolean {
    return this.#disposed;
  }

  /** Free the wasm memory now instead of at garbage collection. Idempotent; any later call throws `Disposed`. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    finalizer?.unregister(this);
    this.#world.dispose();
    this.#items = [];
    this.#ids = [];
    this.#entry.clear();
    this.#extra.clear();
    this.#freed = [];
    this.#pending = [];
    this.#exact = new Float64Array(0);
    this.#bounds = undefined;
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}

// rbush's closed test of the float64 boxes at offsets a and b.
function overlaps(exact: Float64Array, a: number, b: number): boolean {
  return (
    exact[a]! <= exact[b + 2]! &&
    exact[b]! <= exact[a + 2]! &&
    exact[a + 1]! <= exact[b + 3]! &&
    exact[b + 1]! <= exact[a + 3]!
  );
}

const FIELDS = ['minX', 'minY', 'maxX', 'maxY'] as const;

// A box's four numbers into out, checked: numbers, not NaN (±Infinity is unbounded), min <= max on each axis.
function readBox(what: string, out: Float64Array, b: BBox, item: unknown): Float64Array {
  readQuery(what, out, b, item);
  for (let a = 0; a < 2; a++) {
    if (!(out[a]! <= out[a + 2]!)) {
      throw new SweepPruneError(
        'InvertedBounds',
        `${what}: toBBox(${preview(item)}).${FIELDS[a]} (${out[a]}) must be <= ${FIELDS[a + 2]} (${out[a + 2]}). Nothing changed`,
      );
    }
  }
  return out;
}

// A query box's four numbers into out: numbers, not NaN. An inverted query is allowed, as rbush answers it. `item`:
// the item whose toBBox gave the box, if any (named by the error).
function readQuery(what: string, out: Float64Array, b: BBox, item?: unknown): Float64Array {
  const name = (): string => (item === undefined ? 'bbox' : `toBBox(${preview(item)})`);
  if (b === null || typeof b !== 'object') {
    throw new SweepPruneError(
      'InvalidBounds',
      `${what}: ${name()} must be { minX, minY, maxX, maxY }, got ${preview(b)}`,
    );
  }
  const minX = b.minX;
  const minY = b.minY;
  const maxX = b.maxX;
  const maxY = b.maxY;
  if (
    typeof minX !== 'number' ||
    typeof minY !== 'number' ||
    typeof maxX !== 'number' ||
    typeof maxY !== 'number' ||
    minX !== minX ||
    minY !== minY ||
    maxX !== maxX ||
    maxY !== maxY
  ) {
    const bad = FIELDS.find((f) => typeof b[f] !== 'number' || Number.isNaN(b[f]))!;
    throw new SweepPruneError(
      'InvalidBounds',
      `${what}: ${name()}.${bad} is ${preview(b[bad])}; a box is four numbers minX, minY, maxX, maxY (NaN is rejected, ±Infinity is unbounded)`,
    );
  }
  out[0] = minX;
  out[1] = minY;
  out[2] = maxX;
  out[3] = maxY;
  return out;
}

/** A `World` error as the RBush call that met it. */
function restate(error: unknown, what: string): unknown {
  if (!(error instanceof SweepPruneError)) return error;
  switch (error.code) {
    case 'NotInitialized':
      return notInitialized(what, 'rbush');
    case 'OutOfMemory':
      return new SweepPruneError(
        'OutOfMemory',
        `${what}: out of wasm memory (the module's limit is 2 GB); remove items or dispose() RBush instances you no longer use`,
      );
    case 'CapacityExceeded':
      return new SweepPruneError(
        'CapacityExceeded',
        `${what}: an RBush holds at most 4194304 items; remove some first`,
      );
    case 'TooManyWorlds':
      return new SweepPruneError(
        'TooManyWorlds',
        `${what}: every world slot is in use or retired; dispose() the RBush instances you no longer use`,
      );
    default:
      return error;
  }
}
