// SPDX-License-Identifier: MIT
// Native threads for a pool (pool_threads.h).
#define _POSIX_C_SOURCE 200809L // nanosleep under -std=c11
#include "pool_threads.h"

#include <stdlib.h>

#if !defined( __EMSCRIPTEN__ ) && !defined( __wasm__ )
#define POOL_PTHREADS 1
#include <pthread.h>
#include <time.h>
#endif

struct PoolThreads
{
	spPool* pool;
	int started;
#if POOL_PTHREADS
	pthread_t threads[SP_MAX_THREADS];
	struct Worker
	{
		spPool* pool;
		int index;
	} workers[SP_MAX_THREADS];
#endif
};

#if POOL_PTHREADS
static void* RunWorker( void* arg )
{
	struct Worker* w = arg;
	spPool_Work( w->pool, w->index );
	return NULL;
}
#endif

PoolThreads* StartPool( int threads )
{
	PoolThreads* p = calloc( 1, sizeof( PoolThreads ) );
	if ( p == NULL )
		return NULL;
	if ( spCreatePool( threads, &p->pool ) != sp_resultOk )
	{
		free( p );
		return NULL;
	}
#if POOL_PTHREADS
	for ( int i = 1; i < threads; ++i )
	{
		p->workers[i] = ( struct Worker ){ p->pool, i };
		if ( pthread_create( &p->threads[i], NULL, RunWorker, &p->workers[i] ) != 0 )
			break;
		p->started = i;
	}
#endif
	return p;
}

spPool* PoolOf( PoolThreads* p )
{
	return p->pool;
}

int PoolWorkersStarted( PoolThreads* p )
{
	return p->started;
}

int WaitForRunningWorkers( PoolThreads* p, int n )
{
#if POOL_PTHREADS
	for ( int ms = 0; ms < 10000 && spPool_GetRunningWorkerCount( p->pool ) != n; ++ms )
	{
		nanosleep( &( struct timespec ){ 0, 1000000 }, NULL );
	}
#endif
	return spPool_GetRunningWorkerCount( p->pool ) == n;
}

void StopPool( PoolThreads* p )
{
	if ( p == NULL )
		return;
	spPool_Stop( p->pool );
#if POOL_PTHREADS
	for ( int i = 1; i <= p->started; ++i )
		pthread_join( p->threads[i], NULL );
#endif
	spDestroyPool( p->pool );
	free( p );
}
