// SPDX-License-Identifier: MIT
// The quarantine of blocks seen by JavaScript, in both wasm modules (docs/views.md). Every block handed out as a
// view (bounds, pairs, began, ended) is pinned here, and a pinned block that the engine frees or moves (realloc) is
// not given back to malloc: it stays allocated and nothing reads it again, so writes through a stale view land in
// memory no world uses, and the wrapper can look there for them (a moved bounds block). Views that nobody freed
// keep working: nothing is detached when the engine frees a block.
//
// Over a memory that is not shared (the single-threaded module), a real growth of wasm memory detaches every view
// taken before it: a block quarantined before a growth can then have no view left, and goes back to malloc. Unless
// the wrapper made the memory's buffer resizable (sp_keep_on_growth): a growth then ends no view. A shared
// memory is never detached either, so there the blocks stay; the engine's arrays grow geometrically, so what they leave
// behind is bounded by a small multiple of the largest array a world ever had.
// Runs under the engine's allocator lock (core.c, SP_THREADS); sp_pin is called only between engine calls.
#include "sweep_prune/sweep_prune.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SP_EXPORT __attribute__( ( used, visibility( "default" ) ) )

size_t malloc_usable_size( void* ptr );
void* spQuarantineRealloc( void* ptr, size_t size );

static uintptr_t* sp_pinned;	   // open addressing, 0 = empty, 1 = deleted
static uint32_t sp_pinnedCapacity; // a power of two, or 0
static uint32_t sp_pinnedUsed;	   // live and deleted entries
static size_t sp_quarantinedBytes;

#ifndef SP_THREADS
// The blocks kept, each with the memory's size (in pages) when it was kept: a block kept before the memory grew
// has no attached view left.
typedef struct spHeld
{
	void* block;
	size_t pages;
} spHeld;
static spHeld* sp_held;
static uint32_t sp_heldCount;
static uint32_t sp_heldCapacity;
static size_t sp_heldPages; // the memory's size when the blocks were last looked at
static int sp_keepOnGrowth; // views outlive growths (a resizable buffer): a growth frees nothing
#endif

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

#ifndef SP_THREADS
// After a growth: the blocks kept before it back to malloc (every view of them was detached by the growth).
static void spReleaseHeld( void )
{
	const size_t pages = __builtin_wasm_memory_size( 0 );
	if ( pages == sp_heldPages || sp_keepOnGrowth )
	{
		return;
	}
	sp_heldPages = pages;
	uint32_t kept = 0;
	for ( uint32_t i = 0; i < sp_heldCount; ++i )
	{
		if ( sp_held[i].pages < pages )
		{
			sp_quarantinedBytes -= malloc_usable_size( sp_held[i].block );
			free( sp_held[i].block );
		}
		else
		{
			sp_held[kept++] = sp_held[i];
		}
	}
	sp_heldCount = kept;
}

// Remember a kept block; false when out of memory (the block is then freed at once: see spQuarantineRealloc).
static int spHold( void* block )
{
	if ( sp_heldCount == sp_heldCapacity )
	{
		const uint32_t capacity = sp_heldCapacity < 16 ? 16 : 2 * sp_heldCapacity;
		spHeld* held = realloc( sp_held, capacity * sizeof( spHeld ) );
		if ( held == NULL )
		{
			return 0;
		}
		sp_held = held;
		sp_heldCapacity = capacity;
	}
	sp_held[sp_heldCount++] = ( spHeld ){ block, __builtin_wasm_memory_size( 0 ) };
	return 1;
}
#endif

// The engine's allocator (spSetAllocator): malloc, except that a pinned block is kept when freed or moved.
void* spQuarantineRealloc( void* ptr, size_t size )
{
#ifndef SP_THREADS
	spReleaseHeld();
#endif
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
#ifndef SP_THREADS
	if ( !spHold( ptr ) )
	{
		// todo: out of memory for the list of kept blocks; the block goes back at once (a stale view may see it reused)
		free( ptr );
		return moved;
	}
#endif
	sp_quarantinedBytes += malloc_usable_size( ptr );
	return moved;
}

// Pin a block about to be handed to JavaScript as a view (web/src/world.ts). Returns 0 when out of memory: the
// caller then fails the call rather than hand out an unpinned view.
SP_EXPORT int sp_pin( void* ptr )
{
	return ptr == NULL || spPinInsert( (uintptr_t)ptr );
}

// Bytes kept by the quarantine now (memoryStats() in web/src, and the tests)
SP_EXPORT uint32_t sp_quarantined_bytes( void )
{
	return (uint32_t)sp_quarantinedBytes;
}

// The wrapper made the memory's buffer resizable, so a growth no longer detaches views: from now on the blocks kept
// stay kept across growths, as over shared memory (only sp_release_kept frees them).
SP_EXPORT void sp_keep_on_growth( void )
{
#ifndef SP_THREADS
	sp_keepOnGrowth = 1;
#endif
}

// Free every kept block, after the wrapper detached every view (web/src/loader.ts releaseKept); returns the bytes
// freed. Over shared memory views cannot be detached, so nothing is freed there.
SP_EXPORT uint32_t sp_release_kept( void )
{
#ifdef SP_THREADS
	return 0;
#else
	const size_t bytes = sp_quarantinedBytes;
	for ( uint32_t i = 0; i < sp_heldCount; ++i )
	{
		free( sp_held[i].block );
	}
	sp_heldCount = 0;
	sp_quarantinedBytes = 0;
	return (uint32_t)bytes;
#endif
}

#ifndef SP_THREADS
// The single-threaded module's set-up: C constructors run from its _initialize (the threaded module's own
// _initialize, in threads.c, installs the allocator itself).
__attribute__( ( constructor ) ) static void spInstallQuarantine( void )
{
	spSetAllocator( spQuarantineRealloc );
}
#endif
