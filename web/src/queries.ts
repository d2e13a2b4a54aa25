// SPDX-License-Identifier: MIT
// A world's queries: boxes, points, rays, nearest and radius, answered from the engine's index of the last update.
// The World hands each of its query methods here; this module checks the arguments, calls the engine, and copies
// or visits the results.
import { SweepPruneError } from './errors.js';
import { checkCallback, checkDistance, checkMask, checkNumberArray, describeBad } from './checks.js';
import { check, outputs, writeBox } from './engine-call.js';
import { checkOptions } from './options.js';
import { isFloat32 } from './float32.js';
import { type BoxId, type RawExports, SCRATCH_MAX, SCRATCH_MIN, SCRATCH_OUT } from './raw.js';

/**
 * Boxes with their distances, nearest first (ties by id): the answer of `nearest`, `queryRadius` and `castRay`.
 * Arrays owned by the caller (copies), safe to keep.
 */
export interface DistanceHits {
  ids: Uint32Array;
  distances: Float32Array;
}

/** One box and its distance: a ray's first hit or blocker. */
export interface RayHit {
  id: BoxId;
  distance: number;
}

/**
 * Hits of `castRay`: box ids ordered by distance (ties by id), and the distance to where the ray enters each.
 * Arrays owned by the caller (copies), safe to keep.
 */
export interface RayHits extends DistanceHits {
  /** With `blockMask`: the box that stopped the ray (not among the hits); undefined when none did. */
  blocker?: RayHit;
}

/** Options of `castRay`, `firstHit` and `forEachOnRay`. Every field is optional. */
export interface RayOptions {
  /** Length of the ray, >= 0. Default Infinity. */
  maxDistance?: number;
  /** Hits are boxes whose category shares a bit with `mask`. Default 0xFFFFFFFF: every box. */
  mask?: number;
  /**
   * The ray stops at the first box whose category shares a bit with `blockMask` (walls for a line of sight). That
   * box is returned as `blocker`, not as a hit; the hits are the boxes before it. Default 0: nothing blocks.
   */
  blockMask?: number;
  /** A box the ray passes through unseen, neither hit nor blocker (the shooter's own box). Default: none. */
  ignore?: BoxId;
  /** At most this many hits, the nearest; the search stops there, so few hits on a long ray cost little. Default: all. */
  maxHits?: number;
}

/**
 * What the query callbacks receive, once per box, with no allocation per box: its id, the data given to `addBox`
 * (or `setData`), and its distance (`forEachInBox`: 0). Return `false` to stop the loop.
 */
export type QueryCallback<T> = (id: BoxId, data: T | undefined, distance: number) => void | boolean;

const RAY_OPTIONS: readonly (keyof RayOptions)[] = ['maxDistance', 'mask', 'blockMask', 'ignore', 'maxHits'];

/** The queries of one world. `engine(what)` returns the module, or throws `Disposed` naming `what`. */
export class Queries<T> {
  readonly #engine: (what: string) => RawExports;
  readonly #world: number;
  readonly #scratch: number;
  readonly #dimensions: number;
  readonly #dataFor: (id: BoxId) => T | undefined;
  #visiting = 0; // query callbacks running
  #visitIds = new Uint32Array(64); // the results a query callback loop walks
  #visitDistances = new Float32Array(64);

  constructor(
    engine: (what: string) => RawExports,
    world: number,
    scratch: number,
    dimensions: number,
    dataFor: (id: BoxId) => T | undefined,
  ) {
    this.#engine = engine;
    this.#world = world;
    this.#scratch = scratch;
    this.#dimensions = dimensions;
    this.#dataFor = dataFor;
  }

  // out[0] ids, out[1] distances, out[2] count, out[3] a ray's blocker
  #result(raw: RawExports): [number, number, number, number] {
    const out = outputs(raw, this.#scratch, 4);
    return [out[0]!, out[1]!, out[2]!, out[3]!];
  }

  /** `World.queryBox` and `World.queryPoint`; errors name `what`, the method the caller used. */
  box(what: string, min: ArrayLike<number>, max: ArrayLike<number>, mask: number): Uint32Array {
    const raw = this.#engine(what);
    const bits = checkMask(what, 'mask', mask);
    writeBox(raw, this.#scratch, this.#dimensions, what, min, max);
    check(raw, raw.sp_query_box(this.#world, bits), what);
    const [ptr, , count] = this.#result(raw);
    return new Uint32Array(raw.memory.buffer, ptr, count).slice();
  }

  forEachInBox(min: ArrayLike<number>, max: ArrayLike<number>, fn: QueryCallback<T>, mask: number): void {
    checkCallback('forEachInBox', fn);
    const raw = this.#engine('forEachInBox');
    const bits = checkMask('forEachInBox', 'mask', mask);
    writeBox(raw, this.#scratch, this.#dimensions, 'forEachInBox', min, max);
    check(raw, raw.sp_query_box(this.#world, bits), 'forEachInBox');
    this.#visit(raw, fn, false);
  }

  castRay(origin: ArrayLike<number>, direction: ArrayLike<number>, options: RayOptions): RayHits {
    const raw = this.#ray('castRay', origin, direction, options);
    const [ids, distances, count, blocker] = this.#result(raw);
    const buffer = raw.memory.buffer;
    const hits: RayHits = {
      ids: new Uint32Array(buffer, ids, count).slice(),
      distances: new Float32Array(buffer, distances, count).slice(),
    };
    if (blocker !== 0) hits.blocker = { id: blocker, distance: this.#blockerDistance(raw) };
    return hits;
  }

  firstHit(origin: ArrayLike<number>, direction: ArrayLike<number>, options: RayOptions): RayHit | undefined {
    const raw = this.#ray('firstHit', origin, direction, options, 1);
    const [ids, distances, count, blocker] = this.#result(raw);
    if (count > 0) {
      const buffer = raw.memory.buffer;
      return { id: new Uint32Array(buffer, ids, 1)[0]!, distance: new Float32Array(buffer, distances, 1)[0]! };
    }
    return blocker !== 0 ? { id: blocker, distance: this.#blockerDistance(raw) } : undefined;
  }

  forEachOnRay(
    origin: ArrayLike<number>,
    direction: ArrayLike<number>,
    fn: QueryCallback<T>,
    options: RayOptions,
  ): BoxId | undefined {
    checkCallback('forEachOnRay', fn);
    const raw = this.#ray('forEachOnRay', origin, direction, options);
    const blocker = this.#result(raw)[3];
    this.#visit(raw, fn, true);
    return blocker !== 0 ? blocker : undefined;
  }

  #blockerDistance(raw: RawExports): number {
    return new Float32Array(raw.memory.buffer, this.#scratch + SCRATCH_OUT + 16, 1)[0]!;
  }

  // Validate a ray and its options, cast it; the result is in the scratch outputs.
  #ray(
    what: string,
    origin: ArrayLike<number>,
    direction: ArrayLike<number>,
    options: RayOptions,
    hitLimit?: number,
  ): RawExports {
    const raw = this.#engine(what);
    if (options === null || typeof options !== 'object') {
      throw new SweepPruneError(
        'InvalidArgument',
        `${what}: options must be an object like { maxHits: 1 }, got ${options}`,
      );
    }
    checkOptions(what, options, RAY_OPTIONS);
    const d = this.#dimensions;
    checkNumberArray(what, 'origin', origin, d);
    checkNumberArray(what, 'direction', direction, d);
    const f = new Float32Array(raw.memory.buffer, this.#scratch, 8);
    let len = 0;
    for (let a = 0; a < d; a++) {
      const o = origin[a]!;
      const v = direction[a]!;
      for (const [name, x] of [
        ['origin', o],
        ['direction', v],
      ] as const) {
        if (!isFloat32(x)) {
          throw new SweepPruneError(
            'InvalidBounds',
            `${what}: ${name}[${a}] ${describeBad(x)}; give numbers within the float32 range`,
          );
        }
      }
      len += v * v;
      f[SCRATCH_MIN / 4 + a] = o;
      f[SCRATCH_MAX / 4 + a] = v;
    }
    if (!(len > 0)) throw new SweepPruneError('InvalidBounds', `${what}: direction must not be the zero vector`);
    const maxDistance = checkDistance(
      what,
      'maxDistance',
      options.maxDistance ?? Infinity,
      'Infinity for an unbounded ray',
    );
    // undefined takes the default, as a parameter left out does; null is not a mask
    const mask = checkMask(what, 'mask', options.mask === undefined ? 0xffffffff : options.mask);
    const blockMask = checkMask(what, 'blockMask', options.blockMask === undefined ? 0 : options.blockMask);
    const ignore = options.ignore ?? 0;
    if (!Number.isInteger(ignore) || ignore < 0 || ignore > 0xffffffff) {
      throw new SweepPruneError('InvalidArgument', `${what}: ignore must be a box id (or 0 for none), got ${ignore}`);
    }
    const maxHits = hitLimit ?? options.maxHits ?? 0;
    if (!Number.isInteger(maxHits) || maxHits < 0) {
      throw new SweepPruneError(
        'InvalidArgument',
        `${what}: maxHits must be an integer >= 0 (0 for every hit), got ${maxHits}`,
      );
    }
    const r = raw.sp_cast_ray(this.#world, maxDistance, mask, blockMask, ignore, Math.min(maxHits, 0x7fffffff));
    check(raw, r, what);
    return raw;
  }

  /** `World.nearest` and `World.queryRadius` (k undefined); errors name `what`. */
  nearest(what: string, point: ArrayLike<number>, k: number | undefined, distance: number, mask: number): DistanceHits {
    return this.#copyHits(this.#nearest(what, point, k, distance, mask));
  }

  /** `World.forEachNearest` and `World.forEachInRadius` (k undefined); errors name `what`. */
  forEachNearest(
    what: string,
    point: ArrayLike<number>,
    k: number | undefined,
    distance: number,
    mask: number,
    fn: QueryCallback<T>,
  ): void {
    checkCallback(what, fn);
    this.#visit(this.#nearest(what, point, k, distance, mask), fn, true);
  }

  // k undefined: every box within `distance` (queryRadius). The result is in the scratch outputs.
  #nearest(what: string, point: ArrayLike<number>, k: number | undefined, distance: number, mask: number): RawExports {
    const raw = this.#engine(what);
    const d = this.#dimensions;
    checkNumberArray(what, 'point', point, d);
    const f = new Float32Array(raw.memory.buffer, this.#scratch, 8);
    for (let a = 0; a < d; a++) {
      const v = point[a]!;
      if (!isFloat32(v)) {
        throw new SweepPruneError(
          'InvalidBounds',
          `${what}: point[${a}] ${describeBad(v)}; give numbers within the float32 range`,
        );
      }
      f[SCRATCH_MIN / 4 + a] = v;
    }
    if (k !== undefined && (!Number.isInteger(k) || k < 0)) {
      throw new SweepPruneError(
        'InvalidArgument',
        `${what}: k must be an integer >= 0 (the number of boxes wanted), got ${k}`,
      );
    }
    const limit = checkDistance(what, k === undefined ? 'radius' : 'maxDistance', distance, 'Infinity for no limit');
    const r = raw.sp_nearest(
      this.#world,
      k === undefined ? -1 : Math.min(k, 0x7fffffff),
      limit,
      checkMask(what, 'mask', mask),
    );
    check(raw, r, what);
    return raw;
  }

  #copyHits(raw: RawExports): DistanceHits {
    const [ids, distances, count] = this.#result(raw);
    const buffer = raw.memory.buffer;
    return {
      ids: new Uint32Array(buffer, ids, count).slice(),
      distances: new Float32Array(buffer, distances, count).slice(),
    };
  }

  // Call fn for each result of the last query. The results are first copied into arrays the world keeps (a nested
  // loop, from inside fn, gets its own), since fn may run queries, which replace the engine's result arrays.
  #visit(raw: RawExports, fn: QueryCallback<T>, withDistances: boolean): void {
    const [idsPtr, distancesPtr, count] = this.#result(raw);
    const nested = this.#visiting > 0;
    let ids = nested ? new Uint32Array(count) : this.#visitIds;
    let distances = nested ? new Float32Array(count) : this.#visitDistances;
    if (ids.length < count) ids = this.#visitIds = new Uint32Array(Math.max(count, 2 * ids.length));
    if (distances.length < count)
      distances = this.#visitDistances = new Float32Array(Math.max(count, 2 * distances.length));
    const buffer = raw.memory.buffer;
    ids.set(new Uint32Array(buffer, idsPtr, count));
    if (withDistances) distances.set(new Float32Array(buffer, distancesPtr, count));
    else distances.fill(0, 0, count);
    this.#visiting += 1;
    try {
      for (let i = 0; i < count; i++) {
        const id = ids[i]!;
        if (fn(id, this.#dataFor(id), distances[i]!) === false) break;
      }
    } finally {
      this.#visiting -= 1;
    }
  }
}
