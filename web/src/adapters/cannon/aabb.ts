// SPDX-License-Identifier: MIT
// cannon-es's Body.updateAABB for the commonest body, written out: one sphere at the body's centre. The same float
// operations (a quaternion turning a zero offset adds a signed zero only), without the general path's quaternion
// products and Sphere.calculateWorldAABB's keyed property loop; the broadphase's cost is mostly this update.
import { Body, Sphere } from 'cannon-es';

const generalUpdate = Body.prototype.updateAABB;
const sphereAABB = Sphere.prototype.calculateWorldAABB;

/**
 * Update `body.aabb` as `body.updateAABB()` would and clear `aabbNeedsUpdate`, if the body has one sphere at its
 * centre (and neither the body nor the shape overrides cannon's methods). Returns false, changing nothing, for any
 * other body.
 */
export function updateSphereAABB(body: Body): boolean {
  const shapes = body.shapes;
  if (shapes.length !== 1 || body.updateAABB !== generalUpdate) return false;
  const shape = shapes[0]!;
  if (shape.calculateWorldAABB !== sphereAABB) return false;
  const offset = body.shapeOffsets[0]!;
  if (offset.x !== 0 || offset.y !== 0 || offset.z !== 0) return false;
  const r = (shape as Sphere).radius;
  const p = body.position;
  const lo = body.aabb.lowerBound;
  const hi = body.aabb.upperBound;
  lo.x = p.x - r;
  lo.y = p.y - r;
  lo.z = p.z - r;
  hi.x = p.x + r;
  hi.y = p.y + r;
  hi.z = p.z + r;
  body.aabbNeedsUpdate = false;
  return true;
}
