// SPDX-License-Identifier: MIT
// sweep-prune: all overlapping pairs of axis-aligned boxes in 1 to 4 dimensions, on a WebAssembly engine.
// The default entry: the wasm bytes are embedded (base64), so it loads with no fetch and no bundler configuration.
// `sweep-prune/wasm` (wasm-entry.ts) is the same API loading the .wasm as a separate file.
import { initWith, type WasmSource } from './loader.js';
import { wasmBytes } from './generated/wasm-bytes.js';
import { PruneJuice } from './prune-juice.js';

export * from './shared-entry.js';

/**
 * Load the engine. Await it once before creating a `World` or `PruneJuice`; later calls return the same promise.
 * With no argument the module embedded in this package is used (no fetch, no bundler configuration).
 * Pass wasm bytes, a `WebAssembly.Module`, a `Response` or a URL to load another copy.
 */
export function init(source?: WasmSource): Promise<void> {
  return initWith(() => source ?? wasmBytes());
}

export default PruneJuice;
