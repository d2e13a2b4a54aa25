// SPDX-License-Identifier: MIT
// The textbook box pruning (P. Terdiman's "box pruning"): sort the boxes on their min x with a radix sort, then
// sweep the sorted boxes (copied in x order); each box is tested against the boxes that start before it ends on x. No state kept
// between calls, no slabs, no SIMD of its own (the compiler may vectorise what it can, with the engine's flags).
#include "box_pruning.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// A float's bits as an unsigned key that sorts as the float does.
static uint32_t SortKey( float f )
{
	uint32_t u;
	memcpy( &u, &f, sizeof( u ) );
	return ( u & 0x80000000u ) ? ~u : u | 0x80000000u;
}

static int Push( uint32_t** pairs, int* capacity, int count, uint32_t a, uint32_t b )
{
	if ( count == *capacity )
	{
		int cap = *capacity ? 2 * *capacity : 1024;
		uint32_t* p = realloc( *pairs, sizeof( uint32_t ) * 2 * (size_t)cap );
		if ( p == NULL )
			abort();
		*pairs = p;
		*capacity = cap;
	}
	( *pairs )[2 * count] = a;
	( *pairs )[2 * count + 1] = b;
	return count + 1;
}

int BoxPruning( const float* bounds, int n, int d, uint32_t** pairs, int* capacity )
{
	const size_t stride = 2 * (size_t)d;
	uint32_t* keys = malloc( sizeof( uint32_t ) * (size_t)n * 2 );
	uint32_t* order = malloc( sizeof( uint32_t ) * (size_t)n * 2 );
	if ( keys == NULL || order == NULL )
		abort();
	uint32_t* keys2 = keys + n;
	uint32_t* order2 = order + n;
	for ( int i = 0; i < n; ++i )
	{
		keys[i] = SortKey( bounds[(size_t)i * stride] );
		order[i] = (uint32_t)i;
	}
	// LSD radix sort, 4 passes of 8 bits
	for ( int shift = 0; shift < 32; shift += 8 )
	{
		int histogram[256] = { 0 };
		for ( int i = 0; i < n; ++i )
			histogram[( keys[i] >> shift ) & 255] += 1;
		int sum = 0;
		for ( int b = 0; b < 256; ++b )
		{
			int c = histogram[b];
			histogram[b] = sum;
			sum += c;
		}
		for ( int i = 0; i < n; ++i )
		{
			int at = histogram[( keys[i] >> shift ) & 255]++;
			keys2[at] = keys[i];
			order2[at] = order[i];
		}
		uint32_t* t = keys;
		keys = keys2;
		keys2 = t;
		t = order;
		order = order2;
		order2 = t;
	}
	// the boxes in x order, contiguous, so the sweep reads memory in order; their min x also apart, so the loop that
	// finds where the sweep stops reads 4 bytes a box (Terdiman's PosList)
	float* sorted = malloc( sizeof( float ) * stride * (size_t)n );
	float* minX = malloc( sizeof( float ) * ( (size_t)n + 1 ) );
	if ( sorted == NULL || minX == NULL )
		abort();
	for ( int s = 0; s < n; ++s )
	{
		memcpy( sorted + (size_t)s * stride, bounds + order[s] * stride, sizeof( float ) * stride );
		minX[s] = sorted[(size_t)s * stride];
	}
	minX[n] = INFINITY; // a sentinel: the sweep stops there
	int count = 0;
	for ( int s = 0; s < n; ++s )
	{
		const float* p = sorted + (size_t)s * stride;
		const float maxX = p[d];
		for ( int t = s + 1; minX[t] <= maxX; ++t )
		{
			const float* q = sorted + (size_t)t * stride;
			int overlap = 1;
			for ( int a = 1; a < d; ++a )
				overlap &= p[a] <= q[d + a] && q[a] <= p[d + a];
			if ( overlap )
			{
				const uint32_t i = order[s], j = order[t];
				count = Push( pairs, capacity, count, i < j ? i : j, i < j ? j : i );
			}
		}
	}
	free( minX );
	free( sorted );
	free( keys < keys2 ? keys : keys2 );
	free( order < order2 ? order : order2 );
	return count;
}
