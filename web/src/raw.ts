// SPDX-License-Identifier: MIT
// The wasm module's exports, typed by hand (c/wasm/exports.c is the other side). Pointers are byte offsets into
// `memory`; box and world ids are uint32 values carried as numbers.

/** The module's memory, typed structurally so the package's types need no DOM or WebAssembly library. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
  /** Where the runtime has them (WebAssembly JS API, resizable buffers): `buffer` as a resizable or fixed one. */
  toResizableBuffer?(): ArrayBuffer;
  toFixedLengthBuffer?(): ArrayBuffer;
}

export interface RawExports {
  readonly memory: WasmMemory;
  _initialize(): void;
  sp_scratch(): number;
  sp_result_string(result: number): number;
  sp_create_world(dimensions: number, capacity: number): number;
  sp_destroy_world(world: number): number;
  sp_reserve(world: number, capacity: number): number;
  sp_box_count(world: number): number;
  sp_byte_count(world: number): number;
  sp_add_box(world: number): number;
  sp_remove_box(world: number, box: number): number;
  sp_set_box(world: number, box: number): number;
  sp_get_box(world: number, box: number): number;
  sp_is_box_valid(world: number, box: number): number;
  sp_bounds(world: number): number;
  sp_capacity(world: number): number;
  sp_update(world: number): number;
  sp_last_invalid_box(world: number): number;
  sp_pairs(world: number, which: PairList): number;
  sp_copy_pairs(world: number): number;
  sp_slabs(world: number, statics: number): number;
  sp_counters(world: number): number;
  sp_endpoints(world: number, axis: number): number;
  sp_set_box_filter(world: number, box: number, category: number, mask: number): number;
  sp_get_box_filter(world: number, box: number): number;
  sp_set_box_static(world: number, box: number, isStatic: number): number;
  sp_is_box_static(world: number, box: number): number;
  sp_query_box(world: number, mask: number): number;
  sp_cast_ray(
    world: number,
    maxDistance: number,
    mask: number,
    blockMask: number,
    ignore: number,
    maxHits: number,
  ): number;
  sp_nearest(world: number, k: number, distance: number, mask: number): number;
  sp_add_boxes(world: number, bounds: number, count: number, outIds: number): number;
  sp_set_boxes(world: number, ids: number, bounds: number, count: number): number;
  sp_set_box_filters(world: number, ids: number, count: number, category: number, mask: number): number;
  sp_filter_pairs(world: number, exact: number, inexact: number, out: number): number;
  sp_set_events(world: number, enabled: number): number;
  malloc(size: number): number;
  free(ptr: number): void;
  sp_pin(ptr: number): number;
  sp_quarantined_bytes(): number;
  sp_release_kept(): number;
  /** After the memory's buffer was made resizable: growths end no view, so the quarantine keeps its blocks. */
  sp_keep_on_growth(): void;
  sp_heap_top(): number;
  /** Real growths of memory (the threaded module counts them in C; the loader adds it to the other module). */
  sp_memory_growths(): number;
  // the threaded module only (c/wasm/threads.c)
  sp_pool_running?(pool: number): number;
  sp_create_pool?(threads: number): number;
  sp_pool_work?(pool: number, worker: number): void;
  sp_pool_stop?(pool: number): void;
  sp_destroy_pool?(pool: number): void;
  sp_set_pool?(world: number, pool: number): number;
}

/** Scratch block layout (c/wasm/exports.c asserts it): min floats at byte 0, max floats at 16, uint32 outputs at 32. */
export const SCRATCH_MIN = 0;
export const SCRATCH_MAX = 16;
export const SCRATCH_OUT = 32;

/** Which list `sp_pairs` returns (c/wasm/exports.c, spPairList, asserts the same values). */
export const PAIR_LIST = { pairs: 0, began: 1, ended: 2 } as const;
export type PairList = (typeof PAIR_LIST)[keyof typeof PAIR_LIST];

/** A box id: a 32-bit number, never 0. `slot << 10 | generation`; stale ids are detected. */
export type BoxId = number;

/** Box id bit split (c/include/sweep_prune/id.h; c/wasm/exports.c asserts it): slot << GENERATION_BITS | generation. */
export const GENERATION_BITS = 10;

/** Work done by the last `update()`. */
export interface Counters {
  /** Live boxes seen by the update. */
  boxes: number;
  /** Axis the boxes were sorted and swept along. */
  sweepAxis: number;
  /** Adjacent exchanges made by the insertion sorts within each slab when `refreshed` (0 on a still frame, or when rebuilt). */
  swaps: number;
  /** 1 when the moving boxes' slabs were rebuilt (an incoherent frame, or the first update); then `refreshed` is 0. */
  rebuilt: number;
  /** Slabs the boxes were bucketed into along a second axis. */
  slabs: number;
  /** Candidate pairs (overlapping on the sweep axis) tested on the other axes. */
  overlapTests: number;
  /** Overlapping pairs. */
  pairs: number;
  /** Pairs that began overlapping in this update. */
  began: number;
  /** Pairs that stopped overlapping in this update (including pairs of removed boxes). */
  ended: number;
  /** Insertion-sort exchanges made by the last `endpoints()` call. */
  endpointSwaps: number;
  /** Static boxes. */
  staticBoxes: number;
  /** 1 when a static box changed, so the static boxes' index was rebuilt. */
  staticRebuilt: number;
  /**
   * 1 when the moving boxes' sorted slabs were brought up to date in place (a coherent frame; boxes added, removed
   * or switched since the last update are merged into or dropped from their slabs), 0 when they were rebuilt.
   */
  refreshed: number;
}

/**
 * Byte offsets of `spCounters`' int32 fields by name, and its size (c/wasm/exports.c asserts each of them;
 * tests/js/mirrors.test.ts checks them against the module).
 */
export const COUNTER_OFFSETS: { readonly [Name in keyof Counters]: number } = {
  boxes: 0,
  sweepAxis: 4,
  swaps: 8,
  rebuilt: 12,
  slabs: 16,
  overlapTests: 20,
  pairs: 24,
  began: 28,
  ended: 32,
  endpointSwaps: 36,
  staticBoxes: 40,
  staticRebuilt: 44,
  refreshed: 48,
};
export const COUNTERS_BYTES = 52;
