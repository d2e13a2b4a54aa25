// SPDX-License-Identifier: MIT
// Region, point and ray queries, answered from the slab indexes of the last update (moving and static boxes).
#include "core.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// Gather the boxes overlapping (min, max) from both indexes into w->found as (id, place of its entry) pairs: the
// moving boxes' first, then from *staticStart on the static boxes'. The result arrays are grown to hold `keep`
// results already there and one per box found.
static spResult spGather( spWorld* w, const float* min, const float* max, uint32_t mask, int* staticStart, int keep )
{
	w->found.count = 0;
	if ( !spQueryIndex( &w->dynamicIndex, w, min, max, mask, &w->found, 0 ) )
	{
		return sp_resultOutOfMemory;
	}
	*staticStart = w->found.count;
	if ( !spQueryIndex( &w->staticIndex, w, min, max, mask, &w->found, 0 ) )
	{
		return sp_resultOutOfMemory;
	}
	const int need = keep + w->found.count;
	if ( !spGrow( (void**)&w->queryIds, &w->queryCapacity, need, sizeof( uint32_t ) ) )
		return sp_resultOutOfMemory;
	if ( !spGrow( (void**)&w->queryDistances, &w->queryDistanceCapacity, need, sizeof( float ) ) )
		return sp_resultOutOfMemory;
	return sp_resultOk;
}

static int spCompareIds( const void* x, const void* y )
{
	uint32_t a = *(const uint32_t*)x, b = *(const uint32_t*)y;
	return a < b ? -1 : a > b;
}

spResult spWorld_QueryBox( spWorldId worldId, const float* min, const float* max, uint32_t mask, const uint32_t** ids,
						   int* count )
{
	if ( !spWorld_IsValid( worldId ) )
	{
		return sp_resultInvalidWorld;
	}
	if ( min == NULL || max == NULL || ids == NULL || count == NULL )
	{
		return sp_resultNullArgument;
	}
	spWorld* w = spGetWorldPtr( worldId );
	spResult r = spCheckBounds( min, max, w->dimensions );
	if ( r != sp_resultOk )
	{
		return r;
	}
	int staticStart;
	r = spGather( w, min, max, mask, &staticStart, 0 );
	if ( r != sp_resultOk )
	{
		return r;
	}
	const int n = w->found.count;
	for ( int i = 0; i < n; ++i )
	{
		w->queryIds[i] = w->found.data[i].a;
	}
	if ( n > 1 )
		qsort( w->queryIds, (size_t)n, sizeof( uint32_t ), spCompareIds );
	w->queryCount = n;
	*ids = w->queryIds;
	*count = n;
	return sp_resultOk;
}

spResult spWorld_QueryPoint( spWorldId worldId, const float* point, uint32_t mask, const uint32_t** ids, int* count )
{
	return spWorld_QueryBox( worldId, point, point, mask, ids, count );
}

// Slab test: the distance parameter t (in units of `direction`) where the ray enters the box, or false.
static bool spRayEnter( const float* b, int d, const double* o, const double* dir, double tMax, double* tEnter )
{
	double t0 = 0.0, t1 = tMax;
	for ( int a = 0; a < d; ++a )
	{
		double lo = b[a], hi = b[d + a];
		if ( dir[a] == 0.0 )
		{
			if ( o[a] < lo || o[a] > hi )
				return false;
			continue;
		}
		double inv = 1.0 / dir[a];
		double ta = ( lo - o[a] ) * inv, tb = ( hi - o[a] ) * inv;
		if ( ta > tb )
		{
			double t = ta;
			ta = tb;
			tb = t;
		}
		t0 = ta > t0 ? ta : t0;
		t1 = tb < t1 ? tb : t1;
		if ( t0 > t1 )
			return false;
	}
	*tEnter = t0;
	return true;
}

// A box as an index entry holds it (the sweep axis first, then the other axes in order), in box layout: mins,
// then maxes. Queries answer from the indexes, so they see every box where the last update saw it.
static void spEntryToBox( const spIndex* index, int d, const float* e, float* box )
{
	const int axis = index->axis;
	box[axis] = e[0];
	box[d + axis] = e[1];
	for ( int a = 0, k = 2; a < d; ++a )
	{
		if ( a != axis )
		{
			box[a] = e[k];
			box[d + a] = e[k + 1];
			k += 2;
		}
	}
}

typedef struct spHit
{
	float distance;
	uint32_t id;
} spHit;

static int spCompareHits( const void* x, const void* y )
{
	const spHit* a = x;
	const spHit* b = y;
	if ( a->distance != b->distance )
		return a->distance < b->distance ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}


// A float range holding the double interval [l, h]: widened by a few float steps (2.5e-7 relative is more than
// one rounding; extra candidates are rejected by the exact tests), infinite ends clamped to the largest float.
static void spToFloatRange( double l, double h, float* lo, float* hi )
{
	l -= fabs( l ) * 2.5e-7 + 1e-30;
	h += fabs( h ) * 2.5e-7 + 1e-30;
	*lo = l < -FLT_MAX ? -FLT_MAX : (float)l;
	*hi = h > FLT_MAX ? FLT_MAX : (float)h;
}

// Check a query point (finite) and read it as doubles.
static spResult spReadPoint( const float* p, int d, double* out )
{
	for ( int a = 0; a < d; ++a )
	{
		if ( !isfinite( p[a] ) )
			return sp_resultInvalidBounds;
		out[a] = p[a];
	}
	return sp_resultOk;
}

// The candidates of w->found (from spGather) as boxes, in the layout of the last update's index entries.
static void spFoundBox( const spWorld* w, int i, int staticStart, float* b )
{
	const spIndex* index = i < staticStart ? &w->dynamicIndex : &w->staticIndex;
	spEntryToBox( index, w->dimensions, index->entries + (size_t)w->found.data[i].b * w->stride, b );
}

// The boxes within `r` of p by box distance (Euclidean, 0 inside), as hits sorted by (distance, id) in
// w->found.data. A box at computed distance <= r has no gap wider than r (1 + 1e-6) on any axis, so the cube of
// that half-width holds them all.
static spResult spCollect( spWorld* w, const double* p, double r, uint32_t mask, int* count )
{
	const int d = w->dimensions;
	const double reach = r * ( 1.0 + 1e-6 );
	float lo[SP_MAX_DIMENSIONS], hi[SP_MAX_DIMENSIONS];
	for ( int a = 0; a < d; ++a )
		spToFloatRange( p[a] - reach, p[a] + reach, &lo[a], &hi[a] );
	int staticStart, n = 0;
	spResult result = spGather( w, lo, hi, mask, &staticStart, 0 );
	if ( result != sp_resultOk )
		return result;
	spHit* hits = (spHit*)w->found.data; // same size as spPair: hit i is written after pair i is read
	for ( int i = 0; i < w->found.count; ++i )
	{
		float b[2 * SP_MAX_DIMENSIONS];
		spFoundBox( w, i, staticStart, b );
		double sum = 0.0;
		for ( int a = 0; a < d; ++a )
		{
			double gap = p[a] < b[a] ? b[a] - p[a] : p[a] > b[d + a] ? p[a] - b[d + a] : 0.0;
			sum += gap * gap;
		}
		const float distance = (float)sqrt( sum );
		if ( distance <= r )
		{
			hits[n].id = w->found.data[i].a;
			hits[n++].distance = distance;
		}
	}
	if ( n > 1 )
		qsort( hits, (size_t)n, sizeof( spHit ), spCompareHits );
	*count = n;
	return sp_resultOk;
}

// Hand out the first n hits of w->found.data as the query result.
static void spPublishHits( spWorld* w, int n, const uint32_t** ids, const float** distances, int* count )
{
	const spHit* hits = (const spHit*)w->found.data;
	for ( int i = 0; i < n; ++i )
	{
		w->queryIds[i] = hits[i].id;
		w->queryDistances[i] = hits[i].distance;
	}
	w->queryCount = n;
	*ids = w->queryIds;
	*distances = w->queryDistances;
	*count = n;
}

// A first guess of the distance within which k boxes lie around p, from the density of p's slab (boxes per unit
// of the sweep axis, per slab height) in the moving boxes' index, or the static one when that is empty.
static double spGuessRadius( const spWorld* w, const double* p, int k )
{
	const spIndex* x = w->dynamicIndex.entryCount > 0 ? &w->dynamicIndex : &w->staticIndex;
	if ( x->axis < 0 || x->entryCount == 0 )
		return 1.0;
	const int s = x->slabCount > 1 ? spSlabOf( x, (float)p[x->slabAxis] ) : 0;
	const int first = x->slabStart[s], n = x->slabStart[s + 1] - first;
	if ( n == 0 )
		return x->slabCount > 1 ? 1.0 / x->slabScale : 1.0;
	const double length = (double)x->entries[(size_t)( first + n - 1 ) * w->stride] -
						  x->entries[(size_t)first * w->stride] + x->slabMaxWidth[s];
	const double spacing = length / n; // along the sweep axis, per box
	const double r = x->slabCount > 1 ? 0.5 * sqrt( k * spacing / x->slabScale ) : 0.5 * k * spacing;
	return r > 0.0 ? r : 1.0;
}

// The k nearest boxes within maxDistance of `point`, searched from `radius` (a guess when negative).
static spResult spNearest( spWorldId worldId, const float* point, int k, float maxDistance, uint32_t mask,
						   double radius, const uint32_t** ids, const float** distances, int* count )
{
	if ( !spWorld_IsValid( worldId ) )
		return sp_resultInvalidWorld;
	if ( point == NULL || ids == NULL || distances == NULL || count == NULL )
		return sp_resultNullArgument;
	spWorld* w = spGetWorldPtr( worldId );
	double p[SP_MAX_DIMENSIONS];
	spResult r = spReadPoint( point, w->dimensions, p );
	if ( r != sp_resultOk || isnan( maxDistance ) || maxDistance < 0.0f )
		return r != sp_resultOk ? r : sp_resultInvalidBounds;
	if ( k < 0 )
		return sp_resultCapacityExceeded;
	if ( radius < 0.0 )
		radius = k > 0 ? spGuessRadius( w, p, k ) : 0.0;
	// Expanding search: the boxes within a radius of p; while fewer than k, twice the radius (past 10 rounds, every
	// box). Any k boxes within the radius are the k nearest: every box nearer lies within it too.
	for ( int round = 0;; ++round )
	{
		const double reach = round >= 10 || radius > 1e30 ? INFINITY : radius;
		const bool last = reach >= maxDistance;
		int n;
		r = spCollect( w, p, last ? maxDistance : reach, mask, &n );
		if ( r != sp_resultOk )
			return r;
		if ( last || n >= k )
		{
			spPublishHits( w, n < k ? n : k, ids, distances, count );
			return sp_resultOk;
		}
		radius *= 2.0;
	}
}

spResult spWorld_Nearest( spWorldId worldId, const float* point, int k, float maxDistance, uint32_t mask,
						  const uint32_t** ids, const float** distances, int* count )
{
	return spNearest( worldId, point, k, maxDistance, mask, -1.0, ids, distances, count );
}

spResult spWorld_QueryRadius( spWorldId worldId, const float* center, float radius, uint32_t mask,
							  const uint32_t** ids, const float** distances, int* count )
{
	// one round: the search starts at the radius, which is also the limit
	return spNearest( worldId, center, INT_MAX, radius, mask, radius, ids, distances, count );
}

#define SP_RAY_DEF_GUARD 0x53505259u

spRayDef spDefaultRayDef( void )
{
	spRayDef def = { INFINITY, 0xFFFFFFFFu, 0u, { 0 }, 0, (int)SP_RAY_DEF_GUARD };
	return def;
}

spResult spWorld_CastRayWith( spWorldId worldId, const float* origin, const float* direction, const spRayDef* def,
							  spRayResult* result )
{
	if ( !spWorld_IsValid( worldId ) )
		return sp_resultInvalidWorld;
	if ( origin == NULL || direction == NULL || def == NULL || result == NULL )
		return sp_resultNullArgument;
	if ( def->internalValue != (int)SP_RAY_DEF_GUARD || def->maxHits < 0 )
		return sp_resultInvalidDef;
	spWorld* w = spGetWorldPtr( worldId );
	const int d = w->dimensions;
	double o[SP_MAX_DIMENSIONS], dir[SP_MAX_DIMENSIONS], len2 = 0.0;
	spResult r = spReadPoint( origin, d, o );
	if ( r == sp_resultOk )
		r = spReadPoint( direction, d, dir );
	if ( r != sp_resultOk )
		return r;
	for ( int a = 0; a < d; ++a )
		len2 += dir[a] * dir[a];
	const float maxDistance = def->maxDistance;
	if ( !( len2 > 0.0 ) || isnan( maxDistance ) || maxDistance < 0.0f )
		return sp_resultInvalidBounds;
	const double len = sqrt( len2 );
	for ( int a = 0; a < d; ++a )
		dir[a] /= len; // unit direction: t is a distance

	// A ray that may stop early (at a number of hits, or at a blocker) is walked in segments of doubling length
	// from about a slab's height (the whole ray after 8): each segment's bounding box selects its candidates, and
	// a box counts in the segment where the ray enters it.
	const spIndex* x = w->dynamicIndex.entryCount > 0 ? &w->dynamicIndex : &w->staticIndex;
	const bool early = def->maxHits > 0 || def->blockMask != 0;
	const double tMax = maxDistance;
	double t0 = 0.0, t1 = early && x->slabCount > 1 ? 2.0 / x->slabScale : INFINITY;
	const uint32_t either = def->mask | def->blockMask;
	int n = 0;
	result->blocker = sp_nullBoxId;
	result->blockerDistance = 0.0f;
	for ( int segment = 0;; ++segment )
	{
		if ( segment >= 8 || t1 > tMax )
			t1 = tMax;
		float lo[SP_MAX_DIMENSIONS], hi[SP_MAX_DIMENSIONS];
		for ( int a = 0; a < d; ++a )
		{
			double start = o[a] + dir[a] * t0;
			double end = !isinf( t1 ) ? o[a] + dir[a] * t1 : dir[a] > 0 ? INFINITY : dir[a] < 0 ? -INFINITY : o[a];
			spToFloatRange( start < end ? start : end, start < end ? end : start, &lo[a], &hi[a] );
		}
		int staticStart;
		r = spGather( w, lo, hi, either, &staticStart, n );
		if ( r != sp_resultOk )
			return r;
		spHit* hits = (spHit*)w->found.data; // same size as spPair: hit i is written after pair i is read
		int m = 0;
		for ( int i = 0; i < w->found.count; ++i )
		{
			const uint32_t id = w->found.data[i].a;
			float b[2 * SP_MAX_DIMENSIONS];
			spFoundBox( w, i, staticStart, b );
			double t;
			if ( id != def->ignoreBox.bits && spRayEnter( b, d, o, dir, t1, &t ) && ( t > t0 || segment == 0 ) )
			{
				hits[m].distance = (float)t;
				hits[m++].id = id;
			}
		}
		if ( m > 1 )
			qsort( hits, (size_t)m, sizeof( spHit ), spCompareHits );
		bool done = false;
		for ( int i = 0; i < m && !done; ++i )
		{
			const uint32_t category = w->categories[spBoxId_Slot( ( spBoxId ){ hits[i].id } )];
			if ( ( category & def->blockMask ) != 0 )
			{
				result->blocker.bits = hits[i].id;
				result->blockerDistance = hits[i].distance;
				done = true;
				break;
			}
			if ( ( category & def->mask ) != 0 )
			{
				w->queryIds[n] = hits[i].id;
				w->queryDistances[n++] = hits[i].distance;
				done = n == def->maxHits;
			}
		}
		if ( done || t1 >= tMax )
			break;
		t0 = t1;
		t1 *= 2.0;
	}
	w->queryCount = n;
	result->ids = w->queryIds;
	result->distances = w->queryDistances;
	result->count = n;
	return sp_resultOk;
}

spResult spWorld_CastRay( spWorldId worldId, const float* origin, const float* direction, float maxDistance,
						  uint32_t mask, const uint32_t** ids, const float** distances, int* count )
{
	if ( ids == NULL || distances == NULL || count == NULL )
		return spWorld_IsValid( worldId ) ? sp_resultNullArgument : sp_resultInvalidWorld;
	spRayDef def = spDefaultRayDef();
	def.maxDistance = maxDistance;
	def.mask = mask;
	spRayResult hits;
	spResult r = spWorld_CastRayWith( worldId, origin, direction, &def, &hits );
	if ( r == sp_resultOk )
	{
		*ids = hits.ids;
		*distances = hits.distances;
		*count = hits.count;
	}
	return r;
}
