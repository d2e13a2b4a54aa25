// SPDX-License-Identifier: MIT
// Private: the update's parallel-for over the world's pool (parallel.c). A phase writes its loop over units (slabs,
// moving boxes, pairs, chunks of slots) as a range function, fcn(start, end, task, context), and spParallelFor runs
// it: cut into ranges on the pool's threads when the update runs in parallel, else as the one range 0..count on the
// caller. Each range writes to its own task (its pairs, its spans of a shared list, its scratch), and one pass in
// range order gathers the outputs (spParallelPairs, spGatherSpans), so the result is the serial engine's whatever
// the thread count.
#pragma once

#include "index.h"
#include "pairs.h"

typedef struct spWorld spWorld;

/// Where a range wrote into a list shared by the ranges: `count` elements from place `at`.
typedef struct spSpan
{
	int at, count;
} spSpan;

/// A range's record: its outputs and scratch, kept between updates so that steady state does not allocate.
typedef struct spTask
{
	int range;		   // which range of the cut it runs (0 for the one range on the caller)
	int failed;		   // its range function returned false
	spPairArray pairs; // the pairs it appends (spParallelPairs)
	spSpan spans[2];   // where it wrote into lists shared by the ranges: began and ended, incoming, its pairs' place
	int count;		   // a count of its own: the sweep's candidate tests, the refresh's swaps, the chunks validated
	int room, result;  // the refresh's: its incoming room, and its result (spRefreshEntries's)
	void* scratch;	   // scratch of any phase (spTaskScratch)
	int scratchBytes;
} spTask;

/// The world's parallel state: the ranges of the last cut and their records.
typedef struct spParallel
{
	spTask* tasks;	  // the records of a cut into several ranges
	int* cut;		  // the first unit of each range, then the end
	int taskCapacity; // of both
	int ranges;		  // of the last cut; one range runs on the caller over units 0..units-1, with `solo`
	int units;
	spTask solo; // the record of the one range (no pool, too few units, or no room for more records)
	// below this many moving boxes, the update runs on the caller alone (threads do not pay); tests lower it
	int minBoxes;
	// ranges per thread: more than one, so a thread that is slowed (a busy machine) does less of the work
	int tasksPerThread;
	// the validation's statistics are summed by chunks of this many slots, with or without a pool (validate.c)
	int statsChunk;
} spParallel;

/// Default of spParallel.statsChunk. With fewer slots the sums are the same as one running sum's.
#define SP_STATS_CHUNK ( 1 << 16 )

/// True if this update spreads over the world's pool. A wasm build without atomics (the default module: no shared
/// memory, so no workers) has no parallel update: false at compile time, and the phases' parallel forms are left out.
#if defined( __wasm__ ) && !defined( __wasm_atomics__ )
#define SP_PARALLEL			  0
#define spParallelOn( world ) ( (void)( world ), false )
#else
#define SP_PARALLEL 1
bool spParallelOn( const spWorld* world );
#endif

/// A range of a parallel-for: units start..end-1, with its record. Returns false on allocation failure.
typedef bool spRangeFcn( int start, int end, spTask* task, void* context );

/// The range count of the last cut: 1 in a build with no parallel update.
static inline int spRanges( const spParallel* parallel )
{
	return SP_PARALLEL ? parallel->ranges : 1;
}

/// The record of range r of the last cut.
static inline spTask* spRangeTask( spParallel* parallel, int r )
{
	return spRanges( parallel ) == 1 ? &parallel->solo : &parallel->tasks[r];
}

/// Run fcn as the one range 0..units-1 on the caller (the cut made that range).
static inline bool spOneRange( spParallel* parallel, spRangeFcn* fcn, int units, void* context )
{
	parallel->ranges = 1;
	parallel->units = units;
	return fcn( 0, units, &parallel->solo, context );
}

/// spOneRange for a loop that appends pairs: the range appends to `out` itself.
static inline bool spOneRangePairs( spParallel* parallel, spRangeFcn* fcn, int units, spPairArray* out, void* context )
{
	parallel->solo.pairs = *out;
	const bool ok = spOneRange( parallel, fcn, units, context );
	*out = parallel->solo.pairs;
	memset( &parallel->solo.pairs, 0, sizeof( parallel->solo.pairs ) );
	return ok;
}

#if SP_PARALLEL
/// Cut units 0..count-1 into ranges of equal size for the world's pool, `perThread` per thread (0: tasksPerThread),
/// at most one a unit; into the one range 0..count when the update runs on the caller alone (spParallelOn), or when
/// the ranges' records cannot be had. Returns the range count.
int spCutUnits( spWorld* world, int count, int perThread );

/// spCutUnits for units whose items start at start[0] = 0, start[1], ... start[units] (the total), cut into ranges of
/// about equal items.
int spCutByStarts( spWorld* world, const int* start, int units, int perThread );

/// spCutUnits for the slabs of `index`, cut into ranges of about equal entries.
int spCutSlabs( spWorld* world, const spIndex* index );

/// Run fcn on every range of the last cut, at once on the pool's threads (one range: on the caller), and return when
/// all have run: true if each returned true.
bool spRunRanges( spWorld* world, spRangeFcn* fcn, void* context );

/// The parallel-for: units 0..count-1 cut (spCutUnits), then run (spRunRanges).
bool spParallelFor( spWorld* world, spRangeFcn* fcn, int count, int perThread, void* context );

/// The parallel-for over the slabs of `index` (spCutSlabs).
bool spParallelForSlabs( spWorld* world, const spIndex* index, spRangeFcn* fcn, void* context );

/// spParallelPairs over the slabs of `index` with the ranges' lists kept in `kept` (pairs.h), not copied into one:
/// each range's list is swapped with the one kept there before, which is free, and `one` is emptied. With one range,
/// `one` gets the pairs itself and kept->ranges is 0. Returns false on allocation failure.
bool spParallelKeepPairs( spWorld* world, spRangeFcn* fcn, const spIndex* index, spPairArray* one, spPlaceRanges* kept,
						  void* context );

/// The parallel-for of a loop that appends pairs, over units 0..count-1 (or, with `slabs`, over its slabs): each
/// range appends to its record's pairs, then the lists are appended to `out` in range order; the one range on the
/// caller appends to `out` itself. Returns false on allocation failure.
bool spParallelPairs( spWorld* world, spRangeFcn* fcn, int count, const spIndex* slabs, spPairArray* out,
					  void* context );
#else
// No parallel update in this build: every loop runs as its one range on the caller, its range function called
// directly (so inlined into its phase, which compiles as its serial loop).
#define spCutUnits( world, count, perThread ) ( (void)( perThread ), ( world )->parallel.units = ( count ), 1 )
#define spCutSlabs( world, index )			  ( ( world )->parallel.units = ( index )->slabCount, 1 )
#define spCutByStarts( world, start, count, perThread )                                                                \
	( (void)( start ), (void)( perThread ), ( world )->parallel.units = ( count ), 1 )
#define spRunRanges( world, fcn, context )                                                                             \
	spOneRange( &( world )->parallel, ( fcn ), ( world )->parallel.units, ( context ) )
#define spParallelFor( world, fcn, count, perThread, context )                                                         \
	( (void)( perThread ), spOneRange( &( world )->parallel, ( fcn ), ( count ), ( context ) ) )
#define spParallelForSlabs( world, index, fcn, context )                                                               \
	spOneRange( &( world )->parallel, ( fcn ), ( index )->slabCount, ( context ) )
static inline int spSlabsOr( const spIndex* slabs, int count )
{
	return slabs != NULL ? slabs->slabCount : count;
}
#define spParallelPairs( world, fcn, count, slabs, out, context )                                                      \
	spOneRangePairs( &( world )->parallel, ( fcn ), spSlabsOr( ( slabs ), ( count ) ), ( out ), ( context ) )
#define spParallelKeepPairs( world, fcn, index, one, kept, context )                                                   \
	( ( kept )->ranges = 0,                                                                                            \
	  spOneRangePairs( &( world )->parallel, ( fcn ), ( index )->slabCount, ( one ), ( context ) ) )
#endif

/// Move the ranges' spans of list `list` (spTask.spans[list]) in `data`, elements of `size` bytes, together in range
/// order to the start of `data` (a span never starts before the total of the spans before it). Returns the total.
int spGatherSpans( spParallel* parallel, int list, void* data, size_t size );

/// For a scatter by ranges in range order: each range's counts (its scratch ints: the count of unit k at k + 1) made
/// its cursors (at k: where its first of unit k goes, after the ranges before it), and start[k + 1] where unit k + 1
/// starts, from start[0].
void spRangeCursors( spParallel* parallel, int units, int* start );

/// At least `bytes` of scratch of a task, its contents kept, or null on allocation failure.
void* spTaskScratch( spTask* task, size_t bytes );

void spFreeParallel( spParallel* parallel );
size_t spParallelByteCount( const spParallel* parallel );
