// SPDX-License-Identifier: MIT
// Updates without began and ended events (spWorld_SetEvents): the same pairs as brute force, no events, and
// events relative to the last update's pairs once switched back on.
#include "test.h"

#include <stdlib.h>

int EventsCanBeSwitchedOff( void )
{
	for ( int d = 1; d <= 3; ++d )
	{
		spWorldId w = TestWorld( d );
		Mirror m;
		MirrorInit( &m, d );
		Rng rng = { 7u + (uint32_t)d };
		uint32_t* prev = NULL;
		int prevCount = 0;
		ENSURE( spWorld_SetEvents( sp_nullWorldId, false ) == sp_resultInvalidWorld );
		for ( int i = 0; i < 300; ++i )
		{
			ENSURE( AddRandomBox( w, &m, &rng, 0.08f ) != 0 );
		}
		bool events = true;
		for ( int step = 0; step < 120; ++step )
		{
			// events switched every few updates; some boxes static (pairs with static boxes take the sorted path
			// when events are on), some moved, some added and removed
			if ( RngInt( &rng, 4 ) == 0 )
			{
				events = !events;
				ENSURE_OK( spWorld_SetEvents( w, events ) );
			}
			int i = RngInt( &rng, m.count );
			RUN_SUB( SetMirrorBoxStatic( w, &m, i, RngInt( &rng, 3 ) == 0 ) );
			for ( int k = 0; k < m.count; ++k )
			{
				if ( m.statics[k] || RngInt( &rng, 2 ) )
					continue;
				float* b = m.bounds + (size_t)k * 2 * d;
				for ( int a = 0; a < d; ++a )
				{
					float dx = ( RngFloat( &rng ) - 0.5f ) * 0.5f;
					b[a] += dx;
					b[d + a] += dx;
				}
				ENSURE_OK( spWorld_SetBox( w, ( spBoxId ){ m.ids[k] }, b, b + d ) );
			}
			if ( step % 10 == 5 )
			{
				uint32_t id = m.ids[RngInt( &rng, m.count )];
				ENSURE_OK( spWorld_RemoveBox( w, ( spBoxId ){ id } ) );
				MirrorRemove( &m, id );
				ENSURE( AddRandomBox( w, &m, &rng, 0.08f ) != 0 );
			}
			ENSURE_OK( spWorld_Update( w ) );
			if ( events )
			{
				RUN_SUB( CheckWorld( w, &m, &prev, &prevCount ) );
			}
			else
			{
				RUN_SUB( CheckWorldWithoutEvents( w, &m, &prev, &prevCount ) );
			}
		}
		free( prev );
		MirrorFree( &m );
		spDestroyWorld( w );
	}
	return 0;
}
