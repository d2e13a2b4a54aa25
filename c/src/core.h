// SPDX-License-Identifier: MIT
// Private: the world's layout, shared by the implementation files.
#pragma once

#include "sweep_prune/sweep_prune.h"

#include <assert.h>

#ifdef NDEBUG
#define SP_ASSERT( c ) ( (void)0 )
#else
#define SP_ASSERT( c ) assert( c )
#endif

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

/// A persistent sorted endpoint list for one axis (spWorld_GetEndpoints).
typedef struct spEndpointList
{
	float* values;
	uint32_t* refs;
	int count;
	int capacity;
} spEndpointList;

typedef struct spWorld
{
	int dimensions;
	int stride; // floats per slot: 2 * dimensions
	uint16_t generation;

	// Slots. A slot is live when ids[s] != 0; its id is ids[s]. generations[s] is the generation of the next
	// box in the slot (1..SP_GENERATION_MASK), or 0 once the slot is retired.
	float* bounds;
	uint32_t* ids;
	uint16_t* generations;
	uint8_t* flags; // SP_FLAG_*
	int* freeNext;	// free list link per slot
	int freeHead;	// -1 when empty
	int slotCount;	// slots ever used (high-water mark)
	int slotCapacity;
	int boxCount;

	// Sweep order: slots sorted by min on sweepAxis. May hold removed slots until the next update compacts it.
	int* order;
	float* orderKeys;
	int orderCount;
	int orderSorted; // entries [0, orderSorted) were sorted at the last update; the rest were appended since
	int orderCapacity;
	int sweepAxis;
	int slabAxis;

	// Scratch for the update, kept between frames so steady state does not allocate.
	uint32_t* radixKeys;
	int* radixTemp;
	int radixCapacity; // of radixKeys (2 per box)
	int radixTempCapacity;
	float* slabBoxes; // per slab entry: sweep min, sweep max, then (d-1) mins and (d-1) maxes
	uint32_t* slabIds;
	int* slabFirst; // per slab entry: index of the first slab the box touches (for pair de-duplication)
	int slabEntryCapacity;
	int* slabStart; // per slab: first entry; slabStart[slabCount] = end
	int slabStartCapacity;
	int* slotRange; // per order entry: first and last slab
	int slotRangeCapacity;
	spPairArray found;		// pairs found by the sweep, unsorted
	int* bucketStart;		// counting sort by the slot of the first id
	int bucketCapacity;

	// Results: pairs[current] is public, pairs[1 - current] is the scratch for the next update.
	spPairArray pairs[2];
	int current;
	spPairArray began;
	spPairArray ended;
	spCounters counters;
	spBoxId lastInvalidBox;

	spEndpointList endpoints[SP_MAX_DIMENSIONS];
	uint32_t structureVersion; // bumps when a box is added or removed
	uint32_t endpointsVersion[SP_MAX_DIMENSIONS];
} spWorld;

enum
{
	SP_FLAG_IN_ORDER = 1,		   // the slot has an entry in the sweep order
	SP_FLAG_IN_ENDPOINTS_0 = 1 << 1 // bit (1 << (1 + axis)): the slot has endpoints in that axis's list
};

/// Allocation through the installed allocator. spAlloc(0) and friends are not used.
void* spRealloc( void* ptr, size_t size );
void spFree( void* ptr );

/// Grow *data to hold at least `need` elements of `elemSize` bytes, by a factor of 1.5 or more. Contents are
/// kept. Returns false, leaving *data and *capacity untouched, on overflow or allocation failure.
bool spGrow( void** data, int* capacity, int need, size_t elemSize );

/// Validate one box's bounds: finite, min <= max.
spResult spCheckBounds( const float* min, const float* max, int dimensions );

/// Sort `count` slots by their float keys with an LSD radix sort (stable). `keys` and `slots` are permuted.
/// Needs scratch: `tmpKeys` and `tmpSlots` of `count` elements.
void spRadixSortKeys( float* keys, int* slots, uint32_t* tmpKeys, int* tmpSlots, int count );

/// Insertion sort of slots by keys, giving up after `budget` swaps. Returns the swap count, or -1 if it gave up
/// (the arrays are then a permutation, not sorted).
int spInsertionSortKeys( float* keys, int* slots, int count, int budget );

/// Sort found pairs by (a, b) into `out` (counting sort on the slot of a, then insertion sort inside a bucket).
/// `bucketStart` needs slotCount + 1 ints.
void spSortPairs( const spPair* in, int count, spPair* out, int* bucketStart, int slotCount );

/// Pairs in `next` and not in `prev` go to `began`, pairs in `prev` and not in `next` to `ended`. Both inputs
/// are sorted; outputs are sorted. Outputs need room for next.count and prev.count pairs.
void spDiffPairs( const spPairArray* prev, const spPairArray* next, spPairArray* began, spPairArray* ended );

/// The update: validation, sorting, sweep, pair diff.
spResult spUpdateWorld( spWorld* world );

/// Bring one axis's endpoint list up to date.
spResult spUpdateEndpoints( spWorld* world, int axis );
