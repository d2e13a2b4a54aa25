// SPDX-License-Identifier: MIT
// sweep-prune/cannon: a cannon-es broadphase on the wasm engine. `world.broadphase = new SweepPruneBroadphase(world)`.
import { type AABB, Body, Broadphase, type World as CannonWorld } from 'cannon-es';
import { slotOf } from '../../world.js';
import { Attachment } from '../shared/attachment.js';
import { requireInit } from '../shared/init.js';
import { updateSphereAABB } from './aabb.js';

const { STATIC, SLEEPING } = Body;

/** `aabb` as mins then maxes. */
function readAABB(aabb: AABB, out: Float64Array): void {
  const lo = aabb.lowerBound;
  const hi = aabb.upperBound;
  out[0] = lo.x;
  out[1] = lo.y;
  out[2] = lo.z;
  out[3] = hi.x;
  out[4] = hi.y;
  out[5] = hi.z;
}

/**
 * A cannon-es `Broadphase` that finds the pairs of overlapping bodies with the sweep-prune engine (3D).
 *
 * `collisionPairs` gives the pairs `NaiveBroadphase` gives with the same `useBoundingBoxes` (in another order):
 * `needBroadphaseCollision` is applied (collision group and mask; pairs of static or sleeping bodies skipped), then
 * the same float64 test on each candidate. `useBoundingBoxes` starts `true` here (cannon's default is `false`): the
 * pairs whose `body.aabb`s overlap, which `SAPBroadphase` also gives with `useBoundingBoxes = true`. Set it to
 * `false` for cannon's bounding-sphere test. `aabbQuery`, and so every raycast, is answered from the engine.
 *
 * Requires `await init()` from `sweep-prune` before construction. Owns wasm memory: call `dispose()` when the world
 * is discarded (otherwise it is freed once both are garbage-collected).
 */
export class SweepPruneBroadphase extends Broadphase {
  readonly #link: Attachment<CannonWorld, Body>;

  /**
   * @param world attach at once, as `new SAPBroadphase(world)` does (for `world.broadphase = ...`);
   *   `new World({ broadphase })` attaches it too.
   * @throws SweepPruneError `NotInitialized` before `await init()`; `InvalidArgument` (not a world)
   */
  constructor(world?: CannonWorld) {
    requireInit('new SweepPruneBroadphase()', 'cannon');
    super();
    this.useBoundingBoxes = true;
    this.#link = new Attachment<CannonWorld, Body>(this, 3, {
      name: 'SweepPruneBroadphase',
      worldName: 'a cannon-es World',
      bodies: (w) => w.bodies,
      listen: (w, onAdd, onRemove, on) => {
        if (on) {
          w.addEventListener('addBody', onAdd);
          w.addEventListener('removeBody', onRemove);
        } else {
          w.removeEventListener('addBody', onAdd);
          w.removeEventListener('removeBody', onRemove);
        }
      },
      reader: (b, out) => {
        if (b.aabbNeedsUpdate && !updateSphereAABB(b)) b.updateAABB();
        readAABB(b.aabb, out);
        if (!this.useBoundingBoxes) {
          // the box also holds the bounding sphere, whose test decides in this mode
          const r = b.boundingRadius;
          const p = b.position;
          out[0] = Math.min(out[0]!, p.x - r);
          out[1] = Math.min(out[1]!, p.y - r);
          out[2] = Math.min(out[2]!, p.z - r);
          out[3] = Math.max(out[3]!, p.x + r);
          out[4] = Math.max(out[4]!, p.y + r);
          out[5] = Math.max(out[5]!, p.z + r);
        }
        out[6] = (b.type & STATIC) !== 0 || b.sleepState === SLEEPING ? 1 : 0;
        out[7] = b.collisionFilterGroup >>> 0; // as cannon's & reads them: 32-bit integers
        out[8] = b.collisionFilterMask >>> 0;
      },
    });
    if (world != null) this.setWorld(world);
  }

  /**
   * Attach to `world` (cannon's `World` constructor calls this): its bodies are followed through its addBody and
   * removeBody events. @throws SweepPruneError `InvalidArgument`, `Disposed`
   */
  override setWorld(world: CannonWorld): void {
    this.#link.attach(world);
    this.world = world;
    this.dirty = true;
  }

  /**
   * Append the pairs of bodies that need a narrowphase test to `p1` and `p2` (parallel arrays), as `NaiveBroadphase`
   * finds them with the same `useBoundingBoxes`. Updates the AABBs of bodies that need it.
   * @throws SweepPruneError `Disposed`
   */
  override collisionPairs(world: CannonWorld, p1: Body[], p2: Body[]): void {
    const boxes = this.#link.sync(world, 'collisionPairs');
    this.world = world;
    this.dirty = false;
    const pairs = boxes.pairs;
    const bySlot = boxes.bySlot;
    const spheres = !this.useBoundingBoxes;
    for (let i = 0; i < pairs.length; i += 2) {
      const a = bySlot[slotOf(pairs[i]!)]!;
      const b = bySlot[slotOf(pairs[i + 1]!)]!;
      if (spheres) {
        // Broadphase.doBoundingSphereBroadphase's test, term for term
        const pa = a.position;
        const pb = b.position;
        const x = pb.x - pa.x;
        const y = pb.y - pa.y;
        const z = pb.z - pa.z;
        if (!(x * x + y * y + z * z < (a.boundingRadius + b.boundingRadius) ** 2)) continue;
      } else {
        // AABB.overlaps in float64 (the stored boxes were rounded outward, so they may touch where these do not)
        const la = a.aabb.lowerBound;
        const ua = a.aabb.upperBound;
        const lb = b.aabb.lowerBound;
        const ub = b.aabb.upperBound;
        if (!(lb.x <= ua.x && la.x <= ub.x && lb.y <= ua.y && la.y <= ub.y && lb.z <= ua.z && la.z <= ub.z)) continue;
      }
      p1.push(a);
      p2.push(b);
    }
  }

  /**
   * The bodies whose `aabb` overlaps `aabb` (closed), appended to `result` and returned; every cannon raycast calls
   * it. Updates the AABBs of bodies that need it, as `NaiveBroadphase` does; the order is not the world's body order.
   * A box with a NaN coordinate gets the engine's own answer (`AABB.overlaps` on every body), so a raycast from a
   * body gone NaN finds nothing, as with the engine's broadphases, instead of throwing inside the game loop.
   * @throws SweepPruneError `InvalidArgument` (no aabb, no world), `InvertedBounds`, `Disposed`
   */
  override aabbQuery(world: CannonWorld, aabb: AABB, result: Body[] = []): Body[] {
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
