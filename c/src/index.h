// SPDX-License-Identifier: MIT
// Private: the slab index (index.c): boxes sorted along one axis and bucketed into slabs along a second, the
// sorted data the sweep, the static boxes' pairs and the public queries read. build.c builds one from scratch;
// refresh.c brings the moving boxes' one up to date.
#pragma once

#include "core.h"
#include "pairs.h"

/// Entries an index keeps after its last one (zeroed): the spare entry spBuildIndex writes to without a branch.
#define SP_INDEX_PADDING 1

/// Boxes sorted along one axis and bucketed into slabs along a second one. Each entry holds 2d floats: min and max
/// on `axis`, then min and max of every other axis in increasing axis order. Entries of a slab are sorted by min
/// on `axis`. Only what the index is: the build's and the refresh's scratch are theirs (build.h, refresh.h).
typedef struct spIndex
{
	int axis;	  // sweep axis, or -1 when the index is empty
	int slabAxis; // -1 when there is one slab
	int slabCount;
	float slabLo, slabScale; // slab of coordinate v: (int)((v - slabLo) * slabScale), clamped (monotone in v)
	int slabAt;				 // the slab axis's place in the entry layout (its min; its max follows); 0 with one slab
	float* entries;
	uint32_t* ids;
	int entryCount;
	int entryCapacity;
	int* slabStart; // slabCount + 1: the first entry of each slab, then the entry count
	// per slab: largest extent on `axis`, so a query can binary-search its start
	float* slabMaxWidth;
	// Per slab s: the smallest float v with slab(v) >= s (-INFINITY for slab 0). An entry of slab s whose min on
	// the slab axis is at least slabFloor[s] starts in s; a pair or a hit is reported only in the first slab both
	// touch, the one where either starts.
	float* slabFloor;
	int slabCapacity;
} spIndex;

/// Per-axis statistics of a set of boxes, for choosing axes and slabs.
typedef struct spAxisStats
{
	double sum, sumSq; // of centers
	double width;	   // sum of widths
	float lo, hi;	   // smallest min, largest max
} spAxisStats;

/// The slab of coordinate v on the slab axis (0 with one slab).
static inline int spSlabOf( const spIndex* index, float v )
{
	// float subtraction and multiplication by a positive scale round monotonically, so v <= w gives
	// slab(v) <= slab(w): boxes that overlap on the slab axis share a slab
	float s = ( v - index->slabLo ) * index->slabScale;
	int last = index->slabCount - 1;
	// NaN (the bounds of a removed box's slot, which nothing validates) maps to slab 0
	return !( s >= 1.0f ) ? 0 : s >= (float)last ? last : (int)s;
}

// Copy a box from the slot layout (mins, then maxes) to the entry layout (min and max on `axis`, then the other
// axes in order). Inlined with a constant `d`, this is a few moves.
SP_FORCE_INLINE void spPackBox( float* out, const float* b, int d, int axis )
{
	out[0] = b[axis];
	out[1] = b[d + axis];
	for ( int a = 0, k = 2; a < d; ++a )
	{
		if ( a != axis )
		{
			out[k++] = b[a];
			out[k++] = b[d + a];
		}
	}
}

/// Choose the sweep axis (the highest spread-to-width score) and the slab axis (the next best) of a set of boxes.
/// `stickyAxis` (or -1) is kept unless another axis scores 1.5 times better, so coherent frames stay coherent.
void spChooseAxes( const spAxisStats* stats, int dimensions, int count, int stickyAxis, int* axis, int* slabAxis );

/// Grow an index's entries and ids to `n` entries (spGrownCapacity), keeping the current ones. Returns false on
/// allocation failure, changing nothing that is read.
bool spReserveEntries( spIndex* index, int n, int stride );

/// The entries of the largest of the slabs s0..s1-1 of an index.
int spLargestSlab( const spIndex* index, int s0, int s1 );

/// The slabs an index of `n` boxes sorted along `axis` gets: their count (1 when there is no slab axis), the slab
/// axis (-1 with one slab), and the mapping of spSlabOf.
void spPlanSlabs( const spAxisStats* stats, int n, int axis, int slabAxis, int* slabCount, int* planAxis, float* lo,
				  float* scale );

/// Free an index's memory.
void spFreeIndex( spIndex* index );

/// Bytes an index owns (its scratch apart).
size_t spIndexByteCount( const spIndex* index, int stride );

/// What a query of an index reads of the boxes beyond their entries: the dimension count and, per slot, the id (an
/// entry whose id is not its slot's was removed since the index was made) and the filter. A world's: spSlotsOf.
typedef struct spSlotTable
{
	int dimensions;
	const uint32_t* ids;
	const uint32_t* categories;
	const uint32_t* masks;
} spSlotTable;

/// True if the filters of slots a and b accept each other (spWorld_SetBoxFilter).
static inline bool spFiltersAccept( const uint32_t* categories, const uint32_t* masks, uint32_t a, uint32_t b )
{
	return ( categories[a] & masks[b] ) != 0 && ( categories[b] & masks[a] ) != 0;
}

/// Find the indexed boxes that overlap the box (min, max) (closed intervals), each once, and append to *out
/// (grown as needed):
/// - when pairWith is 0: the pair (id, place of its entry) for each box whose category & mask is non-zero (a query);
/// - otherwise: the pair (lower, higher) of pairWith and each box whose filter accepts pairWith's (a sweep).
/// Entries of removed boxes (their slot's id differs) are skipped. Returns false on allocation failure.
bool spQueryIndex( const spIndex* index, const spSlotTable* slots, const float* min, const float* max, uint32_t mask,
				   spPairArray* out, uint32_t pairWith );
