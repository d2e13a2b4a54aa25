// SPDX-License-Identifier: MIT
// The thread pool: fork-join over task indices. A job's tasks are claimed one at a time through one atomic word
// (job number, task count, next task), by the workers and by the caller's thread alike, so a job never waits for a
// worker that has not started: the caller claims whatever is left. The caller then spins (it never blocks: a
// browser's main thread may not wait) until every claimed task has finished. Workers spin briefly between jobs
// (the jobs of one update follow each other closely), then sleep: memory.atomic.wait32 in wasm, a condition
// variable natively.
#include "pool.h"

#include <stdatomic.h>

#if defined( __wasm__ ) && defined( __wasm_atomics__ )
#define SP_POOL_WASM_WAIT 1
#elif defined( __wasm__ )
// wasm without atomics has no shared memory, so no workers: spPool_Work returns at once
#define SP_POOL_NO_WORKERS 1
#else
#define SP_POOL_PTHREAD 1
#include <pthread.h>
#include <sched.h>
#endif

// Polls of a worker between jobs before it sleeps, so that the jobs of one update, which follow each other within
// microseconds, find it awake; longer would take a core from other threads of a busy machine. Natively a poll is a
// pause (tens of ns); wasm has no pause, so more polls there (an atomic load each), and a wake from
// memory.atomic.wait costs tens of microseconds in browsers.
#if defined( __wasm__ )
#define SP_POOL_SPIN 50000
#else
#define SP_POOL_SPIN 4000
#endif

// Polls of the caller, waiting for the last tasks of a job, before it yields its core between polls (natively: a
// worker that was descheduled with a task claimed gets a core sooner on a busy machine).
#define SP_POOL_CALLER_SPIN 1000

struct spPool
{
	int threads;
	// The job: number (32 bits) << 32 | task count (16 bits) << 16 | next task to claim (16 bits). Claimed by a
	// compare-and-swap, so a worker late from an earlier job can never claim a task of a later one.
	_Atomic uint64_t claim;
	// Tasks of the job finished (each after its claim): the job is done at its task count.
	_Atomic int done;
	// The job number last published, what sleeping workers wait on.
	_Atomic uint32_t signal;
	_Atomic int stop;
	_Atomic int sleepers;
	_Atomic int running; // workers inside spPool_Work: a binding reports the threads that really share its updates
	_Atomic int busy;	 // a job is in progress: a second caller at once (two worlds updated on two threads) runs alone
	// Written by the caller before it publishes a job (release) and read by a worker after its claim (acquire).
	spTaskFcn* fcn;
	void* context;
	uint32_t job; // the caller's count of jobs
#if SP_POOL_PTHREAD
	pthread_mutex_t lock;
	pthread_cond_t wake;
#endif
};

static inline void spPause( void )
{
#if defined( __x86_64__ ) || defined( __i386__ )
	__builtin_ia32_pause();
#elif defined( __aarch64__ )
	__asm__ __volatile__( "yield" );
#endif
}

spResult spCreatePool( int threads, spPool** out )
{
	if ( out == NULL )
	{
		return sp_resultNullArgument;
	}
	if ( threads < 1 || threads > SP_MAX_THREADS )
	{
		return sp_resultCapacityExceeded;
	}
	spPool* pool = spRealloc( NULL, sizeof( spPool ) );
	if ( pool == NULL )
	{
		return sp_resultOutOfMemory;
	}
	memset( pool, 0, sizeof( *pool ) );
#if SP_POOL_PTHREAD
	if ( pthread_mutex_init( &pool->lock, NULL ) != 0 )
	{
		spFree( pool );
		return sp_resultOutOfMemory;
	}
	if ( pthread_cond_init( &pool->wake, NULL ) != 0 )
	{
		pthread_mutex_destroy( &pool->lock );
		spFree( pool );
		return sp_resultOutOfMemory;
	}
#endif
	pool->threads = threads;
	atomic_init( &pool->claim, 0 );
	atomic_init( &pool->done, 0 );
	atomic_init( &pool->signal, 0 );
	atomic_init( &pool->stop, 0 );
	atomic_init( &pool->sleepers, 0 );
	atomic_init( &pool->running, 0 );
	atomic_init( &pool->busy, 0 );
	*out = pool;
	return sp_resultOk;
}

void spDestroyPool( spPool* pool )
{
	if ( pool == NULL )
	{
		return;
	}
#if SP_POOL_PTHREAD
	pthread_cond_destroy( &pool->wake );
	pthread_mutex_destroy( &pool->lock );
#endif
	spFree( pool );
}

int spPoolThreads( const spPool* pool )
{
	return pool != NULL ? pool->threads : 1;
}

int spPool_GetRunningWorkerCount( spPool* pool )
{
	return pool != NULL ? atomic_load_explicit( &pool->running, memory_order_acquire ) : 0;
}

// Claim and run tasks of the job in `claim` until none is left (or the job is over).
static void spPoolHelp( spPool* pool )
{
	uint64_t w = atomic_load_explicit( &pool->claim, memory_order_acquire );
	for ( ;; )
	{
		const uint32_t next = (uint32_t)( w & 0xFFFFu ), count = (uint32_t)( w >> 16 ) & 0xFFFFu;
		if ( next >= count )
		{
			return;
		}
		if ( !atomic_compare_exchange_weak_explicit( &pool->claim, &w, w + 1u, memory_order_acq_rel,
													 memory_order_acquire ) )
		{
			continue;
		}
		// the claim holds the job open: its caller does not publish another before this task is done
		pool->fcn( pool->context, (int)next );
		atomic_fetch_add_explicit( &pool->done, 1, memory_order_release );
		w = atomic_load_explicit( &pool->claim, memory_order_acquire );
	}
}

// Wake every sleeping worker (after a new job number or the stop was stored).
static void spPoolWake( spPool* pool )
{
	// sequentially consistent with the workers' sleepers increment and signal check: either the worker sees the
	// new signal, or this sees the sleeper
	if ( atomic_load_explicit( &pool->sleepers, memory_order_seq_cst ) == 0 )
	{
		return;
	}
#if SP_POOL_WASM_WAIT
	__builtin_wasm_memory_atomic_notify( (int*)&pool->signal, (unsigned)-1 );
#elif SP_POOL_PTHREAD
	pthread_mutex_lock( &pool->lock );
	pthread_cond_broadcast( &pool->wake );
	pthread_mutex_unlock( &pool->lock );
#endif
}

void spPoolRun( spPool* pool, spTaskFcn* fcn, void* context, int taskCount )
{
	SP_ASSERT( taskCount >= 0 && taskCount <= SP_POOL_MAX_TASKS );
	if ( pool == NULL || pool->threads == 1 || taskCount <= 1 ||
		 atomic_exchange_explicit( &pool->busy, 1, memory_order_acquire ) != 0 )
	{
		for ( int t = 0; t < taskCount; ++t )
		{
			fcn( context, t );
		}
		return;
	}
	// every task of the last job has finished (spPoolRun returned after it), so nothing reads these now
	pool->fcn = fcn;
	pool->context = context;
	atomic_store_explicit( &pool->done, 0, memory_order_relaxed );
	pool->job += 1;
	atomic_store_explicit( &pool->claim, (uint64_t)pool->job << 32 | (uint64_t)taskCount << 16, memory_order_release );
	atomic_store_explicit( &pool->signal, pool->job, memory_order_seq_cst );
	spPoolWake( pool );
	spPoolHelp( pool );
	for ( int spins = 0; atomic_load_explicit( &pool->done, memory_order_acquire ) != taskCount; ++spins )
	{
#if SP_POOL_PTHREAD
		if ( spins >= SP_POOL_CALLER_SPIN )
		{
			sched_yield();
			continue;
		}
#endif
		spPause();
	}
	atomic_store_explicit( &pool->busy, 0, memory_order_release );
}

void spPool_Work( spPool* pool, int worker )
{
#if SP_POOL_NO_WORKERS
	(void)pool;
	(void)worker;
#else
	if ( pool == NULL || worker < 1 || worker >= pool->threads )
	{
		return;
	}
	atomic_fetch_add_explicit( &pool->running, 1, memory_order_acq_rel );
	uint32_t seen = 0;
	while ( !atomic_load_explicit( &pool->stop, memory_order_acquire ) )
	{
		const uint32_t now = atomic_load_explicit( &pool->signal, memory_order_acquire );
		if ( now != seen )
		{
			seen = now;
			spPoolHelp( pool );
			continue;
		}
		int spins = 0;
		while ( spins < SP_POOL_SPIN && atomic_load_explicit( &pool->signal, memory_order_acquire ) == seen &&
				!atomic_load_explicit( &pool->stop, memory_order_acquire ) )
		{
			spPause();
			spins += 1;
		}
		if ( spins < SP_POOL_SPIN )
		{
			continue;
		}
		atomic_fetch_add_explicit( &pool->sleepers, 1, memory_order_seq_cst );
#if SP_POOL_WASM_WAIT
		while ( atomic_load_explicit( &pool->signal, memory_order_seq_cst ) == seen &&
				!atomic_load_explicit( &pool->stop, memory_order_seq_cst ) )
		{
			__builtin_wasm_memory_atomic_wait32( (int*)&pool->signal, (int)seen, -1 );
		}
#else
		pthread_mutex_lock( &pool->lock );
		while ( atomic_load_explicit( &pool->signal, memory_order_seq_cst ) == seen &&
				!atomic_load_explicit( &pool->stop, memory_order_seq_cst ) )
		{
			pthread_cond_wait( &pool->wake, &pool->lock );
		}
		pthread_mutex_unlock( &pool->lock );
#endif
		atomic_fetch_sub_explicit( &pool->sleepers, 1, memory_order_seq_cst );
	}
	atomic_fetch_sub_explicit( &pool->running, 1, memory_order_acq_rel );
#endif
}

void spPool_Stop( spPool* pool )
{
	if ( pool == NULL )
	{
		return;
	}
	atomic_store_explicit( &pool->stop, 1, memory_order_seq_cst );
	// a worker between its signal check and its wait sees the stop or gets the notify
	atomic_fetch_add_explicit( &pool->signal, 1u, memory_order_seq_cst );
	spPoolWake( pool );
}
