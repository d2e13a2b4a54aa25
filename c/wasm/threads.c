// SPDX-License-Identifier: MIT
// The threaded module's own part (web/scripts/build-threads.sh links it with exports.c and the engine): the set-up
// of the module, the two functions Emscripten's libc imports from its JS runtime, the quarantine that keeps views
// handed to JavaScript harmless over shared memory (docs/threads.md), and the count of workers running.
#include "sweep_prune/sweep_prune.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SP_EXPORT __attribute__( ( used, visibility( "default" ) ) )

size_t malloc_usable_size( void* ptr );

// ---- What libc.a asks of Emscripten's JS runtime, here in C so that the module imports only its memory ----

// memcpy of large blocks (emscripten_memcpy.c); with bulk memory this is one memory.copy
void* emscripten_memcpy_big( void* restrict dest, const void* restrict src, size_t n )
{
	__builtin_memcpy( dest, src, n );
	return dest;
}

// sbrk's growth (as Emscripten's standalone build does it): grow the shared memory, from any thread
int emscripten_resize_heap( size_t size )
{
	const size_t page = 65536;
	const size_t old = __builtin_wasm_memory_size( 0 ) * page;
	if ( size <= old )
	{
		return 1;
	}
	return __builtin_wasm_memory_grow( 0, ( size - old + page - 1 ) / page ) != (size_t)-1;
}

// ---- The quarantine of blocks seen by JavaScript ----
// A SharedArrayBuffer cannot be detached, so the wrapper cannot empty a stale view as the single-threaded build
// does (memory.grow(0)). Instead every block handed out as a view (bounds, pairs, began, ended) is pinned here, and
// a pinned block is never given back to malloc: when the engine frees it or moves it (realloc), it stays allocated
// and nothing reads it again, so writes through a stale view land in memory no world uses. The engine's arrays grow
// geometrically, so the blocks kept are bounded by a small multiple of the largest array a world ever had.
// Runs under the engine's allocator lock (core.c, SP_THREADS); sp_pin is called only between engine calls.

static uintptr_t* sp_pinned;	   // open addressing, 0 = empty, 1 = deleted
static uint32_t sp_pinnedCapacity; // a power of two, or 0
static uint32_t sp_pinnedUsed;	   // live and deleted entries
static size_t sp_quarantinedBytes;

static uint32_t spPinHash( uintptr_t p )
{
	return (uint32_t)( ( p >> 3 ) * 2654435761u );
}

static uintptr_t* spPinFind( uintptr_t p )
{
	if ( sp_pinnedCapacity == 0 )
	{
		return NULL;
	}
	const uint32_t mask = sp_pinnedCapacity - 1;
	for ( uint32_t i = spPinHash( p ) & mask;; i = ( i + 1 ) & mask )
	{
		if ( sp_pinned[i] == p )
		{
			return &sp_pinned[i];
		}
		if ( sp_pinned[i] == 0 )
		{
			return NULL;
		}
	}
}

static int spPinInsert( uintptr_t p )
{
	if ( spPinFind( p ) != NULL )
	{
		return 1;
	}
	if ( 2 * ( sp_pinnedUsed + 1 ) > sp_pinnedCapacity )
	{
		// sized by the live entries (the deleted ones are dropped), so that unpinning keeps the table small
		uint32_t live = 0;
		for ( uint32_t i = 0; i < sp_pinnedCapacity; ++i )
		{
			live += sp_pinned[i] > 1;
		}
		uint32_t capacity = 64;
		while ( capacity < 4 * ( live + 1 ) )
		{
			capacity *= 2;
		}
		uintptr_t* table = calloc( capacity, sizeof( uintptr_t ) );
		if ( table == NULL )
		{
			return 0;
		}
		uintptr_t* old = sp_pinned;
		const uint32_t oldCapacity = sp_pinnedCapacity;
		sp_pinned = table;
		sp_pinnedCapacity = capacity;
		sp_pinnedUsed = 0;
		for ( uint32_t i = 0; i < oldCapacity; ++i )
		{
			if ( old[i] > 1 )
			{
				spPinInsert( old[i] );
			}
		}
		free( old );
	}
	const uint32_t mask = sp_pinnedCapacity - 1;
	uint32_t i = spPinHash( p ) & mask;
	while ( sp_pinned[i] > 1 )
	{
		i = ( i + 1 ) & mask;
	}
	sp_pinnedUsed += sp_pinned[i] == 0;
	sp_pinned[i] = p;
	return 1;
}

// The engine's allocator (spSetAllocator): malloc, except that a pinned block is never freed.
static void* spQuarantineRealloc( void* ptr, size_t size )
{
	uintptr_t* pin = ptr != NULL ? spPinFind( (uintptr_t)ptr ) : NULL;
	if ( pin == NULL )
	{
		if ( size == 0 )
		{
			free( ptr );
			return NULL;
		}
		return realloc( ptr, size );
	}
	// pinned: a new block, the old one kept (and unpinned: nothing will ask for it again)
	void* moved = NULL;
	if ( size != 0 )
	{
		moved = malloc( size );
		if ( moved == NULL )
		{
			return NULL;
		}
		const size_t old = malloc_usable_size( ptr );
		memcpy( moved, ptr, old < size ? old : size );
	}
	*pin = 1;
	sp_quarantinedBytes += malloc_usable_size( ptr );
	return moved;
}

// The module's set-up, once, on the thread that instantiated it first (workers never call it).
SP_EXPORT void _initialize( void )
{
	spSetAllocator( spQuarantineRealloc );
}

// Pin a block about to be handed to JavaScript as a view (web/src/world.ts). Returns 0 when out of memory: the
// caller then fails the call rather than hand out an unpinned view.
SP_EXPORT int sp_pin( void* ptr )
{
	return ptr == NULL || spPinInsert( (uintptr_t)ptr );
}

// Bytes kept by the quarantine (tests and the README's memory note)
SP_EXPORT uint32_t sp_quarantined_bytes( void )
{
	return (uint32_t)sp_quarantinedBytes;
}

// Workers of a pool inside sp_pool_work now (web/src/threads-pool.ts): read from shared memory, so a program that
// never yields to its event loop still sees workers that started (their messages wait for the event loop)
SP_EXPORT int sp_pool_running( spPool* pool )
{
	return spPool_GetRunningWorkerCount( pool );
}
