// SPDX-License-Identifier: MIT
// `sweep-prune/threads`: the same API, on the threaded engine. `init()` loads sweep_prune_threads.wasm over a shared
// WebAssembly.Memory when the platform has shared memory (Node; a cross-origin-isolated page), and worlds made with
// `threads: n` share their updates with n - 1 workers (threads-worker.js, beside this module). Without shared memory
// it loads the single-threaded sweep_prune.wasm instead, and every world runs on one thread.
import { SweepPruneError } from './errors.js';
import { compileSource, initWithLoader, instantiate, isInitialized, type WasmSource } from './loader.js';
import { checkOptions } from './options.js';
import { preview } from './preview.js';
import { PruneJuice } from './prune-juice.js';
import type { RawExports } from './raw.js';
import { setThreading } from './threading.js';
import { poolThreading, startSpares, workerFailure } from './threads-pool.js';

export * from './shared-entry.js';

/** Where `init` of sweep-prune/threads loads its modules from. Both default to the files beside this module. */
export interface ThreadsInitOptions {
  /** The threaded module (`sweep_prune_threads.wasm`): bytes, a `WebAssembly.Module`, a Response or a URL. */
  threaded?: WasmSource;
  /** The single-threaded module (`sweep_prune.wasm`), loaded instead where there is no shared memory. */
  single?: WasmSource;
  /**
   * Worker threads started, and ready, before `init()` resolves, 0 to 63: a world's pool takes them first, so that
   * its first `update()` runs on every thread it asked for (more are started, and take their share once running,
   * when a world asks for more). Default: the cores less one (`navigator.hardwareConcurrency` or Node's
   * `os.availableParallelism()`), 1 to 7.
   */
  workers?: number;
}

const THREADS_INIT_OPTIONS: readonly (keyof ThreadsInitOptions)[] = ['threaded', 'single', 'workers'];

// The cores less one (the caller's thread), 1 to 7: enough for the worlds most programs make, few enough to start fast
function defaultWorkers(): number {
  const g = globalThis as {
    navigator?: { hardwareConcurrency?: number };
    process?: { getBuiltinModule?: (id: string) => unknown };
  };
  const os = g.process?.getBuiltinModule?.('os') as { availableParallelism?: () => number } | undefined;
  const cores = g.navigator?.hardwareConcurrency ?? os?.availableParallelism?.() ?? 2;
  return Math.min(7, Math.max(1, cores - 1));
}

// The threaded module's memory: its initial size as linked (c/wasm/build-threads.sh --initial-memory, in 64 KB
// pages), and the 2 GB maximum a shared memory must declare (reserved as address space, committed as it grows).
const INITIAL_PAGES = 256;
const MAXIMUM_PAGES = 32768;

let threaded = false;

const LOADED_FIRST =
  'the single-threaded engine was loaded first (by init() of sweep-prune or sweep-prune/wasm); call init() of sweep-prune/threads before any other';

/**
 * Why threads cannot run here, or undefined when they can: shared memory needs `SharedArrayBuffer`, which browsers
 * give only to cross-origin-isolated pages (README "Threads": the COOP and COEP headers); the engine loaded must be
 * the threaded one; and the last worker started must not have failed.
 */
export function threadsUnavailableReason(): string | undefined {
  const reason = platformReason();
  if (reason !== undefined) return reason;
  if (isInitialized() && !threaded) return LOADED_FIRST;
  const failure = workerFailure();
  if (threaded && failure !== undefined) {
    return `a worker thread failed to start or stopped (${failure}); check that threads-worker.js is served beside the module`;
  }
  return undefined;
}

// What the platform lacks for threads, or undefined
function platformReason(): string | undefined {
  const g = globalThis as { SharedArrayBuffer?: unknown; crossOriginIsolated?: boolean };
  if (g.crossOriginIsolated === false) {
    return 'this page is not cross-origin isolated (serve it with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp or credentialless)';
  }
  if (typeof g.SharedArrayBuffer !== 'function') return 'this platform has no SharedArrayBuffer (shared memory)';
  const node = (globalThis as { process?: { versions?: { node?: string }; getBuiltinModule?: unknown } }).process;
  if (node?.versions?.node !== undefined && typeof node.getBuiltinModule !== 'function' && !('window' in globalThis)) {
    return `Node ${node.versions.node} has no process.getBuiltinModule to start worker_threads (Node 20.16+ or 22.3+)`;
  }
  return undefined;
}

/**
 * True once `init()` has loaded the threaded engine, unless the last worker to start failed (then
 * `threadsUnavailableReason()` says why): worlds then honour `threads`, once their workers have started.
 */
export function isThreaded(): boolean {
  return threaded && workerFailure() === undefined;
}

// The threaded module, and once it is initialised (`ready`), its hook for worlds and the spare workers started
let started: { module: object; memory: object } | undefined;

async function loadThreaded(source: WasmSource): Promise<RawExports> {
  const wasm = (globalThis as unknown as { WebAssembly: typeof WebAssembly }).WebAssembly;
  const module = await compileSource(source);
  const memory = new wasm.Memory({ initial: INITIAL_PAGES, maximum: MAXIMUM_PAGES, shared: true });
  // the first instance initialises the data segments (once for all: an atomic flag); workers' instances skip that
  const instance = await wasm.instantiate(module as WebAssembly.Module, { env: { memory } });
  started = { module, memory };
  threaded = true;
  // the module imports its memory (wasm-ld 14 cannot also export it): the wrapper reads it here
  return { ...(instance.exports as object), memory } as unknown as RawExports;
}

async function loadSingle(source: WasmSource, reason: string): Promise<RawExports> {
  const exports = await instantiate(source);
  setThreading(undefined, reason);
  return exports;
}

/**
 * Load the engine. Await it once before creating a `World` or `PruneJuice`; later calls return the same promise.
 * Loads the threaded engine where shared memory is available and starts `options.workers` worker threads, resolving
 * once they are ready, so that worlds' first updates run on the threads asked for; the single-threaded one otherwise (then
 * `isThreaded()` is false, and worlds asking for threads run on one and warn once). Rejects with a
 * `SweepPruneError` (`WasmLoadFailed`) if the module cannot be loaded.
 */
export function init(options: ThreadsInitOptions = {}): Promise<void> {
  try {
    const proto = options === null || typeof options !== 'object' ? undefined : Object.getPrototypeOf(options);
    if (proto !== Object.prototype && proto !== null) {
      throw new SweepPruneError(
        'InvalidArgument',
        `init(options): sweep-prune/threads takes { threaded, single, workers } (where to load each module from, workers to start), got ${preview(options)}`,
      );
    }
    checkOptions('init', options, THREADS_INIT_OPTIONS);
    const workers = options.workers;
    if (
      workers !== undefined &&
      (typeof workers !== 'number' || !Number.isInteger(workers) || workers < 0 || workers > 63)
    ) {
      throw new SweepPruneError(
        'InvalidArgument',
        `init(options): options.workers must be an integer from 0 to 63 (the worker threads started before init resolves), got ${preview(workers)}`,
      );
    }
  } catch (error) {
    return Promise.reject(error);
  }
  if (isInitialized() && !threaded) {
    // one engine per program: the single-threaded one is already loaded, by the init() of another entry
    setThreading(undefined, LOADED_FIRST);
  }
  return initWithLoader(
    () => {
      const reason = platformReason();
      return reason === undefined
        ? loadThreaded(options.threaded ?? new URL('./generated/sweep_prune_threads.wasm', import.meta.url))
        : loadSingle(options.single ?? new URL('./generated/sweep_prune.wasm', import.meta.url), reason);
    },
    async (raw) => {
      if (started === undefined) return;
      setThreading(poolThreading(raw, started.module, started.memory));
      // workers that fail to start are reported (isThreaded, threadsUnavailableReason, the worlds' WorkerFailed)
      await startSpares(options.workers ?? defaultWorkers());
    },
  );
}

export default PruneJuice;
