// SPDX-License-Identifier: MIT
// p2-es's Body.updateAABB for the commonest bodies, written out: one circle or one box at the body's centre. The same
// float operations in the same order (and the same float32 stores), without the general path's frame transform and
// calls; the broadphase's cost is mostly this update.
import { AABB, Body, Box, Circle } from 'p2-es';

const generalUpdate = Body.prototype.updateAABB;
const circleAABB = Circle.prototype.computeAABB;
const boxAABB = Box.prototype.computeAABB;
// p2's vectors are Float32Array unless P2_ARRAY_TYPE said otherwise when p2 loaded; its temporaries are of that type
const f32 = new AABB().lowerBound instanceof Float32Array;

/**
 * Update `body.aabb` as `body.updateAABB()` would, bit for bit, and clear `aabbNeedsUpdate`, if the body has one
 * circle or box shape at its centre (and neither the body nor the shape overrides p2's methods). Returns false,
 * changing nothing, for any other body.
 */
export function updateSimpleAABB(body: Body): boolean {
  const shapes = body.shapes;
  if (shapes.length !== 1 || body.updateAABB !== generalUpdate) return false;
  const shape = shapes[0]!;
  const offset = shape.position;
  if (offset[0] !== 0 || offset[1] !== 0) return false;
  const lo = body.aabb.lowerBound;
  const hi = body.aabb.upperBound;
  // toGlobalFrame(offset = 0): the body's position, stored in a vector of that type
  const px = f32 ? Math.fround(body.position[0]!) : body.position[0]!;
  const py = f32 ? Math.fround(body.position[1]!) : body.position[1]!;
  if (shape.computeAABB === circleAABB) {
    // Circle.computeAABB: bounds set to ±radius (stored), then the offset added
    const r = f32 ? Math.fround((shape as Circle).radius) : (shape as Circle).radius;
    lo[0] = -r + px;
    lo[1] = -r + py;
    hi[0] = r + px;
    hi[1] = r + py;
  } else if (shape.computeAABB === boxAABB) {
    const box = shape as Box;
    const angle = box.angle + body.angle;
    const c = Math.abs(Math.cos(angle));
    const s = Math.abs(Math.sin(angle));
    const w = box.width;
    const h = box.height;
    const height = (w * s + h * c) * 0.5;
    const width = (h * s + w * c) * 0.5;
    lo[0] = px - width;
    lo[1] = py - height;
    hi[0] = px + width;
    hi[1] = py + height;
  } else {
    return false;
  }
  body.aabbNeedsUpdate = false;
  return true;
}
