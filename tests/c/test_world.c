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

// A snapshot of everything a user can observe of a world.
typedef struct Snapshot
{
	int boxes;
	int floatCount;
	float bounds[256];
	int pairCount;
	uint32_t pairs[256];
} Snapshot;

static void Snap( spWorldId w, Snapshot* s )
{
	memset( s, 0, sizeof( *s ) );
	s->boxes = spWorld_GetBoxCount( w );
	const float* b = spWorld_GetBounds( w, &s->floatCount );
	if ( b != NULL ) // memcpy from null is undefined even for zero bytes
		memcpy( s->bounds, b, sizeof( float ) * (size_t)( s->floatCount < 256 ? s->floatCount : 256 ) );
	const uint32_t* p = spWorld_GetPairs( w, &s->pairCount );
	if ( p != NULL )
		memcpy( s->pairs, p, sizeof( uint32_t ) * 2 * (size_t)( s->pairCount < 128 ? s->pairCount : 128 ) );
}

static int SameSnapshot( const Snapshot* x, const Snapshot* y )
{
	return memcmp( x, y, sizeof( *x ) ) == 0;
}

int BadInputChangesNothing( void )
{
	spWorldId w = TestWorld( 3 );
	float min[3] = { 0, 0, 0 }, max[3] = { 1, 1, 1 };
	spBoxId a, b, out = { 77 };
	ENSURE_OK( spWorld_AddBox( w, min, max, &a ) );
	ENSURE_OK( spWorld_AddBox( w, min, max, &b ) );
	ENSURE_OK( spWorld_Update( w ) );
	Snapshot before, after;
	Snap( w, &before );

	float nanMin[3] = { 0, NAN, 0 };
	float infMax[3] = { 1, 1, INFINITY };
	float inverted[3] = { 0, 2, 0 };
	ENSURE( spWorld_AddBox( w, nanMin, max, &out ) == sp_resultInvalidBounds );
	ENSURE( spWorld_AddBox( w, min, infMax, &out ) == sp_resultInvalidBounds );
	ENSURE( spWorld_AddBox( w, inverted, max, &out ) == sp_resultInvertedBounds );
	ENSURE( spWorld_AddBox( w, NULL, max, &out ) == sp_resultNullArgument );
	ENSURE( spWorld_AddBox( w, min, max, NULL ) == sp_resultNullArgument );
	ENSURE( out.bits == 77 );
	ENSURE( spWorld_SetBox( w, a, nanMin, max ) == sp_resultInvalidBounds );
	ENSURE( spWorld_SetBox( w, a, inverted, max ) == sp_resultInvertedBounds );
	ENSURE( spWorld_SetBox( w, a, NULL, max ) == sp_resultNullArgument );
	ENSURE( spWorld_Reserve( w, -1 ) == sp_resultCapacityExceeded );
	ENSURE( spWorld_Reserve( w, SP_MAX_BOXES + 1 ) == sp_resultCapacityExceeded );
	const float* v;
	const uint32_t* r;
	int n;
	ENSURE( spWorld_GetEndpoints( w, 3, &v, &r, &n ) == sp_resultInvalidDimensions );
	ENSURE( spWorld_GetEndpoints( w, -1, &v, &r, &n ) == sp_resultInvalidDimensions );
	Snap( w, &after );
	ENSURE( SameSnapshot( &before, &after ) );

	spWorldDef def = spDefaultWorldDef();
	spWorldId x = { 99 };
	def.dimensions = 0;
	ENSURE( spCreateWorld( &def, &x ) == sp_resultInvalidDimensions );
	def.dimensions = 5;
	ENSURE( spCreateWorld( &def, &x ) == sp_resultInvalidDimensions );
	spWorldDef raw = { 2, 0, 0 };
	ENSURE( spCreateWorld( &raw, &x ) == sp_resultInvalidDef );
	ENSURE( spCreateWorld( NULL, &x ) == sp_resultNullArgument );
	ENSURE( x.bits == 99 );
	ENSURE( strcmp( spResultString( sp_resultStaleBox ), "stale box id (the box was removed)" ) == 0 );
	ENSURE( strcmp( spResultString( (spResult)999 ), "unknown result" ) == 0 );
	for ( int i = 0; i < sp_resultCount; ++i )
		ENSURE( strcmp( spResultString( (spResult)i ), "unknown result" ) != 0 );
	ENSURE_OK( spDestroyWorld( w ) );
	return 0;
}

int OutOfMemoryChangesNothing( void )
{
	// For every allocation point k of a scenario, fail allocation k and check that the failed call reports
	// sp_resultOutOfMemory and leaves the observable state as it was; then let it succeed.
	for ( int k = 0; k < 40; ++k )
	{
		// allocation k fails, and every one after it until the failure is seen
		testAllocator.keepFailing = 1;
		TestFailAt( -1 );
		spSetAllocator( TestRealloc );
		spWorldId w = TestWorld( 2 );
		Rng rng = { 7 };
		Mirror m;
		MirrorInit( &m, 2 );
		uint32_t* prev = NULL;
		int prevCount = 0;
		for ( int step = 0; step < 6; ++step )
		{
			// add a batch of boxes, then update; allocation k (counted from this step) fails
			TestFailAt( k );
			for ( int i = 0; i < 40; ++i )
			{
				float x = RngFloat( &rng ) * 10, y = RngFloat( &rng ) * 10;
				float min[2] = { x, y }, max[2] = { x + 1, y + 1 };
				Snapshot before, after;
				Snap( w, &before );
				spBoxId id;
				spResult r = spWorld_AddBox( w, min, max, &id );
				if ( r == sp_resultOutOfMemory )
				{
					Snap( w, &after );
					ENSURE( SameSnapshot( &before, &after ) );
					TestFailAt( -1 );
					ENSURE_OK( spWorld_AddBox( w, min, max, &id ) );
				}
				ENSURE_OK( r == sp_resultOutOfMemory ? sp_resultOk : r );
				MirrorAdd( &m, id.bits, min, max );
			}
			Snapshot before, after;
			Snap( w, &before );
			spResult r = spWorld_Update( w );
			if ( r == sp_resultOutOfMemory )
			{
				Snap( w, &after );
				ENSURE( SameSnapshot( &before, &after ) );
				TestFailAt( -1 );
				r = spWorld_Update( w );
			}
			ENSURE_OK( r );
			RUN_SUB( CheckWorld( w, &m, &prev, &prevCount ) );
		}
		TestFailAt( -1 );
		ENSURE_OK( spDestroyWorld( w ) );
		spSetAllocator( NULL );
		MirrorFree( &m );
		free( prev );
	}
	return 0;
}

int WorldRegistry( void )
{
	spWorldId ids[SP_MAX_WORLDS];
	spWorldDef def = spDefaultWorldDef();
	for ( int i = 0; i < SP_MAX_WORLDS; ++i )
		ENSURE_OK( spCreateWorld( &def, &ids[i] ) );
	spWorldId extra;
	ENSURE( spCreateWorld( &def, &extra ) == sp_resultTooManyWorlds );
	spWorldId old = ids[5];
	ENSURE_OK( spDestroyWorld( ids[5] ) );
	ENSURE_OK( spCreateWorld( &def, &ids[5] ) );
	ENSURE( ids[5].bits != old.bits );
	ENSURE( !spWorld_IsValid( old ) );
	ENSURE( spWorld_GetDimensions( ids[5] ) == 2 );
	for ( int i = 0; i < SP_MAX_WORLDS; ++i )
		ENSURE_OK( spDestroyWorld( ids[i] ) );
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
