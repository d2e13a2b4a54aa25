// SPDX-License-Identifier: MIT
// The brute-force oracle and the mirror of a world's boxes. Independent of the engine's code.
#include "test.h"

#include <string.h>

void MirrorInit( Mirror* m, int dimensions )
{
	memset( m, 0, sizeof( *m ) );
	m->dimensions = dimensions;
}

void MirrorFree( Mirror* m )
{
	free( m->ids );
	free( m->bounds );
	free( m->categories );
	free( m->masks );
	free( m->statics );
	memset( m, 0, sizeof( *m ) );
}

void MirrorAdd( Mirror* m, uint32_t id, const float* min, const float* max )
{
	int d = m->dimensions;
	if ( m->count == m->capacity )
	{
		m->capacity = m->capacity ? 2 * m->capacity : 64;
		m->ids = realloc( m->ids, sizeof( uint32_t ) * (size_t)m->capacity );
		m->bounds = realloc( m->bounds, sizeof( float ) * 2 * (size_t)d * (size_t)m->capacity );
		m->categories = realloc( m->categories, sizeof( uint32_t ) * (size_t)m->capacity );
		m->masks = realloc( m->masks, sizeof( uint32_t ) * (size_t)m->capacity );
		m->statics = realloc( m->statics, (size_t)m->capacity );
	}
	m->ids[m->count] = id;
	m->categories[m->count] = 1u;
	m->masks[m->count] = 0xFFFFFFFFu;
	m->statics[m->count] = 0;
	memcpy( m->bounds + (size_t)m->count * 2 * d, min, sizeof( float ) * (size_t)d );
	memcpy( m->bounds + (size_t)m->count * 2 * d + d, max, sizeof( float ) * (size_t)d );
	m->count += 1;
}

int MirrorFind( const Mirror* m, uint32_t id )
{
	for ( int i = 0; i < m->count; ++i )
		if ( m->ids[i] == id )
			return i;
	return -1;
}

void MirrorSet( Mirror* m, uint32_t id, const float* min, const float* max )
{
	int i = MirrorFind( m, id );
	int d = m->dimensions;
	memcpy( m->bounds + (size_t)i * 2 * d, min, sizeof( float ) * (size_t)d );
	memcpy( m->bounds + (size_t)i * 2 * d + d, max, sizeof( float ) * (size_t)d );
}

void MirrorRemove( Mirror* m, uint32_t id )
{
	int i = MirrorFind( m, id );
	int d = m->dimensions;
	m->count -= 1;
	m->ids[i] = m->ids[m->count];
	m->categories[i] = m->categories[m->count];
	m->masks[i] = m->masks[m->count];
	m->statics[i] = m->statics[m->count];
	memcpy( m->bounds + (size_t)i * 2 * d, m->bounds + (size_t)m->count * 2 * d, sizeof( float ) * 2 * (size_t)d );
}

static int ComparePairs( const void* x, const void* y )
{
	const uint32_t* p = x;
	const uint32_t* q = y;
	if ( p[0] != q[0] )
		return p[0] < q[0] ? -1 : 1;
	if ( p[1] != q[1] )
		return p[1] < q[1] ? -1 : 1;
	return 0;
}

int MirrorPairs( const Mirror* m, int i, int j )
{
	int d = m->dimensions;
	const float* bi = m->bounds + (size_t)i * 2 * d;
	const float* bj = m->bounds + (size_t)j * 2 * d;
	for ( int a = 0; a < d; ++a )
	{
		if ( bi[a] > bj[d + a] || bj[a] > bi[d + a] )
			return 0;
	}
	if ( ( m->categories[i] & m->masks[j] ) == 0 || ( m->categories[j] & m->masks[i] ) == 0 )
		return 0;
	return !( m->statics[i] && m->statics[j] );
}

int BruteForcePairs( const Mirror* m, uint32_t** out )
{
	int cap = 64, n = 0;
	uint32_t* pairs = malloc( sizeof( uint32_t ) * 2 * (size_t)cap );
	for ( int i = 0; i < m->count; ++i )
	{
		for ( int j = i + 1; j < m->count; ++j )
		{
			if ( !MirrorPairs( m, i, j ) )
				continue;
			if ( n == cap )
			{
				cap *= 2;
				pairs = realloc( pairs, sizeof( uint32_t ) * 2 * (size_t)cap );
			}
			uint32_t a = m->ids[i], b = m->ids[j];
			pairs[2 * n] = a < b ? a : b;
			pairs[2 * n + 1] = a < b ? b : a;
			n += 1;
		}
	}
	qsort( pairs, (size_t)n, 2 * sizeof( uint32_t ), ComparePairs );
	*out = pairs;
	return n;
}

int SamePairs( const uint32_t* got, int gotCount, const uint32_t* want, int wantCount, const char* what )
{
	if ( gotCount != wantCount )
	{
		fprintf( stderr, "%s: %d pairs, brute force finds %d\n", what, gotCount, wantCount );
		return 0;
	}
	for ( int i = 0; i < 2 * gotCount; ++i )
	{
		if ( got[i] != want[i] )
		{
			fprintf( stderr, "%s: pair %d is (%u, %u), brute force says (%u, %u)\n", what, i / 2, got[i & ~1],
					 got[i | 1], want[i & ~1], want[i | 1] );
			return 0;
		}
	}
	return 1;
}

int SamePairSet( const uint32_t* got, int gotCount, const uint32_t* want, int wantCount, const char* what )
{
	for ( int i = 0; i < gotCount; ++i )
	{
		if ( !( got[2 * i] < got[2 * i + 1] ) )
		{
			fprintf( stderr, "%s: pair %d is (%u, %u), not lower id first\n", what, i, got[2 * i], got[2 * i + 1] );
			return 0;
		}
	}
	uint32_t* sorted = malloc( sizeof( uint32_t ) * 2 * (size_t)( gotCount + 1 ) );
	if ( gotCount > 0 )
	{
		memcpy( sorted, got, sizeof( uint32_t ) * 2 * (size_t)gotCount );
		qsort( sorted, (size_t)gotCount, 2 * sizeof( uint32_t ), ComparePairs );
	}
	const int ok = SamePairs( sorted, gotCount, want, wantCount, what );
	free( sorted );
	return ok;
}

int PairsMinus( const uint32_t* a, int aCount, const uint32_t* b, int bCount, uint32_t* out )
{
	int n = 0;
	for ( int i = 0; i < aCount; ++i )
	{
		// bsearch must not be given a null array, even with zero elements
		if ( bCount == 0 || bsearch( a + 2 * i, b, (size_t)bCount, 2 * sizeof( uint32_t ), ComparePairs ) == NULL )
		{
			out[2 * n] = a[2 * i];
			out[2 * n + 1] = a[2 * i + 1];
			n += 1;
		}
	}
	return n;
}

// CheckWorld, or for an update with events off (began and ended empty).
static int CheckUpdate( spWorldId world, const Mirror* m, bool events, uint32_t** prev, int* prevCount )
{
	uint32_t* want = NULL;
	int wantCount = BruteForcePairs( m, &want );
	int gotCount = 0;
	const uint32_t* got = spWorld_GetPairs( world, &gotCount );
	int ok = SamePairSet( got, gotCount, want, wantCount, events ? "pairs" : "pairs without events" );

	uint32_t* began = malloc( sizeof( uint32_t ) * 2 * (size_t)( wantCount + 1 ) );
	uint32_t* ended = malloc( sizeof( uint32_t ) * 2 * (size_t)( *prevCount + 1 ) );
	int beganCount = events ? PairsMinus( want, wantCount, *prev, *prevCount, began ) : 0;
	int endedCount = events ? PairsMinus( *prev, *prevCount, want, wantCount, ended ) : 0;
	if ( ok )
	{
		got = spWorld_GetBeganPairs( world, &gotCount );
		ok = SamePairs( got, gotCount, began, beganCount, "began" );
	}
	if ( ok )
	{
		got = spWorld_GetEndedPairs( world, &gotCount );
		ok = SamePairs( got, gotCount, ended, endedCount, "ended" );
	}
	free( began );
	free( ended );
	free( *prev );
	*prev = want;
	*prevCount = wantCount;
	return ok ? 0 : 1;
}

int CheckWorld( spWorldId world, const Mirror* m, uint32_t** prev, int* prevCount )
{
	return CheckUpdate( world, m, true, prev, prevCount );
}

int CheckWorldWithoutEvents( spWorldId world, const Mirror* m, uint32_t** prev, int* prevCount )
{
	return CheckUpdate( world, m, false, prev, prevCount );
}

void RandomBox( Rng* rng, int d, float size, float* min, float* max )
{
	for ( int a = 0; a < d; ++a )
	{
		float c = RngFloat( rng ) * 100.0f;
		float h = RngFloat( rng ) * size * 50.0f;
		min[a] = c - h;
		max[a] = c + h;
	}
}

int CompareU32( const void* x, const void* y )
{
	uint32_t a = *(const uint32_t*)x, b = *(const uint32_t*)y;
	return a < b ? -1 : a > b;
}

uint32_t AddRandomBox( spWorldId world, Mirror* m, Rng* rng, float size )
{
	float min[4], max[4];
	RandomBox( rng, m->dimensions, size, min, max );
	spBoxId id;
	if ( spWorld_AddBox( world, min, max, &id ) != sp_resultOk )
	{
		return 0;
	}
	MirrorAdd( m, id.bits, min, max );
	return id.bits;
}

int SetMirrorBoxStatic( spWorldId world, Mirror* m, int i, bool isStatic )
{
	ENSURE_OK( spWorld_SetBoxStatic( world, ( spBoxId ){ m->ids[i] }, isStatic ) );
	m->statics[i] = (uint8_t)isStatic;
	return 0;
}

spWorldId TestWorld( int dimensions )
{
	spWorldDef def = spDefaultWorldDef();
	def.dimensions = dimensions;
	spWorldId id = sp_nullWorldId;
	spCreateWorld( &def, &id );
	return id;
}

TestAllocator testAllocator = { 0, -1, 0 };

void* TestRealloc( void* p, size_t size )
{
	if ( size == 0 )
	{
		free( p );
		return NULL;
	}
	const int n = testAllocator.count++;
	const int failAt = testAllocator.failAt;
	if ( failAt >= 0 && ( n == failAt || ( testAllocator.keepFailing && n > failAt ) ) )
	{
		return NULL;
	}
	return realloc( p, size );
}

void TestFailAt( int k )
{
	testAllocator.count = 0;
	testAllocator.failAt = k;
}
