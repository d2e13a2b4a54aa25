// SPDX-License-Identifier: MIT
// Private: the world's layout, shared by the implementation files.
#pragma once

#include "sweep_prune/sweep_prune.h"

#include <assert.h>
#include <string.h>

#ifdef NDEBUG
#define SP_ASSERT( c ) ( (void)0 )
#else
#define SP_ASSERT( c ) assert( c )
#endif

#if defined( __clang__ ) || ( defined( __GNUC__ ) && __GNUC__ >= 12 )
/// Vectors of four lanes (GCC and Clang vector extensions, with __builtin_shufflevector: GCC 12 and later): wasm
/// SIMD in the wasm build, SSE natively. Code that uses them keeps a scalar form for other compilers.
#define SP_VECTOR_4 1
typedef float spFloat4 __attribute__( ( vector_size( 16 ) ) );
typedef double spDouble2 __attribute__( ( vector_size( 16 ) ) );
typedef int32_t spInt4 __attribute__( ( vector_size( 16 ) ) );
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

/// Entries an index keeps after its last one (zeroed): the spare entry spBuildIndex writes to without a branch.
#define SP_INDEX_PADDING 1

/// Boxes sorted along one axis and bucketed into slabs along a second one: the sorted data the sweep, the
/// static-box queries and the public queries all read. Each entry holds 2d floats: min and max on `axis`, then
/// min and max of every other axis in increasing axis order. Entries of a slab are sorted by min on `axis`.
typedef struct spIndex
{
	int axis;	  // sweep axis, or -1 when the index is empty
	int slabAxis; // -1 when there is one slab
	int slabCount;
	float slabLo, slabScale; // slab of coordinate v: (int)((v - slabLo) * slabScale), clamped (monotone in v)
	int slabAt;				 // the slab axis's place in the entry layout (its min; its max follows); 0 with one slab
	float* entries;
	uint32_t* ids;
	int entryCount;
	int entryCapacity;
	int* slabStart;		 // slabCount + 1 entries, then slabCount cursors (scratch)
	// per slab: largest extent on `axis`, so a query can binary-search its start (then as many floats of scratch)
	float* slabMaxWidth;
	// Per slab s: the smallest float v with slab(v) >= s (-INFINITY for slab 0). An entry of slab s whose min on
	// the slab axis is at least slabFloor[s] starts in s; a pair or a hit is reported only in the first slab both
	// touch, the one where either starts.
	float* slabFloor;
	int slabCapacity;
	int* range; // scratch: first and last slab per box, then the entry count per slab
	int rangeCapacity;
	float* packed; // scratch: the boxes in entry layout (spBuildIndex: grouped by slab, before the slabs' sort)
	uint32_t* packedIds;
	int* packedOrigins; // spRefreshIndex: the place of each kept entry before the refresh
	int packedCapacity;
	// scratch of spRefreshIndex: entries that reach a new slab (twice: as found, then grouped by slab)
	float* incoming;
	uint32_t* incomingIds;
	int* incomingSlabs;
	int incomingCapacity;
	// scratch of spBuildIndex: the sort keys of one slab (or of every box), their sorted places and the sorts'
	float* sortKeys;
	uint32_t* sortTemp; // 2 per key
	int* sortOrder;		// 2 per key
	int sortCapacity;
	// After spRefreshIndex: remap[i] is the place of the entry that was at place i before, or -1 if its box left
	// that slab, and previousIds[i] its id (previousCount entries): the refresh writes the new ids into the
	// previousIds buffer and swaps the two, so previousIds holds the ids as they were, with no copy.
	int* remap;
	uint32_t* previousIds;
	int previousCount;
	int remapCapacity;
	int previousIdsCapacity;
} spIndex;

/// Per-axis statistics of a set of boxes, for choosing axes and slabs.
typedef struct spAxisStats
{
	double sum, sumSq; // of centers
	double width;	   // sum of widths
	float lo, hi;	   // smallest min, largest max
} spAxisStats;

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
	uint32_t* categories;
	uint32_t* masks;
	int* freeNext; // free list link per slot
	int freeHead;  // -1 when empty
	int slotCount; // slots ever used (high-water mark)
	int slotCapacity;
	int boxCount;
	int filteredBoxes; // live boxes whose filter is not the default (spHasFilter)

	// The moving (non-static) boxes' slots, in the order they became moving (so mostly in slot order: the
	// update reads their bounds about sequentially). May hold removed or now-static slots until the next update
	// compacts it.
	int* order;
	int orderCount;
	int orderCapacity;
	int orderDirty;		// a slot of the order was removed or made static since the last compaction
	int refreshWait;	// updates to skip before the next try of an in-place refresh of the index
	int refreshBackoff; // the wait after the next give-up of a refresh: 0, 1, 3, then 7
	// Since the dynamic index was last built or refreshed: boxes that became moving (added, or switched from
	// static), and moving boxes removed or switched to static. The index holds exactly the live moving boxes
	// with SP_FLAG_INDEXED.
	int newMovers;
	int goneMovers;

	// Static boxes: never paired with each other; their index is rebuilt only when one of them changes.
	int* statics;			// static slots (may hold removed or no-longer-static slots until compacted)
	float* staticCache;		// bounds of statics[i] when the static index was built, to detect writes
	int staticCount;
	int staticCapacity;
	int staticCacheCapacity;
	int staticDirty;

	spIndex dynamicIndex;
	spIndex staticIndex;

	// Scratch for the update, kept between frames so steady state does not allocate.
	spPairArray found; // pairs found by the sweep, unsorted
	int* pairStart;	   // scratch for sorting the pairs: slotCount + 1 counters
	int pairStartCapacity;

	// Results: pairs[current] is public, pairs[1 - current] is the scratch for the next update.
	spPairArray pairs[2];
	int pairsSorted[2];		// pairs[k] is sorted by (a, b) (after an update that diffed by id)
	int staticPairCount[2]; // pairs[k] has pairs with a static box
	int current;
	// The moving pairs of each update as place pairs (places of entries in the moving boxes' index, lower place
	// first), sorted: the sweep writes placePairs[1 - current]. When an index is a refresh of the last update's,
	// the last update's place pairs are carried over to the new places (spIndex.remap) and diffed with this
	// update's, with no sort by id.
	spPairArray placePairs[2];
	uint32_t placePairsVersion[2]; // the indexVersion of placePairs[k]; 0 for none
	uint32_t indexVersion;		   // bumps when the moving boxes' index changes (built or refreshed)
	uint32_t remapFromVersion;	   // the index's remap maps places of this version to those of remapToVersion
	uint32_t remapToVersion;
	spPairArray eventScratch; // scratch of the pair lists' sorts and diffs
	float* sweepColumns;	  // scratch of the 2D sweep: one slab's min x, min y and max y, as three columns
	int sweepColumnsCapacity;
	spPairArray began;
	spPairArray ended;
	// A copy of pairs[current] for bindings that hand the list to users (spWorld_CopyPairs): the engine reads
	// pairs[current] back at the next update, so a write into a handed-out list must not reach it.
	spPairArray pairsCopy;
	int pairsCopyValid; // pairsCopy holds the last update's pairs
	spCounters counters;
	spBoxId lastInvalidBox;

	// Query results, valid until the next query.
	uint32_t* queryIds;
	float* queryDistances;
	int queryCount;
	int queryCapacity;
	int queryDistanceCapacity;

	spEndpointList endpoints[SP_MAX_DIMENSIONS];
	uint32_t structureVersion; // bumps when a box is added or removed
	uint32_t endpointsVersion[SP_MAX_DIMENSIONS];
} spWorld;

enum
{
	SP_FLAG_IN_ORDER = 1,			 // the slot has an entry in the order of the moving boxes
	SP_FLAG_IN_ENDPOINTS_0 = 1 << 1, // bit (1 << (1 + axis)): the slot has endpoints in that axis's list
	SP_FLAG_STATIC = 1 << 5,		 // the box is static
	SP_FLAG_IN_STATICS = 1 << 6,	 // the slot has an entry in the statics list
	SP_FLAG_INDEXED = 1 << 7		 // the slot's box is moving and has entries in the dynamic index
};

/// The world of an id, or null.
spWorld* spGetWorldPtr( spWorldId id );

/// Allocation through the installed allocator. spAlloc(0) and friends are not used.
void* spRealloc( void* ptr, size_t size );
void spFree( void* ptr );

/// Grow *data to hold at least `need` elements of `elemSize` bytes, by a factor of 1.5 or more. Contents are
/// kept. Returns false, leaving *data and *capacity untouched, on overflow or allocation failure.
bool spGrow( void** data, int* capacity, int need, size_t elemSize );

/// The capacity to grow to for `need` elements, for arrays whose size follows the boxes from frame to frame:
/// `capacity` if it holds them, else the larger of 1.5 times it and `need` with an eighth more room, at least 16.
/// The room keeps a size that wavers by a few elements from one frame to the next from reallocating (and copying)
/// the array again in the next frames. Arrays that share one capacity are each grown to their multiple of it, and
/// it is recorded as theirs.
int spGrownCapacity( int capacity, int need );

/// spGrow to spGrownCapacity.
bool spGrowWithRoom( void** data, int* capacity, int need, size_t elemSize );

/// One array of a set that shares a capacity: `perUnit` elements of `elemSize` bytes per unit of the capacity.
typedef struct spArray
{
	void** data;
	size_t elemSize;
	int perUnit;
} spArray;

/// Grow every array of a set that shares one capacity to `target` units (each by spGrow, contents kept) and record
/// `target` as the capacity; nothing to do when the capacity holds it. On failure the capacity is unchanged
/// (arrays that did grow keep their larger blocks, which is harmless), so nothing that is read changes.
bool spGrowArrays( int* capacity, int target, const spArray* arrays, int count );

/// Validate one box's bounds: finite, min <= max.
spResult spCheckBounds( const float* min, const float* max, int dimensions );

/// Sort `count` slots by their float keys with an LSD radix sort (stable). `keys` and `slots` are permuted.
/// Needs scratch: `tmpKeys` and `tmpSlots` of `count` elements.
void spRadixSortKeys( float* keys, int* slots, uint32_t* tmpKeys, int* tmpSlots, int count );

/// Sort `m` float keys stably: their places into `order` (`keys` may be permuted). Each key is mapped to 16 bits
/// by its place in the keys' range (a monotone map), the places are radix-sorted by that in two 8-bit passes, and
/// an insertion sort puts back in order the few keys that share a 16-bit value. Many such keys (a dense cluster),
/// or more than 65536 keys, take a full radix sort (spRadixSortKeys). Scratch: `orderTemp` m, `temp` 2m.
void spSortKeys( float* keys, int m, int* order, int* orderTemp, uint32_t* temp );

/// One step of an insertion sort of packed records (`stride` floats each, keyed by their first float) with their
/// ids and a parallel int array `slots` (none when null): record `i` moves down to its place among the sorted
/// records [lo, i). Returns the places it moved. Inlined with a constant stride.
static inline __attribute__( ( always_inline ) ) int spInsertRecord( float* packed, uint32_t* ids, int* slots, int lo,
																	 int i, int stride )
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
	}
	while ( j > lo && k < packed[(size_t)( j - 1 ) * stride] );
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

/// Sort found pairs by (a, b) into `out` (counting sort on the slot of a, then each run of one a by b). `scratch`
/// holds `count` pairs, `start` slotCount + 1 ints. Every slot of a pair's ids is below `slotCount`.
void spSortPairs( const spPair* in, int count, spPair* out, spPair* scratch, int* start, int slotCount );

/// Pairs in `next` and not in `prev` go to `began`, pairs in `prev` and not in `next` to `ended`. Both inputs
/// are sorted; outputs are sorted. Outputs need room for next.count and prev.count pairs. `began` may be `next`
/// and `ended` may be `prev`: each is then compacted in place (a write never passes the read).
void spDiffPairs( const spPairArray* prev, const spPairArray* next, spPairArray* began, spPairArray* ended );

// The order of pairs (by a, then b) as one integer.
static inline uint64_t spPairKey( spPair p )
{
	return (uint64_t)p.a << 32 | p.b;
}

/// The update: validation, sorting, sweep, pair diff.
spResult spUpdateWorld( spWorld* world );

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

/// The slab of coordinate v on the slab axis (0 with one slab).
static inline int spSlabOf( const spIndex* index, float v )
{
	// float subtraction and multiplication by a positive scale round monotonically, so v <= w gives
	// slab(v) <= slab(w): boxes that overlap on the slab axis share a slab
	float s = ( v - index->slabLo ) * index->slabScale;
	int last = index->slabCount - 1;
	// NaN (the bounds of a removed box's slot, which nothing validates) maps to slab 0
	return !( s >= 1.0f ) ? 0 : s >= (float)last ? last : (int)s;
}

// Copy a box from the slot layout (mins, then maxes) to the entry layout (min and max on `axis`, then the other
// axes in order). Inlined with a constant `d`, this is a few moves.
static inline __attribute__( ( always_inline ) ) void spPackBox( float* out, const float* b, int d, int axis )
{
	out[0] = b[axis];
	out[1] = b[d + axis];
	for ( int a = 0, k = 2; a < d; ++a )
	{
		if ( a != axis )
		{
			out[k++] = b[a];
			out[k++] = b[d + a];
		}
	}
}

/// Choose the sweep axis (the highest spread-to-width score) and the slab axis (the next best) of a set of boxes.
/// `stickyAxis` (or -1) is kept unless another axis scores 1.5 times better, so coherent frames stay coherent.
void spChooseAxes( const spAxisStats* stats, int dimensions, int count, int stickyAxis, int* axis, int* slabAxis );

/// Build an index of the boxes of `count` slots, in any order (the bounds are read in that order: slot order reads
/// them sequentially), with `stats` their statistics. Returns false on allocation failure, leaving the previous
/// index whole. Ties on the sweep axis keep the order of `slots`.
bool spBuildIndex( spIndex* index, const spWorld* world, const int* slots, int count, int axis, int slabAxis,
				   const spAxisStats* stats );

/// Grow an index's entries and ids to `n` entries (spGrownCapacity), keeping the current ones. Returns false on
/// allocation failure, changing nothing that is read.
bool spReserveEntries( spIndex* index, int n, int stride );

/// Grow an index's packed scratch (boxes in entry layout) to `n` entries. Returns false on allocation failure,
/// changing nothing that is read.
bool spReservePacked( spIndex* index, int n, int stride );

/// The slabs an index of `n` boxes sorted along `axis` gets: their count (1 when there is no slab axis), the slab
/// axis (-1 with one slab), and the mapping of spSlabOf.
void spPlanSlabs( const spAxisStats* stats, int n, int axis, int slabAxis, int* slabCount, int* planAxis, float* lo,
				  float* scale );

typedef enum spRefreshResult
{
	spRefreshDone,
	spRefreshTooManyMoves, // more than the limit of boxes reached new slabs (found early: a cheap give-up)
	spRefreshTooManySwaps, // the slabs' insertion sorts passed the budget (found late)
	spRefreshOutOfMemory
} spRefreshResult;

/// Bring the moving boxes' index up to date in place of a rebuild, when its plan (axis, slabs) still fits the
/// boxes: each entry's box is re-read from the world, a box that left a slab (or was removed, or made static) is
/// dropped from it, a box that reached a new slab (or was added, or made moving) is merged into it, and each
/// slab is insertion-sorted. Gives up past `swapBudget` swaps or `incomingLimit` new slab entries, and fails
/// on allocation failure, in both cases with nothing that queries read changed. Done: the swap count in *swaps.
spRefreshResult spRefreshIndex( spIndex* index, const spWorld* world, int swapBudget, int incomingLimit,
								int* swaps );

/// Free an index's memory.
void spFreeIndex( spIndex* index );

/// Bytes an index owns.
size_t spIndexByteCount( const spIndex* index, int stride );

/// Find the indexed boxes that overlap the box (min, max) (closed intervals), each once, and append to *out
/// (grown as needed):
/// - when pairWith is 0: the pair (id, 0) for each box whose category & mask is non-zero (a query);
/// - otherwise: the pair (lower, higher) of pairWith and each box whose filter accepts pairWith's (a sweep).
/// Returns false on allocation failure.
bool spQueryIndex( const spIndex* index, const spWorld* world, const float* min, const float* max, uint32_t mask,
				   spPairArray* out, uint32_t pairWith );

/// True if a filter may refuse a pair: any but a full mask with a non-zero category (spWorld_SetBoxFilter).
static inline int spHasFilter( uint32_t category, uint32_t mask )
{
	return mask != 0xFFFFFFFFu || category == 0u;
}

/// True if two boxes' filters accept each other.
static inline bool spShouldPair( const spWorld* w, uint32_t slotA, uint32_t slotB )
{
	return ( w->categories[slotA] & w->masks[slotB] ) != 0 && ( w->categories[slotB] & w->masks[slotA] ) != 0;
}

/// Bring one axis's endpoint list up to date.
spResult spUpdateEndpoints( spWorld* world, int axis );
