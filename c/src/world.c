// SPDX-License-Identifier: MIT
// World registry, box slots and the public entry points. Every public function validates its input before it
// changes anything.
#include "world.h"

#include "update.h"

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
	spFree( w->sweepColumns );
	spFree( w->placePairs[0].data );
	spFree( w->placePairs[1].data );
	spFree( w->pairStart );
	spFree( w->pairs[0].data );
	spFree( w->pairs[1].data );
	spFree( w->began.data );
	spFree( w->ended.data );
	spFree( w->pairsCopy.data );
	for ( int a = 0; a < SP_MAX_DIMENSIONS; ++a )
	{
		spFree( w->endpoints[a].values );
		spFree( w->endpoints[a].refs );
	}
	spFree( w );
}

// Grow every per-slot array to hold `need` slots. All or nothing: on failure the capacity is unchanged (arrays
// that did grow keep their larger blocks, which is harmless).
static spResult spReserveSlots( spWorld* w, int need )
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
	n += (size_t)( w->pairStartCapacity + w->pairHistogramCapacity ) * sizeof( int ) +
		 (size_t)w->sweepColumnsCapacity * sizeof( float );
	n += (size_t)w->queryCapacity * sizeof( uint32_t ) + (size_t)w->queryDistanceCapacity * sizeof( float );
	n += (size_t)( w->pairsCopy.capacity + w->found.capacity + w->pairs[0].capacity + w->pairs[1].capacity +
				   w->began.capacity + w->ended.capacity + w->eventScratch.capacity + w->placePairs[0].capacity +
				   w->placePairs[1].capacity ) *
		 sizeof( spPair );
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

// The box of `slot` leaves the moving boxes' index (removed, or made static): the next update's refresh drops its
// entries.
static void spLeaveIndex( spWorld* w, int slot )
{
	w->goneMovers += ( w->flags[slot] & SP_FLAG_INDEXED ) != 0;
	w->flags[slot] &= (uint8_t)~SP_FLAG_INDEXED;
}

// Resolve a box id to its slot, or report why it is not a live box of this world.
static spResult spResolveBox( const spWorld* w, spBoxId boxId, int* outSlot )
{
	uint32_t slot = spBoxId_Slot( boxId );
	uint32_t gen = boxId.bits & SP_GENERATION_MASK;
	if ( boxId.bits == 0 || gen == 0 || slot >= (uint32_t)w->slotCount )
	{
		return sp_resultInvalidBox;
	}
	if ( w->ids[slot] == boxId.bits )
	{
		*outSlot = (int)slot;
		return sp_resultOk;
	}
	// The slot's generation has moved past this id's: the box was removed. An id from the future of the slot
	// was never handed out.
	uint32_t next = w->generations[slot];
	uint32_t current = w->ids[slot] != 0 ? ( w->ids[slot] & SP_GENERATION_MASK ) : 0;
	if ( next == 0 || gen < next || ( current != 0 && gen < current ) )
	{
		return sp_resultStaleBox;
	}
	return sp_resultInvalidBox;
}

// Put a validated box in the next free slot. The caller has made room: a free slot, or slotCount < slotCapacity.
static uint32_t spPlaceBox( spWorld* w, const float* min, const float* max )
{
	int slot = w->freeHead;
	if ( slot >= 0 )
	{
		w->freeHead = w->freeNext[slot];
	}
	else
	{
		slot = w->slotCount;
		w->generations[slot] = 1;
		w->flags[slot] = 0;
		w->ids[slot] = 0;
		w->slotCount += 1;
	}
	// a slot whose box was removed since the last update still has its entry in the sweep order. The order has
	// room: it holds each slot at most once and has one entry per slot of capacity.
	if ( ( w->flags[slot] & SP_FLAG_IN_ORDER ) == 0 )
	{
		SP_ASSERT( w->orderCount < w->orderCapacity );
		w->order[w->orderCount++] = slot;
		w->flags[slot] |= SP_FLAG_IN_ORDER;
	}
	w->flags[slot] &= ( uint8_t ) ~( SP_FLAG_STATIC | SP_FLAG_INDEXED );
	w->categories[slot] = SP_DEFAULT_CATEGORY;
	w->masks[slot] = SP_DEFAULT_MASK;
	float* b = w->bounds + (size_t)slot * w->stride;
	memcpy( b, min, sizeof( float ) * w->dimensions );
	memcpy( b + w->dimensions, max, sizeof( float ) * w->dimensions );
	uint32_t bits = (uint32_t)slot << SP_GENERATION_BITS | w->generations[slot];
	w->ids[slot] = bits;
	w->boxCount += 1;
	w->structureVersion += 1;
	w->newMovers += 1;
	return bits;
}

// Make room for `count` more boxes: free slots first, then new ones. All or nothing.
static spResult spReserveBoxes( spWorld* w, int count )
{
	int freeSlots = 0;
	for ( int slot = w->freeHead; slot >= 0 && freeSlots < count; slot = w->freeNext[slot] )
	{
		freeSlots += 1;
	}
	int fresh = count - freeSlots;
	if ( fresh == 0 )
	{
		return sp_resultOk;
	}
	if ( fresh > SP_MAX_BOXES - w->slotCount )
	{
		return sp_resultCapacityExceeded;
	}
	return spReserveSlots( w, w->slotCount + fresh );
}

spResult spWorld_AddBox( spWorldId worldId, const float* min, const float* max, spBoxId* outBox )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	if ( min == NULL || max == NULL || outBox == NULL )
	{
		return sp_resultNullArgument;
	}
	spResult r = spCheckBounds( min, max, w->dimensions );
	if ( r != sp_resultOk )
	{
		return r;
	}
	r = spReserveBoxes( w, 1 );
	if ( r != sp_resultOk )
	{
		return r;
	}
	outBox->bits = spPlaceBox( w, min, max );
	return sp_resultOk;
}

spResult spWorld_AddBoxes( spWorldId worldId, const float* bounds, int count, spBoxId* outBoxes )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	if ( count < 0 || count > SP_MAX_BOXES )
	{
		return sp_resultCapacityExceeded;
	}
	if ( count > 0 && ( bounds == NULL || outBoxes == NULL ) )
	{
		return sp_resultNullArgument;
	}
	const int d = w->dimensions;
	for ( int i = 0; i < count; ++i )
	{
		const float* b = bounds + (size_t)i * w->stride;
		spResult r = spCheckBounds( b, b + d, d );
		if ( r != sp_resultOk )
		{
			return r;
		}
	}
	spResult r = spReserveBoxes( w, count );
	if ( r != sp_resultOk )
	{
		return r;
	}
	for ( int i = 0; i < count; ++i )
	{
		const float* b = bounds + (size_t)i * w->stride;
		outBoxes[i].bits = spPlaceBox( w, b, b + d );
	}
	return sp_resultOk;
}

spResult spWorld_RemoveBox( spWorldId worldId, spBoxId boxId )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	int slot;
	spResult r = spResolveBox( w, boxId, &slot );
	if ( r != sp_resultOk )
	{
		return r;
	}
	if ( ( w->flags[slot] & SP_FLAG_STATIC ) != 0 )
	{
		w->staticDirty = 1;
	}
	w->filteredBoxes -= spHasFilter( w->categories[slot], w->masks[slot] );
	w->ids[slot] = 0;
	w->boxCount -= 1;
	w->orderDirty |= ( w->flags[slot] & SP_FLAG_IN_ORDER ) != 0;
	w->structureVersion += 1;
	spLeaveIndex( w, slot );
	uint32_t gen = w->generations[slot] + 1;
	if ( gen > SP_GENERATION_MASK )
	{
		// retire the slot: reusing it would let a stale id alias a new box
		w->generations[slot] = 0;
	}
	else
	{
		w->generations[slot] = (uint16_t)gen;
		w->freeNext[slot] = w->freeHead;
		w->freeHead = slot;
	}
	return sp_resultOk;
}

spResult spWorld_SetBox( spWorldId worldId, spBoxId boxId, const float* min, const float* max )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	int slot;
	spResult r = spResolveBox( w, boxId, &slot );
	if ( r != sp_resultOk )
	{
		return r;
	}
	if ( min == NULL || max == NULL )
	{
		return sp_resultNullArgument;
	}
	r = spCheckBounds( min, max, w->dimensions );
	if ( r != sp_resultOk )
	{
		return r;
	}
	float* b = w->bounds + (size_t)slot * w->stride;
	memcpy( b, min, sizeof( float ) * w->dimensions );
	memcpy( b + w->dimensions, max, sizeof( float ) * w->dimensions );
	if ( ( w->flags[slot] & SP_FLAG_STATIC ) != 0 )
	{
		w->staticDirty = 1;
	}
	return sp_resultOk;
}

spResult spWorld_SetBoxes( spWorldId worldId, const spBoxId* boxIds, const float* bounds, int count )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	if ( count < 0 || count > SP_MAX_BOXES )
	{
		return sp_resultCapacityExceeded;
	}
	if ( count > 0 && ( boxIds == NULL || bounds == NULL ) )
	{
		return sp_resultNullArgument;
	}
	const int d = w->dimensions;
	int slot;
	for ( int i = 0; i < count; ++i )
	{
		spResult r = spResolveBox( w, boxIds[i], &slot );
		if ( r != sp_resultOk )
		{
			return r;
		}
	}
	for ( int i = 0; i < count; ++i )
	{
		const float* b = bounds + (size_t)i * w->stride;
		spResult r = spCheckBounds( b, b + d, d );
		if ( r != sp_resultOk )
		{
			return r;
		}
	}
	for ( int i = 0; i < count; ++i )
	{
		spResolveBox( w, boxIds[i], &slot );
		memcpy( w->bounds + (size_t)slot * w->stride, bounds + (size_t)i * w->stride, sizeof( float ) * w->stride );
		if ( ( w->flags[slot] & SP_FLAG_STATIC ) != 0 )
		{
			w->staticDirty = 1;
		}
	}
	return sp_resultOk;
}

spResult spWorld_SetBoxFilter( spWorldId worldId, spBoxId boxId, uint32_t category, uint32_t mask )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	int slot;
	spResult r = spResolveBox( w, boxId, &slot );
	if ( r != sp_resultOk )
	{
		return r;
	}
	w->filteredBoxes += spHasFilter( category, mask ) - spHasFilter( w->categories[slot], w->masks[slot] );
	w->categories[slot] = category;
	w->masks[slot] = mask;
	return sp_resultOk;
}

spResult spWorld_GetBoxFilter( spWorldId worldId, spBoxId boxId, uint32_t* category, uint32_t* mask )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	int slot;
	spResult r = spResolveBox( w, boxId, &slot );
	if ( r != sp_resultOk )
	{
		return r;
	}
	if ( category == NULL || mask == NULL )
	{
		return sp_resultNullArgument;
	}
	*category = w->categories[slot];
	*mask = w->masks[slot];
	return sp_resultOk;
}

spResult spWorld_SetBoxStatic( spWorldId worldId, spBoxId boxId, bool isStatic )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	int slot;
	spResult r = spResolveBox( w, boxId, &slot );
	if ( r != sp_resultOk )
	{
		return r;
	}
	bool was = ( w->flags[slot] & SP_FLAG_STATIC ) != 0;
	if ( was == isStatic )
	{
		return sp_resultOk;
	}
	// Both lists have one entry per slot of capacity, so appending cannot fail.
	if ( isStatic )
	{
		spLeaveIndex( w, slot );
		w->flags[slot] |= SP_FLAG_STATIC;
		w->orderDirty |= ( w->flags[slot] & SP_FLAG_IN_ORDER ) != 0;
		if ( ( w->flags[slot] & SP_FLAG_IN_STATICS ) == 0 )
		{
			SP_ASSERT( w->staticCount < w->staticCapacity );
			w->statics[w->staticCount++] = slot;
			w->flags[slot] |= SP_FLAG_IN_STATICS;
		}
	}
	else
	{
		w->newMovers += 1;
		w->flags[slot] &= (uint8_t)~SP_FLAG_STATIC;
		if ( ( w->flags[slot] & SP_FLAG_IN_ORDER ) == 0 )
		{
			SP_ASSERT( w->orderCount < w->orderCapacity );
			w->order[w->orderCount++] = slot;
			w->flags[slot] |= SP_FLAG_IN_ORDER;
		}
	}
	w->staticDirty = 1;
	return sp_resultOk;
}

bool spWorld_IsBoxStatic( spWorldId worldId, spBoxId boxId )
{
	spWorld* w = spGetWorld( worldId );
	int slot;
	return w != NULL && spResolveBox( w, boxId, &slot ) == sp_resultOk && ( w->flags[slot] & SP_FLAG_STATIC ) != 0;
}

spResult spWorld_GetBox( spWorldId worldId, spBoxId boxId, float* min, float* max )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	int slot;
	spResult r = spResolveBox( w, boxId, &slot );
	if ( r != sp_resultOk )
	{
		return r;
	}
	if ( min == NULL || max == NULL )
	{
		return sp_resultNullArgument;
	}
	const float* b = w->bounds + (size_t)slot * w->stride;
	memcpy( min, b, sizeof( float ) * w->dimensions );
	memcpy( max, b + w->dimensions, sizeof( float ) * w->dimensions );
	return sp_resultOk;
}

bool spWorld_IsBoxValid( spWorldId worldId, spBoxId boxId )
{
	spWorld* w = spGetWorld( worldId );
	int slot;
	return w != NULL && spResolveBox( w, boxId, &slot ) == sp_resultOk;
}

float* spWorld_GetBounds( spWorldId worldId, int* floatCount )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		if ( floatCount != NULL )
			*floatCount = 0;
		return NULL;
	}
	if ( floatCount != NULL )
		*floatCount = w->slotCount * w->stride;
	return w->bounds;
}

spResult spWorld_Update( spWorldId worldId )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	spResult r = spUpdateWorld( w );
	if ( r == sp_resultOk )
	{
		w->pairsCopyValid = 0;
	}
	return r;
}

spBoxId spWorld_GetLastInvalidBox( spWorldId worldId )
{
	spWorld* w = spGetWorld( worldId );
	return w != NULL ? w->lastInvalidBox : sp_nullBoxId;
}

static const uint32_t* spPairsOf( spWorldId worldId, int which, int* pairCount )
{
	spWorld* w = spGetWorld( worldId );
	const spPairArray* p = NULL;
	if ( w != NULL )
	{
		p = which == 0 ? &w->pairs[w->current] : which == 1 ? &w->began : &w->ended;
	}
	if ( pairCount != NULL )
		*pairCount = p != NULL ? p->count : 0;
	return p != NULL ? (const uint32_t*)p->data : NULL;
}

const uint32_t* spWorld_GetPairs( spWorldId worldId, int* pairCount )
{
	return spPairsOf( worldId, 0, pairCount );
}

const uint32_t* spWorld_GetBeganPairs( spWorldId worldId, int* pairCount )
{
	return spPairsOf( worldId, 1, pairCount );
}

const uint32_t* spWorld_GetEndedPairs( spWorldId worldId, int* pairCount )
{
	return spPairsOf( worldId, 2, pairCount );
}

spResult spWorld_CopyPairs( spWorldId worldId, const uint32_t** pairs, int* pairCount )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	if ( pairs == NULL || pairCount == NULL )
	{
		return sp_resultNullArgument;
	}
	const spPairArray* p = &w->pairs[w->current];
	if ( !w->pairsCopyValid )
	{
		if ( !spGrowWithRoom( (void**)&w->pairsCopy.data, &w->pairsCopy.capacity, p->count, sizeof( spPair ) ) )
		{
			return sp_resultOutOfMemory;
		}
		if ( p->count > 0 )
		{
			memcpy( w->pairsCopy.data, p->data, (size_t)p->count * sizeof( spPair ) );
		}
		w->pairsCopy.count = p->count;
		w->pairsCopyValid = 1;
	}
	*pairs = (const uint32_t*)w->pairsCopy.data;
	*pairCount = w->pairsCopy.count;
	return sp_resultOk;
}

spCounters spWorld_GetCounters( spWorldId worldId )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		spCounters zero = { 0 };
		return zero;
	}
	return w->counters;
}

spResult spWorld_GetEndpoints( spWorldId worldId, int axis, const float** values, const uint32_t** refs, int* count )
{
	spWorld* w = spGetWorld( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	if ( values == NULL || refs == NULL || count == NULL )
	{
		return sp_resultNullArgument;
	}
	if ( axis < 0 || axis >= w->dimensions )
	{
		return sp_resultInvalidDimensions;
	}
	spResult r = spUpdateEndpoints( w, axis );
	if ( r != sp_resultOk )
	{
		return r;
	}
	*values = w->endpoints[axis].values;
	*refs = w->endpoints[axis].refs;
	*count = w->endpoints[axis].count;
	return sp_resultOk;
}
