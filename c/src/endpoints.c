// SPDX-License-Identifier: MIT
// Persistent sorted endpoint lists, one per axis, for callers that want to see the sort (the demo page draws
// them). Kept between calls and re-sorted by insertion sort: O(n + swaps) after coherent motion.
#include "endpoints.h"

#include "world.h"

#include <string.h>

// Endpoint order: by value, and at equal values a min before a max, so touching boxes overlap.
static inline int spEndpointLess( float v, uint32_t ref, float w, uint32_t wref )
{
	return v < w || ( v == w && ( ref & 1u ) < ( wref & 1u ) );
}

// Sort the places [0, n) of a list by endpoint order, stably (a bottom-up merge sort through `temp`, n ints): the
// order of qsort with ties broken by place, with no comparison context in a global.
static void spSortEndpointPlaces( const spEndpointList* l, int* places, int* temp, int n )
{
	int* src = places;
	int* dst = temp;
	for ( int width = 1; width < n; width *= 2 )
	{
		for ( int lo = 0; lo < n; lo += 2 * width )
		{
			const int mid = lo + width < n ? lo + width : n;
			const int hi = lo + 2 * width < n ? lo + 2 * width : n;
			int i = lo, j = mid, k = lo;
			while ( i < mid && j < hi )
			{
				const int x = src[i], y = src[j];
				// y first only when it is strictly less: equal endpoints keep their places' order
				if ( spEndpointLess( l->values[y], l->refs[y], l->values[x], l->refs[x] ) )
				{
					dst[k++] = y;
					++j;
				}
				else
				{
					dst[k++] = x;
					++i;
				}
			}
			while ( i < mid )
				dst[k++] = src[i++];
			while ( j < hi )
				dst[k++] = src[j++];
		}
		int* t = src;
		src = dst;
		dst = t;
	}
	if ( src != places )
	{
		memcpy( places, src, sizeof( int ) * (size_t)n );
	}
}

spResult spUpdateEndpoints( spWorld* w, int axis )
{
	// Bounds written through the view are unchecked until now. Validate every live box before touching the list:
	// NaN would make the comparisons inconsistent (the sort's order then undefined), and a rejected call must
	// change nothing.
	const int d = w->dimensions;
	const int stride = w->stride;
	for ( int s = 0; s < w->slotCount; ++s )
	{
		if ( w->ids[s] == 0 )
			continue;
		const float* b = w->bounds + (size_t)s * stride;
		spResult r = spCheckBounds( b, b + d, d );
		if ( r != sp_resultOk )
		{
			w->lastInvalidBox.bits = w->ids[s];
			return r;
		}
	}
	w->lastInvalidBox = sp_nullBoxId;

	spEndpointList* list = &w->endpoints[axis];
	const uint8_t bit = (uint8_t)( SP_FLAG_IN_ENDPOINTS_0 << axis );
	if ( w->endpointsVersion[axis] != w->structureVersion || list->count != 2 * w->boxCount )
	{
		// membership changed: room for every live box first, so failure changes nothing
		const spArray arrays[] = { { (void**)&list->values, sizeof( float ), 1 },
								   { (void**)&list->refs, sizeof( uint32_t ), 1 } };
		if ( !spGrowArrays( &list->capacity, 2 * w->slotCount, arrays, 2 ) )
			return sp_resultOutOfMemory;
		int n = 0;
		for ( int i = 0; i < list->count; ++i )
		{
			uint32_t slot = list->refs[i] >> 1;
			if ( w->ids[slot] == 0 )
			{
				w->flags[slot] &= (uint8_t)~bit;
				continue;
			}
			list->refs[n++] = list->refs[i];
		}
		for ( int s = 0; s < w->slotCount; ++s )
		{
			if ( w->ids[s] != 0 && ( w->flags[s] & bit ) == 0 )
			{
				w->flags[s] |= bit;
				list->refs[n++] = (uint32_t)s << 1;
				list->refs[n++] = (uint32_t)s << 1 | 1u;
			}
		}
		list->count = n;
		w->endpointsVersion[axis] = w->structureVersion;
	}
	float* values = list->values;
	uint32_t* refs = list->refs;
	const int n = list->count;
	for ( int i = 0; i < n; ++i )
	{
		uint32_t r = refs[i];
		values[i] = w->bounds[(size_t)( r >> 1 ) * stride + ( ( r & 1u ) ? d : 0 ) + axis];
	}
	long long swaps = 0;
	const long long budget = 8LL * n + 1024;
	for ( int i = 1; i < n && swaps <= budget; ++i )
	{
		float v = values[i];
		uint32_t r = refs[i];
		int j = i;
		while ( j > 0 && spEndpointLess( v, r, values[j - 1], refs[j - 1] ) )
		{
			values[j] = values[j - 1];
			refs[j] = refs[j - 1];
			--j;
		}
		values[j] = v;
		refs[j] = r;
		swaps += i - j;
	}
	if ( swaps > budget )
	{
		// far from sorted (many boxes added, or a jump): sort an index permutation instead
		int* index = spRealloc( NULL, sizeof( int ) * (size_t)n + 1 );
		int* temp = spRealloc( NULL, sizeof( int ) * (size_t)n + 1 );
		float* v2 = spRealloc( NULL, sizeof( float ) * (size_t)n + 1 );
		uint32_t* r2 = spRealloc( NULL, sizeof( uint32_t ) * (size_t)n + 1 );
		if ( index == NULL || temp == NULL || v2 == NULL || r2 == NULL )
		{
			spFree( index );
			spFree( temp );
			spFree( v2 );
			spFree( r2 );
			return sp_resultOutOfMemory;
		}
		for ( int i = 0; i < n; ++i )
			index[i] = i;
		spSortEndpointPlaces( list, index, temp, n );
		for ( int i = 0; i < n; ++i )
		{
			v2[i] = values[index[i]];
			r2[i] = refs[index[i]];
		}
		for ( int i = 0; i < n; ++i )
		{
			values[i] = v2[i];
			refs[i] = r2[i];
		}
		spFree( index );
		spFree( temp );
		spFree( v2 );
		spFree( r2 );
	}
	w->counters.endpointSwaps = swaps > INT32_MAX ? INT32_MAX : (int)swaps;
	return sp_resultOk;
}
