// SPDX-License-Identifier: MIT
// Threads: the pool's API and its fork-join (every task run once, with or without workers).
#include "pool.h"
#include "pool_threads.h"
#include "test.h"

#include <string.h>

int PoolBadInput( void )
{
	spPool* pool = NULL;
	ENSURE( spCreatePool( 0, &pool ) == sp_resultCapacityExceeded && pool == NULL );
	ENSURE( spCreatePool( -1, &pool ) == sp_resultCapacityExceeded && pool == NULL );
	ENSURE( spCreatePool( SP_MAX_THREADS + 1, &pool ) == sp_resultCapacityExceeded && pool == NULL );
	ENSURE( spCreatePool( 2, NULL ) == sp_resultNullArgument );
	ENSURE( spWorld_SetPool( sp_nullWorldId, NULL ) == sp_resultInvalidWorld );
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
