// SPDX-License-Identifier: MIT
// Private: the thread pool's fork-join (pool.c), what the update hands its parallel phases to.
#pragma once

#include "core.h"

/// One task of a job: task `task` of the job's tasks, run on any of the pool's threads.
typedef void spTaskFcn( void* context, int task );

/// Most tasks one job may have.
#define SP_POOL_MAX_TASKS 4096

/// Run fcn(context, t) for every t in 0..taskCount-1 (at most SP_POOL_MAX_TASKS) and return when all have
/// finished. The caller's thread takes tasks too and never blocks: with no worker running it does them all. A null
/// pool runs them in order on the caller.
void spPoolRun( spPool* pool, spTaskFcn* fcn, void* context, int taskCount );

/// The pool's thread count (the caller's included); 1 for a null pool.
int spPoolThreads( const spPool* pool );
