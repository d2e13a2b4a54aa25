// SPDX-License-Identifier: MIT
// The parallel fraction of an update, for a model of more cores than this machine has: a world with a pool of 2
// threads whose worker never starts, so the caller runs every task itself, and the thread CPU time spent inside the
// pool's jobs (spPoolRun) against the whole update's, with the jobs an update starts. Thread CPU time is not
// stretched by other work on the machine, so the fraction holds on a busy one. Then the cost of a job itself (waking
// the workers, claiming the tasks, waiting for the last one), timed on a pool whose worker runs, for empty jobs back
// to back (as within an update) and after a pause (as the first of an update). The model: an update of T ms on one
// thread, a share p of it in J jobs, takes T (1 - p) + T p / N + J c on N cores, c a job's cost; the gathers, the
// memory bandwidth and the wait for the slowest task are not in it, so it is an upper bound on what threads gain.
// Built and run by tests/bench/parallel-fraction.sh.
#define _POSIX_C_SOURCE 200809L // nanosleep, clock_gettime under -std=gnu11
#include "pool_threads.h"
#include "sweep_prune/sweep_prune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

// the pool's spPoolRun, renamed, and a timed one in its place
#define spPoolRun spPoolRunUntimed
#include "../../c/src/pool.c"
#undef spPoolRun

static double sp_msInJobs;
static int sp_jobs;

static double spThreadMs( void )
{
	struct timespec t;
	clock_gettime( CLOCK_THREAD_CPUTIME_ID, &t );
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

void spPoolRun( spPool* pool, spTaskFcn* fcn, void* context, int taskCount );
void spPoolRun( spPool* pool, spTaskFcn* fcn, void* context, int taskCount )
{
	const double start = spThreadMs();
	spPoolRunUntimed( pool, fcn, context, taskCount );
	sp_msInJobs += spThreadMs() - start;
	sp_jobs += 1;
}

static double spWallMs( void )
{
	struct timespec t;
	clock_gettime( CLOCK_MONOTONIC, &t );
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

// A task that takes the given ms (spinning: it stands for work).
static void spTimedTask( void* context, int task )
{
	(void)task;
	const double end = spWallMs() + *(const double*)context;
	while ( spWallMs() < end )
	{
	}
}

// A job's cost in ms on a pool of 2 threads whose worker runs: its time less its tasks' (2 tasks of 20 us, which
// take 20 us on 2 threads), for jobs back to back, or each after a pause of `pauseMs` (the worker asleep by then),
// the median of `count`.
static double spJobCost( spPool* pool, double pauseMs, int count )
{
	const double taskMs = 0.02;
	double* t = malloc( sizeof( double ) * (size_t)count );
	for ( int k = 0; k < count; ++k )
	{
		if ( pauseMs > 0 )
		{
			const struct timespec pause = { 0, (long)( pauseMs * 1e6 ) };
			nanosleep( &pause, NULL );
		}
		const double start = spWallMs();
		spPoolRunUntimed( pool, spTimedTask, (void*)&taskMs, 2 );
		t[k] = spWallMs() - start - taskMs;
	}
	for ( int i = 1; i < count; ++i )
		for ( int j = i; j > 0 && t[j - 1] > t[j]; --j )
		{
			const double x = t[j];
			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	const double median = t[count / 2];
	free( t );
	return median;
}

// The jobs' cost on a pool whose worker runs: c for a job within an update (back to back), and for the first.
static double sp_jobMs, sp_firstJobMs;

static uint32_t sp_seed = 1;
static float spRandom( void )
{
	sp_seed = sp_seed * 1103515245u + 12345u;
	return (float)( sp_seed >> 8 ) / 16777216.0f;
}

// motion: boxes of sides 10 to 200, about 100 apart, moving up to 4 per frame (the benchmark's motion scene);
// teleport: every box to a new place each frame (a rebuild, the one-shot workload)
static void spMeasure( int n, int teleport )
{
	const float side = 100.0f * sqrtf( (float)n );
	spWorldDef def = spDefaultWorldDef();
	def.dimensions = 2;
	def.capacity = n;
	spWorldId world;
	spPool* pool;
	if ( spCreateWorld( &def, &world ) != sp_resultOk || spCreatePool( 2, &pool ) != sp_resultOk ||
		 spWorld_SetPool( world, pool ) != sp_resultOk )
	{
		exit( 1 );
	}
	float* boxes = malloc( sizeof( float ) * 4 * (size_t)n );
	float* velocity = malloc( sizeof( float ) * 2 * (size_t)n );
	spBoxId* ids = malloc( sizeof( spBoxId ) * (size_t)n );
	for ( int i = 0; i < n; ++i )
	{
		const float extent = 10.0f + 190.0f * spRandom();
		for ( int a = 0; a < 2; ++a )
		{
			boxes[4 * i + a] = spRandom() * side;
			boxes[4 * i + 2 + a] = boxes[4 * i + a] + extent;
			velocity[2 * i + a] = ( 2.0f * spRandom() - 1.0f ) * 4.0f;
		}
	}
	spWorld_AddBoxes( world, boxes, n, ids );
	spWorld_Update( world );
	const int frames = 10;
	double total = 0.0, jobs = 0.0;
	const int jobsBefore = sp_jobs;
	for ( int f = 0; f < frames; ++f )
	{
		int count = 0;
		float* bounds = spWorld_GetBounds( world, &count );
		for ( int i = 0; i < n; ++i )
		{
			for ( int a = 0; a < 2; ++a )
			{
				const float d = teleport ? spRandom() * side - bounds[4 * i + a] : velocity[2 * i + a];
				bounds[4 * i + a] += d;
				bounds[4 * i + 2 + a] += d;
			}
		}
		const double inJobs = sp_msInJobs, start = spThreadMs();
		if ( spWorld_Update( world ) != sp_resultOk )
		{
			exit( 1 );
		}
		total += spThreadMs() - start;
		jobs += sp_msInJobs - inJobs;
	}
	const double p = jobs / total, t1 = total / frames;
	const int perUpdate = ( sp_jobs - jobsBefore ) / frames;
	// the model on N cores: the serial part, the jobs' share over N, and each job's cost (the first one's apart)
	double model[5];
	for ( int k = 0; k < 5; ++k )
	{
		const double cores = (double)( 1 << k );
		const double sync = k == 0 ? 0.0 : sp_firstJobMs + ( perUpdate - 1 ) * sp_jobMs;
		model[k] = t1 / ( t1 * ( 1.0 - p ) + t1 * p / cores + sync );
	}
	printf( "%-8s n=%-8d %7.2f ms per update, %5.1f%% in %d parallel jobs; model: 2 cores %.2fx, 4 %.2fx, 8 %.2fx, "
			"16 %.2fx (Amdahl alone: 16 cores %.2fx)\n",
			teleport ? "one-shot" : "motion", n, t1, 100.0 * p, perUpdate, model[1], model[2], model[3], model[4],
			1.0 / ( 1.0 - p + p / 16.0 ) );
	spDestroyWorld( world );
	spDestroyPool( pool );
	free( boxes );
	free( velocity );
	free( ids );
}

int main( void )
{
	PoolThreads* threads = StartPool( 2 );
	if ( threads == NULL || !WaitForRunningWorkers( threads, 1 ) )
		exit( 1 );
	sp_jobMs = spJobCost( PoolOf( threads ), 0.0, 5001 );
	sp_firstJobMs = spJobCost( PoolOf( threads ), 2.0, 201 );
	StopPool( threads );
	printf( "a job's cost on 2 threads (its time less its tasks'): %.1f us back to back, %.1f us after 2 ms idle "
			"(medians)\n",
			1e3 * sp_jobMs, 1e3 * sp_firstJobMs );
	spMeasure( 100000, 0 );
	spMeasure( 1000000, 0 );
	spMeasure( 1000000, 1 );
	return 0;
}
