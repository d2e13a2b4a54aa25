// SPDX-License-Identifier: MIT
// The worker threads of sweep-prune/threads. Worlds with the same `threads` share one pool (the engine's spPool) and
// its `threads - 1` workers: updates run one at a time on the caller's thread, so a pool never serves two at once.
// The last world to release a pool stops it. Each worker instantiates the module over the shared memory with a stack
// of its own, then serves pools one after another (threads-worker.js). `init()` starts spare workers and waits until
// they are ready; a new pool takes spares first, so its first update runs on every thread asked for, and the spares
// are topped up behind it; a stopped pool's workers go back to the spares (up to their number) or end.
import { SweepPruneError } from './errors.js';
import { type RawExports, SCRATCH_OUT } from './raw.js';
import type { PoolShare, Threading } from './threading.js';

/** The bytes of a worker's stack (the caller's thread has the module's 64 KB; a task uses a few KB at most). */
const STACK_BYTES = 128 * 1024;

/** A worker's mailbox in the shared memory: a state word (threads-worker.js IDLE, JOB, EXIT), a pool, an index. */
const MAILBOX_BYTES = 12;
const JOB = 1;
const EXIT = 2;

/** How long making a world waits at most for ready workers to enter its pool before its first update. */
const ENTER_MS = 200;

/** What a worker is told once, when it starts (threads-worker.js reads it). */
export interface WorkerStart {
  module: object;
  memory: object;
  stackTop: number;
  mailbox: number;
}

// A Node worker_threads Worker or a browser Worker, reduced to what a pool needs.
interface WorkerHandle {
  post(message: WorkerStart): void;
  terminate(): void;
}

// A worker thread with its stack and mailbox. It serves one pool at a time, or waits as a spare.
interface Thread {
  handle: WorkerHandle;
  stack: number; // its stack and mailbox, one block
  ready: boolean; // instantiated and waiting on its mailbox
  failed: string | undefined;
  pool: Pool | undefined; // the pool it serves now
  jobEnded: (() => void) | undefined; // resolves the current job's `finished`
  readyEnded: (() => void) | undefined; // resolves the promise startSpares awaits
}

interface Pool {
  readonly threads: number;
  readonly pool: number;
  readonly workers: Thread[];
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
  for (const thread of spares.splice(0)) endThread(thread); // started from the other script
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
    worker.on('message', (m) => {
      const type = (m as { type: string }).type;
      // held until it is ready, which init() awaits; then a script that uses threads exits by itself
      if (type === 'ready' || type === 'error') worker.unref();
      event(type, (m as { message?: string }).message);
    });
    worker.on('error', (e) => event('error', (e as Error)?.message ?? String(e)));
    worker.on('exit', () => {
      liveWorkers--;
      event('exit');
    });
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

// The engine's module and memory, once the threaded module is loaded; the spares: workers started and waiting for a
// pool, so that a world's workers are running before its first update; `spareTarget` of them are kept.
let engine: { raw: RawExports; module: object; memory: object } | undefined;
const spares: Thread[] = [];
let spareTarget = 0;

// Starts a worker with a stack and mailbox of its own; undefined when there is no memory for them.
function startThread(): Thread | undefined {
  const { raw, module, memory } = engine!;
  const stack = raw.malloc(STACK_BYTES + MAILBOX_BYTES);
  if (stack === 0) return undefined;
  const mailbox = stack + STACK_BYTES;
  new Int32Array(raw.memory.buffer, mailbox, 3).fill(0);
  const thread: Thread = {
    handle: { post: () => {}, terminate: () => {} },
    stack,
    ready: false,
    failed: undefined,
    pool: undefined,
    jobEnded: undefined,
    readyEnded: undefined,
  };
  const fail = (message: string): void => {
    thread.failed ??= message;
    lastFailure = message;
    const pool = thread.pool;
    if (pool !== undefined) {
      // a worker that failed never entered spPool_Work, or left it: the caller's thread does its share
      pool.error ??= message;
      if (pools.get(pool.threads) === pool) pools.delete(pool.threads);
    }
    const at = spares.indexOf(thread);
    if (at >= 0) {
      spares.splice(at, 1);
      endThread(thread);
    }
  };
  try {
    thread.handle = spawn((type, detail) => {
      if (type === 'ready') thread.ready = true;
      if (type === 'started') lastFailure = undefined;
      if (type === 'error') fail(detail ?? 'a worker thread failed');
      if (type === 'exit' && !thread.ready) thread.failed ??= 'the worker thread exited';
      if (type === 'ready' || type === 'error' || type === 'exit') thread.readyEnded?.();
      if (type === 'done' || type === 'error' || type === 'exit') thread.jobEnded?.();
    });
  } catch (error) {
    fail((error as Error)?.message ?? String(error));
  }
  thread.handle.post({ module, memory, stackTop: (stack + STACK_BYTES) & ~15, mailbox });
  return thread;
}

// Ends a worker that serves no pool, and frees its stack.
function endThread(thread: Thread): void {
  const raw = engine!.raw;
  const mailbox = new Int32Array(raw.memory.buffer, thread.stack + STACK_BYTES, 1);
  Atomics.store(mailbox, 0, EXIT);
  Atomics.notify(mailbox, 0);
  thread.handle.terminate();
  raw.free(thread.stack);
}

// Tops the spares up to their target; resolves once each has started or failed.
function refillSpares(): Promise<void> {
  const waits: Promise<void>[] = [];
  while (spares.length < spareTarget) {
    const thread = startThread();
    if (thread === undefined) break;
    if (thread.failed !== undefined) {
      endThread(thread);
      break;
    }
    spares.push(thread);
    waits.push(new Promise<void>((end) => (thread.readyEnded = end)));
  }
  return Promise.all(waits).then(() => {});
}

/**
 * Starts `count` spare workers and resolves once each is ready (instantiated, waiting for a pool) or has failed
 * (then `workerFailure()` says why). sweep-prune/threads' `init()` awaits it, so that the workers of the first worlds
 * are running before their first update.
 */
export function startSpares(count: number): Promise<void> {
  spareTarget = count;
  return refillSpares();
}

// Gives a worker the job of pool `pool`, as worker `index`: it enters spPool_Work as soon as it is ready.
function assign(thread: Thread, pool: Pool, index: number): Promise<void> {
  const raw = engine!.raw;
  thread.pool = pool;
  const finished = new Promise<void>((end) => (thread.jobEnded = end));
  if (thread.failed !== undefined) {
    pool.error ??= thread.failed;
    thread.jobEnded!();
    return finished;
  }
  const mailbox = new Int32Array(raw.memory.buffer, thread.stack + STACK_BYTES, 3);
  mailbox[1] = pool.pool;
  mailbox[2] = index;
  Atomics.store(mailbox, 0, JOB);
  Atomics.notify(mailbox, 0);
  return finished;
}

function startPool(raw: RawExports, threads: number, what: string): Pool {
  const out = raw.sp_scratch() + SCRATCH_OUT;
  const r = raw.sp_create_pool!(threads);
  if (r !== 0) {
    throw new SweepPruneError('OutOfMemory', `${what}: the thread pool could not be made (out of wasm memory)`);
  }
  const pool: Pool = {
    threads,
    pool: new Uint32Array(raw.memory.buffer, out, 1)[0]!,
    workers: [],
    finished: [],
    shares: 0,
    error: undefined,
  };
  let ready = 0;
  for (let worker = 1; worker < threads; worker++) {
    const thread = spares.pop() ?? startThread();
    if (thread === undefined) {
      stopPool(raw, pool);
      throw new SweepPruneError('OutOfMemory', `${what}: no room for the stacks of ${threads - 1} workers`);
    }
    if (thread.ready) ready++;
    pool.workers.push(thread);
    pool.finished.push(assign(thread, pool, worker));
  }
  void refillSpares();
  // the ready workers enter the pool within microseconds: wait for them, so that the first update runs on every
  // thread asked for (a browser's main thread may not block: it spins, briefly)
  const deadline = performance.now() + ENTER_MS;
  while (raw.sp_pool_running!(pool.pool) < ready && performance.now() < deadline);
  return pool;
}

// Every worker leaves spPool_Work (a worker still loading returns as soon as it enters); once all have, the pool is
// freed, and each worker that did not fail goes back to the spares (up to their target) or ends.
function stopPool(raw: RawExports, pool: Pool): void {
  if (pools.get(pool.threads) === pool) pools.delete(pool.threads);
  raw.sp_pool_stop!(pool.pool);
  void Promise.all(pool.finished).then(() => {
    raw.sp_destroy_pool!(pool.pool);
    for (const thread of pool.workers) {
      thread.pool = undefined;
      thread.jobEnded = undefined;
      if (thread.failed === undefined && thread.ready && spares.length < spareTarget) spares.push(thread);
      else endThread(thread);
    }
  });
}

const pools = new Map<number, Pool>();

/** The hook `World` calls (threading.ts) once the threaded module is loaded over `memory`. */
export function poolThreading(raw: RawExports, module: object, memory: object): Threading {
  engine = { raw, module, memory };
  return (raw, world, threads, what) => {
    const pool = pools.get(threads) ?? startPool(raw, threads, what);
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
