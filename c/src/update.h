// SPDX-License-Identifier: MIT
// Private: the frame (update.c).
#pragma once

#include "core.h"

typedef struct spWorld spWorld;

/// One update: validate, index, sweep, pair lists, counters (update.c's opening comment). A failed update changes
/// nothing that is read: the last update's pairs, events and counters stay.
spResult spUpdateWorld( spWorld* world );
