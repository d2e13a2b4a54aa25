// SPDX-License-Identifier: MIT
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined( _WIN32 ) && defined( SP_DLL )
#define SP_API __declspec( dllexport )
#elif defined( __GNUC__ )
#define SP_API __attribute__( ( visibility( "default" ) ) )
#else
#define SP_API
#endif

/// Largest number of dimensions a world can have. Boxes have 1 to SP_MAX_DIMENSIONS axes.
#define SP_MAX_DIMENSIONS 4

/// Number of world slots (22 slot bits of a world id, see id.h). Worlds are limited by memory long before: a slot
/// holds one world at a time and serves 1023 worlds before it is retired, so a process can create about 4.29
/// billion worlds in all, at most SP_MAX_WORLDS of them alive at once.
#define SP_MAX_WORLDS ( 1 << 22 )

/// Most threads a pool may have (spCreatePool), the caller's included.
#define SP_MAX_THREADS 64

/// Result of every fallible call. Zero is success. A call that returns anything else changed nothing.
typedef enum spResult
{
	sp_resultOk = 0,
	/// A bound is NaN or infinite. Bounds must be finite floats.
	sp_resultInvalidBounds,
	/// A box has min > max on some axis.
	sp_resultInvertedBounds,
	/// The dimension count is outside 1..SP_MAX_DIMENSIONS, or an axis index is outside 0..dimensions-1.
	sp_resultInvalidDimensions,
	/// A required pointer argument is null.
	sp_resultNullArgument,
	/// The world id is null, was destroyed, or never existed.
	sp_resultInvalidWorld,
	/// The box id is null, or was never handed out by this world.
	sp_resultInvalidBox,
	/// The box id was valid once but its box has been removed (double remove, use after remove).
	sp_resultStaleBox,
	/// The world already holds SP_MAX_BOXES boxes, or a requested capacity is out of range.
	sp_resultCapacityExceeded,
	/// An allocation failed. The world is unchanged and still usable.
	sp_resultOutOfMemory,
	/// Every one of the SP_MAX_WORLDS world slots is in use or retired.
	sp_resultTooManyWorlds,
	/// The definition was not made by spDefaultWorldDef, or has an invalid field.
	sp_resultInvalidDef,
	sp_resultCount
} spResult;

/// Creation parameters. Always start from spDefaultWorldDef().
typedef struct spWorldDef
{
	/// Number of axes, 1..SP_MAX_DIMENSIONS. Default 2.
	int dimensions;
	/// Number of boxes to reserve room for. Growth beyond it is automatic. Default 0.
	int capacity;
	/// Set by spDefaultWorldDef; a def without it is rejected with sp_resultInvalidDef.
	int internalValue;
} spWorldDef;

/// The engine's index of a set of boxes as the last spWorld_Update left it (spWorld_GetSlabs): the boxes sorted by
/// their min on `sweepAxis` inside slabs of `slabAxis`. For display and teaching; the arrays are the world's own.
typedef struct spSlabs
{
	/// Axis the boxes are sorted and swept along, or -1 when the index is empty (no update yet, or no boxes).
	int sweepAxis;
	/// Axis the slabs cut, or -1 when there is one slab.
	int slabAxis;
	/// Number of slabs (0 when the index is empty).
	int slabCount;
	/// Number of entries: a box that reaches into k slabs has an entry in each.
	int entryCount;
	/// slabCount values: slab s holds the boxes that reach into [floors[s], floors[s + 1]) on `slabAxis`;
	/// floors[0] is -INFINITY.
	const float* floors;
	/// slabCount + 1 values: the entries of slab s are ids[starts[s]] .. ids[starts[s + 1] - 1].
	const int* starts;
	/// entryCount box ids, slab after slab, each slab's in the order of their min on `sweepAxis`.
	const uint32_t* ids;
} spSlabs;

/// Work done by the last spWorld_Update, for profiling and for the demo page.
typedef struct spCounters
{
	/// Live boxes seen by the update.
	int boxes;
	/// Axis the boxes were sorted and swept along.
	int sweepAxis;
	/// Adjacent exchanges made by the insertion sorts within each slab when `refreshed` (0 when the frame was
	/// still, or rebuilt).
	int swaps;
	/// 1 when the moving boxes' index was rebuilt (the boxes bucketed into slabs again and each slab sorted): an
	/// incoherent frame, or the first update. Then `refreshed` is 0.
	int rebuilt;
	/// Number of slabs the boxes were bucketed into along the second axis (1 = one plain sweep).
	int slabs;
	/// Candidate pairs whose boxes overlapped on the sweep axis and were tested on the other axes.
	int overlapTests;
	/// Overlapping pairs after the update.
	int pairs;
	/// Pairs that began overlapping in the update.
	int began;
	/// Pairs that stopped overlapping in the update (including pairs of removed boxes).
	int ended;
	/// Adjacent exchanges made by insertion sort in the last spWorld_GetEndpoints call.
	int endpointSwaps;
	/// Static boxes (see spWorld_SetBoxStatic).
	int staticBoxes;
	/// 1 when a static box was added, removed or moved, so the static boxes' index was rebuilt.
	int staticRebuilt;
	/// 1 when the moving boxes' sorted slabs were brought up to date in place (a coherent frame; boxes added,
	/// removed or switched since the last update are merged into or dropped from their slabs), 0 when rebuilt.
	int refreshed;
} spCounters;

/// Default filter: category bit 0, collides with every category (as box2d's b2DefaultFilter).
#define SP_DEFAULT_CATEGORY 0x00000001u
#define SP_DEFAULT_MASK		0xFFFFFFFFu
