// SPDX-License-Identifier: MIT
// Private: the bottom of the engine, included by every file of it: asserts, the force-inline macro, allocation,
// the growth helpers and the bounds check (core.c); keep.h, the default allocator natively, is below it.
//
// The engine's words:
// - slot: a box's place in the world's arrays (bounds, ids, flags, filters); a removed box's slot is reused.
// - id: slot << SP_GENERATION_BITS | generation, the handle users hold (id.h); pairs are pairs of ids.
// - entry: a box's record in a slab index (index.h): min and max on the sweep axis first, then the other axes.
// - place: an entry's position in an index's entries; the sweep finds place pairs and turns them into id pairs.
// - slab: a band of the index along its second (slab) axis; a box has an entry in every slab it touches, and a
//   pair is reported only in the first slab both touch.
// - mover: a moving (not static) box; the moving boxes have one index, refreshed or rebuilt every update.
// - static: a box that never pairs with another static box; the static boxes have their own index, rebuilt only
//   when one of them changes.
// - kept and incoming (refresh.c): entries whose box still touches their slab, and entries of boxes that reached a
//   slab they did not touch before (or were added, or made moving).
#pragma once

#include "keep.h"
#include "sweep_prune/sweep_prune.h"

#include <assert.h>
#include <float.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if !defined( __GNUC__ ) && !defined( __clang__ )
#error "sweep-prune's engine needs GCC or Clang (vector extensions, __builtin_popcount, always_inline)"
#endif

#ifdef NDEBUG
#define SP_ASSERT( c ) ( (void)0 )
#else
#define SP_ASSERT( c ) assert( c )
#endif

/// Inline even where the compiler's heuristics would not: kernels written once for any dimension count are
/// specialised by a constant argument at each call.
#define SP_FORCE_INLINE static inline __attribute__( ( always_inline ) )

/// Optimised for size and placed apart: a function on a rare path (an error, a change of the static boxes, a world's
/// end). Never on the update's main path: GCC treats code that always reaches a cold call as cold too.
#define SP_COLD __attribute__( ( cold ) )

/// Allocation through the installed allocator (spSetAllocator). spRealloc(p, 0) is not used.
void* spRealloc( void* ptr, size_t size );
void spFree( void* ptr );
/// The allocator installed now (for the world registry, which outlives worlds and so allocator changes).
spReallocFcn* spGetAllocator( void );

/// Grow *data to hold at least `need` elements of `elemSize` bytes, by a factor of 1.5 or more. Contents are
/// kept. Returns false, leaving *data and *capacity untouched, on overflow or allocation failure.
bool spGrow( void** data, int* capacity, int need, size_t elemSize );

/// The capacity to grow to for `need` elements, for arrays whose size follows the boxes from frame to frame:
/// `capacity` if it holds them, else the larger of 1.5 times it and `need` with an eighth more room, at least 16.
/// The room keeps a size that wavers by a few elements from one frame to the next from reallocating (and copying)
/// the array again in the next frames.
int spGrownCapacity( int capacity, int need );

/// spGrow to spGrownCapacity.
bool spGrowWithRoom( void** data, int* capacity, int need, size_t elemSize );

/// One array of a set that shares a capacity: `perUnit` elements of `elemSize` bytes per unit of the capacity.
typedef struct spArray
{
	void** data;
	size_t elemSize;
	int perUnit;
} spArray;

/// Grow every array of a set that shares one capacity to `target` units (each by spGrow, contents kept) and record
/// `target` as the capacity; nothing to do when the capacity holds it. On failure the capacity is unchanged
/// (arrays that did grow keep their larger blocks, which is harmless), so nothing that is read changes.
bool spGrowArrays( int* capacity, int target, const spArray* arrays, int count );

#define SP_ARRAY_COUNT( a ) ( (int)( sizeof( a ) / sizeof( ( a )[0] ) ) )

/// Validate one box's bounds: finite, min <= max.
spResult spCheckBounds( const float* min, const float* max, int dimensions );

/// 1 if a box (`dimensions` mins, then maxes) passes spCheckBounds, else 0: -FLT_MAX <= min <= max <= FLT_MAX on
/// every axis (NaN fails), without a branch, for passes over many boxes (which find the error box by box only when
/// one fails).
SP_FORCE_INLINE int spBoundsOrdered( const float* b, int dimensions )
{
	int ok = 1;
	for ( int a = 0; a < dimensions; ++a )
	{
		ok &= ( b[a] >= -FLT_MAX ) & ( b[a] <= b[dimensions + a] ) & ( b[dimensions + a] <= FLT_MAX );
	}
	return ok;
}

#ifdef SP_PHASE_TIMES
/// A monotonic clock in ms, for the update's phase times (world.h SP_PHASE) in the benchmark's build.
double spPhaseClock( void );
#endif
