// SPDX-License-Identifier: MIT
// Private: pair lists and events. pair_sort.c sorts the pairs of a frame by id; pairs.c diffs two sorted lists
// into began and ended events, carries the last update's place pairs over a refreshed index, and assembles the
// update's public lists.
#pragma once

#include "core.h"

typedef struct spWorld spWorld;

/// One box pair, lower id first. Two uint32 values in a row, so an array of them is the public pair layout.
typedef struct spPair
{
	uint32_t a, b;
} spPair;

/// A growable array of pairs.
typedef struct spPairArray
{
	spPair* data;
	int count;
	int capacity;
} spPairArray;

/// One update's place pairs as its sweep's slab ranges wrote them, kept there rather than gathered into one list
/// (with a pool): list r holds the pairs of slabs cut[r]..cut[r + 1] - 1, which are pairs at[r]..at[r + 1] - 1 of the
/// whole, and one pair more past them, above every pair (the carry reads on without a bound check). With `ranges` 0,
/// the pairs are one list (the world's placePairs).
typedef struct spPlaceRanges
{
	spPairArray* lists;
	int* cut; // ranges + 1 slabs
	int* at;  // ranges + 1 places in the whole
	int ranges;
	int capacity; // of lists, and of cut and at less one
} spPlaceRanges;

/// The order of pairs (by a, then b) as one integer.
static inline uint64_t spPairKey( spPair p )
{
#if defined( __BYTE_ORDER__ ) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	// the pair's 8 bytes are b << 32 | a: one load and a rotate
	uint64_t v;
	memcpy( &v, &p, sizeof( v ) );
	return v << 32 | v >> 32;
#else
	return (uint64_t)p.a << 32 | p.b;
#endif
}

/// A pair's 8 bytes as one integer: equal for equal pairs (one load), but not in the order of spPairKey.
static inline uint64_t spPairBits( spPair p )
{
	uint64_t v;
	memcpy( &v, &p, sizeof( v ) );
	return v;
}

/// spPairBits of the pair (a, b) made from two values in registers (a shift and an or).
static inline uint64_t spPairBitsOf( uint32_t a, uint32_t b )
{
#if defined( __BYTE_ORDER__ ) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return (uint64_t)b << 32 | a;
#else
	return spPairBits( ( spPair ){ a, b } );
#endif
}

/// The bits of a slot below `slotCount`, split into the low and the high digit of a radix sort of slots: one pass
/// of up to 11 bits (high 0), or two.
void spSlotDigits( int slotCount, int* lowBits, int* highBits );

/// The ints of histogram scratch spSortPairs needs for pairs of ids below `slotCount` slots.
int spPairHistogramCount( int slotCount );

/// Sort found pairs by (a, b) into `out` (counting sort on the slot of a, then each run of one a by b). `scratch`
/// holds `count` pairs, `start` slotCount + 1 ints, `histograms` spPairHistogramCount(slotCount) ints. Every slot
/// of a pair's ids is below `slotCount`.
void spSortPairs( const spPair* in, int count, spPair* out, spPair* scratch, int* start, int* histograms,
				  int slotCount );

/// spSortPairs with the world's scratch (pairStart, pairHistograms) and slot count; with a pool (spParallelOn), when
/// it sorts by blocks of slots, the scatter into blocks and the blocks' sorts by ranges at once, to the same result.
void spSortPairsOn( spWorld* world, const spPair* in, int count, spPair* out, spPair* scratch );

/// The began and the ended candidates of a carry sorted by id (spSortPairs, `found` as scratch); with a pool, when both
/// are few among the slots (a coherent frame's), the two sorts at once.
void spSortEventsOn( spWorld* world, const spPair* began, int beganCount, spPair* beganOut, const spPair* ended,
					 int endedCount, spPair* endedOut );

/// Pairs in `next` and not in `prev` go to `began`, pairs in `prev` and not in `next` to `ended`. Both inputs
/// are sorted; outputs are sorted. Outputs need room for next.count and prev.count pairs. `began` may be `next`
/// and `ended` may be `prev`: each is then compacted in place (a write never passes the read).
void spDiffPairs( const spPairArray* prev, const spPairArray* next, spPairArray* began, spPairArray* ended );

void spFreePlaceRanges( spPlaceRanges* ranges );
size_t spPlaceRangesByteCount( const spPlaceRanges* ranges );

/// The update's pair lists, from the sweep's place pairs (placePairs[1 - current]) and the pairs with static
/// boxes (found, id pairs): the public pairs and the began and ended events; then `current` flips. Returns false
/// on allocation failure, with the last update's results untouched.
bool spMakePairLists( spWorld* world );
