// SPDX-License-Identifier: MIT
// Region, point and ray queries, answered from the slab indexes of the last update (moving and static boxes).
#include "index.h"
#include "world.h"

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
	const spSlotTable slots = spSlotsOf( w );
	w->found.count = 0;
	if ( !spQueryIndex( &w->dynamicIndex, &slots, min, max, mask, &w->found, 0 ) )
	{
		return sp_resultOutOfMemory;
	}
	*staticStart = w->found.count;
	if ( !spQueryIndex( &w->staticIndex, &slots, min, max, mask, &w->found, 0 ) )
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

// Slab test: the distance parameter t (in units of `direction`) where the ray enters the box, or false.
static bool spRayEnter( const float* b, int d, const double* o, const double* dir, double tMax, double* tEnter )
{
	double t0 = 0.0, t1 = tMax;
	for ( int a = 0; a < d; ++a )
	{
		double lo = b[a], hi = b[d + a];
		// dir holds d doubles (the analyzer reads the world's dimension count twice and does not tie the two)
		// NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult)
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

// A hit: a box and its distance as one integer, the distance's bits above the id, so that integer order is the
// order of the results, by distance then id (distances are never negative, so their bits order them).
typedef uint64_t spHit;

static spHit spMakeHit( uint32_t id, float distance )
{
	uint32_t bits;
	memcpy( &bits, &distance, sizeof( bits ) );
	return (uint64_t)bits << 32 | id;
}

static float spHitDistance( spHit h )
{
	const uint32_t bits = (uint32_t)( h >> 32 );
	float distance;
	memcpy( &distance, &bits, sizeof( distance ) );
	return distance;
}

// Sort hits: Shell sort (gaps 1, 4, 13, 40, ...; Knuth), an insertion sort for the few hits of a nearest query or a
// short ray (the C library's qsort costs more there, measured in wasm), O(n^1.25) or so for a large region's.
static void spSortHits( spHit* hits, int n )
{
	int gap = 1;
	while ( gap < n / 3 )
		gap = 3 * gap + 1;
	for ( ; gap > 0; gap /= 3 )
	{
		for ( int i = gap; i < n; ++i )
		{
			const spHit h = hits[i];
			int j = i;
			for ( ; j >= gap && hits[j - gap] > h; j -= gap )
				hits[j] = hits[j - gap];
			hits[j] = h;
		}
	}
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

// Euclidean distance from p to the box b (0 inside), rounded to float once.
static float spPointDistance( const float* b, int d, const double* p )
{
	double sum = 0.0;
	for ( int a = 0; a < d; ++a )
	{
		double gap = p[a] < b[a] ? b[a] - p[a] : p[a] > b[d + a] ? p[a] - b[d + a] : 0.0;
		sum += gap * gap;
	}
	return (float)sqrt( sum );
}

// What spRank measures: nothing (p null: every distance 0, so the hits sort by id), the distance from p (dir
// null), or where the unit ray p + t dir enters each box within (t0, t1] ([0, t1] when t0 is 0), skipping the box
// `ignore`.
typedef struct spMeasure
{
	const double* p;
	const double* dir;
	double t0, t1;
	uint32_t ignore;
	double limit; // boxes farther from p are left out (point distances)
} spMeasure;

// The candidates of w->found (from staticStart on from the static index) measured, as hits sorted by (distance,
// id) in w->found.data (same size as spPair: hit m is written after pair i >= m is read). Returns their count.
static int spRank( spWorld* w, int staticStart, const spMeasure* q )
{
	spHit* hits = (spHit*)w->found.data;
	int m = 0;
	for ( int i = 0; i < w->found.count; ++i )
	{
		const uint32_t id = w->found.data[i].a;
		double t = 0.0;
		if ( q->p != NULL )
		{
			float b[2 * SP_MAX_DIMENSIONS];
			spFoundBox( w, i, staticStart, b );
			if ( q->dir == NULL )
			{
				if ( ( t = spPointDistance( b, w->dimensions, q->p ) ) > q->limit )
					continue;
			}
			else if ( id == q->ignore || !spRayEnter( b, w->dimensions, q->p, q->dir, q->t1, &t ) ||
					  !( t > q->t0 || q->t0 == 0.0 ) )
				continue;
		}
		hits[m++] = spMakeHit( id, (float)t );
	}
	spSortHits( hits, m );
	return m;
}

// The boxes within r of p by box distance, as hits sorted by (distance, id) in w->found.data, *count of them: the
// boxes of the cube of half-width r (1 + 1e-6) around p, for a box at computed distance <= r has no wider gap on any
// axis. The others of the cube are left out before the sort (around a point far outside the boxes, most of them).
static spResult spCollect( spWorld* w, const double* p, double r, uint32_t mask, int* count )
{
	const int d = w->dimensions;
	const double reach = r * ( 1.0 + 1e-6 );
	float lo[SP_MAX_DIMENSIONS], hi[SP_MAX_DIMENSIONS];
	for ( int a = 0; a < d; ++a )
		spToFloatRange( p[a] - reach, p[a] + reach, &lo[a], &hi[a] );
	int staticStart;
	spResult result = spGather( w, lo, hi, mask, &staticStart, 0 );
	if ( result != sp_resultOk )
		return result;
	const spMeasure q = { p, NULL, 0.0, 0.0, 0, r };
	*count = spRank( w, staticStart, &q );
	return sp_resultOk;
}

// Hand out the first n hits of w->found.data as the query result.
static void spPublishHits( spWorld* w, int n, const uint32_t** ids, const float** distances, int* count )
{
	const spHit* hits = (const spHit*)w->found.data;
	for ( int i = 0; i < n; ++i )
	{
		w->queryIds[i] = (uint32_t)hits[i];
		w->queryDistances[i] = spHitDistance( hits[i] );
	}
	w->queryCount = n;
	*ids = w->queryIds;
	*distances = w->queryDistances;
	*count = n;
}

// A box query's ids sorted into w->queryIds (by slot: a live slot has one id, and ids compare in slot order), with
// distances 0: for many hits an LSD radix sort of the slots, in the digits of spSlotDigits, through the distances'
// buffer (zeroed after), O(n) where the hits' Shell sort is about O(n^1.25) with a larger constant.
static void spPublishIds( spWorld* w, int staticStart, const uint32_t** ids, int* count )
{
	const int n = w->found.count;
	if ( n < 256 )
	{
		const spMeasure q = { NULL, NULL, 0.0, 0.0, 0, 0.0 };
		const float* distances;
		spPublishHits( w, spRank( w, staticStart, &q ), ids, &distances, count );
		return;
	}
	int digits[2];
	spSlotDigits( w->slotCount, &digits[0], &digits[1] );
	const int passes = digits[1] > 0 ? 2 : 1;
	uint32_t* scratch = (uint32_t*)w->queryDistances;
	// the ids where the first pass reads them: so that the last pass writes to queryIds
	uint32_t* src = passes == 1 ? scratch : w->queryIds;
	uint32_t* dst = passes == 1 ? w->queryIds : scratch;
	for ( int i = 0; i < n; ++i )
		src[i] = w->found.data[i].a;
	for ( int pass = 0; pass < passes; ++pass )
	{
		const int digit = digits[pass];
		const int shift = SP_GENERATION_BITS + pass * digits[0];
		const uint32_t mask = ( 1u << digit ) - 1u;
		int start[1 << 11];
		memset( start, 0, sizeof( int ) * ( (size_t)1 << digit ) );
		for ( int i = 0; i < n; ++i )
			start[( src[i] >> shift ) & mask] += 1;
		for ( int b = 0, sum = 0; b < ( 1 << digit ); ++b )
		{
			const int c = start[b];
			start[b] = sum;
			sum += c;
		}
		for ( int i = 0; i < n; ++i )
			dst[start[( src[i] >> shift ) & mask]++] = src[i];
		uint32_t* t = src;
		src = dst;
		dst = t;
	}
	memset( w->queryDistances, 0, sizeof( float ) * (size_t)n );
	w->queryCount = n;
	*ids = w->queryIds;
	*count = n;
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
	if ( r == sp_resultOk )
	{
		spPublishIds( w, staticStart, ids, count );
	}
	return r;
}

spResult spWorld_QueryPoint( spWorldId worldId, const float* point, uint32_t mask, const uint32_t** ids, int* count )
{
	return spWorld_QueryBox( worldId, point, point, mask, ids, count );
}

// A first radius for the k nearest boxes: the boxes next to p in sweep order in p's slab (the nearest slab when p
// lies outside them) of each index, k / 2 + 2 on either side. With k of them found, the k-th distance holds the k
// nearest; else the search starts at 1.
static double spProbeRadius( spWorld* w, const double* p, int k, uint32_t mask )
{
	const int window = k / 2 + 2;
	if ( k > 4096 || !spGrow( (void**)&w->found.data, &w->found.capacity, 4 * window, sizeof( spPair ) ) )
		return 1.0;
	int m = 0, staticStart = 0;
	for ( int x = 0; x < 2; ++x )
	{
		const spIndex* index = x == 0 ? &w->dynamicIndex : &w->staticIndex;
		staticStart = m;
		if ( index->axis < 0 || index->entryCount == 0 )
			continue;
		const int s = index->slabCount > 1 ? spSlabOf( index, (float)p[index->slabAxis] ) : 0;
		int lo = index->slabStart[s], hi = index->slabStart[s + 1];
		const int first = lo, end = hi;
		while ( lo < hi )
		{
			const int mid = lo + ( hi - lo ) / 2;
			if ( index->entries[(size_t)mid * w->stride] < p[index->axis] )
				lo = mid + 1;
			else
				hi = mid;
		}
		for ( int i = lo - window > first ? lo - window : first; i < end && i < lo + window; ++i )
		{
			const uint32_t id = index->ids[i];
			const uint32_t slot = spBoxId_Slot( ( spBoxId ){ id } );
			if ( w->ids[slot] == id && ( w->categories[slot] & mask ) != 0 ) // live and not filtered out
			{
				w->found.data[m].a = id;
				w->found.data[m++].b = (uint32_t)i;
			}
		}
	}
	w->found.count = m;
	const spMeasure q = { p, NULL, 0.0, 0.0, 0, INFINITY };
	spRank( w, staticStart, &q );
	return m >= k ? spHitDistance( ( (const spHit*)w->found.data )[k - 1] ) : 1.0;
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
		radius = k > 0 ? spProbeRadius( w, p, k, mask ) : 0.0;
	// Expanding search: the boxes within a radius of p. Any k boxes within it are the k nearest (every box nearer
	// lies within it too). With fewer, twice the radius (past 10 rounds, every box).
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
		radius = radius > 0.0 ? 2.0 * radius : 1.0;
	}
}

spResult spWorld_Nearest( spWorldId worldId, const float* point, int k, float maxDistance, uint32_t mask,
						  const uint32_t** ids, const float** distances, int* count )
{
	return spNearest( worldId, point, k, maxDistance, mask, -1.0, ids, distances, count );
}

spResult spWorld_QueryRadius( spWorldId worldId, const float* center, float radius, uint32_t mask, const uint32_t** ids,
							  const float** distances, int* count )
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
			double end = o[a] + ( dir[a] != 0.0 ? dir[a] * t1 : 0.0 ); // infinite ends are clamped
			spToFloatRange( start < end ? start : end, start < end ? end : start, &lo[a], &hi[a] );
		}
		int staticStart;
		r = spGather( w, lo, hi, either, &staticStart, n );
		if ( r != sp_resultOk )
			return r;
		const spMeasure q = { o, dir, t0, t1, def->ignoreBox.bits, 0.0 };
		const int m = spRank( w, staticStart, &q );
		const spHit* hits = (const spHit*)w->found.data;
		bool done = false;
		for ( int i = 0; i < m && !done; ++i )
		{
			const uint32_t id = (uint32_t)hits[i];
			const uint32_t category = w->categories[spBoxId_Slot( ( spBoxId ){ id } )];
			if ( ( category & def->blockMask ) != 0 )
			{
				result->blocker.bits = id;
				result->blockerDistance = spHitDistance( hits[i] );
				done = true;
				break;
			}
			if ( ( category & def->mask ) != 0 )
			{
				w->queryIds[n] = id;
				w->queryDistances[n++] = spHitDistance( hits[i] );
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
