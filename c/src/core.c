// SPDX-License-Identifier: MIT
// The bottom of the engine (keep.c, the default allocator natively, is below it): allocation through the installed
// allocator, the growth helpers, the bounds check and the result strings. Calls no other file of the engine but keep.c.
#define _POSIX_C_SOURCE 199309L // clock_gettime, for SP_PHASE_TIMES
#include "core.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef SP_PHASE_TIMES
#include <time.h>

double spPhaseClock( void )
{
	struct timespec t;
	clock_gettime( CLOCK_MONOTONIC, &t );
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}
#endif

#if SP_KEEP_BLOCKS
#define SP_DEFAULT_REALLOC spKeptRealloc
#else
// No blocks kept (keep.h, SP_KEEP_BLOCKS): realloc and free alone.
static void* spDefaultRealloc( void* ptr, size_t size )
{
	if ( size == 0 )
	{
		free( ptr );
		return NULL;
	}
	return realloc( ptr, size );
}
#define SP_DEFAULT_REALLOC spDefaultRealloc
#endif

static spReallocFcn* sp_realloc = SP_DEFAULT_REALLOC;
// Blocks freed or moved so far: a binding that hands out views of the engine's arrays drops them when it changes.
// Atomic: worlds on different threads allocate at the same time (the count is all that is shared).
static _Atomic uint32_t sp_releaseCount;

void spSetAllocator( spReallocFcn* fcn )
{
#if SP_KEEP_BLOCKS
	// the kept blocks are the default allocator's: given back before another one takes over
	spTrimMemory();
#endif
	sp_realloc = fcn != NULL ? fcn : SP_DEFAULT_REALLOC;
#if SP_KEEP_BLOCKS
	spKeepFreedBlocks( sp_realloc == spKeptRealloc );
#endif
}

#ifdef SP_THREADS
// A build with threads and an allocator that is not thread-safe (a wasm module's malloc): the calls, from the
// update's tasks on any thread, one at a time. A spin lock: a browser's main thread may not block.
static atomic_flag sp_allocLock = ATOMIC_FLAG_INIT;
static void* spLockedRealloc( void* ptr, size_t size )
{
	while ( atomic_flag_test_and_set_explicit( &sp_allocLock, memory_order_acquire ) )
	{
	}
	void* p = sp_realloc( ptr, size );
	atomic_flag_clear_explicit( &sp_allocLock, memory_order_release );
	return p;
}
#define SP_CALL_REALLOC spLockedRealloc
#else
#define SP_CALL_REALLOC sp_realloc
#endif

void* spRealloc( void* ptr, size_t size )
{
	void* moved = SP_CALL_REALLOC( ptr, size );
	if ( ptr != NULL && moved != NULL && moved != ptr )
	{
		atomic_fetch_add_explicit( &sp_releaseCount, 1u, memory_order_relaxed );
	}
	return moved;
}

void spFree( void* ptr )
{
	if ( ptr != NULL )
	{
		atomic_fetch_add_explicit( &sp_releaseCount, 1u, memory_order_relaxed );
		SP_CALL_REALLOC( ptr, 0 );
	}
}

spReallocFcn* spGetAllocator( void )
{
	return sp_realloc;
}

uint32_t spGetReleaseCount( void )
{
	return atomic_load_explicit( &sp_releaseCount, memory_order_relaxed );
}

bool spGrow( void** data, int* capacity, int need, size_t elemSize )
{
	if ( need <= *capacity )
	{
		return true;
	}
	size_t cap = (size_t)*capacity + ( (size_t)*capacity >> 1 );
	if ( cap < (size_t)need )
	{
		cap = (size_t)need;
	}
	if ( cap < 16 )
	{
		cap = 16;
	}
	if ( cap > (size_t)INT32_MAX || cap > SIZE_MAX / elemSize )
	{
		return false;
	}
	void* p = spRealloc( *data, cap * elemSize );
	if ( p == NULL )
	{
		return false;
	}
	*data = p;
	*capacity = (int)cap;
	return true;
}

int spGrownCapacity( int capacity, int need )
{
	if ( need <= capacity )
	{
		return capacity;
	}
	long long cap = (long long)capacity + ( capacity >> 1 );
	const long long room = (long long)need + ( need >> 3 );
	if ( cap < room )
	{
		cap = room;
	}
	if ( cap < 16 )
	{
		cap = 16;
	}
	return cap > INT32_MAX ? INT32_MAX : (int)cap;
}

bool spGrowWithRoom( void** data, int* capacity, int need, size_t elemSize )
{
	// spGrownCapacity keeps the capacity when it holds `need`: spGrow then does nothing
	return spGrow( data, capacity, spGrownCapacity( *capacity, need ), elemSize );
}

const char* spResultString( spResult result )
{
	switch ( result )
	{
		case sp_resultOk:
			return "ok";
		case sp_resultInvalidBounds:
			return "bounds must be finite numbers (NaN and infinity are rejected)";
		case sp_resultInvertedBounds:
			return "min must be <= max on every axis";
		case sp_resultInvalidDimensions:
			return "dimensions must be 1 to 4, and axis indices 0 to dimensions - 1";
		case sp_resultNullArgument:
			return "a required pointer argument is null";
		case sp_resultInvalidWorld:
			return "invalid world id (null, destroyed or never created)";
		case sp_resultInvalidBox:
			return "invalid box id (null or never created by this world)";
		case sp_resultStaleBox:
			return "stale box id (the box was removed)";
		case sp_resultCapacityExceeded:
			return "capacity exceeded (a world holds at most 4194304 boxes)";
		case sp_resultOutOfMemory:
			return "out of memory (nothing was changed)";
		case sp_resultTooManyWorlds:
			return "too many worlds: all 4194304 world slots are in use or retired (a slot serves 1023 worlds)";
		case sp_resultInvalidDef:
			return "invalid world definition (start from spDefaultWorldDef)";
		default:
			return "unknown result";
	}
}

spResult spCheckBounds( const float* min, const float* max, int dimensions )
{
	for ( int a = 0; a < dimensions; ++a )
	{
		if ( !isfinite( min[a] ) || !isfinite( max[a] ) )
		{
			return sp_resultInvalidBounds;
		}
	}
	for ( int a = 0; a < dimensions; ++a )
	{
		if ( min[a] > max[a] )
		{
			return sp_resultInvertedBounds;
		}
	}
	return sp_resultOk;
}

bool spGrowArrays( int* capacity, int target, const spArray* arrays, int count )
{
	if ( target <= *capacity )
	{
		return true;
	}
	for ( int k = 0; k < count; ++k )
	{
		int c = *capacity * arrays[k].perUnit;
		if ( !spGrow( arrays[k].data, &c, target * arrays[k].perUnit, arrays[k].elemSize ) )
		{
			return false;
		}
	}
	*capacity = target;
	return true;
}
