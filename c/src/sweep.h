// SPDX-License-Identifier: MIT
// Private: the sweep of the moving boxes' index (sweep.c).
#pragma once

#include "pairs.h"

/// Sweep every slab of the moving boxes' index into `found` (emptied first) as place pairs (i, j), i < j: places of
/// entries in the index, so the pairs come out sorted. A pair is reported only in the first slab both boxes touch.
/// `filtered` is 0 when every filter accepts every pair (no per-pair lookups then). Adds the candidates tested
/// (pairs overlapping on the sweep axis) to *tests. With a pool (spParallelOn), slab ranges are swept at once, to the
/// same result. A refresh's pending merge (refresh.h) is run slab by slab as the sweep reaches each slab, and is
/// finished whatever happens. Returns false on allocation failure.
bool spSweepAll( spWorld* world, spPairArray* found, int filtered, int* tests );
