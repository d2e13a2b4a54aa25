// SPDX-License-Identifier: MIT
// A snapshot of everything a user can observe of a world, for the tests that a failed call changes nothing.
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void* Dup( const void* p, size_t bytes )
{
	void* q = malloc( bytes + 1 );
	if ( p != NULL && bytes > 0 )
		memcpy( q, p, bytes );
	return q;
}

State Capture( spWorldId w, const uint32_t* ids, int idCount )
{
	State s;
	memset( &s, 0, sizeof( s ) );
	s.valid = spWorld_IsValid( w );
	s.dimensions = spWorld_GetDimensions( w );
	s.boxes = spWorld_GetBoxCount( w );
	s.byteCount = spWorld_GetByteCount( w );
	const float* b = spWorld_GetBounds( w, &s.floatCount );
	s.bounds = Dup( b, sizeof( float ) * (size_t)s.floatCount );
	const uint32_t* p[3];
	p[0] = spWorld_GetPairs( w, &s.pairCount[0] );
	p[1] = spWorld_GetBeganPairs( w, &s.pairCount[1] );
	p[2] = spWorld_GetEndedPairs( w, &s.pairCount[2] );
	for ( int k = 0; k < 3; ++k )
		s.pairs[k] = Dup( p[k], sizeof( uint32_t ) * 2 * (size_t)s.pairCount[k] );
	s.counters = spWorld_GetCounters( w );
	s.lastInvalid = spWorld_GetLastInvalidBox( w ).bits;
	s.idCount = idCount;
	s.ids = Dup( ids, sizeof( uint32_t ) * (size_t)idCount );
	s.idValid = calloc( (size_t)idCount + 1, sizeof( int ) );
	s.idResult = calloc( (size_t)idCount + 1, sizeof( int ) );
	s.idBounds = calloc( (size_t)idCount * 2 * SP_MAX_DIMENSIONS + 1, sizeof( float ) );
	for ( int i = 0; i < idCount; ++i )
	{
		spBoxId id = { ids[i] };
		s.idValid[i] = spWorld_IsBoxValid( w, id );
		float* out = s.idBounds + (size_t)i * 2 * SP_MAX_DIMENSIONS;
		s.idResult[i] = (int)spWorld_GetBox( w, id, out, out + SP_MAX_DIMENSIONS );
	}
	return s;
}

void Release( State* s )
{
	free( s->bounds );
	for ( int k = 0; k < 3; ++k )
		free( s->pairs[k] );
	free( s->ids );
	free( s->idValid );
	free( s->idResult );
	free( s->idBounds );
	memset( s, 0, sizeof( *s ) );
}

#define SAME_FIELD( c )                                                                                                \
	do                                                                                                                 \
	{                                                                                                                  \
		if ( !( c ) )                                                                                                  \
		{                                                                                                              \
			fprintf( stderr, "%s:%d: state changed: %s\n", __FILE__, line, #c );                                       \
			return 0;                                                                                                  \
		}                                                                                                              \
	} while ( 0 )

// A failed allocation may leave a scratch array larger than before (byte count); nothing else may change.
int SameStateAt( const State* x, const State* y, int line, int checkBytes )
{
	SAME_FIELD( x->valid == y->valid && x->dimensions == y->dimensions && x->boxes == y->boxes );
	SAME_FIELD( !checkBytes || x->byteCount == y->byteCount );
	SAME_FIELD( x->floatCount == y->floatCount );
	SAME_FIELD( memcmp( x->bounds, y->bounds, sizeof( float ) * (size_t)x->floatCount ) == 0 );
	for ( int k = 0; k < 3; ++k )
	{
		SAME_FIELD( x->pairCount[k] == y->pairCount[k] );
		SAME_FIELD( memcmp( x->pairs[k], y->pairs[k], sizeof( uint32_t ) * 2 * (size_t)x->pairCount[k] ) == 0 );
	}
	SAME_FIELD( memcmp( &x->counters, &y->counters, sizeof( spCounters ) ) == 0 );
	SAME_FIELD( x->lastInvalid == y->lastInvalid );
	SAME_FIELD( x->idCount == y->idCount );
	for ( int i = 0; i < x->idCount; ++i )
	{
		SAME_FIELD( x->idValid[i] == y->idValid[i] && x->idResult[i] == y->idResult[i] );
		SAME_FIELD( memcmp( x->idBounds + i * 2 * SP_MAX_DIMENSIONS, y->idBounds + i * 2 * SP_MAX_DIMENSIONS,
							sizeof( float ) * 2 * SP_MAX_DIMENSIONS ) == 0 );
	}
	return 1;
}

// Capture the state after a call, compare it with `before` (unless `skip`), and release both.
int SameAfter( State* before, spWorldId w, const uint32_t* ids, int idCount, int skip, int line, int checkBytes )
{
	State after = Capture( w, ids, idCount );
	int same = skip || SameStateAt( before, &after, line, checkBytes );
	Release( before );
	Release( &after );
	return same;
}

int SameAsNow( const State* before, spWorldId w, const uint32_t* ids, int idCount, int line, int checkBytes )
{
	State now = Capture( w, ids, idCount );
	int same = SameStateAt( before, &now, line, checkBytes );
	Release( &now );
	return same;
}
