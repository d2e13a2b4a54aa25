// SPDX-License-Identifier: MIT
// Sorting: insertion sort of packed records for coherent frames, LSD radix sort of keys for the slabs of a rebuild.
#include "sort.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define SP_RADIX_BITS	8
#define SP_RADIX_PASSES 4
#define SP_RADIX_SIZE	( 1 << SP_RADIX_BITS )
#define SP_RADIX_MASK	( SP_RADIX_SIZE - 1 )

void spRadixSortKeys( float* keys, int* slots, uint32_t* tmpKeys, int* tmpSlots, int count )
{
	if ( count < 2 )
	{
		return;
	}
	// four 8-bit passes, histograms for all of them in one read: small enough to clear and sum for the few
	// hundred keys of a slab, and for the scatter targets to stay in the first-level cache
	int hist[SP_RADIX_PASSES][SP_RADIX_SIZE];
	memset( hist, 0, sizeof( hist ) );
	uint32_t* k0 = tmpKeys;
	uint32_t* k1 = tmpKeys + count;
	for ( int i = 0; i < count; ++i )
	{
		uint32_t k = spFloatToKey( keys[i] );
		k0[i] = k;
		for ( int pass = 0; pass < SP_RADIX_PASSES; ++pass )
		{
			hist[pass][( k >> ( pass * SP_RADIX_BITS ) ) & SP_RADIX_MASK] += 1;
		}
	}
	int* s0 = slots;
	int* s1 = tmpSlots;
	for ( int pass = 0; pass < SP_RADIX_PASSES; ++pass )
	{
		int* h = hist[pass];
		int shift = pass * SP_RADIX_BITS;
		// a pass where every key has the same digit changes nothing
		if ( h[( k0[0] >> shift ) & SP_RADIX_MASK] == count )
		{
			continue;
		}
		int sum = 0;
		for ( int b = 0; b < SP_RADIX_SIZE; ++b )
		{
			int c = h[b];
			h[b] = sum;
			sum += c;
		}
		for ( int i = 0; i < count; ++i )
		{
			uint32_t k = k0[i];
			int dst = h[( k >> shift ) & SP_RADIX_MASK]++;
			k1[dst] = k;
			s1[dst] = s0[i];
		}
		uint32_t* tk = k0;
		k0 = k1;
		k1 = tk;
		int* ts = s0;
		s0 = s1;
		s1 = ts;
	}
	if ( s0 != slots )
	{
		memcpy( slots, s0, sizeof( int ) * (size_t)count );
	}
	for ( int i = 0; i < count; ++i )
	{
		keys[i] = spKeyToFloat( k0[i] );
	}
}

void spSortKeys( float* keys, int m, int* order, int* orderTemp, uint32_t* temp )
{
	float lo = INFINITY, hi = -INFINITY;
	for ( int k = 0; k < m; ++k )
	{
		lo = keys[k] < lo ? keys[k] : lo;
		hi = keys[k] > hi ? keys[k] : hi;
	}
	spSortKeysIn( keys, m, lo, hi, order, orderTemp, temp );
}

void spSortKeysIn( float* keys, int m, float lo, float hi, int* order, int* orderTemp, uint32_t* temp )
{
	// (v - lo) * scale rounds monotonically in v; the top of the range may round to 65536. A range past the
	// largest float (keys near both ends of it), or so small that the scale is not finite, takes the radix sort.
	const float range = hi - lo;
	const float scale = 65535.0f / range;
	if ( !( hi > lo ) || m > 65536 || !( range <= FLT_MAX ) || !( scale <= FLT_MAX ) )
	{
		for ( int k = 0; k < m; ++k )
			order[k] = k;
		if ( m > 1 )
			spRadixSortKeys( keys, order, temp, orderTemp, m );
		return;
	}
	int hist[2][256];
	memset( hist, 0, sizeof( hist ) );
	uint32_t* a = temp;
	uint32_t* b = temp + m;
	for ( int k = 0; k < m; ++k )
	{
		uint32_t q = (uint32_t)( ( keys[k] - lo ) * scale );
		q = q > 65535u ? 65535u : q;
		a[k] = q << 16 | (uint32_t)k;
		hist[0][q & 255u] += 1;
		hist[1][q >> 8] += 1;
	}
	for ( int pass = 0; pass < 2; ++pass )
	{
		int* h = hist[pass];
		const int shift = 16 + 8 * pass;
		if ( h[( a[0] >> shift ) & 255u] == m )
			continue; // every key has this digit
		int sum = 0;
		for ( int d = 0; d < 256; ++d )
		{
			const int c = h[d];
			h[d] = sum;
			sum += c;
		}
		for ( int k = 0; k < m; ++k )
			b[h[( a[k] >> shift ) & 255u]++] = a[k];
		uint32_t* t = a;
		a = b;
		b = t;
	}
	// the keys in 16-bit order; those that share a 16-bit value put in order by an insertion sort (usually no move:
	// the last key placed is kept at hand for that test)
	long long budget = m + 64;
	float last = -INFINITY;
	for ( int k = 0; k < m; ++k )
	{
		const int p = (int)( a[k] & 0xFFFFu );
		const float v = keys[p];
		if ( v >= last )
		{
			order[k] = p;
			last = v;
			continue;
		}
		int j = k;
		for ( ; j > 0 && v < keys[order[j - 1]]; --j )
			order[j] = order[j - 1];
		order[j] = p;
		budget -= k - j;
		if ( budget < 0 )
		{
			for ( int i = 0; i < m; ++i )
				order[i] = i;
			spRadixSortKeys( keys, order, temp, orderTemp, m );
			return;
		}
	}
}

// One record: up to 8 floats, moved as a whole. Inlined with a constant stride.
static inline __attribute__( ( always_inline ) ) int spInsertionSortRecords( float* packed, uint32_t* ids, int count,
																			 int stride, int budget )
{
	int swaps = 0;
	for ( int i = 1; i < count; ++i )
	{
		swaps += spInsertRecord( packed, ids, NULL, 0, i, stride );
		if ( swaps > budget )
		{
			return -1;
		}
	}
	return swaps;
}

int spInsertionSortPacked( float* packed, uint32_t* ids, int count, int stride, int budget )
{
	// inlined with a constant stride
	switch ( stride )
	{
		case 2:
			return spInsertionSortRecords( packed, ids, count, 2, budget );
		case 4:
			return spInsertionSortRecords( packed, ids, count, 4, budget );
		case 6:
			return spInsertionSortRecords( packed, ids, count, 6, budget );
		default:
			return spInsertionSortRecords( packed, ids, count, 8, budget );
	}
}
