// SPDX-License-Identifier: MIT
// sweep-prune/p2: a p2-es broadphase on the wasm engine. `new World({ broadphase: new SweepPruneBroadphase() })`.
import { type AABB, Body, Broadphase, type World as P2World } from 'p2-es';
import { slotOf } from '../../world.js';
import { Attachment } from '../shared/attachment.js';
import { requireInit } from '../shared/init.js';
import { updateSimpleAABB } from './aabb.js';

const { STATIC, KINEMATIC, SLEEPING } = Body;

// Broadphase.canCollide as box filters: static and sleeping bodies are static boxes (static/static, sleeping/sleeping
// and sleeping/static never pair); the masks exclude kinematic/static and kinematic/kinematic.
const CATEGORY_STATIC = 1;
const CATEGORY_KINEMATIC = 2;
const CATEGORY_DYNAMIC = 4;
const MASK_STATIC = ~CATEGORY_KINEMATIC >>> 0;
const MASK_KINEMATIC = ~(CATEGORY_STATIC | CATEGORY_KINEMATIC) >>> 0;
const MASK_DYNAMIC = 0xffffffff;

/** `aabb` as mins then maxes. */
function readAABB(aabb: AABB, out: Float64Array): void {
  out[0] = aabb.lowerBound[0]!;
  out[1] = aabb.lowerBound[1]!;
  out[2] = aabb.upperBound[0]!;
  out[3] = aabb.upperBound[1]!;
}

/**
 * A p2-es `Broadphase` that finds the pairs of overlapping body AABBs with the sweep-prune engine.
 *
 * Gives the narrowphase the pairs p2's `SAPBroadphase` gives (in another order): `Broadphase.canCollide` is applied
 * (body types, sleeping), and each candidate is tested again on the bodies' own AABBs. With `boundingVolumeType =
 * Broadphase.BOUNDING_CIRCLE`, the pairs whose AABBs overlap on x and whose bounding circles overlap, as
 * `SAPBroadphase` gives them. `aabbQuery`, and so `World.raycast`, is answered from the engine.
 *
 * Requires `await init()` from `sweep-prune` before construction. Owns wasm memory: call `dispose()` when the world
 * is discarded (otherwise it is freed once both are garbage-collected).
 */
export class SweepPruneBroadphase extends Broadphase {
  readonly #link: Attachment<P2World, Body>;

  /** @throws SweepPruneError `NotInitialized` before `await init()` */
  constructor() {
    requireInit('new SweepPruneBroadphase()', 'p2');
    super(Broadphase.SAP);
    this.#link = new Attachment<P2World, Body>(this, 2, {
      name: 'SweepPruneBroadphase',
      worldName: 'a p2-es World',
      bodies: (world) => world.bodies,
      listen: (world, onAdd, onRemove, on) => {
        if (on) world.on('addBody', onAdd).on('removeBody', onRemove);
        else world.off('addBody', onAdd).off('removeBody', onRemove);
      },
      reader: (b, out) => {
        if (b.aabbNeedsUpdate && !updateSimpleAABB(b)) b.updateAABB();
        readAABB(b.aabb, out);
        if (this.boundingVolumeType === Broadphase.BOUNDING_CIRCLE) {
          // the box also holds the bounding circle, whose test decides in this mode
          const r = b.boundingRadius;
          const p = b.position;
          out[0] = Math.min(out[0]!, p[0]! - r);
          out[1] = Math.min(out[1]!, p[1]! - r);
          out[2] = Math.max(out[2]!, p[0]! + r);
          out[3] = Math.max(out[3]!, p[1]! + r);
        }
        const type = b.type;
        out[4] = type === STATIC || b.sleepState === SLEEPING ? 1 : 0;
        out[5] = type === STATIC ? CATEGORY_STATIC : type === KINEMATIC ? CATEGORY_KINEMATIC : CATEGORY_DYNAMIC;
        out[6] = type === STATIC ? MASK_STATIC : type === KINEMATIC ? MASK_KINEMATIC : MASK_DYNAMIC;
      },
    });
  }

  /**
   * Attach to `world` (p2's `World` constructor calls this): its bodies are followed through its addBody and
   * removeBody events. @throws SweepPruneError `InvalidArgument`, `Disposed`
   */
  override setWorld(world: P2World): void {
    this.#link.attach(world);
    this.world = world;
  }

  /**
   * The pairs of bodies for the narrowphase, flat (`[a0, b0, a1, b1, ...]`, the array `this.result`), as
   * `SAPBroadphase` finds them. Updates the AABBs of bodies that need it.
   * @throws SweepPruneError `Disposed`
   */
  override getCollisionPairs(world: P2World): Body[] {
    const boxes = this.#link.sync(world, 'getCollisionPairs');
    this.world = world;
    const result = this.result;
    result.length = 0;
    const pairs = boxes.pairs;
    const bySlot = boxes.bySlot;
    const circles = this.boundingVolumeType === Broadphase.BOUNDING_CIRCLE;
    if (!circles && boxes.exact) {
      // every stored box is its body's AABB (p2's vectors are float32): the engine's pairs are SAPBroadphase's
      for (let i = 0; i < pairs.length; i += 2) result.push(bySlot[slotOf(pairs[i]!)]!, bySlot[slotOf(pairs[i + 1]!)]!);
      return result;
    }
    for (let i = 0; i < pairs.length; i += 2) {
      const a = bySlot[slotOf(pairs[i]!)]!;
      const b = bySlot[slotOf(pairs[i + 1]!)]!;
      const la = a.aabb.lowerBound;
      const ua = a.aabb.upperBound;
      const lb = b.aabb.lowerBound;
      const ub = b.aabb.upperBound;
      // SAPBroadphase's float64 tests (the stored boxes were rounded outward, so they may touch where these do not)
      if (!(lb[0]! <= ua[0]! && la[0]! <= ub[0]!)) continue;
      if (circles ? !Broadphase.boundingRadiusCheck(a, b) : !(lb[1]! <= ua[1]! && la[1]! <= ub[1]!)) continue;
      result.push(a, b);
    }
    return result;
  }

  /**
   * The bodies whose AABB overlaps `aabb` (closed), appended to `result` and returned; `World.raycast` calls it.
   * Updates the AABBs of bodies that need it, as `SAPBroadphase` does; the order is not its order (by x).
   * A box with a NaN coordinate gets the engine's own answer (`AABB.overlaps` on every body), so a raycast from a
   * body gone NaN finds nothing, as with the engine's broadphases, instead of throwing inside the game loop.
   * @throws SweepPruneError `InvalidArgument` (no aabb, no world), `InvertedBounds`, `Disposed`
   */
  override aabbQuery(world?: P2World, aabb?: AABB, result: Body[] = []): Body[] {
    return this.#link.query(world, aabb, readAABB, (b, box) => b.aabb.overlaps(box), result);
  }

  /** True after `dispose()`. */
  get disposed(): boolean {
    return this.#link.disposed;
  }

  /** Stop following the world and free the wasm memory. Idempotent; any other use afterwards throws `Disposed`. */
  dispose(): void {
    this.#link.dispose();
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}
