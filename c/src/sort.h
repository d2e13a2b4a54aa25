// SPDX-License-Identifier: MIT
// Private: the sorts (sort.c): float keys as ordered integers, the radix sorts of a rebuild's slabs, the insertion
// sorts of packed records that keep a refreshed slab sorted.
#pragma once

#include "core.h"

/// Map a float to a uint32 whose unsigned order is the float order (negative floats reversed, sign flipped).
static inline uint32_t spFloatToKey( float f )
{
	uint32_t u;
	memcpy( &u, &f, sizeof( u ) );
	return u ^ ( ( u >> 31 ) != 0 ? 0xFFFFFFFFu : 0x80000000u );
}

/// The float of an ordered key (the inverse of spFloatToKey).
static inline float spKeyToFloat( uint32_t k )
{
	const uint32_t u = k ^ ( ( k >> 31 ) != 0 ? 0x80000000u : 0xFFFFFFFFu );
	float f;
	memcpy( &f, &u, sizeof( f ) );
	return f;
}

/// Sort `count` slots by their float keys with an LSD radix sort (stable). `keys` and `slots` are permuted.
/// Needs scratch: `tmpKeys` and `tmpSlots` of `count` elements.
void spRadixSortKeys( float* keys, int* slots, uint32_t* tmpKeys, int* tmpSlots, int count );

/// Sort `m` float keys stably: their places into `order` (`keys` may be permuted). Each key is mapped to 16 bits
/// by its place in the keys' range (a monotone map), the places are radix-sorted by that in two 8-bit passes, and
/// an insertion sort puts back in order the few keys that share a 16-bit value. Many such keys (a dense cluster),
/// or more than 65536 keys, take a full radix sort (spRadixSortKeys). Scratch: `orderTemp` m, `temp` 2m.
void spSortKeys( float* keys, int m, int* order, int* orderTemp, uint32_t* temp );

/// spSortKeys for keys known to lie in [lo, hi] (the boxes' statistics give that range: no pass to find it).
void spSortKeysIn( float* keys, int m, float lo, float hi, int* order, int* orderTemp, uint32_t* temp );

/// One step of an insertion sort of packed records (`stride` floats each, keyed by their first float) with their
/// ids and a parallel int array `slots` (none when null): record `i` moves down to its place among the sorted
/// records [lo, i). Returns the places it moved. Inlined with a constant stride.
SP_FORCE_INLINE int spInsertRecord( float* packed, uint32_t* ids, int* slots, int lo, int i, int stride )
{
	const float k = packed[(size_t)i * stride];
	if ( !( i > lo && k < packed[(size_t)( i - 1 ) * stride] ) )
	{
		return 0;
	}
	float record[2 * SP_MAX_DIMENSIONS];
	memcpy( record, packed + (size_t)i * stride, sizeof( float ) * (size_t)stride );
	const uint32_t id = ids[i];
	const int slot = slots != NULL ? slots[i] : 0;
	int j = i;
	do
	{
		memcpy( packed + (size_t)j * stride, packed + (size_t)( j - 1 ) * stride, sizeof( float ) * (size_t)stride );
		ids[j] = ids[j - 1];
		if ( slots != NULL )
		{
			slots[j] = slots[j - 1];
		}
		--j;
	} while ( j > lo && k < packed[(size_t)( j - 1 ) * stride] );
	memcpy( packed + (size_t)j * stride, record, sizeof( float ) * (size_t)stride );
	ids[j] = id;
	if ( slots != NULL )
	{
		slots[j] = slot;
	}
	return i - j;
}

/// Insertion sort of packed boxes (`stride` floats each, keyed by their first float) with their ids, giving up
/// after `budget` swaps. Returns the swap count, or -1 if it gave up (the arrays are then a permutation, not
/// sorted).
int spInsertionSortPacked( float* packed, uint32_t* ids, int count, int stride, int budget );
