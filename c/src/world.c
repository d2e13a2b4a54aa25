// SPDX-License-Identifier: MIT
// The registry of worlds and a world's life: create, destroy, reserve, sizes. Every public function validates its
// input before it changes anything; the box calls are in box.c, the results of an update in results.c.
#include "world.h"

#include <stdlib.h>
#include <string.h>

#define SP_DEF_GUARD 0x5350444Bu

// Registry: a growable table of world slots, so worlds are limited by memory. World ids have the layout of box
// ids (id.h): slot << SP_GENERATION_BITS | generation. A slot's generation advances when its world is destroyed,
// and a slot whose generation would wrap is retired, so a destroyed world's id is never accepted again.
typedef struct spWorldSlot
{
	spWorld* world;		 // null when free or retired
	uint16_t generation; // of the slot's world, or of the next world if free; 0 once retired
	int nextFree;		 // free list link
} spWorldSlot;

static spWorldSlot* sp_worldSlots;
static int sp_worldSlotCount; // slots ever used
static int sp_worldSlotCapacity;
static int sp_worldFreeHead = -1;
static int sp_worldSlotLimit = SP_MAX_WORLDS;
// The allocator that made sp_worldSlots: the registry outlives the worlds, so spSetAllocator may change
// in between.
static spReallocFcn* sp_worldSlotsRealloc;

int spSetWorldSlotLimit( int limit )
{
	sp_worldSlotLimit = limit > 0 && limit < SP_MAX_WORLDS ? limit : SP_MAX_WORLDS;
	return sp_worldSlotCount;
}

static spWorld* spGetWorld( spWorldId id )
{
	uint32_t slot = id.bits >> SP_GENERATION_BITS;
	if ( slot >= (uint32_t)sp_worldSlotCount )
	{
		return NULL;
	}
	spWorld* world = sp_worldSlots[slot].world;
	if ( world == NULL || world->generation != ( id.bits & SP_GENERATION_MASK ) )
	{
		return NULL;
	}
	return world;
}

// A free slot for a new world, or -1 with the result why not. Takes it off the free list or appends it.
static int spTakeWorldSlot( spResult* result )
{
	if ( sp_worldFreeHead >= 0 )
	{
		int slot = sp_worldFreeHead;
		sp_worldFreeHead = sp_worldSlots[slot].nextFree;
		return slot;
	}
	if ( sp_worldSlotCount >= sp_worldSlotLimit )
	{
		*result = sp_resultTooManyWorlds;
		return -1;
	}
	if ( sp_worldSlotCount == sp_worldSlotCapacity )
	{
		int cap = spGrownCapacity( sp_worldSlotCapacity, sp_worldSlotCount + 1 );
		spWorldSlot* grown;
		if ( sp_worldSlots == NULL || sp_worldSlotsRealloc == spGetAllocator() )
		{
			grown = spRealloc( sp_worldSlots, (size_t)cap * sizeof( spWorldSlot ) );
		}
		else
		{
			grown = spRealloc( NULL, (size_t)cap * sizeof( spWorldSlot ) );
			if ( grown != NULL )
			{
				memcpy( grown, sp_worldSlots, (size_t)sp_worldSlotCount * sizeof( spWorldSlot ) );
				sp_worldSlotsRealloc( sp_worldSlots, 0 );
			}
		}
		if ( grown == NULL )
		{
			*result = sp_resultOutOfMemory;
			return -1;
		}
		sp_worldSlots = grown;
		sp_worldSlotsRealloc = spGetAllocator();
		sp_worldSlotCapacity = cap;
	}
	int slot = sp_worldSlotCount++;
	sp_worldSlots[slot].world = NULL;
	sp_worldSlots[slot].generation = 1;
	sp_worldSlots[slot].nextFree = -1;
	return slot;
}

// Give a slot back: advance its generation, or retire it when the generation would wrap.
static void spReleaseWorldSlot( int slot )
{
	spWorldSlot* s = sp_worldSlots + slot;
	s->world = NULL;
	if ( s->generation >= SP_GENERATION_MASK )
	{
		s->generation = 0;
		return;
	}
	s->generation += 1;
	s->nextFree = sp_worldFreeHead;
	sp_worldFreeHead = slot;
}

spWorld* spGetWorldPtr( spWorldId id )
{
	return spGetWorld( id );
}

spWorldDef spDefaultWorldDef( void )
{
	spWorldDef def = { 0 };
	def.dimensions = 2;
	def.capacity = 0;
	def.internalValue = (int)SP_DEF_GUARD;
	return def;
}

static void spFreeWorldMemory( spWorld* w )
{
	spFree( w->bounds );
	spFree( w->ids );
	spFree( w->generations );
	spFree( w->flags );
	spFree( w->freeNext );
	spFree( w->categories );
	spFree( w->masks );
	spFree( w->order );
	spFree( w->statics );
	spFree( w->staticCache );
	spFreeIndex( &w->dynamicIndex );
	spFreeIndex( &w->staticIndex );
	spFreeBuildScratch( &w->buildScratch );
	spFreeRefreshScratch( &w->refreshScratch );
	spFree( w->pairHistograms );
	spFree( w->queryIds );
	spFree( w->queryDistances );
	spFree( w->found.data );
	spFree( w->eventScratch.data );
	spFree( w->placePairs[0].data );
	spFree( w->placePairs[1].data );
	if ( SP_PARALLEL )
	{
		spFreePlaceRanges( &w->placeRanges[0] );
		spFreePlaceRanges( &w->placeRanges[1] );
	}
	spFree( w->pairStart );
	spFree( w->pairs[0].data );
	spFree( w->pairs[1].data );
	spFree( w->began.data );
	spFree( w->ended.data );
	spFree( w->pairsCopy.data );
	spFreeParallel( &w->parallel );
	for ( int a = 0; a < SP_MAX_DIMENSIONS; ++a )
	{
		spFree( w->endpoints[a].values );
		spFree( w->endpoints[a].refs );
	}
	spFree( w );
}

// Grow every per-slot array to hold `need` slots. All or nothing: on failure the capacity is unchanged (arrays
// that did grow keep their larger blocks, which is harmless).
spResult spReserveSlots( spWorld* w, int need )
{
	if ( need <= w->slotCapacity )
	{
		return sp_resultOk;
	}
	if ( need > SP_MAX_BOXES )
	{
		return sp_resultCapacityExceeded;
	}
	int cap = w->slotCapacity + ( w->slotCapacity >> 1 );
	if ( cap < need )
	{
		cap = need;
	}
	if ( cap < 16 )
	{
		cap = 16;
	}
	if ( cap > SP_MAX_BOXES )
	{
		cap = SP_MAX_BOXES;
	}
	// the statics and the order hold each slot at most once: one entry per slot of capacity
	SP_ASSERT( w->staticCapacity == w->slotCapacity && w->orderCapacity == w->slotCapacity );
	const spArray arrays[] = {
		{ (void**)&w->bounds, sizeof( float ), w->stride },
		{ (void**)&w->ids, sizeof( uint32_t ), 1 },
		{ (void**)&w->generations, sizeof( uint16_t ), 1 },
		{ (void**)&w->flags, sizeof( uint8_t ), 1 },
		{ (void**)&w->freeNext, sizeof( int ), 1 },
		{ (void**)&w->categories, sizeof( uint32_t ), 1 },
		{ (void**)&w->masks, sizeof( uint32_t ), 1 },
		{ (void**)&w->statics, sizeof( int ), 1 },
		{ (void**)&w->order, sizeof( int ), 1 },
	};
	if ( !spGrowArrays( &w->slotCapacity, cap, arrays, SP_ARRAY_COUNT( arrays ) ) )
		return sp_resultOutOfMemory;
	w->staticCapacity = cap;
	w->orderCapacity = cap;
	return sp_resultOk;
}

spResult spCreateWorld( const spWorldDef* def, spWorldId* outWorld )
{
	if ( def == NULL || outWorld == NULL )
	{
		return sp_resultNullArgument;
	}
	if ( def->internalValue != (int)SP_DEF_GUARD )
	{
		return sp_resultInvalidDef;
	}
	if ( def->dimensions < 1 || def->dimensions > SP_MAX_DIMENSIONS )
	{
		return sp_resultInvalidDimensions;
	}
	if ( def->capacity < 0 || def->capacity > SP_MAX_BOXES )
	{
		return sp_resultCapacityExceeded;
	}
	spWorld* w = spRealloc( NULL, sizeof( spWorld ) );
	if ( w == NULL )
	{
		return sp_resultOutOfMemory;
	}
	memset( w, 0, sizeof( *w ) );
	w->dimensions = def->dimensions;
	w->stride = 2 * def->dimensions;
	w->freeHead = -1;
	w->dynamicIndex.axis = -1;
	w->dynamicIndex.slabAxis = -1;
	w->staticIndex.axis = -1;
	w->staticIndex.slabAxis = -1;
	w->counters.sweepAxis = -1;
	w->parallel.minBoxes = SP_PARALLEL_MIN_BOXES;
	w->parallel.statsChunk = SP_STATS_CHUNK;
	if ( def->capacity > 0 && spReserveSlots( w, def->capacity ) != sp_resultOk )
	{
		spFreeWorldMemory( w );
		return sp_resultOutOfMemory;
	}
	// the slot last: a failure above leaves the registry untouched
	spResult result = sp_resultOk;
	int slot = spTakeWorldSlot( &result );
	if ( slot < 0 )
	{
		spFreeWorldMemory( w );
		return result;
	}
	w->generation = sp_worldSlots[slot].generation;
	sp_worldSlots[slot].world = w;
	outWorld->bits = (uint32_t)slot << SP_GENERATION_BITS | w->generation;
	return sp_resultOk;
}

spResult spDestroyWorld( spWorldId worldId )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	spReleaseWorldSlot( (int)( worldId.bits >> SP_GENERATION_BITS ) );
	spFreeWorldMemory( w );
	return sp_resultOk;
}

spResult spWorld_SetPool( spWorldId worldId, spPool* pool )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	w->pool = pool;
	return sp_resultOk;
}

spResult spWorld_SetParallelMinBoxes( spWorldId worldId, int minBoxes )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	if ( minBoxes < 0 )
	{
		return sp_resultCapacityExceeded;
	}
	w->parallel.minBoxes = minBoxes;
	return sp_resultOk;
}

bool spWorld_IsValid( spWorldId worldId )
{
	return spGetWorld( worldId ) != NULL;
}

int spWorld_GetDimensions( spWorldId worldId )
{
	spWorld* w = spGetWorld( worldId );
	return w != NULL ? w->dimensions : 0;
}

int spWorld_GetBoxCount( spWorldId worldId )
{
	spWorld* w = spGetWorld( worldId );
	return w != NULL ? w->boxCount : 0;
}

size_t spWorld_GetByteCount( spWorldId worldId )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		return 0;
	}
	size_t n = sizeof( spWorld );
	n += (size_t)w->slotCapacity * ( (size_t)w->stride * sizeof( float ) + 3 * sizeof( uint32_t ) + sizeof( uint16_t ) +
									 sizeof( uint8_t ) + sizeof( int ) );
	n += (size_t)w->orderCapacity * sizeof( int );
	n += (size_t)w->staticCapacity * sizeof( int ) + (size_t)w->staticCacheCapacity * sizeof( float );
	n += spIndexByteCount( &w->dynamicIndex, w->stride ) + spIndexByteCount( &w->staticIndex, w->stride );
	n += spBuildScratchByteCount( &w->buildScratch, w->stride ) +
		 spRefreshScratchByteCount( &w->refreshScratch, w->stride );
	n += (size_t)( w->pairStartCapacity + w->pairHistogramCapacity ) * sizeof( int );
	n += (size_t)w->queryCapacity * sizeof( uint32_t ) + (size_t)w->queryDistanceCapacity * sizeof( float );
	n += (size_t)( w->pairsCopy.capacity + w->found.capacity + w->pairs[0].capacity + w->pairs[1].capacity +
				   w->began.capacity + w->ended.capacity + w->eventScratch.capacity + w->placePairs[0].capacity +
				   w->placePairs[1].capacity ) *
		 sizeof( spPair );
	n += spParallelByteCount( &w->parallel );
	if ( SP_PARALLEL )
		n += spPlaceRangesByteCount( &w->placeRanges[0] ) + spPlaceRangesByteCount( &w->placeRanges[1] );
	for ( int a = 0; a < SP_MAX_DIMENSIONS; ++a )
	{
		n += (size_t)w->endpoints[a].capacity * ( sizeof( float ) + sizeof( uint32_t ) );
	}
	return n;
}

spResult spWorld_Reserve( spWorldId worldId, int capacity )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	if ( capacity < 0 || capacity > SP_MAX_BOXES )
	{
		return sp_resultCapacityExceeded;
	}
	return spReserveSlots( w, capacity );
}

int spWorld_GetCapacity( spWorldId worldId )
{
	spWorld* w = spGetWorld( worldId );
	return w == NULL ? 0 : w->slotCapacity;
}
