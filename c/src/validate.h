// SPDX-License-Identifier: MIT
// Private: the update's validation pass and the compaction of the moving and static slot lists (validate.c).
#pragma once

#include "index.h"

/// Validate every live box and gather the moving boxes' statistics. Sets *staticChanged when a static box was
/// added, removed, switched or moved since the static index was built, and *allPair when no box has a filter
/// (every filter accepts every other), so the sweep can skip the per-pair filter lookups. A bad box: its error,
/// with world->lastInvalidBox set and nothing else changed.
spResult spValidate( spWorld* world, spAxisStats* stats, int* staticChanged, int* allPair );

/// The statistics of the boxes of `n` slots.
void spGatherStats( const spWorld* world, const int* slots, int n, spAxisStats* stats );

/// Drop removed and now-static slots from the order of the moving boxes, keeping it in order.
void spCompactOrder( spWorld* world );

/// Drop removed and now-moving slots from the statics.
void spCompactStatics( spWorld* world );
