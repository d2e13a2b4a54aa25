// SPDX-License-Identifier: MIT
// Private: bringing the moving boxes' slab index up to date in place of a rebuild, on a coherent frame (refresh.c).
#pragma once

#include "index.h"

/// The refresh's scratch and its map of the places before to the places after, owned by the world.
typedef struct spRefreshScratch
{
	// the entries kept, slab by slab, with their places before the refresh (their ids are the index's there)
	float* kept;
	int* keptOrigins;
	int keptCapacity;
	// per slab (slabCount + 1 each): the first kept entry and the end of its kept entries (kept entries of a slab
	// range start at the places of its entries, so slabs are not contiguous), the first incoming entry, the next
	// place of its incoming entries while they are grouped, the largest extent of its kept entries on the sweep
	// axis, and after a refresh, where each slab started before it
	int* keptStart;
	int* keptEnd;
	int* previousSlabStart;
	int* inStart;
	int* inCursor;
	float* keptWidth;
	int slabCapacity;
	// entries that reach a new slab: as found (room for the incoming limit; with a pool, for each task's share),
	// then grouped by slab (room for the limit)
	float* incoming;
	uint32_t* incomingIds;
	int* incomingSlabs;
	int incomingCapacity;
	// After a refresh: remap[i] is the place of the entry that was at place i before, or -1 if its box left that
	// slab (in a world that makes events: spWorld_SetEvents), and previousIds[i] its id (previousCount entries). The
	// refresh swaps the previousIds buffer with the index's ids before the merge writes the new ids, so previousIds
	// holds the ids as they were, with no copy.
	int* remap;
	int remapCapacity;
	uint32_t* previousIds;
	int previousIdsCapacity;
	int previousCount;
	// A refresh done but for its merge: the sweep merges each slab just before it sweeps it (spMergeRefreshed), while
	// the slab is in cache, from the kept entries above and the incoming ones grouped by slab here.
	int mergePending;
	const float* grouped;
	const uint32_t* groupedIds;
	// The refresh on one thread, which merges and sweeps each slab a few slabs behind its pass: a slab's kept entries
	// in a window of a few slabs' room (in place of `kept`), the new entries written to spareEntries (which then
	// changes places with the index's entries, and the new ids to previousIds), the incoming entries as found linked
	// slab by slab (inNext from each slab's inHead to its inTail), and its sweep's candidate tests when `swept` (the
	// update then skips its sweep). After an entry arrived for a slab already merged (a box that moved down by more
	// slabs than the merge runs behind), the pass on one thread waits streamWait refreshes (streamBackoff, doubled
	// with each such refresh in a row).
	float* window;
	int* windowOrigins;
	int windowCapacity;
	float* spareEntries;
	int spareCapacity;
	int* inNext;
	int* inHead;
	int* inTail;
	int swept, sweptTests;
	int streamWait, streamBackoff;
} spRefreshScratch;

typedef enum spRefreshResult
{
	spRefreshDone,
	spRefreshTooManyMoves, // more than the limit of boxes reached new slabs (found early: a cheap give-up)
	spRefreshTooManySwaps, // the slabs' insertion sorts passed the budget (found late)
	spRefreshOutOfMemory
} spRefreshResult;

/// Bring the moving boxes' index up to date in place of a rebuild, when its plan (axis, slabs) still fits the
/// boxes: each entry's box is re-read from the world, a box that left a slab (or was removed, or made static) is
/// dropped from it, a box that reached a new slab (or was added, or made moving) is merged into it, and each
/// slab is insertion-sorted. Gives up past `swapBudget` swaps or `incomingLimit` new slab entries, and fails
/// on allocation failure, in both cases with nothing that queries read changed. Done: the swap count in *swaps,
/// and the scratch's remap and previousIds map the places before to the places after once every slab is merged.
/// On one thread, each slab is merged and swept a few slabs behind the pass (`filtered` as spSweepAll's): the index
/// is whole, the pairs are in the sweep's list (the world's placePairs[1 - current]) and `swept` is set. With a pool
/// (spParallelOn), slab ranges are refreshed at once, to the same result, and the index's slab starts and ids are the
/// new ones, but each slab's entries are merged by spMergeRefreshed (the sweep's, slab by slab) or spFinishRefresh
/// (mergePending until then).
spRefreshResult spRefreshIndex( spIndex* index, spRefreshScratch* scratch, spWorld* world, int swapBudget,
								int incomingLimit, int filtered, int* swaps );

/// With a refresh's merge pending, merge the slabs s0..s1-1 of the moving boxes' index (each slab once, by whatever
/// range sweeps it). Slab ranges are independent: a pool's tasks may merge theirs at once.
void spMergeRefreshed( spWorld* world, int s0, int s1 );

/// Merge every slab if a refresh's merge is pending (when the sweep is not run: an allocation failure before it),
/// and end the pending state (after the sweep has merged every slab).
void spFinishRefresh( spWorld* world, int merged );

void spFreeRefreshScratch( spRefreshScratch* scratch );
size_t spRefreshScratchByteCount( const spRefreshScratch* scratch, int stride );
