// SPDX-License-Identifier: MIT
// Private: building a slab index from scratch (build.c), for the moving boxes on an incoherent frame and for the
// static boxes when one of them changed.
#pragma once

#include "index.h"

/// The build's scratch, owned by the world and shared by its two indexes' builds (one runs after the other).
typedef struct spBuildScratch
{
	int* range; // first and last slab per box (two ints per box)
	int rangeCapacity;
	int* slabCounts;  // the entry count per slab (slabCount + 2 ints), then summed: where each slab starts
	int* slabCursors; // the next place of each slab while the entries are written (slabCount + 1 ints)
	int slabCapacity;
	// many boxes only: the boxes in entry layout grouped by slab, before each slab's sort
	float* packed;
	uint32_t* packedIds;
	int packedCapacity;
	// the sort keys of one slab (or of every box), their sorted places (2 per key) and the sorts' temp (2 per key)
	float* sortKeys;
	uint32_t* sortTemp;
	int* sortOrder;
	int sortCapacity;
} spBuildScratch;

/// Build an index of the boxes of `count` slots, in any order (the bounds are read in that order: slot order reads
/// them sequentially), with `stats` their statistics, on the axes given. Returns false on allocation failure,
/// leaving the previous index whole. Ties on the sweep axis keep the order of `slots`.
/// With a pool (spParallelOn), the slabs are sorted by slab ranges at once, to the same result.
bool spBuildIndex( spIndex* index, spBuildScratch* scratch, spWorld* world, const int* slots, int count, int axis,
				   int slabAxis, const spAxisStats* stats );

void spFreeBuildScratch( spBuildScratch* scratch );
size_t spBuildScratchByteCount( const spBuildScratch* scratch, int stride );
