// SPDX-License-Identifier: MIT
// Private: the default allocator of native builds (keep.c), realloc and free with large freed blocks kept for later
// allocations. Below core.c, which installs it: it calls nothing else of the engine.
#pragma once

#include "sweep_prune/sweep_prune.h"

#include <stdbool.h>
#include <stddef.h>

/// Natively (Linux and macOS, whose C libraries tell a block's size) the default allocator keeps large freed blocks
/// for later allocations; the wasm module's memory never shrinks and its malloc reuses freed memory, so there, as
/// elsewhere, it is realloc and free alone. -DSP_KEEP_BLOCKS=0 turns keeping off.
#ifndef SP_KEEP_BLOCKS
#if ( defined( __linux__ ) || defined( __APPLE__ ) ) && !defined( __wasm__ )
#define SP_KEEP_BLOCKS 1
#else
#define SP_KEEP_BLOCKS 0
#endif
#endif

#if SP_KEEP_BLOCKS
/// realloc/free semantics (spReallocFcn), with large freed blocks kept while keeping is on.
void* spKeptRealloc( void* ptr, size_t size );

/// Keep freed blocks (true, the default: spKeptRealloc is the installed allocator) or free them (another allocator
/// was installed: a block freed then is the world registry's, made before). Set by spSetAllocator.
void spKeepFreedBlocks( bool keep );
#endif
