// SPDX-License-Identifier: MIT
// A physics broadphase's link to the world it serves: which world, its bodies followed through the world's
// addBody/removeBody events, and the BodyBoxes brought up to date before each answer.
import { SweepPruneError } from '../../errors.js';
import { slotOf } from '../../world.js';
import { BodyBoxes, type BodyReader } from './body-boxes.js';

/** What differs between engines. */
export interface Engine<W, B> {
  /** Class name in messages, e.g. `SweepPruneBroadphase` */
  readonly name: string;
  /** What a user passes to attach, e.g. `a p2-es World` */
  readonly worldName: string;
  bodies(world: W): readonly B[];
  listen(world: W, onAdd: (e: { body: B }) => void, onRemove: (e: { body: B }) => void, on: boolean): void;
  readonly reader: BodyReader<B>;
}

export class Attachment<W extends object, B extends object> {
  readonly #engine: Engine<W, B>;
  readonly #boxes: BodyBoxes<B>;
  #world: W | undefined;
  readonly #tmp: Float64Array;
  readonly #onAdd = (e: { body: B }): void => this.#boxes.add(e.body);
  readonly #onRemove = (e: { body: B }): void => this.#boxes.remove(e.body);

  constructor(owner: object, dimensions: number, engine: Engine<W, B>) {
    this.#engine = engine;
    this.#boxes = new BodyBoxes<B>(owner, dimensions);
    this.#tmp = new Float64Array(2 * dimensions);
  }

  get disposed(): boolean {
    return this.#boxes.disposed;
  }

  #live(what: string): BodyBoxes<B> {
    if (this.#boxes.disposed) {
      const name = this.#engine.name;
      throw new SweepPruneError('Disposed', `${name}.${what}: this broadphase was disposed; create a new ${name}`);
    }
    return this.#boxes;
  }

  /** Follow `world`'s bodies from now on (and no other world's). */
  attach(world: W): void {
    const boxes = this.#live('setWorld');
    if (world == null || !Array.isArray(this.#engine.bodies(world))) {
      throw new SweepPruneError(
        'InvalidArgument',
        `${this.#engine.name}.setWorld: world must be ${this.#engine.worldName}, got ${String(world)}`,
      );
    }
    this.#detach();
    boxes.reconcile(this.#engine.bodies(world));
    this.#engine.listen(world, this.#onAdd, this.#onRemove, true);
    this.#world = world;
  }

  #detach(): void {
    if (this.#world !== undefined) this.#engine.listen(this.#world, this.#onAdd, this.#onRemove, false);
    this.#world = undefined;
    this.#boxes.clear();
  }

  /**
   * The boxes, in step with `world`'s bodies (attaching to it first if it is not the attached one: a broadphase
   * assigned to a world's property directly). `world` may be omitted once attached.
   */
  sync(world: W | null | undefined, what: string): BodyBoxes<B> {
    const boxes = this.#live(what);
    if (world != null && world !== this.#world) this.attach(world);
    const attached = this.#world;
    if (attached === undefined) {
      throw new SweepPruneError(
        'InvalidArgument',
        `${this.#engine.name}.${what}: no world to search; pass the world, or attach with setWorld(world)`,
      );
    }
    const bodies = this.#engine.bodies(attached);
    if (boxes.size !== bodies.length) boxes.reconcile(bodies); // bodies changed with no event
    boxes.sync(this.#engine.reader);
    return boxes;
  }

  /**
   * Check a query box (mins then maxes in `tmp`) before anything is read or changed. False for a box with a NaN
   * coordinate, which the engine's own `AABB.overlaps` answers (a raycast from a body gone NaN finds nothing): a
   * harmless NaN must not become a throw inside the game loop.
   */
  private checkQuery(tmp: Float64Array, what: string): boolean {
    if (tmp.some(Number.isNaN)) return false;
    const d = tmp.length >> 1;
    for (let a = 0; a < d; a++) {
      const lo = tmp[a]!;
      const hi = tmp[d + a]!;
      if (lo > hi) {
        throw new SweepPruneError(
          'InvertedBounds',
          `${this.#engine.name}.${what}: aabb lowerBound (${lo}) is above upperBound (${hi}) on axis ${a}`,
        );
      }
    }
    return true;
  }

  /**
   * Append to `result` the bodies whose stored box overlaps `aabb` (read into mins then maxes by `read`, and
   * checked) and that pass `keep` (the engine's own float64 test), after a sync; returns `result`.
   */
  query<A extends { lowerBound: unknown; upperBound: unknown }>(
    world: W | null | undefined,
    aabb: A | null | undefined,
    read: (aabb: A, out: Float64Array) => void,
    keep: (body: B, aabb: A) => boolean,
    result: B[],
  ): B[] {
    if (aabb == null || aabb.lowerBound == null || aabb.upperBound == null) {
      throw new SweepPruneError(
        'InvalidArgument',
        `${this.#engine.name}.aabbQuery: aabb must be an AABB of ${this.#engine.worldName}'s engine, got ${String(aabb)}`,
      );
    }
    const tmp = this.#tmp;
    read(aabb, tmp);
    const valid = this.checkQuery(tmp, 'aabbQuery');
    const boxes = this.sync(world, 'aabbQuery');
    if (!valid) {
      // the engine's own test on every body, as its NaiveBroadphase does (its answer with NaN is not "none" alone)
      for (const b of this.#engine.bodies(this.#world!)) if (keep(b, aabb)) result.push(b);
      return result;
    }
    const ids = boxes.query(tmp);
    const bySlot = boxes.bySlot;
    for (let i = 0; i < ids.length; i++) {
      const b = bySlot[slotOf(ids[i]!)]!;
      if (keep(b, aabb)) result.push(b);
    }
    return result;
  }

  /** Stop following the world and free the wasm memory. Idempotent. */
  dispose(): void {
    if (this.#boxes.disposed) return;
    this.#detach();
    this.#boxes.dispose();
  }
}
