// SPDX-License-Identifier: MIT
// Robustness: one test per error code, each proving that the failing call changed nothing (a snapshot of all the
// observable state before and after), plus bounds written through the view, extreme finite bounds, the box
// limit and a million-operation churn.
#include "core.h"
#include "world.h"
#include "test.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

// A small scene with pairs, began and ended lists all non-empty, one removed box and one stale id.
typedef struct Scene
{
	spWorldId world;
	int dimensions;
	uint32_t ids[8]; // ids[0..4] live, ids[5] removed (stale)
	int idCount;
	Mirror mirror;
} Scene;

static int MakeScene( Scene* s, int d )
{
	memset( s, 0, sizeof( *s ) );
	s->dimensions = d;
	s->world = TestWorld( d );
	MirrorInit( &s->mirror, d );
	for ( int i = 0; i < 6; ++i )
	{
		float min[SP_MAX_DIMENSIONS], max[SP_MAX_DIMENSIONS];
		for ( int a = 0; a < d; ++a )
		{
			min[a] = (float)i * 0.75f;
			max[a] = min[a] + 1.0f;
		}
		spBoxId id;
		ENSURE_OK( spWorld_AddBox( s->world, min, max, &id ) );
		s->ids[i] = id.bits;
		MirrorAdd( &s->mirror, id.bits, min, max );
	}
	ENSURE_OK( spWorld_Update( s->world ) );
	// move box 0 away and remove box 5: the next update has began and ended pairs
	float min[SP_MAX_DIMENSIONS], max[SP_MAX_DIMENSIONS];
	for ( int a = 0; a < d; ++a )
	{
		min[a] = 100.0f;
		max[a] = 101.0f;
	}
	ENSURE_OK( spWorld_SetBox( s->world, ( spBoxId ){ s->ids[0] }, min, max ) );
	MirrorSet( &s->mirror, s->ids[0], min, max );
	ENSURE_OK( spWorld_RemoveBox( s->world, ( spBoxId ){ s->ids[5] } ) );
	MirrorRemove( &s->mirror, s->ids[5] );
	for ( int a = 0; a < d; ++a )
	{
		min[a] = 99.5f;
		max[a] = 100.5f;
	}
	spBoxId id;
	ENSURE_OK( spWorld_AddBox( s->world, min, max, &id ) );
	s->ids[6] = id.bits;
	MirrorAdd( &s->mirror, id.bits, min, max );
	ENSURE_OK( spWorld_Update( s->world ) );
	s->idCount = 7;
	int n;
	spWorld_GetBeganPairs( s->world, &n );
	ENSURE( n > 0 );
	spWorld_GetEndedPairs( s->world, &n );
	ENSURE( n > 0 );
	return 0;
}

static void FreeScene( Scene* s )
{
	spDestroyWorld( s->world );
	MirrorFree( &s->mirror );
}

static void Fill( float* v, int d, float x )
{
	for ( int a = 0; a < d; ++a )
		v[a] = x;
}

int RobustInvalidBounds( void )
{
	const float bad[] = { NAN, -NAN, INFINITY, -INFINITY };
	uint32_t bits[] = { 0x7F800001u, 0xFFC00000u }; // a signalling NaN and a negative quiet NaN
	for ( int d = 1; d <= SP_MAX_DIMENSIONS; ++d )
	{
		Scene s;
		RUN_SUB( MakeScene( &s, d ) );
		spBoxId live = { s.ids[1] };
		for ( int a = 0; a < d; ++a )
		{
			for ( int k = 0; k < 6; ++k )
			{
				float v = k < 4 ? bad[k] : 0.0f;
				if ( k >= 4 )
					memcpy( &v, &bits[k - 4], sizeof( v ) );
				for ( int side = 0; side < 2; ++side )
				{
					float min[SP_MAX_DIMENSIONS], max[SP_MAX_DIMENSIONS];
					Fill( min, d, 0.0f );
					Fill( max, d, 1.0f );
					( side == 0 ? min : max )[a] = v;
					spBoxId out = { 12345 };
					UNCHANGED( s.world, s.ids, s.idCount, spWorld_AddBox( s.world, min, max, &out ),
							   sp_resultInvalidBounds );
					ENSURE( out.bits == 12345 );
					UNCHANGED( s.world, s.ids, s.idCount, spWorld_SetBox( s.world, live, min, max ),
							   sp_resultInvalidBounds );
				}
			}
		}
		// infinity is rejected even when the box would be "valid" (-inf <= x <= +inf)
		float min[SP_MAX_DIMENSIONS], max[SP_MAX_DIMENSIONS];
		Fill( min, d, -INFINITY );
		Fill( max, d, INFINITY );
		spBoxId out;
		UNCHANGED( s.world, s.ids, s.idCount, spWorld_AddBox( s.world, min, max, &out ), sp_resultInvalidBounds );
		// NaN takes precedence over inversion: the code names the worse problem
		Fill( min, d, 2.0f );
		Fill( max, d, 1.0f );
		max[d - 1] = NAN;
		UNCHANGED( s.world, s.ids, s.idCount, spWorld_AddBox( s.world, min, max, &out ), sp_resultInvalidBounds );
		FreeScene( &s );
	}
	return 0;
}

int RobustInvertedBounds( void )
{
	for ( int d = 1; d <= SP_MAX_DIMENSIONS; ++d )
	{
		Scene s;
		RUN_SUB( MakeScene( &s, d ) );
		for ( int a = 0; a < d; ++a )
		{
			float min[SP_MAX_DIMENSIONS], max[SP_MAX_DIMENSIONS];
			Fill( min, d, 0.0f );
			Fill( max, d, 1.0f );
			min[a] = nextafterf( 1.0f, 2.0f ); // the smallest inversion
			spBoxId out = { 777 };
			UNCHANGED( s.world, s.ids, s.idCount, spWorld_AddBox( s.world, min, max, &out ), sp_resultInvertedBounds );
			ENSURE( out.bits == 777 );
			UNCHANGED( s.world, s.ids, s.idCount, spWorld_SetBox( s.world, ( spBoxId ){ s.ids[2] }, min, max ),
					   sp_resultInvertedBounds );
			min[a] = FLT_MAX;
			max[a] = -FLT_MAX;
			UNCHANGED( s.world, s.ids, s.idCount, spWorld_AddBox( s.world, min, max, &out ), sp_resultInvertedBounds );
		}
		FreeScene( &s );
	}
	return 0;
}

int RobustInvalidDimensions( void )
{
	spWorldDef def = spDefaultWorldDef();
	const int dims[] = { INT_MIN, -1, 0, SP_MAX_DIMENSIONS + 1, INT_MAX };
	for ( int i = 0; i < 5; ++i )
	{
		def.dimensions = dims[i];
		spWorldId out = { 4242 };
		ENSURE( spCreateWorld( &def, &out ) == sp_resultInvalidDimensions );
		ENSURE( out.bits == 4242 );
	}
	for ( int d = 1; d <= SP_MAX_DIMENSIONS; ++d )
	{
		Scene s;
		RUN_SUB( MakeScene( &s, d ) );
		const int axes[] = { INT_MIN, -1, d, d + 1, SP_MAX_DIMENSIONS, INT_MAX };
		for ( int i = 0; i < 6; ++i )
		{
			const float* values = (const float*)&s; // sentinels: must stay untouched
			const uint32_t* refs = (const uint32_t*)&s;
			int count = -7;
			UNCHANGED( s.world, s.ids, s.idCount, spWorld_GetEndpoints( s.world, axes[i], &values, &refs, &count ),
					   sp_resultInvalidDimensions );
			ENSURE( values == (const float*)&s && refs == (const uint32_t*)&s && count == -7 );
		}
		FreeScene( &s );
	}
	return 0;
}

int RobustNullArgument( void )
{
	spWorldDef def = spDefaultWorldDef();
	spWorldId wout = { 55 };
	ENSURE( spCreateWorld( NULL, &wout ) == sp_resultNullArgument );
	ENSURE( spCreateWorld( &def, NULL ) == sp_resultNullArgument );
	ENSURE( wout.bits == 55 );
	for ( int d = 1; d <= SP_MAX_DIMENSIONS; ++d )
	{
		Scene s;
		RUN_SUB( MakeScene( &s, d ) );
		spWorldId w = s.world;
		float min[SP_MAX_DIMENSIONS], max[SP_MAX_DIMENSIONS];
		Fill( min, d, 0.0f );
		Fill( max, d, 1.0f );
		spBoxId out = { 9 };
		spBoxId live = { s.ids[3] };
		UNCHANGED( w, s.ids, s.idCount, spWorld_AddBox( w, NULL, max, &out ), sp_resultNullArgument );
		UNCHANGED( w, s.ids, s.idCount, spWorld_AddBox( w, min, NULL, &out ), sp_resultNullArgument );
		UNCHANGED( w, s.ids, s.idCount, spWorld_AddBox( w, min, max, NULL ), sp_resultNullArgument );
		ENSURE( out.bits == 9 );
		UNCHANGED( w, s.ids, s.idCount, spWorld_SetBox( w, live, NULL, max ), sp_resultNullArgument );
		UNCHANGED( w, s.ids, s.idCount, spWorld_SetBox( w, live, min, NULL ), sp_resultNullArgument );
		UNCHANGED( w, s.ids, s.idCount, spWorld_GetBox( w, live, NULL, max ), sp_resultNullArgument );
		UNCHANGED( w, s.ids, s.idCount, spWorld_GetBox( w, live, min, NULL ), sp_resultNullArgument );
		const float* values;
		const uint32_t* refs;
		int count;
		UNCHANGED( w, s.ids, s.idCount, spWorld_GetEndpoints( w, 0, NULL, &refs, &count ), sp_resultNullArgument );
		UNCHANGED( w, s.ids, s.idCount, spWorld_GetEndpoints( w, 0, &values, NULL, &count ), sp_resultNullArgument );
		UNCHANGED( w, s.ids, s.idCount, spWorld_GetEndpoints( w, 0, &values, &refs, NULL ), sp_resultNullArgument );
		// optional outputs may be null
		ENSURE( spWorld_GetPairs( w, NULL ) != NULL );
		ENSURE( spWorld_GetBounds( w, NULL ) != NULL );
		FreeScene( &s );
	}
	return 0;
}

int RobustInvalidWorld( void )
{
	Scene s;
	RUN_SUB( MakeScene( &s, 2 ) );
	spWorldId dead = TestWorld( 3 );
	ENSURE_OK( spDestroyWorld( dead ) );
	spWorldId wrongGeneration = { ( s.world.bits & ~SP_GENERATION_MASK ) |
								  ( ( s.world.bits + 1u ) & SP_GENERATION_MASK ) };
	const spWorldId bad[] = {
		sp_nullWorldId,
		dead,
		wrongGeneration,
		{ 5u << SP_GENERATION_BITS },									// generation 0 is never handed out
		{ (uint32_t)( SP_MAX_WORLDS - 1 ) << SP_GENERATION_BITS | 1u }, // a slot never used
		{ 0xFFFFFFFFu },
	};
	float min[2] = { 0, 0 }, max[2] = { 1, 1 };
	spBoxId live = { s.ids[1] };
	State before = Capture( s.world, s.ids, s.idCount );
	for ( int i = 0; i < 6; ++i )
	{
		spWorldId w = bad[i];
		spBoxId out = { 31 };
		const float* values = NULL;
		const uint32_t* refs = NULL;
		int count = -3;
		ENSURE( spDestroyWorld( w ) == sp_resultInvalidWorld );
		ENSURE( spWorld_Reserve( w, 10 ) == sp_resultInvalidWorld );
		ENSURE( spWorld_AddBox( w, min, max, &out ) == sp_resultInvalidWorld );
		ENSURE( out.bits == 31 );
		ENSURE( spWorld_RemoveBox( w, live ) == sp_resultInvalidWorld );
		ENSURE( spWorld_SetBox( w, live, min, max ) == sp_resultInvalidWorld );
		ENSURE( spWorld_GetBox( w, live, min, max ) == sp_resultInvalidWorld );
		ENSURE( spWorld_Update( w ) == sp_resultInvalidWorld );
		ENSURE( spWorld_GetEndpoints( w, 0, &values, &refs, &count ) == sp_resultInvalidWorld );
		ENSURE( values == NULL && refs == NULL && count == -3 );
		// queries answer "nothing" for an invalid world
		ENSURE( !spWorld_IsValid( w ) );
		ENSURE( !spWorld_IsBoxValid( w, live ) );
		ENSURE( spWorld_GetDimensions( w ) == 0 && spWorld_GetBoxCount( w ) == 0 && spWorld_GetByteCount( w ) == 0 );
		count = -3;
		ENSURE( spWorld_GetBounds( w, &count ) == NULL && count == 0 );
		count = -3;
		ENSURE( spWorld_GetPairs( w, &count ) == NULL && count == 0 );
		count = -3;
		ENSURE( spWorld_GetBeganPairs( w, &count ) == NULL && count == 0 );
		count = -3;
		ENSURE( spWorld_GetEndedPairs( w, &count ) == NULL && count == 0 );
		ENSURE( spWorld_GetLastInvalidBox( w ).bits == 0 );
		spCounters c = spWorld_GetCounters( w );
		ENSURE( c.boxes == 0 && c.pairs == 0 );
	}
	// min and max were not written by GetBox on an invalid world
	ENSURE( min[0] == 0 && max[1] == 1 );
	State after = Capture( s.world, s.ids, s.idCount );
	int same = SameStateAt( &before, &after, __LINE__, 1 );
	Release( &before );
	Release( &after );
	ENSURE( same );
	FreeScene( &s );
	return 0;
}

int RobustInvalidBox( void )
{
	for ( int d = 1; d <= SP_MAX_DIMENSIONS; ++d )
	{
		Scene s;
		RUN_SUB( MakeScene( &s, d ) );
		spWorldId w = s.world;
		uint32_t live = s.ids[4];
		int floats;
		spWorld_GetBounds( w, &floats );
		uint32_t slots = (uint32_t)( floats / ( 2 * d ) );
		const uint32_t bad[] = {
			0u,													 // null
			live & ~SP_GENERATION_MASK,							 // generation 0 is never handed out
			live + 1u,											 // a generation the slot has not reached
			( live & ~SP_GENERATION_MASK ) | SP_GENERATION_MASK, // the last generation, not reached either
			slots << SP_GENERATION_BITS | 1u,					 // the first slot never used
			0xFFFFFFFFu,										 // the last slot, last generation
		};
		float min[SP_MAX_DIMENSIONS], max[SP_MAX_DIMENSIONS];
		Fill( min, d, 0.0f );
		Fill( max, d, 1.0f );
		for ( int i = 0; i < 6; ++i )
		{
			spBoxId id = { bad[i] };
			UNCHANGED( w, s.ids, s.idCount, spWorld_RemoveBox( w, id ), sp_resultInvalidBox );
			UNCHANGED( w, s.ids, s.idCount, spWorld_SetBox( w, id, min, max ), sp_resultInvalidBox );
			UNCHANGED( w, s.ids, s.idCount, spWorld_GetBox( w, id, min, max ), sp_resultInvalidBox );
			ENSURE( !spWorld_IsBoxValid( w, id ) );
		}
		// An id from another world names a slot of that world: it is refused here unless this world happens to
		// have a live box with the same bits (box ids do not say which world they belong to).
		spWorldId other = TestWorld( d );
		spBoxId foreign;
		for ( int i = 0; i < 20; ++i )
			ENSURE_OK( spWorld_AddBox( other, min, max, &foreign ) );
		UNCHANGED( w, s.ids, s.idCount, spWorld_RemoveBox( w, foreign ), sp_resultInvalidBox );
		ENSURE_OK( spDestroyWorld( other ) );
		FreeScene( &s );
	}
	return 0;
}

int RobustStaleBox( void )
{
	for ( int d = 1; d <= SP_MAX_DIMENSIONS; ++d )
	{
		Scene s;
		RUN_SUB( MakeScene( &s, d ) );
		spWorldId w = s.world;
		float min[SP_MAX_DIMENSIONS], max[SP_MAX_DIMENSIONS];
		Fill( min, d, 0.0f );
		Fill( max, d, 1.0f );
		// the scene removed ids[5] and the next add reused its slot for ids[6]: ids[5] stays stale
		spBoxId removed = { s.ids[5] };
		ENSURE( spBoxId_Slot( removed ) == spBoxId_Slot( ( spBoxId ){ s.ids[6] } ) );
		UNCHANGED( w, s.ids, s.idCount, spWorld_RemoveBox( w, removed ), sp_resultStaleBox );
		UNCHANGED( w, s.ids, s.idCount, spWorld_SetBox( w, removed, min, max ), sp_resultStaleBox );
		UNCHANGED( w, s.ids, s.idCount, spWorld_GetBox( w, removed, min, max ), sp_resultStaleBox );
		ENSURE( !spWorld_IsBoxValid( w, removed ) );
		// double remove, and every other use after remove
		removed.bits = s.ids[4];
		ENSURE_OK( spWorld_RemoveBox( w, removed ) );
		UNCHANGED( w, s.ids, s.idCount, spWorld_RemoveBox( w, removed ), sp_resultStaleBox );
		UNCHANGED( w, s.ids, s.idCount, spWorld_SetBox( w, removed, min, max ), sp_resultStaleBox );
		UNCHANGED( w, s.ids, s.idCount, spWorld_GetBox( w, removed, min, max ), sp_resultStaleBox );
		ENSURE( !spWorld_IsBoxValid( w, removed ) );
		// the next add reuses the slot: the old id stays stale
		spBoxId reused;
		ENSURE_OK( spWorld_AddBox( w, min, max, &reused ) );
		ENSURE( spBoxId_Slot( reused ) == spBoxId_Slot( removed ) && reused.bits != removed.bits );
		s.ids[s.idCount++] = reused.bits;
		UNCHANGED( w, s.ids, s.idCount, spWorld_RemoveBox( w, removed ), sp_resultStaleBox );
		// stale checks win over argument checks: the id is the first thing wrong
		UNCHANGED( w, s.ids, s.idCount, spWorld_SetBox( w, removed, NULL, NULL ), sp_resultStaleBox );
		// a slot used to its last generation is retired: all of its ids are stale forever
		spBoxId first = reused, id = reused;
		for ( uint32_t g = reused.bits & SP_GENERATION_MASK; g <= SP_GENERATION_MASK; ++g )
		{
			ENSURE_OK( spWorld_RemoveBox( w, id ) );
			if ( g < SP_GENERATION_MASK )
			{
				spBoxId next;
				ENSURE_OK( spWorld_AddBox( w, min, max, &next ) );
				ENSURE( spBoxId_Slot( next ) == spBoxId_Slot( first ) );
				id = next;
			}
		}
		s.idCount -= 1; // reused is gone
		for ( uint32_t g = 1; g <= SP_GENERATION_MASK; ++g )
		{
			spBoxId old = { spBoxId_Slot( first ) << SP_GENERATION_BITS | g };
			ENSURE( !spWorld_IsBoxValid( w, old ) );
			ENSURE( spWorld_RemoveBox( w, old ) == sp_resultStaleBox );
		}
		spBoxId fresh;
		ENSURE_OK( spWorld_AddBox( w, min, max, &fresh ) );
		ENSURE( spBoxId_Slot( fresh ) != spBoxId_Slot( first ) );
		FreeScene( &s );
	}
	return 0;
}

int RobustCapacityExceeded( void )
{
	spWorldDef def = spDefaultWorldDef();
	const int caps[] = { INT_MIN, -1, SP_MAX_BOXES + 1, INT_MAX };
	for ( int i = 0; i < 4; ++i )
	{
		def.capacity = caps[i];
		spWorldId out = { 8 };
		ENSURE( spCreateWorld( &def, &out ) == sp_resultCapacityExceeded );
		ENSURE( out.bits == 8 );
	}
	Scene s;
	RUN_SUB( MakeScene( &s, 2 ) );
	for ( int i = 0; i < 4; ++i )
		UNCHANGED( s.world, s.ids, s.idCount, spWorld_Reserve( s.world, caps[i] ), sp_resultCapacityExceeded );
	// reserving less than the current size is a no-op, not an error
	UNCHANGED( s.world, s.ids, s.idCount, spWorld_Reserve( s.world, 0 ), sp_resultOk );
	FreeScene( &s );
	return 0;
}

int RobustCapacityLimit( void )
{
	// Fill a 1D world to SP_MAX_BOXES (about 150 MB): the next add fails and changes nothing; a removal makes
	// room again.
	spWorldId w = TestWorld( 1 );
	ENSURE_OK( spWorld_Reserve( w, SP_MAX_BOXES ) );
	spBoxId id = sp_nullBoxId, last = sp_nullBoxId;
	for ( int i = 0; i < SP_MAX_BOXES; ++i )
	{
		float min = (float)( i & 1023 ), max = min + 0.5f;
		if ( spWorld_AddBox( w, &min, &max, &id ) != sp_resultOk )
		{
			fprintf( stderr, "add %d failed\n", i );
			return 1;
		}
		if ( i == SP_MAX_BOXES / 2 )
			last = id;
	}
	ENSURE( spWorld_GetBoxCount( w ) == SP_MAX_BOXES );
	ENSURE( spBoxId_Slot( id ) == SP_MAX_BOXES - 1 );
	float min = 0, max = 1;
	spBoxId out = { 5 };
	uint32_t ids[2] = { id.bits, last.bits };
	UNCHANGED( w, ids, 2, spWorld_AddBox( w, &min, &max, &out ), sp_resultCapacityExceeded );
	ENSURE( out.bits == 5 );
	ENSURE_OK( spWorld_RemoveBox( w, last ) );
	ENSURE_OK( spWorld_AddBox( w, &min, &max, &out ) );
	ENSURE( spBoxId_Slot( out ) == spBoxId_Slot( last ) );
	ENSURE( spWorld_AddBox( w, &min, &max, &out ) == sp_resultCapacityExceeded );
	ENSURE_OK( spDestroyWorld( w ) );
	return 0;
}

// The registry has a real limit (SP_MAX_WORLDS slots, each serving 1023 worlds), too large to reach in a test:
// a lower limit set for the test gives the same paths.
int RobustTooManyWorlds( void )
{
	const int extra = 40;
	const int used = spSetWorldSlotLimit( 0 );
	spSetWorldSlotLimit( used + extra );
	spWorldId* ids = malloc( sizeof( spWorldId ) * (size_t)( used + extra ) );
	ENSURE( ids != NULL );
	spWorldDef def = spDefaultWorldDef();
	int made = 0;
	// other tests may hold worlds: fill whatever is left (free slots, then new ones up to the limit)
	while ( made < used + extra && spCreateWorld( &def, &ids[made] ) == sp_resultOk )
		made += 1;
	ENSURE( made >= extra && made <= used + extra );
	spWorldId out = { 66 };
	ENSURE( spCreateWorld( &def, &out ) == sp_resultTooManyWorlds );
	ENSURE( out.bits == 66 );
	// every world made still works
	float min[2] = { 0, 0 }, max[2] = { 1, 1 };
	spBoxId b;
	ENSURE_OK( spWorld_AddBox( ids[made - 1], min, max, &b ) );
	ENSURE_OK( spWorld_Update( ids[made - 1] ) );
	// a destroyed world makes room in its slot until the slot retires; then there is none
	ENSURE_OK( spDestroyWorld( ids[made - 1] ) );
	int reused = 0;
	while ( spCreateWorld( &def, &out ) == sp_resultOk )
	{
		ENSURE( ( out.bits >> SP_GENERATION_BITS ) == ( ids[made - 1].bits >> SP_GENERATION_BITS ) );
		ENSURE_OK( spDestroyWorld( out ) );
		reused += 1;
		ENSURE( reused <= (int)SP_GENERATION_MASK );
	}
	ENSURE( reused == (int)SP_GENERATION_MASK - (int)( ids[made - 1].bits & SP_GENERATION_MASK ) );
	out.bits = 67;
	ENSURE( spCreateWorld( &def, &out ) == sp_resultTooManyWorlds );
	ENSURE( out.bits == 67 );
	for ( int i = 0; i < made - 1; ++i )
		ENSURE_OK( spDestroyWorld( ids[i] ) );
	spSetWorldSlotLimit( 0 );
	ENSURE_OK( spCreateWorld( &def, &out ) );
	ENSURE_OK( spDestroyWorld( out ) );
	free( ids );
	return 0;
}

int RobustInvalidDef( void )
{
	spWorldId out = { 3 };
	spWorldDef def = spDefaultWorldDef();
	def.internalValue = 0;
	ENSURE( spCreateWorld( &def, &out ) == sp_resultInvalidDef );
	def = spDefaultWorldDef();
	def.internalValue += 1;
	ENSURE( spCreateWorld( &def, &out ) == sp_resultInvalidDef );
	spWorldDef zero;
	memset( &zero, 0, sizeof( zero ) );
	ENSURE( spCreateWorld( &zero, &out ) == sp_resultInvalidDef );
	// the guard is checked before the other fields
	zero.dimensions = 99;
	ENSURE( spCreateWorld( &zero, &out ) == sp_resultInvalidDef );
	ENSURE( out.bits == 3 );
	return 0;
}

int RobustOutOfMemory( void )
{
	testAllocator.keepFailing = 0;
	spSetAllocator( TestRealloc );
	// spCreateWorld, with and without reserved capacity: nothing leaks (LeakSanitizer, valgrind) and the registry
	// entry is not used up
	for ( int cap = 0; cap <= 1000; cap += 1000 )
	{
		for ( int k = 0;; ++k )
		{
			spWorldDef def = spDefaultWorldDef();
			def.capacity = cap;
			spWorldId out = { 1 };
			TestFailAt( k );
			spResult r = spCreateWorld( &def, &out );
			TestFailAt( -1 );
			if ( r == sp_resultOk )
			{
				ENSURE_OK( spDestroyWorld( out ) );
				break;
			}
			ENSURE( r == sp_resultOutOfMemory && out.bits == 1 );
		}
	}
	// Every other allocating call, for each of its allocations: fail it, require no change, then retry.
	int seen[6] = { 0 };
	for ( int d = 1; d <= SP_MAX_DIMENSIONS; ++d )
	{
		Scene s;
		RUN_SUB( MakeScene( &s, d ) );
		spWorldId w = s.world;
		Rng rng = { 99u + (uint32_t)d };
		uint32_t* prev = NULL;
		int prevCount = BruteForcePairs( &s.mirror, &prev );
		// what a query over everything answers after the last successful update
		float all[2 * SP_MAX_DIMENSIONS];
		Fill( all, d, -FLT_MAX );
		Fill( all + d, d, FLT_MAX );
		uint32_t* seen0 = NULL;
		int seenCount = 0;
		{
			const uint32_t* ids;
			ENSURE_OK( spWorld_QueryBox( w, all, all + d, 0xFFFFFFFFu, &ids, &seenCount ) );
			seen0 = Dup( ids, sizeof( uint32_t ) * (size_t)seenCount );
		}
		for ( int round = 0; round < 3; ++round )
		{
			// reserve
			for ( int k = 0;; ++k )
			{
				TestFailAt( k );
				State before = Capture( w, s.ids, s.idCount );
				spResult r = spWorld_Reserve( w, 64 << ( 2 * round ) );
				TestFailAt( -1 );
				int same = SameAfter( &before, w, s.ids, s.idCount, r == sp_resultOk, __LINE__, 0 );
				if ( r == sp_resultOk )
					break;
				ENSURE( r == sp_resultOutOfMemory && same );
				seen[0] += 1;
			}
			// adds, past the reserve, so the slot arrays grow
			int adds = 80 << ( 2 * round );
			for ( int i = 0; i < adds; ++i )
			{
				float min[SP_MAX_DIMENSIONS], max[SP_MAX_DIMENSIONS];
				for ( int a = 0; a < d; ++a )
				{
					min[a] = RngFloat( &rng ) * 1000.0f;
					max[a] = min[a] + RngFloat( &rng ) * 20.0f;
				}
				spBoxId id;
				TestFailAt( i % 3 == 0 ? 0 : -1 );
				State before = Capture( w, s.ids, s.idCount );
				spResult r = spWorld_AddBox( w, min, max, &id );
				TestFailAt( -1 );
				if ( r == sp_resultOutOfMemory )
				{
					State after = Capture( w, s.ids, s.idCount );
					int same = r == sp_resultOk || SameStateAt( &before, &after, __LINE__, 0 );
					Release( &after );
					ENSURE( same );
					seen[1] += 1;
					r = spWorld_AddBox( w, min, max, &id );
				}
				Release( &before );
				ENSURE_OK( r );
				MirrorAdd( &s.mirror, id.bits, min, max );
			}
			// scramble the scene so the update takes its rebuild path, then fail each of its allocations
			float* bounds = spWorld_GetBounds( w, NULL );
			for ( int i = 0; i < s.mirror.count; ++i )
			{
				uint32_t slot = spBoxId_Slot( ( spBoxId ){ s.mirror.ids[i] } );
				float* b = bounds + (size_t)slot * 2 * d;
				for ( int a = 0; a < d; ++a )
				{
					float x = RngFloat( &rng ) * 1000.0f;
					b[d + a] = x + ( b[d + a] - b[a] );
					b[a] = x;
				}
				MirrorSet( &s.mirror, s.mirror.ids[i], b, b + d );
			}
			for ( int k = 0;; ++k )
			{
				TestFailAt( k );
				State before = Capture( w, s.ids, s.idCount );
				spResult r = spWorld_Update( w );
				TestFailAt( -1 );
				int same = SameAfter( &before, w, s.ids, s.idCount, r == sp_resultOk, __LINE__, 0 );
				if ( r == sp_resultOk )
					break;
				ENSURE( r == sp_resultOutOfMemory && same );
				seen[2] += 1;
				// queries answer from a whole index: the last successful update's (when the failure came while
				// indexing), or the failed update's, which already holds every box (when it came later)
				const uint32_t* ids;
				int count;
				ENSURE_OK( spWorld_QueryBox( w, all, all + d, 0xFFFFFFFFu, &ids, &count ) );
				int previous = count == seenCount &&
							   ( count == 0 || memcmp( ids, seen0, sizeof( uint32_t ) * (size_t)count ) == 0 );
				ENSURE( previous || count == s.mirror.count );
				seen[5] += previous && seenCount != s.mirror.count;
			}
			RUN_SUB( CheckWorld( w, &s.mirror, &prev, &prevCount ) );
			{
				const uint32_t* ids;
				ENSURE_OK( spWorld_QueryBox( w, all, all + d, 0xFFFFFFFFu, &ids, &seenCount ) );
				ENSURE( seenCount == s.mirror.count );
				free( seen0 );
				seen0 = Dup( ids, sizeof( uint32_t ) * (size_t)seenCount );
			}
			// endpoints: membership changed and the list is far from sorted (the fallback sort allocates)
			for ( int axis = 0; axis < d; ++axis )
			{
				for ( int k = 0;; ++k )
				{
					const float* values = NULL;
					const uint32_t* refs = NULL;
					int count = -1;
					TestFailAt( k );
					State before = Capture( w, s.ids, s.idCount );
					spResult r = spWorld_GetEndpoints( w, axis, &values, &refs, &count );
					TestFailAt( -1 );
					int same = SameAfter( &before, w, s.ids, s.idCount, r == sp_resultOk, __LINE__, 0 );
					if ( r == sp_resultOk )
					{
						ENSURE( count == 2 * s.mirror.count );
						for ( int i = 1; i < count; ++i )
							ENSURE( values[i - 1] <= values[i] );
						break;
					}
					ENSURE( r == sp_resultOutOfMemory && same && count == -1 && values == NULL );
					seen[3] += 1;
					// growing the list makes at most 2 allocations: a third failure is in the fallback sort
					seen[4] += k >= 2;
				}
			}
		}
		free( prev );
		free( seen0 );
		FreeScene( &s );
	}
	spSetAllocator( NULL );
	// every kind of call was made to fail at least once
	for ( int i = 0; i < 6; ++i )
	{
		if ( seen[i] == 0 )
			fprintf( stderr, "out-of-memory case %d never happened\n", i );
		ENSURE( seen[i] > 0 );
	}
	return 0;
}

// The ids a query over everything answers, sorted (malloc'd; *count gets their count).
static uint32_t* QueryAllSorted( spWorldId w, int d, int* count )
{
	float all[2 * SP_MAX_DIMENSIONS];
	Fill( all, d, -FLT_MAX );
	Fill( all + d, d, FLT_MAX );
	const uint32_t* ids;
	*count = -1;
	if ( spWorld_QueryBox( w, all, all + d, 0xFFFFFFFFu, &ids, count ) != sp_resultOk )
		return NULL;
	uint32_t* sorted = Dup( ids, sizeof( uint32_t ) * (size_t)*count );
	qsort( sorted, (size_t)*count, sizeof( uint32_t ), CompareU32 );
	return sorted;
}

// Updates that refresh the index (every box moved a little, a few added) and run out of memory at each of their
// allocations in turn: the results do not change, and queries answer from a whole index, with every box once. The
// refresh leaves each slab's merge to the sweep, so a failure after the refresh (in the sweep, or before it) must
// still merge every slab.
int RobustOutOfMemoryInRefresh( void )
{
	testAllocator.keepFailing = 0;
	spSetAllocator( TestRealloc );
	int afterIndex = 0, refreshed = 0;
	for ( int d = 1; d <= SP_MAX_DIMENSIONS; ++d )
	{
		spWorldId w = TestWorld( d );
		Mirror m;
		MirrorInit( &m, d );
		Rng rng = { 41u + (uint32_t)d };
		for ( int i = 0; i < 400; ++i )
			ENSURE( AddRandomBox( w, &m, &rng, 0.05f ) != 0 );
		ENSURE_OK( spWorld_Update( w ) );
		uint32_t* prev = NULL;
		int prevCount = BruteForcePairs( &m, &prev );
		for ( int round = 0; round < 8; ++round )
		{
			// the boxes the index held after the last update, sorted
			uint32_t* before = Dup( m.ids, sizeof( uint32_t ) * (size_t)m.count );
			const int beforeCount = m.count;
			qsort( before, (size_t)beforeCount, sizeof( uint32_t ), CompareU32 );
			for ( int k = 0; k < m.count; ++k )
			{
				float* b = m.bounds + (size_t)k * 2 * d;
				for ( int a = 0; a < d; ++a )
				{
					const float dx = ( RngFloat( &rng ) - 0.5f ) * 0.4f;
					b[a] += dx;
					b[d + a] += dx;
				}
				ENSURE_OK( spWorld_SetBox( w, ( spBoxId ){ m.ids[k] }, b, b + d ) );
			}
			for ( int i = 0; i < 40; ++i )
				ENSURE( AddRandomBox( w, &m, &rng, 0.05f ) != 0 );
			uint32_t* after = Dup( m.ids, sizeof( uint32_t ) * (size_t)m.count );
			qsort( after, (size_t)m.count, sizeof( uint32_t ), CompareU32 );
			for ( int k = 0;; ++k )
			{
				TestFailAt( k );
				const spResult r = spWorld_Update( w );
				TestFailAt( -1 );
				if ( r == sp_resultOk )
					break;
				ENSURE( r == sp_resultOutOfMemory );
				// the last update's pairs, and an index of the boxes before or after, each once
				int count;
				const uint32_t* pairs = spWorld_GetPairs( w, &count );
				ENSURE( SamePairSet( pairs, count, prev, prevCount, "pairs after a failed update" ) );
				uint32_t* seen = QueryAllSorted( w, d, &count );
				ENSURE( seen != NULL );
				const int old = count == beforeCount && memcmp( seen, before, sizeof( uint32_t ) * (size_t)count ) == 0;
				const int now = count == m.count && memcmp( seen, after, sizeof( uint32_t ) * (size_t)count ) == 0;
				free( seen );
				ENSURE( old || now );
				afterIndex += now;
			}
			refreshed += spWorld_GetCounters( w ).refreshed;
			RUN_SUB( CheckWorld( w, &m, &prev, &prevCount ) );
			free( before );
			free( after );
		}
		free( prev );
		MirrorFree( &m );
		spDestroyWorld( w );
	}
	spSetAllocator( NULL );
	// the refresh path was taken, and failures came after the index was brought up to date
	ENSURE( refreshed > 0 && afterIndex > 0 );
	return 0;
}

// Write one bad value through the bounds view for each axis, side and kind; the update and the endpoint query
// reject the frame, name the box and keep everything else.
int RobustBoundsViewRejectsFrame( void )
{
	const float kinds[] = { NAN, INFINITY, -INFINITY, 0.0f /* inverted, see below */ };
	for ( int d = 1; d <= SP_MAX_DIMENSIONS; ++d )
	{
		Scene s;
		RUN_SUB( MakeScene( &s, d ) );
		spWorldId w = s.world;
		uint32_t* prev = NULL;
		int prevCount = BruteForcePairs( &s.mirror, &prev );
		for ( int victim = 1; victim <= 4; victim += 3 )
		{
			uint32_t id = s.ids[victim];
			float* b = spWorld_GetBounds( w, NULL ) + (size_t)spBoxId_Slot( ( spBoxId ){ id } ) * 2 * d;
			for ( int a = 0; a < d; ++a )
			{
				for ( int side = 0; side < 2; ++side )
				{
					for ( int k = 0; k < 4; ++k )
					{
						float* slot = b + side * d + a;
						float saved = *slot;
						// inverted: push min past max or max below min
						*slot = k < 3 ? kinds[k] : side == 0 ? b[d + a] + 1.0f : b[a] - 1.0f;
						spResult want = k < 3 ? sp_resultInvalidBounds : sp_resultInvertedBounds;
						// move another box too: the rejected frame must not apply that move either
						float* other =
							spWorld_GetBounds( w, NULL ) + (size_t)spBoxId_Slot( ( spBoxId ){ s.ids[2] } ) * 2 * d;
						other[0] += 50.0f;
						other[d] += 50.0f;
						State before = Capture( w, s.ids, s.idCount );
						spResult r = spWorld_Update( w );
						ENSURE( r == want );
						ENSURE( spWorld_GetLastInvalidBox( w ).bits == id );
						const float* values = NULL;
						const uint32_t* refs = NULL;
						int count = -1;
						ENSURE( spWorld_GetEndpoints( w, 0, &values, &refs, &count ) == want );
						ENSURE( count == -1 && values == NULL );
						ENSURE( spWorld_GetLastInvalidBox( w ).bits == id );
						// lastInvalid was set by the first rejected call already
						before.lastInvalid = id;
						int same = SameAfter( &before, w, s.ids, s.idCount, 0, __LINE__, 1 );
						ENSURE( same );
						*slot = saved;
						other[0] -= 50.0f;
						other[d] -= 50.0f;
					}
				}
			}
			// two bad boxes: the frame is rejected, and the named box is one of them
			float savedMin = b[0];
			b[0] = NAN;
			float* c = spWorld_GetBounds( w, NULL ) + (size_t)spBoxId_Slot( ( spBoxId ){ s.ids[3] } ) * 2 * d;
			float saved = c[d];
			c[d] = c[0] - 1.0f;
			spResult r = spWorld_Update( w );
			uint32_t named = spWorld_GetLastInvalidBox( w ).bits;
			ENSURE( ( r == sp_resultInvalidBounds && named == id ) ||
					( r == sp_resultInvertedBounds && named == s.ids[3] ) );
			c[d] = saved;
			float min[SP_MAX_DIMENSIONS], max[SP_MAX_DIMENSIONS];
			ENSURE_OK( spWorld_GetBox( w, ( spBoxId ){ id }, min, max ) );
			ENSURE( isnan( min[0] ) );
			b[0] = savedMin;
		}
		// repair through SetBox (which validates) and the next frame goes through, matching brute force
		for ( int i = 0; i < s.mirror.count; ++i )
		{
			const float* mb = s.mirror.bounds + (size_t)i * 2 * d;
			ENSURE_OK( spWorld_SetBox( w, ( spBoxId ){ s.mirror.ids[i] }, mb, mb + d ) );
		}
		ENSURE_OK( spWorld_Update( w ) );
		ENSURE( spWorld_GetLastInvalidBox( w ).bits == 0 );
		RUN_SUB( CheckWorld( w, &s.mirror, &prev, &prevCount ) );
		free( prev );
		FreeScene( &s );
	}
	return 0;
}

// Extreme finite bounds are legal: +-FLT_MAX, -0 against +0, subnormals, zero extent, huge and tiny boxes mixed,
// enough of them to take the slabbed path.
int RobustExtremeFiniteBounds( void )
{
	const float values[] = {
		-FLT_MAX, -1e30f, -1.0f, -FLT_MIN, -0.0f, 0.0f, FLT_TRUE_MIN, FLT_MIN, 1.0f, 1e30f, FLT_MAX
	};
	const int nv = (int)( sizeof( values ) / sizeof( values[0] ) );
	for ( int d = 1; d <= SP_MAX_DIMENSIONS; ++d )
	{
		spWorldId w = TestWorld( d );
		Mirror m;
		MirrorInit( &m, d );
		Rng rng = { 4000u + (uint32_t)d };
		uint32_t* prev = NULL;
		int prevCount = 0;
		for ( int frame = 0; frame < 6; ++frame )
		{
			for ( int i = 0; i < 60; ++i )
			{
				float min[SP_MAX_DIMENSIONS], max[SP_MAX_DIMENSIONS];
				for ( int a = 0; a < d; ++a )
				{
					float x = values[RngInt( &rng, nv )], y = values[RngInt( &rng, nv )];
					min[a] = x < y ? x : y;
					max[a] = x < y ? y : x;
				}
				spBoxId id;
				ENSURE_OK( spWorld_AddBox( w, min, max, &id ) );
				MirrorAdd( &m, id.bits, min, max );
			}
			for ( int i = 0; i < 10 && m.count > 0; ++i )
			{
				uint32_t id = m.ids[RngInt( &rng, m.count )];
				ENSURE_OK( spWorld_RemoveBox( w, ( spBoxId ){ id } ) );
				MirrorRemove( &m, id );
			}
			ENSURE_OK( spWorld_Update( w ) );
			RUN_SUB( CheckWorld( w, &m, &prev, &prevCount ) );
			const float* v;
			const uint32_t* r;
			int count;
			for ( int a = 0; a < d; ++a )
			{
				ENSURE_OK( spWorld_GetEndpoints( w, a, &v, &r, &count ) );
				ENSURE( count == 2 * m.count );
				for ( int i = 1; i < count; ++i )
					ENSURE( v[i - 1] <= v[i] );
			}
		}
		free( prev );
		MirrorFree( &m );
		ENSURE_OK( spDestroyWorld( w ) );
	}
	return 0;
}

// A million operations: adds, removes and moves (through SetBox and the view) with slots reused over and over.
// Every removed id is tried again later and must be refused; the world's memory stays bounded; brute force
// checks the pairs now and then.
int RobustSoakChurn( void )
{
	enum
	{
		OPS = 1000000,
		MAX_LIVE = 1500,
		STALE_RING = 4096
	};
	const int d = 2;
	spWorldId w = TestWorld( d );
	Mirror m;
	MirrorInit( &m, d );
	Rng rng = { 2024 };
	uint32_t* stale = calloc( STALE_RING, sizeof( uint32_t ) );
	int staleCount = 0;
	size_t maxBytes = 0;
	long removes = 0, rejected = 0;
	for ( int op = 0; op < OPS; ++op )
	{
		int kind = RngInt( &rng, 100 );
		// keep the live count wandering between 0 and MAX_LIVE
		int target = (int)( ( (unsigned)op / 50000u ) % 2u == 0 ? MAX_LIVE : MAX_LIVE / 10 );
		if ( m.count == 0 || ( kind < 40 && m.count < target ) )
		{
			float min[2], max[2];
			for ( int a = 0; a < d; ++a )
			{
				min[a] = RngFloat( &rng ) * 1000.0f;
				max[a] = min[a] + RngFloat( &rng ) * 20.0f;
			}
			spBoxId id;
			ENSURE_OK( spWorld_AddBox( w, min, max, &id ) );
			MirrorAdd( &m, id.bits, min, max );
		}
		else if ( kind < 75 )
		{
			int i = RngInt( &rng, m.count );
			uint32_t id = m.ids[i];
			ENSURE_OK( spWorld_RemoveBox( w, ( spBoxId ){ id } ) );
			MirrorRemove( &m, id );
			stale[staleCount++ % STALE_RING] = id;
			removes += 1;
		}
		else
		{
			int i = RngInt( &rng, m.count );
			uint32_t id = m.ids[i];
			float* mb = m.bounds + (size_t)i * 2 * d;
			float dx = ( RngFloat( &rng ) - 0.5f ) * 10.0f;
			float min[2] = { mb[0] + dx, mb[1] - dx }, max[2] = { mb[2] + dx, mb[3] - dx };
			if ( kind & 1 )
			{
				ENSURE_OK( spWorld_SetBox( w, ( spBoxId ){ id }, min, max ) );
			}
			else
			{
				float* b = spWorld_GetBounds( w, NULL ) + (size_t)spBoxId_Slot( ( spBoxId ){ id } ) * 2 * d;
				memcpy( b, min, sizeof( min ) );
				memcpy( b + d, max, sizeof( max ) );
			}
			MirrorSet( &m, id, min, max );
		}
		// an old id is never accepted, even after its slot was reused many times
		if ( staleCount > 0 )
		{
			uint32_t old = stale[RngInt( &rng, staleCount < STALE_RING ? staleCount : STALE_RING )];
			spBoxId oldId = { old };
			if ( spWorld_IsBoxValid( w, oldId ) || spWorld_RemoveBox( w, oldId ) != sp_resultStaleBox )
			{
				fprintf( stderr, "op %d: stale id %u accepted\n", op, old );
				return 1;
			}
			rejected += 1;
		}
		if ( op % 1000 == 999 )
		{
			ENSURE_OK( spWorld_Update( w ) );
			size_t bytes = spWorld_GetByteCount( w );
			maxBytes = bytes > maxBytes ? bytes : maxBytes;
			if ( op % 100000 == 99999 )
			{
				// the pair list only: began and ended are relative to the update before, which brute force
				// did not see
				uint32_t* want = NULL;
				int wantCount = BruteForcePairs( &m, &want );
				int count;
				const uint32_t* got = spWorld_GetPairs( w, &count );
				int same = SamePairSet( got, count, want, wantCount, "soak pairs" );
				free( want );
				ENSURE( same );
			}
		}
	}
	ENSURE( spWorld_GetBoxCount( w ) == m.count );
	// Bound: per slot 2d floats + id, generation, flags, free link, order entry and key (~40 bytes in 2D, more
	// with scratch), for at most MAX_LIVE live slots plus the retired ones (each slot serves 1023 boxes), plus
	// pair lists. 1 MB covers it with room to spare; a leak of per-operation memory would not fit.
	int floats;
	spWorld_GetBounds( w, &floats );
	int slots = floats / ( 2 * d );
	ENSURE( slots <= MAX_LIVE + removes / 1000 + 64 );
	if ( maxBytes > ( 1u << 20 ) )
		fprintf( stderr, "soak: world grew to %zu bytes\n", maxBytes );
	ENSURE( maxBytes <= ( 1u << 20 ) );
	ENSURE( rejected > OPS / 2 );
	free( stale );
	MirrorFree( &m );
	ENSURE_OK( spDestroyWorld( w ) );
	return 0;
}

// Every result code has its own text, and an unknown one says so.
int ResultStrings( void )
{
	ENSURE( strcmp( spResultString( sp_resultStaleBox ), "stale box id (the box was removed)" ) == 0 );
	ENSURE( strcmp( spResultString( (spResult)999 ), "unknown result" ) == 0 );
	for ( int i = 0; i < sp_resultCount; ++i )
	{
		ENSURE( strcmp( spResultString( (spResult)i ), "unknown result" ) != 0 );
		for ( int j = 0; j < i; ++j )
			ENSURE( strcmp( spResultString( (spResult)i ), spResultString( (spResult)j ) ) != 0 );
	}
	return 0;
}
