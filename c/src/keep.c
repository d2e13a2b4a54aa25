// SPDX-License-Identifier: MIT
// The default allocator of native builds: malloc, realloc and free, with large freed blocks kept and handed to
// later allocations. glibc gives large freed blocks back to the kernel (unmaps them, trims the heap), so a program
// that creates and destroys worlds over and over would fault in every page of every world again: at 10k boxes that
// was about as much time as the cold start's compute. Kept blocks are reused instead; spTrimMemory frees them.
#include "keep.h"

#if SP_KEEP_BLOCKS
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// Tell ASan and valgrind that a kept block may not be used: they still catch a use of a world's memory after
// spDestroyWorld.
#if defined( __SANITIZE_ADDRESS__ )
#define SP_ASAN 1
#elif defined( __has_feature )
#if __has_feature( address_sanitizer )
#define SP_ASAN 1
#endif
#endif
#ifdef SP_ASAN
#include <sanitizer/asan_interface.h>
#define SP_MARK_UNUSED( p, n ) ASAN_POISON_MEMORY_REGION( p, n )
#define SP_MARK_USABLE( p, n ) ASAN_UNPOISON_MEMORY_REGION( p, n )
#elif !defined( NDEBUG ) && defined( __has_include )
#if __has_include( <valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define SP_MARK_UNUSED( p, n ) VALGRIND_MAKE_MEM_NOACCESS( p, n )
#define SP_MARK_USABLE( p, n ) VALGRIND_MAKE_MEM_UNDEFINED( p, n )
#endif
#endif
#ifndef SP_MARK_UNUSED
#define SP_MARK_UNUSED( p, n ) ( (void)( p ), (void)( n ) )
#define SP_MARK_USABLE( p, n ) ( (void)( p ), (void)( n ) )
#endif

// Blocks at least this large are kept when freed. malloc gives the free top of its heap back once it passes 128 KiB,
// so even a few arrays of 4 bytes a box of a 10k-box world (40 KB each) freed together fault in again; smaller
// blocks come back from malloc's bins.
#define SP_KEEP_MIN_BYTES ( (size_t)32 << 10 )
// At most this many bytes kept in all: bounds what a program holds after destroying its worlds (a 100k-box cold
// start frees about 20 MB of large blocks; a 1M one, about 200 MB, then is only partly reused).
#define SP_KEEP_MAX_BYTES ( (size_t)64 << 20 )
// At most this many blocks: a 2D cold start frees 14 (10k boxes) to 27 (100k) of them (its arrays and the steps of
// those that grew 1.5 times at a time); the search is a scan of the list.
#define SP_KEEP_MAX_BLOCKS 96
// A kept block serves a request of at least half its size: a larger one would hold memory that goes unused.
#define SP_KEEP_FIT 2

// A block's size as malloc knows it (at least what was asked for). The blocks stay plain malloc blocks, so a block
// made here may be freed by another allocator installed later, and the other way round (spSetAllocator).
#ifdef __APPLE__
#include <malloc/malloc.h>
#define SP_BLOCK_SIZE( p ) malloc_size( p )
#else
#include <malloc.h>
#define SP_BLOCK_SIZE( p ) malloc_usable_size( p )
#endif

// The kept blocks, oldest first (the oldest go first when the caps are reached: recent worlds are the likeliest to
// come again). Shared by every world on every thread, so behind a mutex.
typedef struct spKept
{
	void* block;
	size_t size;
} spKept;
static spKept sp_kept[SP_KEEP_MAX_BLOCKS];
static int sp_keptCount;
static size_t sp_keptBytes;
static pthread_mutex_t sp_keptLock = PTHREAD_MUTEX_INITIALIZER;
// Off while another allocator than spKeptRealloc is installed (spKeepFreedBlocks); set, like the allocator, while no
// other thread uses the library.
static bool sp_keeping = true;

void spKeepFreedBlocks( bool keep )
{
	sp_keeping = keep;
}

// The smallest kept block of `size` to SP_KEEP_FIT * size bytes, taken off the list, or null.
static void* spTakeKept( size_t size )
{
	if ( size < SP_KEEP_MIN_BYTES )
	{
		return NULL;
	}
	void* block = NULL;
	size_t blockSize = 0;
	pthread_mutex_lock( &sp_keptLock );
	int best = -1;
	for ( int i = 0; i < sp_keptCount; ++i )
	{
		size_t s = sp_kept[i].size;
		if ( s >= size && s / SP_KEEP_FIT <= size && ( best < 0 || s < sp_kept[best].size ) )
		{
			best = i;
		}
	}
	if ( best >= 0 )
	{
		block = sp_kept[best].block;
		blockSize = sp_kept[best].size;
		sp_keptBytes -= blockSize;
		sp_keptCount -= 1;
		memmove( sp_kept + best, sp_kept + best + 1, sizeof( sp_kept[0] ) * (size_t)( sp_keptCount - best ) );
	}
	pthread_mutex_unlock( &sp_keptLock );
	if ( block != NULL )
	{
		SP_MARK_USABLE( block, blockSize );
	}
	return block;
}

// A kept block's memory back to malloc.
static void spFreeKept( spKept kept )
{
	SP_MARK_USABLE( kept.block, kept.size );
	free( kept.block );
}

// A block the engine is done with: kept if it is large and the default allocator is installed (a block freed after
// spSetAllocator installed another one is the world registry's, made before), else freed.
static void spReleaseBlock( void* block )
{
	size_t size = SP_BLOCK_SIZE( block );
	if ( size < SP_KEEP_MIN_BYTES || size > SP_KEEP_MAX_BYTES || !sp_keeping )
	{
		free( block );
		return;
	}
	SP_MARK_UNUSED( block, size );
	// the oldest blocks make room, freed after the lock is let go
	spKept evicted[SP_KEEP_MAX_BLOCKS];
	int evictedCount = 0;
	pthread_mutex_lock( &sp_keptLock );
	while ( sp_keptCount == SP_KEEP_MAX_BLOCKS || sp_keptBytes + size > SP_KEEP_MAX_BYTES )
	{
		evicted[evictedCount] = sp_kept[evictedCount];
		sp_keptBytes -= evicted[evictedCount].size;
		sp_keptCount -= 1;
		evictedCount += 1;
	}
	memmove( sp_kept, sp_kept + evictedCount, sizeof( sp_kept[0] ) * (size_t)sp_keptCount );
	sp_kept[sp_keptCount].block = block;
	sp_kept[sp_keptCount].size = size;
	sp_keptCount += 1;
	sp_keptBytes += size;
	pthread_mutex_unlock( &sp_keptLock );
	for ( int i = 0; i < evictedCount; ++i )
	{
		spFreeKept( evicted[i] );
	}
}

void* spKeptRealloc( void* ptr, size_t size )
{
	if ( size == 0 )
	{
		if ( ptr != NULL )
		{
			spReleaseBlock( ptr );
		}
		return NULL;
	}
	if ( ptr == NULL )
	{
		void* kept = spTakeKept( size );
		return kept != NULL ? kept : malloc( size );
	}
	size_t have = SP_BLOCK_SIZE( ptr );
	// A large block grows into another one: a kept block if one fits, else a new one, and the old one is kept.
	// realloc would give the old one back, and the next world would fault in the same steps of growth again.
	if ( size > have && size >= SP_KEEP_MIN_BYTES )
	{
		void* grown = spTakeKept( size );
		if ( grown == NULL )
		{
			grown = malloc( size );
			if ( grown == NULL )
			{
				return NULL;
			}
		}
		memcpy( grown, ptr, have );
		spReleaseBlock( ptr );
		// the analyzer loses `grown` when it leaves the kept list: the release cannot evict it, it is no longer there
		// NOLINTNEXTLINE(clang-analyzer-unix.Malloc)
		return grown;
	}
	// within its block (realloc returns it as it is), smaller, or still small
	return realloc( ptr, size );
}

size_t spTrimMemory( void )
{
	spKept blocks[SP_KEEP_MAX_BLOCKS];
	pthread_mutex_lock( &sp_keptLock );
	const int count = sp_keptCount;
	const size_t bytes = sp_keptBytes;
	memcpy( blocks, sp_kept, sizeof( sp_kept[0] ) * (size_t)count );
	sp_keptCount = 0;
	sp_keptBytes = 0;
	pthread_mutex_unlock( &sp_keptLock );
	for ( int i = 0; i < count; ++i )
	{
		spFreeKept( blocks[i] );
	}
	return bytes;
}
#else
size_t spTrimMemory( void )
{
	return 0;
}
#endif
