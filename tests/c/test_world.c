// SPDX-License-Identifier: MIT
// World and box lifecycle: ids, errors, and the rule that a failed call changes nothing.
#include "world.h"
#include "test.h"

#include <math.h>
#include <string.h>

int IdsAreGenerational( void )
{
	spWorldId w = TestWorld( 2 );
	float min[2] = { 0, 0 }, max[2] = { 1, 1 };
	spBoxId a, b;
	ENSURE_OK( spWorld_AddBox( w, min, max, &a ) );
	ENSURE( a.bits != 0 );
	ENSURE_OK( spWorld_RemoveBox( w, a ) );
	ENSURE_OK( spWorld_AddBox( w, min, max, &b ) );
	// same slot, new generation
	ENSURE( spBoxId_Slot( a ) == spBoxId_Slot( b ) );
	ENSURE( a.bits != b.bits );
	ENSURE( spWorld_IsBoxValid( w, b ) );
	ENSURE( !spWorld_IsBoxValid( w, a ) );
	// churn one slot past the generation window: a stale id is never accepted again
	spBoxId first = b;
	for ( int i = 0; i < 3000; ++i )
	{
		ENSURE_OK( spWorld_RemoveBox( w, b ) );
		ENSURE_OK( spWorld_AddBox( w, min, max, &b ) );
		ENSURE( b.bits != first.bits );
		ENSURE( !spWorld_IsBoxValid( w, first ) );
		ENSURE( spWorld_RemoveBox( w, first ) == sp_resultStaleBox );
	}
	ENSURE( spWorld_GetBoxCount( w ) == 1 );
	ENSURE_OK( spDestroyWorld( w ) );
	return 0;
}

int StaleAndForeignIdsAreRejected( void )
{
	spWorldId w = TestWorld( 2 );
	float min[2] = { 0, 0 }, max[2] = { 1, 1 };
	spBoxId a, b;
	ENSURE_OK( spWorld_AddBox( w, min, max, &a ) );
	ENSURE_OK( spWorld_AddBox( w, min, max, &b ) );
	ENSURE_OK( spWorld_RemoveBox( w, a ) );
	ENSURE( spWorld_RemoveBox( w, a ) == sp_resultStaleBox ); // double remove
	ENSURE( spWorld_SetBox( w, a, min, max ) == sp_resultStaleBox );
	ENSURE( spWorld_GetBox( w, a, min, max ) == sp_resultStaleBox );
	ENSURE( spWorld_RemoveBox( w, sp_nullBoxId ) == sp_resultInvalidBox );
	spBoxId never = { 1234u << SP_GENERATION_BITS | 1u };
	ENSURE( spWorld_RemoveBox( w, never ) == sp_resultInvalidBox );
	spBoxId future = { b.bits + 1 }; // a generation the slot has not reached
	ENSURE( spWorld_RemoveBox( w, future ) == sp_resultInvalidBox );
	ENSURE( spWorld_GetBoxCount( w ) == 1 );
	ENSURE_OK( spDestroyWorld( w ) );
	// every call on a destroyed world is refused
	ENSURE( spWorld_AddBox( w, min, max, &a ) == sp_resultInvalidWorld );
	ENSURE( spWorld_Update( w ) == sp_resultInvalidWorld );
	ENSURE( spDestroyWorld( w ) == sp_resultInvalidWorld );
	ENSURE( !spWorld_IsValid( w ) );
	ENSURE( spWorld_Update( sp_nullWorldId ) == sp_resultInvalidWorld );
	int count = -1;
	ENSURE( spWorld_GetPairs( w, &count ) == NULL && count == 0 );
	return 0;
}

// Worlds are limited by memory, not by a table: thousands alive at once, each id distinct and usable; a destroyed
// world's id stays invalid however often its slot is reused, because a slot retires before its generation wraps.
int WorldRegistry( void )
{
	enum
	{
		alive = 3000,
		cycles = 2 * SP_GENERATION_MASK + 10
	};
	spWorldId* ids = malloc( sizeof( spWorldId ) * ( alive > cycles ? alive : cycles ) );
	ENSURE( ids != NULL );
	spWorldDef def = spDefaultWorldDef();
	float min[2] = { 0, 0 }, max[2] = { 1, 1 };
	for ( int i = 0; i < alive; ++i )
	{
		ENSURE_OK( spCreateWorld( &def, &ids[i] ) );
		ENSURE( ids[i].bits != 0 && ( ids[i].bits & SP_GENERATION_MASK ) != 0 );
		spBoxId b;
		ENSURE_OK( spWorld_AddBox( ids[i], min, max, &b ) );
	}
	for ( int i = 0; i < alive; ++i )
	{
		for ( int j = 0; j < i; j += 97 )
			ENSURE( ids[i].bits != ids[j].bits );
		ENSURE( spWorld_GetBoxCount( ids[i] ) == 1 );
	}
	spWorldId old = ids[5];
	ENSURE_OK( spDestroyWorld( ids[5] ) );
	ENSURE_OK( spCreateWorld( &def, &ids[5] ) );
	ENSURE( ids[5].bits != old.bits );
	ENSURE( !spWorld_IsValid( old ) );
	ENSURE( spWorld_GetDimensions( ids[5] ) == 2 );
	ENSURE( spWorld_GetBoxCount( ids[5] ) == 0 );
	for ( int i = 0; i < alive; ++i )
	{
		ENSURE_OK( spDestroyWorld( ids[i] ) );
		ENSURE( !spWorld_IsValid( ids[i] ) );
	}

	// one world at a time, more than twice a slot's 1023 generations: no id comes back
	for ( int i = 0; i < cycles; ++i )
	{
		ENSURE_OK( spCreateWorld( &def, &ids[i] ) );
		ENSURE_OK( spDestroyWorld( ids[i] ) );
	}
	for ( int i = 0; i < cycles; ++i )
	{
		ENSURE( !spWorld_IsValid( ids[i] ) );
		ENSURE( spDestroyWorld( ids[i] ) == sp_resultInvalidWorld );
		int sameSlot = 0;
		for ( int j = 0; j < cycles; ++j )
		{
			ENSURE( j == i || ids[j].bits != ids[i].bits );
			sameSlot += ( ids[j].bits >> SP_GENERATION_BITS ) == ( ids[i].bits >> SP_GENERATION_BITS );
		}
		ENSURE( sameSlot <= (int)SP_GENERATION_MASK );
	}
	free( ids );
	return 0;
}

int InvalidBoundsViewRejectsFrame( void )
{
	spWorldId w = TestWorld( 2 );
	float min[2] = { 0, 0 }, max[2] = { 2, 2 };
	spBoxId a, b;
	ENSURE_OK( spWorld_AddBox( w, min, max, &a ) );
	ENSURE_OK( spWorld_AddBox( w, min, max, &b ) );
	ENSURE_OK( spWorld_Update( w ) );
	int count;
	spWorld_GetPairs( w, &count );
	ENSURE( count == 1 );
	int floats;
	float* bounds = spWorld_GetBounds( w, &floats );
	ENSURE( floats == 8 );
	// move b away and poison a through the view: the frame is rejected and names a
	bounds[spBoxId_Slot( b ) * 4 + 0] = 10;
	bounds[spBoxId_Slot( b ) * 4 + 2] = 11;
	bounds[spBoxId_Slot( a ) * 4 + 1] = NAN;
	ENSURE( spWorld_Update( w ) == sp_resultInvalidBounds );
	ENSURE( spWorld_GetLastInvalidBox( w ).bits == a.bits );
	const uint32_t* p = spWorld_GetPairs( w, &count );
	ENSURE( count == 1 && p[0] == a.bits && p[1] == b.bits );
	spWorld_GetBeganPairs( w, &count );
	ENSURE( count == 1 );
	// inverted
	bounds[spBoxId_Slot( a ) * 4 + 1] = 5; // min y 5 > max y 2
	ENSURE( spWorld_Update( w ) == sp_resultInvertedBounds );
	ENSURE( spWorld_GetLastInvalidBox( w ).bits == a.bits );
	// fixed: the update goes through and reports the pair as ended
	bounds[spBoxId_Slot( a ) * 4 + 1] = 0;
	ENSURE_OK( spWorld_Update( w ) );
	ENSURE( spWorld_GetLastInvalidBox( w ).bits == 0 );
	spWorld_GetPairs( w, &count );
	ENSURE( count == 0 );
	spWorld_GetEndedPairs( w, &count );
	ENSURE( count == 1 );
	// removed boxes' slots are ignored even if garbage
	ENSURE_OK( spWorld_RemoveBox( w, b ) );
	bounds[spBoxId_Slot( b ) * 4 + 0] = NAN;
	ENSURE_OK( spWorld_Update( w ) );
	ENSURE_OK( spDestroyWorld( w ) );
	return 0;
}

// The bounds array moves only when the capacity grows: adding boxes into reserved room, removing and re-adding
// (slots reused), updating with many pairs and other worlds' work leave it where it is.
int BoundsMoveOnlyPastCapacity( void )
{
	spWorldId w = TestWorld( 2 );
	ENSURE( spWorld_GetCapacity( w ) == 0 );
	ENSURE_OK( spWorld_Reserve( w, 100 ) );
	ENSURE( spWorld_GetCapacity( w ) == 100 );
	float* bounds = spWorld_GetBounds( w, NULL );
	spBoxId ids[100];
	for ( int i = 0; i < 100; ++i )
	{
		float min[2] = { (float)i * 0.5f, 0 }, max[2] = { (float)i * 0.5f + 3, 1 };
		ENSURE_OK( spWorld_AddBox( w, min, max, &ids[i] ) );
	}
	spWorldId other = TestWorld( 2 );
	for ( int frame = 0; frame < 10; ++frame )
	{
		ENSURE_OK( spWorld_RemoveBox( w, ids[frame] ) );
		float min[2] = { 0, 0 }, max[2] = { 50, 1 };
		ENSURE_OK( spWorld_AddBox( w, min, max, &ids[frame] ) );
		spBoxId o;
		ENSURE_OK( spWorld_AddBox( other, min, max, &o ) );
		ENSURE_OK( spWorld_Update( w ) );
		ENSURE_OK( spWorld_Update( other ) );
		ENSURE( spWorld_GetBounds( w, NULL ) == bounds );
	}
	ENSURE( spWorld_GetCapacity( w ) == 100 );
	float min[2] = { 0, 0 }, max[2] = { 1, 1 };
	spBoxId extra;
	ENSURE_OK( spWorld_AddBox( w, min, max, &extra ) );
	ENSURE( spWorld_GetCapacity( w ) > 100 );
	ENSURE_OK( spDestroyWorld( other ) );
	ENSURE_OK( spDestroyWorld( w ) );
	return 0;
}

// spWorld_AddBoxes and spWorld_SetBoxes against the brute-force oracle, in 1 to 4 dimensions: batches that reuse
// the slots of removed boxes and grow the world, mixed with single adds and bulk moves. A bulk add hands out the
// ids that the same boxes added one by one would get.
int BulkAddAndSetMatchBruteForce( void )
{
	for ( int d = 1; d <= SP_MAX_DIMENSIONS; ++d )
	{
		spWorldId w = TestWorld( d );
		spWorldId single = TestWorld( d );
		Rng rng = { 40u + (uint32_t)d };
		Mirror m;
		MirrorInit( &m, d );
		uint32_t* prev = NULL;
		int prevCount = 0;
		float bounds[2 * SP_MAX_DIMENSIONS * 300];
		spBoxId ids[300];
		for ( int step = 0; step < 8; ++step )
		{
			int count = step == 3 ? 0 : 1 + RngInt( &rng, 300 );
			for ( int i = 0; i < count; ++i )
				RandomBox( &rng, d, 0.08f, bounds + 2 * d * i, bounds + 2 * d * i + d );
			ENSURE_OK( spWorld_AddBoxes( w, bounds, count, ids ) );
			for ( int i = 0; i < count; ++i )
			{
				spBoxId one;
				ENSURE_OK( spWorld_AddBox( single, bounds + 2 * d * i, bounds + 2 * d * i + d, &one ) );
				ENSURE( one.bits == ids[i].bits );
				MirrorAdd( &m, ids[i].bits, bounds + 2 * d * i, bounds + 2 * d * i + d );
			}
			// move a random third of the boxes in one call
			int moved = 0;
			for ( int i = 0; i < m.count; ++i )
			{
				if ( RngInt( &rng, 3 ) != 0 )
					continue;
				RandomBox( &rng, d, 0.08f, bounds + 2 * d * moved, bounds + 2 * d * moved + d );
				ids[moved++].bits = m.ids[i];
				if ( moved == 300 )
					break;
			}
			ENSURE_OK( spWorld_SetBoxes( w, ids, bounds, moved ) );
			for ( int i = 0; i < moved; ++i )
			{
				ENSURE_OK( spWorld_SetBox( single, ids[i], bounds + 2 * d * i, bounds + 2 * d * i + d ) );
				MirrorSet( &m, ids[i].bits, bounds + 2 * d * i, bounds + 2 * d * i + d );
			}
			ENSURE_OK( spWorld_Update( w ) );
			RUN_SUB( CheckWorld( w, &m, &prev, &prevCount ) );
			// remove a few, so the next batch reuses their slots
			for ( int k = 0; k < m.count / 4; ++k )
			{
				spBoxId id = { m.ids[RngInt( &rng, m.count )] };
				ENSURE_OK( spWorld_RemoveBox( w, id ) );
				ENSURE_OK( spWorld_RemoveBox( single, id ) );
				MirrorRemove( &m, id.bits );
			}
		}
		ENSURE_OK( spDestroyWorld( w ) );
		ENSURE_OK( spDestroyWorld( single ) );
		MirrorFree( &m );
		free( prev );
	}
	return 0;
}

// A bulk call with one bad box or id, anywhere in the batch, changes nothing; so does one that runs out of memory.
int BulkBadInputChangesNothing( void )
{
	spWorldId w = TestWorld( 2 );
	float ok[2 * 2 * 4] = { 0, 0, 1, 1, 0.5f, 0.5f, 2, 2, 3, 3, 4, 4, 1, 0, 3, 1 };
	spBoxId ids[4], out[4] = { { 77 }, { 77 }, { 77 }, { 77 } };
	ENSURE_OK( spWorld_AddBoxes( w, ok, 4, ids ) );
	ENSURE_OK( spWorld_RemoveBox( w, ids[2] ) );
	ENSURE_OK( spWorld_Update( w ) );
	const uint32_t* known = (const uint32_t*)ids;
	State before = Capture( w, known, 4 );
	for ( int k = 0; k < 4; ++k )
	{
		float bad[2 * 2 * 4];
		memcpy( bad, ok, sizeof( ok ) );
		bad[4 * k + 1] = NAN;
		ENSURE( spWorld_AddBoxes( w, bad, 4, out ) == sp_resultInvalidBounds );
		ENSURE( spWorld_SetBoxes( w, ids, bad, 2 ) == ( k < 2 ? sp_resultInvalidBounds : sp_resultOk ) );
		memcpy( bad, ok, sizeof( ok ) );
		bad[4 * k + 2] = INFINITY;
		ENSURE( spWorld_AddBoxes( w, bad, 4, out ) == sp_resultInvalidBounds );
		memcpy( bad, ok, sizeof( ok ) );
		bad[4 * k + 3] = bad[4 * k + 1] - 1; // max y below min y
		ENSURE( spWorld_AddBoxes( w, bad, 4, out ) == sp_resultInvertedBounds );
		if ( k < 2 )
			ENSURE( spWorld_SetBoxes( w, ids, bad, 2 ) == sp_resultInvertedBounds );
		ENSURE( SameAsNow( &before, w, known, 4, __LINE__, 0 ) );
	}
	spBoxId withStale[2] = { ids[0], ids[2] };
	ENSURE( spWorld_SetBoxes( w, withStale, ok, 2 ) == sp_resultStaleBox );
	spBoxId withForeign[2] = { ids[0], { 1234u << SP_GENERATION_BITS | 1u } };
	ENSURE( spWorld_SetBoxes( w, withForeign, ok, 2 ) == sp_resultInvalidBox );
	ENSURE( spWorld_AddBoxes( w, ok, -1, out ) == sp_resultCapacityExceeded );
	ENSURE( spWorld_AddBoxes( w, ok, SP_MAX_BOXES + 1, out ) == sp_resultCapacityExceeded );
	ENSURE( spWorld_AddBoxes( w, NULL, 1, out ) == sp_resultNullArgument );
	ENSURE( spWorld_AddBoxes( w, ok, 1, NULL ) == sp_resultNullArgument );
	ENSURE( spWorld_SetBoxes( w, NULL, ok, 1 ) == sp_resultNullArgument );
	ENSURE( spWorld_SetBoxes( w, ids, ok, -1 ) == sp_resultCapacityExceeded );
	ENSURE( spWorld_AddBoxes( sp_nullWorldId, ok, 1, out ) == sp_resultInvalidWorld );
	ENSURE_OK( spWorld_AddBoxes( w, NULL, 0, NULL ) );
	ENSURE( out[0].bits == 77 && out[3].bits == 77 );
	ENSURE( SameAsNow( &before, w, known, 4, __LINE__, 0 ) );

	// out of memory while growing for a batch: nothing added, then the same batch succeeds
	static float many[2 * 2 * 1000];
	static spBoxId manyIds[1000];
	for ( int i = 0; i < 1000; ++i )
	{
		float* b = many + 4 * i;
		b[0] = (float)i;
		b[1] = 0;
		b[2] = (float)i + 1.5f;
		b[3] = 1;
	}
	spSetAllocator( TestRealloc );
	for ( int k = 0; k < 12; ++k )
	{
		TestFailAt( k );
		testAllocator.keepFailing = 1;
		spResult r = spWorld_AddBoxes( w, many, 1000, manyIds );
		TestFailAt( -1 );
		testAllocator.keepFailing = 0;
		if ( r == sp_resultOk )
			break;
		ENSURE( r == sp_resultOutOfMemory );
		ENSURE( SameAsNow( &before, w, known, 4, __LINE__, 0 ) );
	}
	ENSURE( spWorld_GetBoxCount( w ) == 1003 );
	ENSURE_OK( spDestroyWorld( w ) );
	spSetAllocator( NULL );
	Release( &before );
	return 0;
}
