// SPDX-License-Identifier: MIT
// Game features against the brute-force oracle: collision filters, bipartite groups, static boxes, and the
// region / point / ray queries.
#include "world.h"
#include "test.h"

#include <math.h>
#include <string.h>

// Random sequences mixing adds, removes, moves, filter changes and static switches; every update checked.
static int FeatureSequence( int d, uint32_t seed, int steps )
{
	spWorldId w = TestWorld( d );
	Mirror m;
	MirrorInit( &m, d );
	Rng rng = { seed };
	uint32_t* prev = NULL;
	int prevCount = 0;
	for ( int step = 0; step < steps; ++step )
	{
		int op = RngInt( &rng, 100 );
		float min[4], max[4];
		if ( op < 25 || m.count < 4 )
		{
			for ( int k = 1 + RngInt( &rng, 10 ); k > 0; --k )
			{
				RandomBox( &rng, d, 0.2f, min, max );
				spBoxId id;
				ENSURE_OK( spWorld_AddBox( w, min, max, &id ) );
				MirrorAdd( &m, id.bits, min, max );
			}
		}
		else if ( op < 35 )
		{
			uint32_t id = m.ids[RngInt( &rng, m.count )];
			ENSURE_OK( spWorld_RemoveBox( w, ( spBoxId ){ id } ) );
			MirrorRemove( &m, id );
		}
		else if ( op < 50 )
		{
			// filters from a few categories, so some pairs pass and some do not
			int i = RngInt( &rng, m.count );
			uint32_t cat = 1u << RngInt( &rng, 3 ), mask = RngNext( &rng ) | ( RngInt( &rng, 2 ) ? 0xFFFFFFF0u : 0u );
			ENSURE_OK( spWorld_SetBoxFilter( w, ( spBoxId ){ m.ids[i] }, cat, mask ) );
			m.categories[i] = cat;
			m.masks[i] = mask;
			uint32_t c2, m2;
			ENSURE_OK( spWorld_GetBoxFilter( w, ( spBoxId ){ m.ids[i] }, &c2, &m2 ) );
			ENSURE( c2 == cat && m2 == mask );
		}
		else if ( op < 62 )
		{
			int i = RngInt( &rng, m.count );
			int s = RngInt( &rng, 3 ) != 0;
			RUN_SUB( SetMirrorBoxStatic( w, &m, i, s ) );
			ENSURE( spWorld_IsBoxStatic( w, ( spBoxId ){ m.ids[i] } ) == s );
		}
		else if ( op < 70 )
		{
			// move one static box through the bounds array: the update must notice
			for ( int i = 0; i < m.count; ++i )
			{
				if ( m.statics[i] )
				{
					float* b = m.bounds + (size_t)i * 2 * d;
					b[0] += 3.0f;
					b[d] += 3.0f;
					int floats;
					float* bounds = spWorld_GetBounds( w, &floats );
					memcpy( bounds + (size_t)spBoxId_Slot( ( spBoxId ){ m.ids[i] } ) * 2 * d, b,
							sizeof( float ) * 2 * (size_t)d );
					break;
				}
			}
		}
		else
		{
			// move the moving boxes only; a frame where no static changes must not rebuild the static index
			for ( int i = 0; i < m.count; ++i )
			{
				if ( m.statics[i] )
					continue;
				float* b = m.bounds + (size_t)i * 2 * d;
				for ( int a = 0; a < d; ++a )
				{
					float dx = ( RngFloat( &rng ) - 0.5f ) * 4.0f;
					b[a] += dx;
					b[d + a] += dx;
				}
				ENSURE_OK( spWorld_SetBox( w, ( spBoxId ){ m.ids[i] }, b, b + d ) );
			}
			ENSURE_OK( spWorld_Update( w ) );
			ENSURE( spWorld_GetCounters( w ).staticRebuilt == 0 );
			RUN_SUB( CheckWorld( w, &m, &prev, &prevCount ) );
			continue;
		}
		ENSURE_OK( spWorld_Update( w ) );
		if ( CheckWorld( w, &m, &prev, &prevCount ) != 0 )
		{
			fprintf( stderr, "  feature sequence d=%d seed=%u step=%d op=%d\n", d, seed, step, op );
			return 1;
		}
		int statics = 0;
		for ( int i = 0; i < m.count; ++i )
			statics += m.statics[i];
		ENSURE( spWorld_GetCounters( w ).staticBoxes == statics );
	}
	free( prev );
	MirrorFree( &m );
	spDestroyWorld( w );
	return 0;
}

int FiltersAndStaticsMatchBruteForce( void )
{
	for ( int d = 1; d <= 4; ++d )
		for ( uint32_t seed = 1; seed <= 6; ++seed )
			RUN_SUB( FeatureSequence( d, seed * 101 + (uint32_t)d, 200 ) );
	return 0;
}

int BipartiteGroupsReportCrossPairsOnly( void )
{
	// bullets: category 1, mask 2; enemies: category 2, mask 1. All boxes overlap each other.
	spWorldId w = TestWorld( 2 );
	float min[2] = { 0, 0 }, max[2] = { 1, 1 };
	spBoxId bullets[3], enemies[2];
	for ( int i = 0; i < 3; ++i )
	{
		ENSURE_OK( spWorld_AddBox( w, min, max, &bullets[i] ) );
		ENSURE_OK( spWorld_SetBoxFilter( w, bullets[i], 1, 2 ) );
	}
	for ( int i = 0; i < 2; ++i )
	{
		ENSURE_OK( spWorld_AddBox( w, min, max, &enemies[i] ) );
		ENSURE_OK( spWorld_SetBoxFilter( w, enemies[i], 2, 1 ) );
	}
	ENSURE_OK( spWorld_Update( w ) );
	int count;
	const uint32_t* p = spWorld_GetPairs( w, &count );
	ENSURE( count == 6 );
	for ( int i = 0; i < count; ++i )
	{
		int aBullet = 0, bBullet = 0;
		for ( int k = 0; k < 3; ++k )
		{
			aBullet |= p[2 * i] == bullets[k].bits;
			bBullet |= p[2 * i + 1] == bullets[k].bits;
		}
		ENSURE( aBullet != bBullet );
	}
	spDestroyWorld( w );
	return 0;
}

int StaticBoxesCostNothingWhileStill( void )
{
	// many static boxes, a few moving ones: frames that touch no static box do not rebuild or re-sort them
	spWorldId w = TestWorld( 2 );
	Mirror m;
	MirrorInit( &m, 2 );
	Rng rng = { 3 };
	for ( int i = 0; i < 3000; ++i )
	{
		float min[2], max[2];
		RandomBox( &rng, 2, 0.02f, min, max );
		spBoxId id;
		ENSURE_OK( spWorld_AddBox( w, min, max, &id ) );
		MirrorAdd( &m, id.bits, min, max );
		if ( i >= 10 )
		{
			RUN_SUB( SetMirrorBoxStatic( w, &m, m.count - 1, true ) );
		}
	}
	uint32_t* prev = NULL;
	int prevCount = 0;
	ENSURE_OK( spWorld_Update( w ) );
	ENSURE( spWorld_GetCounters( w ).staticRebuilt == 1 );
	RUN_SUB( CheckWorld( w, &m, &prev, &prevCount ) );
	for ( int frame = 0; frame < 20; ++frame )
	{
		for ( int i = 0; i < 10; ++i )
		{
			float* b = m.bounds + (size_t)i * 4;
			b[0] += 1.0f;
			b[2] += 1.0f;
			ENSURE_OK( spWorld_SetBox( w, ( spBoxId ){ m.ids[i] }, b, b + 2 ) );
		}
		ENSURE_OK( spWorld_Update( w ) );
		spCounters c = spWorld_GetCounters( w );
		ENSURE( c.staticRebuilt == 0 && c.staticBoxes == 2990 && c.boxes == 3000 );
		ENSURE( c.overlapTests <= 45 ); // only the 10 moving boxes are swept
		RUN_SUB( CheckWorld( w, &m, &prev, &prevCount ) );
	}
	free( prev );
	MirrorFree( &m );
	spDestroyWorld( w );
	return 0;
}

// Brute-force ray entry distance: clip the ray to each slab of the box.
static int BruteRay( const float* b, int d, const float* o, const double* u, double maxDistance, double* t )
{
	double enter = 0.0, leave = maxDistance;
	for ( int a = 0; a < d; ++a )
	{
		if ( u[a] == 0.0 )
		{
			if ( o[a] < b[a] || o[a] > b[d + a] )
				return 0;
			continue;
		}
		double t1 = ( b[a] - o[a] ) / u[a], t2 = ( b[d + a] - o[a] ) / u[a];
		enter = fmax( enter, fmin( t1, t2 ) );
		leave = fmin( leave, fmax( t1, t2 ) );
	}
	*t = enter;
	return enter <= leave;
}

int QueriesMatchBruteForce( void )
{
	for ( int d = 1; d <= 4; ++d )
	{
		spWorldId w = TestWorld( d );
		Mirror m;
		MirrorInit( &m, d );
		Rng rng = { 11u * (uint32_t)d };
		for ( int i = 0; i < 1500; ++i )
		{
			float min[4], max[4];
			RandomBox( &rng, d, 0.05f, min, max );
			spBoxId id;
			ENSURE_OK( spWorld_AddBox( w, min, max, &id ) );
			MirrorAdd( &m, id.bits, min, max );
			if ( i % 3 == 0 )
			{
				RUN_SUB( SetMirrorBoxStatic( w, &m, m.count - 1, true ) );
			}
			if ( i % 5 == 0 )
			{
				ENSURE_OK( spWorld_SetBoxFilter( w, id, 2, 0xFFFFFFFFu ) );
				m.categories[m.count - 1] = 2;
			}
		}
		// removed after the update: never reported
		for ( int i = 0; i < 50; ++i )
		{
			uint32_t id = m.ids[RngInt( &rng, m.count )];
			ENSURE_OK( spWorld_RemoveBox( w, ( spBoxId ){ id } ) );
			MirrorRemove( &m, id );
		}
		ENSURE_OK( spWorld_Update( w ) );
		static uint32_t want[2000];
		for ( int q = 0; q < 60; ++q )
		{
			float min[4], max[4];
			RandomBox( &rng, d, q % 4 == 0 ? 0.0f : 0.3f, min, max );
			uint32_t mask = q % 3 == 0 ? 2u : 0xFFFFFFFFu;
			int n = 0;
			for ( int i = 0; i < m.count; ++i )
			{
				const float* b = m.bounds + (size_t)i * 2 * d;
				int overlap = ( m.categories[i] & mask ) != 0;
				for ( int a = 0; a < d; ++a )
					overlap &= b[a] <= max[a] && min[a] <= b[d + a];
				if ( overlap )
					want[n++] = m.ids[i];
			}
			qsort( want, (size_t)n, sizeof( uint32_t ), CompareU32 );
			const uint32_t* ids;
			int count;
			if ( q % 4 == 0 )
				ENSURE_OK( spWorld_QueryPoint( w, min, mask, &ids, &count ) );
			else
				ENSURE_OK( spWorld_QueryBox( w, min, max, mask, &ids, &count ) );
			ENSURE( count == n );
			ENSURE( n == 0 || memcmp( ids, want, sizeof( uint32_t ) * (size_t)n ) == 0 );

			// a ray from the query's min corner, in a random direction, bounded or not
			double u[4], len = 0.0;
			float dir[4];
			for ( int a = 0; a < d; ++a )
			{
				dir[a] = q % 7 == 0 && a > 0 ? 0.0f : RngFloat( &rng ) - 0.5f;
				len += (double)dir[a] * dir[a];
			}
			if ( len == 0.0 )
			{
				dir[0] = 1.0f;
				len = 1.0;
			}
			len = sqrt( len );
			for ( int a = 0; a < d; ++a )
				u[a] = dir[a] / len;
			float maxDistance = q % 2 ? INFINITY : 40.0f;
			int hits = 0;
			for ( int i = 0; i < m.count; ++i )
			{
				double t;
				if ( ( m.categories[i] & mask ) != 0 &&
					 BruteRay( m.bounds + (size_t)i * 2 * d, d, min, u, maxDistance, &t ) )
					hits += 1;
			}
			const float* distances;
			ENSURE_OK( spWorld_CastRay( w, min, dir, maxDistance, mask, &ids, &distances, &count ) );
			ENSURE( count == hits );
			for ( int i = 0; i < count; ++i )
			{
				int k = MirrorFind( &m, ids[i] );
				ENSURE( k >= 0 );
				double t;
				ENSURE( BruteRay( m.bounds + (size_t)k * 2 * d, d, min, u, maxDistance, &t ) );
				ENSURE( fabs( t - distances[i] ) <= 1e-3 * ( 1.0 + t ) );
				if ( i > 0 )
					ENSURE( distances[i - 1] < distances[i] ||
							( distances[i - 1] == distances[i] && ids[i - 1] < ids[i] ) );
			}
		}
		// bad query input
		float nanBox[4] = { NAN, 0, 0, 0 }, zero[4] = { 0, 0, 0, 0 };
		const uint32_t* ids;
		const float* distances;
		int count;
		ENSURE( spWorld_QueryBox( w, nanBox, zero, ~0u, &ids, &count ) == sp_resultInvalidBounds );
		ENSURE( spWorld_CastRay( w, zero, zero, 1.0f, ~0u, &ids, &distances, &count ) == sp_resultInvalidBounds );
		ENSURE( spWorld_QueryBox( w, zero, zero, ~0u, NULL, &count ) == sp_resultNullArgument );
		MirrorFree( &m );
		spDestroyWorld( w );
	}
	return 0;
}

// Every query answers from the last update: boxes moved since (setBox, the bounds array) are seen where the update
// saw them, by castRay as by queryBox. And the pair list handed to bindings (spWorld_CopyPairs) is the world's own
// copy: garbage written into it changes nothing.
int QueriesSeeTheLastUpdate( void )
{
	for ( int d = 1; d <= 4; ++d )
	{
		spWorldId w = TestWorld( d );
		Mirror m;
		MirrorInit( &m, d );
		Rng rng = { 23u * (uint32_t)d };
		for ( int i = 0; i < 400; ++i )
		{
			if ( AddRandomBox( w, &m, &rng, 0.08f ) == 0 )
				return 1;
			if ( i % 4 == 0 )
				RUN_SUB( SetMirrorBoxStatic( w, &m, m.count - 1, true ) );
		}
		ENSURE_OK( spWorld_Update( w ) );
		uint32_t* prev = NULL;
		int prevCount = 0;
		RUN_SUB( CheckWorld( w, &m, &prev, &prevCount ) );
		// move every box after the update, in the world only: the mirror keeps the update's bounds
		int floatCount;
		float* bounds = spWorld_GetBounds( w, &floatCount );
		for ( int i = 0; i < m.count; ++i )
		{
			float* b = bounds + (size_t)spBoxId_Slot( ( spBoxId ){ m.ids[i] } ) * 2 * d;
			for ( int a = 0; a < 2 * d; ++a )
				b[a] += 7.0f;
		}
		for ( int q = 0; q < 60; ++q )
		{
			float o[4], lo[4], hi[4], dir[4];
			double u[4], len = 0.0;
			RandomBox( &rng, d, 0.3f, lo, hi );
			for ( int a = 0; a < d; ++a )
			{
				o[a] = lo[a];
				dir[a] = RngFloat( &rng ) - 0.5f;
				len += (double)dir[a] * dir[a];
			}
			len = sqrt( len );
			for ( int a = 0; a < d; ++a )
				u[a] = dir[a] / len;
			int rayHits = 0, boxHits = 0;
			for ( int i = 0; i < m.count; ++i )
			{
				double t;
				const float* b = m.bounds + (size_t)i * 2 * d;
				rayHits += BruteRay( b, d, o, u, INFINITY, &t );
				int overlap = 1;
				for ( int a = 0; a < d; ++a )
					overlap &= b[a] <= hi[a] && lo[a] <= b[d + a];
				boxHits += overlap;
			}
			const uint32_t* ids;
			const float* distances;
			int count;
			ENSURE_OK( spWorld_CastRay( w, o, dir, INFINITY, ~0u, &ids, &distances, &count ) );
			ENSURE( count == rayHits );
			for ( int i = 0; i < count; ++i )
			{
				double t;
				int k = MirrorFind( &m, ids[i] );
				ENSURE( k >= 0 && BruteRay( m.bounds + (size_t)k * 2 * d, d, o, u, INFINITY, &t ) );
				ENSURE( fabs( t - distances[i] ) <= 1e-3 * ( 1.0 + t ) );
			}
			ENSURE_OK( spWorld_QueryBox( w, lo, hi, ~0u, &ids, &count ) );
			ENSURE( count == boxHits );
		}
		// garbage in the copy handed out, then a frame with the moves: pairs, began and ended still exact
		const uint32_t* copy;
		int copyCount;
		ENSURE_OK( spWorld_CopyPairs( w, &copy, &copyCount ) );
		ENSURE( copyCount == prevCount && copyCount > 0 );
		memset( (void*)copy, 0xFF, (size_t)copyCount * 2 * sizeof( uint32_t ) );
		for ( int i = 0; i < m.count; ++i )
		{
			for ( int a = 0; a < 2 * d; ++a )
				m.bounds[(size_t)i * 2 * d + a] += 7.0f;
		}
		ENSURE_OK( spWorld_Update( w ) );
		RUN_SUB( CheckWorld( w, &m, &prev, &prevCount ) );
		free( prev );
		MirrorFree( &m );
		spDestroyWorld( w );
	}
	return 0;
}
