// SPDX-License-Identifier: MIT
// Sorted endpoint lists: every live box has exactly its two endpoints, in (value, min-before-max) order.
#include "world.h"
#include "test.h"

#include <string.h>

static int CheckEndpoints( spWorldId w, const Mirror* m, int axis )
{
	const float* values;
	const uint32_t* refs;
	int count;
	ENSURE_OK( spWorld_GetEndpoints( w, axis, &values, &refs, &count ) );
	ENSURE( count == 2 * m->count );
	int d = m->dimensions;
	int seen = 0;
	for ( int i = 0; i < count; ++i )
	{
		if ( i > 0 )
		{
			ENSURE( values[i - 1] <= values[i] );
			if ( values[i - 1] == values[i] )
				ENSURE( ( refs[i - 1] & 1u ) <= ( refs[i] & 1u ) );
		}
		uint32_t slot = refs[i] >> 1;
		int isMax = refs[i] & 1u;
		int found = 0;
		for ( int k = 0; k < m->count; ++k )
		{
			if ( spBoxId_Slot( ( spBoxId ){ m->ids[k] } ) == slot )
			{
				ENSURE( values[i] == m->bounds[(size_t)k * 2 * d + (size_t)isMax * d + axis] );
				found = 1;
			}
		}
		ENSURE( found );
		seen += isMax;
	}
	ENSURE( seen == m->count );
	return 0;
}

int EndpointsSorted( void )
{
	spWorldId w;
	spWorldDef def = spDefaultWorldDef();
	def.dimensions = 2;
	ENSURE_OK( spCreateWorld( &def, &w ) );
	Mirror m;
	MirrorInit( &m, 2 );
	Rng rng = { 5 };
	for ( int round = 0; round < 30; ++round )
	{
		for ( int i = 0; i < 20; ++i )
		{
			float x = RngFloat( &rng ) * 50, y = RngFloat( &rng ) * 50;
			float min[2] = { x, y }, max[2] = { x + RngFloat( &rng ) * 5, y + 2 };
			if ( i % 5 == 0 )
				max[0] = min[0]; // zero extent: min must come before max
			spBoxId id;
			ENSURE_OK( spWorld_AddBox( w, min, max, &id ) );
			MirrorAdd( &m, id.bits, min, max );
		}
		for ( int i = 0; i < 8 && m.count > 0; ++i )
		{
			uint32_t id = m.ids[RngInt( &rng, m.count )];
			ENSURE_OK( spWorld_RemoveBox( w, ( spBoxId ){ id } ) );
			MirrorRemove( &m, id );
		}
		for ( int i = 0; i < m.count; ++i )
		{
			float* b = m.bounds + (size_t)i * 4;
			float dx = RngFloat( &rng ) - 0.5f;
			b[0] += dx;
			b[2] += dx;
			ENSURE_OK( spWorld_SetBox( w, ( spBoxId ){ m.ids[i] }, b, b + 2 ) );
		}
		RUN_SUB( CheckEndpoints( w, &m, 0 ) );
		RUN_SUB( CheckEndpoints( w, &m, 1 ) );
	}
	// a still frame costs no swaps
	RUN_SUB( CheckEndpoints( w, &m, 0 ) );
	ENSURE( spWorld_GetCounters( w ).endpointSwaps == 0 );
	MirrorFree( &m );
	spDestroyWorld( w );
	return 0;
}
