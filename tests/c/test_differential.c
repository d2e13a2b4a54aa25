// SPDX-License-Identifier: MIT
// The engine against the brute-force oracle: random scenes, degenerate scenes, and long random sequences of
// add / move / remove / update with pairs, began and ended checked after every update, in 1 to 4 dimensions.
#include "world.h"
#include "pool_threads.h"
#include "test.h"

#include <math.h>
#include <string.h>

// Degenerate boxes: coordinates from a tiny lattice, so faces touch, extents are zero and boxes repeat.
static void LatticeBox( Rng* rng, int d, float* min, float* max )
{
	static const float grid[4] = { -1, 0, 0, 1 };
	for ( int a = 0; a < d; ++a )
	{
		float x = grid[RngInt( rng, 4 )], y = grid[RngInt( rng, 4 )];
		min[a] = x < y ? x : y;
		max[a] = x < y ? y : x;
	}
}

static int OneScene( int d, int n, float size, uint32_t seed, int lattice )
{
	spWorldId w = TestWorld( d );
	Mirror m;
	MirrorInit( &m, d );
	Rng rng = { seed };
	for ( int i = 0; i < n; ++i )
	{
		float min[4], max[4];
		if ( lattice )
			LatticeBox( &rng, d, min, max );
		else
			RandomBox( &rng, d, size, min, max );
		spBoxId id;
		ENSURE_OK( spWorld_AddBox( w, min, max, &id ) );
		MirrorAdd( &m, id.bits, min, max );
	}
	ENSURE_OK( spWorld_Update( w ) );
	uint32_t* prev = NULL;
	int prevCount = 0;
	int r = CheckWorld( w, &m, &prev, &prevCount );
	if ( r != 0 )
		fprintf( stderr, "  scene d=%d n=%d size=%g seed=%u lattice=%d\n", d, n, size, seed, lattice );
	free( prev );
	MirrorFree( &m );
	spDestroyWorld( w );
	return r;
}

int PairsMatchBruteForceRandom( void )
{
	static const int counts[] = { 0, 1, 2, 3, 10, 63, 64, 65, 200, 700 };
	static const float sizes[] = { 0.0f, 0.01f, 0.05f, 0.2f, 1.0f };
	uint32_t seed = 1;
	for ( int d = 1; d <= 4; ++d )
		for ( size_t c = 0; c < sizeof( counts ) / sizeof( counts[0] ); ++c )
			for ( size_t s = 0; s < sizeof( sizes ) / sizeof( sizes[0] ); ++s )
				RUN_SUB( OneScene( d, counts[c], sizes[s], seed++, 0 ) );
	return 0;
}

int PairsMatchBruteForceDegenerate( void )
{
	uint32_t seed = 1000;
	for ( int d = 1; d <= 4; ++d )
		for ( int n = 1; n <= 300; n = n * 2 + 1 )
			RUN_SUB( OneScene( d, n, 0, seed++, 1 ) );

	// every endpoint equal: all boxes are the same point; every pair overlaps
	for ( int d = 1; d <= 4; ++d )
	{
		spWorldId w = TestWorld( d );
		Mirror m;
		MirrorInit( &m, d );
		float p[4] = { 3, 3, 3, 3 };
		for ( int i = 0; i < 100; ++i )
		{
			spBoxId id;
			ENSURE_OK( spWorld_AddBox( w, p, p, &id ) );
			MirrorAdd( &m, id.bits, p, p );
		}
		ENSURE_OK( spWorld_Update( w ) );
		uint32_t* prev = NULL;
		int prevCount = 0;
		RUN_SUB( CheckWorld( w, &m, &prev, &prevCount ) );
		ENSURE( prevCount == 100 * 99 / 2 );
		free( prev );
		MirrorFree( &m );
		spDestroyWorld( w );
	}

	// a row of unit boxes touching face to face: each touches its neighbours only
	for ( int d = 1; d <= 4; ++d )
	{
		spWorldId w = TestWorld( d );
		Mirror m;
		MirrorInit( &m, d );
		for ( int i = 0; i < 200; ++i )
		{
			float min[4] = { 0, 0, 0, 0 }, max[4] = { 1, 1, 1, 1 };
			min[0] = (float)i;
			max[0] = (float)i + 1;
			spBoxId id;
			ENSURE_OK( spWorld_AddBox( w, min, max, &id ) );
			MirrorAdd( &m, id.bits, min, max );
		}
		ENSURE_OK( spWorld_Update( w ) );
		uint32_t* prev = NULL;
		int prevCount = 0;
		RUN_SUB( CheckWorld( w, &m, &prev, &prevCount ) );
		ENSURE( prevCount == 199 );
		free( prev );
		MirrorFree( &m );
		spDestroyWorld( w );
	}
	return 0;
}

// Long random sequences of operations; every update is checked against the oracle, including began and ended.
static int OneSequence( int d, uint32_t seed, int steps, int lattice )
{
	spWorldId w = TestWorld( d );
	Mirror m;
	MirrorInit( &m, d );
	Rng rng = { seed };
	uint32_t* prev = NULL;
	int prevCount = 0;
	float size = 0.02f + RngFloat( &rng ) * 0.2f;
	for ( int step = 0; step < steps; ++step )
	{
		int op = RngInt( &rng, 100 );
		float min[4], max[4];
		if ( op < 30 || m.count == 0 )
		{
			// add a few
			int k = 1 + RngInt( &rng, op < 1 ? 100 : 8 );
			for ( int i = 0; i < k; ++i )
			{
				if ( lattice )
					LatticeBox( &rng, d, min, max );
				else
					RandomBox( &rng, d, size, min, max );
				spBoxId id;
				ENSURE_OK( spWorld_AddBox( w, min, max, &id ) );
				MirrorAdd( &m, id.bits, min, max );
			}
		}
		else if ( op < 45 )
		{
			// remove a few
			int k = 1 + RngInt( &rng, 10 );
			for ( int i = 0; i < k && m.count > 0; ++i )
			{
				uint32_t id = m.ids[RngInt( &rng, m.count )];
				ENSURE_OK( spWorld_RemoveBox( w, ( spBoxId ){ id } ) );
				MirrorRemove( &m, id );
			}
		}
		else if ( op < 75 )
		{
			// coherent motion: nudge every box, half of them through the bounds array
			int floats;
			float* bounds = spWorld_GetBounds( w, &floats );
			for ( int i = 0; i < m.count; ++i )
			{
				float* b = m.bounds + (size_t)i * 2 * d;
				for ( int a = 0; a < d; ++a )
				{
					float dx = lattice ? (float)( RngInt( &rng, 3 ) - 1 ) : ( RngFloat( &rng ) - 0.5f ) * 2.0f;
					b[a] += dx;
					b[d + a] += dx;
				}
				spBoxId id = { m.ids[i] };
				if ( i & 1 )
				{
					memcpy( bounds + (size_t)spBoxId_Slot( id ) * 2 * d, b, sizeof( float ) * 2 * (size_t)d );
				}
				else
				{
					ENSURE_OK( spWorld_SetBox( w, id, b, b + d ) );
				}
			}
		}
		else if ( op < 80 )
		{
			// teleport a few (incoherent)
			for ( int i = 0; i < m.count / 3; ++i )
			{
				int k = RngInt( &rng, m.count );
				RandomBox( &rng, d, size, min, max );
				ENSURE_OK( spWorld_SetBox( w, ( spBoxId ){ m.ids[k] }, min, max ) );
				MirrorSet( &m, m.ids[k], min, max );
			}
		}
		else if ( op < 82 )
		{
			// remove and re-add in the same frame: same slot, new id
			if ( m.count > 0 )
			{
				uint32_t id = m.ids[RngInt( &rng, m.count )];
				spBoxId again;
				ENSURE_OK( spWorld_GetBox( w, ( spBoxId ){ id }, min, max ) );
				ENSURE_OK( spWorld_RemoveBox( w, ( spBoxId ){ id } ) );
				MirrorRemove( &m, id );
				ENSURE_OK( spWorld_AddBox( w, min, max, &again ) );
				ENSURE( again.bits != id );
				MirrorAdd( &m, again.bits, min, max );
			}
		}
		// update most steps; some steps batch several operations into one update
		if ( RngInt( &rng, 4 ) != 0 )
		{
			ENSURE_OK( spWorld_Update( w ) );
			if ( CheckWorld( w, &m, &prev, &prevCount ) != 0 )
			{
				fprintf( stderr, "  sequence d=%d seed=%u step=%d boxes=%d\n", d, seed, step, m.count );
				return 1;
			}
			ENSURE( spWorld_GetCounters( w ).pairs == prevCount );
			ENSURE( spWorld_GetCounters( w ).boxes == m.count );
		}
	}
	free( prev );
	MirrorFree( &m );
	spDestroyWorld( w );
	return 0;
}

int EventsMatchBruteForceSequences( void )
{
	for ( int d = 1; d <= 4; ++d )
	{
		for ( uint32_t seed = 1; seed <= 12; ++seed )
		{
			RUN_SUB( OneSequence( d, seed * 31 + (uint32_t)d, 300, 0 ) );
			RUN_SUB( OneSequence( d, seed * 37 + (uint32_t)d, 150, 1 ) );
		}
	}
	return 0;
}

// Write box i of the mirror into the world through its bounds view (no call per box in the engine).
static void WriteBox( spWorldId w, const Mirror* m, int i )
{
	const int d = m->dimensions;
	memcpy( spWorld_GetBounds( w, NULL ) + (size_t)spBoxId_Slot( ( spBoxId ){ m->ids[i] } ) * 2 * d,
			m->bounds + (size_t)i * 2 * d, sizeof( float ) * 2 * (size_t)d );
}

// A world of `d` dimensions with `n` random boxes of the given size, and its mirror.
static int RandomScene( int d, Rng* rng, int n, float size, spWorldId* w, Mirror* m )
{
	*w = TestWorld( d );
	MirrorInit( m, d );
	for ( int i = 0; i < n; ++i )
	{
		ENSURE( AddRandomBox( *w, m, rng, size ) != 0 );
	}
	return 0;
}

int LargeSceneMatchesBruteForce( void )
{
	// big enough for many slabs; moved coherently so the refresh runs too
	for ( int d = 2; d <= 3; ++d )
	{
		spWorldId w;
		Mirror m;
		Rng rng = { 99u + (uint32_t)d };
		RUN_SUB( RandomScene( d, &rng, 6000, d == 2 ? 0.015f : 0.06f, &w, &m ) );
		uint32_t* prev = NULL;
		int prevCount = 0;
		for ( int frame = 0; frame < 5; ++frame )
		{
			for ( int i = 0; i < m.count && frame > 0; ++i )
			{
				float* b = m.bounds + (size_t)i * 2 * d;
				float dx = ( RngFloat( &rng ) - 0.5f ) * 0.02f;
				b[0] += dx;
				b[d] += dx;
				WriteBox( w, &m, i );
			}
			ENSURE_OK( spWorld_Update( w ) );
			RUN_SUB( CheckWorld( w, &m, &prev, &prevCount ) );
			spCounters c = spWorld_GetCounters( w );
			ENSURE( c.slabs > 1 );
			ENSURE( frame == 0 ? c.rebuilt == 1 : c.rebuilt == 0 );
			ENSURE( c.refreshed == ( frame > 0 ) );
		}
		ENSURE( prevCount > 100 ); // the scene is not trivially empty
		free( prev );
		MirrorFree( &m );
		spDestroyWorld( w );
	}
	return 0;
}

int RefreshedFramesMatchBruteForce( void )
{
	// Coherent motion fast enough to carry boxes across slabs every frame: the slabs are refreshed in place (boxes
	// leave slabs and reach new ones, including boxes that grow and shrink), checked against brute force every
	// frame, with a moving box added or removed now and then (refreshed too) and one teleporting frame
	// (incoherent: rebuilt).
	for ( int d = 1; d <= 4; ++d )
	{
		spWorldId w;
		Mirror m;
		Rng rng = { 7u + (uint32_t)d };
		const int n = d == 1 ? 1500 : 2500;
		RUN_SUB( RandomScene( d, &rng, n, d <= 2 ? 0.02f : d == 3 ? 0.08f : 0.2f, &w, &m ) );
		float* vel = malloc( sizeof( float ) * (size_t)n * 4 );
		for ( int i = 0; i < n * 4; ++i )
		{
			vel[i] = ( RngFloat( &rng ) - 0.5f ) * 3.0f;
		}
		uint32_t* prev = NULL;
		int prevCount = 0, refreshedFrames = 0, slabCrossings = 0, churnRefreshed = 0;
		for ( int frame = 0; frame < 40; ++frame )
		{
			for ( int i = 0; i < m.count && frame > 0; ++i )
			{
				float* b = m.bounds + (size_t)i * 2 * d;
				for ( int a = 0; a < d; ++a )
				{
					if ( frame == 25 )
					{
						// teleport: every box to a random place
						float size = b[d + a] - b[a];
						b[a] = RngFloat( &rng ) * 100.0f;
						b[d + a] = b[a] + size;
						continue;
					}
					float grow = i % 7 == 0 ? ( RngFloat( &rng ) - 0.5f ) * 0.5f : 0.0f;
					b[a] += vel[( i * 4 + a ) % ( n * 4 )];
					b[d + a] += vel[( i * 4 + a ) % ( n * 4 )] + grow;
					if ( b[d + a] < b[a] )
						b[d + a] = b[a];
				}
				WriteBox( w, &m, i );
			}
			if ( frame % 9 == 4 )
			{
				ENSURE( AddRandomBox( w, &m, &rng, 0.02f ) != 0 );
			}
			if ( frame % 11 == 6 )
			{
				uint32_t id = m.ids[RngInt( &rng, m.count )];
				ENSURE_OK( spWorld_RemoveBox( w, ( spBoxId ){ id } ) );
				MirrorRemove( &m, id );
			}
			ENSURE_OK( spWorld_Update( w ) );
			RUN_SUB( CheckWorld( w, &m, &prev, &prevCount ) );
			spCounters c = spWorld_GetCounters( w );
			refreshedFrames += c.refreshed;
			slabCrossings += c.refreshed && c.slabs > 1 && c.began + c.ended > 0;
			// a moving box added or removed: merged into or dropped from the refreshed slabs
			churnRefreshed += c.refreshed && ( frame % 9 == 4 || frame % 11 == 6 );
		}
		ENSURE( refreshedFrames >= 30 );
		ENSURE( churnRefreshed >= 6 );
		ENSURE( d == 1 || slabCrossings >= 10 );
		ENSURE( prevCount > 100 );
		free( vel );
		free( prev );
		MirrorFree( &m );
		spDestroyWorld( w );
	}
	return 0;
}

// The slab a value on the slab axis starts in (the last slab whose floor is at most v).
static int SlabOfValue( const spSlabs* slabs, float v )
{
	int s = 0;
	while ( s + 1 < slabs->slabCount && slabs->floors[s + 1] <= v )
		++s;
	return s;
}

// The world's moving index holds each mirrored box in every slab its bounds reach on the slab axis and in no other,
// each slab in the order of the boxes' min on the sweep axis.
static int CheckSlabs( spWorldId w, const Mirror* m )
{
	spSlabs slabs;
	ENSURE_OK( spWorld_GetSlabs( w, false, &slabs ) );
	const int d = m->dimensions;
	int expected = 0;
	for ( int i = 0; i < m->count; ++i )
	{
		const float* b = m->bounds + (size_t)i * 2 * d;
		const int s0 = slabs.slabAxis < 0 ? 0 : SlabOfValue( &slabs, b[slabs.slabAxis] );
		const int s1 = slabs.slabAxis < 0 ? 0 : SlabOfValue( &slabs, b[d + slabs.slabAxis] );
		expected += s1 - s0 + 1;
		for ( int s = s0; s <= s1; ++s )
		{
			int found = 0;
			for ( int k = slabs.starts[s]; k < slabs.starts[s + 1]; ++k )
				found += slabs.ids[k] == m->ids[i];
			ENSURE( found == 1 );
		}
	}
	ENSURE( slabs.entryCount == expected );
	// each mirrored box's min on the sweep axis by slot (with the counts above, every entry is a mirrored box's)
	int slots = 0;
	for ( int i = 0; i < m->count; ++i )
	{
		const int slot = (int)spBoxId_Slot( ( spBoxId ){ m->ids[i] } );
		slots = slot + 1 > slots ? slot + 1 : slots;
	}
	float* lo = malloc( sizeof( float ) * (size_t)( slots > 0 ? slots : 1 ) );
	for ( int i = 0; i < m->count; ++i )
	{
		lo[spBoxId_Slot( ( spBoxId ){ m->ids[i] } )] = m->bounds[(size_t)i * 2 * d + (size_t)slabs.sweepAxis];
	}
	int sorted = 1;
	for ( int s = 0; s < slabs.slabCount; ++s )
	{
		for ( int k = slabs.starts[s] + 1; k < slabs.starts[s + 1]; ++k )
		{
			sorted &=
				lo[spBoxId_Slot( ( spBoxId ){ slabs.ids[k - 1] } )] <= lo[spBoxId_Slot( ( spBoxId ){ slabs.ids[k] } )];
		}
	}
	free( lo );
	ENSURE( sorted );
	return 0;
}

int RefreshedWithTeleportsDown( void )
{
	// Coherent motion with a few boxes teleported each frame from the top of the slab axis to its bottom: a box that
	// reaches a slab more than two below its old first slab is found after the refresh on one thread has merged that
	// slab (it then runs again with every merge after the pass, and so do the next few refreshes). Every frame is
	// still a refresh, with brute force's pairs and events, and its slabs hold each box wherever its bounds reach.
	for ( int d = 2; d <= 3; ++d )
	{
		spWorldId w;
		Mirror m;
		Rng rng = { 41u + (uint32_t)d };
		const int n = 3000;
		RUN_SUB( RandomScene( d, &rng, n, d == 2 ? 0.02f : 0.06f, &w, &m ) );
		uint32_t* prev = NULL;
		int prevCount = 0, refreshed = 0, fallen = 0;
		for ( int frame = 0; frame < 40; ++frame )
		{
			spSlabs slabs;
			ENSURE_OK( spWorld_GetSlabs( w, false, &slabs ) );
			for ( int i = 0; i < m.count && frame > 0; ++i )
			{
				float* b = m.bounds + (size_t)i * 2 * d;
				for ( int a = 0; a < d; ++a )
				{
					const float step = ( RngFloat( &rng ) - 0.5f ) * 0.05f;
					b[a] += step;
					b[d + a] += step;
				}
				WriteBox( w, &m, i );
			}
			for ( int k = 0; k < 1 + frame % 3 && frame > 0; ++k )
			{
				const int i = RngInt( &rng, m.count );
				float* b = m.bounds + (size_t)i * 2 * d;
				const int a = slabs.slabAxis;
				ENSURE( a >= 0 );
				const int before = SlabOfValue( &slabs, b[a] );
				const float size = b[d + a] - b[a];
				b[a] = RngFloat( &rng ) * 10.0f;
				b[d + a] = b[a] + size;
				fallen += before - SlabOfValue( &slabs, b[a] ) > 2;
				WriteBox( w, &m, i );
			}
			ENSURE_OK( spWorld_Update( w ) );
			RUN_SUB( CheckWorld( w, &m, &prev, &prevCount ) );
			RUN_SUB( CheckSlabs( w, &m ) );
			const spCounters c = spWorld_GetCounters( w );
			ENSURE( c.slabs > 4 );
			refreshed += c.refreshed;
		}
		ENSURE( refreshed == 39 );
		ENSURE( fallen >= 30 );
		ENSURE( prevCount > 100 );
		free( prev );
		MirrorFree( &m );
		spDestroyWorld( w );
	}
	return 0;
}

int RebuildsAsTheSceneShrinks( void )
{
	// Rebuilds of fewer boxes than before, then more again (every box teleported: no refresh), so the rebuild's
	// sort scratch is reused at smaller and larger sizes than it was grown for; half the boxes start within a
	// thousandth of each other on x, so each slab's sort takes its radix fallback (all of its scratch). Checked
	// against brute force.
	spWorldId w;
	Mirror m;
	Rng rng = { 5u };
	RUN_SUB( RandomScene( 2, &rng, 1000, 0.02f, &w, &m ) );
	uint32_t* prev = NULL;
	int prevCount = 0;
	const int counts[6] = { 1000, 700, 950, 500, 980, 300 };
	for ( int step = 0; step < 6; ++step )
	{
		while ( m.count > counts[step] )
		{
			const uint32_t id = m.ids[RngInt( &rng, m.count )];
			ENSURE_OK( spWorld_RemoveBox( w, ( spBoxId ){ id } ) );
			MirrorRemove( &m, id );
		}
		while ( m.count < counts[step] )
			ENSURE( AddRandomBox( w, &m, &rng, 0.02f ) != 0 );
		for ( int i = 0; i < m.count; ++i )
		{
			float* b = m.bounds + (size_t)i * 4;
			for ( int a = 0; a < 2; ++a )
			{
				const float size = b[2 + a] - b[a];
				// y over a third of x's range, so that x, the clustered axis, stays the sweep axis
				b[a] = a == 1		? RngFloat( &rng ) * 30.0f
					   : i % 2 == 0 ? 50.0f + RngFloat( &rng ) * 1e-3f
									: RngFloat( &rng ) * 100.0f;
				b[2 + a] = b[a] + size;
			}
			WriteBox( w, &m, i );
		}
		ENSURE_OK( spWorld_Update( w ) );
		RUN_SUB( CheckWorld( w, &m, &prev, &prevCount ) );
		const spCounters c = spWorld_GetCounters( w );
		ENSURE( c.rebuilt == 1 && c.slabs > 1 && c.sweepAxis == 0 );
	}
	free( prev );
	MirrorFree( &m );
	spDestroyWorld( w );
	return 0;
}

int ChurnFramesMatchBruteForce( void )
{
	// Coherent motion with boxes added, removed, and switched between static and moving on every frame, so the
	// refreshed slabs merge in new boxes and drop gone ones. Also within one frame: a box switched to static and
	// back (its entries stay in the index, and must not be doubled), and a box removed and a new one added in
	// its slot (the slot's old entries must go). Checked against brute force every frame.
	for ( int d = 2; d <= 3; ++d )
	{
		spWorldId w;
		Mirror m;
		Rng rng = { 91u + (uint32_t)d };
		RUN_SUB( RandomScene( d, &rng, 2000, d == 2 ? 0.02f : 0.08f, &w, &m ) );
		uint32_t* prev = NULL;
		int prevCount = 0, refreshedFrames = 0;
		for ( int frame = 0; frame < 40; ++frame )
		{
			for ( int i = 0; i < m.count && frame > 0; ++i )
			{
				float* b = m.bounds + (size_t)i * 2 * d;
				for ( int a = 0; a < d; ++a )
				{
					const float v = ( RngFloat( &rng ) - 0.5f ) * 1.5f;
					b[a] += v;
					b[d + a] += v;
				}
				WriteBox( w, &m, i );
			}
			for ( int k = 0; k < 4; ++k )
			{
				ENSURE( AddRandomBox( w, &m, &rng, 0.02f ) != 0 );
				uint32_t id = m.ids[RngInt( &rng, m.count )];
				ENSURE_OK( spWorld_RemoveBox( w, ( spBoxId ){ id } ) );
				MirrorRemove( &m, id );
				// a free slot's bounds are not validated: NaN there must not upset the refresh
				for ( int a = 0; a < 2 * d; ++a )
					spWorld_GetBounds( w, NULL )[spBoxId_Slot( ( spBoxId ){ id } ) * 2 * d + (uint32_t)a] = NAN;
				const int s = RngInt( &rng, m.count );
				RUN_SUB( SetMirrorBoxStatic( w, &m, s, !m.statics[s] ) );
			}
			// static and back within the frame
			const int t = RngInt( &rng, m.count );
			RUN_SUB( SetMirrorBoxStatic( w, &m, t, !m.statics[t] ) );
			RUN_SUB( SetMirrorBoxStatic( w, &m, t, !m.statics[t] ) );
			// removed, and a new box in its slot
			uint32_t id = m.ids[RngInt( &rng, m.count )];
			ENSURE_OK( spWorld_RemoveBox( w, ( spBoxId ){ id } ) );
			MirrorRemove( &m, id );
			const uint32_t added = AddRandomBox( w, &m, &rng, 0.02f );
			ENSURE( added != 0 && spBoxId_Slot( ( spBoxId ){ added } ) == spBoxId_Slot( ( spBoxId ){ id } ) );
			ENSURE_OK( spWorld_Update( w ) );
			RUN_SUB( CheckWorld( w, &m, &prev, &prevCount ) );
			refreshedFrames += spWorld_GetCounters( w ).refreshed;
		}
		ENSURE( refreshedFrames >= 30 );
		ENSURE( prevCount > 100 );
		free( prev );
		MirrorFree( &m );
		spDestroyWorld( w );
	}
	return 0;
}

// With `pool`, every update spread over it (the sweep's lists kept by its ranges, swapped with theirs each update).
static int CoherentFrames( PoolThreads* pool )
{
	// Boxes drifting and bouncing inside the scene, as in a game: once the first frames have sized the world's
	// arrays, refreshed frames allocate nothing, although the counts of entries and pairs waver from frame to frame
	// (an array that shares its capacity with others, or one sized by the frame, reallocating on each new high would
	// fail this).
	TestFailAt( -1 );
	spSetAllocator( TestRealloc );
	spWorldId w;
	Mirror m;
	Rng rng = { 11 };
	const int n = 8000, d = 2;
	RUN_SUB( RandomScene( d, &rng, n, 0.015f, &w, &m ) );
	if ( pool != NULL )
	{
		ENSURE_OK( spWorld_SetPool( w, PoolOf( pool ) ) );
		ENSURE_OK( spWorld_SetParallelMinBoxes( w, 0 ) );
	}
	float* vel = malloc( sizeof( float ) * (size_t)n * 2 );
	for ( int i = 0; i < n * 2; ++i )
	{
		vel[i] = ( RngFloat( &rng ) - 0.5f ) * 0.2f;
	}
	uint32_t* prev = NULL;
	int prevCount = 0, refreshed = 0, lowPairs = INT32_MAX, highPairs = 0, allocations = 0;
	for ( int frame = 0; frame < 70; ++frame )
	{
		for ( int i = 0; i < m.count && frame > 0; ++i )
		{
			float* b = m.bounds + (size_t)i * 2 * d;
			for ( int a = 0; a < d; ++a )
			{
				float* v = vel + (size_t)i * 2 + a;
				if ( ( b[a] < 0.0f && *v < 0.0f ) || ( b[d + a] > 100.0f && *v > 0.0f ) )
					*v = -*v;
				b[a] += *v;
				b[d + a] += *v;
			}
			WriteBox( w, &m, i );
		}
		testAllocator.count = 0;
		ENSURE_OK( spWorld_Update( w ) );
		if ( frame >= 10 )
		{
			const spCounters c = spWorld_GetCounters( w );
			allocations += testAllocator.count;
			refreshed += c.refreshed;
			lowPairs = c.pairs < lowPairs ? c.pairs : lowPairs;
			highPairs = c.pairs > highPairs ? c.pairs : highPairs;
		}
		// the pairs against brute force on the first frame, and the pairs and events on the last (against the
		// brute-force pairs of the frame before)
		if ( frame == 68 )
		{
			free( prev );
			prevCount = BruteForcePairs( &m, &prev );
		}
		if ( frame == 0 || frame == 69 )
		{
			RUN_SUB( CheckWorld( w, &m, &prev, &prevCount ) );
		}
	}
	spSetAllocator( NULL );
	ENSURE( refreshed == 60 );
	ENSURE( highPairs > lowPairs ); // the counts do waver
	ENSURE( allocations == 0 );
	free( vel );
	free( prev );
	MirrorFree( &m );
	spDestroyWorld( w );
	return 0;
}

int CoherentFramesDoNotAllocate( void )
{
	RUN_SUB( CoherentFrames( NULL ) );
	PoolThreads* pool = StartPool( 2 );
	ENSURE( pool != NULL );
	const int failed = CoherentFrames( pool );
	StopPool( pool );
	return failed;
}
