// SPDX-License-Identifier: MIT
// Nearest boxes, radius queries and rays with options (first hits, blockers, an ignored box) against brute force,
// on seeded and degenerate scenes in 1 to 4 dimensions.
#include "test.h"

#include <math.h>
#include <string.h>

typedef struct Hit
{
	float distance;
	uint32_t id;
	uint32_t category;
} Hit;

static int CompareHits( const void* x, const void* y )
{
	const Hit* a = x;
	const Hit* b = y;
	if ( a->distance != b->distance )
		return a->distance < b->distance ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

static float PointDistance( const float* b, int d, const float* p )
{
	double sum = 0.0;
	for ( int a = 0; a < d; ++a )
	{
		double gap = fmax( fmax( (double)b[a] - p[a], (double)p[a] - b[d + a] ), 0.0 );
		sum += gap * gap;
	}
	return (float)sqrt( sum );
}

// Where the unit ray o + t u enters the box within [0, maxDistance], or -1.
static double RayEntry( const float* b, int d, const double* o, const double* u, double maxDistance )
{
	double enter = 0.0, leave = maxDistance;
	for ( int a = 0; a < d; ++a )
	{
		if ( u[a] == 0.0 )
		{
			if ( o[a] < b[a] || o[a] > b[d + a] )
				return -1.0;
			continue;
		}
		double inv = 1.0 / u[a];
		double t1 = ( b[a] - o[a] ) * inv, t2 = ( b[d + a] - o[a] ) * inv;
		enter = fmax( enter, fmin( t1, t2 ) );
		leave = fmin( leave, fmax( t1, t2 ) );
	}
	return enter <= leave ? enter : -1.0;
}

static int SameHits( const Hit* want, int n, const uint32_t* ids, const float* distances, int count, const char* what )
{
	if ( count != n )
	{
		fprintf( stderr, "%s: %d results, brute force %d\n", what, count, n );
		return 1;
	}
	for ( int i = 0; i < n; ++i )
	{
		if ( ids[i] != want[i].id || distances[i] != want[i].distance )
		{
			fprintf( stderr, "%s: result %d is %u at %.9g, brute force %u at %.9g\n", what, i, ids[i],
					 (double)distances[i], want[i].id, (double)want[i].distance );
			return 1;
		}
	}
	return 0;
}

// Every point query of one world against the mirror (the bounds of its last update).
static int CheckPointQueries( spWorldId w, const Mirror* m, const float* p, Hit* all )
{
	const int d = m->dimensions;
	const uint32_t masks[2] = { 0xFFFFFFFFu, 2u };
	const int ks[5] = { 0, 1, 5, 16, 100000 };
	const float limits[4] = { INFINITY, 3.0f, 0.0f, 1.0f };
	for ( int mi = 0; mi < 2; ++mi )
	{
		int n = 0;
		for ( int i = 0; i < m->count; ++i )
		{
			if ( ( m->categories[i] & masks[mi] ) != 0 )
			{
				all[n].distance = PointDistance( m->bounds + (size_t)i * 2 * d, d, p );
				all[n++].id = m->ids[i];
			}
		}
		qsort( all, (size_t)n, sizeof( Hit ), CompareHits );
		for ( int li = 0; li < 4; ++li )
		{
			int within = 0;
			while ( within < n && all[within].distance <= limits[li] )
				within += 1;
			const uint32_t* ids;
			const float* distances;
			int count;
			for ( int ki = 0; ki < 5; ++ki )
			{
				ENSURE_OK( spWorld_Nearest( w, p, ks[ki], limits[li], masks[mi], &ids, &distances, &count ) );
				RUN_SUB( SameHits( all, within < ks[ki] ? within : ks[ki], ids, distances, count, "nearest" ) );
			}
			ENSURE_OK( spWorld_QueryRadius( w, p, limits[li], masks[mi], &ids, &distances, &count ) );
			RUN_SUB( SameHits( all, within, ids, distances, count, "radius" ) );
		}
	}
	return 0;
}

// Rays from p along `dir` with options against brute force: hits up to maxHits, stopped by the first blocker.
static int CheckRays( spWorldId w, const Mirror* m, const float* p, const float* dir, Hit* all, Hit* want )
{
	const int d = m->dimensions;
	double o[4], u[4], len = 0.0;
	for ( int a = 0; a < d; ++a )
		len += (double)dir[a] * dir[a];
	len = sqrt( len );
	for ( int a = 0; a < d; ++a )
	{
		o[a] = p[a];
		u[a] = dir[a] / len;
	}
	for ( int variant = 0; variant < 12; ++variant )
	{
		spRayDef def = spDefaultRayDef();
		def.maxDistance = variant % 3 == 0 ? INFINITY : variant % 3 == 1 ? 25.0f : 2.0f;
		def.maxHits = variant % 4 == 0 ? 0 : variant % 4 == 1 ? 1 : 3;
		def.blockMask = variant % 2 == 0 ? 0u : 4u;
		def.mask = variant >= 6 ? 2u : 0xFFFFFFFFu;
		// ignore the box nearest to the origin along the ray (often the box the origin is on)
		int n = 0;
		for ( int i = 0; i < m->count; ++i )
		{
			if ( ( m->categories[i] & ( def.mask | def.blockMask ) ) == 0 )
				continue;
			double t = RayEntry( m->bounds + (size_t)i * 2 * d, d, o, u, def.maxDistance );
			if ( t >= 0.0 )
			{
				all[n].distance = (float)t;
				all[n].category = m->categories[i];
				all[n++].id = m->ids[i];
			}
		}
		qsort( all, (size_t)n, sizeof( Hit ), CompareHits );
		if ( variant % 5 == 1 && n > 0 )
			def.ignoreBox.bits = all[0].id;
		int hits = 0;
		Hit blocker = { 0.0f, 0u, 0u };
		for ( int i = 0; i < n; ++i )
		{
			if ( all[i].id == def.ignoreBox.bits )
				continue;
			uint32_t category = all[i].category;
			if ( ( category & def.blockMask ) != 0 )
			{
				blocker = all[i];
				break;
			}
			if ( ( category & def.mask ) != 0 )
			{
				want[hits++] = all[i];
				if ( hits == def.maxHits )
					break;
			}
		}
		spRayResult result;
		ENSURE_OK( spWorld_CastRayWith( w, p, dir, &def, &result ) );
		RUN_SUB( SameHits( want, hits, result.ids, result.distances, result.count, "ray" ) );
		ENSURE( result.blocker.bits == blocker.id );
		ENSURE( result.blocker.bits == 0 || result.blockerDistance == blocker.distance );
	}
	return 0;
}

static uint32_t AddBox( spWorldId w, Mirror* m, const float* min, const float* max, uint32_t category, bool isStatic )
{
	spBoxId id;
	if ( spWorld_AddBox( w, min, max, &id ) != sp_resultOk ||
		 spWorld_SetBoxFilter( w, id, category, ~0u ) != sp_resultOk )
		return 0;
	MirrorAdd( m, id.bits, min, max );
	m->categories[m->count - 1] = category;
	if ( isStatic && SetMirrorBoxStatic( w, m, m->count - 1, true ) != 0 )
		return 0;
	return id.bits;
}

// scene 0: random boxes of many sizes; 1: a grid of touching unit boxes and zero-extent boxes on its corners
// (many equal distances, points on faces); 2: a large random scene (many slabs)
static int QueryScene( int d, int scene )
{
	spWorldDef def = spDefaultWorldDef();
	def.dimensions = d;
	spWorldId w;
	ENSURE_OK( spCreateWorld( &def, &w ) );
	Mirror m;
	MirrorInit( &m, d );
	Rng rng = { 97u * (uint32_t)d + (uint32_t)scene };
	const int side = d == 1 ? 60 : d == 2 ? 12 : d == 3 ? 5 : 4;
	const int total = scene == 1 ? 1 : scene == 0 ? 1500 : 6000;
	if ( scene == 1 )
	{
		int cells = 1;
		for ( int a = 0; a < d; ++a )
			cells *= side;
		for ( int c = 0; c < cells; ++c )
		{
			float min[4], max[4];
			for ( int a = 0, rest = c; a < d; ++a, rest /= side )
			{
				min[a] = (float)( rest % side );
				max[a] = min[a] + 1.0f;
			}
			ENSURE( AddBox( w, &m, min, max, 1u + ( c % 3 == 0 ) + 4u * ( c % 7 == 3 ), c % 4 == 0 ) != 0 );
			if ( c % 5 == 0 )
				ENSURE( AddBox( w, &m, min, min, 2u, false ) != 0 );
		}
	}
	for ( int i = 0; scene != 1 && i < total; ++i )
	{
		float min[4], max[4];
		RandomBox( &rng, d, i % 10 == 0 ? 0.2f : i % 10 == 1 ? 0.0f : 0.02f, min, max );
		ENSURE( AddBox( w, &m, min, max, 1u + ( i % 3 == 0 ) + 4u * ( i % 11 == 5 ), i % 3 == 1 ) != 0 );
	}
	ENSURE_OK( spWorld_Update( w ) );
	// after the update: some boxes removed (never found), every box moved in the world only (found where the update
	// saw them) and one added (not found)
	for ( int i = 0; i < 20; ++i )
	{
		uint32_t id = m.ids[RngInt( &rng, m.count )];
		ENSURE_OK( spWorld_RemoveBox( w, ( spBoxId ){ id } ) );
		MirrorRemove( &m, id );
	}
	int floatCount;
	float* bounds = spWorld_GetBounds( w, &floatCount );
	for ( int i = 0; i < floatCount; ++i )
		bounds[i] += 3.0f;
	float zero[4] = { 0, 0, 0, 0 };
	spBoxId late;
	ENSURE_OK( spWorld_AddBox( w, zero, zero, &late ) );

	Hit* all = malloc( sizeof( Hit ) * (size_t)m.count );
	Hit* want = malloc( sizeof( Hit ) * (size_t)m.count );
	ENSURE( all != NULL && want != NULL );
	for ( int q = 0; q < 24; ++q )
	{
		float p[4], dir[4], lo[4], hi[4];
		RandomBox( &rng, d, 0.0f, lo, hi );
		for ( int a = 0; a < d; ++a )
		{
			// grid scene: integer points (corners, faces, edges) and half-integer ones; rays along faces
			p[a] = scene == 1 ? (float)RngInt( &rng, 2 * side + 3 ) * 0.5f - 1.0f : lo[a];
			dir[a] = scene == 1 && q % 2 == 0 ? 0.0f : RngFloat( &rng ) - 0.5f;
		}
		if ( scene == 1 && q % 2 == 0 )
		{
			dir[q / 2 % d] = q % 4 == 0 ? 1.0f : -1.0f;
			p[q / 2 % d] = q % 4 == 0 ? -1.0f : (float)side + 1.0f;
		}
		dir[0] = dir[0] == 0.0f && d == 1 ? 1.0f : dir[0];
		RUN_SUB( CheckPointQueries( w, &m, p, all ) );
		double len = 0.0;
		for ( int a = 0; a < d; ++a )
			len += (double)dir[a] * dir[a];
		if ( len > 0.0 )
			RUN_SUB( CheckRays( w, &m, p, dir, all, want ) );
	}
	free( all );
	free( want );
	MirrorFree( &m );
	spDestroyWorld( w );
	return 0;
}

int NearestAndRaysMatchBruteForce( void )
{
	for ( int d = 1; d <= 4; ++d )
		for ( int scene = 0; scene < 3; ++scene )
		{
			if ( QueryScene( d, scene ) != 0 )
			{
				fprintf( stderr, "in %dD scene %d\n", d, scene );
				return 1;
			}
		}
	return 0;
}

// Bad arguments: the documented error, and the world and the last query's results unchanged.
int QueryArgumentsAreChecked( void )
{
	spWorldDef def = spDefaultWorldDef();
	spWorldId w;
	ENSURE_OK( spCreateWorld( &def, &w ) );
	float lo[2] = { 0, 0 }, hi[2] = { 1, 1 }, p[2] = { 2, 0 }, dir[2] = { -1, 0 }, zero[2] = { 0, 0 };
	float bLo[2] = { 1, 0 }, bHi[2] = { 2, 1 };
	float nan[2] = { NAN, 0 }, inf[2] = { 0, INFINITY };
	spBoxId a, b;
	ENSURE_OK( spWorld_AddBox( w, lo, hi, &a ) );
	ENSURE_OK( spWorld_AddBox( w, bLo, bHi, &b ) );
	ENSURE_OK( spWorld_Update( w ) );
	const uint32_t* ids;
	const float* distances;
	int count;
	ENSURE_OK( spWorld_Nearest( w, p, 2, INFINITY, ~0u, &ids, &distances, &count ) );
	ENSURE( count == 2 && ids[0] == b.bits && distances[0] == 0.0f && ids[1] == a.bits && distances[1] == 1.0f );
	const uint32_t* kept = ids;
	const uint32_t* i2;
	const float* d2;
	int c2 = -1;
	ENSURE( spWorld_Nearest( w, nan, 1, INFINITY, ~0u, &i2, &d2, &c2 ) == sp_resultInvalidBounds );
	ENSURE( spWorld_Nearest( w, inf, 1, INFINITY, ~0u, &i2, &d2, &c2 ) == sp_resultInvalidBounds );
	ENSURE( spWorld_Nearest( w, p, -1, INFINITY, ~0u, &i2, &d2, &c2 ) == sp_resultCapacityExceeded );
	ENSURE( spWorld_Nearest( w, p, 1, -1.0f, ~0u, &i2, &d2, &c2 ) == sp_resultInvalidBounds );
	ENSURE( spWorld_Nearest( w, p, 1, NAN, ~0u, &i2, &d2, &c2 ) == sp_resultInvalidBounds );
	ENSURE( spWorld_Nearest( w, NULL, 1, 1.0f, ~0u, &i2, &d2, &c2 ) == sp_resultNullArgument );
	ENSURE( spWorld_Nearest( w, p, 1, 1.0f, ~0u, &i2, NULL, &c2 ) == sp_resultNullArgument );
	ENSURE( spWorld_Nearest( sp_nullWorldId, p, 1, 1.0f, ~0u, &i2, &d2, &c2 ) == sp_resultInvalidWorld );
	ENSURE( spWorld_QueryRadius( w, p, -0.5f, ~0u, &i2, &d2, &c2 ) == sp_resultInvalidBounds );
	ENSURE( spWorld_QueryRadius( w, nan, 1.0f, ~0u, &i2, &d2, &c2 ) == sp_resultInvalidBounds );
	ENSURE( spWorld_QueryRadius( w, p, 1.0f, ~0u, NULL, &d2, &c2 ) == sp_resultNullArgument );
	spRayDef ray = spDefaultRayDef();
	spRayResult result;
	ENSURE( spWorld_CastRayWith( w, p, zero, &ray, &result ) == sp_resultInvalidBounds );
	ENSURE( spWorld_CastRayWith( w, nan, dir, &ray, &result ) == sp_resultInvalidBounds );
	ENSURE( spWorld_CastRayWith( w, p, dir, NULL, &result ) == sp_resultNullArgument );
	ENSURE( spWorld_CastRayWith( w, p, dir, &ray, NULL ) == sp_resultNullArgument );
	ray.maxHits = -1;
	ENSURE( spWorld_CastRayWith( w, p, dir, &ray, &result ) == sp_resultInvalidDef );
	spRayDef raw;
	memset( &raw, 0, sizeof( raw ) );
	ENSURE( spWorld_CastRayWith( w, p, dir, &raw, &result ) == sp_resultInvalidDef );
	ray = spDefaultRayDef();
	ray.maxDistance = -1.0f;
	ENSURE( spWorld_CastRayWith( w, p, dir, &ray, &result ) == sp_resultInvalidBounds );
	ENSURE( c2 == -1 );
	// the last good query's results are still there, and the world is as it was
	ENSURE( kept[0] == b.bits && kept[1] == a.bits );
	int pairCount;
	spWorld_GetPairs( w, &pairCount );
	ENSURE( pairCount == 1 && spWorld_GetBoxCount( w ) == 2 );

	// the ray's options: first hit, ignore, blocker
	ray = spDefaultRayDef();
	ray.maxHits = 1;
	ENSURE_OK( spWorld_CastRayWith( w, p, dir, &ray, &result ) );
	ENSURE( result.count == 1 && result.ids[0] == b.bits && result.distances[0] == 0.0f && result.blocker.bits == 0 );
	ray.ignoreBox = b;
	ENSURE_OK( spWorld_CastRayWith( w, p, dir, &ray, &result ) );
	ENSURE( result.count == 1 && result.ids[0] == a.bits && result.distances[0] == 1.0f );
	ray.maxHits = 0;
	ray.ignoreBox = sp_nullBoxId;
	ray.blockMask = SP_DEFAULT_CATEGORY;
	ENSURE_OK( spWorld_SetBoxFilter( w, a, 2u, ~0u ) );
	ENSURE_OK( spWorld_CastRayWith( w, p, dir, &ray, &result ) );
	ENSURE( result.count == 0 && result.blocker.bits == b.bits && result.blockerDistance == 0.0f );
	spDestroyWorld( w );
	return 0;
}
