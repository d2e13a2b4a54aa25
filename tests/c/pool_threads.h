// SPDX-License-Identifier: MIT
// Native threads for a pool (tests and benchmark): threads - 1 pthreads running spPool_Work. In a build with no
// threads (the tests compiled to wasm) no worker starts, and the caller's thread does all the work.
#pragma once

#include "sweep_prune/sweep_prune.h"

typedef struct PoolThreads PoolThreads;

/// A pool of `threads` threads with its workers started, or null on failure.
PoolThreads* StartPool( int threads );

/// The pool to hand to spWorld_SetPool.
spPool* PoolOf( PoolThreads* p );

/// The workers started (threads - 1 natively; 0 in a build with no threads).
int PoolWorkersStarted( PoolThreads* p );

/// Wait up to 10 s until spPool_GetRunningWorkerCount is `n`; returns whether it got there.
int WaitForRunningWorkers( PoolThreads* p, int n );

/// Stop the workers, join them and destroy the pool. Null is ignored.
void StopPool( PoolThreads* p );
