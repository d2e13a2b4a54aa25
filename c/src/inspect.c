// SPDX-License-Identifier: MIT
// Read-only access to the engine's index, for callers that draw it (the demo page's slab view).
#include "index.h"
#include "world.h"

#include <math.h>

spResult spWorld_GetSlabs( spWorldId worldId, bool statics, spSlabs* slabs )
{
	spWorld* w = spGetWorldPtr( worldId );
	if ( w == NULL )
	{
		return sp_resultInvalidWorld;
	}
	if ( slabs == NULL )
	{
		return sp_resultNullArgument;
	}
	const spIndex* index = statics ? &w->staticIndex : &w->dynamicIndex;
	const bool empty = index->axis < 0 || index->entryCount == 0;
	slabs->sweepAxis = empty ? -1 : index->axis;
	slabs->slabAxis = empty || index->slabCount <= 1 ? -1 : index->slabAxis;
	slabs->slabCount = empty ? 0 : index->slabCount;
	slabs->entryCount = empty ? 0 : index->entryCount;
	slabs->floors = empty ? NULL : index->slabFloor;
	slabs->starts = empty ? NULL : index->slabStart;
	slabs->ids = empty ? NULL : index->ids;
	return sp_resultOk;
}
