// SPDX-License-Identifier: MIT
// The exports both entries share. `index.ts` (wasm embedded) and `wasm-entry.ts` (wasm as a separate file) add
// their own `init`.
export { SweepPruneError, type ErrorCode } from './errors.js';
export {
  World,
  slotOf,
  type BoxId,
  type WorldOptions,
  type Counters,
  type Endpoints,
  type RayHits,
  type RayHit,
  type RayOptions,
  type DistanceHits,
  type QueryCallback,
  type Slabs,
  type PairCallback,
} from './world.js';
export { PruneJuice, type DimensionExtractor, type SortFunction } from './prune-juice.js';
export { isInitialized, memoryStats, type MemoryStats, type WasmSource } from './loader.js';

declare global {
  // World has a [Symbol.dispose] method. Declared as @types/node declares it, so projects type-check this package
  // without lib "esnext.disposable" (the declarations merge when both are present).
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}
