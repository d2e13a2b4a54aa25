// SPDX-License-Identifier: MIT
// sweep-prune: all overlapping pairs of axis-aligned boxes in 1 to 4 dimensions.
//
// Contract: boxes are closed intervals on every axis (boxes that touch overlap); a pair is reported once, with
// the lower id first, never with itself; after spWorld_Update the pair list is exactly what brute force finds.
//
// Sections: worlds, boxes, the update, its results, queries; then threads (pools; the rule for using worlds on
// several threads) and memory (the allocator).
#pragma once

#include "id.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---- Worlds: create, destroy, size. A fallible call returns an spResult (types.h); spResultString gives text.

/// Default creation parameters: 2 dimensions, no reserved capacity.
SP_API spWorldDef spDefaultWorldDef( void );

/// Create a world. On success writes the new id to *outWorld. Fails with sp_resultInvalidDef,
/// sp_resultInvalidDimensions, sp_resultCapacityExceeded, sp_resultTooManyWorlds or sp_resultOutOfMemory.
SP_API spResult spCreateWorld( const spWorldDef* def, spWorldId* outWorld );

/// Destroy a world and free all its memory. Every pointer the world handed out becomes invalid. With the default
/// allocator, natively, its large blocks are kept for the next worlds rather than given back to the system
/// (spTrimMemory).
SP_API spResult spDestroyWorld( spWorldId worldId );

/// True if the id names a live world.
SP_API bool spWorld_IsValid( spWorldId worldId );

/// Number of axes of the world, or 0 for an invalid id.
SP_API int spWorld_GetDimensions( spWorldId worldId );

/// Number of live boxes, or 0 for an invalid id.
SP_API int spWorld_GetBoxCount( spWorldId worldId );

/// Bytes of heap memory the world owns.
SP_API size_t spWorld_GetByteCount( spWorldId worldId );

/// Make room for `capacity` boxes so that adding up to that many does not allocate (and, in wasm, does not
/// grow memory and detach views). Fails with sp_resultCapacityExceeded or sp_resultOutOfMemory.
SP_API spResult spWorld_Reserve( spWorldId worldId, int capacity );

/// Slots the world has room for: boxes can be added up to this many (counting the slots of removed boxes, which
/// are reused first) before its arrays grow and the bounds array moves. 0 for an invalid id.
SP_API int spWorld_GetCapacity( spWorldId worldId );

/// Text for a result code, for example "stale box id". Never null; unknown codes give "unknown result".
SP_API const char* spResultString( spResult result );

// ---- Boxes: add, remove, move, filter, make static; the bounds array.

/// Add a box. `min` and `max` hold `dimensions` floats each; they must be finite with min[a] <= max[a].
/// The box takes part in pairs from the next spWorld_Update. May grow the bounds array (see spWorld_GetBounds).
SP_API spResult spWorld_AddBox( spWorldId worldId, const float* min, const float* max, spBoxId* outBox );

/// Add `count` boxes in one call. `bounds` holds 2 * dimensions floats per box, its mins then its maxes (the layout
/// of spWorld_GetBounds); box i's id is written to outBoxes[i]. Every box is validated before anything changes: on
/// NaN, infinite or inverted bounds in any box it returns sp_resultInvalidBounds or sp_resultInvertedBounds and adds
/// none. `count` must be 0 to SP_MAX_BOXES (sp_resultCapacityExceeded otherwise, and when the world would hold
/// more). Allocates at most once, so adding n boxes costs O(n); like spWorld_AddBox it may grow the bounds array.
SP_API spResult spWorld_AddBoxes( spWorldId worldId, const float* bounds, int count, spBoxId* outBoxes );

/// Remove a box. Its pairs are reported as ended by the next spWorld_Update. Its id becomes stale.
SP_API spResult spWorld_RemoveBox( spWorldId worldId, spBoxId boxId );

/// Set a box's bounds (validated like spWorld_AddBox).
SP_API spResult spWorld_SetBox( spWorldId worldId, spBoxId boxId, const float* min, const float* max );

/// Set the bounds of `count` boxes in one call: boxIds[i] gets the 2 * dimensions floats at bounds + i * 2 *
/// dimensions (mins then maxes). Every id and every box is validated before anything changes (sp_resultStaleBox,
/// sp_resultInvalidBox, sp_resultInvalidBounds, sp_resultInvertedBounds); an id given twice gets its last bounds.
SP_API spResult spWorld_SetBoxes( spWorldId worldId, const spBoxId* boxIds, const float* bounds, int count );

/// Read a box's bounds into `min` and `max` (`dimensions` floats each).
SP_API spResult spWorld_GetBox( spWorldId worldId, spBoxId boxId, float* min, float* max );

/// True if the box id names a live box of this world.
SP_API bool spWorld_IsBoxValid( spWorldId worldId, spBoxId boxId );

/// Set a box's collision filter. Two boxes A and B pair only if (A.category & B.mask) != 0 and
/// (B.category & A.mask) != 0. New boxes have category SP_DEFAULT_CATEGORY and mask SP_DEFAULT_MASK.
/// Two groups that report only cross pairs (bullets and enemies): category 1, mask 2 for one group and category 2,
/// mask 1 for the other. Takes effect at the next spWorld_Update; pairs it forbids are then reported as ended.
SP_API spResult spWorld_SetBoxFilter( spWorldId worldId, spBoxId boxId, uint32_t category, uint32_t mask );

/// Read a box's collision filter.
SP_API spResult spWorld_GetBoxFilter( spWorldId worldId, spBoxId boxId, uint32_t* category, uint32_t* mask );

/// Make a box static (or moving again). Static boxes never pair with each other, and while none of them changes
/// they cost the update only a comparison of their bounds with a cached copy: their sorted index is rebuilt only
/// when a static box is added, removed or moved (through spWorld_SetBox or the bounds array). Use it for level
/// geometry, and for sleeping bodies. New boxes are moving.
SP_API spResult spWorld_SetBoxStatic( spWorldId worldId, spBoxId boxId, bool isStatic );

/// True if the box is static; false for moving boxes and invalid ids.
SP_API bool spWorld_IsBoxStatic( spWorldId worldId, spBoxId boxId );

/// The bounds array: for the box in slot s (spBoxId_Slot), floats [s*2d, s*2d+d) are its mins and
/// [s*2d+d, s*2d+2d) its maxes, d = dimensions. Writing there moves boxes with no call per box; writes are
/// not validated until spWorld_Update, which rejects the whole frame if any live box is NaN, infinite or
/// inverted. Slots of removed boxes are ignored. *floatCount receives the array length.
/// Owned by the world; it moves only when the world's capacity grows (spWorld_GetCapacity): an spWorld_AddBox,
/// spWorld_AddBoxes or spWorld_Reserve past it. Room for spWorld_GetCapacity slots follows the first floatCount.
SP_API float* spWorld_GetBounds( spWorldId worldId, int* floatCount );

// ---- The update.

/// Bring the pair lists up to date with the current bounds.
/// Validates every live box first: on NaN, infinite or inverted bounds it returns sp_resultInvalidBounds or
/// sp_resultInvertedBounds, records the box (spWorld_GetLastInvalidBox) and changes nothing else: the pairs,
/// began and ended lists of the previous update stay as they were. May also fail with sp_resultOutOfMemory,
/// again leaving the previous lists intact.
/// Cost: O(n + swaps + candidates) on coherent frames; incoherent frames rebuild the slabs (O(n) radix passes).
SP_API spResult spWorld_Update( spWorldId worldId );

/// The box that made the last spWorld_Update or spWorld_GetEndpoints call fail validation, or the null id when
/// that call's validation passed.
SP_API spBoxId spWorld_GetLastInvalidBox( spWorldId worldId );

/// Whether spWorld_Update computes the began and ended lists (the default) or the pairs only. Without events an
/// update hands out its pairs as the sweep found them, with no sort by id and no diff with the last update's
/// pairs, which is most of an update's cost beyond the sweep when many boxes pair with static boxes; began and
/// ended are then empty. Switched back on, the next update's events are relative to the last update's pairs.
SP_API spResult spWorld_SetEvents( spWorldId worldId, bool enabled );

// ---- Results of the last update: pairs, began and ended, counters; endpoint lists and slabs (views of the sort).

/// Overlapping pairs after the last spWorld_Update, as 2 * (*pairCount) box id values: a0, b0, a1, b1, ...
/// with a < b in each pair. The order of the pairs is not sorted (an update after coherent motion keeps them in
/// the sweep's order, which saves sorting them), but it is deterministic: the same calls give the same list on
/// every run and platform. Owned by the world; valid until the next spWorld_Update or spDestroyWorld. Do not
/// store the pointer.
SP_API const uint32_t* spWorld_GetPairs( spWorldId worldId, int* pairCount );

/// The pairs of spWorld_GetPairs, copied into a list the world owns but never reads: for bindings that hand the
/// list to code that might write into it (the engine reads the pairs list back at the next update). Copied at
/// most once per update; valid until the next spWorld_Update or spDestroyWorld. Fails with
/// sp_resultInvalidWorld, sp_resultNullArgument or sp_resultOutOfMemory (then nothing changed).
SP_API spResult spWorld_CopyPairs( spWorldId worldId, const uint32_t** pairs, int* pairCount );

/// Pairs that began overlapping in the last spWorld_Update (same layout and lifetime as spWorld_GetPairs), sorted
/// by (a, b).
SP_API const uint32_t* spWorld_GetBeganPairs( spWorldId worldId, int* pairCount );

/// Pairs that stopped overlapping in the last spWorld_Update, including pairs of boxes removed since the update
/// before (same layout and lifetime as spWorld_GetPairs), sorted by (a, b).
SP_API const uint32_t* spWorld_GetEndedPairs( spWorldId worldId, int* pairCount );

/// Work done by the last spWorld_Update (and the last spWorld_GetEndpoints for endpointSwaps).
SP_API spCounters spWorld_GetCounters( spWorldId worldId );

/// The sorted endpoint list of one axis: 2 entries per live box, ascending by value; at equal values a min comes
/// before a max (closed intervals). values[i] is the coordinate; refs[i] = slot << 1 | isMax. The list is kept
/// between calls and re-sorted by insertion sort, so a call after coherent motion costs O(n + swaps); the swaps
/// are reported in spCounters.endpointSwaps. Reflects the bounds at the time of the call.
/// Validates every live box first, like spWorld_Update: on NaN, infinite or inverted bounds (written through the
/// bounds array) it returns sp_resultInvalidBounds or sp_resultInvertedBounds, records the box
/// (spWorld_GetLastInvalidBox) and changes nothing else. Also fails with sp_resultNullArgument,
/// sp_resultInvalidDimensions (axis outside 0..dimensions-1) or sp_resultOutOfMemory.
/// Owned by the world; valid until the next call that changes the world or asks for endpoints again.
SP_API spResult spWorld_GetEndpoints( spWorldId worldId, int axis, const float** values, const uint32_t** refs,
									  int* count );

/// The index the last spWorld_Update made of the moving boxes (`statics` false) or of the static boxes (true):
/// which axes it chose, its slabs and each slab's boxes in sorted order. Removed boxes may still appear until the
/// next update (spWorld_IsBoxValid tells). The arrays are owned by the world and valid until the next
/// spWorld_Update or spDestroyWorld. Fails with sp_resultInvalidWorld or sp_resultNullArgument.
SP_API spResult spWorld_GetSlabs( spWorldId worldId, bool statics, spSlabs* slabs );

// ---- Queries, answered from the last update's indexes: region, point, ray, nearest, radius.

/// Ids of the boxes that overlap the box (min, max) (closed intervals) and whose category & mask is non-zero,
/// sorted by id. Answered from the sorted data of the last spWorld_Update, in O(log n + candidates) per slab
/// crossed: it sees the boxes as they were at that update (boxes added since are not found; removed ones are
/// skipped). `min` and `max` must be finite with min <= max. The array is owned by the world and valid until the
/// next query or update.
SP_API spResult spWorld_QueryBox( spWorldId worldId, const float* min, const float* max, uint32_t mask,
								  const uint32_t** ids, int* count );

/// Ids of the boxes that contain `point` (closed), as spWorld_QueryBox with min = max = point.
SP_API spResult spWorld_QueryPoint( spWorldId worldId, const float* point, uint32_t mask, const uint32_t** ids,
									int* count );

/// Boxes hit by the ray from `origin` along `direction` (non-zero; need not be unit length) within
/// `maxDistance` (>= 0; INFINITY for an unbounded ray), whose category & mask is non-zero, ordered by distance
/// (ties by id). distances[i] is the Euclidean distance from the origin to where the ray enters box ids[i]
/// (0 when the origin is inside). As spWorld_QueryBox, it sees the boxes of the last update; arrays are valid until
/// the next query or update.
SP_API spResult spWorld_CastRay( spWorldId worldId, const float* origin, const float* direction, float maxDistance,
								 uint32_t mask, const uint32_t** ids, const float** distances, int* count );

/// Options of spWorld_CastRayWith. Always start from spDefaultRayDef().
typedef struct spRayDef
{
	/// Length of the ray (>= 0). Default INFINITY.
	float maxDistance;
	/// Boxes reported as hits: category & mask non-zero. Default every category.
	uint32_t mask;
	/// The ray stops at the first box whose category & blockMask is non-zero (a wall for a line of sight): that box
	/// is the blocker, not a hit, and the hits are the boxes before it. Default 0: nothing blocks.
	uint32_t blockMask;
	/// A box the ray passes through unseen, neither hit nor blocker (the shooter's own box). Default null: none.
	spBoxId ignoreBox;
	/// At most this many hits, the nearest (1: the first hit only). The search stops there, so a short answer on
	/// a long ray costs little. Default 0: no limit.
	int maxHits;
	/// Set by spDefaultRayDef; a def without it is rejected with sp_resultInvalidDef.
	int internalValue;
} spRayDef;

/// What spWorld_CastRayWith found.
typedef struct spRayResult
{
	/// Hits ordered by distance (ties by id), and the distance from the origin to where the ray enters each
	/// (0 when the origin is inside). Owned by the world, valid until the next query or update.
	const uint32_t* ids;
	const float* distances;
	int count;
	/// The box that stopped the ray (spRayDef.blockMask), or the null id when none did within maxDistance (or the
	/// ray stopped at maxHits first); and the distance to where the ray enters it.
	spBoxId blocker;
	float blockerDistance;
} spRayResult;

/// Default ray options: unbounded, every category hit, nothing blocks, nothing ignored, no limit on hits.
SP_API spRayDef spDefaultRayDef( void );

/// spWorld_CastRay with options: a first hit only (maxHits 1), rays stopped by blocking boxes, a box to ignore.
/// Boxes are ordered by where the ray enters them (ties by id); a box both hit and blocking is the blocker. Fails
/// as spWorld_CastRay, and with sp_resultInvalidDef (a def not from spDefaultRayDef, or maxHits < 0); then nothing
/// changed. As every query, it sees the boxes of the last update.
SP_API spResult spWorld_CastRayWith( spWorldId worldId, const float* origin, const float* direction,
									 const spRayDef* def, spRayResult* result );

/// The k boxes nearest to `point` (at most k; fewer when fewer boxes are within reach) whose category & mask is
/// non-zero and whose distance is at most `maxDistance` (>= 0; INFINITY for no limit), nearest first, ties by id.
/// distances[i] is the Euclidean distance from the point to box ids[i] (0 when the point is inside or on it).
/// Answered from the sorted slabs of the last spWorld_Update by an expanding search (a region query around the
/// point, widened until it holds k boxes), so it sees the boxes as spWorld_QueryBox does. `point` must be finite.
/// Fails with sp_resultInvalidWorld, sp_resultNullArgument, sp_resultInvalidBounds (a point coordinate NaN or
/// infinite, maxDistance NaN or negative), sp_resultCapacityExceeded (k < 0) or sp_resultOutOfMemory; then nothing
/// changed. Arrays owned by the world, valid until the next query or update.
SP_API spResult spWorld_Nearest( spWorldId worldId, const float* point, int k, float maxDistance, uint32_t mask,
								 const uint32_t** ids, const float** distances, int* count );

/// The boxes within `radius` (>= 0; INFINITY for every box) of `center` by box distance (as spWorld_Nearest: 0
/// inside, so a box counts when any part of it is within the radius, not its centre), whose category & mask is
/// non-zero, nearest first, ties by id, with their distances. Errors, view of the boxes and lifetime as
/// spWorld_Nearest.
SP_API spResult spWorld_QueryRadius( spWorldId worldId, const float* center, float radius, uint32_t mask,
									 const uint32_t** ids, const float** distances, int* count );

// ---- Threads: pools that share the work of an update.

/// Threads. A world is used by one thread at a time: no two calls on the same world may run at once. Different worlds
/// may be used on different threads at once (each world owns all its memory and scratch; the library's only shared
/// state is listed here). State shared by all worlds, and so not safe to change while another thread uses the
/// library: the registry of worlds (spCreateWorld, spDestroyWorld) and the allocator hook (spSetAllocator: install
/// it before any world exists; with worlds on several threads it must be thread-safe, as realloc and free are). The
/// release count (spGetReleaseCount) is shared too, and is counted atomically; the default allocator's kept blocks
/// (spTrimMemory) are shared behind a lock.

/// A pool of threads that share the work of spWorld_Update (sweep_prune.h, Threads). Opaque.
typedef struct spPool spPool;

/// Create a pool of `threads` threads in all: the thread that calls spWorld_Update and `threads - 1` workers, each
/// a thread of the caller's that runs spPool_Work. The pool starts no thread itself (a binding starts them its own
/// way: pthreads, web workers), and an update never waits for a worker: the caller's thread claims every task no
/// worker has, so with no worker started it does all the work, with the same results. Fails with
/// sp_resultNullArgument (out null), sp_resultCapacityExceeded (threads outside 1..SP_MAX_THREADS) or
/// sp_resultOutOfMemory; then nothing was made.
SP_API spResult spCreatePool( int threads, spPool** out );

/// A worker's loop: take tasks of the pool's jobs until spPool_Stop. `worker` is 1..threads-1 (0 is the caller);
/// any other value, or a null pool, returns at once. Between jobs the worker sleeps (in wasm with
/// memory.atomic.wait32, so not on a browser's main thread). A build with no shared memory (wasm without atomics)
/// returns at once.
SP_API void spPool_Work( spPool* pool, int worker );

/// Workers inside spPool_Work now: entered it, and not yet returned. Until a worker has entered, the caller's thread
/// does its share of every update, so this is how many threads besides the caller's share updates at this moment.
/// Any thread may call it; 0 for a null pool and in a build with no shared memory.
SP_API int spPool_GetRunningWorkerCount( spPool* pool );

/// Make every spPool_Work of the pool return (each after the task it is in). Updates still run on the caller's
/// thread afterwards.
SP_API void spPool_Stop( spPool* pool );

/// Free a pool, after its workers have returned (or never started) and no world uses it (spWorld_SetPool null, or
/// the world destroyed). Null is ignored.
SP_API void spDestroyPool( spPool* pool );

/// Spread the world's updates over the pool's threads (null: the caller's thread alone, the default). Pairs,
/// began, ended and counters are the same, in the same order, for any pool. One pool may serve several worlds; two
/// of their updates at once (on two threads) are safe, the second one then running on its own thread alone. Below
/// 32768 moving boxes the update runs on the caller alone (threads do not pay there). With a pool, the allocator
/// (spSetAllocator) is called from the workers too: it must be thread-safe (realloc is; a build with SP_THREADS
/// defined serialises the calls with a lock). Fails with sp_resultInvalidWorld.
SP_API spResult spWorld_SetPool( spWorldId worldId, spPool* pool );

/// The fewest moving boxes for which the world's updates use its pool (default SP_PARALLEL_MIN_BOXES, 32768; 0:
/// every update, as tests of a threaded build want). Results are the same either way; only the speed differs. Fails
/// with sp_resultInvalidWorld or sp_resultCapacityExceeded (minBoxes < 0), then nothing changed.
SP_API spResult spWorld_SetParallelMinBoxes( spWorldId worldId, int minBoxes );

// ---- Memory: the allocator.

/// Memory function: like realloc(ptr, size) when size > 0 (returns null on failure, leaving ptr untouched), and
/// like free(ptr) when size == 0 (returns null).
typedef void* spReallocFcn( void* ptr, size_t size );

/// Route every allocation of the library through `fcn` (null restores the default allocator). Set it while no world
/// exists. Installing one first frees the blocks the default allocator kept (spTrimMemory); `fcn` then gets every
/// allocation and every free, and nothing is kept.
SP_API void spSetAllocator( spReallocFcn* fcn );

/// The default allocator (natively on Linux and macOS; in wasm it is malloc and free alone) keeps the blocks of
/// 32 KiB or more that the library frees (a destroyed world's arrays, the old block of an array that grew), up to
/// 64 MiB and 96 blocks in all (the oldest go first), and hands them to later allocations of about their size (half
/// of it or more). So a program that creates and destroys worlds over and over touches no fresh memory after the
/// first (glibc would give those blocks back to the kernel, and every world would fault its pages in again). The
/// kept blocks are shared by all threads, behind a lock. spTrimMemory frees them all: call it when done with worlds
/// for a while. Returns the bytes freed (0 in wasm, and with another allocator installed).
SP_API size_t spTrimMemory( void );

/// How many blocks the library has freed or moved (through free or a realloc that moved them) since the program
/// started, in every world. For bindings that hand out views of the world's arrays (bounds, pairs, ...): when it
/// changes after a call, an array may have moved, so every view taken before must be dropped (the JS wrapper
/// detaches them all by growing wasm memory by zero pages).
SP_API uint32_t spGetReleaseCount( void );

#ifdef __cplusplus
}
#endif
