// SPDX-License-Identifier: MIT
// Instantiates the bare wasm module (no Emscripten glue). `init()` is memoised; everything after it is synchronous.
import { SweepPruneError } from './errors.js';
import type { RawExports } from './raw.js';

/** What `init` accepts: nothing (the embedded module), wasm bytes, a compiled module, or a fetch Response / URL. */
export type WasmSource = BufferSource | WebAssembly.Module | Response | PromiseLike<Response> | URL | string;

let engine: RawExports | undefined;
let pending: Promise<void> | undefined;

type NodeProcess = { getBuiltinModule?: (id: string) => unknown; versions?: { node?: string } };
const nodeProcess = (globalThis as { process?: NodeProcess }).process;
const inBrowser = typeof (globalThis as { location?: unknown }).location === 'object';

/**
 * Whether a URL or path names a file on disk: a `file:` URL, or, outside browsers, a string that is not an absolute
 * URL. Node's `fetch` rejects both ("fetch failed" / "Failed to parse URL"), so these are read with `fs` instead.
 */
function isLocalFile(source: string | URL): boolean {
  if (source instanceof URL) return source.protocol === 'file:';
  if (/^file:/i.test(source)) return true;
  return !inBrowser && nodeProcess?.versions?.node !== undefined && !/^[a-z][a-z0-9+.-]*:/i.test(source);
}

async function readLocalFile(source: string | URL): Promise<Uint8Array<ArrayBuffer>> {
  // process.getBuiltinModule (Node 20.16+, 22.3+) instead of `import('node:fs')`, which bundlers would try to resolve
  const fs = nodeProcess?.getBuiltinModule?.('fs/promises') as
    | { readFile(path: string | URL): Promise<Uint8Array<ArrayBuffer>> }
    | undefined;
  if (fs === undefined) {
    throw new Error(`cannot read ${String(source)} here; pass the bytes instead: init(await readFile(url))`);
  }
  return fs.readFile(typeof source === 'string' && /^file:/i.test(source) ? new URL(source) : source);
}

async function instantiate(source: WasmSource): Promise<RawExports> {
  const imports = { env: { emscripten_notify_memory_growth: () => {} } };
  let instance: WebAssembly.Instance;
  if (source instanceof WebAssembly.Module) {
    instance = await WebAssembly.instantiate(source, imports);
  } else if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    instance = (await WebAssembly.instantiate(source as BufferSource, imports)).instance;
  } else if ((typeof source === 'string' || source instanceof URL) && isLocalFile(source)) {
    instance = (await WebAssembly.instantiate(await readLocalFile(source), imports)).instance;
  } else {
    const response = await (typeof source === 'string' || source instanceof URL ? fetch(source) : source);
    if (!response.ok) throw new Error(`HTTP ${response.status} for ${response.url}`);
    const streaming =
      typeof WebAssembly.instantiateStreaming === 'function' &&
      response.headers.get('content-type')?.startsWith('application/wasm');
    instance = streaming
      ? (await WebAssembly.instantiateStreaming(response, imports)).instance
      : (await WebAssembly.instantiate(await response.arrayBuffer(), imports)).instance;
  }
  const exports = instance.exports as unknown as RawExports;
  exports._initialize();
  return exports;
}

/**
 * Load the wasm engine. Call once and await it before creating a world; later calls return the same promise.
 * Rejects with a `SweepPruneError` (code `WasmLoadFailed`) if the module cannot be compiled or instantiated;
 * a failed load can be retried.
 */
export function initWith(source: () => WasmSource | Promise<WasmSource>): Promise<void> {
  if (pending) return pending;
  pending = (async () => {
    try {
      engine = await instantiate(await source());
    } catch (cause) {
      pending = undefined;
      const error = new SweepPruneError(
        'WasmLoadFailed',
        `init: the sweep-prune wasm module failed to load (${(cause as Error)?.message ?? cause}). ` +
          'WebAssembly with SIMD and bulk memory (Node 16.4+, Chrome 91+, Firefox 89+, Safari 16.4+) is required.',
      );
      (error as { cause?: unknown }).cause = cause;
      throw error;
    }
  })();
  return pending;
}

/** The loaded engine; throws `NotInitialized` before `init()` has resolved. */
export function getEngine(): RawExports {
  if (engine === undefined) {
    throw new SweepPruneError('NotInitialized', 'sweep-prune is not initialised: `await init()` once before creating a World or PruneJuice.');
  }
  return engine;
}

/** True once `init()` has resolved. */
export function isInitialized(): boolean {
  return engine !== undefined;
}
