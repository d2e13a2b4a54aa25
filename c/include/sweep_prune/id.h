// SPDX-License-Identifier: MIT
#pragma once

#include <stdint.h>

/// World handle. Opaque; zero is null. The layout of a box id: bits 10..31 hold the world's slot in the registry,
/// bits 0..9 a generation in 1..1023:
///   bits = slot << SP_GENERATION_BITS | generation
/// The registry grows with the number of worlds alive (worlds are limited by memory, see SP_MAX_WORLDS).
/// Destroying a world advances its slot's generation, and a slot whose generation would wrap is retired, so the
/// id of a destroyed world is never accepted again.
typedef struct spWorldId
{
	uint32_t bits;
} spWorldId;

/// Box handle. Opaque; zero is null. Bits 10..31 hold the box's slot, bits 0..9 a generation in 1..1023:
///   bits = slot << SP_GENERATION_BITS | generation
/// Removing a box advances its slot's generation, so every id of a removed box is detected as stale.
/// A slot whose generation would wrap is retired and never handed out again, so a stale id is never
/// accepted, however often slots are reused. Ids compare in slot order; pair lists are sorted by them.
/// The same 32-bit values appear in pair buffers.
typedef struct spBoxId
{
	uint32_t bits;
} spBoxId;

#define SP_GENERATION_BITS 10
#define SP_GENERATION_MASK ( ( 1u << SP_GENERATION_BITS ) - 1u )
/// Largest number of box slots a world can use (22 slot bits).
#define SP_MAX_BOXES ( 1 << ( 32 - SP_GENERATION_BITS ) )

static const spWorldId sp_nullWorldId = { 0 };
static const spBoxId sp_nullBoxId = { 0 };

/// Slot of a box id: the box's bounds start at float index slot * 2 * dimensions in the bounds array.
static inline uint32_t spBoxId_Slot( spBoxId id )
{
	return id.bits >> SP_GENERATION_BITS;
}

static inline int spBoxId_IsNull( spBoxId id )
{
	return id.bits == 0;
}
