// SPDX-License-Identifier: MIT
// The textbook box pruning (P. Terdiman's "box pruning", with the scalar steps of his "box pruning revisited"): sort
// the boxes on their min x with a radix sort, copy them in that order, and sweep; each box is tested against the
// boxes that start before it ends on x. No state kept between calls, one sweep axis, no slabs, no SIMD of its own
// (the compiler may vectorise what it can, with the engine's flags). Made as fast as that design goes: the radix sort
// counts its four digits in one pass and skips a pass whose digit is the same for every key; the sorted boxes are
// packed for the sweep (min x apart, Terdiman's PosList, with a sentinel so the sweep's loop has one compare); the
// sweep is specialised for 2D and 3D with a branch-free overlap test on the other axes, and the pair push is inline
// with room reserved ahead.
#include "box_pruning.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// A float's bits as an unsigned key that sorts as the float does (-0 as +0, so that they compare equal).
static inline uint32_t SortKey( float f )
{
	f += 0.0f;
	uint32_t u;
	memcpy( &u, &f, sizeof( u ) );
	return ( u & 0x80000000u ) ? ~u : u | 0x80000000u;
}

static void* Allocate( size_t bytes )
{
	void* p = malloc( bytes );
	if ( p == NULL )
		abort();
	return p;
}

// The order of the boxes by min x (into order[0, n)) and their min x keys in that order (into keys[0, n)): an LSD
// radix sort of (key, index), 8 bits a pass. keys and order have room for 2n + 1.
static void SortOnMinX( const float* bounds, int n, size_t stride, uint32_t* keys, uint32_t* order )
{
	uint32_t *keys2 = keys + n + 1, *order2 = order + n + 1;
	int histogram[4][256];
	memset( histogram, 0, sizeof( histogram ) );
	for ( int i = 0; i < n; ++i )
	{
		const uint32_t k = SortKey( bounds[(size_t)i * stride] );
		keys[i] = k;
		order[i] = (uint32_t)i;
		histogram[0][k & 255] += 1;
		histogram[1][( k >> 8 ) & 255] += 1;
		histogram[2][( k >> 16 ) & 255] += 1;
		histogram[3][k >> 24] += 1;
	}
	int passes = 0;
	for ( int pass = 0; pass < 4 && n > 0; ++pass )
	{
		const int shift = 8 * pass;
		int* h = histogram[pass];
		if ( h[( keys[0] >> shift ) & 255] == n )
			continue; // every key has this digit: the pass would change nothing
		int sum = 0;
		for ( int b = 0; b < 256; ++b )
		{
			const int c = h[b];
			h[b] = sum;
			sum += c;
		}
		for ( int i = 0; i < n; ++i )
		{
			const uint32_t k = keys[i];
			const int at = h[( k >> shift ) & 255]++;
			keys2[at] = k;
			order2[at] = order[i];
		}
		uint32_t* t = keys;
		keys = keys2;
		keys2 = t;
		t = order;
		order = order2;
		order2 = t;
		++passes;
	}
	if ( passes % 2 == 1 )
	{
		memcpy( keys2, keys, sizeof( uint32_t ) * (size_t)n );
		memcpy( order2, order, sizeof( uint32_t ) * (size_t)n );
	}
}

typedef struct Pairs
{
	uint32_t* data;
	int count, capacity;
} Pairs;

static void Grow( Pairs* p, int atLeast )
{
	int cap = p->capacity > 0 ? 2 * p->capacity : 1024;
	cap = cap < atLeast ? atLeast : cap;
	uint32_t* data = realloc( p->data, sizeof( uint32_t ) * 2 * (size_t)cap );
	if ( data == NULL )
		abort();
	p->data = data;
	p->capacity = cap;
}

static inline void Push( Pairs* p, uint32_t i, uint32_t j )
{
	if ( p->count == p->capacity )
		Grow( p, p->count + 1 );
	p->data[2 * p->count] = i < j ? i : j;
	p->data[2 * p->count + 1] = i < j ? j : i;
	p->count += 1;
}

// The sweep over boxes sorted on min x, as keys: minX (n + 1, a sentinel above every key last) and per box its max x
// then the other axes' min and max (rest: 2d - 1 keys a box).
static inline __attribute__( ( always_inline ) ) void Sweep( const uint32_t* minX, const uint32_t* rest,
															 const uint32_t* order, int n, int d, Pairs* pairs )
{
	const int r = 2 * d - 1;
	for ( int s = 0; s < n; ++s )
	{
		const uint32_t* p = rest + (size_t)s * r;
		const uint32_t maxX = p[0];
		for ( int t = s + 1; minX[t] <= maxX; ++t )
		{
			const uint32_t* q = rest + (size_t)t * r;
			// both gaps (max - other min) on every other axis non-negative, in 64 bits: no branch but the one on
			// the result (written as two compares, compilers branch on each and miss half of them)
			int64_t gap = 0;
			for ( int a = 0; a < d - 1; ++a )
				gap |= ( (int64_t)p[2 + 2 * a] - q[1 + 2 * a] ) | ( (int64_t)q[2 + 2 * a] - p[1 + 2 * a] );
			if ( gap >= 0 )
				Push( pairs, order[s], order[t] );
		}
	}
}

int BoxPruning( const float* bounds, int n, int d, uint32_t** pairs, int* capacity )
{
	const size_t stride = 2 * (size_t)d;
	uint32_t* minX = Allocate( sizeof( uint32_t ) * ( 2 * (size_t)n + 1 ) );
	uint32_t* order = Allocate( sizeof( uint32_t ) * ( 2 * (size_t)n + 1 ) );
	SortOnMinX( bounds, n, stride, minX, order );
	minX[n] = UINT32_MAX; // the sentinel, above every float's key: every sweep stops there
	// the boxes in x order, contiguous, so the sweep reads memory in order
	const int r = 2 * d - 1;
	uint32_t* rest = Allocate( sizeof( uint32_t ) * (size_t)r * ( (size_t)n + 1 ) );
	for ( int s = 0; s < n; ++s )
	{
		const float* b = bounds + order[s] * stride;
		uint32_t* q = rest + (size_t)s * r;
		q[0] = SortKey( b[d] );
		for ( int a = 1; a < d; ++a )
		{
			q[2 * a - 1] = SortKey( b[a] );
			q[2 * a] = SortKey( b[d + a] );
		}
	}
	Pairs p = { *pairs, 0, *capacity };
	if ( p.capacity < n )
		Grow( &p, n ); // room for a pair a box ahead: few pushes grow the list
	// a copy of the sweep per common dimension count (the overlap test then unrolled)
	switch ( d )
	{
		case 2:
			Sweep( minX, rest, order, n, 2, &p );
			break;
		case 3:
			Sweep( minX, rest, order, n, 3, &p );
			break;
		default:
			Sweep( minX, rest, order, n, d, &p );
			break;
	}
	free( rest );
	free( minX );
	free( order );
	*pairs = p.data;
	*capacity = p.capacity;
	return p.count;
}
