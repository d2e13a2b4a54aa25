// SPDX-License-Identifier: MIT
// The update's parallel-for: units cut into ranges (of equal size, or slabs of about equal entries), the ranges run
// on the world's pool with a record each, and the gathers of their outputs in range order. The phases' range
// functions are next to their loops (validate.c, refresh.c, build.c, sweep.c, pairs.c, update.c).
#include "parallel.h"

#include "pool.h"
#include "world.h"

#ifndef spParallelOn
bool spParallelOn( const spWorld* w )
{
	return w->pool != NULL && spPoolThreads( w->pool ) > 1 && w->orderCount >= w->parallel.minBoxes;
}
#endif

#if SP_PARALLEL
// Room for `count` records and their cut (count + 1 ints: the records get one more, unused, for one capacity).
// Returns false on allocation failure.
static bool spReserveTasks( spParallel* p, int count )
{
	const int was = p->taskCapacity;
	const spArray arrays[] = { { (void**)&p->tasks, sizeof( spTask ), 1 }, { (void**)&p->cut, sizeof( int ), 1 } };
	if ( !spGrowArrays( &p->taskCapacity, count + 1, arrays, 2 ) )
	{
		return false;
	}
	memset( p->tasks + was, 0, sizeof( spTask ) * (size_t)( p->taskCapacity - was ) );
	return true;
}

// The ranges to cut `units` into: `perThread` per thread (0: tasksPerThread, or 4), at most one a unit and
// SP_POOL_MAX_TASKS; 1 when the update runs on the caller or the records cannot be had.
static int spRangesWanted( spWorld* w, int units, int perThread )
{
	if ( !spParallelOn( w ) )
	{
		return 1;
	}
	const int tasksPerThread = w->parallel.tasksPerThread > 0 ? w->parallel.tasksPerThread : 4;
	int ranges = spPoolThreads( w->pool ) * ( perThread > 0 ? perThread : tasksPerThread );
	ranges = ranges > units ? units : ranges;
	ranges = ranges > SP_POOL_MAX_TASKS ? SP_POOL_MAX_TASKS : ranges;
	return ranges > 1 && spReserveTasks( &w->parallel, ranges ) ? ranges : 1;
}

// Make the last cut `ranges` ranges (their bounds already in cut, unless one) of `units` units.
static int spSetCut( spParallel* p, int ranges, int units )
{
	p->ranges = ranges;
	p->units = units;
	for ( int r = 0; r < ranges; ++r )
	{
		spRangeTask( p, r )->range = r;
	}
	return ranges;
}

int spCutUnits( spWorld* w, int count, int perThread )
{
	const int ranges = spRangesWanted( w, count, perThread );
	for ( int r = 0; ranges > 1 && r <= ranges; ++r )
	{
		w->parallel.cut[r] = (int)( (long long)count * r / ranges );
	}
	return spSetCut( &w->parallel, ranges, count );
}

int spCutByStarts( spWorld* w, const int* start, int units, int perThread )
{
	const int wanted = spRangesWanted( w, units, perThread );
	int* cut = w->parallel.cut;
	const long long items = wanted > 1 ? start[units] : 0;
	int r = 1;
	for ( int k = 1; wanted > 1 && k < units && r < wanted; ++k )
	{
		if ( start[k] >= items * r / wanted )
		{
			cut[r++] = k;
		}
	}
	if ( r > 1 )
	{
		cut[0] = 0;
		cut[r] = units;
	}
	return spSetCut( &w->parallel, r, units );
}

int spCutSlabs( spWorld* w, const spIndex* index )
{
	return spCutByStarts( w, index->slabStart, index->slabCount, 0 );
}

typedef struct spRun
{
	spParallel* parallel;
	spRangeFcn* fcn;
	void* context;
} spRun;

static void spRunTask( void* context, int r )
{
	const spRun* run = context;
	spTask* task = &run->parallel->tasks[r];
	task->failed = !run->fcn( run->parallel->cut[r], run->parallel->cut[r + 1], task, run->context );
}

bool spRunRanges( spWorld* w, spRangeFcn* fcn, void* context )
{
	spParallel* p = &w->parallel;
	if ( p->ranges == 1 )
	{
		return spOneRange( p, fcn, p->units, context );
	}
	bool ok = true;
	spRun run = { p, fcn, context };
	spPoolRun( w->pool, spRunTask, &run, p->ranges );
	for ( int r = 0; r < p->ranges; ++r )
	{
		ok &= !p->tasks[r].failed;
	}
	return ok;
}

bool spParallelFor( spWorld* w, spRangeFcn* fcn, int count, int perThread, void* context )
{
	spCutUnits( w, count, perThread );
	return spRunRanges( w, fcn, context );
}

bool spParallelForSlabs( spWorld* w, const spIndex* index, spRangeFcn* fcn, void* context )
{
	spCutSlabs( w, index );
	return spRunRanges( w, fcn, context );
}

typedef struct spGatherJob
{
	const spParallel* parallel;
	spPair* out;
} spGatherJob;

// Range r's pairs copied to their place in the gathered list (its first span)
static void spGatherTask( void* context, int r )
{
	const spGatherJob* job = context;
	const spTask* task = &job->parallel->tasks[r];
	if ( task->pairs.count > 0 )
	{
		memcpy( job->out + task->spans[0].at, task->pairs.data, sizeof( spPair ) * (size_t)task->pairs.count );
	}
}

bool spParallelPairs( spWorld* w, spRangeFcn* fcn, int count, const spIndex* slabs, spPairArray* out, void* context )
{
	spParallel* p = &w->parallel;
	const int ranges = slabs != NULL ? spCutSlabs( w, slabs ) : spCutUnits( w, count, 0 );
	if ( ranges == 1 )
	{
		return spOneRangePairs( p, fcn, p->units, out, context );
	}
	for ( int r = 0; r < ranges; ++r )
	{
		p->tasks[r].pairs.count = 0;
	}
	if ( !spRunRanges( w, fcn, context ) )
	{
		return false;
	}
	// each range's place in the list (its first span), then the copies over the pool
	int total = out->count;
	for ( int r = 0; r < ranges; ++r )
	{
		p->tasks[r].spans[0].at = total;
		total += p->tasks[r].pairs.count;
	}
	if ( !spGrowWithRoom( (void**)&out->data, &out->capacity, total, sizeof( spPair ) ) )
	{
		return false;
	}
	spGatherJob job = { p, out->data };
	spPoolRun( w->pool, spGatherTask, &job, ranges );
	out->count = total;
	return true;
}

bool spParallelKeepPairs( spWorld* w, spRangeFcn* fcn, const spIndex* index, spPairArray* one, spPlaceRanges* kept,
						  void* context )
{
	spParallel* p = &w->parallel;
	kept->ranges = 0;
	const int ranges = spCutSlabs( w, index );
	if ( ranges == 1 )
	{
		return spOneRangePairs( p, fcn, p->units, one, context );
	}
	const int was = kept->capacity;
	const spArray arrays[] = { { (void**)&kept->lists, sizeof( spPairArray ), 1 },
							   { (void**)&kept->cut, sizeof( int ), 1 },
							   { (void**)&kept->at, sizeof( int ), 1 } };
	if ( !spGrowArrays( &kept->capacity, ranges + 1, arrays, SP_ARRAY_COUNT( arrays ) ) )
	{
		return false;
	}
	if ( kept->capacity > was )
	{
		memset( kept->lists + was, 0, sizeof( spPairArray ) * (size_t)( kept->capacity - was ) );
	}
	for ( int r = 0; r < ranges; ++r )
	{
		p->tasks[r].pairs.count = 0;
	}
	if ( !spRunRanges( w, fcn, context ) )
	{
		return false;
	}
	// the pair past each list first, so that a failure keeps nothing
	for ( int r = 0; r < ranges; ++r )
	{
		spPairArray* list = &p->tasks[r].pairs;
		if ( !spGrowWithRoom( (void**)&list->data, &list->capacity, list->count + 1, sizeof( spPair ) ) )
		{
			return false;
		}
		list->data[list->count] = ( spPair ){ INT32_MAX, INT32_MAX };
	}
	int total = 0;
	for ( int r = 0; r < ranges; ++r )
	{
		const spPairArray list = p->tasks[r].pairs;
		p->tasks[r].pairs = kept->lists[r];
		kept->lists[r] = list;
		kept->cut[r] = p->cut[r];
		kept->at[r] = total;
		total += list.count;
	}
	kept->cut[ranges] = p->cut[ranges];
	kept->at[ranges] = total;
	kept->ranges = ranges;
	one->count = 0;
	return true;
}

#endif

int spGatherSpans( spParallel* p, int list, void* data, size_t size )
{
	char* bytes = data;
	int n = 0;
	for ( int r = 0; r < spRanges( p ); ++r )
	{
		const spSpan span = spRangeTask( p, r )->spans[list];
		if ( span.count > 0 && span.at != n )
		{
			memmove( bytes + (size_t)n * size, bytes + (size_t)span.at * size, size * (size_t)span.count );
		}
		n += span.count;
	}
	return n;
}

void spRangeCursors( spParallel* p, int units, int* start )
{
	// c[k] is free once unit k - 1's count, which it held, is read
	for ( int k = 0; k < units; ++k )
	{
		int at = start[k];
		for ( int r = 0; r < spRanges( p ); ++r )
		{
			int* c = spRangeTask( p, r )->scratch;
			const int n = c[k + 1];
			c[k] = at;
			at += n;
		}
		start[k + 1] = at;
	}
}

void* spTaskScratch( spTask* task, size_t bytes )
{
	if ( bytes > (size_t)INT32_MAX ||
		 !spGrowWithRoom( &task->scratch, &task->scratchBytes, bytes > 0 ? (int)bytes : 1, 1 ) )
	{
		return NULL;
	}
	return task->scratch;
}

static void spFreeTask( spTask* task )
{
	spFree( task->pairs.data );
	spFree( task->scratch );
}

SP_COLD void spFreeParallel( spParallel* p )
{
	for ( int r = 0; r < p->taskCapacity; ++r )
	{
		spFreeTask( &p->tasks[r] );
	}
	spFreeTask( &p->solo );
	spFree( p->tasks );
	spFree( p->cut );
	memset( p, 0, sizeof( *p ) );
}

static size_t spTaskByteCount( const spTask* task )
{
	return (size_t)task->pairs.capacity * sizeof( spPair ) + (size_t)task->scratchBytes;
}

SP_COLD size_t spParallelByteCount( const spParallel* p )
{
	size_t n = (size_t)p->taskCapacity * ( sizeof( spTask ) + sizeof( int ) ) + spTaskByteCount( &p->solo );
	for ( int r = 0; r < p->taskCapacity; ++r )
	{
		n += spTaskByteCount( &p->tasks[r] );
	}
	return n;
}
