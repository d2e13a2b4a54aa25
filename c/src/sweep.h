// SPDX-License-Identifier: MIT
// Private: the sweep of the moving boxes' index (sweep.c).
#pragma once

#include "pairs.h"

/// Sweep every slab of the moving boxes' index into `found` (emptied first) as place pairs (i, j), i < j: places of
/// entries in the index, so the pairs come out sorted. A pair is reported only in the first slab both boxes touch.
/// `filtered` is 0 when every filter accepts every pair (no per-pair lookups then). Adds the candidates tested
/// (pairs overlapping on the sweep axis) to *tests. Returns false on allocation failure.
bool spSweepAll( spWorld* world, spPairArray* found, int filtered, int* tests );

typedef struct spIndex spIndex;

/// The floats of the 2D sweep's columns (spSweepSlabs) for the slabs s0..s1-1 of the index.
int spSweepColumnsNeeded( const spIndex* index, int s0, int s1 );

/// Sweep the slabs s0..s1-1 of the moving boxes' index, appending their place pairs to `found`, in slab order;
/// `columns` holds spSweepColumnsNeeded floats (read only by the 2D kernel with no filter). Reads the world only
/// (a task of a parallel sweep). Returns false on allocation failure.
bool spSweepSlabs( const spWorld* world, spPairArray* found, float* columns, int s0, int s1, int filtered, int* tests );

/// spSweepAll over the world's pool: each slab range swept into its task's pairs, then gathered in slab order.
bool spParallelSweep( spWorld* world, spPairArray* found, int filtered, int* tests );
