// SPDX-License-Identifier: MIT
// The default allocator's kept blocks (c/src/keep.c): repeated cold starts touch no fresh memory, worlds made on
// reused blocks find brute force's pairs, spTrimMemory and spSetAllocator give the blocks back, and worlds on two
// threads share the blocks.
#include "core.h"
#include "test.h"

#include <string.h>

#if !defined( __EMSCRIPTEN__ ) && !defined( __wasm__ )
#define KEEP_PTHREADS 1
#include <pthread.h>
#endif

#if defined( __linux__ ) && !defined( __EMSCRIPTEN__ )
#include <sys/resource.h>
#define KEEP_FAULTS 1
#endif
#if defined( __SANITIZE_ADDRESS__ ) || defined( __SANITIZE_THREAD__ )
#define KEEP_SANITIZED 1
#elif defined( __has_feature )
#if __has_feature( address_sanitizer ) || __has_feature( thread_sanitizer )
#define KEEP_SANITIZED 1
#endif
#endif

// n boxes spread uniformly in d dimensions (a few overlaps each): mins then maxes per box
static float* Scene( int n, int d, uint32_t seed )
{
	Rng rng = { seed };
	float* b = malloc( sizeof( float ) * 2 * (size_t)d * (size_t)n );
	float side = 1000.0f, size = 6.0f;
	for ( int i = 0; i < n; ++i )
	{
		float* box = b + 2 * d * i;
		for ( int a = 0; a < d; ++a )
		{
			box[a] = RngFloat( &rng ) * side;
			box[d + a] = box[a] + RngFloat( &rng ) * size * ( d == 1 ? 0.01f : d == 2 ? 1.0f : 40.0f );
		}
	}
	return b;
}

// Add every box in one call, update, read the pairs.
static int Fill( spWorldId w, const float* bounds, int n, spBoxId* ids, int* pairCount )
{
	ENSURE_OK( spWorld_AddBoxes( w, bounds, n, ids ) );
	ENSURE_OK( spWorld_Update( w ) );
	ENSURE( spWorld_GetPairs( w, pairCount ) != NULL || *pairCount == 0 );
	return 0;
}

// A cold start: create, add every box in one call, update, read the pairs; destroyed unless out is given.
static int ColdStart( const float* bounds, int n, int d, spBoxId* ids, int* pairCount, spWorldId* out )
{
	spWorldDef def = spDefaultWorldDef();
	def.dimensions = d;
	spWorldId w;
	ENSURE_OK( spCreateWorld( &def, &w ) );
	RUN_SUB( Fill( w, bounds, n, ids, pairCount ) );
	if ( out != NULL )
	{
		*out = w;
		return 0;
	}
	ENSURE_OK( spDestroyWorld( w ) );
	return 0;
}

#if defined( KEEP_FAULTS ) && !defined( KEEP_SANITIZED ) && SP_KEEP_BLOCKS
#define KEEP_COUNT_FAULTS 1
static long MinorFaults( void )
{
	struct rusage u;
	return getrusage( RUSAGE_SELF, &u ) == 0 ? u.ru_minflt : -1;
}
#endif

int ColdStartsFaultInNoFreshMemory( void )
{
#ifndef KEEP_COUNT_FAULTS
	// no minor fault count (wasm, other systems), or a sanitizer's allocator and shadow memory count instead
	printf( "skipped: no fault count here, or a sanitizer's allocator (cold_starts_fault_in_no_fresh_memory)\n" );
	return 0;
#else
	enum
	{
		sizes = 2,
		rounds = 4
	};
	const int n[sizes] = { 10000, 100000 };
	float* bounds[sizes];
	for ( int s = 0; s < sizes; ++s )
		bounds[s] = Scene( n[s], 2, 7u + (uint32_t)s );
	spBoxId* ids = malloc( sizeof( spBoxId ) * 100000 );
	int pairs[sizes] = { 0 };
	// warm-up: the first cold starts fault in the blocks, which are kept from then on
	for ( int s = 0; s < 2 * sizes; ++s )
		RUN_SUB( ColdStart( bounds[s % sizes], n[s % sizes], 2, ids, &pairs[s % sizes], NULL ) );
	long kept = 0, trimmed = 0;
	for ( int r = 0; r < rounds; ++r )
	{
		for ( int s = 0; s < sizes; ++s )
		{
			int count = -1;
			long before = MinorFaults();
			RUN_SUB( ColdStart( bounds[s], n[s], 2, ids, &count, NULL ) );
			kept += MinorFaults() - before;
			ENSURE( count == pairs[s] );
		}
	}
	// the same cold starts with the blocks given back after each: every one faults its pages in again
	for ( int s = 0; s < sizes; ++s )
	{
		int count = -1;
		spTrimMemory();
		long before = MinorFaults();
		RUN_SUB( ColdStart( bounds[s], n[s], 2, ids, &count, NULL ) );
		spTrimMemory();
		trimmed += MinorFaults() - before;
	}
	printf( "minor faults per cold start (10k and 100k boxes): %.1f with kept blocks, %.1f with none kept\n",
			(double)kept / ( rounds * sizes ), (double)trimmed / sizes );
	// Kept blocks hold every array of 32 KiB or more, and malloc's heap keeps the smaller ones: none should fault in
	// again. A few a cold start are allowed (the stack, a heap that malloc trimmed); without kept blocks a cold
	// start faults in hundreds (10k boxes) to thousands (100k) of pages.
	ENSURE( kept <= 8 * rounds * sizes );
	ENSURE( trimmed > 100 * sizes );
	for ( int s = 0; s < sizes; ++s )
		free( bounds[s] );
	free( ids );
	spTrimMemory();
	return 0;
#endif
}

// One world of the sequence: made on the blocks its predecessors left, checked against brute force.
static int CheckedColdStart( int n, int d, uint32_t seed )
{
	float* bounds = Scene( n, d, seed );
	spBoxId* ids = malloc( sizeof( spBoxId ) * (size_t)n );
	spWorldId w;
	int count = 0;
	RUN_SUB( ColdStart( bounds, n, d, ids, &count, &w ) );
	Mirror m;
	MirrorInit( &m, d );
	for ( int i = 0; i < n; ++i )
		MirrorAdd( &m, ids[i].bits, bounds + 2 * d * i, bounds + 2 * d * i + d );
	uint32_t* prev = NULL;
	int prevCount = 0;
	int failed = CheckWorld( w, &m, &prev, &prevCount );
	if ( failed )
		fprintf( stderr, "world of %d boxes in %dD (seed %u)\n", n, d, seed );
	// a second update on the same blocks, the boxes moved
	for ( int i = 0; i < n && !failed; i += 3 )
	{
		float* box = bounds + 2 * d * i;
		for ( int a = 0; a < 2 * d; ++a )
			box[a] += 2.5f;
		ENSURE_OK( spWorld_SetBox( w, ids[i], box, box + d ) );
		MirrorSet( &m, ids[i].bits, box, box + d );
	}
	if ( !failed )
	{
		ENSURE_OK( spWorld_Update( w ) );
		failed = CheckWorld( w, &m, &prev, &prevCount );
	}
	uint32_t released = spGetReleaseCount();
	ENSURE_OK( spDestroyWorld( w ) );
	// kept or not, the destroyed world's blocks count as released (bindings drop their views on it)
	ENSURE( spGetReleaseCount() != released );
	free( prev );
	MirrorFree( &m );
	free( ids );
	free( bounds );
	return failed;
}

int ReusedBlocksMatchBruteForce( void )
{
	spTrimMemory();
	ENSURE( spTrimMemory() == 0 );
	// larger and smaller worlds of every dimension count after one another, each on the blocks of the ones before
	const int n[] = { 6000, 1500, 4000, 6000, 2500, 5000, 800, 6000 };
	for ( int k = 0; k < 8; ++k )
	{
		RUN_SUB( CheckedColdStart( n[k], 1 + k % SP_MAX_DIMENSIONS, 100u + (uint32_t)k ) );
		if ( k == 4 )
		{
			// a trim in the middle: the next worlds start from fresh blocks again
			size_t trimmed = spTrimMemory();
			ENSURE( SP_KEEP_BLOCKS ? trimmed > 0 : trimmed == 0 );
			ENSURE( spTrimMemory() == 0 );
		}
	}
	// another allocator takes over: the kept blocks are freed, and that allocator's blocks are never kept
	RUN_SUB( CheckedColdStart( 5000, 2, 1u ) );
	spSetAllocator( TestRealloc );
	ENSURE( spTrimMemory() == 0 );
	testAllocator.count = 0;
	RUN_SUB( CheckedColdStart( 5000, 2, 2u ) );
	ENSURE( testAllocator.count > 0 );
	ENSURE( spTrimMemory() == 0 );
	spSetAllocator( NULL );
	RUN_SUB( CheckedColdStart( 5000, 3, 3u ) );
	ENSURE( SP_KEEP_BLOCKS ? spTrimMemory() > 0 : spTrimMemory() == 0 );
	return 0;
}

typedef struct KeepCaller
{
	int n;
	int d;
	uint32_t seed;
	float* bounds;
	uint32_t* want; // brute force's pairs, computed before the threads start
	int wantCount;
	spBoxId* ids;
	spWorldId world;
	int trim; // spTrimMemory after the update
	int failed;
} KeepCaller;

// One caller's world filled, updated and checked against the pairs found beforehand.
static void* RunKeepCaller( void* arg )
{
	KeepCaller* c = arg;
	int count = 0;
	c->failed = Fill( c->world, c->bounds, c->n, c->ids, &count );
	if ( !c->failed )
	{
		const uint32_t* got = spWorld_GetPairs( c->world, &count );
		c->failed = !SamePairSet( got, count, c->want, c->wantCount, "pairs on a thread" );
	}
	if ( c->trim )
		spTrimMemory(); // while the other thread takes and keeps blocks
	return NULL;
}

int ThreadsShareKeptBlocks( void )
{
	// two callers with worlds of different sizes and dimensions: each takes blocks the other kept
	KeepCaller callers[2] = { { .n = 5000, .d = 2, .seed = 1u }, { .n = 3000, .d = 3, .seed = 2u } };
	for ( int k = 0; k < 2; ++k )
	{
		KeepCaller* c = &callers[k];
		c->bounds = Scene( c->n, c->d, c->seed );
		// the ids a fresh world gives (the same in every world)
		c->ids = malloc( sizeof( spBoxId ) * (size_t)c->n );
		int count = 0;
		RUN_SUB( ColdStart( c->bounds, c->n, c->d, c->ids, &count, NULL ) );
		Mirror m;
		MirrorInit( &m, c->d );
		for ( int i = 0; i < c->n; ++i )
			MirrorAdd( &m, c->ids[i].bits, c->bounds + 2 * c->d * i, c->bounds + 2 * c->d * i + c->d );
		c->wantCount = BruteForcePairs( &m, &c->want );
		MirrorFree( &m );
	}
	// The registry is not thread-safe (sweep_prune.h, Threads): the worlds are created and destroyed here, between
	// rounds; their bulk adds and updates, which take, grow and keep blocks, run on two threads at once.
	for ( int r = 0; r < 6; ++r )
	{
		for ( int k = 0; k < 2; ++k )
		{
			spWorldDef def = spDefaultWorldDef();
			def.dimensions = callers[k].d;
			ENSURE_OK( spCreateWorld( &def, &callers[k].world ) );
			callers[k].trim = r == 3 && k == 0;
		}
#if KEEP_PTHREADS
		pthread_t thread;
		ENSURE( pthread_create( &thread, NULL, RunKeepCaller, &callers[1] ) == 0 );
		RunKeepCaller( &callers[0] );
		pthread_join( thread, NULL );
#else
		RunKeepCaller( &callers[1] );
		RunKeepCaller( &callers[0] );
#endif
		for ( int k = 0; k < 2; ++k )
		{
			ENSURE( callers[k].failed == 0 );
			ENSURE_OK( spDestroyWorld( callers[k].world ) );
		}
	}
	for ( int k = 0; k < 2; ++k )
	{
		free( callers[k].ids );
		free( callers[k].bounds );
		free( callers[k].want );
	}
	spTrimMemory();
	return 0;
}
