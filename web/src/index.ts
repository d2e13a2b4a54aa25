// SPDX-License-Identifier: MIT
// sweep-prune: all overlapping pairs of axis-aligned boxes in 1 to 4 dimensions, on a WebAssembly engine.
import { initWith, type WasmSource } from './loader.js';
import { wasmBytes } from './generated/wasm-bytes.js';

export { SweepPruneError, type ErrorCode } from './errors.js';
export { World, slotOf, type BoxId, type WorldOptions, type Counters, type Endpoints } from './world.js';
export { PruneJuice, type DimensionExtractor, type SortFunction } from './prune-juice.js';
export { isInitialized } from './loader.js';
export type { WasmSource } from './loader.js';

/**
 * Load the engine. Await it once before creating a `World` or `PruneJuice`; later calls return the same promise.
 * With no argument the module embedded in this package is used (no fetch, no bundler configuration).
 * Pass wasm bytes, a `WebAssembly.Module`, a `Response` or a URL to load another copy.
 */
export function init(source?: WasmSource): Promise<void> {
  return initWith(() => source ?? wasmBytes());
}

import { PruneJuice } from './prune-juice.js';
export default PruneJuice;
