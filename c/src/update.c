// SPDX-License-Identifier: MIT
// The frame, spUpdateWorld, in six steps:
//   1. validate every box and gather the moving boxes' axis statistics      validate.c
//   2. rebuild the static boxes' index if one of them changed               build.c
//   3. refresh the moving boxes' index in place (on one thread, sweeping each slab a few slabs behind), or rebuild it
//                                                                           refresh.c, build.c (spRefreshOrRebuild)
//   4. sweep it for the moving pairs unless the refresh did (with a pool, a refreshed slab merged just before); query
//      the static index per mover                                           sweep.c, refresh.c, index.c
//   5. make the public pairs and the began and ended events                 pairs.c, pair_sort.c
//   6. counters
//
// Why not the textbook form (insertion-sorted endpoint lists on every axis, pair events on every swap): on a
// uniform 2D scene the projections of n boxes on one axis overlap about n^1.5 times, and every one of those
// overlaps is a swap and a pair-table operation as boxes move. Here the work is O(n + swaps + candidates):
// insertion sorts keep each slab sorted for O(n + swaps) on coherent frames (a rebuild otherwise), and slabs
// keep the candidates (pairs overlapping on the sweep axis and sharing a slab) close to the real pairs.
// Static boxes cost nothing while they stay still beyond a comparison of their bounds with a cached copy.
// The engine's design, file by file and step by step: docs/design.md.
#include "update.h"

#include "build.h"
#include "index.h"
#include "pairs.h"
#include "parallel.h"
#include "refresh.h"
#include "sweep.h"
#include "validate.h"
#include "world.h"

#include <math.h>
#include <string.h>

// The refresh's budgets, past which it gives up for a rebuild: insertion-sort swaps (SWAPS_PER_BOX per moving
// box, plus SWAPS_BASE) and entries that reach a new slab (half the moving boxes, plus INCOMING_BASE). A give-up
// costs up to a pass over the entries (7% of a one-shot frame at 100k and 1M), so after one the next update tries
// again (one incoherent frame, a teleport, costs one rebuild), and after each further one in a row the tries wait
// twice as many updates, 1, 3, then at most BACKOFF_MAX.
enum
{
	SP_REFRESH_SWAPS_PER_BOX = 8,
	SP_REFRESH_SWAPS_BASE = 1024,
	SP_REFRESH_INCOMING_BASE = 64,
	SP_REFRESH_BACKOFF_MAX = 7
};

SP_COLD static spResult spRebuildStatics( spWorld* w )
{
	const int d = w->dimensions;
	const int stride = w->stride;
	spCompactStatics( w );
	const int n = w->staticCount;
	spAxisStats stats[SP_MAX_DIMENSIONS];
	spGatherStats( w, w->statics, n, stats );
	if ( !spGrow( (void**)&w->staticCache, &w->staticCacheCapacity, n * stride, sizeof( float ) ) )
		return sp_resultOutOfMemory;
	int axis = 0, slabAxis = -1;
	spChooseAxes( stats, d, n, -1, &axis, &slabAxis );
	if ( !spBuildIndex( &w->staticIndex, &w->buildScratch, w, w->statics, n, axis, slabAxis, stats ) )
		return sp_resultOutOfMemory;
	for ( int i = 0; i < n; ++i )
	{
		memcpy( w->staticCache + (size_t)i * stride, w->bounds + (size_t)w->statics[i] * stride,
				sizeof( float ) * (size_t)stride );
	}
	w->staticDirty = 0;
	return sp_resultOk;
}

// True if the index's slabs still suit the boxes of `stats`: the same sweep and slab axes, a slab count within a
// third of the one a rebuild would choose, and the slab axis's extent within a tenth of the slabs' span.
SP_COLD static bool spSlabsStillFit( const spIndex* index, const spAxisStats* stats, int n, int axis, int slabAxis )
{
	int count, planAxis;
	float lo, scale;
	spPlanSlabs( stats, n, axis, slabAxis, &count, &planAxis, &lo, &scale );
	if ( index->axis != axis || index->slabAxis != planAxis )
	{
		return false;
	}
	if ( count == 1 || index->slabCount == 1 )
	{
		return count == index->slabCount;
	}
	if ( 4 * count < 3 * index->slabCount || 3 * count > 4 * index->slabCount )
	{
		return false;
	}
	const double span = index->slabCount / (double)index->slabScale;
	const double hi = (double)index->slabLo + span;
	return fabs( (double)stats[planAxis].lo - (double)index->slabLo ) <= 0.1 * span &&
		   fabs( (double)stats[planAxis].hi - hi ) <= 0.1 * span;
}

// The index version after v: never 0, which stands for none (placePairsVersion).
static inline uint32_t spNextIndexVersion( uint32_t v )
{
	return v == UINT32_MAX ? 1u : v + 1u;
}

// The moving boxes' index brought up to date: refreshed in place on a coherent frame (insertion sorts within each
// slab, O(n + swaps); boxes added, removed or switched are merged into or dropped from their slabs) when its slabs
// still fit the boxes and no back-off wait runs, otherwise rebuilt (the boxes bucketed into slabs in slot order,
// each slab sorted in cache). On a rebuild's allocation failure the last update's index is intact, so queries
// still answer from it.
static spResult spRefreshOrRebuild( spWorld* w, const spAxisStats* stats, int filtered, spCounters* c )
{
	const int n = w->orderCount;
	spIndex* dynamic = &w->dynamicIndex;
	const int previousAxis = dynamic->axis;
	int axis = 0, slabAxis = -1;
	spChooseAxes( stats, w->dimensions, n, previousAxis, &axis, &slabAxis );
	int refreshed = 0;
	const int tryRefresh = w->refreshWait == 0;
	w->refreshWait -= w->refreshWait > 0;
	if ( n > 0 && tryRefresh && dynamic->entryCount > 0 && axis == previousAxis &&
		 spSlabsStillFit( dynamic, stats, n, axis, slabAxis ) )
	{
		const int swapBudget = SP_REFRESH_SWAPS_PER_BOX * n + SP_REFRESH_SWAPS_BASE;
		const int incomingLimit = n / 2 + SP_REFRESH_INCOMING_BASE;
		int swaps = 0;
		const spRefreshResult r =
			spRefreshIndex( dynamic, &w->refreshScratch, w, swapBudget, incomingLimit, filtered, &swaps );
		if ( r == spRefreshOutOfMemory )
			return sp_resultOutOfMemory;
		if ( r == spRefreshDone )
		{
			refreshed = 1;
			w->refreshBackoff = 0;
			// the refresh maps the places before to those after only for a world that makes events
			w->remapFromVersion = w->noEvents ? 0 : w->indexVersion;
			w->indexVersion = spNextIndexVersion( w->indexVersion );
			w->remapToVersion = w->indexVersion;
			c->swaps = swaps;
			c->refreshed = 1;
		}
		else
		{
			const int b = w->refreshBackoff;
			w->refreshWait = b;
			w->refreshBackoff = b == 0 ? 1 : 2 * b + 1 < SP_REFRESH_BACKOFF_MAX ? 2 * b + 1 : SP_REFRESH_BACKOFF_MAX;
		}
	}
	if ( !refreshed )
	{
		c->rebuilt = 1;
		if ( !spBuildIndex( dynamic, &w->buildScratch, w, w->order, n, axis, slabAxis, stats ) )
			return sp_resultOutOfMemory;
		w->indexVersion = spNextIndexVersion( w->indexVersion );
	}
	// the index now holds every moving box
	if ( !refreshed || w->newMovers > 0 )
	{
		for ( int i = 0; i < n; ++i )
		{
			w->flags[w->order[i]] |= SP_FLAG_INDEXED;
		}
	}
	w->newMovers = 0;
	w->goneMovers = 0;
	c->sweepAxis = axis;
	c->slabs = dynamic->slabCount;
	return sp_resultOk;
}

// The pairs of the moving boxes i0..i1-1 with the static boxes, appended to the range's pairs.
static bool spStaticPairs( int i0, int i1, spTask* task, void* context )
{
	const spWorld* w = context;
	const int d = w->dimensions;
	const spSlotTable slots = spSlotsOf( w );
	for ( int i = i0; i < i1; ++i )
	{
		const int slot = w->order[i];
		const float* b = w->bounds + (size_t)slot * w->stride;
		if ( !spQueryIndex( &w->staticIndex, &slots, b, b + d, 0xFFFFFFFFu, &task->pairs, w->ids[slot] ) )
			return false;
	}
	return true;
}

// Sweep the slabs s0..s1-1 of the moving boxes' index, appending their place pairs to `found`, in slab order;
// `columns` from spSweepColumns for the largest of them (read only by the 2D kernel with no filter). With `merging`
// (the world, when a refresh's merge is pending), each slab is merged just before it is swept, and on a failure the
// slabs left are merged too; otherwise reads the world only. Returns false on allocation failure.
static bool spSweepSlabs( const spWorld* w, spWorld* merging, spPairArray* found, float* columns, int s0, int s1,
						  int filtered, int* tests )
{
	const spIndex* index = &w->dynamicIndex;
	const int* start = index->slabStart;
	for ( int s = s0; s < s1; ++s )
	{
		if ( SP_PARALLEL && merging != NULL )
			spMergeRefreshed( merging, s, s + 1 );
		if ( !spSweepSlabOf( w, index->entries, index->ids, found, columns, s, start[s], start[s + 1], filtered,
							 tests ) )
		{
			if ( SP_PARALLEL && merging != NULL )
				spMergeRefreshed( merging, s + 1, s1 );
			return false;
		}
	}
	return true;
}

typedef struct spSweepJob
{
	const spWorld* w;
	spWorld* merging; // the world when a refresh's merge is pending, or null
	int filtered;
} spSweepJob;

// The sweep of slabs s0..s1-1 into the range's pairs, with the columns of spSweepSlab2D in its scratch and its
// candidate tests in its count.
static bool spSweepRange( int s0, int s1, spTask* task, void* context )
{
	const spSweepJob* job = context;
	const spWorld* w = job->w;
	const int* start = w->dynamicIndex.slabStart;
	float* columns = NULL;
	// room for two pairs an entry at once (a uniform scene has about 1.8), and an eighth more so that the entry
	// count's waver on coherent frames does not reallocate: grown from nothing by half again at a time as the sweep
	// went, a first update's list was copied about twice over, and a range's list grew on each new high
	if ( !spGrowWithRoom( (void**)&task->pairs.data, &task->pairs.capacity,
						  task->pairs.count + 2 * ( start[s1] - start[s0] ), sizeof( spPair ) ) ||
		 ( w->dimensions == 2 && !job->filtered &&
		   ( columns = spSweepColumns( task, spLargestSlab( &w->dynamicIndex, s0, s1 ) ) ) == NULL ) )
	{
		if ( SP_PARALLEL && job->merging != NULL )
			spMergeRefreshed( job->merging, s0, s1 );
		return false;
	}
	task->count = 0;
	return spSweepSlabs( w, job->merging, &task->pairs, columns, s0, s1, job->filtered, &task->count );
}

// Sweep every slab of the moving boxes' index into `found` (emptied first) as place pairs, sorted (spSweepSlabOf),
// adding the candidates tested to *tests. With a pool (spParallelOn), slab ranges are swept at once, to the same
// pairs, kept in `kept` as the ranges wrote them (`found` is then empty). A refresh's pending merge (refresh.h) is
// run slab by slab as the sweep reaches each slab, and is finished whatever happens. Returns false on allocation
// failure.
static bool spSweepAll( spWorld* w, spPairArray* found, spPlaceRanges* kept, int filtered, int* tests )
{
	const spIndex* index = &w->dynamicIndex;
	found->count = 0;
	// with a pool, by slab ranges of about equal entries, their lists kept in `kept` (in slab order); a refresh's
	// pending merge by the same ranges, slab by slab, each slab merged just before it is swept
	spSweepJob job = { w, SP_PARALLEL && w->refreshScratch.mergePending ? w : NULL, filtered };
	const bool swept = spParallelKeepPairs( w, spSweepRange, index, found, kept, &job );
	spFinishRefresh( w, 1 );
	if ( !swept )
		return false;
	for ( int r = 0; r < spRanges( &w->parallel ); ++r )
	{
		*tests += spRangeTask( &w->parallel, r )->count;
	}
	return true;
}

// Pairs among the moving boxes (place pairs, into placePairs[1 - current]), then between moving and static boxes
// (id pairs, into found, by ranges of movers with a pool), with the sorts' scratch for step 5 reserved first.
static spResult spFindPairs( spWorld* w, int filtered, spCounters* c )
{
	const int nxt = 1 - w->current;
	if ( !spGrow( (void**)&w->pairStart, &w->pairStartCapacity, w->slotCount + 1, sizeof( int ) ) ||
		 !spGrow( (void**)&w->pairHistograms, &w->pairHistogramCapacity, spPairHistogramCount( w->slotCount ),
				  sizeof( int ) ) )
	{
		w->refreshScratch.swept = 0;
		// the index whole for queries: a refresh's merge is otherwise the sweep's
		spFinishRefresh( w, 0 );
		return sp_resultOutOfMemory;
	}
	int tests = 0;
	// a refresh on one thread sweeps each slab itself, into placePairs[nxt]
	w->placeRanges[nxt].ranges = 0;
	if ( w->refreshScratch.swept )
		tests = w->refreshScratch.sweptTests;
	else if ( !spSweepAll( w, &w->placePairs[nxt], &w->placeRanges[nxt], filtered, &tests ) )
		return sp_resultOutOfMemory;
	w->refreshScratch.swept = 0;
	SP_PHASE( w, SP_PHASE_SWEEP );
	w->found.count = 0;
	if ( w->staticIndex.entryCount > 0 && !spParallelPairs( w, spStaticPairs, w->orderCount, NULL, &w->found, w ) )
		return sp_resultOutOfMemory;
	SP_PHASE( w, SP_PHASE_STATIC_PAIRS );
	c->overlapTests = tests;
	return sp_resultOk;
}

spResult spUpdateWorld( spWorld* w )
{
	// 1. validation (nothing changes on a bad box)
	SP_PHASE_START( w );
	spAxisStats stats[SP_MAX_DIMENSIONS];
	int staticChanged = 0, allPair = 0;
	spResult r = spValidate( w, stats, &staticChanged, &allPair );
	if ( r != sp_resultOk )
		return r;
	spCompactOrder( w );
	spCounters c = { 0 };
	c.boxes = w->boxCount;
	c.endpointSwaps = w->counters.endpointSwaps;
	SP_PHASE( w, SP_PHASE_VALIDATE );

	// 2. the static boxes' index
	if ( staticChanged )
	{
		w->staticDirty = 1;
		if ( ( r = spRebuildStatics( w ) ) != sp_resultOk )
			return r;
		c.staticRebuilt = 1;
	}
	c.staticBoxes = w->staticCount;
	SP_PHASE( w, SP_PHASE_STATICS );

	// 3. the moving boxes' index
	if ( ( r = spRefreshOrRebuild( w, stats, !allPair, &c ) ) != sp_resultOk )
		return r;
	SP_PHASE( w, SP_PHASE_INDEX );

	// 4. the pairs found
	if ( ( r = spFindPairs( w, !allPair, &c ) ) != sp_resultOk )
		return r;

	// 5. the public pairs and events
	if ( !spMakePairLists( w ) )
		return sp_resultOutOfMemory;
	SP_PHASE( w, SP_PHASE_PAIR_LISTS );

	// 6. counters
	c.pairs = w->pairs[w->current].count;
	c.began = w->began.count;
	c.ended = w->ended.count;
	w->counters = c;
	return sp_resultOk;
}
