// SPDX-License-Identifier: MIT
// The parallel fraction of an update, for Amdahl's estimate on more cores than this machine has: a world with a pool
// of 2 threads whose worker never starts, so the caller runs every task itself, and the thread CPU time spent inside
// the pool's jobs (spPoolRun) against the whole update's. Thread CPU time is not stretched by other work on the
// machine, so the fraction holds on a busy one. It is an upper bound on what threads gain: the gathers, the memory
// bandwidth and the wait for the slowest task are not in it. Built and run by tests/bench/parallel-fraction.sh.
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
}

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
	const double p = jobs / total;
	printf( "%-8s n=%-8d %7.2f ms per update, %5.1f%% in parallel jobs; Amdahl: 2 cores %.2fx, 4 %.2fx, 8 %.2fx, "
			"16 %.2fx\n",
			teleport ? "one-shot" : "motion", n, total / frames, 100.0 * p, 1.0 / ( 1.0 - p + p / 2.0 ),
			1.0 / ( 1.0 - p + p / 4.0 ), 1.0 / ( 1.0 - p + p / 8.0 ), 1.0 / ( 1.0 - p + p / 16.0 ) );
	spDestroyWorld( world );
	spDestroyPool( pool );
	free( boxes );
	free( velocity );
	free( ids );
}

int main( void )
{
	spMeasure( 100000, 0 );
	spMeasure( 1000000, 0 );
	spMeasure( 1000000, 1 );
	return 0;
}
