// SPDX-License-Identifier: MIT
// The slab index: boxes sorted along one axis, bucketed into slabs along a second. Built by the update for the
// moving boxes (then swept for pairs) and for the static boxes (then queried), and read by the public queries.
#include "core.h"

#include <limits.h>
#include <math.h>
#include <string.h>

// Up to this many boxes, spBuildIndex sorts them all at once (see there).
#ifndef SP_GLOBAL_SORT_MAX
#define SP_GLOBAL_SORT_MAX ( 1 << 15 )
#endif

void spChooseAxes( const spAxisStats* stats, int dimensions, int count, int stickyAxis, int* axis, int* slabAxis )
{
	// score: spread of the centers over the mean width; sweeping the best axis gives the fewest candidates
	double scores[SP_MAX_DIMENSIONS] = { 0 };
	int best = 0;
	for ( int a = 0; a < dimensions && count > 0; ++a )
	{
		const spAxisStats* s = stats + a;
		double mean = s->sum / count;
		double var = s->sumSq / count - mean * mean;
		double spread = var > 0.0 ? sqrt( var ) : 0.0;
		scores[a] = spread / ( s->width / count + 1e-30 );
		if ( scores[a] > scores[best] )
		{
			best = a;
		}
	}
	int chosen = stickyAxis >= 0 && stickyAxis < dimensions && !( scores[best] > 1.5 * scores[stickyAxis] )
					 ? stickyAxis
					 : best;
	int second = -1;
	for ( int a = 0; a < dimensions; ++a )
	{
		if ( a != chosen && ( second < 0 || scores[a] > scores[second] ) )
		{
			second = a;
		}
	}
	*axis = chosen;
	*slabAxis = second;
}

void spFreeIndex( spIndex* index )
{
	spFree( index->entries );
	spFree( index->ids );
	spFree( index->slabFloor );
	spFree( index->slabStart );
	spFree( index->slabMaxWidth );
	spFree( index->range );
	spFree( index->packed );
	spFree( index->packedIds );
	spFree( index->packedOrigins );
	spFree( index->incoming );
	spFree( index->incomingIds );
	spFree( index->remap );
	spFree( index->previousIds );
	spFree( index->incomingSlabs );
	spFree( index->sortKeys );
	spFree( index->sortTemp );
	spFree( index->sortOrder );
	memset( index, 0, sizeof( *index ) );
	index->axis = -1;
	index->slabAxis = -1;
}

size_t spIndexByteCount( const spIndex* index, int stride )
{
	return (size_t)index->entryCapacity * ( (size_t)stride * sizeof( float ) + sizeof( uint32_t ) ) +
		   (size_t)index->slabCapacity * ( sizeof( int ) + 2 * sizeof( float ) ) +
		   (size_t)index->rangeCapacity * sizeof( int ) +
		   (size_t)index->packedCapacity * ( (size_t)stride * sizeof( float ) + sizeof( uint32_t ) + sizeof( int ) ) +
		   (size_t)index->incomingCapacity * 2 * ( (size_t)stride * sizeof( float ) + sizeof( uint32_t ) ) +
		   (size_t)index->remapCapacity * sizeof( int ) + (size_t)index->previousIdsCapacity * sizeof( uint32_t ) +
		   (size_t)index->incomingCapacity * sizeof( int ) +
		   (size_t)index->sortCapacity * ( sizeof( float ) + 2 * sizeof( uint32_t ) + 2 * sizeof( int ) );
}

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

bool spReserveEntries( spIndex* index, int n, int stride )
{
	const spArray arrays[] = { { (void**)&index->entries, sizeof( float ), stride },
							   { (void**)&index->ids, sizeof( uint32_t ), 1 } };
	return spGrowArrays( &index->entryCapacity, spGrownCapacity( index->entryCapacity, n ), arrays, 2 );
}

bool spReservePacked( spIndex* index, int n, int stride )
{
	const spArray arrays[] = { { (void**)&index->packed, sizeof( float ), stride },
							   { (void**)&index->packedIds, sizeof( uint32_t ), 1 },
							   { (void**)&index->packedOrigins, sizeof( int ), 1 } };
	return spGrowArrays( &index->packedCapacity, spGrownCapacity( index->packedCapacity, n ), arrays, 3 );
}

// The slab range of each box of `slots` (range[2i], range[2i + 1]) and the entry count of each slab s in
// counts[s + 1] (counts has slabCount + 2 elements). Reads the bounds in the order of `slots`. Most boxes touch
// one or two slabs: the second is counted without a branch, as spScatterSlabs writes it.
static void spCountSlabs( const spIndex* plan, const float* bounds, const int* slots, int n, int stride, int d,
						  int* range, int* counts )
{
	if ( plan->slabAxis < 0 )
	{
		memset( range, 0, sizeof( int ) * 2 * (size_t)n );
		counts[1] = n;
		return;
	}
	const int lo = plan->slabAxis, hi = d + plan->slabAxis;
	for ( int i = 0; i < n; ++i )
	{
		const float* b = bounds + (size_t)slots[i] * stride;
		const int s0 = spSlabOf( plan, b[lo] );
		const int s1 = spSlabOf( plan, b[hi] );
		range[2 * i] = s0;
		range[2 * i + 1] = s1;
		counts[s0 + 1] += 1;
		counts[s0 + 2] += s1 > s0;
		for ( int s = s0 + 2; s <= s1; ++s )
		{
			counts[s + 1] += 1;
		}
	}
}

// Copy each box of `slots` (in the order of `perm`, or as they are), in entry layout, into every slab it touches,
// at cursor[s] in `e` and `ids` (the next place of slab s), and track each slab's largest extent on the sweep
// axis. The copy into a second slab is written unconditionally, to the spare entry at `spare` when there is none.
static inline __attribute__( ( always_inline ) ) void spScatterSlabs( spIndex* index, const spWorld* world,
																	  const int* slots, const int* perm,
																	  const int* range, int n, int d, int axis,
																	  int* cursor, int spare, float* e, uint32_t* ids )
{
	const int stride = 2 * d;
	const float* bounds = world->bounds;
	const uint32_t* worldIds = world->ids;
	float* maxWidth = index->slabMaxWidth;
	for ( int k = 0; k < n; ++k )
	{
		const int i = perm != NULL ? perm[k] : k;
		const int slot = slots[i];
		float box[2 * SP_MAX_DIMENSIONS];
		spPackBox( box, bounds + (size_t)slot * stride, d, axis );
		const float width = box[1] - box[0];
		const int s0 = range[2 * i];
		const int s1 = range[2 * i + 1];
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

// Sort each slab's entries of the packed scratch by min on the sweep axis into the index's entries. A slab of a
// few thousand entries fits in cache: its keys are sorted with their places (spSortKeys), then its records are
// gathered in that order.
static void spSortSlabs( spIndex* index, int stride )
{
	const float* packed = index->packed;
	const uint32_t* packedIds = index->packedIds;
	float* keys = index->sortKeys;
	int* order = index->sortOrder;
	int* orderTemp = index->sortOrder + index->sortCapacity;
	for ( int s = 0; s < index->slabCount; ++s )
	{
		const int base = index->slabStart[s];
		const int m = index->slabStart[s + 1] - base;
		for ( int k = 0; k < m; ++k )
		{
			keys[k] = packed[(size_t)( base + k ) * stride];
		}
		spSortKeys( keys, m, order, orderTemp, index->sortTemp );
		float* e = index->entries + (size_t)base * stride;
		uint32_t* ids = index->ids + base;
		for ( int k = 0; k < m; ++k )
		{
			const int from = base + order[k];
			const float* p = packed + (size_t)from * stride;
			for ( int c = 0; c < stride; ++c )
				e[(size_t)k * stride + c] = p[c];
			ids[k] = packedIds[from];
		}
	}
}

bool spBuildIndex( spIndex* index, const spWorld* world, const int* slots, int n, int axis, int slabAxis,
				   const spAxisStats* stats )
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

	// scratch: first and last slab per box, then the entry count per slab
	if ( !spGrow( (void**)&index->range, &index->rangeCapacity, 2 * n + slabCount + 2, sizeof( int ) ) )
		return false;
	int* range = index->range;
	int* counts = index->range + 2 * n;
	memset( counts, 0, sizeof( int ) * (size_t)( slabCount + 2 ) );
	spCountSlabs( &plan, world->bounds, slots, n, stride, d, range, counts );
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
	if ( !spGrowArrays( &index->slabCapacity, spGrownCapacity( index->slabCapacity, 2 * ( slabCount + 1 ) ),
						slabArrays, 3 ) )
		return false;
	// Few boxes (their bounds fit in cache): every box sorted at once, then copied into its slabs in that order,
	// which leaves each slab sorted. Many: the boxes copied into their slabs in slot order (reading the bounds
	// sequentially, not in sorted order, which misses the cache on every box), then each slab sorted on its own.
	const int global = n <= SP_GLOBAL_SORT_MAX;
	const int sortCount = global ? n : largest;
	// padding after the last entry: the spare entry of spScatterSlabs
	if ( !spReserveEntries( index, entries + SP_INDEX_PADDING, stride ) ||
		 ( !global && !spReservePacked( index, entries + SP_INDEX_PADDING, stride ) ) )
		return false;
	// two per key
	const spArray sortArrays[] = { { (void**)&index->sortKeys, sizeof( float ), 1 },
								   { (void**)&index->sortTemp, sizeof( uint32_t ), 2 },
								   { (void**)&index->sortOrder, sizeof( int ), 2 } };
	if ( !spGrowArrays( &index->sortCapacity, spGrownCapacity( index->sortCapacity, sortCount ), sortArrays, 3 ) )
		return false;
	memset( index->entries + (size_t)entries * stride, 0, sizeof( float ) * SP_INDEX_PADDING * (size_t)stride );
	memset( index->ids + entries, 0, sizeof( uint32_t ) * SP_INDEX_PADDING );

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
	int* cursor = index->slabStart + slabCount + 1;
	float* maxWidth = index->slabMaxWidth;
	memcpy( start, counts, sizeof( int ) * (size_t)( slabCount + 1 ) );
	for ( int s = 0; s <= slabCount; ++s ) // and the spare one
		maxWidth[s] = 0.0f;

	memcpy( cursor, start, sizeof( int ) * (size_t)( slabCount + 1 ) );
	const int* perm = NULL;
	float* e = index->packed;
	uint32_t* ids = index->packedIds;
	if ( global )
	{
		for ( int i = 0; i < n; ++i )
		{
			index->sortKeys[i] = world->bounds[(size_t)slots[i] * stride + axis];
		}
		if ( n > 0 )
		{
			spSortKeys( index->sortKeys, n, index->sortOrder, index->sortOrder + n, index->sortTemp );
		}
		perm = index->sortOrder;
		e = index->entries;
		ids = index->ids;
	}
	// a copy of the loop per common dimension count (the record copies are then a few moves)
	switch ( d )
	{
		case 2:
			spScatterSlabs( index, world, slots, perm, range, n, 2, axis, cursor, entries, e, ids );
			break;
		case 3:
			spScatterSlabs( index, world, slots, perm, range, n, 3, axis, cursor, entries, e, ids );
			break;
		default:
			spScatterSlabs( index, world, slots, perm, range, n, d, axis, cursor, entries, e, ids );
			break;
	}
	index->entryCount = entries;
	if ( !global )
	{
		spSortSlabs( index, stride );
	}
	return true;
}

void spPlanSlabs( const spAxisStats* stats, int n, int axis, int slabAxis, int* slabCount, int* planAxis, float* lo,
				  float* scale )
{
	*slabCount = 1;
	*planAxis = -1;
	*lo = 0.0f;
	*scale = 0.0f;
	// Slabs along the second axis: about sqrt(n * fA / fB) of them balances sweep candidates (fewer with more
	// slabs) against boxes copied into several slabs (more with more slabs). A quarter of that measured fastest in
	// wasm, side by side against 0.18, 0.35, 0.5 and 0.75 (tests/bench scenes): 10% on coherent motion at 100k,
	// 20% to 30% on one-shot clustered 2D and uniform 3D, the same on one-shot uniform 2D. A copy costs more than
	// a candidate test.
	if ( slabAxis >= 0 && n >= 64 )
	{
		const spAxisStats* sa = stats + axis;
		const spAxisStats* sb = stats + slabAxis;
		double rangeA = (double)sa->hi - (double)sa->lo;
		double rangeB = (double)sb->hi - (double)sb->lo;
		if ( rangeA > 0.0 && rangeB > 0.0 )
		{
			double fA = ( sa->width / n ) / rangeA;
			double fB = ( sb->width / n ) / rangeB;
			double k = 0.25 * sqrt( (double)n * fA / ( fB + 1.0 / n ) );
			double kMax = n / 8.0 < 4096.0 ? n / 8.0 : 4096.0;
			k = k < 1.0 ? 1.0 : k > kMax ? kMax : k;
			if ( (int)k > 1 )
			{
				*slabCount = (int)k;
				*planAxis = slabAxis;
				*lo = sb->lo;
				*scale = (float)( *slabCount / rangeB );
			}
		}
	}
}

bool spQueryIndex( const spIndex* index, const spWorld* world, const float* min, const float* max, uint32_t mask,
				   spPairArray* out, uint32_t pairWith )
{
	if ( index->axis < 0 || index->entryCount == 0 )
	{
		return true;
	}
	const int d = world->dimensions;
	const int stride = world->stride;
	const int axis = index->axis;
	// the query in entry layout
	float q[2 * SP_MAX_DIMENSIONS];
	q[0] = min[axis];
	q[1] = max[axis];
	for ( int a = 0, k = 2; a < d; ++a )
	{
		if ( a != axis )
		{
			q[k++] = min[a];
			q[k++] = max[a];
		}
	}
	int s0 = 0, s1 = 0;
	if ( index->slabCount > 1 )
	{
		s0 = spSlabOf( index, min[index->slabAxis] );
		s1 = spSlabOf( index, max[index->slabAxis] );
	}
	const uint32_t pairSlot = spBoxId_Slot( ( spBoxId ){ pairWith } );
	for ( int s = s0; s <= s1; ++s )
	{
		int lo = index->slabStart[s];
		int hi = index->slabStart[s + 1];
		// first entry whose min can reach the query: min >= q.min - (widest box of the slab). The margin covers
		// rounding; entries it lets through are rejected by the exact test below.
		const double width = index->slabMaxWidth[s];
		const double reach = (double)q[0] - width - ( fabs( (double)q[0] ) + width ) * 1e-6;
		while ( lo < hi )
		{
			int mid = lo + ( hi - lo ) / 2;
			if ( (double)index->entries[(size_t)mid * stride] < reach )
				lo = mid + 1;
			else
				hi = mid;
		}
		hi = index->slabStart[s + 1];
		for ( int i = lo; i < hi; ++i )
		{
			const float* e = index->entries + (size_t)i * stride;
			if ( e[0] > q[1] )
			{
				break;
			}
			int overlap = 1;
			for ( int a = 0; a < stride; a += 2 )
			{
				overlap &= ( e[a] <= q[a + 1] ) & ( q[a] <= e[a + 1] );
			}
			if ( !overlap )
			{
				continue;
			}
			// reported in the first slab shared by the box and the query: where either starts
			if ( s != s0 && e[index->slabAt] < index->slabFloor[s] )
			{
				continue;
			}
			const uint32_t id = index->ids[i];
			const uint32_t slot = spBoxId_Slot( ( spBoxId ){ id } );
			if ( world->ids[slot] != id )
			{
				continue; // removed since the index was built
			}
			spPair p;
			if ( pairWith == 0 )
			{
				if ( ( world->categories[slot] & mask ) == 0 )
					continue;
				p.a = id;
				p.b = (uint32_t)i; // the entry's place: the box as the index holds it
			}
			else
			{
				if ( id == pairWith || !spShouldPair( world, pairSlot, slot ) )
					continue;
				p.a = id < pairWith ? id : pairWith;
				p.b = id < pairWith ? pairWith : id;
			}
			if ( out->count == out->capacity &&
				 !spGrow( (void**)&out->data, &out->capacity, out->count + 1, sizeof( spPair ) ) )
			{
				return false;
			}
			out->data[out->count++] = p;
		}
	}
	return true;
}
