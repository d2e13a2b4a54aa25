// SPDX-License-Identifier: MIT
// Region, point and ray queries, answered from the slab indexes of the last update (moving and static boxes).
#include "index.h"
#include "world.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Gather the boxes overlapping (min, max) from both indexes into w->found as (id, place of its entry) pairs: the
// moving boxes' first, then from *staticStart on the static boxes'.
static spResult spGather( spWorld* w, const float* min, const float* max, uint32_t mask, int* staticStart )
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
	if ( !spGrow( (void**)&w->queryIds, &w->queryCapacity, w->found.count, sizeof( uint32_t ) ) )
		return sp_resultOutOfMemory;
	if ( !spGrow( (void**)&w->queryDistances, &w->queryDistanceCapacity, w->found.count, sizeof( float ) ) )
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
	r = spGather( w, min, max, mask, &staticStart );
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

spResult spWorld_CastRay( spWorldId worldId, const float* origin, const float* direction, float maxDistance,
						  uint32_t mask, const uint32_t** ids, const float** distances, int* count )
{
	if ( !spWorld_IsValid( worldId ) )
	{
		return sp_resultInvalidWorld;
	}
	if ( origin == NULL || direction == NULL || ids == NULL || distances == NULL || count == NULL )
	{
		return sp_resultNullArgument;
	}
	spWorld* w = spGetWorldPtr( worldId );
	const int d = w->dimensions;
	double o[SP_MAX_DIMENSIONS], dir[SP_MAX_DIMENSIONS], len2 = 0.0;
	for ( int a = 0; a < d; ++a )
	{
		if ( !isfinite( origin[a] ) || !isfinite( direction[a] ) )
			return sp_resultInvalidBounds;
		o[a] = origin[a];
		dir[a] = direction[a];
		len2 += dir[a] * dir[a];
	}
	if ( !( len2 > 0.0 ) || isnan( maxDistance ) || maxDistance < 0.0f )
	{
		return sp_resultInvalidBounds;
	}
	const double len = sqrt( len2 );
	for ( int a = 0; a < d; ++a )
		dir[a] /= len; // unit direction: t is a distance

	// The segment's bounding box, clipped to the boxes' extent, selects the candidates from the sorted data.
	float lo[SP_MAX_DIMENSIONS], hi[SP_MAX_DIMENSIONS];
	for ( int a = 0; a < d; ++a )
	{
		double end = isinf( maxDistance ) ? ( dir[a] > 0 ? INFINITY : dir[a] < 0 ? -INFINITY : o[a] )
										  : o[a] + dir[a] * (double)maxDistance;
		double l = o[a] < end ? o[a] : end, h = o[a] < end ? end : o[a];
		lo[a] = (float)l;
		hi[a] = (float)h;
		if ( (double)lo[a] > l )
			lo[a] = nextafterf( lo[a], -INFINITY );
		if ( (double)hi[a] < h )
			hi[a] = nextafterf( hi[a], INFINITY );
		// infinite ends: clamp to the largest float, which every box lies within
		if ( isinf( lo[a] ) )
			lo[a] = -3.4028235e38f;
		if ( isinf( hi[a] ) )
			hi[a] = 3.4028235e38f;
	}
	int staticStart;
	spResult r = spGather( w, lo, hi, mask, &staticStart );
	if ( r != sp_resultOk )
	{
		return r;
	}
	// rank the candidates by entry distance; found.data doubles as the hit list (same size as spHit)
	spHit* hits = (spHit*)w->found.data;
	const double tMax = isinf( maxDistance ) ? INFINITY : (double)maxDistance;
	int n = 0;
	for ( int i = 0; i < w->found.count; ++i )
	{
		uint32_t id = w->found.data[i].a;
		const spIndex* index = i < staticStart ? &w->dynamicIndex : &w->staticIndex;
		float b[2 * SP_MAX_DIMENSIONS];
		spEntryToBox( index, d, index->entries + (size_t)w->found.data[i].b * w->stride, b );
		double t;
		if ( spRayEnter( b, d, o, dir, tMax, &t ) )
		{
			hits[n].distance = (float)t;
			hits[n].id = id;
			n += 1;
		}
	}
	if ( n > 1 )
		qsort( hits, (size_t)n, sizeof( spHit ), spCompareHits );
	for ( int i = 0; i < n; ++i )
	{
		w->queryIds[i] = hits[i].id;
		w->queryDistances[i] = hits[i].distance;
	}
	w->queryCount = n;
	*ids = w->queryIds;
	*distances = w->queryDistances;
	*count = n;
	return sp_resultOk;
}
