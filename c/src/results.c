// SPDX-License-Identifier: MIT
// The update call and what it leaves to read: pairs, began and ended, their copy for bindings, counters, the
// endpoint lists.
#include "world.h"

#include "endpoints.h"
#include "update.h"

#include <string.h>

spResult spWorld_Update( spWorldId worldId )
{
	spWorld* w = spGetWorldPtr( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	spResult r = spUpdateWorld( w );
	if ( r == sp_resultOk )
	{
		w->pairsCopyValid = 0;
	}
	return r;
}

spBoxId spWorld_GetLastInvalidBox( spWorldId worldId )
{
	spWorld* w = spGetWorldPtr( worldId );
	return w != NULL ? w->lastInvalidBox : sp_nullBoxId;
}

static const uint32_t* spPairsOf( spWorldId worldId, int which, int* pairCount )
{
	spWorld* w = spGetWorldPtr( worldId );
	const spPairArray* p = NULL;
	if ( w != NULL )
	{
		p = which == 0 ? &w->pairs[w->current] : which == 1 ? &w->began : &w->ended;
	}
	if ( pairCount != NULL )
		*pairCount = p != NULL ? p->count : 0;
	return p != NULL ? (const uint32_t*)p->data : NULL;
}

const uint32_t* spWorld_GetPairs( spWorldId worldId, int* pairCount )
{
	return spPairsOf( worldId, 0, pairCount );
}

const uint32_t* spWorld_GetBeganPairs( spWorldId worldId, int* pairCount )
{
	return spPairsOf( worldId, 1, pairCount );
}

const uint32_t* spWorld_GetEndedPairs( spWorldId worldId, int* pairCount )
{
	return spPairsOf( worldId, 2, pairCount );
}

spResult spWorld_CopyPairs( spWorldId worldId, const uint32_t** pairs, int* pairCount )
{
	spWorld* w = spGetWorldPtr( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	if ( pairs == NULL || pairCount == NULL )
	{
		return sp_resultNullArgument;
	}
	const spPairArray* p = &w->pairs[w->current];
	if ( !w->pairsCopyValid )
	{
		if ( !spGrowWithRoom( (void**)&w->pairsCopy.data, &w->pairsCopy.capacity, p->count, sizeof( spPair ) ) )
		{
			return sp_resultOutOfMemory;
		}
		if ( p->count > 0 )
		{
			memcpy( w->pairsCopy.data, p->data, (size_t)p->count * sizeof( spPair ) );
		}
		w->pairsCopy.count = p->count;
		w->pairsCopyValid = 1;
	}
	*pairs = (const uint32_t*)w->pairsCopy.data;
	*pairCount = w->pairsCopy.count;
	return sp_resultOk;
}

spCounters spWorld_GetCounters( spWorldId worldId )
{
	spWorld* w = spGetWorldPtr( worldId );
	if ( w == NULL )
	{
		spCounters zero = { 0 };
		return zero;
	}
	return w->counters;
}

spResult spWorld_GetEndpoints( spWorldId worldId, int axis, const float** values, const uint32_t** refs, int* count )
{
	spWorld* w = spGetWorldPtr( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	if ( values == NULL || refs == NULL || count == NULL )
	{
		return sp_resultNullArgument;
	}
	if ( axis < 0 || axis >= w->dimensions )
	{
		return sp_resultInvalidDimensions;
	}
	spResult r = spUpdateEndpoints( w, axis );
	if ( r != sp_resultOk )
	{
		return r;
	}
	*values = w->endpoints[axis].values;
	*refs = w->endpoints[axis].refs;
	*count = w->endpoints[axis].count;
	return sp_resultOk;
}

/// The ms the world's updates spent in each phase so far (SP_PHASE_COUNT values, world.h), then the totals are
/// cleared. Returns the phase count, or 0 for an invalid world or a build without SP_PHASE_TIMES. For the
/// benchmark's threads workload; not in the public header.
int spTakePhaseTimes( spWorldId id, double* out );
int spTakePhaseTimes( spWorldId id, double* out )
{
#ifdef SP_PHASE_TIMES
	spWorld* w = spGetWorldPtr( id );
	if ( w == NULL )
		return 0;
	for ( int k = 0; k < SP_PHASE_COUNT; ++k )
	{
		out[k] = w->phaseTimes[k];
		w->phaseTimes[k] = 0.0;
	}
	return SP_PHASE_COUNT;
#else
	(void)id;
	(void)out;
	return 0;
#endif
}
