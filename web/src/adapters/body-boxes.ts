// SPDX-License-Identifier: MIT
// What the physics-engine broadphases share: one box per body in a sweep-prune World, kept in step with the body's
// own bounding box (rounded outward to float32), its static-or-sleeping state and its collision filter.
import { SweepPruneError } from '../errors.js';
import { isInitialized } from '../loader.js';
import { World, slotOf, type BoxId } from '../world.js';
import { float32Down, float32Up } from './outward.js';

/** How an engine's body is read at every sync. */
export interface BodyReader<B> {
  /** Fill `out` with the body's mins (`out[0..d)`) then maxes (`out[d..2d)`), in float64. NaN parks the body. */
  bounds(body: B, out: Float64Array): void;
  /** A static box in the World: never paired with another static box (the engine's static or sleeping bodies). */
  isStatic(body: B): boolean;
  /** The box's filter: A and B pair only if `A.category & B.mask` and `B.category & A.mask` are non-zero. */
  category(body: B): number;
  mask(body: B): number;
}

const finalizer =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry<World>((world) => world.dispose()) : undefined;

/** Throws `NotInitialized` naming the adapter's constructor when `init()` has not resolved. */
export function requireInit(what: string): void {
  if (!isInitialized()) {
    throw new SweepPruneError(
      'NotInitialized',
      `${what}: sweep-prune is not initialised; \`await init()\` (import { init } from 'sweep-prune') once before creating the broadphase`,
    );
  }
}

/**
 * The bodies of one physics world as boxes. Bodies are tracked from `add` on; their box is created at the next
 * `sync`, when their bounds are read (a body may get its shapes after it was added). A body whose bounds are NaN or
 * inverted has no box until they are valid again (it pairs with nothing and no query finds it).
 */
export class BodyBoxes<B extends object> {
  readonly dimensions: number;
  readonly #world: World<B>;
  readonly #index = new Map<B, number>(); // body -> dense index
  #bodies: B[] = [];
  #ids: BoxId[] = []; // 0: no box (not synced yet, or parked)
  #shadow: number[] = []; // the float64 bounds last stored, 2 * dimensions per dense index
  #statics: number[] = []; // -1 unknown, 0 moving, 1 static
  #categories: number[] = [];
  #masks: number[] = [];
  /** The body of each box slot (`slotOf(id)`). */
  readonly bySlot: (B | undefined)[] = [];
  readonly #tmp: Float64Array;
  readonly #min: number[];
  readonly #max: number[];
  #changed = true;

  constructor(owner: object, dimensions: number) {
    this.dimensions = dimensions;
    this.#world = new World<B>({ dimensions });
    this.#tmp = new Float64Array(2 * dimensions);
    this.#min = new Array<number>(dimensions).fill(0);
    this.#max = new Array<number>(dimensions).fill(0);
    finalizer?.register(owner, this.#world, this);
  }

  get disposed(): boolean {
    return this.#world.disposed;
  }

  get size(): number {
    return this.#bodies.length;
  }

  has(body: B): boolean {
    return this.#index.has(body);
  }

  add(body: B): void {
    if (this.#index.has(body)) return;
    this.#index.set(body, this.#bodies.length);
    this.#bodies.push(body);
    this.#ids.push(0);
    this.#statics.push(-1);
    this.#categories.push(0);
    this.#masks.push(0);
    for (let k = 0; k < 2 * this.dimensions; k++) this.#shadow.push(NaN);
  }

  remove(body: B): void {
    const i = this.#index.get(body);
    if (i === undefined) return;
    const id = this.#ids[i]!;
    if (id !== 0) {
      this.#world.removeBox(id);
      this.bySlot[slotOf(id)] = undefined;
      this.#changed = true;
    }
    // move the last body into the hole
    const last = this.#bodies.length - 1;
    const s = 2 * this.dimensions;
    if (i !== last) {
      const moved = this.#bodies[last]!;
      this.#bodies[i] = moved;
      this.#index.set(moved, i);
      this.#ids[i] = this.#ids[last]!;
      this.#statics[i] = this.#statics[last]!;
      this.#categories[i] = this.#categories[last]!;
      this.#masks[i] = this.#masks[last]!;
      for (let k = 0; k < s; k++) this.#shadow[i * s + k] = this.#shadow[last * s + k]!;
    }
    this.#index.delete(body);
    this.#bodies.pop();
    this.#ids.pop();
    this.#statics.pop();
    this.#categories.pop();
    this.#masks.pop();
    this.#shadow.length = last * s;
  }

  /** Track exactly `bodies` (after a change the engine announced with no event). */
  reconcile(bodies: readonly B[]): void {
    const keep = new Set(bodies);
    for (const b of this.#bodies.slice()) if (!keep.has(b)) this.remove(b);
    for (const b of bodies) this.add(b);
  }

  clear(): void {
    for (const b of this.#bodies.slice()) this.remove(b);
  }

  #round(tmp: Float64Array): void {
    const d = this.dimensions;
    for (let a = 0; a < d; a++) {
      this.#min[a] = float32Down(tmp[a]!);
      this.#max[a] = float32Up(tmp[d + a]!);
    }
  }

  /**
   * Read every tracked body and bring the World up to date: bounds that changed since the last sync are written
   * (rounded outward), boxes created or parked, static flags and filters switched. Calls `update()` only when
   * something changed, so `pairs` stay valid across syncs that find nothing new.
   */
  sync(reader: BodyReader<B>): void {
    const world = this.#world;
    const d = this.dimensions;
    const s = 2 * d;
    const tmp = this.#tmp;
    const bodies = this.#bodies;
    const ids = this.#ids;
    const shadow = this.#shadow;
    let bounds = world.bounds;
    let changed = this.#changed;
    for (let i = 0, n = bodies.length; i < n; i++) {
      const body = bodies[i]!;
      reader.bounds(body, tmp);
      let id = ids[i]!;
      let valid = true;
      for (let a = 0; a < d; a++) if (!(tmp[a]! <= tmp[d + a]!)) valid = false; // NaN fails too
      if (!valid) {
        if (id !== 0) {
          world.removeBox(id);
          this.bySlot[slotOf(id)] = undefined;
          ids[i] = 0;
          changed = true;
        }
        continue;
      }
      const o = i * s;
      if (id === 0) {
        this.#round(tmp);
        id = world.addBox(this.#min, this.#max, body);
        ids[i] = id;
        this.bySlot[slotOf(id)] = body;
        this.#statics[i] = -1;
        this.#categories[i] = 1;
        this.#masks[i] = 0xffffffff;
        for (let k = 0; k < s; k++) shadow[o + k] = tmp[k]!;
        bounds = world.bounds; // addBox may have grown wasm memory
        changed = true;
      } else {
        let moved = false;
        for (let k = 0; k < s; k++) {
          if (shadow[o + k] !== tmp[k]) {
            moved = true;
            break;
          }
        }
        if (moved) {
          const at = world.offsetOf(id);
          for (let a = 0; a < d; a++) {
            bounds[at + a] = float32Down(tmp[a]!);
            bounds[at + d + a] = float32Up(tmp[d + a]!);
          }
          for (let k = 0; k < s; k++) shadow[o + k] = tmp[k]!;
          changed = true;
        }
      }
      const isStatic = reader.isStatic(body) ? 1 : 0;
      if (isStatic !== this.#statics[i]) {
        world.setBoxStatic(id, isStatic === 1);
        this.#statics[i] = isStatic;
        changed = true;
      }
      const category = reader.category(body) >>> 0;
      const mask = reader.mask(body) >>> 0;
      if (category !== this.#categories[i] || mask !== this.#masks[i]) {
        world.setBoxFilter(id, category, mask);
        this.#categories[i] = category;
        this.#masks[i] = mask;
        changed = true;
      }
    }
    if (changed) world.update();
    this.#changed = false;
  }

  /** Overlapping box pairs of the last sync (ids; `bySlot[slotOf(id)]` is the body). Valid until the next sync. */
  get pairs(): Uint32Array {
    return this.#world.pairs;
  }

  /**
   * Box ids whose boxes overlap the float64 box `tmp` (mins then maxes) rounded outward: every body whose stored
   * box overlaps it, as of the last sync. Valid until the next query or sync.
   */
  query(tmp: Float64Array): Uint32Array {
    this.#round(tmp);
    return this.#world.queryBox(this.#min, this.#max);
  }

  /** The World's work counters for the last update (diagnostics). */
  get counters(): World['counters'] {
    return this.#world.counters;
  }

  dispose(): void {
    finalizer?.unregister(this);
    this.#world.dispose();
    this.#index.clear();
    this.#bodies = [];
    this.#ids = [];
    this.#shadow = [];
  }
}
