// SPDX-License-Identifier: MIT
// `sweep-prune/wasm`: the same API as the default entry, but `init()` loads sweep_prune.wasm as a separate file,
// so browsers compile it while it downloads (WebAssembly.instantiateStreaming) and the JS stays small.
// Bundlers that understand `new URL('./file', import.meta.url)` (Vite, webpack 5, Parcel, esbuild with a plugin)
// emit the file as an asset; in Node the loader reads it from disk.
import { initWith, type WasmSource } from './loader.js';
import { PruneJuice } from './prune-juice.js';

export * from './shared-entry.js';

/**
 * Load the engine. Await it once before creating a `World` or `PruneJuice`; later calls return the same promise.
 * With no argument `sweep_prune.wasm` is fetched from beside this module (read from disk in Node).
 * Pass wasm bytes, a `WebAssembly.Module`, a `Response` or a URL to load it from elsewhere.
 */
export function init(source?: WasmSource): Promise<void> {
  return initWith(() => source ?? new URL('./generated/sweep_prune.wasm', import.meta.url));
}

export default PruneJuice;
