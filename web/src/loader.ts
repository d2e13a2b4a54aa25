// SPDX-License-Identifier: MIT
// Instantiates the bare wasm module (no Emscripten glue). `init()` is memoised; everything after it is synchronous.
import { SweepPruneError } from './errors.js';
import type { RawExports, WasmMemory } from './raw.js';

// The platform's own types where the project has them (lib "dom", @types/node), and nothing otherwise, so that the
// published types compile in a project with or without the DOM library.
type Global = typeof globalThis;
/** `WebAssembly.Module` where the platform's types declare it. */
export type WasmModule = Global extends { WebAssembly: { Module: { prototype: infer M } } } ? M : never;
/** `Response` where the platform's types declare it (lib "dom", or Node 18+'s types). */
export type WasmResponse = Global extends { Response: { prototype: infer R } } ? R : never;
/** `URL` where the platform's types declare it. */
export type WasmUrl = Global extends { URL: { prototype: infer U } } ? U : never;

/** What `init` accepts: nothing (the embedded module), wasm bytes, a compiled module, or a fetch Response / URL. */
export type WasmSource =
  ArrayBuffer | ArrayBufferView | WasmModule | WasmResponse | PromiseLike<WasmResponse> | WasmUrl | string;

// The part of the WebAssembly and fetch APIs this file uses, declared here for the same reason.
interface ResponseLike {
  readonly ok: boolean;
  readonly status: number;
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  arrayBuffer(): Promise<ArrayBuffer>;
}
interface WasmInstance {
  readonly exports: unknown;
}
interface WasmApi {
  readonly Module: abstract new (...args: never[]) => object;
  compile(bytes: ArrayBuffer | ArrayBufferView): Promise<object>;
  compileStreaming?(response: ResponseLike): Promise<object>;
  instantiate(module: object, imports: object): Promise<WasmInstance>;
}
const platform = globalThis as unknown as {
  WebAssembly: WasmApi;
  URL?: abstract new (...args: never[]) => object;
  fetch(url: unknown): Promise<ResponseLike>;
};

let engine: RawExports | undefined;
let pending: Promise<void> | undefined;

type NodeProcess = { getBuiltinModule?: (id: string) => unknown; versions?: { node?: string } };
const nodeProcess = (globalThis as { process?: NodeProcess }).process;
const inBrowser = typeof (globalThis as { location?: unknown }).location === 'object';

/**
 * Whether a URL or path names a file on disk: a `file:` URL, or, outside browsers, a string that is not an absolute
 * URL. Node's `fetch` rejects both ("fetch failed" / "Failed to parse URL"), so these are read with `fs` instead.
 */
function isUrl(source: unknown): source is { protocol: string; href: string } {
  return platform.URL !== undefined && source instanceof platform.URL;
}

function isLocalFile(source: string | { protocol: string }): boolean {
  if (typeof source !== 'string') return source.protocol === 'file:';
  if (/^file:/i.test(source)) return true;
  return !inBrowser && nodeProcess?.versions?.node !== undefined && !/^[a-z][a-z0-9+.-]*:/i.test(source);
}

async function readLocalFile(source: string | { href: string }): Promise<Uint8Array<ArrayBuffer>> {
  // process.getBuiltinModule (Node 20.16+, 22.3+) instead of `import('node:fs')`, which bundlers would try to resolve
  const fs = nodeProcess?.getBuiltinModule?.('fs/promises') as
    { readFile(path: unknown): Promise<Uint8Array<ArrayBuffer>> } | undefined;
  if (fs === undefined) {
    throw new Error(`cannot read ${String(source)} here; pass the bytes instead: init(await readFile(url))`);
  }
  if (typeof source !== 'string') return fs.readFile(source);
  return fs.readFile(
    /^file:/i.test(source) && platform.URL
      ? new (platform.URL as unknown as new (s: string) => object)(source)
      : source,
  );
}

/** Compiles the module from any `WasmSource` (sweep-prune/threads also sends it to its workers). */
export async function compileSource(source: WasmSource): Promise<WasmModule> {
  const wasm = platform.WebAssembly;
  if (source instanceof wasm.Module) return source as WasmModule;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return (await wasm.compile(source)) as WasmModule;
  if ((typeof source === 'string' || isUrl(source)) && isLocalFile(source)) {
    return (await wasm.compile(await readLocalFile(source))) as WasmModule;
  }
  const response = await (typeof source === 'string' || isUrl(source)
    ? platform.fetch(source)
    : (source as ResponseLike | PromiseLike<ResponseLike>));
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${response.url}`);
  const streaming =
    typeof wasm.compileStreaming === 'function' && response.headers.get('content-type')?.startsWith('application/wasm');
  return (
    streaming ? await wasm.compileStreaming!(response) : await wasm.compile(await response.arrayBuffer())
  ) as WasmModule;
}

/**
 * Instantiates the single-threaded module. Its one import is the notice that malloc grew the memory; the memory then
 * grows again by half its size, so that growths, which detach every view (docs/views.md), stay rare. They are counted.
 */
export async function instantiate(source: WasmSource): Promise<RawExports> {
  let memory: WasmMemory | undefined;
  let growths = 0;
  const grown = (): void => {
    growths += 1;
    try {
      memory!.grow(Math.ceil(memory!.buffer.byteLength / 65536 / 2));
    } catch {
      // near the maximum: the growth malloc asked for is enough
    }
  };
  const instance = await platform.WebAssembly.instantiate(await compileSource(source), {
    env: { emscripten_notify_memory_growth: grown },
  });
  const exports = instance.exports as Omit<RawExports, 'sp_memory_growths'>;
  memory = exports.memory;
  return { ...exports, sp_memory_growths: () => growths };
}

/** What the engine's memory holds now: see `memoryStats` (shared-entry.ts). */
export interface MemoryStats {
  /** Bytes of wasm memory. Starts at 16 MB; never shrinks. */
  bytes: number;
  /** The top of the engine's heap: the most of `bytes` it has used so far (its data and stack below it included). */
  heapBytes: number;
  /** Times the memory grew since `init()`. In the single-threaded engine each growth ends every view taken before. */
  growths: number;
  /** Bytes of blocks kept from reuse because a view of them was handed out (docs/views.md). */
  keptBytes: number;
  /**
   * Times the single-threaded engine ended every view at once to give back the blocks kept for the views of disposed
   * worlds (when they pass an eighth of the memory, and 4 MB). Rare; 0 in the threaded engine, which keeps them.
   */
  releases: number;
}

let releases = 0;

/**
 * The engine's memory: its size, how many times it grew, and what is kept for views handed out.
 * @throws SweepPruneError `NotInitialized`
 */
export function memoryStats(): MemoryStats {
  const raw = getEngine();
  return {
    bytes: raw.memory.buffer.byteLength,
    heapBytes: raw.sp_heap_top(),
    growths: raw.sp_memory_growths(),
    keptBytes: raw.sp_quarantined_bytes(),
    releases,
  };
}

/**
 * After a world is disposed: the blocks kept for views (docs/views.md) are bounded for one world's life by its
 * arrays' geometric growth, but not over many worlds. Past a limit, every view is ended at once (a memory that is not
 * shared is detached by growing it by zero pages) and the blocks go back to malloc.
 */
export function releaseKept(raw: RawExports): void {
  const buffer = raw.memory.buffer;
  if (buffer instanceof ArrayBuffer && raw.sp_quarantined_bytes() > Math.max(4 << 20, buffer.byteLength / 8)) {
    raw.memory.grow(0);
    raw.sp_release_kept();
    releases += 1;
  }
}

/**
 * Load the wasm engine. Call once and await it before creating a world; later calls return the same promise.
 * Rejects with a `SweepPruneError` (code `WasmLoadFailed`) if the module cannot be compiled or instantiated;
 * a failed load can be retried.
 */
export function initWith(source: () => WasmSource | Promise<WasmSource>): Promise<void> {
  return initWithLoader(async () => instantiate(await source()));
}

/** `initWith` for an entry that instantiates the module itself (sweep-prune/threads, over shared memory). */
export function initWithLoader(load: () => Promise<RawExports>): Promise<void> {
  if (pending) return pending;
  pending = (async () => {
    try {
      const exports = await load();
      exports._initialize();
      engine = exports;
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
    throw new SweepPruneError(
      'NotInitialized',
      'sweep-prune is not initialised: `await init()` once before creating a World or PruneJuice.',
    );
  }
  return engine;
}

/** True once `init()` has resolved. */
export function isInitialized(): boolean {
  return engine !== undefined;
}
