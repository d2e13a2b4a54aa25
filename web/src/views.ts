// SPDX-License-Identifier: MIT
// A world's `bounds` view: the one handed out, and the ended ones watched for writes that would be lost
// (docs/views.md). A view ends when the world's capacity grows (its block moves) or when its buffer is detached (a
// growth of wasm memory where the runtime has no resizable buffers, or the release of the blocks kept for views);
// nothing else ends it.
import { SweepPruneError } from './errors.js';
import type { RawExports } from './raw.js';
import { SCRATCH_OUT } from './raw.js';

/**
 * What a moved bounds block is filled with: a NaN that no write from JavaScript stores (a NaN written through a
 * `Float32Array` is stored as 0x7fc00000, every other number as itself), so any other word is a lost write.
 */
const ENDED_WORD = 0x7fbadbad;

interface Watched {
  words: Uint32Array; // the ended view's block, as words
  cause: string; // the call that moved it, and why
  retaken: boolean; // the world handed out a new view since
}

/** A world's bounds views. Owned by one `World`; `raw`, `world`, `scratch` and `dimensions` are the world's. */
export class BoundsViews {
  #view: Float32Array | undefined; // the last view handed out
  #watched: Watched[] = [];

  readonly raw: RawExports;
  readonly world: number;
  readonly scratch: number;
  readonly stride: number; // floats per box

  constructor(raw: RawExports, world: number, scratch: number, dimensions: number) {
    this.raw = raw;
    this.world = world;
    this.scratch = scratch;
    this.stride = 2 * dimensions;
  }

  /** The live view over the world's capacity: the one handed out last while it is still live. */
  get(pin: (ptr: number) => void): Float32Array {
    const raw = this.raw;
    const buffer = raw.memory.buffer;
    const ptr = raw.sp_bounds(this.world);
    const view = this.#view;
    if (view !== undefined && view.buffer === buffer && view.byteOffset === ptr) return view;
    const length = new Uint32Array(buffer, this.scratch + SCRATCH_OUT, 1)[0]!;
    pin(ptr);
    for (const w of this.#watched) w.retaken = true;
    return (this.#view = new Float32Array(buffer, ptr, length));
  }

  /**
   * After a call that may grow the world's capacity (`what`): when the block of the view handed out moved, the view
   * has ended. Its block is kept by the engine (never reused), so it is filled with ENDED_WORD and watched.
   */
  afterGrowth(what: string): void {
    // (sp_bounds writes the scratch block's outputs: callers read theirs first)
    const view = this.#view;
    if (view === undefined || view.buffer.byteLength === 0) return; // none, or detached (reported by check)
    if (view.byteOffset === this.raw.sp_bounds(this.world)) return;
    const words = new Uint32Array(view.buffer, view.byteOffset, view.length);
    words.fill(ENDED_WORD);
    this.#watched.push({
      words,
      cause: `${what} grew the world past its capacity of ${view.length / this.stride} boxes, which moved the bounds`,
      retaken: false,
    });
    this.#view = undefined;
  }

  /**
   * Before a call that reads the bounds (`what`: update, endpoints): throws `StaleView` when something was
   * written through an ended view since it ended (and fills it again, so that each lost write is reported once), and
   * on every call while the view handed out last is detached and not taken again: a detached view drops writes
   * without a trace, so a call that went on would make a frame that loses them. A watched view is let go after its
   * first clean check once a new view has been taken.
   */
  check(what: string): void {
    const view = this.#view;
    if (view !== undefined && view.buffer.byteLength === 0) {
      throw new SweepPruneError(
        'StaleView',
        `${what}: the world.bounds view taken before has ended, so writes through it since then are lost; nothing was ` +
          "changed. Wasm memory grew (or the blocks kept for disposed worlds' views were released: memoryStats() " +
          'counts both), which ends every view in this runtime (memoryStats().viewsSurviveGrowth is false: its ' +
          'WebAssembly.Memory has no toResizableBuffer). Take world.bounds again, write the frame through it and call ' +
          `${what}() again; taking it once per frame (it is cached and cheap) never meets this.`,
      );
    }
    if (this.#watched.length === 0) return;
    let kept = 0;
    let lost: Watched | undefined;
    for (const w of this.#watched) {
      if (w.words.buffer.byteLength === 0) continue; // detached since: nothing can be written through it any more
      const at = firstWritten(w.words);
      if (at >= 0) {
        lost ??= w;
        w.words.fill(ENDED_WORD);
      }
      if (at >= 0 || !w.retaken) this.#watched[kept++] = w;
    }
    this.#watched.length = kept;
    if (lost !== undefined) {
      throw new SweepPruneError(
        'StaleView',
        `${what}: writes through an ended world.bounds view were lost (${lost.cause}); nothing was changed. ` +
          'Take world.bounds again after addBox(), addBoxes() or reserve() can pass the capacity, or reserve(n) / new World({ capacity: n }) ahead so that it never moves.',
      );
    }
  }

  /** The world is disposed: nothing more to watch. */
  clear(): void {
    this.#view = undefined;
    this.#watched = [];
  }
}

function firstWritten(words: Uint32Array): number {
  for (let i = 0; i < words.length; i++) if (words[i] !== ENDED_WORD) return i;
  return -1;
}
