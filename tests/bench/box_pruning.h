// SPDX-License-Identifier: MIT
// A plain box-pruning reference, for the cold-start benchmark: what a textbook broadphase does with no state.
#pragma once

#include <stdint.h>

/// All overlapping pairs of n boxes (2 * d floats each, mins then maxes; closed intervals), as box indices
/// (lower first) appended to *pairs (grown with realloc; *capacity counts pairs). Returns the pair count.
/// Radix sort of the boxes on min x, then a scalar sweep over the sorted boxes. Bounds must be finite.
int BoxPruning( const float* bounds, int n, int d, uint32_t** pairs, int* capacity );
