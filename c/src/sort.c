// SPDX-License-Identifier: MIT
// Sorting the sweep order: insertion sort for coherent frames, LSD radix sort for everything else.
#include "core.h"

#include <string.h>

#define SP_RADIX_BITS 11
#define SP_RADIX_SIZE ( 1 << SP_RADIX_BITS )
#define SP_RADIX_MASK ( SP_RADIX_SIZE - 1 )

void spRadixSortKeys( float* keys, int* slots, uint32_t* tmpKeys, int* tmpSlots, int count )
{
	if ( count < 2 )
	{
		return;
	}
	// three 11-bit passes; histograms for all of them in one read
	static int hist[3][SP_RADIX_SIZE];
	memset( hist, 0, sizeof( hist ) );
	uint32_t* k0 = tmpKeys;
	uint32_t* k1 = tmpKeys + count;
	for ( int i = 0; i < count; ++i )
	{
		uint32_t k = spFloatToKey( keys[i] );
		k0[i] = k;
		hist[0][k & SP_RADIX_MASK] += 1;
		hist[1][( k >> 11 ) & SP_RADIX_MASK] += 1;
		hist[2][k >> 22] += 1;
	}
	int* s0 = slots;
	int* s1 = tmpSlots;
	for ( int pass = 0; pass < 3; ++pass )
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

int spInsertionSortKeys( float* keys, int* slots, int count, int budget )
{
	int swaps = 0;
	for ( int i = 1; i < count; ++i )
	{
		float k = keys[i];
		if ( !( k < keys[i - 1] ) )
		{
			continue;
		}
		int s = slots[i];
		int j = i;
		do
		{
			keys[j] = keys[j - 1];
			slots[j] = slots[j - 1];
			--j;
		}
		while ( j > 0 && k < keys[j - 1] );
		keys[j] = k;
		slots[j] = s;
		swaps += i - j;
		if ( swaps > budget )
		{
			return -1;
		}
	}
	return swaps;
}

// One record: up to 8 floats, moved as a whole. Inlined with a constant stride.
static inline __attribute__( ( always_inline ) ) int spInsertionSortRecords( float* packed, uint32_t* ids, int* slots,
																		   int count, int stride, int budget )
{
	int swaps = 0;
	for ( int i = 1; i < count; ++i )
	{
		swaps += spInsertRecord( packed, ids, slots, 0, i, stride );
		if ( swaps > budget )
		{
			return -1;
		}
	}
	return swaps;
}

int spInsertionSortPacked( float* packed, uint32_t* ids, int* slots, int count, int stride, int budget )
{
	// inlined with a constant stride; the test for null slots is the same on every move, so it predicts well
	switch ( stride )
	{
		case 2:
			return spInsertionSortRecords( packed, ids, slots, count, 2, budget );
		case 4:
			return spInsertionSortRecords( packed, ids, slots, count, 4, budget );
		case 6:
			return spInsertionSortRecords( packed, ids, slots, count, 6, budget );
		default:
			return spInsertionSortRecords( packed, ids, slots, count, 8, budget );
	}
}
