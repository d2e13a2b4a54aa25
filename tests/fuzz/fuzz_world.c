// SPDX-License-Identifier: MIT
// libFuzzer harness: the input is a sequence of world operations (add, remove, set, write through the bounds
// view, filters, static, update, endpoints, queries, reserve, failed allocations), run against the brute-force
// oracle of tests/c/oracle.c. Any difference, any accepted stale id and any change made by a failing call aborts.
//
//   bash tests/fuzz/run.sh 600            # ten minutes, by hand
//   build/fuzz/fuzz_world crash-<sha1>    # replay a finding
#include "test.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define FUZZ_MAX_BOXES 256
#define FUZZ_STALE	   64

#define CHECK( c )                                                                                                     \
	do                                                                                                                 \
	{                                                                                                                  \
		if ( !( c ) )                                                                                                  \
		{                                                                                                              \
			fprintf( stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c );                                    \
			abort();                                                                                                   \
		}                                                                                                              \
	} while ( 0 )

typedef struct Input
{
	const uint8_t* data;
	size_t size, at;
} Input;

static uint8_t Byte( Input* in )
{
	return in->at < in->size ? in->data[in->at++] : 0;
}

static uint32_t Word( Input* in )
{
	uint32_t w = 0;
	for ( int i = 0; i < 4; ++i )
		w = w << 8 | Byte( in );
	return w;
}

// A coordinate: mostly a coarse lattice (so boxes touch, coincide and have zero extent), sometimes an extreme
// finite value, rarely NaN or infinity.
static float Coord( Input* in )
{
	static const float special[16] = { -0.0f, FLT_MAX, -FLT_MAX, FLT_TRUE_MIN, -FLT_TRUE_MIN, FLT_MIN,
									   1e30f, -1e30f,  1e-30f,	 16777216.0f,  -16777217.0f,  0.1f,
									   0.0f,  NAN,	   INFINITY, -INFINITY };
	uint8_t b = Byte( in );
	if ( b < 240 )
		return (float)( (int)b - 120 ) * 0.125f;
	return special[b - 240];
}

// The engine's validation rule, restated: non-finite beats inverted.
static spResult Classify( const float* b, int d )
{
	for ( int a = 0; a < 2 * d; ++a )
		if ( !isfinite( b[a] ) )
			return sp_resultInvalidBounds;
	for ( int a = 0; a < d; ++a )
		if ( b[a] > b[d + a] )
			return sp_resultInvertedBounds;
	return sp_resultOk;
}

typedef struct Copy
{
	int count[3];
	uint32_t* pairs[3];
} Copy;

static void TakeCopy( spWorldId w, Copy* c )
{
	const uint32_t* p[3] = { spWorld_GetPairs( w, &c->count[0] ), spWorld_GetBeganPairs( w, &c->count[1] ),
							 spWorld_GetEndedPairs( w, &c->count[2] ) };
	for ( int k = 0; k < 3; ++k )
	{
		c->pairs[k] = malloc( sizeof( uint32_t ) * 2 * (size_t)c->count[k] + 1 );
		if ( c->count[k] > 0 )
			memcpy( c->pairs[k], p[k], sizeof( uint32_t ) * 2 * (size_t)c->count[k] );
	}
}

static void CheckCopy( spWorldId w, const Copy* c )
{
	const uint32_t* p[3];
	int n[3];
	p[0] = spWorld_GetPairs( w, &n[0] );
	p[1] = spWorld_GetBeganPairs( w, &n[1] );
	p[2] = spWorld_GetEndedPairs( w, &n[2] );
	for ( int k = 0; k < 3; ++k )
	{
		CHECK( n[k] == c->count[k] );
		CHECK( n[k] == 0 || memcmp( p[k], c->pairs[k], sizeof( uint32_t ) * 2 * (size_t)n[k] ) == 0 );
	}
}

static void FreeCopy( Copy* c )
{
	for ( int k = 0; k < 3; ++k )
		free( c->pairs[k] );
}

// The bounds the world should hold for every live box, and the first invalid one in slot order if any.
static spResult ExpectedValidation( const Mirror* m, uint32_t* firstBad )
{
	spResult worst = sp_resultOk;
	*firstBad = 0;
	for ( int i = 0; i < m->count; ++i )
	{
		spResult r = Classify( m->bounds + (size_t)i * 2 * m->dimensions, m->dimensions );
		if ( r != sp_resultOk && ( *firstBad == 0 || m->ids[i] < *firstBad ) )
		{
			*firstBad = m->ids[i];
			worst = r;
		}
	}
	return worst;
}

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	Input in = { data, size, 0 };
	const int d = 1 + Byte( &in ) % SP_MAX_DIMENSIONS;
	testAllocator.keepFailing = 0;
	TestFailAt( -1 );
	spSetAllocator( TestRealloc );
	spWorldDef def = spDefaultWorldDef();
	def.dimensions = d;
	def.capacity = Byte( &in ) % 8;
	spWorldId w;
	CHECK( spCreateWorld( &def, &w ) == sp_resultOk );
	Mirror m;
	MirrorInit( &m, d );
	uint32_t stale[FUZZ_STALE] = { 0 };
	int staleCount = 0;
	uint32_t* prev = NULL;
	int prevCount = 0;
	int dirty = 1; // changed since the last successful update (queries see the last update)
	const int trace =
		getenv( "FUZZ_TRACE" ) != NULL; // FUZZ_TRACE=1 build/fuzz/fuzz_world crash-...: list the operations

	while ( in.at < in.size )
	{
		const uint8_t op = Byte( &in );
		// a failed allocation armed for this operation: it must report out of memory and change nothing
		const int failing = ( op & 0x80 ) != 0;
		// the pair lists before the operation, to check that failed calls and rejected updates keep them
		const int isUpdate = ( op & 0x0F ) >= 8 && ( op & 0x0F ) <= 10;
		Copy before = { { 0 }, { NULL } };
		if ( failing || isUpdate )
			TakeCopy( w, &before );
		const int boxesBefore = spWorld_GetBoxCount( w );
		if ( failing )
			TestFailAt( Byte( &in ) % 4 );
		spResult r = sp_resultOk;
		switch ( op & 0x0F )
		{
			case 0:
			case 1: // add
			{
				float b[2 * SP_MAX_DIMENSIONS];
				for ( int a = 0; a < d; ++a )
				{
					float x = Coord( &in ), y = Coord( &in );
					// op 0 sorts the two coordinates, op 1 keeps them as they came (may be inverted)
					b[a] = ( op & 0x0F ) == 0 && y < x ? y : x;
					b[d + a] = ( op & 0x0F ) == 0 && y < x ? x : y;
				}
				spBoxId id = { 0 };
				r = spWorld_AddBox( w, b, b + d, &id );
				spResult want = Classify( b, d );
				if ( want != sp_resultOk || m.count >= FUZZ_MAX_BOXES )
				{
					CHECK( r == want || ( want == sp_resultOk && ( r == sp_resultOk || r == sp_resultOutOfMemory ) ) );
					if ( r == sp_resultOk ) // over the harness's budget: take it out again
					{
						CHECK( spWorld_RemoveBox( w, id ) == sp_resultOk );
						stale[staleCount++ % FUZZ_STALE] = id.bits;
						dirty = 1;
					}
					break;
				}
				CHECK( r == sp_resultOk || r == sp_resultOutOfMemory );
				if ( r == sp_resultOk )
				{
					CHECK( id.bits != 0 && spWorld_IsBoxValid( w, id ) );
					for ( int i = 0; i < FUZZ_STALE; ++i )
						CHECK( stale[i] != id.bits ); // ids are never handed out twice
					MirrorAdd( &m, id.bits, b, b + d );
					dirty = 1;
				}
				break;
			}
			case 2: // remove a live box
			case 3: // remove a stale id or arbitrary bits
			{
				uint32_t id;
				if ( ( op & 0x0F ) == 2 && m.count > 0 )
					id = m.ids[Byte( &in ) % m.count];
				else if ( ( op & 0x10 ) && staleCount > 0 )
					id = stale[Byte( &in ) % ( staleCount < FUZZ_STALE ? staleCount : FUZZ_STALE )];
				else
					id = Word( &in );
				int live = MirrorFind( &m, id ) >= 0;
				r = spWorld_RemoveBox( w, ( spBoxId ){ id } );
				if ( live )
				{
					CHECK( r == sp_resultOk );
					MirrorRemove( &m, id );
					stale[staleCount++ % FUZZ_STALE] = id;
					dirty = 1;
				}
				else
				{
					CHECK( r == sp_resultStaleBox || r == sp_resultInvalidBox );
					for ( int i = 0; i < FUZZ_STALE; ++i )
						CHECK( stale[i] != id || id == 0 || r == sp_resultStaleBox );
				}
				break;
			}
			case 4: // set a live box (validated)
			{
				if ( m.count == 0 )
					break;
				int i = Byte( &in ) % m.count;
				float b[2 * SP_MAX_DIMENSIONS];
				for ( int a = 0; a < d; ++a )
				{
					float x = Coord( &in ), y = Coord( &in );
					b[a] = ( op & 0x10 ) == 0 && y < x ? y : x;
					b[d + a] = ( op & 0x10 ) == 0 && y < x ? x : y;
				}
				r = spWorld_SetBox( w, ( spBoxId ){ m.ids[i] }, b, b + d );
				CHECK( r == Classify( b, d ) );
				if ( r == sp_resultOk )
				{
					MirrorSet( &m, m.ids[i], b, b + d );
					dirty = 1;
				}
				break;
			}
			case 5: // write one coordinate through the bounds view (not validated until the update)
			{
				if ( m.count == 0 )
					break;
				int i = Byte( &in ) % m.count;
				int k = Byte( &in ) % ( 2 * d );
				float v = Coord( &in );
				int floats;
				float* view = spWorld_GetBounds( w, &floats );
				size_t at = (size_t)spBoxId_Slot( ( spBoxId ){ m.ids[i] } ) * 2 * d + (size_t)k;
				CHECK( view != NULL && at < (size_t)floats );
				view[at] = v;
				m.bounds[(size_t)i * 2 * d + (size_t)k] = v;
				dirty = 1;
				break;
			}
			case 6: // filter
			{
				if ( m.count == 0 )
					break;
				int i = Byte( &in ) % m.count;
				uint32_t category = 1u << ( Byte( &in ) % 4 ), mask = Byte( &in ) & 0x0F;
				if ( op & 0x10 )
					category = mask = 0xFFFFFFFFu;
				r = spWorld_SetBoxFilter( w, ( spBoxId ){ m.ids[i] }, category, mask );
				CHECK( r == sp_resultOk );
				m.categories[i] = category;
				m.masks[i] = mask;
				dirty = 1;
				break;
			}
			case 7: // static or moving
			{
				if ( m.count == 0 )
					break;
				int i = Byte( &in ) % m.count;
				bool isStatic = ( op & 0x10 ) != 0;
				r = spWorld_SetBoxStatic( w, ( spBoxId ){ m.ids[i] }, isStatic );
				CHECK( r == sp_resultOk );
				CHECK( spWorld_IsBoxStatic( w, ( spBoxId ){ m.ids[i] } ) == isStatic );
				m.statics[i] = isStatic;
				dirty = 1;
				break;
			}
			case 8:
			case 9:
			case 10: // update
			{
				uint32_t firstBad;
				spResult want = ExpectedValidation( &m, &firstBad );
				r = spWorld_Update( w );
				if ( want != sp_resultOk )
				{
					CHECK( r == sp_resultInvalidBounds || r == sp_resultInvertedBounds );
					uint32_t named = spWorld_GetLastInvalidBox( w ).bits;
					int i = MirrorFind( &m, named );
					CHECK( i >= 0 );
					CHECK( Classify( m.bounds + (size_t)i * 2 * d, d ) == r );
					CheckCopy( w, &before );
					break;
				}
				CHECK( r == sp_resultOk || r == sp_resultOutOfMemory );
				if ( r == sp_resultOk )
				{
					CHECK( spWorld_GetLastInvalidBox( w ).bits == 0 );
					CHECK( CheckWorld( w, &m, &prev, &prevCount ) == 0 );
					CHECK( spWorld_GetCounters( w ).boxes == m.count );
					dirty = 0;
				}
				break;
			}
			case 11: // endpoints of one axis
			{
				int axis = Byte( &in ) % ( d + 1 ); // d is out of range
				const float* values = NULL;
				const uint32_t* refs = NULL;
				int count = -1;
				uint32_t firstBad;
				spResult want = ExpectedValidation( &m, &firstBad );
				r = spWorld_GetEndpoints( w, axis, &values, &refs, &count );
				if ( axis == d )
				{
					CHECK( r == sp_resultInvalidDimensions && count == -1 );
					break;
				}
				if ( want != sp_resultOk )
				{
					CHECK( r == sp_resultInvalidBounds || r == sp_resultInvertedBounds );
					CHECK( count == -1 );
					break;
				}
				CHECK( r == sp_resultOk || r == sp_resultOutOfMemory );
				if ( r != sp_resultOk )
					break;
				CHECK( count == 2 * m.count );
				int maxes = 0;
				for ( int e = 0; e < count; ++e )
				{
					if ( e > 0 )
					{
						CHECK( values[e - 1] <= values[e] );
						CHECK( values[e - 1] < values[e] || ( refs[e - 1] & 1u ) <= ( refs[e] & 1u ) );
					}
					uint32_t slot = refs[e] >> 1;
					int found = 0;
					for ( int i = 0; i < m.count && !found; ++i )
					{
						if ( spBoxId_Slot( ( spBoxId ){ m.ids[i] } ) == slot )
						{
							CHECK( values[e] == m.bounds[(size_t)i * 2 * d + ( refs[e] & 1u ) * (size_t)d + axis] );
							found = 1;
						}
					}
					CHECK( found );
					maxes += (int)( refs[e] & 1u );
				}
				CHECK( maxes == m.count );
				break;
			}
			case 12: // region query, checked when the world is as it was at the last update
			{
				float b[2 * SP_MAX_DIMENSIONS];
				for ( int a = 0; a < d; ++a )
				{
					float x = Coord( &in ), y = Coord( &in );
					b[a] = y < x ? y : x;
					b[d + a] = y < x ? x : y;
				}
				uint32_t mask = ( op & 0x10 ) ? 0xFFFFFFFFu : Byte( &in ) & 0x0F;
				const uint32_t* ids = NULL;
				int count = -1;
				r = spWorld_QueryBox( w, b, b + d, mask, &ids, &count );
				if ( Classify( b, d ) != sp_resultOk )
				{
					CHECK( r == Classify( b, d ) );
					break;
				}
				CHECK( r == sp_resultOk || r == sp_resultOutOfMemory );
				if ( r != sp_resultOk || dirty )
					break;
				int want = 0;
				for ( int i = 0; i < m.count; ++i )
				{
					const float* mb = m.bounds + (size_t)i * 2 * d;
					int hit = ( m.categories[i] & mask ) != 0;
					for ( int a = 0; a < d && hit; ++a )
						hit = !( mb[a] > b[d + a] || b[a] > mb[d + a] );
					if ( !hit )
						continue;
					want += 1;
					int found = 0;
					for ( int k = 0; k < count && !found; ++k )
						found = ids[k] == m.ids[i];
					if ( !found )
					{
						fprintf( stderr, "query d=%d mask=%x:", d, mask );
						for ( int a = 0; a < 2 * d; ++a )
							fprintf( stderr, " %g", b[a] );
						fprintf( stderr, "\nmissing id %u static=%d cat=%x:", m.ids[i], m.statics[i], m.categories[i] );
						for ( int a = 0; a < 2 * d; ++a )
							fprintf( stderr, " %g", mb[a] );
						fprintf( stderr, "\ngot %d ids, boxes %d\n", count, m.count );
						for ( int j = 0; j < m.count; ++j )
						{
							fprintf( stderr, "  box %u static=%d cat=%x:", m.ids[j], m.statics[j], m.categories[j] );
							for ( int a = 0; a < 2 * d; ++a )
								fprintf( stderr, " %g", m.bounds[(size_t)j * 2 * d + a] );
							fprintf( stderr, "\n" );
						}
					}
					CHECK( found );
				}
				CHECK( count == want );
				for ( int k = 1; k < count; ++k )
					CHECK( ids[k - 1] < ids[k] );
				break;
			}
			case 13: // reserve
			{
				r = spWorld_Reserve( w, Byte( &in ) * 4 );
				CHECK( r == sp_resultOk || r == sp_resultOutOfMemory );
				break;
			}
			default: // no-op: lets the fuzzer pad
				break;
		}
		TestFailAt( -1 );
		if ( trace )
			fprintf( stderr, "op 0x%02x -> %s, %d boxes, dirty %d\n", op, spResultString( r ), m.count, dirty );
		if ( r == sp_resultOutOfMemory )
		{
			CHECK( failing );
			CheckCopy( w, &before );
			CHECK( spWorld_GetBoxCount( w ) == boxesBefore );
		}
		FreeCopy( &before );
		// the world and the mirror agree on which ids are live
		CHECK( spWorld_GetBoxCount( w ) == m.count );
		if ( ( op & 0x0F ) <= 3 )
		{
			for ( int i = 0; i < FUZZ_STALE; ++i )
				CHECK( stale[i] == 0 || !spWorld_IsBoxValid( w, ( spBoxId ){ stale[i] } ) );
		}
	}
	CHECK( spDestroyWorld( w ) == sp_resultOk );
	spSetAllocator( NULL );
	MirrorFree( &m );
	free( prev );
	return 0;
}
