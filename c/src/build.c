// SPDX-License-Identifier: MIT
// Building a slab index from scratch: the slabs planned from the boxes' statistics, each box copied into every slab
// it touches, each slab sorted along the sweep axis. Few boxes are sorted all at once first; many are bucketed in
// slot order and each slab sorted in cache.
#include "build.h"

#include "parallel.h"
#include "simd.h"
#include "sort.h"
#include "world.h"

#include <math.h>
#include <string.h>

// The spare entries of the ranges of a parallel scatter are this many entries apart: their ids (4 bytes each) and
// entries on cache lines of their own, or the threads would write one line back and forth for most boxes.
#define SP_SPARE_GAP 16

// Up to this many boxes, spBuildIndex sorts them all at once (see there).
#ifndef SP_GLOBAL_SORT_MAX
#define SP_GLOBAL_SORT_MAX ( 1 << 15 )
#endif

// The smallest float v with spSlabOf(v) >= s, for 1 <= s < slabCount: a bisection over the floats in order (their
// bit patterns mapped to ordered integers), so it agrees with spSlabOf's rounding exactly.
static float spSlabFloor( const spIndex* index, int s )
{
	// spSlabOf(-INFINITY) = 0 < s <= spSlabOf(+INFINITY)
	uint32_t lo = spFloatToKey( -INFINITY ), hi = spFloatToKey( INFINITY );
	while ( hi - lo > 1u )
	{
		const uint32_t mid = lo + ( hi - lo ) / 2u;
		if ( spSlabOf( index, spKeyToFloat( mid ) ) >= s )
			hi = mid;
		else
			lo = mid;
	}
	return spKeyToFloat( hi );
}

// Grow a packed scratch (entries of one slab and their ids: the build's, or a task's) to `n` entries.
static bool spReservePacked( float** packed, uint32_t** ids, int* capacity, int n, int stride )
{
	const spArray arrays[] = { { (void**)packed, sizeof( float ), stride }, { (void**)ids, sizeof( uint32_t ), 1 } };
	return spGrowArrays( capacity, spGrownCapacity( *capacity, n ), arrays, 2 );
}

// Grow a sort scratch (the build's, or a task's) to room for `n` keys: the keys, their sorted places and the sorts'
// temp (two per key each).
static bool spReserveSort( float** keys, uint32_t** temp, int** order, int* capacity, int n )
{
	const spArray arrays[] = { { (void**)keys, sizeof( float ), 1 },
							   { (void**)temp, sizeof( uint32_t ), 2 },
							   { (void**)order, sizeof( int ), 2 } };
	return spGrowArrays( capacity, spGrownCapacity( *capacity, n ), arrays, 3 );
}

// spSlabOf for both slab-axis bounds of a 2D box at once, as one vector (min x, min y, max x, max y): lanes a and
// 2 + a of the result, for the slab axis a, are the box's first and last slab. The float operations of spSlabOf (so
// the same slabs), clamped first (NaN to slab 0) so that no conversion needs a check.
typedef struct spSlabMap2D
{
	spF4 lo, scale, zero, last;
} spSlabMap2D;

static inline spSlabMap2D spSlabMap2DOf( const spIndex* plan )
{
	const spSlabMap2D map = { spF4Splat( plan->slabLo ), spF4Splat( plan->slabScale ), spF4Splat( 0.0f ),
							  spF4Splat( (float)( plan->slabCount - 1 ) ) };
	return map;
}

SP_FORCE_INLINE spM4 spSlabsOf2D( const spSlabMap2D* map, spF4 b )
{
	const spF4 v = spF4Mul( spF4Sub( b, map->lo ), map->scale );
	// v > 0 ? v : 0 (so NaN gives 0), then at most the last slab
	return spF4ToInt( spF4Min( spF4Max( v, map->zero ), map->last ) );
}

// Box i touches slabs s0..s1: its range stored, each slab's count (at s + 1) raised.
SP_FORCE_INLINE void spCountBox( int* range, int* counts, int i, int s0, int s1 )
{
	range[2 * i] = s0;
	range[2 * i + 1] = s1;
	counts[s0 + 1] += 1;
	counts[s0 + 2] += s1 > s0;
	for ( int s = s0 + 2; s <= s1; ++s )
	{
		counts[s + 1] += 1;
	}
}

// spCountSlabs for 2D boxes sweeping `axis` (a constant), so slabbed along the other axis.
SP_FORCE_INLINE void spCountSlabs2D( const spSlabMap2D* map, const float* bounds, const int* slots, int n, int* range,
									 int* counts, float* keys, const int axis )
{
	for ( int i = 0; i < n; ++i )
	{
		const spF4 b = spF4Load( bounds + (size_t)slots[i] * 4 );
		const spM4 slab = spSlabsOf2D( map, b );
		spCountBox( range, counts, i, spM4Lane( slab, 1 - axis ), spM4Lane( slab, 3 - axis ) );
		if ( keys != NULL )
			keys[i] = spF4Lane( b, axis );
	}
}

// The slab range of each box of `slots` (range[2i], range[2i + 1]) and the entry count of each slab s in
// counts[s + 1] (counts has slabCount + 2 elements) for a sweep along `axis`, and with `keys` not null each box's
// min on `axis` in keys[i] (the sort keys of a build that sorts every box at once: one read of the bounds for both).
// Reads the bounds in the order of `slots`. Most boxes touch one or two slabs: the second is counted without a
// branch, as spScatterSlabs writes it.
static void spCountSlabs( const spIndex* plan, const float* bounds, const int* slots, int n, int stride, int d,
						  int* range, int* counts, float* keys, int axis )
{
	if ( plan->slabAxis < 0 )
	{
		for ( int i = 0; i < n; ++i )
		{
			range[2 * i] = range[2 * i + 1] = 0;
			if ( keys != NULL )
				keys[i] = bounds[(size_t)slots[i] * stride + axis];
		}
		counts[1] = n;
		return;
	}
	if ( d == 2 )
	{
		// in 2D the slab axis is the other one: the lanes constants, read from registers
		const spSlabMap2D map = spSlabMap2DOf( plan );
		if ( axis == 0 )
			spCountSlabs2D( &map, bounds, slots, n, range, counts, keys, 0 );
		else
			spCountSlabs2D( &map, bounds, slots, n, range, counts, keys, 1 );
		return;
	}
	const int lo = plan->slabAxis, hi = d + plan->slabAxis;
	for ( int i = 0; i < n; ++i )
	{
		const float* b = bounds + (size_t)slots[i] * stride;
		const int s0 = spSlabOf( plan, b[lo] );
		const int s1 = spSlabOf( plan, b[hi] );
		spCountBox( range, counts, i, s0, s1 );
		if ( keys != NULL )
			keys[i] = b[axis];
	}
}

// Copy each box of `slots` (in the order of `perm`, or as they are), in entry layout, into every slab it touches,
// at cursor[s] in `e` and `ids` (the next place of slab s), and track each slab's largest extent on the sweep
// axis. The copy into a second slab is written unconditionally, to the spare entry at `spare` when there is none.
static inline __attribute__( ( always_inline ) ) void spScatterSlabs( float* maxWidth, const spWorld* world,
																	  const int* slots, const int* perm,
																	  const int* range, int n, int d, int axis,
																	  int* cursor, int spare, float* e, uint32_t* ids )
{
	const int stride = 2 * d;
	const float* bounds = world->bounds;
	const uint32_t* worldIds = world->ids;
	for ( int k = 0; k < n; ++k )
	{
		const int i = perm != NULL ? perm[k] : k;
		const int slot = slots[i];
		float box[2 * SP_MAX_DIMENSIONS];
		if ( d == 2 )
		{
			// one vector shuffled in a register and stored whole: spPackBox's stores of the halves, read back as one
			// record by the copies below, missed the store forwarding (a fifth of the build's time)
			const spF4 b = spF4Load( bounds + (size_t)slot * 4 );
			spF4Store( box, axis == 0 ? spF4EntryX( b ) : spF4EntryY( b ) );
		}
		else
		{
			spPackBox( box, bounds + (size_t)slot * stride, d, axis );
		}
		const int s0 = range[2 * i];
		const int s1 = range[2 * i + 1];
		const float width = box[1] - box[0];
		const uint32_t id = worldIds[slot];
		const int two = s1 > s0;
		const int dst0 = cursor[s0]++;
		const int next = cursor[s0 + 1];
		const int dst1 = two ? next : spare;
		cursor[s0 + 1] = next + two;
		// whole-record copies (one or two vector stores each), not a store per float
		memcpy( e + (size_t)dst0 * stride, box, sizeof( float ) * (size_t)stride );
		memcpy( e + (size_t)dst1 * stride, box, sizeof( float ) * (size_t)stride );
		ids[dst0] = id;
		ids[dst1] = id;
		maxWidth[s0] = width > maxWidth[s0] ? width : maxWidth[s0];
		const int w1 = two ? s0 + 1 : s0;
		maxWidth[w1] = width > maxWidth[w1] ? width : maxWidth[w1];
		for ( int s = s0 + 2; s <= s1; ++s )
		{
			const int dst = cursor[s]++;
			memcpy( e + (size_t)dst * stride, box, sizeof( float ) * (size_t)stride );
			ids[dst] = id;
			maxWidth[s] = width > maxWidth[s] ? width : maxWidth[s];
		}
	}
}

// spScatterSlabs with the dimension count a constant for the common ones (the record copies are then a few moves)
static void spScatterSlabsFor( float* maxWidth, const spWorld* world, const int* slots, const int* perm,
							   const int* range, int n, int d, int axis, int* cursor, int spare, float* e,
							   uint32_t* ids )
{
	switch ( d )
	{
		case 2:
			spScatterSlabs( maxWidth, world, slots, perm, range, n, 2, axis, cursor, spare, e, ids );
			break;
		case 3:
			spScatterSlabs( maxWidth, world, slots, perm, range, n, 3, axis, cursor, spare, e, ids );
			break;
		default:
			spScatterSlabs( maxWidth, world, slots, perm, range, n, d, axis, cursor, spare, e, ids );
			break;
	}
}

// Sort the entries of slabs s0..s1-1 of the index, bucketed in slot order, by min on the sweep axis. A slab of a few
// thousand entries fits in cache: its keys are sorted with their places (spSortKeys, with `keys`, `order` (2 per
// key) and `temp` (2 per key) room for the largest slab), its records gathered in that order into `packed` and
// `packedIds` (room for the largest slab) and copied back. Sorting in place keeps the build's scratch at one slab
// instead of a second copy of every entry: at a million boxes that copy was 22 MB of fresh pages to fault in on a
// cold start.
static void spSortSlabs( spIndex* index, int stride, int s0, int s1, float* keys, int* order, int* orderTemp,
						 uint32_t* temp, float* packed, uint32_t* packedIds )
{
	for ( int s = s0; s < s1; ++s )
	{
		const int base = index->slabStart[s];
		const int m = index->slabStart[s + 1] - base;
		float* e = index->entries + (size_t)base * stride;
		uint32_t* ids = index->ids + base;
		for ( int k = 0; k < m; ++k )
		{
			keys[k] = e[(size_t)k * stride];
		}
		spSortKeys( keys, m, order, orderTemp, temp );
		for ( int k = 0; k < m; ++k )
		{
			const int from = order[k];
			memcpy( packed + (size_t)k * stride, e + (size_t)from * stride, sizeof( float ) * (size_t)stride );
			packedIds[k] = ids[from];
		}
		memcpy( e, packed, sizeof( float ) * (size_t)stride * (size_t)m );
		memcpy( ids, packedIds, sizeof( uint32_t ) * (size_t)m );
	}
}

// The sort of slabs s0..s1-1 by a range, with scratch of its own for its largest slab: the keys, their places and
// the sort's temp (two each), the slab's records and ids.
typedef struct spSortJob
{
	spIndex* index;
	int stride;
} spSortJob;

static bool spSortRange( int s0, int s1, spTask* task, void* context )
{
	const spSortJob* job = context;
	const int* start = job->index->slabStart;
	size_t m = 0;
	for ( int s = s0; s < s1; ++s )
	{
		m = (size_t)( start[s + 1] - start[s] ) > m ? (size_t)( start[s + 1] - start[s] ) : m;
	}
	float* keys = spTaskScratch(
		task, m * ( sizeof( float ) * ( 1 + (size_t)job->stride ) + 3 * sizeof( uint32_t ) + 2 * sizeof( int ) ) );
	if ( keys == NULL )
		return false;
	uint32_t* temp = (uint32_t*)( keys + m );
	int* order = (int*)( temp + 2 * m );
	float* packed = (float*)( order + 2 * m );
	uint32_t* packedIds = (uint32_t*)( packed + m * (size_t)job->stride );
	spSortSlabs( job->index, job->stride, s0, s1, keys, order, order + m, temp, packed, packedIds );
	return true;
}

// The count and the scatter of many boxes by ranges of boxes in slot order: each range counts into counters of its
// own, then copies its boxes into its own places of each slab (after the entries of the ranges before it) and tracks
// the slabs' widths apart: the serial scatter's layout and widths. A range's scratch: slabCount + 2 counters (the
// count of slab s at s + 1, then its cursors), then slabCount widths.
typedef struct spScatterJob
{
	spIndex* index;
	const spIndex* plan;
	const spWorld* world;
	const int* slots;
	int* range;
	int d, axis, entries;
} spScatterJob;

static float* spRangeWidths( const spTask* task, int slabCount )
{
	return (float*)( (int*)task->scratch + slabCount + 2 );
}

static bool spCountRange( int i0, int i1, spTask* task, void* context )
{
	const spScatterJob* job = context;
	const int slabs = job->plan->slabCount;
	int* counts = spTaskScratch( task, sizeof( int ) * (size_t)( slabs + 2 ) + sizeof( float ) * (size_t)slabs );
	if ( counts == NULL )
		return false;
	memset( counts, 0, sizeof( int ) * (size_t)( slabs + 2 ) );
	spCountSlabs( job->plan, job->world->bounds, job->slots + i0, i1 - i0, 2 * job->d, job->d,
				  job->range + 2 * (size_t)i0, counts, NULL, job->axis );
	return true;
}

static bool spScatterRange( int i0, int i1, spTask* task, void* context )
{
	const spScatterJob* job = context;
	float* maxWidth = spRangeWidths( task, job->plan->slabCount );
	for ( int s = 0; s < job->plan->slabCount; ++s )
		maxWidth[s] = 0.0f;
	// a spare entry of its own per range, past the padding, on cache lines of its own (most boxes write it)
	const int spare = job->entries + SP_INDEX_PADDING + task->range * SP_SPARE_GAP;
	spScatterSlabsFor( maxWidth, job->world, job->slots + i0, NULL, job->range + 2 * (size_t)i0, i1 - i0, job->d,
					   job->axis, task->scratch, spare, job->index->entries, job->index->ids );
	return true;
}

bool spBuildIndex( spIndex* index, spBuildScratch* scratch, spWorld* world, const int* slots, int n, int axis,
				   int slabAxis, const spAxisStats* stats )
{
	const int d = world->dimensions;
	const int stride = 2 * d;

	// The new layout is planned in `plan` and in scratch, and the index is written only after every allocation
	// has succeeded: a failed build leaves the previous index whole (realloc keeps contents), so queries after a
	// failed update still see the boxes of the last update.
	spIndex plan = *index;
	plan.axis = axis;
	plan.slabAxis = -1;
	plan.slabCount = 1;
	plan.slabLo = 0.0f;
	plan.slabScale = 0.0f;

	spPlanSlabs( stats, n, axis, slabAxis, &plan.slabCount, &plan.slabAxis, &plan.slabLo, &plan.slabScale );
	const int slabCount = plan.slabCount;
	// the slab axis in the entry layout: after the sweep axis, the other axes in increasing order
	const int slabAt = plan.slabAxis < 0 ? 0 : 2 + 2 * ( plan.slabAxis < axis ? plan.slabAxis : plan.slabAxis - 1 );

	// scratch: first and last slab per box, the entry count per slab, the slabs' cursors
	const spArray slabScratch[] = { { (void**)&scratch->slabCounts, sizeof( int ), 1 },
									{ (void**)&scratch->slabCursors, sizeof( int ), 1 } };
	if ( !spGrow( (void**)&scratch->range, &scratch->rangeCapacity, 2 * n, sizeof( int ) ) ||
		 !spGrowArrays( &scratch->slabCapacity, spGrownCapacity( scratch->slabCapacity, slabCount + 2 ), slabScratch,
						2 ) )
		return false;
	int* range = scratch->range;
	int* counts = scratch->slabCounts;
	memset( counts, 0, sizeof( int ) * (size_t)( slabCount + 2 ) );
	// Few boxes (their bounds fit in cache): every box sorted at once, then copied into its slabs in that order,
	// which leaves each slab sorted. Many: the boxes copied into their slabs in slot order (reading the bounds
	// sequentially, not in sorted order, which misses the cache on every box), then each slab sorted on its own.
	const int global = n <= SP_GLOBAL_SORT_MAX;
	if ( global &&
		 !spReserveSort( &scratch->sortKeys, &scratch->sortTemp, &scratch->sortOrder, &scratch->sortCapacity, n ) )
		return false;
	// many boxes with a pool: counted and scattered by ranges of boxes (on one thread if a range's scratch cannot
	// be had)
	spParallel* parallel = &world->parallel;
	spScatterJob job = { index, &plan, world, slots, range, d, axis, 0 };
	const bool split = !global && spParallelOn( world ) && spParallelFor( world, spCountRange, n, 0, &job );
	const int spares = split ? spRanges( parallel ) * SP_SPARE_GAP : 0;
	if ( split )
	{
		for ( int r = 0; r < spRanges( parallel ); ++r )
		{
			const int* c = spRangeTask( parallel, r )->scratch;
			for ( int s = 0; s < slabCount; ++s )
				counts[s + 1] += c[s + 1];
		}
	}
	else
	{
		spCountSlabs( &plan, world->bounds, slots, n, stride, d, range, counts, global ? scratch->sortKeys : NULL,
					  axis );
	}
	int largest = 0;
	for ( int s = 0; s < slabCount; ++s )
	{
		largest = counts[s + 1] > largest ? counts[s + 1] : largest;
		counts[s + 1] += counts[s];
	}
	const int entries = counts[slabCount];

	const spArray slabArrays[] = { { (void**)&index->slabStart, sizeof( int ), 1 },
								   { (void**)&index->slabMaxWidth, sizeof( float ), 1 },
								   { (void**)&index->slabFloor, sizeof( float ), 1 } };
	if ( !spGrowArrays( &index->slabCapacity, spGrownCapacity( index->slabCapacity, slabCount + 1 ), slabArrays, 3 ) )
		return false;
	// padding after the last entry: the spare entry of spScatterSlabs, and one per range past it
	if ( !spReserveEntries( index, entries + SP_INDEX_PADDING + spares, stride ) ||
		 ( !global &&
		   ( !spReservePacked( &scratch->packed, &scratch->packedIds, &scratch->packedCapacity, largest, stride ) ||
			 !spReserveSort( &scratch->sortKeys, &scratch->sortTemp, &scratch->sortOrder, &scratch->sortCapacity,
							 largest ) ) ) )
		return false;

	// Commit.
	index->axis = plan.axis;
	index->slabAxis = plan.slabAxis;
	index->slabCount = slabCount;
	index->slabLo = plan.slabLo;
	index->slabScale = plan.slabScale;
	index->slabAt = slabAt;
	index->slabFloor[0] = -INFINITY;
	for ( int s = 1; s < slabCount; ++s )
	{
		index->slabFloor[s] = spSlabFloor( index, s );
	}
	int* start = index->slabStart;
	int* cursor = scratch->slabCursors;
	float* maxWidth = index->slabMaxWidth;
	memcpy( start, counts, sizeof( int ) * (size_t)( slabCount + 1 ) );
	for ( int s = 0; s < slabCount; ++s )
		maxWidth[s] = 0.0f;

	memcpy( cursor, start, sizeof( int ) * (size_t)( slabCount + 1 ) );
	const int* perm = NULL;
	float* e = index->entries;
	uint32_t* ids = index->ids;
	if ( global )
	{
		// the keys were read with the slab ranges
		if ( n > 0 )
		{
			// the keys are the mins on the sweep axis: within the axis's smallest min and largest max
			spSortKeysIn( scratch->sortKeys, n, stats[axis].lo, stats[axis].hi, scratch->sortOrder,
						  scratch->sortOrder + n, scratch->sortTemp );
		}
		perm = scratch->sortOrder;
	}
	if ( split )
	{
		// each range's cursors: the slab's start, after the entries of the ranges before it (the starts written
		// again, the same)
		spRangeCursors( parallel, slabCount, start );
		job.entries = entries;
		spRunRanges( world, spScatterRange, &job );
		for ( int r = 0; r < spRanges( parallel ); ++r )
		{
			const float* widths = spRangeWidths( spRangeTask( parallel, r ), slabCount );
			for ( int s = 0; s < slabCount; ++s )
				maxWidth[s] = widths[s] > maxWidth[s] ? widths[s] : maxWidth[s];
		}
	}
	else
	{
		spScatterSlabsFor( maxWidth, world, slots, perm, range, n, d, axis, cursor, entries, e, ids );
	}
	index->entryCount = entries;
	// the padding zeroed after the scatter, which wrote its spare entries there
	memset( index->entries + (size_t)entries * stride, 0,
			sizeof( float ) * (size_t)( SP_INDEX_PADDING + spares ) * (size_t)stride );
	memset( index->ids + entries, 0, sizeof( uint32_t ) * (size_t)( SP_INDEX_PADDING + spares ) );
	if ( !global )
	{
		// with a pool, slab ranges sorted at once; on one thread if a range's scratch cannot be had (sorting a slab
		// already sorted changes nothing: the sort is stable)
		spSortJob sort = { index, stride };
		if ( !spParallelOn( world ) || !spParallelForSlabs( world, index, spSortRange, &sort ) )
		{
			spSortSlabs( index, stride, 0, slabCount, scratch->sortKeys, scratch->sortOrder,
						 scratch->sortOrder + scratch->sortCapacity, scratch->sortTemp, scratch->packed,
						 scratch->packedIds );
		}
	}
	return true;
}

SP_COLD void spFreeBuildScratch( spBuildScratch* scratch )
{
	spFree( scratch->range );
	spFree( scratch->slabCounts );
	spFree( scratch->slabCursors );
	spFree( scratch->packed );
	spFree( scratch->packedIds );
	spFree( scratch->sortKeys );
	spFree( scratch->sortTemp );
	spFree( scratch->sortOrder );
	memset( scratch, 0, sizeof( *scratch ) );
}

SP_COLD size_t spBuildScratchByteCount( const spBuildScratch* scratch, int stride )
{
	return (size_t)scratch->rangeCapacity * sizeof( int ) + (size_t)scratch->slabCapacity * 2 * sizeof( int ) +
		   (size_t)scratch->packedCapacity * ( (size_t)stride * sizeof( float ) + sizeof( uint32_t ) ) +
		   (size_t)scratch->sortCapacity * ( sizeof( float ) + 2 * sizeof( uint32_t ) + 2 * sizeof( int ) );
}
