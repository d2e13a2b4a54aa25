// SPDX-License-Identifier: MIT
// World.addBoxes / World.setBoxes: many boxes through one staging block in wasm memory and one call, validated as
// addBox validates one box (every box before anything changes; errors name the box's index).
import { SweepPruneError } from './errors.js';
import { isFloat32 } from './float32.js';
import type { RawExports } from './raw.js';

/** At most this many boxes in one world (SP_MAX_BOXES). */
const MAX_BOXES = 1 << 22;

/** The number of boxes in `bounds` (2 * dimensions numbers each), checked against `count` when given. */
export function boxCountOf(what: string, bounds: ArrayLike<number>, dimensions: number, count?: number): number {
  const stride = 2 * dimensions;
  if (bounds == null || typeof bounds !== 'object' || typeof bounds.length !== 'number') {
    throw new SweepPruneError(
      'InvalidArgument',
      `${what}: bounds must be a Float32Array (or an array) of ${stride} numbers per box, got ${bounds === null ? 'null' : typeof bounds}`,
    );
  }
  if (count === undefined) {
    if (bounds.length % stride !== 0) {
      throw new SweepPruneError(
        'InvalidDimensions',
        `${what}: bounds has ${bounds.length} numbers, not a multiple of ${stride} (each box is ${dimensions} mins then ${dimensions} maxes); pass count to use only the first boxes`,
      );
    }
    count = bounds.length / stride;
  } else if (!Number.isInteger(count) || count < 0 || count * stride > bounds.length) {
    throw new SweepPruneError(
      'InvalidArgument',
      `${what}: count must be an integer from 0 to ${Math.floor(bounds.length / stride)} (the boxes in bounds), got ${count}`,
    );
  }
  if (count > MAX_BOXES) {
    throw new SweepPruneError('CapacityExceeded', `${what}: ${count} boxes; a world holds at most 4194304`);
  }
  return count;
}

/**
 * The first box of `bounds` that addBox would refuse, as an error naming its index and values, or undefined.
 * Values are refused as addBox refuses them: not a number, NaN, ±Infinity or beyond float32; then min > max.
 */
export function badBoxError(
  what: string,
  bounds: ArrayLike<number>,
  count: number,
  dimensions: number,
): SweepPruneError | undefined {
  const stride = 2 * dimensions;
  for (let i = 0, o = 0; i < count; i++, o += stride) {
    for (let a = 0; a < dimensions; a++) {
      const lo = bounds[o + a]!;
      const hi = bounds[o + dimensions + a]!;
      if (!isFloat32(lo) || !isFloat32(hi)) {
        return boxError(
          'InvalidBounds',
          what,
          bounds,
          i,
          dimensions,
          `min[${a}] and max[${a}] must be finite float32 numbers; NaN, Infinity and values beyond ±3.4028234663852886e38 are rejected`,
        );
      }
    }
    for (let a = 0; a < dimensions; a++) {
      if (!(bounds[o + a]! <= bounds[o + dimensions + a]!)) {
        return boxError('InvertedBounds', what, bounds, i, dimensions, `min[${a}] must be <= max[${a}]`);
      }
    }
  }
  return undefined;
}

function boxError(
  code: 'InvalidBounds' | 'InvertedBounds',
  what: string,
  bounds: ArrayLike<number>,
  i: number,
  d: number,
  why: string,
): SweepPruneError {
  const o = i * 2 * d;
  const values = Array.from({ length: 2 * d }, (_, k) => bounds[o + k]);
  return new SweepPruneError(
    code,
    `${what}: box ${i} (bounds[${o}..${o + 2 * d - 1}]) has min [${values.slice(0, d).join(', ')}] and max [${values.slice(d).join(', ')}]: ${why}. Nothing was changed`,
  );
}

/**
 * Copy `count` boxes (and, for setBoxes, their ids) into one malloc'd block, run `call(boundsPtr, idsPtr)`, and
 * return the ids the call wrote (addBoxes) or undefined. The block is freed before returning or throwing.
 */
export function withStagedBoxes(
  raw: RawExports,
  bounds: ArrayLike<number>,
  count: number,
  dimensions: number,
  ids: ArrayLike<number> | undefined,
  call: (boundsPtr: number, idsPtr: number) => number,
): { result: number; ids: Uint32Array } {
  const floats = count * 2 * dimensions;
  const ptr = count === 0 ? 0 : raw.malloc(floats * 4 + count * 4);
  if (count !== 0 && ptr === 0) return { result: OUT_OF_MEMORY, ids: new Uint32Array(0) };
  try {
    const buffer = raw.memory.buffer; // after malloc, which may have grown memory
    const staged = new Float32Array(buffer, ptr, floats);
    staged.set(
      bounds.length === floats
        ? bounds
        : ArrayBuffer.isView(bounds)
          ? (bounds as Float32Array).subarray(0, floats)
          : Array.prototype.slice.call(bounds, 0, floats),
    );
    const idsPtr = ptr + floats * 4;
    if (ids !== undefined) new Uint32Array(buffer, idsPtr, count).set(ids);
    const result = call(ptr, idsPtr);
    return {
      result,
      ids:
        result === 0 && ids === undefined
          ? new Uint32Array(raw.memory.buffer, idsPtr, count).slice()
          : new Uint32Array(0),
    };
  } finally {
    if (ptr !== 0) raw.free(ptr);
  }
}

/** sp_resultOutOfMemory. */
export const OUT_OF_MEMORY = 9;
