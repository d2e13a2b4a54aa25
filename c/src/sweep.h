// SPDX-License-Identifier: MIT
// Private: the sweep kernels of the moving boxes' index (sweep.c).
#pragma once

#include "pairs.h"

typedef struct spTask spTask;

/// Sweep slab `slab` of the moving boxes' index, held at places begin..end-1 of `entries` and `ids` (the index's own, or
/// a refresh's new entries while it is written: refresh.c), appending its place pairs (i, j), i < j, to `found`: a
/// pair only in the first slab both boxes touch; `filtered` is 0 when every filter accepts every pair (no per-pair
/// lookups then), and the candidates tested (pairs overlapping on the sweep axis) are added to *tests; `columns` from
/// spSweepColumns for at least end - begin entries. Returns false on allocation failure.
bool spSweepSlabOf( const spWorld* world, const float* entries, const uint32_t* ids, spPairArray* found, float* columns,
					int slab, int begin, int end, int filtered, int* tests );

/// The scratch spSweepSlabOf needs for a slab of `entries` entries, in the task's scratch; null on allocation failure.
float* spSweepColumns( spTask* task, int entries );
