// SPDX-License-Identifier: MIT
// The only file that knows about JavaScript. Exports take scalars and pointers only; inputs and outputs that do
// not fit a scalar go through one static scratch block whose address JS asks for once (sp_scratch).
#include "sweep_prune/sweep_prune.h"

#include <stddef.h>
#include <string.h>

#define SP_EXPORT __attribute__( ( used, visibility( "default" ) ) )

// Scratch layout (bytes): 0..15 min floats, 16..31 max floats, 32..63 uint32 outputs.
typedef struct spScratchBlock
{
	float min[SP_MAX_DIMENSIONS];
	float max[SP_MAX_DIMENSIONS];
	uint32_t out[8];
} spScratchBlock;
static spScratchBlock sp_scratch_block;

// What web/src reads of this module by number, checked here so that a change on one side fails the build until the
// other follows (tests/js/mirrors.test.ts checks the same from the module's side).
// web/src/raw.ts SCRATCH_MIN, SCRATCH_MAX, SCRATCH_OUT
_Static_assert( offsetof( spScratchBlock, min ) == 0, "raw.ts SCRATCH_MIN" );
_Static_assert( offsetof( spScratchBlock, max ) == 16, "raw.ts SCRATCH_MAX" );
_Static_assert( offsetof( spScratchBlock, out ) == 32 && sizeof( spScratchBlock ) == 64, "raw.ts SCRATCH_OUT" );
// web/src/raw.ts GENERATION_BITS
_Static_assert( SP_GENERATION_BITS == 10, "raw.ts GENERATION_BITS" );
// web/src/raw.ts COUNTER_OFFSETS: each field of spCounters by name
_Static_assert( offsetof( spCounters, boxes ) == 0, "raw.ts COUNTER_OFFSETS.boxes" );
_Static_assert( offsetof( spCounters, sweepAxis ) == 4, "raw.ts COUNTER_OFFSETS.sweepAxis" );
_Static_assert( offsetof( spCounters, swaps ) == 8, "raw.ts COUNTER_OFFSETS.swaps" );
_Static_assert( offsetof( spCounters, rebuilt ) == 12, "raw.ts COUNTER_OFFSETS.rebuilt" );
_Static_assert( offsetof( spCounters, slabs ) == 16, "raw.ts COUNTER_OFFSETS.slabs" );
_Static_assert( offsetof( spCounters, overlapTests ) == 20, "raw.ts COUNTER_OFFSETS.overlapTests" );
_Static_assert( offsetof( spCounters, pairs ) == 24, "raw.ts COUNTER_OFFSETS.pairs" );
_Static_assert( offsetof( spCounters, began ) == 28, "raw.ts COUNTER_OFFSETS.began" );
_Static_assert( offsetof( spCounters, ended ) == 32, "raw.ts COUNTER_OFFSETS.ended" );
_Static_assert( offsetof( spCounters, endpointSwaps ) == 36, "raw.ts COUNTER_OFFSETS.endpointSwaps" );
_Static_assert( offsetof( spCounters, staticBoxes ) == 40, "raw.ts COUNTER_OFFSETS.staticBoxes" );
_Static_assert( offsetof( spCounters, staticRebuilt ) == 44, "raw.ts COUNTER_OFFSETS.staticRebuilt" );
_Static_assert( offsetof( spCounters, refreshed ) == 48, "raw.ts COUNTER_OFFSETS.refreshed" );
_Static_assert( sizeof( spCounters ) == 52, "raw.ts COUNTERS_BYTES" );
// web/src/errors.ts RESULT_CODES: the codes by value
_Static_assert( sp_resultOk == 0 && sp_resultInvalidBounds == 1 && sp_resultInvertedBounds == 2 &&
					sp_resultInvalidDimensions == 3 && sp_resultNullArgument == 4 && sp_resultInvalidWorld == 5 &&
					sp_resultInvalidBox == 6 && sp_resultStaleBox == 7 && sp_resultCapacityExceeded == 8 &&
					sp_resultOutOfMemory == 9 && sp_resultTooManyWorlds == 10 && sp_resultInvalidDef == 11,
				"errors.ts RESULT_CODES: same order" );
_Static_assert( sp_resultCount == 12, "errors.ts RESULT_CODES: one name per code" );

static spCounters sp_counters_block;

SP_EXPORT void* sp_scratch( void )
{
	return &sp_scratch_block;
}

SP_EXPORT const char* sp_result_string( int result )
{
	return spResultString( (spResult)result );
}

SP_EXPORT int sp_create_world( int dimensions, int capacity )
{
	spWorldDef def = spDefaultWorldDef();
	def.dimensions = dimensions;
	def.capacity = capacity;
	spWorldId id = sp_nullWorldId;
	spResult r = spCreateWorld( &def, &id );
	sp_scratch_block.out[0] = id.bits;
	return r;
}

SP_EXPORT int sp_destroy_world( uint32_t world )
{
	return spDestroyWorld( ( spWorldId ){ world } );
}

SP_EXPORT int sp_reserve( uint32_t world, int capacity )
{
	return spWorld_Reserve( ( spWorldId ){ world }, capacity );
}

SP_EXPORT int sp_box_count( uint32_t world )
{
	return spWorld_GetBoxCount( ( spWorldId ){ world } );
}

SP_EXPORT double sp_byte_count( uint32_t world )
{
	return (double)spWorld_GetByteCount( ( spWorldId ){ world } );
}

SP_EXPORT int sp_add_box( uint32_t world )
{
	spBoxId id = sp_nullBoxId;
	spResult r = spWorld_AddBox( ( spWorldId ){ world }, sp_scratch_block.min, sp_scratch_block.max, &id );
	sp_scratch_block.out[0] = id.bits;
	return r;
}

SP_EXPORT int sp_remove_box( uint32_t world, uint32_t box )
{
	return spWorld_RemoveBox( ( spWorldId ){ world }, ( spBoxId ){ box } );
}

SP_EXPORT int sp_set_box( uint32_t world, uint32_t box )
{
	return spWorld_SetBox( ( spWorldId ){ world }, ( spBoxId ){ box }, sp_scratch_block.min, sp_scratch_block.max );
}

SP_EXPORT int sp_get_box( uint32_t world, uint32_t box )
{
	return spWorld_GetBox( ( spWorldId ){ world }, ( spBoxId ){ box }, sp_scratch_block.min, sp_scratch_block.max );
}

SP_EXPORT int sp_is_box_valid( uint32_t world, uint32_t box )
{
	return spWorld_IsBoxValid( ( spWorldId ){ world }, ( spBoxId ){ box } );
}

SP_EXPORT float* sp_bounds( uint32_t world )
{
	// the view covers the capacity, so that it stays whole while boxes are added into it
	const spWorldId id = { world };
	sp_scratch_block.out[0] = (uint32_t)( spWorld_GetCapacity( id ) * 2 * spWorld_GetDimensions( id ) );
	return spWorld_GetBounds( id, NULL );
}

SP_EXPORT int sp_update( uint32_t world )
{
	return spWorld_Update( ( spWorldId ){ world } );
}

SP_EXPORT uint32_t sp_last_invalid_box( uint32_t world )
{
	return spWorld_GetLastInvalidBox( ( spWorldId ){ world } ).bits;
}

// The list sp_pairs returns
typedef enum spPairList
{
	sp_pairListPairs = 0,
	sp_pairListBegan = 1,
	sp_pairListEnded = 2,
} spPairList;
// web/src/raw.ts PAIR_LIST
_Static_assert( sp_pairListPairs == 0 && sp_pairListBegan == 1 && sp_pairListEnded == 2, "raw.ts PAIR_LIST" );

SP_EXPORT const uint32_t* sp_pairs( uint32_t world, int which )
{
	int count = 0;
	const uint32_t* p = which == sp_pairListBegan	? spWorld_GetBeganPairs( ( spWorldId ){ world }, &count )
						: which == sp_pairListEnded ? spWorld_GetEndedPairs( ( spWorldId ){ world }, &count )
													: spWorld_GetPairs( ( spWorldId ){ world }, &count );
	sp_scratch_block.out[0] = (uint32_t)count;
	return p;
}

// The pairs as handed to users: a copy the world never reads back. out[0] = count, out[1] = pointer.
SP_EXPORT int sp_set_events( uint32_t world, int enabled )
{
	return spWorld_SetEvents( ( spWorldId ){ world }, enabled != 0 );
}

SP_EXPORT int sp_copy_pairs( uint32_t world )
{
	const uint32_t* p = 0;
	int count = 0;
	spResult r = spWorld_CopyPairs( ( spWorldId ){ world }, &p, &count );
	sp_scratch_block.out[0] = (uint32_t)count;
	sp_scratch_block.out[1] = (uint32_t)(uintptr_t)p;
	return r;
}

// out[0] = sweep axis, out[1] = slab axis, out[2] = slab count, out[3] = entry count, then the floors, starts and
// ids pointers (the axes are -1 as uint32 when absent)
SP_EXPORT int sp_slabs( uint32_t world, int statics )
{
	spSlabs s = { 0 };
	spResult r = spWorld_GetSlabs( ( spWorldId ){ world }, statics != 0, &s );
	sp_scratch_block.out[0] = (uint32_t)s.sweepAxis;
	sp_scratch_block.out[1] = (uint32_t)s.slabAxis;
	sp_scratch_block.out[2] = (uint32_t)s.slabCount;
	sp_scratch_block.out[3] = (uint32_t)s.entryCount;
	sp_scratch_block.out[4] = (uint32_t)(uintptr_t)s.floors;
	sp_scratch_block.out[5] = (uint32_t)(uintptr_t)s.starts;
	sp_scratch_block.out[6] = (uint32_t)(uintptr_t)s.ids;
	return r;
}

void* sbrk( intptr_t increment );

// The top of malloc's heap: the most memory it has used (memoryStats().heapBytes)
SP_EXPORT uint32_t sp_heap_top( void )
{
	return (uint32_t)(uintptr_t)sbrk( 0 );
}

SP_EXPORT int sp_capacity( uint32_t world )
{
	return spWorld_GetCapacity( ( spWorldId ){ world } );
}

SP_EXPORT const spCounters* sp_counters( uint32_t world )
{
	sp_counters_block = spWorld_GetCounters( ( spWorldId ){ world } );
	return &sp_counters_block;
}

SP_EXPORT int sp_endpoints( uint32_t world, int axis )
{
	const float* values = 0;
	const uint32_t* refs = 0;
	int count = 0;
	spResult r = spWorld_GetEndpoints( ( spWorldId ){ world }, axis, &values, &refs, &count );
	sp_scratch_block.out[0] = (uint32_t)(uintptr_t)values;
	sp_scratch_block.out[1] = (uint32_t)(uintptr_t)refs;
	sp_scratch_block.out[2] = (uint32_t)count;
	return r;
}

SP_EXPORT int sp_set_box_filter( uint32_t world, uint32_t box, uint32_t category, uint32_t mask )
{
	return spWorld_SetBoxFilter( ( spWorldId ){ world }, ( spBoxId ){ box }, category, mask );
}

// out[0] = category, out[1] = mask
SP_EXPORT int sp_get_box_filter( uint32_t world, uint32_t box )
{
	return spWorld_GetBoxFilter( ( spWorldId ){ world }, ( spBoxId ){ box }, &sp_scratch_block.out[0],
								 &sp_scratch_block.out[1] );
}

SP_EXPORT int sp_set_box_static( uint32_t world, uint32_t box, int isStatic )
{
	return spWorld_SetBoxStatic( ( spWorldId ){ world }, ( spBoxId ){ box }, isStatic != 0 );
}

SP_EXPORT int sp_is_box_static( uint32_t world, uint32_t box )
{
	return spWorld_IsBoxStatic( ( spWorldId ){ world }, ( spBoxId ){ box } );
}

// Region query: the box is the scratch min/max. out[0] = ids pointer, out[2] = count.
SP_EXPORT int sp_query_box( uint32_t world, uint32_t mask )
{
	const uint32_t* ids = 0;
	int count = 0;
	spResult r =
		spWorld_QueryBox( ( spWorldId ){ world }, sp_scratch_block.min, sp_scratch_block.max, mask, &ids, &count );
	sp_scratch_block.out[0] = (uint32_t)(uintptr_t)ids;
	sp_scratch_block.out[1] = 0;
	sp_scratch_block.out[2] = (uint32_t)count;
	return r;
}

// Ray cast: origin is the scratch min, direction the scratch max. out[0] = ids, out[1] = distances, out[2] = count,
// out[3] = blocker, out[4] = blocker distance (float bits).
SP_EXPORT int sp_cast_ray( uint32_t world, float maxDistance, uint32_t mask, uint32_t blockMask, uint32_t ignore,
						   int maxHits )
{
	spRayDef def = spDefaultRayDef();
	def.maxDistance = maxDistance;
	def.mask = mask;
	def.blockMask = blockMask;
	def.ignoreBox.bits = ignore;
	def.maxHits = maxHits;
	spRayResult hits = { 0 };
	spResult r = spWorld_CastRayWith( ( spWorldId ){ world }, sp_scratch_block.min, sp_scratch_block.max, &def, &hits );
	sp_scratch_block.out[0] = (uint32_t)(uintptr_t)hits.ids;
	sp_scratch_block.out[1] = (uint32_t)(uintptr_t)hits.distances;
	sp_scratch_block.out[2] = (uint32_t)hits.count;
	sp_scratch_block.out[3] = hits.blocker.bits;
	memcpy( &sp_scratch_block.out[4], &hits.blockerDistance, sizeof( float ) );
	return r;
}

// Point queries: the point is the scratch min; k < 0 asks for every box within `distance` (spWorld_QueryRadius).
// out[0] = ids, out[1] = distances, out[2] = count.
SP_EXPORT int sp_nearest( uint32_t world, int k, float distance, uint32_t mask )
{
	const uint32_t* ids = 0;
	const float* distances = 0;
	int count = 0;
	spResult r = k < 0 ? spWorld_QueryRadius( ( spWorldId ){ world }, sp_scratch_block.min, distance, mask, &ids,
											  &distances, &count )
					   : spWorld_Nearest( ( spWorldId ){ world }, sp_scratch_block.min, k, distance, mask, &ids,
										  &distances, &count );
	sp_scratch_block.out[0] = (uint32_t)(uintptr_t)ids;
	sp_scratch_block.out[1] = (uint32_t)(uintptr_t)distances;
	sp_scratch_block.out[2] = (uint32_t)count;
	return r;
}

// Bulk paths: JS writes `count` boxes (or ids) into one block it allocated with malloc, and makes one call.
SP_EXPORT int sp_add_boxes( uint32_t world, const float* bounds, int count, uint32_t* outIds )
{
	return spWorld_AddBoxes( ( spWorldId ){ world }, bounds, count, (spBoxId*)outIds );
}

SP_EXPORT int sp_set_boxes( uint32_t world, const uint32_t* ids, const float* bounds, int count )
{
	return spWorld_SetBoxes( ( spWorldId ){ world }, (const spBoxId*)ids, bounds, count );
}

// One filter for many boxes (sweep-prune/box-intersect's bipartite mode). Stops at the first id refused.
SP_EXPORT int sp_set_box_filters( uint32_t world, const uint32_t* ids, int count, uint32_t category, uint32_t mask )
{
	for ( int i = 0; i < count; ++i )
	{
		spResult r = spWorld_SetBoxFilter( ( spWorldId ){ world }, ( spBoxId ){ ids[i] }, category, mask );
		if ( r != sp_resultOk )
		{
			return r;
		}
	}
	return sp_resultOk;
}

// sweep-prune/box-intersect: the pairs of the last update whose boxes also overlap in float64. `exact` holds each
// slot's bounds as doubles (2 * dimensions per slot, mins then maxes); inexact[slot] is 1 when float32 changed a
// bound of that slot (the engine saw it rounded outward, so it may pair boxes whose float64 gap is under one float32
// step). Writes the kept pairs as slots to `out` (room for every pair) and returns how many.
SP_EXPORT int sp_filter_pairs( uint32_t world, const double* exact, const uint8_t* inexact, uint32_t* out )
{
	int count = 0;
	const uint32_t* pairs = spWorld_GetPairs( ( spWorldId ){ world }, &count );
	const int d = spWorld_GetDimensions( ( spWorldId ){ world } );
	int kept = 0;
	for ( int k = 0; k < count; ++k )
	{
		const uint32_t s = pairs[2 * k] >> SP_GENERATION_BITS;
		const uint32_t t = pairs[2 * k + 1] >> SP_GENERATION_BITS;
		if ( ( inexact[s] | inexact[t] ) != 0 )
		{
			const double* p = exact + (size_t)s * 2 * d;
			const double* q = exact + (size_t)t * 2 * d;
			int overlap = 1;
			for ( int a = 0; a < d; ++a )
				overlap &= p[a] <= q[d + a] && q[a] <= p[d + a];
			if ( !overlap )
				continue;
		}
		out[2 * kept] = s;
		out[2 * kept + 1] = t;
		kept += 1;
	}
	return kept;
}

// Threads (sweep_prune.h spCreatePool): the pool's address goes to out[0]. In a module with shared memory each
// worker instance calls sp_pool_work(pool, worker) and stays in it until sp_pool_stop.
SP_EXPORT int sp_create_pool( int threads )
{
	spPool* pool = NULL;
	const spResult r = spCreatePool( threads, &pool );
	sp_scratch_block.out[0] = (uint32_t)(uintptr_t)pool;
	return r;
}

SP_EXPORT void sp_pool_work( spPool* pool, int worker )
{
	spPool_Work( pool, worker );
}

SP_EXPORT void sp_pool_stop( spPool* pool )
{
	spPool_Stop( pool );
}

SP_EXPORT void sp_destroy_pool( spPool* pool )
{
	spDestroyPool( pool );
}

SP_EXPORT int sp_set_pool( uint32_t world, spPool* pool )
{
	return spWorld_SetPool( ( spWorldId ){ world }, pool );
}

SP_EXPORT int sp_set_parallel_min_boxes( uint32_t world, int minBoxes )
{
	return spWorld_SetParallelMinBoxes( ( spWorldId ){ world }, minBoxes );
}
