// SPDX-License-Identifier: MIT
// Private: the world's layout, read and written by the engine's files; its functions are world.c's public API.
// A world is used by one thread at a time (sweep_prune.h says what is shared between worlds).
#pragma once

#include "build.h"
#include "core.h"
#include "endpoints.h"
#include "index.h"
#include "pairs.h"
#include "parallel.h"
#include "refresh.h"

/// The update's phases, timed in a build with SP_PHASE_TIMES defined (the benchmark's): the time since the last
/// mark is added to the phase's total.
enum
{
	SP_PHASE_VALIDATE,	   // spValidate, and the compaction of the order
	SP_PHASE_STATICS,	   // the static boxes' index
	SP_PHASE_INDEX,		   // the moving boxes' index refreshed or rebuilt
	SP_PHASE_SWEEP,		   // the sweep of every slab
	SP_PHASE_STATIC_PAIRS, // the static index's queries per mover
	SP_PHASE_PAIR_LISTS,   // the public pairs and the events
	SP_PHASE_COUNT
};

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
	int* statics;		// static slots (may hold removed or no-longer-static slots until compacted)
	float* staticCache; // bounds of statics[i] when the static index was built, to detect writes
	int staticCount;
	int staticCapacity;
	int staticCacheCapacity;
	int staticDirty;

	spIndex dynamicIndex;
	spIndex staticIndex;
	spBuildScratch buildScratch;	 // of either index's build
	spRefreshScratch refreshScratch; // of the moving boxes' index's refresh

	// Scratch for the update, kept between frames so steady state does not allocate.
	spPairArray found; // pairs found by the sweep, unsorted
	int* pairStart;	   // scratch for sorting the pairs: slotCount + 1 counters
	int pairStartCapacity;
	int* pairHistograms; // scratch for sorting the pairs: spPairHistogramCount(slotCount) ints
	int pairHistogramCapacity;

	// Results: pairs[current] is public, pairs[1 - current] is the scratch for the next update.
	spPairArray pairs[2];
	int pairsSorted[2];		// pairs[k] is sorted by (a, b) (after an update that diffed by id)
	int pairsAligned[2];	// pairs[k] holds the id pairs of placePairs[k], pair by pair (after a carry)
	int staticPairCount[2]; // pairs[k] has pairs with a static box
	int current;
	int noEvents; // spWorld_SetEvents( false ): updates make the pairs only, with no began and ended
	// The moving pairs of each update as place pairs (places of entries in the moving boxes' index, lower place
	// first), sorted: the sweep writes placePairs[1 - current]. When an index is a refresh of the last update's,
	// the last update's place pairs are carried over to the new places (refreshScratch.remap) and diffed with this
	// update's, with no sort by id.
	spPairArray placePairs[2];
	spPlaceRanges placeRanges[2];  // with a pool, placePairs[k] kept as the sweep's ranges wrote them (pairs.h)
	uint32_t placePairsVersion[2]; // the indexVersion of placePairs[k]; 0 for none
	uint32_t indexVersion;		   // bumps when the moving boxes' index changes (built or refreshed)
	uint32_t remapFromVersion;	   // the index's remap maps places of this version to those of remapToVersion
	uint32_t remapToVersion;
	spPairArray eventScratch; // scratch of the pair lists' sorts and diffs
	spPairArray began;
	spPairArray ended;
	// A copy of pairs[current] for bindings that hand the list to users (spWorld_CopyPairs): the engine reads
	// pairs[current] back at the next update, so a write into a handed-out list must not reach it.
	spPairArray pairsCopy;
	int pairsCopyValid; // pairsCopy holds the last update's pairs
	spCounters counters;
	spBoxId lastInvalidBox;

	spPool* pool; // the threads its updates may use (spWorld_SetPool), or null
	spParallel parallel;
#ifdef SP_PHASE_TIMES
	double phaseTimes[SP_PHASE_COUNT]; // ms in each phase of the updates so far (spPhaseTimes)
	double phaseLast;
#endif

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

#ifdef SP_PHASE_TIMES
#define SP_PHASE_START( w ) ( ( w )->phaseLast = spPhaseClock() )
#define SP_PHASE( w, k )                                                                                               \
	do                                                                                                                 \
	{                                                                                                                  \
		const double t_ = spPhaseClock();                                                                              \
		( w )->phaseTimes[k] += t_ - ( w )->phaseLast;                                                                 \
		( w )->phaseLast = t_;                                                                                         \
	} while ( 0 )
#else
#define SP_PHASE_START( w ) ( (void)0 )
#define SP_PHASE( w, k )	( (void)0 )
#endif

/// The world of an id, or null (world.c).
spWorld* spGetWorldPtr( spWorldId id );

/// For tests: use at most `limit` world slots (SP_MAX_WORLDS when limit is out of 1..SP_MAX_WORLDS). Returns the
/// number of slots used so far (live, free or retired).
int spSetWorldSlotLimit( int limit );

/// Grow every per-slot array of the world to hold `need` slots. All or nothing.
spResult spReserveSlots( spWorld* w, int need );

/// True if a filter may refuse a pair: any but a full mask with a non-zero category (spWorld_SetBoxFilter).
static inline int spHasFilter( uint32_t category, uint32_t mask )
{
	return mask != 0xFFFFFFFFu || category == 0u;
}

/// True if two boxes' filters accept each other.
static inline bool spShouldPair( const spWorld* w, uint32_t slotA, uint32_t slotB )
{
	return spFiltersAccept( w->categories, w->masks, slotA, slotB );
}

/// The world's slots as the index queries read them (index.h).
static inline spSlotTable spSlotsOf( const spWorld* w )
{
	const spSlotTable slots = { w->dimensions, w->ids, w->categories, w->masks };
	return slots;
}
