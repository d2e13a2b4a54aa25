// SPDX-License-Identifier: MIT
// The worker threads of sweep-prune/threads. Worlds with the same `threads` share one pool (the engine's spPool) and
// its `threads - 1` workers: updates run one at a time on the caller's thread, so a pool never serves two at once.
// The last world to release a pool stops its workers. Each worker instantiates the module over the shared memory
// with a stack of its own and stays in spPool_Work (threads-worker.js).
import { SweepPruneError } from './errors.js';
import { type RawExports, SCRATCH_OUT } from './raw.js';
import type { PoolShare, Threading } from './threading.js';

/** The bytes of a worker's stack (the caller's thread has the module's 64 KB; a task uses a few KB at most). */
const STACK_BYTES = 128 * 1024;

/** What a worker is told (threads-worker.js reads it). */
export interface WorkerStart {
  module: object;
  memory: object;
  pool: number;
  worker: number;
  stackTop: number;
}

// A Node worker_threads Worker or a browser Worker, reduced to what a pool needs.
interface WorkerHandle {
  post(message: WorkerStart): void;
  terminate(): void;
}

interface Pool {
  readonly threads: number;
  readonly pool: number;
  readonly stacks: number[];
  readonly workers: WorkerHandle[];
  // one per worker: resolves when the worker has left spPool_Work for good (returned, failed or exited)
  readonly finished: Promise<void>[];
  shares: number;
  error: string | undefined;
}

type NodeWorkerThreads = {
  Worker: new (
    url: URL,
    options: { execArgv: string[] },
  ) => {
    on(event: string, fn: (value: unknown) => void): void;
    postMessage(message: unknown): void;
    terminate(): Promise<number>;
    unref(): void;
  };
};
const nodeProcess = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
const inBrowser = typeof (globalThis as { window?: unknown }).window === 'object';

/** Workers made and not yet ended (in Node: not yet exited), for tests: a disposed world's end soon after. */
let liveWorkers = 0;
export function liveWorkerCount(): number {
  return liveWorkers;
}

/**
 * Why the last worker to start or fail failed, or undefined when it started (or none has tried): what
 * `isThreaded()` and `threadsUnavailableReason()` of sweep-prune/threads report.
 */
let lastFailure: string | undefined;
export function workerFailure(): string | undefined {
  return lastFailure;
}

// The worker script; tests point it elsewhere to make workers fail
const defaultWorkerUrl = (): URL => new URL('./threads-worker.js', import.meta.url);
let workerUrl = defaultWorkerUrl;
export function setWorkerUrlForTests(url: (() => URL) | undefined): void {
  workerUrl = url ?? defaultWorkerUrl;
}

// Starts a worker; `event` receives its messages ('started', 'done', 'error') and its failures.
function spawn(event: (type: string, detail?: string) => void): WorkerHandle {
  const nodeThreads = inBrowser ? undefined : (nodeProcess?.getBuiltinModule?.('worker_threads') as NodeWorkerThreads);
  if (nodeThreads !== undefined) {
    // No flags of the program: a worker inherits process.execArgv, and some flags make it fail to start (--input-type
    // of `node -e`, test runners' and loaders' flags). The worker script has no imports, so it needs none of them;
    // V8's flags (memory, wasm) are the process's and apply to workers anyway.
    const worker = new nodeThreads.Worker(workerUrl(), { execArgv: [] });
    liveWorkers++;
    worker.on('message', (m) => event((m as { type: string }).type, (m as { message?: string }).message));
    worker.on('error', (e) => event('error', (e as Error)?.message ?? String(e)));
    worker.on('exit', () => {
      liveWorkers--;
      event('exit');
    });
    worker.unref(); // after the listeners (which ref it): a script that uses threads exits by itself
    return { post: (m) => worker.postMessage(m), terminate: () => void worker.terminate() };
  }
  // the literal form bundlers recognise, and emit threads-worker.js as an asset
  const worker =
    workerUrl === defaultWorkerUrl
      ? new Worker(new URL('./threads-worker.js', import.meta.url), { type: 'module' })
      : new Worker(workerUrl(), { type: 'module' });
  liveWorkers++;
  worker.onmessage = (e: MessageEvent) => event(e.data.type, e.data.message);
  worker.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    event('error', e.message || 'the worker script failed to load');
  };
  let ended = false;
  return {
    post: (m) => worker.postMessage(m),
    terminate: () => {
      worker.terminate();
      if (!ended) liveWorkers--;
      ended = true;
    },
  };
}

function startPool(raw: RawExports, module: object, memory: object, threads: number, what: string): Pool {
  const out = raw.sp_scratch() + SCRATCH_OUT;
  const r = raw.sp_create_pool!(threads);
  if (r !== 0) {
    throw new SweepPruneError('OutOfMemory', `${what}: the thread pool could not be made (out of wasm memory)`);
  }
  const pool: Pool = {
    threads,
    pool: new Uint32Array(raw.memory.buffer, out, 1)[0]!,
    stacks: [],
    workers: [],
    finished: [],
    shares: 0,
    error: undefined,
  };
  for (let worker = 1; worker < threads; worker++) {
    const stack = raw.malloc(STACK_BYTES);
    if (stack === 0) {
      stopPool(raw, pool);
      throw new SweepPruneError('OutOfMemory', `${what}: no room for the stacks of ${threads - 1} workers`);
    }
    pool.stacks.push(stack);
    let handle: WorkerHandle;
    const finished = new Promise<void>((end) => {
      try {
        handle = spawn((type, detail) => {
          if (type === 'started') lastFailure = undefined;
          if (type === 'error') {
            // a worker that failed never entered spPool_Work, or left it: the caller's thread does its share
            lastFailure = detail ?? 'a worker thread failed';
            pool.error ??= lastFailure;
            if (pools.get(threads) === pool) pools.delete(threads);
          }
          if (type === 'done' || type === 'error' || type === 'exit') end();
        });
      } catch (error) {
        lastFailure = (error as Error)?.message ?? String(error);
        pool.error ??= lastFailure;
        handle = { post: () => {}, terminate: () => {} };
        end();
      }
    });
    pool.finished.push(finished);
    pool.workers.push(handle!);
    handle!.post({ module, memory, pool: pool.pool, worker, stackTop: (stack + STACK_BYTES) & ~15 });
  }
  return pool;
}

// Every worker leaves spPool_Work (a worker still loading returns as soon as it enters); once all have, the pool
// and the stacks are freed and the workers ended.
function stopPool(raw: RawExports, pool: Pool): void {
  if (pools.get(pool.threads) === pool) pools.delete(pool.threads);
  raw.sp_pool_stop!(pool.pool);
  void Promise.all(pool.finished).then(() => {
    for (const worker of pool.workers) worker.terminate();
    raw.sp_destroy_pool!(pool.pool);
    for (const stack of pool.stacks) raw.free(stack);
  });
}

const pools = new Map<number, Pool>();

/** The hook `World` calls (threading.ts) once the threaded module is loaded over `memory`. */
export function poolThreading(module: object, memory: object): Threading {
  return (raw, world, threads, what) => {
    const pool = pools.get(threads) ?? startPool(raw, module, memory, threads, what);
    pools.set(threads, pool);
    const r = raw.sp_set_pool!(world, pool.pool);
    if (r !== 0) {
      if (pool.shares === 0) stopPool(raw, pool);
      throw new SweepPruneError('OutOfMemory', `${what}: the world could not take the thread pool (${r})`);
    }
    pool.shares++;
    let released = false;
    let reported = false;
    const share: PoolShare = {
      running: () => raw.sp_pool_running!(pool.pool),
      check(what: string): void {
        if (pool.error === undefined || reported) return;
        reported = true;
        throw new SweepPruneError(
          'WorkerFailed',
          `${what}: a worker thread of this world failed (${pool.error}); nothing was changed, and the world ` +
            'goes on with one thread (world.threads is 1). Check that threads-worker.js is served beside the module.',
        );
      },
      release(): void {
        if (released) return;
        released = true;
        raw.sp_set_pool!(world, 0); // InvalidWorld after dispose: nothing to detach
        if (--pool.shares === 0) stopPool(raw, pool);
      },
    };
    return share;
  };
}
