// SPDX-License-Identifier: MIT
// The threaded module's own part (c/wasm/build-threads.sh links it with exports.c and the engine): the set-up
// of the module, the two functions Emscripten's libc imports from its JS runtime (docs/threads.md) and the count of
// workers running. The quarantine of blocks handed to JavaScript is quarantine.c, shared with the other module.
#include "sweep_prune/sweep_prune.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>

#define SP_EXPORT __attribute__( ( used, visibility( "default" ) ) )

void* spQuarantineRealloc( void* ptr, size_t size ); // quarantine.c

// ---- What libc.a asks of Emscripten's JS runtime, here in C so that the module imports only its memory ----

// memcpy of large blocks (emscripten_memcpy.c); with bulk memory this is one memory.copy
void* emscripten_memcpy_big( void* restrict dest, const void* restrict src, size_t n )
{
	__builtin_memcpy( dest, src, n );
	return dest;
}

// sbrk's growth: grow the shared memory, from any thread, by half its size at least (a growth is rare and counted;
// the single-threaded module takes the same steps in web/src/loader.ts)
static _Atomic uint32_t sp_growths;
int emscripten_resize_heap( size_t size )
{
	const size_t page = 65536;
	const size_t old = __builtin_wasm_memory_size( 0 );
	if ( size <= old * page )
	{
		return 1;
	}
	const size_t need = ( size - old * page + page - 1 ) / page;
	const size_t step = need > old / 2 ? need : old / 2;
	if ( __builtin_wasm_memory_grow( 0, step ) == (size_t)-1 && __builtin_wasm_memory_grow( 0, need ) == (size_t)-1 )
	{
		return 0;
	}
	sp_growths += 1;
	return 1;
}

// Real growths of the memory so far (memoryStats() in web/src)
SP_EXPORT uint32_t sp_memory_growths( void )
{
	return sp_growths;
}

// The module's set-up, once, on the thread that instantiated it first (workers never call it).
SP_EXPORT void _initialize( void )
{
	spSetAllocator( spQuarantineRealloc );
}

// Workers of a pool inside sp_pool_work now (web/src/threads-pool.ts): read from shared memory, so a program that
// never yields to its event loop still sees workers that started (their messages wait for the event loop)
SP_EXPORT int sp_pool_running( spPool* pool )
{
	return spPool_GetRunningWorkerCount( pool );
}
