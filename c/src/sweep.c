// SPDX-License-Identifier: MIT
// The update: validate, sort the boxes along one axis, bucket them into slabs along a second axis, sweep each
// slab, then sort the pairs found and diff them against the previous update's pairs.
//
// Why not the textbook form (insertion-sorted endpoint lists on every axis, pair events on every swap): on a
// uniform 2D scene the projections of n boxes on one axis overlap about n^1.5 times, and every one of those
// overlaps is a swap and a pair-table operation as boxes move. Here the work is O(n + swaps + candidates):
// insertion sort keeps the sweep order for O(n + swaps) on coherent frames (radix sort otherwise), and slabs
// keep the candidates (pairs overlapping on the sweep axis and sharing a slab) close to the real pairs.
#include "core.h"

#include <math.h>
#include <string.h>

typedef struct spAxisStats
{
	double sum, sumSq; // of centers
	double width;	   // sum of widths
	float lo, hi;	   // smallest min, largest max
} spAxisStats;

// Validate every live box, compact the sweep order and gather per-axis statistics. Changes nothing but the
// order's dead entries unless all boxes are valid.
static spResult spValidate( spWorld* w, spAxisStats* stats )
{
	const int d = w->dimensions;
	const int stride = w->stride;
	const float* bounds = w->bounds;
	for ( int a = 0; a < d; ++a )
	{
		stats[a].sum = stats[a].sumSq = stats[a].width = 0.0;
		stats[a].lo = INFINITY;
		stats[a].hi = -INFINITY;
	}
	for ( int i = 0; i < w->orderCount; ++i )
	{
		int slot = w->order[i];
		if ( w->ids[slot] == 0 )
		{
			continue;
		}
		const float* b = bounds + (size_t)slot * stride;
		spResult r = spCheckBounds( b, b + d, d );
		if ( r != sp_resultOk )
		{
			w->lastInvalidBox.bits = w->ids[slot];
			return r;
		}
		for ( int a = 0; a < d; ++a )
		{
			float lo = b[a], hi = b[d + a];
			double c = 0.5 * ( (double)lo + (double)hi );
			stats[a].sum += c;
			stats[a].sumSq += c * c;
			stats[a].width += (double)hi - (double)lo;
			stats[a].lo = lo < stats[a].lo ? lo : stats[a].lo;
			stats[a].hi = hi > stats[a].hi ? hi : stats[a].hi;
		}
	}
	w->lastInvalidBox = sp_nullBoxId;
	return sp_resultOk;
}

// How well an axis separates the boxes: spread of the centers over the mean width. Sweeping the axis with the
// highest score gives the fewest candidates.
static double spAxisScore( const spAxisStats* s, int n )
{
	double mean = s->sum / n;
	double var = s->sumSq / n - mean * mean;
	double spread = var > 0.0 ? sqrt( var ) : 0.0;
	return spread / ( s->width / n + 1e-30 );
}

static void spCompactOrder( spWorld* w )
{
	int n = 0;
	int sorted = 0;
	for ( int i = 0; i < w->orderCount; ++i )
	{
		int slot = w->order[i];
		if ( w->ids[slot] == 0 )
		{
			w->flags[slot] &= (uint8_t)~SP_FLAG_IN_ORDER;
			continue;
		}
		if ( i < w->orderSorted )
		{
			sorted += 1;
		}
		w->order[n++] = slot;
	}
	w->orderCount = n;
	w->orderSorted = sorted;
}

// Sweep one slab. Entries are in sweep order; each holds 2d floats: sweep min, sweep max, then min and max of
// every other axis. A pair is reported only in the first slab both boxes touch, so it is reported once.
static inline __attribute__( ( always_inline ) ) int spSweepSlab( spWorld* w, int begin, int end, int slab, int d,
																  int* tests )
{
	const int stride = 2 * d;
	const float* e = w->slabBoxes;
	const uint32_t* ids = w->slabIds;
	const int* first = w->slabFirst;
	spPairArray* found = &w->found;
	int t = 0;
	for ( int i = begin; i < end; ++i )
	{
		const float* bi = e + (size_t)i * stride;
		const float maxA = bi[1];
		const int firstI = first[i];
		for ( int j = i + 1; j < end; ++j )
		{
			const float* bj = e + (size_t)j * stride;
			if ( bj[0] > maxA )
			{
				break;
			}
			t += 1;
			// closed intervals on the other axes: overlap unless one lies strictly beyond the other
			int overlap = 1;
			for ( int a = 2; a < stride; a += 2 )
			{
				overlap &= ( bi[a] <= bj[a + 1] ) & ( bj[a] <= bi[a + 1] );
			}
			if ( !overlap )
			{
				continue;
			}
			int f = first[j] > firstI ? first[j] : firstI;
			if ( f != slab )
			{
				continue;
			}
			if ( found->count == found->capacity &&
				 !spGrow( (void**)&found->data, &found->capacity, found->count + 1, sizeof( spPair ) ) )
			{
				*tests += t;
				return 0;
			}
			uint32_t x = ids[i], y = ids[j];
			spPair p = { x < y ? x : y, x < y ? y : x };
			found->data[found->count++] = p;
		}
	}
	*tests += t;
	return 1;
}

static int spSweepAll( spWorld* w, int slabCount, int* tests )
{
	const int* start = w->slabStart;
	for ( int s = 0; s < slabCount; ++s )
	{
		int ok;
		switch ( w->dimensions )
		{
			case 1:
				ok = spSweepSlab( w, start[s], start[s + 1], s, 1, tests );
				break;
			case 2:
				ok = spSweepSlab( w, start[s], start[s + 1], s, 2, tests );
				break;
			case 3:
				ok = spSweepSlab( w, start[s], start[s + 1], s, 3, tests );
				break;
			default:
				ok = spSweepSlab( w, start[s], start[s + 1], s, 4, tests );
				break;
		}
		if ( !ok )
		{
			return 0;
		}
	}
	return 1;
}

spResult spUpdateWorld( spWorld* w )
{
	const int d = w->dimensions;
	const int stride = w->stride;
	spAxisStats stats[SP_MAX_DIMENSIONS];
	spResult r = spValidate( w, stats );
	if ( r != sp_resultOk )
	{
		return r;
	}
	spCompactOrder( w );
	const int n = w->orderCount;
	SP_ASSERT( n == w->boxCount );
	spCounters c = { 0 };
	c.boxes = n;
	c.endpointSwaps = w->counters.endpointSwaps;

	// Choose the sweep axis (sticky, so coherent frames stay coherent) and the slab axis.
	int axis = w->sweepAxis;
	int slabAxis = -1;
	double scores[SP_MAX_DIMENSIONS] = { 0 };
	if ( n > 0 )
	{
		int best = 0;
		for ( int a = 0; a < d; ++a )
		{
			scores[a] = spAxisScore( &stats[a], n );
			if ( scores[a] > scores[best] )
			{
				best = a;
			}
		}
		if ( axis < 0 || scores[best] > 1.5 * scores[axis] )
		{
			axis = best;
		}
		for ( int a = 0; a < d; ++a )
		{
			if ( a != axis && ( slabAxis < 0 || scores[a] > scores[slabAxis] ) )
			{
				slabAxis = a;
			}
		}
	}
	else if ( axis < 0 )
	{
		axis = 0;
	}

	// Scratch that does not depend on the pairs found; reserved before anything visible changes.
	if ( !spGrow( (void**)&w->radixKeys, &w->radixCapacity, 2 * n, sizeof( uint32_t ) ) )
		return sp_resultOutOfMemory;
	if ( !spGrow( (void**)&w->radixTemp, &w->radixTempCapacity, n, sizeof( int ) ) )
		return sp_resultOutOfMemory;

	// Sort the order by min on the sweep axis.
	int* order = w->order;
	float* keys = w->orderKeys;
	const float* bounds = w->bounds;
	for ( int i = 0; i < n; ++i )
	{
		keys[i] = bounds[(size_t)order[i] * stride + axis];
	}
	int swaps = -1;
	if ( axis == w->sweepAxis )
	{
		// coherent frames: few swaps. The budget bounds the time lost when the frame turns out incoherent.
		swaps = spInsertionSortKeys( keys, order, n, 4 * n + 1024 );
	}
	if ( swaps < 0 )
	{
		spRadixSortKeys( keys, order, w->radixKeys, w->radixTemp, n );
		c.rebuilt = 1;
		swaps = 0;
	}
	c.swaps = swaps;
	w->sweepAxis = axis;
	w->slabAxis = slabAxis;
	w->orderSorted = n;
	c.sweepAxis = axis;

	// Slabs along the second axis: about sqrt(n * fA / fB) of them balances candidates against duplicates.
	int slabCount = 1;
	double slabLo = 0.0, slabScale = 0.0;
	if ( slabAxis >= 0 && n >= 64 )
	{
		const spAxisStats* sa = &stats[axis];
		const spAxisStats* sb = &stats[slabAxis];
		double rangeA = (double)sa->hi - (double)sa->lo;
		double rangeB = (double)sb->hi - (double)sb->lo;
		if ( rangeA > 0.0 && rangeB > 0.0 )
		{
			double fA = ( sa->width / n ) / rangeA;
			double fB = ( sb->width / n ) / rangeB;
			double k = sqrt( (double)n * fA / ( fB + 1.0 / n ) );
			double kMax = n / 8.0 < 4096.0 ? n / 8.0 : 4096.0;
			k = k < 1.0 ? 1.0 : k > kMax ? kMax : k;
			slabCount = (int)k;
			slabLo = sb->lo;
			slabScale = slabCount / rangeB;
		}
	}
	c.slabs = slabCount;

	int cap = w->slotRangeCapacity;
	if ( !spGrow( (void**)&w->slotRange, &cap, 2 * n, sizeof( int ) ) )
		return sp_resultOutOfMemory;
	w->slotRangeCapacity = cap;
	cap = w->slabStartCapacity;
	if ( !spGrow( (void**)&w->slabStart, &cap, 2 * ( slabCount + 1 ), sizeof( int ) ) )
		return sp_resultOutOfMemory;
	w->slabStartCapacity = cap;

	int* start = w->slabStart;
	int* cursor = w->slabStart + slabCount + 1;
	int* range = w->slotRange;
	memset( start, 0, sizeof( int ) * (size_t)( slabCount + 1 ) );
	if ( slabCount == 1 )
	{
		for ( int i = 0; i < n; ++i )
		{
			range[2 * i] = range[2 * i + 1] = 0;
		}
		start[1] = n;
	}
	else
	{
		const int last = slabCount - 1;
		for ( int i = 0; i < n; ++i )
		{
			const float* b = bounds + (size_t)order[i] * stride;
			// monotone in the coordinate, so boxes that overlap on the slab axis share a slab
			double lo = floor( ( (double)b[slabAxis] - slabLo ) * slabScale );
			double hi = floor( ( (double)b[d + slabAxis] - slabLo ) * slabScale );
			int s0 = lo < 0.0 ? 0 : lo > last ? last : (int)lo;
			int s1 = hi < 0.0 ? 0 : hi > last ? last : (int)hi;
			range[2 * i] = s0;
			range[2 * i + 1] = s1;
			for ( int s = s0; s <= s1; ++s )
			{
				start[s + 1] += 1;
			}
		}
		for ( int s = 0; s < slabCount; ++s )
		{
			start[s + 1] += start[s];
		}
	}
	const int entries = start[slabCount];
	cap = w->slabEntryCapacity;
	int cap2 = w->slabEntryCapacity;
	int cap3 = w->slabEntryCapacity;
	if ( !spGrow( (void**)&w->slabBoxes, &cap, entries * stride, sizeof( float ) ) ||
		 !spGrow( (void**)&w->slabIds, &cap2, entries, sizeof( uint32_t ) ) ||
		 !spGrow( (void**)&w->slabFirst, &cap3, entries, sizeof( int ) ) )
		return sp_resultOutOfMemory;
	if ( entries > w->slabEntryCapacity )
		w->slabEntryCapacity = entries;

	// Fill the slabs in sweep order, so each slab is sorted.
	memcpy( cursor, start, sizeof( int ) * (size_t)slabCount );
	float* e = w->slabBoxes;
	for ( int i = 0; i < n; ++i )
	{
		const int slot = order[i];
		const float* b = bounds + (size_t)slot * stride;
		float packed[2 * SP_MAX_DIMENSIONS];
		packed[0] = b[axis];
		packed[1] = b[d + axis];
		for ( int a = 0, k = 2; a < d; ++a )
		{
			if ( a != axis )
			{
				packed[k++] = b[a];
				packed[k++] = b[d + a];
			}
		}
		const int s0 = range[2 * i];
		const int s1 = range[2 * i + 1];
		const uint32_t id = w->ids[slot];
		for ( int s = s0; s <= s1; ++s )
		{
			int dst = cursor[s]++;
			memcpy( e + (size_t)dst * stride, packed, sizeof( float ) * (size_t)stride );
			w->slabIds[dst] = id;
			w->slabFirst[dst] = s0;
		}
	}

	w->found.count = 0;
	int tests = 0;
	if ( !spSweepAll( w, slabCount, &tests ) )
		return sp_resultOutOfMemory;
	c.overlapTests = tests;

	// Sort into the scratch pair list and diff against the current one. Reserve everything first, so a failed
	// allocation leaves the previous results in place.
	spPairArray* prev = &w->pairs[w->current];
	spPairArray* next = &w->pairs[1 - w->current];
	const int m = w->found.count;
	if ( !spGrow( (void**)&next->data, &next->capacity, m, sizeof( spPair ) ) ||
		 !spGrow( (void**)&w->began.data, &w->began.capacity, m, sizeof( spPair ) ) ||
		 !spGrow( (void**)&w->ended.data, &w->ended.capacity, prev->count, sizeof( spPair ) ) ||
		 !spGrow( (void**)&w->bucketStart, &w->bucketCapacity, w->slotCount + 1, sizeof( int ) ) )
		return sp_resultOutOfMemory;
	spSortPairs( w->found.data, m, next->data, w->bucketStart, w->slotCount );
	next->count = m;
	spDiffPairs( prev, next, &w->began, &w->ended );
	w->current = 1 - w->current;

	c.pairs = m;
	c.began = w->began.count;
	c.ended = w->ended.count;
	w->counters = c;
	return sp_resultOk;
}
