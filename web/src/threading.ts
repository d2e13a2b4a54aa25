// SPDX-License-Identifier: MIT
// What `World` knows of threads: a hook the threaded entry (threads.ts) installs when it loads the threaded module.
// Without it (the default entries, or no shared memory) every world runs on one thread. Kept apart from the worker
// code so that the single-threaded entries bundle none of it.
import { SweepPruneError } from './errors.js';
import type { RawExports } from './raw.js';

/** A world's share of a thread pool (threads-pool.ts). */
export interface PoolShare {
  /** The pool's workers taking part in updates now (inside spPool_Work): 0 until they have started. */
  running(): number;
  /** Throws the `WorkerFailed` error of a worker of the pool, once, and leaves the world on one thread. */
  check(what: string): void;
  /** The world no longer uses the pool (dispose, or a worker failed); the last share stops its workers. */
  release(): void;
}

/** Attaches a world to a pool of `threads` threads; undefined when threads cannot run here. */
export type Threading = (raw: RawExports, world: number, threads: number, what: string) => PoolShare | undefined;

let threading: Threading | undefined;
let unavailable = 'load sweep-prune/threads instead of sweep-prune for threads';
let warned = false;

/** Installed by the threaded entry once its module is loaded; `reason` says why threads are off when it is not. */
export function setThreading(hook: Threading | undefined, reason?: string): void {
  threading = hook;
  if (reason !== undefined) unavailable = reason;
}

/** Checks `options.threads`: an integer from 1 to 64. */
export function checkThreads(what: string, threads: unknown): number {
  if (typeof threads !== 'number' || !Number.isInteger(threads) || threads < 1 || threads > 64) {
    throw new SweepPruneError(
      'InvalidArgument',
      `${what}: options.threads must be an integer from 1 to 64 (the caller's thread included), got ${String(threads)}`,
    );
  }
  return threads;
}

/**
 * A pool share for a world that asked for `threads > 1`, or undefined when it runs on one thread: then the first
 * such world warns once (console.warn) why, and `world.threads` reads 1.
 */
export function attachThreads(raw: RawExports, world: number, threads: number, what: string): PoolShare | undefined {
  if (threads <= 1) return undefined;
  const share = threading?.(raw, world, threads, what);
  if (share === undefined && !warned) {
    warned = true;
    console.warn(`sweep-prune: ${what} asked for ${threads} threads and runs on one: ${unavailable}.`);
  }
  return share;
}
