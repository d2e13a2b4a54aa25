// SPDX-License-Identifier: MIT
// A World's bounds as every adapter writes them: the view taken again whenever the World's memory may have moved,
// and bounds stored rounded outward to float32 (mins down, maxes up), so a box holds its body's float64 bounds and no
// pair a float64 test finds is lost.
import { storeDown, storeUp } from '../../float32.js';
import type { World } from '../../world.js';

type Growable = Uint8Array | Uint32Array | Int32Array | Float32Array | Float64Array;

export class OutwardBounds {
  readonly #world: World;
  #view: Float32Array = new Float32Array(0);
  #ints: Int32Array = new Int32Array(0); // the same memory as integers, to step a float32 by one ulp

  constructor(world: World) {
    this.#world = world;
  }

  /**
   * The World's bounds now: call after anything that may grow wasm memory (adding boxes, switching a filter or a
   * static flag, an update) and before writing.
   */
  take(): Float32Array {
    const view = this.#world.bounds;
    if (view !== this.#view) {
      this.#view = view;
      this.#ints = new Int32Array(view.buffer, view.byteOffset, view.length);
    }
    return view;
  }

  /** The view of the last `take()` as integers: for a hot loop that stores with `storeDown` and `storeUp` itself. */
  get ints(): Int32Array {
    return this.#ints;
  }

  /** `x` at `at`, rounded down (a min). */
  min(at: number, x: number): void {
    storeDown(this.#view, this.#ints, at, x);
  }

  /** `x` at `at`, rounded up (a max). */
  max(at: number, x: number): void {
    storeUp(this.#view, this.#ints, at, x);
  }

  /** A 2D box at `at`: minX, minY, maxX, maxY. */
  box2(at: number, minX: number, minY: number, maxX: number, maxY: number): void {
    const view = this.#view;
    const ints = this.#ints;
    storeDown(view, ints, at, minX);
    storeDown(view, ints, at + 1, minY);
    storeUp(view, ints, at + 2, maxX);
    storeUp(view, ints, at + 3, maxY);
  }
}

/** A copy of `array` with room for `length` elements (the new ones 0, or `fill`): per-slot arrays that grow. */
export function grown<A extends Growable>(array: A, length: number, fill?: number): A {
  const next = new (array.constructor as new (n: number) => A)(length);
  if (fill !== undefined) next.fill(fill, array.length);
  next.set(array);
  return next;
}
