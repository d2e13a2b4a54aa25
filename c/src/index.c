// SPDX-License-Identifier: MIT
// The slab index: boxes sorted along one axis, bucketed into slabs along a second. Its plan (the axes and the
// slabs), its memory, and the overlap query that the static boxes' pairs and the public queries use. Built by
// build.c, refreshed by refresh.c.
#include "index.h"

#include <math.h>
#include <string.h>

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
	int chosen =
		stickyAxis >= 0 && stickyAxis < dimensions && !( scores[best] > 1.5 * scores[stickyAxis] ) ? stickyAxis : best;
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

SP_COLD void spFreeIndex( spIndex* index )
{
	spFree( index->entries );
	spFree( index->ids );
	spFree( index->slabFloor );
	spFree( index->slabStart );
	spFree( index->slabMaxWidth );
	memset( index, 0, sizeof( *index ) );
	index->axis = -1;
	index->slabAxis = -1;
}

SP_COLD size_t spIndexByteCount( const spIndex* index, int stride )
{
	return (size_t)index->entryCapacity * ( (size_t)stride * sizeof( float ) + sizeof( uint32_t ) ) +
		   (size_t)index->slabCapacity * ( sizeof( int ) + 2 * sizeof( float ) );
}

int spLargestSlab( const spIndex* index, int s0, int s1 )
{
	const int* start = index->slabStart;
	int largest = 0;
	for ( int s = s0; s < s1; ++s )
	{
		largest = start[s + 1] - start[s] > largest ? start[s + 1] - start[s] : largest;
	}
	return largest;
}

bool spReserveEntries( spIndex* index, int n, int stride )
{
	const spArray arrays[] = { { (void**)&index->entries, sizeof( float ), stride },
							   { (void**)&index->ids, sizeof( uint32_t ), 1 } };
	return spGrowArrays( &index->entryCapacity, spGrownCapacity( index->entryCapacity, n ), arrays, 2 );
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

bool spQueryIndex( const spIndex* index, const spSlotTable* slots, const float* min, const float* max, uint32_t mask,
				   spPairArray* out, uint32_t pairWith )
{
	if ( index->axis < 0 || index->entryCount == 0 )
	{
		return true;
	}
	const int d = slots->dimensions;
	const int stride = 2 * d;
	const int axis = index->axis;
	SP_ASSERT( d >= 1 && d <= SP_MAX_DIMENSIONS && axis < d );
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
				// q holds 2d floats (the analyzer does not follow the loop that fills them)
				// NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult)
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
			if ( slots->ids[slot] != id )
			{
				continue; // removed since the index was built
			}
			spPair p;
			if ( pairWith == 0 )
			{
				if ( ( slots->categories[slot] & mask ) == 0 )
					continue;
				p.a = id;
				p.b = (uint32_t)i; // the entry's place: the box as the index holds it
			}
			else
			{
				if ( id == pairWith || !spFiltersAccept( slots->categories, slots->masks, pairSlot, slot ) )
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
