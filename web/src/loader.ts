// SPDX-License-Identifier: MIT
// Instantiates the bare wasm module (no Emscripten glue). `init()` is memoised; everything after it is synchronous.
import { COPY } from './copy.js';
import { SweepPruneError } from './errors.js';
import type { RawExports } from './raw.js';

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
let releases = 0;
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

/** Instantiates the single-threaded module (its only import is a no-op growth notice). */
export async function instantiate(source: WasmSource): Promise<RawExports> {
  const imports = { env: { emscripten_notify_memory_growth: () => {} } };
  const instance = await platform.WebAssembly.instantiate(await compileSource(source), imports);
  return instance.exports as RawExports;
}

/**
 * After a call that may have freed or moved engine memory: detach every typed-array view taken before, by growing
 * the memory by zero pages (which detaches its buffer). A kept view then reads as empty and writes to it are
 * dropped; it can never write into memory the engine has since reused.
 */
export function dropStaleViews(raw: RawExports): void {
  const n = raw.sp_release_count();
  if (n !== releases) {
    releases = n;
    raw.memory.grow(0);
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
      releases = exports.sp_release_count();
      engine = exports;
      loadedCopies().add(COPY);
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

/**
 * The `NotInitialized` error for `what`: how to initialise this copy of the package and, when the other copy (ES
 * module or CommonJS) is initialised, that it does not share its engine with this one.
 */
export function notInitialized(what: string): SweepPruneError {
  const cjs = COPY === 'CommonJS';
  const call = cjs
    ? "`await require('sweep-prune').init()`"
    : "`await init()` (import { init } from 'sweep-prune', or from sweep-prune/wasm or sweep-prune/threads)";
  const other = cjs ? 'ES module' : 'CommonJS';
  const otherHow = cjs ? "import from 'sweep-prune'" : "require('sweep-prune')";
  const thisHow = cjs
    ? "require('sweep-prune'), which require('sweep-prune/matter'), '/p2', '/cannon' and '/box-intersect' use"
    : "import from 'sweep-prune' and its other entries";
  const message = loadedCopies().has(other)
    ? `${what}: the ${COPY} copy of sweep-prune (${thisHow}) is not initialised: call ${call} once. The ${other} ` +
      `copy (${otherHow}) is initialised, but the two copies do not share an engine.`
    : `${what}: sweep-prune is not initialised: call ${call} once before creating a World, PruneJuice or broadphase.`;
  return new SweepPruneError('NotInitialized', message);
}

/** The loaded engine; throws `NotInitialized` (naming `what`) before `init()` has resolved. */
export function getEngine(what = 'sweep-prune'): RawExports {
  if (engine === undefined) throw notInitialized(what);
  return engine;
}

/** True once `init()` has resolved. */
export function isInitialized(): boolean {
  return engine !== undefined;
}
