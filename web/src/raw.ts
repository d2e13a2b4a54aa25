// SPDX-License-Identifier: MIT
// The wasm module's exports, typed by hand (c/wasm/exports.c is the other side). Pointers are byte offsets into
// `memory`; box and world ids are uint32 values carried as numbers.

/** The module's memory, typed structurally so the package's types need no DOM or WebAssembly library. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
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
  sp_update(world: number): number;
  sp_last_invalid_box(world: number): number;
  sp_pairs(world: number, which: number): number;
  sp_copy_pairs(world: number): number;
  sp_release_count(): number;
  sp_counters(world: number): number;
  sp_endpoints(world: number, axis: number): number;
  sp_set_box_filter(world: number, box: number, category: number, mask: number): number;
  sp_get_box_filter(world: number, box: number): number;
  sp_set_box_static(world: number, box: number, isStatic: number): number;
  sp_is_box_static(world: number, box: number): number;
  sp_query_box(world: number, mask: number): number;
  sp_cast_ray(world: number, maxDistance: number, mask: number, blockMask: number, ignore: number, maxHits: number): number;
  sp_nearest(world: number, k: number, distance: number, mask: number): number;
  malloc(size: number): number;
  free(ptr: number): void;
}

/** Scratch block layout (c/wasm/exports.c): min floats at byte 0, max floats at 16, uint32 outputs at 32. */
export const SCRATCH_MIN = 0;
export const SCRATCH_MAX = 16;
export const SCRATCH_OUT = 32;

/** Box id bit split (c/include/sweep_prune/id.h): slot << GENERATION_BITS | generation. */
export const GENERATION_BITS = 10;

/** Number of int32 fields in `spCounters`. */
export const COUNTER_FIELDS = 13;
