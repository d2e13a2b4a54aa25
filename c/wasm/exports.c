// SPDX-License-Identifier: MIT
// The only file that knows about JavaScript. Exports take scalars and pointers only; inputs and outputs that do
// not fit a scalar go through one static scratch block whose address JS asks for once (sp_scratch).
#include "sweep_prune/sweep_prune.h"

#include <string.h>

#define SP_EXPORT __attribute__( ( used, visibility( "default" ) ) )

// Scratch layout (bytes): 0..15 min floats, 16..31 max floats, 32..63 uint32 outputs.
static struct
{
	float min[SP_MAX_DIMENSIONS];
	float max[SP_MAX_DIMENSIONS];
	uint32_t out[8];
} sp_scratch_block;

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
	int count = 0;
	float* p = spWorld_GetBounds( ( spWorldId ){ world }, &count );
	sp_scratch_block.out[0] = (uint32_t)count;
	return p;
}

SP_EXPORT int sp_update( uint32_t world )
{
	return spWorld_Update( ( spWorldId ){ world } );
}

SP_EXPORT uint32_t sp_last_invalid_box( uint32_t world )
{
	return spWorld_GetLastInvalidBox( ( spWorldId ){ world } ).bits;
}

// which: 0 pairs, 1 began, 2 ended
SP_EXPORT const uint32_t* sp_pairs( uint32_t world, int which )
{
	int count = 0;
	const uint32_t* p = which == 1	 ? spWorld_GetBeganPairs( ( spWorldId ){ world }, &count )
						: which == 2 ? spWorld_GetEndedPairs( ( spWorldId ){ world }, &count )
									 : spWorld_GetPairs( ( spWorldId ){ world }, &count );
	sp_scratch_block.out[0] = (uint32_t)count;
	return p;
}

// The pairs as handed to users: a copy the world never reads back. out[0] = count, out[1] = pointer.
SP_EXPORT int sp_copy_pairs( uint32_t world )
{
	const uint32_t* p = 0;
	int count = 0;
	spResult r = spWorld_CopyPairs( ( spWorldId ){ world }, &p, &count );
	sp_scratch_block.out[0] = (uint32_t)count;
	sp_scratch_block.out[1] = (uint32_t)(uintptr_t)p;
	return r;
}

SP_EXPORT uint32_t sp_release_count( void )
{
	return spGetReleaseCount();
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
	spResult r = spWorld_QueryBox( ( spWorldId ){ world }, sp_scratch_block.min, sp_scratch_block.max, mask, &ids,
								   &count );
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
