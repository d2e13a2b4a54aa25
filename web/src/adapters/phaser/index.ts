// SPDX-License-Identifier: MIT
// sweep-prune/phaser: Arcade Physics (Phaser 3.60+ and 4) on a sweep-prune World. One call gives an Arcade world
// exactly the results of Phaser's own `useTree: false` mode (its colliders walk groups in their children's order),
// without that mode's walk of every pair: the world runs with `useTree: false` (no RTree rebuilt every step), and
// the loops that walk every pair (a body against a dynamic group, arrays against themselves or each other) call
// Phaser's `separate` only for the pairs the World finds near, in Phaser's order. Phaser's own code still decides
// every collision: `separate`, the process and collide callbacks, `checkCollision`, categories, world bounds,
// tilemaps, `overlapRect` and the static tree are Phaser's. Phaser is never imported: users who do not import this
// file pay nothing.
import { SweepPruneError } from '../../errors.js';
import type { World } from '../../world.js';
import { type ArcadeBody, ArcadeIndex } from './bodies.js';
import {
  WalkBudget,
  type Collidable,
  type PairLoop,
  type SpriteVsGroup,
  type SpriteVsSprite,
  type WorldCalls,
  bodyOf,
  collidePairs,
  collideSpriteVsGroup,
  walk,
} from './colliders.js';
import { GroupOrders } from './groups.js';
import { requireInit } from '../shared/init.js';

/**
 * The parts of an Arcade Physics `World` (`scene.physics.world`) this module reads; Phaser's own functions are
 * found on it at run time.
 */
export interface ArcadeWorldLike {
  useTree: boolean;
  staticTree: unknown;
  colliders: unknown;
  bodies: unknown;
  staticBodies: unknown;
  destroy(): void;
  on(event: string, fn: (...args: never[]) => void, context?: unknown): unknown;
  off(event: string, fn?: (...args: never[]) => void, context?: unknown): unknown;
}

type Fn = (...args: never[]) => unknown;

// the World's functions this module replaces (as own properties of the world object)
const REPLACED = [
  'collideObjects',
  'collideSpriteVsGroup',
  'collideSpriteVsSprite',
  'collideSpriteVsTilesHandler',
  'destroy',
] as const;
const ACTIVE = Symbol.for('sweep-prune/phaser.active');
const finalizer =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<ArcadeIndex>((index) => index.dispose())
    : undefined;

/**
 * What `collideObjects` walks as arrays of sprites, as Phaser turns its arguments into them: the rows, the columns
 * and whether it is one array against itself; undefined when a member takes another path in Phaser's
 * `collideHandler` (a group, a tilemap, a member without a body), or when neither argument is an array.
 */
function arrays(object1: unknown, object2: unknown): { rows: unknown[]; cols: unknown[]; self: boolean } | undefined {
  let a = object1 as Collidable | unknown[];
  let b = object2 as Collidable | unknown[] | null | undefined;
  const g = a as Collidable;
  if (g.isParent && (g.physicsType === undefined || b === undefined || a === b)) a = childrenOf(g);
  if (b && (b as Collidable).isParent && (b as Collidable).physicsType === undefined) b = childrenOf(b as Collidable);
  const aIsArray = Array.isArray(a);
  const bIsArray = Array.isArray(b);
  if (!aIsArray && !bIsArray) return undefined; // one collideHandler call: Phaser's own
  if (aIsArray && !b)
    return sprites(a as unknown[]) ? { rows: a as unknown[], cols: a as unknown[], self: true } : undefined;
  const rows = aIsArray ? (a as unknown[]) : [a];
  const cols = bIsArray ? (b as unknown[]) : [b];
  return sprites(rows) && sprites(cols) ? { rows, cols, self: false } : undefined;
}

function childrenOf(group: Collidable): unknown[] {
  return membersOf(group.children);
}

// a Set's members in order: Phaser 4's native Set, Phaser 3's own (its `entries`)
function membersOf(set: unknown): unknown[] {
  const s = set as { entries?: unknown } & Iterable<unknown>;
  return Array.isArray(s.entries) ? s.entries.slice() : Array.from(s);
}

// every member goes to collideSpriteVsSprite in Phaser's collideHandler, or to nothing (null, no body)
function sprites(members: readonly unknown[]): boolean {
  for (const m of members) {
    const c = m as Collidable | null | undefined;
    if (c && !(c.body || c.isBody) && (c.isParent || c.isTilemap)) return false;
  }
  return true;
}

/**
 * Arcade Physics on sweep-prune, for one Arcade `World`, from `usePhaserArcade(world)` until `stop()`.
 *
 * Owns wasm memory: `stop()` frees it (the world's `destroy()`, as when its scene shuts down, stops it too).
 */
export class ArcadeSweepPrune {
  #world: ArcadeWorldLike | undefined;
  readonly #index: ArcadeIndex;
  readonly #orders = new GroupOrders();
  readonly #budget: WalkBudget;
  readonly #useTree: boolean;
  readonly #saved = new Map<string, PropertyDescriptor | undefined>();
  #queueUpdate: PropertyDescriptor | undefined;
  #inStep = false; // from a step's colliders to the step's end
  readonly #onStep = (): void => {
    this.#index.dirty = true; // user code between steps may move bodies by hand
    this.#inStep = false;
  };

  /** Use `usePhaserArcade(world)`. */
  constructor(world: ArcadeWorldLike) {
    requireInit('usePhaserArcade', 'phaser');
    const w = world as unknown as Record<string | symbol, unknown> | null;
    const functions = ['collideObjects', 'collideSpriteVsGroup', 'collideSpriteVsSprite', 'separate', 'on', 'off'];
    if (
      w == null ||
      typeof w !== 'object' ||
      w.bodies == null ||
      w.staticBodies == null ||
      typeof (w.colliders as { update?: unknown } | null)?.update !== 'function' ||
      typeof (w.staticTree as { search?: unknown } | null)?.search !== 'function' ||
      functions.some((name) => typeof w[name] !== 'function')
    ) {
      throw new SweepPruneError(
        'InvalidArgument',
        'usePhaserArcade(world): world must be an Arcade Physics World of Phaser 3.60 or later (scene.physics.world)',
      );
    }
    if (w[ACTIVE]) {
      throw new SweepPruneError(
        'AlreadyRegistered',
        'usePhaserArcade(world): this world already runs on sweep-prune; call stop() on its handle first',
      );
    }
    this.#world = world;
    const bodies = world.bodies as Iterable<ArcadeBody> & { size?: number; entries?: ArcadeBody[] };
    // Phaser 4's world.bodies is a Set; Phaser 3's its own Set, with the members in `entries`
    const list = Array.isArray(bodies.entries) ? () => bodies.entries! : () => bodies;
    this.#index = new ArcadeIndex(list);
    this.#budget = new WalkBudget(this.#index, () => bodies.size ?? bodies.entries?.length ?? 0);
    this.#useTree = world.useTree;
    try {
      this.#install(world);
    } catch (error) {
      this.#orders.dispose();
      this.#index.dispose();
      throw error;
    }
    finalizer?.register(world, this.#index, this);
  }

  #install(world: ArcadeWorldLike): void {
    const index = this.#index;
    const orders = this.#orders;
    const budget = this.#budget;
    const w = world as unknown as Record<string | symbol, unknown>;
    const phaser = Object.fromEntries(REPLACED.map((name) => [name, w[name] as Fn]));
    const spriteVsSprite = phaser.collideSpriteVsSprite as unknown as SpriteVsSprite;
    const spriteVsGroup = phaser.collideSpriteVsGroup as unknown as SpriteVsGroup;
    const collideObjects = phaser.collideObjects as unknown as (this: WorldCalls, ...args: unknown[]) => boolean;
    const tilesHandler = phaser.collideSpriteVsTilesHandler as unknown as (
      this: unknown,
      ...args: unknown[]
    ) => boolean;
    const destroy = phaser.destroy as unknown as (this: unknown) => void;
    const stop = (): void => this.stop();
    const inStep = (): boolean => this.#inStep;
    const objects: PairLoop<Collidable | unknown[], unknown, boolean> = function (
      object1,
      object2,
      collide,
      process,
      context,
      overlapOnly,
    ) {
      // called by the scene's code rather than by a step's colliders: bodies may have been moved by hand since
      if (!inStep()) index.dirty = true;
      const loop = object1 == null ? undefined : arrays(object1, object2);
      // eslint-disable-next-line prefer-rest-params
      const args = arguments as unknown as unknown[];
      if (loop === undefined) return collideObjects.apply(this, args);
      const { rows, cols, self } = loop;
      const pairs = self ? (rows.length * (rows.length - 1)) / 2 : rows.length * cols.length;
      if (budget.walk(pairs)) return walk(this, () => collideObjects.apply(this, args));
      this._total = 0;
      collidePairs(index, sprites, this, rows, cols, self, collide, process, context, overlapOnly);
      return this._total > 0;
    };
    const group: SpriteVsGroup = function (sprite, group, collide, process, context, overlapOnly) {
      collideSpriteVsGroup(
        index,
        orders,
        budget,
        spriteVsGroup,
        this,
        sprite,
        group,
        collide,
        process,
        context,
        overlapOnly,
      );
    };
    // Phaser's own loops that move bodies: the moves are looked at afterwards (a body out of its fat box)
    const sprites: SpriteVsSprite = function (a, b, collide, process, context, overlapOnly) {
      const result = spriteVsSprite.call(this, a, b, collide, process, context, overlapOnly);
      const bodyA = bodyOf(a);
      const bodyB = bodyOf(b);
      if (bodyA) index.track(bodyA);
      if (bodyB) index.track(bodyB);
      return result;
    };
    const functions: Record<(typeof REPLACED)[number], unknown> = {
      collideObjects: objects,
      collideSpriteVsGroup: group,
      collideSpriteVsSprite: sprites,
      collideSpriteVsTilesHandler(this: WorldCalls, sprite: unknown, ...rest: never[]): unknown {
        const result = tilesHandler.call(this, sprite, ...rest);
        const body = bodyOf(sprite);
        if (body) index.track(body);
        return result;
      },
      destroy(this: WorldCalls): void {
        stop();
        destroy.call(this);
      },
    };
    for (const name of REPLACED) {
      this.#saved.set(name, Object.getOwnPropertyDescriptor(w, name));
      Object.defineProperty(w, name, { value: functions[name], writable: true, configurable: true });
    }
    // a step's colliders begin with the queue's update (Phaser 3.60 to 4, in World.update and World.step alike)
    const queue = world.colliders as Record<string, unknown>;
    const update = queue.update as (this: unknown) => unknown;
    this.#queueUpdate = Object.getOwnPropertyDescriptor(queue, 'update');
    const stepBegan = (): void => {
      index.dirty = true;
      this.#inStep = true;
      budget.stepBegan();
    };
    Object.defineProperty(queue, 'update', {
      value: function (this: unknown) {
        stepBegan();
        return update.call(this);
      },
      writable: true,
      configurable: true,
    });
    Object.defineProperty(w, ACTIVE, { value: this, configurable: true });
    world.useTree = false; // the mode whose results these are; Phaser then builds no tree
    world.on('worldstep', this.#onStep as Fn);
  }

  /**
   * The sweep-prune World holding one box per dynamic body (grown by a margin), synced when a step's loops ask
   * enough of it; for statistics such as `counters`. It has no `began` and `ended` lists.
   * @throws SweepPruneError `Disposed` after `stop()`
   */
  get world(): World {
    if (this.#world === undefined) throw new SweepPruneError('Disposed', 'world: this handle was stopped');
    return this.#index.world;
  }

  /** True after `stop()`. */
  get stopped(): boolean {
    return this.#world === undefined;
  }

  /**
   * Give the Arcade world back its `useTree` setting (Phaser rebuilds its tree at its next step when that is true)
   * and its own functions, and free the wasm memory. Idempotent.
   */
  stop(): void {
    const world = this.#world;
    if (world === undefined) return;
    this.#world = undefined;
    finalizer?.unregister(this);
    const w = world as unknown as Record<string | symbol, unknown>;
    world.off('worldstep', this.#onStep as Fn);
    for (const [name, descriptor] of this.#saved) {
      if (descriptor === undefined) delete w[name];
      else Object.defineProperty(w, name, descriptor);
    }
    const queue = world.colliders as Record<string, unknown>;
    if (this.#queueUpdate === undefined) delete queue.update;
    else Object.defineProperty(queue, 'update', this.#queueUpdate);
    delete w[ACTIVE];
    world.useTree = this.#useTree;
    this.#orders.dispose();
    this.#index.dispose();
  }

  [Symbol.dispose](): void {
    this.stop();
  }
}

/**
 * Run an Arcade Physics world (`scene.physics.world`, Phaser 3.60 or later) on sweep-prune, from its next step on:
 * the same callbacks, in the same order, with the same results as Phaser with `useTree: false`, at the speed of a
 * broadphase (docs/phaser.md). Returns the handle; `handle.stop()` gives the world back its own setting and
 * functions. `await init()` (from `sweep-prune`) first.
 * @throws SweepPruneError `NotInitialized`, `InvalidArgument` (not an Arcade world), `AlreadyRegistered`
 */
export function usePhaserArcade(world: ArcadeWorldLike): ArcadeSweepPrune {
  return new ArcadeSweepPrune(world);
}

export type { ArcadeBody } from './bodies.js';
export type { Body as ArcadeBodyFields } from './colliders.js';
