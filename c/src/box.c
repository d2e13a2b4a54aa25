// SPDX-License-Identifier: MIT
// The box calls of the public API: add, remove, move, filter, make static, read. Each validates every input before
// it changes anything.
#include "world.h"

#include <string.h>

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

// The world and slot of a live box, or why not: sp_resultInvalidWorld, then spResolveBox's answer.
static spResult spFindBox( spWorldId worldId, spBoxId boxId, spWorld** outWorld, int* outSlot )
{
	spWorld* w = spGetWorldPtr( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	*outWorld = w;
	return spResolveBox( w, boxId, outSlot );
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

// True if every box of `bounds` passes spCheckBounds, in one pass with no branch per box.
SP_FORCE_INLINE bool spBoundsValidIn( const float* bounds, int count, int d )
{
	int valid = 1;
	for ( int i = 0; i < count; ++i )
	{
		valid &= spBoundsOrdered( bounds + (size_t)i * 2 * d, d );
	}
	return valid != 0;
}

// spBoundsValidIn with the dimension count a constant for the common ones
static bool spBoundsAllValid( const float* bounds, int count, int d )
{
	switch ( d )
	{
		case 2:
			return spBoundsValidIn( bounds, count, 2 );
		case 3:
			return spBoundsValidIn( bounds, count, 3 );
		default:
			return spBoundsValidIn( bounds, count, d );
	}
}

// The bounds of a batch checked as spCheckBounds checks one box: one pass with no branch per box; only a failed batch
// is checked box by box, for the first bad box's error.
static spResult spCheckBatchBounds( const float* bounds, int count, int d )
{
	if ( spBoundsAllValid( bounds, count, d ) )
	{
		return sp_resultOk;
	}
	for ( int i = 0; i < count; ++i )
	{
		const float* b = bounds + (size_t)i * 2 * d;
		spResult r = spCheckBounds( b, b + d, d );
		if ( r != sp_resultOk )
		{
			return r;
		}
	}
	return sp_resultOk;
}

// The world of a bulk call, with its count and its two arrays checked (the arrays may be NULL when count is 0).
static spResult spBatchWorld( spWorldId worldId, int count, const void* a, const void* b, spWorld** out )
{
	*out = spGetWorldPtr( worldId );
	if ( *out == NULL )
	{
		return sp_resultInvalidWorld;
	}
	if ( count < 0 || count > SP_MAX_BOXES )
	{
		return sp_resultCapacityExceeded;
	}
	if ( count > 0 && ( a == NULL || b == NULL ) )
	{
		return sp_resultNullArgument;
	}
	return sp_resultOk;
}

// spPlaceBox for `count` validated boxes in new slots (the free list empty, room reserved), array by array: the
// same slots, ids and state as one spPlaceBox per box, without a pass over every array per box.
static void spPlaceFreshBoxes( spWorld* w, const float* bounds, int count, spBoxId* outBoxes )
{
	SP_ASSERT( w->freeHead < 0 && w->slotCount + count <= w->slotCapacity );
	SP_ASSERT( w->orderCount + count <= w->orderCapacity );
	const int first = w->slotCount;
	memcpy( w->bounds + (size_t)first * w->stride, bounds, sizeof( float ) * (size_t)w->stride * (size_t)count );
	// an array at a time, through local pointers: a store through flags (bytes) may alias the world as far as the
	// compiler knows, which made it load every pointer again for every box and write one value at a time
	uint16_t* generations = w->generations + first;
	uint32_t* categories = w->categories + first;
	uint32_t* masks = w->masks + first;
	uint32_t* ids = w->ids + first;
	int* order = w->order + w->orderCount;
	memset( w->flags + first, SP_FLAG_IN_ORDER, (size_t)count );
	for ( int k = 0; k < count; ++k )
		generations[k] = 1;
	for ( int k = 0; k < count; ++k )
		categories[k] = SP_DEFAULT_CATEGORY;
	for ( int k = 0; k < count; ++k )
		masks[k] = SP_DEFAULT_MASK;
	for ( int k = 0; k < count; ++k )
		ids[k] = (uint32_t)( first + k ) << SP_GENERATION_BITS | 1u;
	for ( int k = 0; k < count; ++k )
		order[k] = first + k;
	memcpy( outBoxes, ids, sizeof( uint32_t ) * (size_t)count );
	w->orderCount += count;
	w->slotCount += count;
	w->boxCount += count;
	w->structureVersion += (uint32_t)count;
	w->newMovers += count;
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
	spWorld* w = spGetWorldPtr( worldId );
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
	spWorld* w;
	spResult r = spBatchWorld( worldId, count, bounds, outBoxes, &w );
	if ( r != sp_resultOk )
	{
		return r;
	}
	const int d = w->dimensions;
	r = spCheckBatchBounds( bounds, count, d );
	if ( r != sp_resultOk )
	{
		return r;
	}
	r = spReserveBoxes( w, count );
	if ( r != sp_resultOk )
	{
		return r;
	}
	int i = 0;
	for ( ; i < count && w->freeHead >= 0; ++i )
	{
		const float* b = bounds + (size_t)i * w->stride;
		outBoxes[i].bits = spPlaceBox( w, b, b + d );
	}
	if ( i < count )
	{
		spPlaceFreshBoxes( w, bounds + (size_t)i * w->stride, count - i, outBoxes + i );
	}
	return sp_resultOk;
}

spResult spWorld_RemoveBox( spWorldId worldId, spBoxId boxId )
{
	spWorld* w;
	int slot;
	spResult r = spFindBox( worldId, boxId, &w, &slot );
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
	spWorld* w;
	int slot;
	spResult r = spFindBox( worldId, boxId, &w, &slot );
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
	spWorld* w;
	spResult r = spBatchWorld( worldId, count, boxIds, bounds, &w );
	if ( r != sp_resultOk )
	{
		return r;
	}
	int slot;
	for ( int i = 0; i < count; ++i )
	{
		r = spResolveBox( w, boxIds[i], &slot );
		if ( r != sp_resultOk )
		{
			return r;
		}
	}
	r = spCheckBatchBounds( bounds, count, w->dimensions );
	if ( r != sp_resultOk )
	{
		return r;
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
	spWorld* w;
	int slot;
	spResult r = spFindBox( worldId, boxId, &w, &slot );
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
	spWorld* w;
	int slot;
	spResult r = spFindBox( worldId, boxId, &w, &slot );
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
	spWorld* w;
	int slot;
	spResult r = spFindBox( worldId, boxId, &w, &slot );
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
	spWorld* w = spGetWorldPtr( worldId );
	int slot;
	return w != NULL && spResolveBox( w, boxId, &slot ) == sp_resultOk && ( w->flags[slot] & SP_FLAG_STATIC ) != 0;
}

spResult spWorld_GetBox( spWorldId worldId, spBoxId boxId, float* min, float* max )
{
	spWorld* w;
	int slot;
	spResult r = spFindBox( worldId, boxId, &w, &slot );
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
	spWorld* w = spGetWorldPtr( worldId );
	int slot;
	return w != NULL && spResolveBox( w, boxId, &slot ) == sp_resultOk;
}

float* spWorld_GetBounds( spWorldId worldId, int* floatCount )
{
	spWorld* w = spGetWorldPtr( worldId );
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
