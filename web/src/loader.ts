// SPDX-License-Identifier: MIT
// Instantiates the bare wasm module (no Emscripten glue). `init()` is memoised; everything after it is synchronous.
import { COPY } from './copy.js';
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
  validate(bytes: ArrayBuffer | ArrayBufferView): boolean;
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

// The copies of the package (ES module, CommonJS) that loaded an engine in this realm, for NotInitialized messages:
// a program that imports and requires the package has two copies, each with its own engine.
const LOADED = Symbol.for('sweep-prune/loaded-copies');
function loadedCopies(): Set<string> {
  const g = globalThis as { [LOADED]?: Set<string> };
  return (g[LOADED] ??= new Set());
}

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

const messageOf = (cause: unknown): string => String((cause as Error | undefined)?.message ?? cause);

async function readLocalFile(source: string | { href: string }): Promise<Uint8Array<ArrayBuffer>> {
  // process.getBuiltinModule (Node 20.16+, 22.3+) instead of `import('node:fs')`, which bundlers would try to resolve
  const fs = nodeProcess?.getBuiltinModule?.('fs/promises') as
    { readFile(path: unknown): Promise<Uint8Array<ArrayBuffer>> } | undefined;
  const name = typeof source === 'string' ? source : source.href;
  if (fs === undefined) {
    throw new Error(`cannot read ${name} here (no fs); pass the bytes instead: init(await readFile(url))`);
  }
  try {
    if (typeof source !== 'string') return await fs.readFile(source);
    const URL = platform.URL as unknown as new (s: string) => object;
    return await fs.readFile(/^file:/i.test(source) && URL ? new URL(source) : source);
  } catch (cause) {
    const missing = (cause as { code?: string })?.code === 'ENOENT';
    throw new Error(missing ? `${name}: file not found` : `reading ${name} failed (${messageOf(cause)})`, { cause });
  }
}

const NEEDS =
  'sweep-prune needs WebAssembly with SIMD and bulk memory (Node 18+, Chrome 91+, Firefox 89+, Safari 16.4+)';
// Two tiny modules, one using SIMD (v128.const), one bulk memory (memory.fill): whether this platform compiles what
// the engine uses, to tell a platform that lacks them from a damaged file.
const SIMD_PROBE = Uint8Array.of(
  ...[0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 22, 1, 20, 0, 253, 12],
  ...new Array<number>(16).fill(0),
  11,
);
const BULK_PROBE = Uint8Array.of(
  ...[0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 5, 3, 1, 0, 1],
  ...[10, 13, 1, 11, 0, 65, 0, 65, 0, 65, 0, 252, 11, 0, 11],
);

// A wasm module that did not compile: a platform without a feature it uses, or a damaged file.
function compileFailed(name: string, cause: unknown): Error {
  const wasm = platform.WebAssembly;
  const lacks = !wasm.validate(SIMD_PROBE) ? 'SIMD' : !wasm.validate(BULK_PROBE) ? 'bulk memory' : undefined;
  return new Error(
    lacks !== undefined
      ? `${name} did not compile: this platform's WebAssembly has no ${lacks}; ${NEEDS}`
      : `${name} did not compile (${messageOf(cause)}): the file is damaged, or not this version's module`,
    { cause },
  );
}

async function compileBytes(bytes: ArrayBuffer | ArrayBufferView, name: string): Promise<WasmModule> {
  const view = ArrayBuffer.isView(bytes)
    ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    : new Uint8Array(bytes);
  if (view[0] !== 0 || view[1] !== 0x61 || view[2] !== 0x73 || view[3] !== 0x6d) {
    const start = JSON.stringify(String.fromCharCode(...view.subarray(0, 16)));
    throw new Error(
      `${name} is not a WebAssembly module (${view.length} bytes, starting ${start}; a web page served in its place?)`,
    );
  }
  try {
    return (await platform.WebAssembly.compile(bytes)) as WasmModule;
  } catch (cause) {
    throw compileFailed(name, cause);
  }
}

/**
 * Compiles the module from any `WasmSource` (sweep-prune/threads also sends it to its workers). A failure says what
 * failed: a file not found, an HTTP status, bytes that are not wasm, or a module the platform cannot compile.
 */
export async function compileSource(source: WasmSource): Promise<WasmModule> {
  const wasm = platform.WebAssembly;
  if (wasm === undefined) throw new Error(`this platform has no WebAssembly (Node run with --jitless?); ${NEEDS}`);
  if (source instanceof wasm.Module) return source as WasmModule;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return compileBytes(source, 'the wasm bytes');
  const address = typeof source === 'string' ? source : isUrl(source) ? source.href : undefined;
  if (address !== undefined && isLocalFile(source as string | { protocol: string })) {
    return compileBytes(await readLocalFile(source as string | { href: string }), address);
  }
  let response: ResponseLike;
  try {
    response = await (address !== undefined
      ? platform.fetch(source)
      : (source as ResponseLike | PromiseLike<ResponseLike>));
  } catch (cause) {
    throw new Error(`fetching ${address ?? 'the Response given'} failed (${messageOf(cause)})`, { cause });
  }
  const name = response.url || address || 'the Response given';
  if (!response.ok) throw new Error(`fetching ${name} failed: HTTP ${response.status}`);
  if (
    typeof wasm.compileStreaming === 'function' &&
    response.headers.get('content-type')?.startsWith('application/wasm')
  ) {
    try {
      return (await wasm.compileStreaming(response)) as WasmModule;
    } catch (cause) {
      throw compileFailed(name, cause);
    }
  }
  return compileBytes(await response.arrayBuffer(), name);
}

/**
 * Instantiates the single-threaded module. Its one import is the notice that malloc grew the memory; the memory then
 * grows again by half its size, so that growths stay rare. They are counted. Where the runtime can, the memory's
 * buffer is made resizable first, so that a growth resizes it in place and ends no view; elsewhere a growth detaches
 * every view (docs/views.md).
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
  const module = await compileSource(source);
  let exports: Omit<RawExports, 'sp_memory_growths'>;
  try {
    const imports = { env: { emscripten_notify_memory_growth: grown } };
    exports = (await platform.WebAssembly.instantiate(module, imports)).exports as typeof exports;
  } catch (cause) {
    throw new Error(`the module did not instantiate (${messageOf(cause)}): not this version's module?`, { cause });
  }
  memory = exports.memory;
  if (typeof memory.toResizableBuffer === 'function') {
    memory.toResizableBuffer();
    exports.sp_keep_on_growth();
  }
  return { ...exports, sp_memory_growths: () => growths };
}

/** What the engine's memory holds now: see `memoryStats` (shared-entry.ts). */
export interface MemoryStats {
  /** Bytes of wasm memory. Starts at 16 MB; never shrinks. */
  bytes: number;
  /** The top of the engine's heap: the most of `bytes` it has used so far (its data and stack below it included). */
  heapBytes: number;
  /** Times the memory grew since `init()`. Unless `viewsSurviveGrowth`, each growth ends every view taken before. */
  growths: number;
  /**
   * True where a growth of memory ends no view: the threaded engine (its memory is shared) and runtimes whose
   * `WebAssembly.Memory` has `toResizableBuffer()` (Chromium 156 has it; Node 20 does not). False: a growth ends
   * every view, and the next `update()` of a world whose `bounds` view it ended throws `StaleView` until
   * `world.bounds` is taken again.
   */
  viewsSurviveGrowth: boolean;
  /** Bytes of blocks kept from reuse because a view of them was handed out (docs/views.md). */
  keptBytes: number;
  /**
   * Times the single-threaded engine ended every view at once to give back the blocks kept for the views of disposed
   * worlds (when they pass an eighth of the memory, and 4 MB). Rare; 0 in the threaded engine, which keeps them.
   */
  releases: number;
}

let releases = 0;

/** Whether a growth of the engine's memory leaves views working: a resizable buffer, or a shared one. */
export function viewsSurviveGrowth(raw: RawExports): boolean {
  const buffer = raw.memory.buffer as ArrayBuffer & { resizable?: boolean };
  return buffer.resizable === true || !(buffer instanceof ArrayBuffer);
}

/**
 * Ends every view of a memory that is not shared: growing it by zero pages detaches a fixed-length buffer; a
 * resizable one is detached by trading it for a fixed-length buffer and back.
 */
function endViews(memory: WasmMemory): void {
  const buffer = memory.buffer as ArrayBuffer & { resizable?: boolean };
  if (buffer.resizable === true && memory.toFixedLengthBuffer !== undefined && memory.toResizableBuffer !== undefined) {
    memory.toFixedLengthBuffer();
    memory.toResizableBuffer();
  } else {
    memory.grow(0);
  }
}

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
    viewsSurviveGrowth: viewsSurviveGrowth(raw),
    keptBytes: raw.sp_quarantined_bytes(),
    releases,
  };
}

/**
 * After a world is disposed: the blocks kept for views (docs/views.md) are bounded for one world's life by its
 * arrays' geometric growth, but not over many worlds. Past a limit, every view is ended at once (only a memory that
 * is not shared can be) and the blocks go back to malloc.
 */
export function releaseKept(raw: RawExports): void {
  const buffer = raw.memory.buffer;
  if (buffer instanceof ArrayBuffer && raw.sp_quarantined_bytes() > Math.max(4 << 20, buffer.byteLength / 8)) {
    endViews(raw.memory);
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

/**
 * `initWith` for an entry that instantiates the module itself (sweep-prune/threads, over shared memory); `ready`, when
 * given, runs once the module is initialised and before `init()` resolves (the threaded entry starts its workers).
 */
export function initWithLoader(
  load: () => Promise<RawExports>,
  ready?: (raw: RawExports) => Promise<void>,
): Promise<void> {
  if (pending) return pending;
  pending = (async () => {
    try {
      const exports = await load();
      exports._initialize();
      await ready?.(exports);
      engine = exports;
      loadedCopies().add(COPY);
    } catch (cause) {
      pending = undefined;
      const error = new SweepPruneError(
        'WasmLoadFailed',
        `init: the sweep-prune wasm module failed to load: ${messageOf(cause)}`,
      );
      // the platform's own error where there is one (CompileError, ENOENT, ...)
      (error as { cause?: unknown }).cause = (cause as { cause?: unknown })?.cause ?? cause;
      throw error;
    }
  })();
  return pending;
}

// The entries that have a CommonJS copy beside the root one: each shares the engine of its copy's root entry.
const ENTRIES = ['box-intersect', 'rbush', 'p2', 'cannon', 'matter', 'phaser', 'planck'];

/**
 * The `NotInitialized` error for `what`, raised through `entry` (the root entry, or a subpath such as `planck`): how
 * to initialise this copy of the package and, when the other copy (ES module or CommonJS) is initialised, that it
 * does not share its engine with this one.
 */
export function notInitialized(what: string, entry?: string): SweepPruneError {
  const cjs = COPY === 'CommonJS';
  const call = cjs
    ? "`await require('sweep-prune').init()`"
    : "`await init()` (import { init } from 'sweep-prune', or from sweep-prune/wasm or sweep-prune/threads)";
  const other = cjs ? 'ES module' : 'CommonJS';
  const otherHow = cjs ? "import from 'sweep-prune'" : "require('sweep-prune')";
  const root = cjs ? "require('sweep-prune')" : "import from 'sweep-prune'";
  const through = cjs ? `require('sweep-prune/${entry}')` : `import from 'sweep-prune/${entry}'`;
  // the entry that raised it when known; else every entry, so the user finds the one in their code
  const thisHow =
    entry !== undefined
      ? `${through}, which uses the engine of ${root}`
      : `${root}, whose engine ${ENTRIES.map((e) => `'sweep-prune/${e}'`).join(', ')} use`;
  const message = loadedCopies().has(other)
    ? `${what}: the ${COPY} copy of sweep-prune (${thisHow}) is not initialised: call ${call} once. The ${other} ` +
      `copy (${otherHow}) is initialised, but the two copies do not share an engine.`
    : `${what}: sweep-prune is not initialised: call ${call} once before creating a World, PruneJuice or broadphase.`;
  return new SweepPruneError('NotInitialized', message);
}

/**
 * The loaded engine; throws `NotInitialized` (naming `what`, and `entry` when the call came through a subpath entry)
 * before `init()` has resolved.
 */
export function getEngine(what = 'sweep-prune', entry?: string): RawExports {
  if (engine === undefined) throw notInitialized(what, entry);
  return engine;
}

/** True once `init()` has resolved. */
export function isInitialized(): boolean {
  return engine !== undefined;
}
