// SPDX-License-Identifier: MIT
// Private: persistent sorted endpoint lists, one per axis, for callers that want to see the sort (endpoints.c).
#pragma once

#include "core.h"

typedef struct spWorld spWorld;

/// A persistent sorted endpoint list for one axis (spWorld_GetEndpoints).
typedef struct spEndpointList
{
	float* values;
	uint32_t* refs;
	int count;
	int capacity;
} spEndpointList;

/// Bring one axis's endpoint list up to date.
spResult spUpdateEndpoints( spWorld* world, int axis );
