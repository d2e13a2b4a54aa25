// SPDX-License-Identifier: MIT
// Threads: the pool's API and its fork-join (every task run once, with or without workers).
#include "pool.h"
#include "pool_threads.h"
#include "test.h"
#include "world.h"

#include <math.h>
#include <string.h>

int PoolBadInput( void )
{
	spPool* pool = NULL;
	ENSURE( spCreatePool( 0, &pool ) == sp_resultCapacityExceeded && pool == NULL );
	ENSURE( spCreatePool( -1, &pool ) == sp_resultCapacityExceeded && pool == NULL );
	ENSURE( spCreatePool( SP_MAX_THREADS + 1, &pool ) == sp_resultCapacityExceeded && pool == NULL );
	ENSURE( spCreatePool( 2, NULL ) == sp_resultNullArgument );
	ENSURE( spWorld_SetPool( sp_nullWorldId, NULL ) == sp_resultInvalidWorld );
	ENSURE( spWorld_SetParallelMinBoxes( sp_nullWorldId, 0 ) == sp_resultInvalidWorld );
	spWorldId world = TestWorld( 2 );
	ENSURE( spWorld_SetParallelMinBoxes( world, -1 ) == sp_resultCapacityExceeded );
	ENSURE( spGetWorldPtr( world )->parallel.minBoxes == SP_PARALLEL_MIN_BOXES );
	ENSURE_OK( spWorld_SetParallelMinBoxes( world, 0 ) );
	spDestroyWorld( world );
	// nothing to do for null, and for workers outside 1..threads-1
	spDestroyPool( NULL );
	spPool_Stop( NULL );
	spPool_Work( NULL, 1 );
	ENSURE_OK( spCreatePool( SP_MAX_THREADS, &pool ) );
	spPool_Work( pool, 0 );
	spPool_Work( pool, SP_MAX_THREADS );
	spDestroyPool( pool );
	ENSURE_OK( spCreatePool( 1, &pool ) );
	spPool_Work( pool, 1 );
	spDestroyPool( pool );
	return 0;
}

typedef struct Marks
{
	int runs[SP_POOL_MAX_TASKS];
} Marks;

static void Mark( void* context, int task )
{
	( (Marks*)context )->runs[task] += 1;
}

// Every task of many jobs of every size run exactly once.
static int RunJobs( spPool* pool, Marks* marks )
{
	static const int counts[] = { 0, 1, 2, 3, 7, 64, 1000, SP_POOL_MAX_TASKS };
	for ( int round = 0; round < 50; ++round )
	{
		for ( size_t c = 0; c < sizeof( counts ) / sizeof( counts[0] ); ++c )
		{
			const int n = counts[c];
			memset( marks->runs, 0, sizeof( int ) * (size_t)n );
			spPoolRun( pool, Mark, marks, n );
			for ( int t = 0; t < n; ++t )
				ENSURE( marks->runs[t] == 1 );
		}
	}
	return 0;
}

int PoolRunsEveryTaskOnce( void )
{
	Marks* marks = malloc( sizeof( Marks ) );
	ENSURE( marks != NULL );
	static const int threads[] = { 1, 2, 3, 8 };
	for ( size_t k = 0; k < sizeof( threads ) / sizeof( threads[0] ); ++k )
	{
		// workers running
		PoolThreads* p = StartPool( threads[k] );
		ENSURE( p != NULL );
		RUN_SUB( RunJobs( PoolOf( p ), marks ) );
		StopPool( p );
		// no worker ever started: the caller does every task
		spPool* idle = NULL;
		ENSURE_OK( spCreatePool( threads[k], &idle ) );
		RUN_SUB( RunJobs( idle, marks ) );
		// stopped workers: the same
		spPool_Stop( idle );
		RUN_SUB( RunJobs( idle, marks ) );
		spDestroyPool( idle );
	}
	RUN_SUB( RunJobs( NULL, marks ) );
	free( marks );
	return 0;
}

// The running count is what a binding reports as the threads sharing its updates: 0 until the workers enter
// spPool_Work, each of them once inside, 0 again after spPool_Stop.
int PoolCountsRunningWorkers( void )
{
	spPool* idle = NULL;
	ENSURE_OK( spCreatePool( 4, &idle ) );
	ENSURE( spPool_GetRunningWorkerCount( idle ) == 0 );
	spPool_Work( idle, 0 ); // not a worker's index: returns at once, never counted
	spPool_Work( idle, 4 );
	ENSURE( spPool_GetRunningWorkerCount( idle ) == 0 );
	spDestroyPool( idle );
	ENSURE( spPool_GetRunningWorkerCount( NULL ) == 0 );
	for ( int threads = 2; threads <= 8; threads *= 2 )
	{
		PoolThreads* p = StartPool( threads );
		ENSURE( p != NULL );
		const int started = PoolWorkersStarted( p );
		ENSURE( WaitForRunningWorkers( p, started ) );
		spPool_Stop( PoolOf( p ) );
		ENSURE( WaitForRunningWorkers( p, 0 ) );
		StopPool( p );
	}
	return 0;
}

// ---- updates spread over pools: the serial engine's results, byte for byte, and brute force's ----

enum
{
	TWIN_POOLS = 5 // 1, 2, 3 and 8 threads with workers, and 4 threads with none started
};

typedef struct Twins
{
	spWorldId serial;
	spWorldId pooled[TWIN_POOLS];
	PoolThreads* threads[TWIN_POOLS];
	spPool* idle;
	Mirror mirror;
	uint32_t* prev;
	int prevCount;
} Twins;

static int TwinsInit( Twins* t, int d )
{
	static const int threads[TWIN_POOLS - 1] = { 1, 2, 3, 8 };
	memset( t, 0, sizeof( *t ) );
	MirrorInit( &t->mirror, d );
	t->serial = TestWorld( d );
	ENSURE( t->serial.bits != 0 );
	ENSURE_OK( spCreatePool( 4, &t->idle ) );
	for ( int k = 0; k < TWIN_POOLS; ++k )
	{
		t->pooled[k] = TestWorld( d );
		ENSURE( t->pooled[k].bits != 0 );
		spPool* pool = t->idle;
		if ( k < TWIN_POOLS - 1 )
		{
			t->threads[k] = StartPool( threads[k] );
			ENSURE( t->threads[k] != NULL );
			pool = PoolOf( t->threads[k] );
		}
		ENSURE_OK( spWorld_SetPool( t->pooled[k], pool ) );
		// every update in parallel, however small, and one slab per task where there are enough
		ENSURE_OK( spWorld_SetParallelMinBoxes( t->pooled[k], 0 ) );
		spWorld* w = spGetWorldPtr( t->pooled[k] );
		w->parallel.tasksPerThread = 16;
		// the validation's statistics by chunks of 64 slots, as in the serial world
		w->parallel.statsChunk = 64;
	}
	spGetWorldPtr( t->serial )->parallel.statsChunk = 64;
	return 0;
}

static void TwinsFree( Twins* t )
{
	spDestroyWorld( t->serial );
	for ( int k = 0; k < TWIN_POOLS; ++k )
	{
		spDestroyWorld( t->pooled[k] );
		StopPool( t->threads[k] );
	}
	spDestroyPool( t->idle );
	MirrorFree( &t->mirror );
	free( t->prev );
}

static int TwinsAdd( Twins* t, const float* min, const float* max )
{
	spBoxId id;
	ENSURE_OK( spWorld_AddBox( t->serial, min, max, &id ) );
	for ( int k = 0; k < TWIN_POOLS; ++k )
	{
		spBoxId other;
		ENSURE_OK( spWorld_AddBox( t->pooled[k], min, max, &other ) );
		ENSURE( other.bits == id.bits );
	}
	MirrorAdd( &t->mirror, id.bits, min, max );
	return 0;
}

static int TwinsSet( Twins* t, int i, const float* min, const float* max )
{
	const spBoxId id = { t->mirror.ids[i] };
	ENSURE_OK( spWorld_SetBox( t->serial, id, min, max ) );
	for ( int k = 0; k < TWIN_POOLS; ++k )
		ENSURE_OK( spWorld_SetBox( t->pooled[k], id, min, max ) );
	MirrorSet( &t->mirror, id.bits, min, max );
	return 0;
}

static int TwinsRemove( Twins* t, int i )
{
	const spBoxId id = { t->mirror.ids[i] };
	ENSURE_OK( spWorld_RemoveBox( t->serial, id ) );
	for ( int k = 0; k < TWIN_POOLS; ++k )
		ENSURE_OK( spWorld_RemoveBox( t->pooled[k], id ) );
	MirrorRemove( &t->mirror, id.bits );
	return 0;
}

static int TwinsStatic( Twins* t, int i, bool isStatic )
{
	const spBoxId id = { t->mirror.ids[i] };
	for ( int k = 0; k < TWIN_POOLS; ++k )
		ENSURE_OK( spWorld_SetBoxStatic( t->pooled[k], id, isStatic ) );
	return SetMirrorBoxStatic( t->serial, &t->mirror, i, isStatic );
}

static int TwinsFilter( Twins* t, int i, uint32_t category, uint32_t mask )
{
	const spBoxId id = { t->mirror.ids[i] };
	ENSURE_OK( spWorld_SetBoxFilter( t->serial, id, category, mask ) );
	for ( int k = 0; k < TWIN_POOLS; ++k )
		ENSURE_OK( spWorld_SetBoxFilter( t->pooled[k], id, category, mask ) );
	t->mirror.categories[i] = category;
	t->mirror.masks[i] = mask;
	return 0;
}

static int SameList( const uint32_t* a, int na, const uint32_t* b, int nb, const char* what, int k )
{
	if ( na != nb || ( na > 0 && memcmp( a, b, sizeof( uint32_t ) * 2 * (size_t)na ) != 0 ) )
	{
		fprintf( stderr, "pool %d: %s differ from the serial world's (%d and %d pairs)\n", k, what, na, nb );
		return 1;
	}
	return 0;
}

// A NaN written through the bounds array of every world into box i's min: every update fails alike, naming the box;
// then the box is written back.
static int TwinsRejectNaN( Twins* t, int i )
{
	const int d = t->mirror.dimensions;
	const uint32_t slot = t->mirror.ids[i] >> SP_GENERATION_BITS;
	spWorldId worlds[TWIN_POOLS + 1];
	worlds[0] = t->serial;
	memcpy( worlds + 1, t->pooled, sizeof( t->pooled ) );
	for ( int k = 0; k <= TWIN_POOLS; ++k )
	{
		int floats;
		float* b = spWorld_GetBounds( worlds[k], &floats );
		const float keep = b[slot * 2 * d];
		b[slot * 2 * d] = NAN;
		ENSURE( spWorld_Update( worlds[k] ) == sp_resultInvalidBounds );
		ENSURE( spWorld_GetLastInvalidBox( worlds[k] ).bits == t->mirror.ids[i] );
		b[slot * 2 * d] = keep;
	}
	return 0;
}

// Update every world; the serial one against brute force, the pooled ones against the serial one byte for byte.
static int TwinsUpdate( Twins* t, bool events )
{
	ENSURE_OK( spWorld_Update( t->serial ) );
	if ( events )
		RUN_SUB( CheckWorld( t->serial, &t->mirror, &t->prev, &t->prevCount ) );
	else
		RUN_SUB( CheckWorldWithoutEvents( t->serial, &t->mirror, &t->prev, &t->prevCount ) );
	int n0, n1, n2;
	const uint32_t* pairs = spWorld_GetPairs( t->serial, &n0 );
	const uint32_t* began = spWorld_GetBeganPairs( t->serial, &n1 );
	const uint32_t* ended = spWorld_GetEndedPairs( t->serial, &n2 );
	const spCounters c = spWorld_GetCounters( t->serial );
	for ( int k = 0; k < TWIN_POOLS; ++k )
	{
		ENSURE_OK( spWorld_Update( t->pooled[k] ) );
		int m;
		const uint32_t* p = spWorld_GetPairs( t->pooled[k], &m );
		RUN_SUB( SameList( p, m, pairs, n0, "pairs", k ) );
		p = spWorld_GetBeganPairs( t->pooled[k], &m );
		RUN_SUB( SameList( p, m, began, n1, "began", k ) );
		p = spWorld_GetEndedPairs( t->pooled[k], &m );
		RUN_SUB( SameList( p, m, ended, n2, "ended", k ) );
		const spCounters pc = spWorld_GetCounters( t->pooled[k] );
		ENSURE( memcmp( &pc, &c, sizeof( c ) ) == 0 );
	}
	return 0;
}

typedef struct Scenario
{
	int d, n, frames;
	float size;	 // largest box extent as a fraction of the world (RandomBox)
	int dense;	 // every box in a thin band of the second axis: a few crowded slabs
	int huge;	 // one box over everything
	int churn;	 // boxes removed and added per frame
	int statics; // boxes switched between static and moving per frame
	int filters; // filters set per frame
	uint32_t seed;
	// every third update on the caller alone (its place pairs one list, the next update's its ranges' lists), and
	// every fifth without events
	int mixed;
} Scenario;

static void ScenarioBox( const Scenario* s, Rng* rng, float* min, float* max )
{
	RandomBox( rng, s->d, s->size, min, max );
	if ( s->dense && s->d > 1 )
	{
		const float c = 50.0f + RngFloat( rng ) * 2.0f;
		min[1] = c - 0.5f;
		max[1] = c + 0.5f;
	}
}

static int RunScenario( const Scenario* s )
{
	Twins t;
	RUN_SUB( TwinsInit( &t, s->d ) );
	Rng rng = { s->seed };
	float min[4], max[4];
	for ( int i = 0; i < s->n; ++i )
	{
		ScenarioBox( s, &rng, min, max );
		RUN_SUB( TwinsAdd( &t, min, max ) );
	}
	if ( s->huge )
	{
		for ( int a = 0; a < s->d; ++a )
		{
			min[a] = -10.0f;
			max[a] = 110.0f;
		}
		RUN_SUB( TwinsAdd( &t, min, max ) );
	}
	for ( int f = 0; f < s->frames; ++f )
	{
		// most frames coherent (the refresh and the carry); every seventh a teleport of half the boxes (a rebuild)
		const int teleport = f % 7 == 6;
		for ( int i = 0; i < t.mirror.count; ++i )
		{
			if ( teleport ? RngInt( &rng, 2 ) == 0 : RngInt( &rng, 4 ) != 0 )
			{
				const float* b = t.mirror.bounds + (size_t)i * 2 * s->d;
				if ( teleport )
				{
					ScenarioBox( s, &rng, min, max );
				}
				else
				{
					for ( int a = 0; a < s->d; ++a )
					{
						const float step = ( RngFloat( &rng ) - 0.5f ) * 1.5f;
						min[a] = b[a] + step;
						max[a] = b[s->d + a] + step;
					}
				}
				RUN_SUB( TwinsSet( &t, i, min, max ) );
			}
		}
		for ( int k = 0; k < s->churn && t.mirror.count > 1; ++k )
		{
			RUN_SUB( TwinsRemove( &t, RngInt( &rng, t.mirror.count ) ) );
			ScenarioBox( s, &rng, min, max );
			RUN_SUB( TwinsAdd( &t, min, max ) );
		}
		for ( int k = 0; k < s->statics; ++k )
		{
			const int i = RngInt( &rng, t.mirror.count );
			RUN_SUB( TwinsStatic( &t, i, !t.mirror.statics[i] ) );
		}
		for ( int k = 0; k < s->filters; ++k )
		{
			RUN_SUB( TwinsFilter( &t, RngInt( &rng, t.mirror.count ), 1u << RngInt( &rng, 3 ),
								  RngInt( &rng, 4 ) == 0 ? 0xFFFFFFFFu : 1u << RngInt( &rng, 3 ) ) );
		}
		if ( f == 3 && t.mirror.count > 0 )
			RUN_SUB( TwinsRejectNaN( &t, RngInt( &rng, t.mirror.count ) ) );
		const bool events = !s->mixed || f % 5 != 2;
		if ( s->mixed )
		{
			ENSURE_OK( spWorld_SetEvents( t.serial, events ) );
			for ( int k = 0; k < TWIN_POOLS; ++k )
			{
				ENSURE_OK( spWorld_SetEvents( t.pooled[k], events ) );
				ENSURE_OK( spWorld_SetParallelMinBoxes( t.pooled[k], f % 3 == 1 ? INT32_MAX : 0 ) );
			}
		}
		if ( TwinsUpdate( &t, events ) != 0 )
		{
			fprintf( stderr, "  scenario d=%d n=%d seed=%u, frame %d\n", s->d, s->n, s->seed, f );
			TwinsFree( &t );
			return 1;
		}
	}
	TwinsFree( &t );
	return 0;
}

int ThreadsMatchSerialAndBruteForce( void )
{
	static const Scenario scenarios[] = {
		// d, n, frames, size, dense, huge, churn, statics, filters, seed, mixed
		{ 2, 900, 16, 0.05f, 0, 0, 0, 0, 0, 1, 0 },	 // coherent motion and rebuilds
		{ 2, 900, 22, 0.05f, 0, 0, 2, 0, 0, 10, 1 }, // the same, some updates on the caller, some without events
		{ 2, 700, 14, 0.05f, 1, 0, 0, 0, 0, 2, 0 },	 // dense slabs
		{ 2, 600, 14, 0.04f, 0, 1, 6, 0, 0, 3, 0 },	 // one huge box, churn
		{ 2, 600, 14, 0.05f, 0, 0, 3, 4, 0, 4, 0 },	 // static boxes
		{ 2, 600, 14, 0.05f, 0, 0, 2, 2, 8, 5, 0 },	 // filters
		{ 3, 700, 12, 0.08f, 0, 1, 3, 2, 2, 6, 0 },	 // 3D, everything
		{ 1, 400, 10, 0.01f, 0, 0, 3, 2, 2, 7, 0 },	 // 1D (one slab)
		{ 4, 500, 10, 0.12f, 0, 0, 3, 2, 2, 8, 0 },	 // 4D
		{ 2, 40, 10, 0.2f, 0, 0, 3, 1, 1, 9, 0 },	 // tiny
	};
	for ( size_t k = 0; k < sizeof( scenarios ) / sizeof( scenarios[0] ); ++k )
		RUN_SUB( RunScenario( &scenarios[k] ) );
	return 0;
}

// Past 2^18 slots the pairs are sorted by id in blocks of slots, and a pool sorts the blocks at once: a world of that
// many slots (two thirds of them freed again, so that it stays quick under ThreadSanitizer), too large for brute
// force, on pools of 2 and 3 threads, against the serial world after every update.
int ThreadsLargeSceneMatchesSerial( void )
{
	enum
	{
		slots = 270000,
		n = slots / 3,
		pooled = 2
	};
	spWorldId serial = TestWorld( 2 ), worlds[pooled];
	PoolThreads* pools[pooled];
	for ( int k = 0; k < pooled; ++k )
	{
		worlds[k] = TestWorld( 2 );
		pools[k] = StartPool( 2 + k );
		ENSURE( pools[k] != NULL );
		ENSURE_OK( spWorld_SetPool( worlds[k], PoolOf( pools[k] ) ) );
	}
	float* bounds = malloc( sizeof( float ) * 4 * slots );
	spBoxId* ids = malloc( sizeof( spBoxId ) * slots );
	ENSURE( bounds != NULL && ids != NULL );
	Rng rng = { 77 };
	// side 750, boxes up to 4 wide: about one and a half pairs per box that stays
	for ( int i = 0; i < slots; ++i )
	{
		for ( int a = 0; a < 2; ++a )
		{
			const float c = RngFloat( &rng ) * 750.0f, h = RngFloat( &rng ) * 2.0f;
			bounds[4 * i + a] = c - h;
			bounds[4 * i + 2 + a] = c + h;
		}
	}
	spWorldId all[pooled + 1] = { serial };
	memcpy( all + 1, worlds, sizeof( worlds ) );
	for ( int k = 0; k <= pooled; ++k )
	{
		ENSURE_OK( spWorld_AddBoxes( all[k], bounds, slots, ids ) );
		for ( int i = 0; i < slots; ++i )
			if ( i % 3 != 0 )
				ENSURE_OK( spWorld_RemoveBox( all[k], ids[i] ) );
	}
	// the boxes that stay, packed
	for ( int i = 0; i < n; ++i )
	{
		ids[i] = ids[3 * i];
		memmove( bounds + 4 * i, bounds + 12 * i, sizeof( float ) * 4 );
	}
	for ( int f = 0; f < 3; ++f )
	{
		// a coherent step, or on the second frame a teleport of a third of the boxes (a rebuild, pairs sorted by id)
		for ( int i = 0; i < n; ++i )
		{
			float* b = bounds + 4 * i;
			if ( f == 1 && RngInt( &rng, 3 ) == 0 )
			{
				const float dx = ( RngFloat( &rng ) - 0.5f ) * 300.0f, dy = ( RngFloat( &rng ) - 0.5f ) * 300.0f;
				b[0] += dx, b[2] += dx, b[1] += dy, b[3] += dy;
			}
			else
			{
				const float step = ( RngFloat( &rng ) - 0.5f ) * 0.5f;
				b[0] += step, b[2] += step;
			}
		}
		ENSURE_OK( spWorld_SetBoxes( serial, ids, bounds, n ) );
		ENSURE_OK( spWorld_Update( serial ) );
		int n0, n1, n2;
		const uint32_t* pairs = spWorld_GetPairs( serial, &n0 );
		const uint32_t* began = spWorld_GetBeganPairs( serial, &n1 );
		const uint32_t* ended = spWorld_GetEndedPairs( serial, &n2 );
		const spCounters c = spWorld_GetCounters( serial );
		// enough pairs for the sort by blocks (a quarter of the slots)
		ENSURE( n0 > slots / 4 );
		for ( int k = 0; k < pooled; ++k )
		{
			ENSURE_OK( spWorld_SetBoxes( worlds[k], ids, bounds, n ) );
			ENSURE_OK( spWorld_Update( worlds[k] ) );
			int m;
			const uint32_t* p = spWorld_GetPairs( worlds[k], &m );
			RUN_SUB( SameList( p, m, pairs, n0, "pairs", k ) );
			p = spWorld_GetBeganPairs( worlds[k], &m );
			RUN_SUB( SameList( p, m, began, n1, "began", k ) );
			p = spWorld_GetEndedPairs( worlds[k], &m );
			RUN_SUB( SameList( p, m, ended, n2, "ended", k ) );
			const spCounters pc = spWorld_GetCounters( worlds[k] );
			ENSURE( memcmp( &pc, &c, sizeof( c ) ) == 0 );
		}
	}
	for ( int k = 0; k < pooled; ++k )
	{
		spDestroyWorld( worlds[k] );
		StopPool( pools[k] );
	}
	spDestroyWorld( serial );
	free( bounds );
	free( ids );
	return 0;
}

#if !defined( __EMSCRIPTEN__ ) && !defined( __wasm__ )
#include <pthread.h>
#define TWO_CALLERS 1
#endif

typedef struct Caller
{
	spWorldId world;
	float* bounds;
	int n, frames, failed;
} Caller;

// Frames of coherent motion on one world; the bounds of every frame derive from the frame number alone.
static void* RunCaller( void* arg )
{
	Caller* c = arg;
	for ( int f = 0; f < c->frames && !c->failed; ++f )
	{
		int floats;
		float* b = spWorld_GetBounds( c->world, &floats );
		for ( int i = 0; i < c->n; ++i )
		{
			const float step = (float)( ( i * 7 + f * 13 ) % 11 - 5 ) * 0.05f;
			for ( int k = 0; k < 4; ++k )
				b[4 * i + k] = c->bounds[4 * i + k] + ( k % 2 == 0 ? step : 0.0f );
		}
		c->failed |= spWorld_Update( c->world ) != sp_resultOk;
	}
	return NULL;
}

// One pool serving two worlds whose updates run at once on two threads: each gets the serial answer (the second
// caller of a busy pool runs its job alone).
int PoolSharedByTwoCallers( void )
{
	enum
	{
		n = 3000,
		worlds = 2
	};
	PoolThreads* pool = StartPool( 3 );
	ENSURE( pool != NULL );
	Caller callers[worlds], serial[worlds];
	for ( int k = 0; k < worlds; ++k )
	{
		Rng rng = { 100u + (uint32_t)k };
		float* bounds = malloc( sizeof( float ) * 4 * n );
		ENSURE( bounds != NULL );
		for ( int i = 0; i < n; ++i )
			RandomBox( &rng, 2, 0.03f, bounds + 4 * i, bounds + 4 * i + 2 );
		for ( int j = 0; j < 2; ++j )
		{
			Caller* c = j == 0 ? &callers[k] : &serial[k];
			*c = ( Caller ){ TestWorld( 2 ), bounds, n, 20, 0 };
			for ( int i = 0; i < n; ++i )
			{
				spBoxId id;
				ENSURE_OK( spWorld_AddBox( c->world, bounds + 4 * i, bounds + 4 * i + 2, &id ) );
			}
		}
		ENSURE_OK( spWorld_SetPool( callers[k].world, PoolOf( pool ) ) );
		spGetWorldPtr( callers[k].world )->parallel.minBoxes = 0;
		RunCaller( &serial[k] );
	}
#if TWO_CALLERS
	pthread_t thread;
	ENSURE( pthread_create( &thread, NULL, RunCaller, &callers[1] ) == 0 );
	RunCaller( &callers[0] );
	pthread_join( thread, NULL );
#else
	RunCaller( &callers[0] );
	RunCaller( &callers[1] );
#endif
	for ( int k = 0; k < worlds; ++k )
	{
		ENSURE( !callers[k].failed && !serial[k].failed );
		int m, ms;
		const uint32_t* p = spWorld_GetPairs( callers[k].world, &m );
		const uint32_t* q = spWorld_GetPairs( serial[k].world, &ms );
		RUN_SUB( SameList( p, m, q, ms, "pairs", k ) );
		spDestroyWorld( callers[k].world );
		spDestroyWorld( serial[k].world );
		free( callers[k].bounds );
	}
	StopPool( pool );
	return 0;
}
