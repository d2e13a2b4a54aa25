// SPDX-License-Identifier: MIT
// Private: the update's phases spread over the world's pool (parallel.c). Each phase is cut into tasks (ranges of
// slabs, or of moving boxes), each task writes to its own place, and one pass in task order gathers the outputs,
// so the result is the serial engine's whatever the thread count.
#pragma once

#include "index.h"
#include "pairs.h"

typedef struct spWorld spWorld;

/// One task's output and scratch, kept between updates so that steady state does not allocate.
typedef struct spTask
{
	spPairArray pairs; // the pairs the task found
	float* columns;	   // the 2D sweep's columns for the task's slabs
	int columnsCapacity;
	int tests;
	int failed; // an allocation failed
	int offset; // where the task's output goes in the gathered list
	// a task of the refresh (refresh.c): its incoming entries' room and count, its swaps, its result
	int incomingAt, incomingRoom, incoming, swaps, result;
	// a task of the carry (pairs.c): its ranges of the last update's and this update's place pairs, and counts
	int prevBegin, prevEnd, nextBegin, nextEnd, carried, began, ended;
	// a task of the build's slab sorts (build.c): keys, their places and the sort's temp, for its largest slab
	float* sortKeys;
	uint32_t* sortTemp;
	int* sortOrder;
	int sortCapacity;
	float* packed; // and one slab's entries gathered in sorted order
	uint32_t* packedIds;
	int packedCapacity;
	// a task of the sort of the pairs by id (pairs.c): its counters
	int* counters;
	int countersCapacity;
} spTask;

/// The world's parallel scratch.
typedef struct spParallel
{
	spTask* tasks;
	int taskCapacity;
	int taskCount;
	int* cut; // taskCount + 1: the first slab (or moving box) of each task, then the end
	int cutCapacity;
	// below this many moving boxes, the update runs on the caller alone (threads do not pay); tests lower it
	int minBoxes;
	// tasks per thread: more than one, so a thread that is slowed (a busy machine) does less of the work
	int tasksPerThread;
	// the validation's statistics are summed by chunks of this many slots, with or without a pool (validate.c)
	int statsChunk;
	spAxisStats* chunkStats; // SP_MAX_DIMENSIONS per chunk
	int* chunkValid;
	int chunkCapacity;
} spParallel;

/// Default of spParallel.statsChunk. With fewer slots the sums are the same as one running sum's.
#define SP_STATS_CHUNK ( 1 << 16 )

/// True if this update spreads over the world's pool. A wasm build without atomics (the default module: no shared
/// memory, so no workers) has no parallel update: false at compile time, and the parallel code is left out.
#if defined( __wasm__ ) && !defined( __wasm_atomics__ )
#define SP_PARALLEL			  0
#define spParallelOn( world ) ( (void)( world ), false )
#else
#define SP_PARALLEL 1
bool spParallelOn( const spWorld* world );
#endif

/// Cut the moving boxes' index's slabs into task ranges of about equal entries (parallel.cut, taskCount). Returns
/// false on allocation failure.
bool spCutSlabs( spWorld* world );

/// spCutSlabs for any index of the world.
bool spCutSlabsOf( spWorld* world, const spIndex* index );

/// Where task t of `tasks` begins when `count` units are cut into ranges of equal size (task `tasks`: the end).
static inline int spTaskBegin( int t, int count, int tasks )
{
	return (int)( (long long)count * t / tasks );
}

/// Cut n units (moving boxes, slots) into task ranges of equal size (parallel.cut, taskCount). Returns false on
/// allocation failure.
bool spCutRange( spWorld* world, int n );

/// For a scatter by ranges in task order: tasks 0..tasks-1's counters (counters[k + 1]: the task's count of unit k,
/// a slab or a block) made its cursors (counters[k]: where its first of unit k goes, after the tasks before it),
/// and start[k + 1] where unit k + 1 starts, from start[0].
void spTaskCursors( spParallel* parallel, int tasks, int units, int* start );

/// Reserve `count` tasks. Returns false on allocation failure.
bool spReserveTasks( spParallel* parallel, int count );

/// Reserve the validation's per-chunk statistics for `chunks` chunks, and cut the chunks into task ranges.
/// Returns false on allocation failure.
bool spReserveChunks( spWorld* world, int chunks );

/// The pairs of every moving box with the static boxes, into world->found, in the order of the moving boxes, over
/// the pool.
bool spParallelStaticPairs( spWorld* world );

/// Gather the tasks' pairs (tasks 0..count-1) into `out` in task order, the copies over the pool. Returns false on
/// allocation failure.
bool spGatherTaskPairs( spWorld* world, spPairArray* out, int count );

#if SP_PARALLEL
void spFreeParallel( spParallel* parallel );
size_t spParallelByteCount( const spParallel* parallel, int stride );
#else
// nothing of it is ever allocated
#define spFreeParallel( parallel )				( (void)( parallel ) )
#define spParallelByteCount( parallel, stride ) ( (void)( parallel ), (void)( stride ), (size_t)0 )
#endif
