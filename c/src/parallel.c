// SPDX-License-Identifier: MIT
// The update's phases spread over the world's pool: how the work is cut into tasks (ranges of slabs, of moving boxes,
// of chunks of slots), the tasks' scratch, the gather of their pair lists in task order, and the static boxes'
// queries by ranges of moving boxes. The other phases' tasks are next to their serial forms (validate.c,
// refresh.c, build.c, sweep.c, pairs.c).
#include "parallel.h"

#include "index.h"
#include "pool.h"
#include "world.h"

#ifndef spParallelOn
bool spParallelOn( const spWorld* w )
{
	return w->pool != NULL && spPoolThreads( w->pool ) > 1 && w->orderCount >= w->parallel.minBoxes;
}
#endif

bool spReserveTasks( spParallel* p, int count )
{
	if ( count <= p->taskCapacity )
	{
		return true;
	}
	// the cuts first: the task count is what says both hold `count`
	const int was = p->taskCapacity;
	if ( !spGrow( (void**)&p->cut, &p->cutCapacity, count + 1, sizeof( int ) ) )
	{
		return false;
	}
	int capacity = was;
	if ( !spGrow( (void**)&p->tasks, &capacity, count, sizeof( spTask ) ) )
	{
		return false;
	}
	if ( !spGrow( (void**)&p->cut, &p->cutCapacity, capacity + 1, sizeof( int ) ) )
	{
		capacity = count; // the tasks' block holds more, unused
	}
	memset( p->tasks + was, 0, sizeof( spTask ) * (size_t)( capacity - was ) );
	p->taskCapacity = capacity;
	return true;
}

static int spTasksWanted( const spWorld* w, int units )
{
	const int per = w->parallel.tasksPerThread > 0 ? w->parallel.tasksPerThread : 4;
	int tasks = spPoolThreads( w->pool ) * per;
	tasks = tasks > units ? units : tasks;
	tasks = tasks > SP_POOL_MAX_TASKS ? SP_POOL_MAX_TASKS : tasks;
	return tasks < 1 ? 1 : tasks;
}

bool spCutSlabs( spWorld* w )
{
	return spCutSlabsOf( w, &w->dynamicIndex );
}

bool spCutSlabsOf( spWorld* w, const spIndex* index )
{
	const int slabs = index->slabCount;
	const int wanted = spTasksWanted( w, slabs );
	if ( !spReserveTasks( &w->parallel, wanted ) )
		return false;
	int* cut = w->parallel.cut;
	const long long entries = index->entryCount;
	int t = 1;
	cut[0] = 0;
	for ( int s = 1; s < slabs && t < wanted; ++s )
	{
		if ( index->slabStart[s] >= entries * t / wanted )
		{
			cut[t++] = s;
		}
	}
	cut[t] = slabs;
	w->parallel.taskCount = t;
	return true;
}

bool spCutRange( spWorld* w, int n )
{
	const int wanted = spTasksWanted( w, n );
	if ( !spReserveTasks( &w->parallel, wanted ) )
		return false;
	for ( int t = 0; t <= wanted; ++t )
	{
		w->parallel.cut[t] = spTaskBegin( t, n, wanted );
	}
	w->parallel.taskCount = wanted;
	return true;
}

void spTaskCursors( spParallel* p, int tasks, int units, int* start )
{
	// c[k] is free once unit k - 1's count, which it held, is read
	for ( int k = 0; k < units; ++k )
	{
		int at = start[k];
		for ( int t = 0; t < tasks; ++t )
		{
			int* c = p->tasks[t].counters;
			const int n = c[k + 1];
			c[k] = at;
			at += n;
		}
		start[k + 1] = at;
	}
}

bool spReserveChunks( spWorld* w, int chunks )
{
	spParallel* p = &w->parallel;
	const spArray arrays[] = { { (void**)&p->chunkStats, sizeof( spAxisStats ), SP_MAX_DIMENSIONS },
							   { (void**)&p->chunkValid, sizeof( int ), 1 } };
	return spGrowArrays( &p->chunkCapacity, chunks, arrays, 2 ) && spCutRange( w, chunks );
}

typedef struct spGatherJob
{
	spWorld* w;
	spPairArray* out;
} spGatherJob;

static void spGatherTask( void* context, int t )
{
	const spGatherJob* job = context;
	const spTask* task = &job->w->parallel.tasks[t];
	if ( task->pairs.count > 0 )
	{
		memcpy( job->out->data + task->offset, task->pairs.data, sizeof( spPair ) * (size_t)task->pairs.count );
	}
}

bool spGatherTaskPairs( spWorld* w, spPairArray* out, int count )
{
	int total = 0;
	for ( int t = 0; t < count; ++t )
	{
		if ( w->parallel.tasks[t].failed )
			return false;
		w->parallel.tasks[t].offset = total;
		total += w->parallel.tasks[t].pairs.count;
	}
	if ( !spGrowWithRoom( (void**)&out->data, &out->capacity, total, sizeof( spPair ) ) )
		return false;
	spGatherJob job = { w, out };
	spPoolRun( w->pool, spGatherTask, &job, count );
	out->count = total;
	return true;
}

static void spStaticPairsTask( void* context, int t )
{
	spWorld* w = context;
	spTask* task = &w->parallel.tasks[t];
	const int d = w->dimensions;
	const spSlotTable slots = spSlotsOf( w );
	task->pairs.count = 0;
	task->failed = 0;
	for ( int i = w->parallel.cut[t]; i < w->parallel.cut[t + 1]; ++i )
	{
		const int slot = w->order[i];
		const float* b = w->bounds + (size_t)slot * w->stride;
		if ( !spQueryIndex( &w->staticIndex, &slots, b, b + d, 0xFFFFFFFFu, &task->pairs, w->ids[slot] ) )
		{
			task->failed = 1;
			return;
		}
	}
}

bool spParallelStaticPairs( spWorld* w )
{
	if ( !spCutRange( w, w->orderCount ) )
		return false;
	spPoolRun( w->pool, spStaticPairsTask, w, w->parallel.taskCount );
	return spGatherTaskPairs( w, &w->found, w->parallel.taskCount );
}

#if SP_PARALLEL
SP_COLD void spFreeParallel( spParallel* p )
{
	for ( int t = 0; t < p->taskCapacity; ++t )
	{
		spFree( p->tasks[t].pairs.data );
		spFree( p->tasks[t].columns );
		spFree( p->tasks[t].sortKeys );
		spFree( p->tasks[t].sortTemp );
		spFree( p->tasks[t].sortOrder );
		spFree( p->tasks[t].packed );
		spFree( p->tasks[t].packedIds );
		spFree( p->tasks[t].counters );
	}
	spFree( p->tasks );
	spFree( p->cut );
	spFree( p->chunkStats );
	spFree( p->chunkValid );
	p->chunkStats = NULL;
	p->chunkValid = NULL;
	p->chunkCapacity = 0;
	p->tasks = NULL;
	p->cut = NULL;
	p->taskCapacity = p->cutCapacity = p->taskCount = 0;
}

SP_COLD size_t spParallelByteCount( const spParallel* p, int stride )
{
	size_t n = (size_t)p->taskCapacity * sizeof( spTask ) + (size_t)p->cutCapacity * sizeof( int ) +
			   (size_t)p->chunkCapacity * ( SP_MAX_DIMENSIONS * sizeof( spAxisStats ) + sizeof( int ) );
	for ( int t = 0; t < p->taskCapacity; ++t )
	{
		n += (size_t)p->tasks[t].pairs.capacity * sizeof( spPair ) +
			 (size_t)p->tasks[t].columnsCapacity * sizeof( float ) +
			 (size_t)p->tasks[t].sortCapacity * ( sizeof( float ) + 2 * sizeof( uint32_t ) + 2 * sizeof( int ) ) +
			 (size_t)p->tasks[t].packedCapacity * ( (size_t)stride * sizeof( float ) + sizeof( uint32_t ) ) +
			 (size_t)p->tasks[t].countersCapacity * sizeof( int );
	}
	return n;
}
#endif
