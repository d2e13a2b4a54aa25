// SPDX-License-Identifier: MIT
// Bringing the moving boxes' slab index up to date on a coherent frame, in place of a rebuild.
//
// A rebuild copies every box into the slabs it touches and sorts each slab from scratch. Here the slabs persist:
// each entry's box is re-read from the bounds, a box that left a slab (or was removed, or made static) is dropped
// from it, a box that reached a new slab (or was added, or made moving) is merged into it, and each slab is
// insertion-sorted on its own, so a swap is paid only for boxes that share a slab and cross each other. Every
// write goes to scratch until all memory is reserved, so a failure or a give-up leaves the index as queries knew
// it.
#include "refresh.h"

#include "parallel.h"
#include "simd.h"
#include "sort.h"
#include "sweep.h"
#include "world.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

// What the passes return in place of an incoming count when they do not finish: negative, so that `m < 0` tests for
// any of them.
#define SP_REFRESH_TOO_MANY_MOVES ( -1 ) // more incoming entries than the limit (or than a range's room)
#define SP_REFRESH_TOO_MANY_SWAPS ( -2 ) // the slabs' insertion sorts passed the swap budget
#define SP_REFRESH_RANGE_FULL	  ( -3 ) // a range of a parallel pass ran out of room: run the pass on one thread
#define SP_REFRESH_SKIPPED		  ( -4 ) // a range skipped: the ranges before it had already passed the limit

// Append an entry of box `id` for slab `slab` to the `m` incoming entries. Returns the new count, or
// SP_REFRESH_TOO_MANY_MOVES past `limit`.
static inline int spAddIncoming( spRefreshScratch* sc, int m, int limit, const float* box, uint32_t id, int slab,
								 int stride )
{
	if ( m == limit )
	{
		return SP_REFRESH_TOO_MANY_MOVES;
	}
	memcpy( sc->incoming + (size_t)m * stride, box, sizeof( float ) * (size_t)stride );
	sc->incomingIds[m] = id;
	sc->incomingSlabs[m] = slab;
	return m + 1;
}

// The slabs box `id` reaches now and did not before, found from its first old entry `old` (in slab s): below s, or
// past its old last slab; appended to the `m` incoming entries. Returns the new count, or SP_REFRESH_TOO_MANY_MOVES
// past `limit`.
SP_FORCE_INLINE int spIncomingOf( const spIndex* index, spRefreshScratch* sc, const float* bounds, const float* old,
								  float lo, float hi, uint32_t id, int s, int m, int limit, int d, int slabAt )
{
	const int stride = 2 * d;
	const int os1 = spSlabOf( index, old[slabAt + 1] );
	const int ns1 = spSlabOf( index, hi );
	if ( !( lo < index->slabFloor[s] ) && ns1 <= os1 )
	{
		return m;
	}
	const int ns0 = spSlabOf( index, lo );
	// the box packed again from its bounds: the insertion sort may have moved another entry to where it was read
	float packed[2 * SP_MAX_DIMENSIONS];
	spPackBox( packed, bounds + (size_t)( id >> SP_GENERATION_BITS ) * stride, d, index->axis );
	for ( int t = ns0; t <= ns1; ++t )
	{
		if ( t >= s && t <= os1 )
		{
			continue;
		}
		m = spAddIncoming( sc, m, limit, packed, id, t, stride );
		if ( m < 0 )
		{
			return SP_REFRESH_TOO_MANY_MOVES;
		}
	}
	return m;
}

// Re-read the entries of slabs s0..s1-1; keep the entries whose box still touches their slab (into `kept`, with
// their places in `keptOrigins`, from the place of the range's first entry on, slab by slab: places keptStart[s] to
// keptEnd[s] for slab s, place p at kept[p - base]; each slab sorted as it is written: an insertion sort, with its
// swaps counted in *swaps) and collect, from each box's
// first old entry, the slabs it reaches now and did not before (into the incoming scratch from place `m`). Returns
// the incoming scratch's end, SP_REFRESH_TOO_MANY_MOVES past `limit`, or SP_REFRESH_TOO_MANY_SWAPS past
// `swapBudget`. Slab ranges are independent: a pool's tasks run them at once (spRefreshIndex).
// Entries of boxes removed or made static are treated as any other here (their slot's bounds are re-read, whatever
// they are now); spRefreshIndex drops them afterwards, so that this loop has no test for them.
SP_FORCE_INLINE int spRefreshEntries( const spIndex* index, spRefreshScratch* sc, const spWorld* world, int d, int s0,
									  int s1, float* kept, int* keptOrigins, int base, int m, int limit, int swapBudget,
									  int* swaps )
{
	const int stride = 2 * d;
	// place p at kept[p] and keptOrigins[p] from here: the addresses moved down by `base` places as integers (a
	// window's first place is its slab's first entry's); an index from base on makes them addresses in the buffers.
	// Indexing by p - base instead cost the wasm frame about 3% at 1M boxes (the subtraction stayed in the loops).
	// NOLINTNEXTLINE(performance-no-int-to-ptr)
	kept = (float*)( (uintptr_t)kept - (uintptr_t)base * (uintptr_t)stride * sizeof( float ) );
	// NOLINTNEXTLINE(performance-no-int-to-ptr)
	keptOrigins = (int*)( (uintptr_t)keptOrigins - (uintptr_t)base * sizeof( int ) );
	const int axis = index->axis;
	// in 2D the slab axis, when there is one, is the second axis: its min is at 2, a constant the compiler can use
	// (with one slab, whose floors are -INFINITY and INFINITY, every test below gives the same on any lane)
	const int slabAt = d == 2 ? 2 : index->slabAt;
	const int slabCount = index->slabCount;
	const float* bounds = world->bounds;
	const float* entries = index->entries;
	const uint32_t* ids = index->ids;
	const int* start = index->slabStart;
	int* remap = sc->remap;
	int* keptStart = sc->keptStart;
	int* keptEnd = sc->keptEnd;
	float* keptWidth = sc->keptWidth;

	// The reads of the bounds, in entry order, are random: a chunk of a slab at a time in a loop with nothing else in
	// it, so that many of them are in flight at once. Then the chunk is processed in order, compacting in place (k
	// never passes i); an incoherent frame runs out of incoming room within a few chunks.
	enum
	{
		chunk = 4096
	};
	const float* slabFloor = index->slabFloor;
	// only a removed box's slot can hold NaN (nothing validates it): with none removed, no test for it
	const int anyGone = world->goneMovers > 0;
	int k = start[s0], moved = 0;
	for ( int s = s0; s < s1; ++s )
	{
		// slab s holds the boxes with slab-axis min below floorNext and max at least floorS (spSlabFloor);
		// floorNext2 is the floor of slab s + 2
		const float floorS = slabFloor[s], floorNext = s + 1 < slabCount ? slabFloor[s + 1] : INFINITY;
		const float floorNext2 = s + 2 < slabCount ? slabFloor[s + 2] : INFINITY;
		float width = 0.0f;				 // the largest extent on the sweep axis among the slab's entries
		spF4 widths = spF4Splat( 0.0f ); // the same, lane by lane, of the entries taken four at a time
		float last = -INFINITY;			 // the largest sort key among its kept entries so far
		keptStart[s] = k;
		for ( int c0 = start[s]; c0 < start[s + 1]; c0 += chunk )
		{
			const int c1 = start[s + 1] - c0 < chunk ? start[s + 1] : c0 + chunk;
			if ( d == 2 && anyGone )
			{
				// a box as one vector, its lanes put in entry order by one shuffle; NaN in the sort key becomes
				// -INFINITY, as below
				const spM4 nanToLow = spM4Set( 0, -1, -1, -1 );
				const spF4 low = spF4Set( -INFINITY, 0.0f, 0.0f, 0.0f );
				for ( int i = c0; i < c1; ++i )
				{
					spF4 b = spF4Load( bounds + (size_t)( ids[i] >> SP_GENERATION_BITS ) * 4 );
					b = axis == 0 ? spF4EntryX( b ) : spF4EntryY( b );
					spF4Store( kept + (size_t)i * 4, spF4Select( spM4Or( spF4Eq( b, b ), nanToLow ), b, low ) );
				}
			}
			else if ( d == 2 )
			{
				for ( int i = c0; i < c1; ++i )
				{
					const spF4 b = spF4Load( bounds + (size_t)( ids[i] >> SP_GENERATION_BITS ) * 4 );
					spF4Store( kept + (size_t)i * 4, axis == 0 ? spF4EntryX( b ) : spF4EntryY( b ) );
				}
			}
			else
			{
				for ( int i = c0; i < c1; ++i )
				{
					float* p = kept + (size_t)i * stride;
					spPackBox( p, bounds + (size_t)( ids[i] >> SP_GENERATION_BITS ) * stride, d, axis );
					// NaN as a sort key would stop the insertion sort of the other entries (a removed box's entry
					// is dropped after this pass)
					p[0] = p[0] == p[0] ? p[0] : -INFINITY;
				}
			}
			int i = c0;
			if ( d == 2 )
			{
				// four entries at a time: their tests (the scalar loop's below) on transposed lanes, then each entry
				// moved and recorded in turn
				const spF4 fS = spF4Splat( floorS ), fN = spF4Splat( floorNext ), fN2 = spF4Splat( floorNext2 );
				for ( ; i + 4 <= c1; i += 4 )
				{
					const float* in = kept + (size_t)i * 4;
					const float* was = entries + (size_t)i * 4;
					const spF4 b[4] = { spF4Load( in ), spF4Load( in + 4 ), spF4Load( in + 8 ), spF4Load( in + 12 ) };
					const spF4 xs01 = spF4LowHalves( b[0], b[1] ), xs23 = spF4LowHalves( b[2], b[3] );
					const spF4 ys01 = spF4HighHalves( b[0], b[1] ), ys23 = spF4HighHalves( b[2], b[3] );
					const spF4 keys = spF4Evens( xs01, xs23 ), los = spF4Evens( ys01, ys23 );
					const spF4 his = spF4Odds( ys01, ys23 );
					const spF4 o01 = spF4HighHalves( spF4Load( was ), spF4Load( was + 4 ) );
					const spF4 o23 = spF4HighHalves( spF4Load( was + 8 ), spF4Load( was + 12 ) );
					const spF4 oldLos = spF4Evens( o01, o23 ), oldHis = spF4Odds( o01, o23 );
					const int keepBits = spM4Bits( spM4And( spF4Lt( los, fN ), spF4Ge( his, fS ) ) );
					const spM4 up = spM4Or( spM4And( spF4Ge( his, fN ), spF4Lt( oldHis, fN ) ), spF4Ge( his, fN2 ) );
					const int slowBits = spM4Bits( spM4And( spF4Ge( oldLos, fS ), spM4Or( spF4Lt( los, fS ), up ) ) );
					// every entry's extent, kept or not (as below), lane by lane
					widths = spF4Max( spF4Sub( spF4Odds( xs01, xs23 ), keys ), widths );
					// all four kept and in order, after the slab's kept entries so far (nearly every group of a
					// coherent frame): moved as a block, their old places as one vector (their ids are read from there
					// by the merge)
					if ( keepBits == 15 && spM4Bits( spF4Ge( keys, spF4ShiftIn( last, keys ) ) ) == 15 )
					{
						float* out = kept + (size_t)k * 4;
						spF4Store( out, b[0] );
						spF4Store( out + 4, b[1] );
						spF4Store( out + 8, b[2] );
						spF4Store( out + 12, b[3] );
						spM4Store( keptOrigins + k, spM4Add( spM4Splat( i ), spM4Set( 0, 1, 2, 3 ) ) );
						last = spF4Lane( keys, 3 );
						k += 4;
					}
					else
					{
#pragma GCC unroll 4
						for ( int q = 0; q < 4; ++q )
						{
							spF4Store( kept + (size_t)k * 4, b[q] );
							keptOrigins[k] = i + q;
							if ( ( keepBits >> q ) & 1 )
							{
								const float key = spF4Lane( keys, q );
								if ( key < last )
								{
									moved += spInsertRecord( kept, (uint32_t*)keptOrigins, NULL, keptStart[s], k, 4 );
									if ( moved > swapBudget )
									{
										return SP_REFRESH_TOO_MANY_SWAPS;
									}
								}
								else
								{
									last = key;
								}
								k += 1;
							}
							else
							{
								// left the slab (the merge gives a kept entry its new place)
								remap[i + q] = -1;
							}
						}
					}
					for ( int q = 0; slowBits != 0 && q < 4; ++q )
					{
						if ( ( slowBits >> q ) & 1 )
						{
							m = spIncomingOf( index, sc, bounds, was + q * 4, spF4Lane( los, q ), spF4Lane( his, q ),
											  ids[i + q], s, m, limit, 2, 2 );
							if ( m < 0 )
							{
								return SP_REFRESH_TOO_MANY_MOVES;
							}
						}
					}
				}
			}
			for ( ; i < c1; ++i )
			{
				const uint32_t id = ids[i];
				// the box read where the gather put it, and moved down to the kept place (k <= i)
				const float* box = kept + (size_t)i * stride;
				const float key = box[0], lo = box[slabAt], hi = box[slabAt + 1];
				const int keep = ( lo < floorNext ) & ( hi >= floorS );
				// every entry's extent, kept or not: one that left the slab only widens what a query searches
				const float w = box[1] - key;
				width = w > width ? w : width;
				if ( d == 2 )
					spF4Store( kept + (size_t)k * 4, spF4Load( box ) );
				else
					memmove( kept + (size_t)k * stride, box, sizeof( float ) * (size_t)stride );
				keptOrigins[k] = i;
				if ( keep )
				{
					// the entries arrive in the slab's old order: out of order only where two boxes crossed
					if ( key < last )
					{
						moved += spInsertRecord( kept, (uint32_t*)keptOrigins, NULL, keptStart[s], k, stride );
						if ( moved > swapBudget )
						{
							return SP_REFRESH_TOO_MANY_SWAPS;
						}
					}
					else
					{
						last = key;
					}
				}
				else
				{
					// left the slab (the merge gives a kept entry its new place)
					remap[i] = -1;
				}
				k += keep;
				// From the box's first old entry (one per box: its old min was in this slab, so its old first slab
				// is s), the slabs it reaches now and did not before: below this one, or past its old last slab.
				// One branch, rarely taken, for every test that can rule that out (each of them alone would
				// mispredict on the boxes that span two slabs): the box is the entry's second or later, or it does
				// not start below s and its last slab is s or s + 1 now and was not s before, or is s now.
				const float* old = entries + (size_t)i * stride;
				const int first = old[slabAt] >= floorS;
				const int down = lo < floorS;
				const int up = ( ( hi >= floorNext ) & !( old[slabAt + 1] >= floorNext ) ) | ( hi >= floorNext2 );
				if ( !( first & ( down | up ) ) )
				{
					continue;
				}
				m = spIncomingOf( index, sc, bounds, old, lo, hi, id, s, m, limit, d, slabAt );
				if ( m < 0 )
				{
					return SP_REFRESH_TOO_MANY_MOVES;
				}
			}
		}
		for ( int q = 0; q < 4; ++q )
		{
			const float w = spF4Lane( widths, q );
			width = w > width ? w : width;
		}
		keptWidth[s] = width;
		keptEnd[s] = k;
	}
	*swaps = moved;
	return m;
}

// True if the box `id` is still in the world, moving, and in the index (not removed or made static since).
static inline bool spStillIndexed( const spWorld* world, uint32_t id )
{
	const uint32_t slot = id >> SP_GENERATION_BITS;
	return world->ids[slot] == id && ( world->flags[slot] & SP_FLAG_INDEXED ) != 0;
}

// Copy the `count` incoming entries (boxes, ids, and their slabs as tags) whose boxes are still indexed to
// `outBoxes`, `outIds` and `outTags`, in order; the output may overlap the input at or before it. Returns the
// count copied.
static int spDropGone( const spWorld* world, const float* boxes, const uint32_t* ids, const int* tags, int count,
					   float* outBoxes, uint32_t* outIds, int* outTags, int stride )
{
	int k = 0;
	for ( int i = 0; i < count; ++i )
	{
		if ( !spStillIndexed( world, ids[i] ) )
			continue;
		memmove( outBoxes + (size_t)k * stride, boxes + (size_t)i * stride, sizeof( float ) * (size_t)stride );
		outIds[k] = ids[i];
		outTags[k] = tags[i];
		k += 1;
	}
	return k;
}

// Move the kept entries at from..to-1 of `packed` and `origins` whose boxes are still indexed down to `out` on, with -1
// in the remap for the others' places (a kept entry's id is oldIds at its old place); the largest extent on the sweep
// axis among those kept in *width (a freed slot's bounds may be anything). Returns the end of those kept.
static int spDropGoneRun( const spWorld* world, const uint32_t* oldIds, int* remap, float* packed, int* origins,
						  int from, int to, int out, int stride, float* width )
{
	int k = out;
	float largest = 0.0f;
	for ( int i = from; i < to; ++i )
	{
		if ( !spStillIndexed( world, oldIds[origins[i]] ) )
		{
			remap[origins[i]] = -1;
			continue;
		}
		memmove( packed + (size_t)k * stride, packed + (size_t)i * stride, sizeof( float ) * (size_t)stride );
		origins[k] = origins[i];
		const float w = packed[(size_t)k * stride + 1] - packed[(size_t)k * stride];
		largest = w > largest ? w : largest;
		k += 1;
	}
	*width = largest;
	return k;
}

// Drop the kept entries of boxes no longer indexed (spDropGoneRun), slab by slab, keptStart, keptEnd and keptWidth
// updated.
static void spDropGoneKept( const spIndex* index, spRefreshScratch* sc, const spWorld* world, int stride )
{
	int k = 0;
	for ( int s = 0; s < index->slabCount; ++s )
	{
		const int a = sc->keptStart[s], b = sc->keptEnd[s];
		sc->keptStart[s] = k;
		k = spDropGoneRun( world, index->ids, sc->remap, sc->kept, sc->keptOrigins, a, b, k, stride,
						   &sc->keptWidth[s] );
		sc->keptEnd[s] = k;
	}
}

// The moving boxes not in the index yet (added, or switched from static; SP_FLAG_INDEXED clear): every slab each
// one touches, appended to the `m` incoming entries. Returns the incoming count, or SP_REFRESH_TOO_MANY_MOVES past
// `limit`.
static int spIncomingNewMovers( const spIndex* index, spRefreshScratch* sc, const spWorld* world, int m, int limit )
{
	const int d = world->dimensions;
	const int stride = 2 * d;
	for ( int i = 0; i < world->orderCount; ++i )
	{
		const int slot = world->order[i];
		if ( ( world->flags[slot] & SP_FLAG_INDEXED ) != 0 )
		{
			continue;
		}
		float box[2 * SP_MAX_DIMENSIONS];
		spPackBox( box, world->bounds + (size_t)slot * stride, d, index->axis );
		const int s0 = spSlabOf( index, box[index->slabAt] );
		const int s1 = spSlabOf( index, box[index->slabAt + 1] );
		for ( int t = s0; t <= s1 && m >= 0; ++t )
		{
			m = spAddIncoming( sc, m, limit, box, world->ids[slot], t, stride );
		}
		if ( m < 0 )
		{
			return SP_REFRESH_TOO_MANY_MOVES;
		}
	}
	return m;
}

// Merge a slab's kept entries and its incoming ones (both sorted by min on the sweep axis) into the index at
// `out`; returns the largest extent on the sweep axis among the incoming entries and `width`, the kept entries'.
// `place` is the place of `out` in the index; a kept entry's id is oldIds[origin] (the ids before the refresh), and
// remap[origin] gets its new place (unless remap is null: no update reads it when the world makes no events). A slab
// gets a few incoming entries at most: the kept entries between two of them are copied as one run.
SP_FORCE_INLINE float spMergeSlab( float* out, uint32_t* outIds, int place, int* remap, const float* a,
								   const uint32_t* oldIds, const int* aOrigins, int na, const float* b,
								   const uint32_t* bIds, int nb, int stride, float width )
{
	const size_t bytes = sizeof( float ) * (size_t)stride;
	int i = 0;
	for ( int j = 0; j <= nb; ++j )
	{
		// the kept entries before incoming entry j (kept first among equal keys, so the result does not depend
		// on how the incoming ones arrived; a binary search for the first kept key above it), or all that are left
		int end = na;
		if ( j < nb )
		{
			const float key = b[(size_t)j * stride];
			int lo = i, hi = na;
			while ( lo < hi )
			{
				const int mid = lo + ( hi - lo ) / 2;
				if ( key < a[(size_t)mid * stride] )
					hi = mid;
				else
					lo = mid + 1;
			}
			end = lo;
			const float w = b[(size_t)j * stride + 1] - key;
			width = w > width ? w : width;
		}
		const int run = end - i;
		// one pass over the run: each entry, its id, and its place in the remap (with `stride` a constant, the
		// entry's copy is a few moves)
		for ( int k = 0; k < run; ++k )
		{
			memcpy( out + (size_t)k * stride, a + (size_t)( i + k ) * stride, bytes );
			const int origin = aOrigins[i + k];
			outIds[k] = oldIds[origin];
			if ( remap != NULL )
				remap[origin] = place + k;
		}
		out += (size_t)run * stride;
		outIds += run;
		place += run;
		i = end;
		if ( j < nb )
		{
			memcpy( out, b + (size_t)j * stride, bytes );
			*outIds++ = bIds[j];
			out += stride;
			place += 1;
		}
	}
	return width;
}

// spMergeSlab with the stride a constant for 2D and 3D (1D and 4D share one copy that reads it), out of line: the
// merge of the refresh merged by the sweep and of the one on one thread share it.
__attribute__( ( noinline ) ) static float spMergeSlabOf( float* out, uint32_t* outIds, int place, int* remap,
														  const float* a, const uint32_t* oldIds, const int* aOrigins,
														  int na, const float* b, const uint32_t* bIds, int nb,
														  int stride, float width )
{
	switch ( stride )
	{
		case 4:
			return spMergeSlab( out, outIds, place, remap, a, oldIds, aOrigins, na, b, bIds, nb, 4, width );
		case 6:
			return spMergeSlab( out, outIds, place, remap, a, oldIds, aOrigins, na, b, bIds, nb, 6, width );
		default:
			return spMergeSlab( out, outIds, place, remap, a, oldIds, aOrigins, na, b, bIds, nb, stride, width );
	}
}

// Merge the slabs s0..s1-1 (see spMergeSlab) into the index (its entries and ids); index->slabStart holds where each
// slab goes. Slab ranges are independent (a pool's tasks).
static void spMergeSlabs( spIndex* index, spRefreshScratch* sc, const float* grouped, const uint32_t* groupedIds,
						  int* remap, int stride, int s0, int s1 )
{
	const int* keptStart = sc->keptStart;
	const int* inStart = sc->inStart;
	for ( int s = s0; s < s1; ++s )
	{
		const int out = index->slabStart[s];
		const int a = keptStart[s], na = sc->keptEnd[s] - a;
		const int b = inStart[s], nb = inStart[s + 1] - b;
		index->slabMaxWidth[s] =
			spMergeSlabOf( index->entries + (size_t)out * stride, index->ids + out, out, remap,
						   sc->kept + (size_t)a * stride, sc->previousIds, sc->keptOrigins + a, na,
						   grouped + (size_t)b * stride, groupedIds + b, nb, stride, sc->keptWidth[s] );
	}
}

// Reserve the scratch of a refresh of `index`: `found` incoming entries as found, then `limit` grouped by slab, and
// with `kept`, room for the kept entries of every slab (the refresh on one thread keeps a window of slabs instead).
static bool spReserveRefresh( const spIndex* index, spRefreshScratch* sc, int found, int limit, int stride, bool kept )
{
	const int n = index->entryCount;
	const spArray keptArrays[] = { { (void**)&sc->kept, sizeof( float ), stride },
								   { (void**)&sc->keptOrigins, sizeof( int ), 1 } };
	const spArray slabs[] = {
		{ (void**)&sc->keptStart, sizeof( int ), 1 },	{ (void**)&sc->keptEnd, sizeof( int ), 1 },
		{ (void**)&sc->inStart, sizeof( int ), 1 },		{ (void**)&sc->inCursor, sizeof( int ), 1 },
		{ (void**)&sc->keptWidth, sizeof( float ), 1 }, { (void**)&sc->previousSlabStart, sizeof( int ), 1 },
		{ (void**)&sc->inHead, sizeof( int ), 1 },		{ (void**)&sc->inTail, sizeof( int ), 1 }
	};
	const spArray incoming[] = { { (void**)&sc->incoming, sizeof( float ), stride },
								 { (void**)&sc->incomingIds, sizeof( uint32_t ), 1 },
								 { (void**)&sc->incomingSlabs, sizeof( int ), 1 },
								 { (void**)&sc->inNext, sizeof( int ), 1 } };
	return ( !kept || spGrowArrays( &sc->keptCapacity, spGrownCapacity( sc->keptCapacity, n ), keptArrays, 2 ) ) &&
		   spGrowArrays( &sc->slabCapacity, spGrownCapacity( sc->slabCapacity, index->slabCount + 1 ), slabs,
						 SP_ARRAY_COUNT( slabs ) ) &&
		   spGrowArrays( &sc->incomingCapacity, spGrownCapacity( sc->incomingCapacity, found + limit ), incoming,
						 SP_ARRAY_COUNT( incoming ) ) &&
		   spGrowWithRoom( (void**)&sc->remap, &sc->remapCapacity, n, sizeof( int ) );
}

// Group the first `count` incoming entries by slab into `grouped` and `groupedIds` (a stable counting sort: inStart[s]
// is where slab s's start, inStart[slabCount] the count).
static void spGroupIncoming( spRefreshScratch* sc, int count, float* grouped, uint32_t* groupedIds, int slabCount,
							 int stride )
{
	int* inStart = sc->inStart;
	int* cursor = sc->inCursor;
	memset( inStart, 0, sizeof( int ) * (size_t)( slabCount + 1 ) );
	for ( int i = 0; i < count; ++i )
	{
		inStart[sc->incomingSlabs[i] + 1] += 1;
	}
	for ( int s = 0; s < slabCount; ++s )
	{
		inStart[s + 1] += inStart[s];
	}
	memcpy( cursor, inStart, sizeof( int ) * (size_t)slabCount );
	for ( int i = 0; i < count; ++i )
	{
		const int dst = cursor[sc->incomingSlabs[i]]++;
		memcpy( grouped + (size_t)dst * stride, sc->incoming + (size_t)i * stride, sizeof( float ) * (size_t)stride );
		groupedIds[dst] = sc->incomingIds[i];
	}
}

// spRefreshEntries over the slabs s0..s1-1, with the dimension a constant for 2D and 3D (1D and 4D share one copy
// that reads it: smaller code).
__attribute__( ( noinline ) ) static int spRefreshRange( const spIndex* index, spRefreshScratch* sc,
														 const spWorld* world, int s0, int s1, float* kept,
														 int* keptOrigins, int base, int m, int limit, int swapBudget,
														 int* swaps )
{
	switch ( world->dimensions )
	{
		case 2:
			return spRefreshEntries( index, sc, world, 2, s0, s1, kept, keptOrigins, base, m, limit, swapBudget,
									 swaps );
		case 3:
			return spRefreshEntries( index, sc, world, 3, s0, s1, kept, keptOrigins, base, m, limit, swapBudget,
									 swaps );
		default:
			return spRefreshEntries( index, sc, world, world->dimensions, s0, s1, kept, keptOrigins, base, m, limit,
									 swapBudget, swaps );
	}
}

typedef struct spRefreshJob
{
	spIndex* index;
	spRefreshScratch* sc;
	spWorld* world;
	int swapBudget;
	int limit;
	// the incoming entries the finished ranges found (a full range: one past its room): past the limit, the pass
	// gives up whatever the other ranges find, and the ranges not started are skipped
	_Atomic int found;
} spRefreshJob;

// The incoming entries a finished range found at least: all of them, one past its room when it ran out of room, none
// when it gave up on swaps or was skipped.
static int spTaskIncoming( const spTask* task )
{
	return task->result >= 0 ? task->spans[0].count : task->result == SP_REFRESH_TOO_MANY_MOVES ? task->room + 1 : 0;
}

// The refresh of slabs s0..s1-1: its incoming entries into its room (from spans[0].at), its result, its swaps in its
// count.
static bool spRefreshTask( int s0, int s1, spTask* task, void* context )
{
	spRefreshJob* job = context;
	const int at = task->spans[0].at;
	task->count = 0;
	task->spans[0].count = 0;
	if ( atomic_load_explicit( &job->found, memory_order_relaxed ) > job->limit )
	{
		task->result = SP_REFRESH_SKIPPED;
		return true;
	}
	task->result = spRefreshRange( job->index, job->sc, job->world, s0, s1, job->sc->kept, job->sc->keptOrigins, 0, at,
								   at + task->room, job->swapBudget, &task->count );
	task->spans[0].count = task->result >= 0 ? task->result - at : 0;
	atomic_fetch_add_explicit( &job->found, spTaskIncoming( task ), memory_order_relaxed );
	return true;
}

void spMergeRefreshed( spWorld* world, int s0, int s1 )
{
	spRefreshScratch* sc = &world->refreshScratch;
	SP_ASSERT( sc->mergePending );
	spMergeSlabs( &world->dynamicIndex, sc, sc->grouped, sc->groupedIds, world->noEvents ? NULL : sc->remap,
				  2 * world->dimensions, s0, s1 );
}

void spFinishRefresh( spWorld* world, int merged )
{
	// only a refresh with a pool leaves its merge to the sweep
	if ( SP_PARALLEL && world->refreshScratch.mergePending && !merged )
	{
		spMergeRefreshed( world, 0, world->dynamicIndex.slabCount );
	}
	world->refreshScratch.mergePending = 0;
}

// The incoming room of each range of a parallel refresh: twice its share of `limit` by entries, and 64 more (the one
// range of a refresh on the caller: `limit`). A range that fills it makes spRefreshIndex run the pass again on one
// thread (rare: most boxes of one slab range crossing into other slabs). Returns the rooms' sum.
static int spPlanIncoming( const spIndex* index, spParallel* p, int limit )
{
	const int n = index->entryCount > 0 ? index->entryCount : 1;
	int at = 0;
	for ( int r = 0; r < spRanges( p ); ++r )
	{
		spTask* task = spRangeTask( p, r );
		const long long entries =
			spRanges( p ) == 1 ? n : index->slabStart[p->cut[r + 1]] - index->slabStart[p->cut[r]];
		task->spans[0].at = at;
		task->room = spRanges( p ) == 1 ? limit : (int)( 2 * (long long)limit * entries / n ) + 64;
		at += task->room;
	}
	return at;
}

// The ranges' results: the incoming entries moved together in range order (the serial pass's order), their count
// returned and the swaps in *total; SP_REFRESH_TOO_MANY_MOVES or SP_REFRESH_TOO_MANY_SWAPS as spRefreshEntries gives
// up; SP_REFRESH_RANGE_FULL when a range ran out of room or was skipped and the others leave the answer open (the
// pass is then run on one thread).
static int spGatherIncoming( spRefreshScratch* sc, spParallel* p, int limit, int swapBudget, int stride, int* total )
{
	int full = 0;
	// the fewest incoming entries of all the ranges: a full range found one past its room, a skipped one (the ranges
	// before had found more than the limit) is not counted
	long long least = 0;
	for ( int r = 0; r < spRanges( p ); ++r )
	{
		const spTask* task = spRangeTask( p, r );
		if ( task->result == SP_REFRESH_TOO_MANY_SWAPS )
			return SP_REFRESH_TOO_MANY_SWAPS;
		full |= task->result < 0;
		*total += task->result >= 0 ? task->count : 0;
		least += spTaskIncoming( task );
	}
	// the serial pass gives up exactly when the totals pass the limits (too many swaps or too many incoming
	// entries: the same give-up for the caller). Full ranges that already pass the limit together give up without
	// the pass on one thread: an incoherent frame (a one-shot scene, a teleport of most boxes) fills every range.
	if ( *total > swapBudget )
		return SP_REFRESH_TOO_MANY_SWAPS;
	if ( least > limit )
		return SP_REFRESH_TOO_MANY_MOVES;
	if ( full )
		return SP_REFRESH_RANGE_FULL;
	spGatherSpans( p, 0, sc->incoming, sizeof( float ) * (size_t)stride );
	spGatherSpans( p, 0, sc->incomingIds, sizeof( uint32_t ) );
	return spGatherSpans( p, 0, sc->incomingSlabs, sizeof( int ) );
}

// ---- The refresh on one thread: each slab merged into the new entries and swept a few slabs behind the pass ----
//
// The merge and the sweep then read a slab's kept entries and its new entries while they are in cache, and the kept
// entries need a window of a few slabs rather than room for all (at 1M boxes, about 27 bytes a box that went to memory
// and came back). An entry for slab t is found at its box's first old entry: below t for a box that moved up, in
// slab t + 1 for a box that moved down into t. So slab t is merged once slab t + SP_STREAM_LAG is refreshed, and an
// entry that arrives later (a box that moved down by more, a teleport) makes the pass stop: it runs again with every
// slab merged after the whole pass. The next refresh tries the lag again; after each further late entry in a row,
// 1, 3, 7, up to SP_STREAM_BACKOFF_MAX refreshes merge after the pass first.
enum
{
	SP_STREAM_LAG = 2,
	SP_STREAM_BACKOFF_MAX = 63
};
// spStreamRefresh's result when an entry arrives for a slab already merged.
#define SP_REFRESH_LATE ( -5 )

// Commit the new slab starts `newStart` and entry count of `index` (whose entries and ids buffers are the new ones),
// with the padding after its entries zeroed; the starts and count before stay as previousSlabStart and previousCount,
// the places the remap maps from.
static void spCommitSlabs( spIndex* index, spRefreshScratch* sc, const int* newStart, int count, int stride )
{
	const size_t starts = sizeof( int ) * (size_t)( index->slabCount + 1 );
	sc->previousCount = index->entryCount;
	memcpy( sc->previousSlabStart, index->slabStart, starts );
	memcpy( index->slabStart, newStart, starts );
	memset( index->entries + (size_t)count * stride, 0, sizeof( float ) * SP_INDEX_PADDING * (size_t)stride );
	memset( index->ids + count, 0, sizeof( uint32_t ) * SP_INDEX_PADDING );
	index->entryCount = count;
}

// Room for `count` new entries (and the padding) in the spare entries and in previousIds, which take the new ids.
static bool spReserveNewEntries( spRefreshScratch* sc, int count, int stride )
{
	const int need = count + SP_INDEX_PADDING;
	if ( need > sc->spareCapacity )
	{
		const int capacity = spGrownCapacity( sc->spareCapacity, need );
		int floats = sc->spareCapacity * stride;
		if ( capacity > INT32_MAX / stride ||
			 !spGrow( (void**)&sc->spareEntries, &floats, capacity * stride, sizeof( float ) ) )
			return false;
		sc->spareCapacity = floats / stride;
	}
	return spGrow( (void**)&sc->previousIds, &sc->previousIdsCapacity, sc->spareCapacity, sizeof( uint32_t ) );
}

// The refresh of spRefreshIndex on one thread, each slab merged into the spare entries and swept into `found` a few
// slabs behind the pass, to the same index, pairs, swaps and give-ups as the refresh merged by the sweep. The index
// is not written until every slab is done. Returns a result of spRefreshIndex, or SP_REFRESH_LATE (nothing done).
static int spStreamRefresh( spIndex* index, spRefreshScratch* sc, spWorld* world, int swapBudget, int limit,
							int filtered, int lag, int* swaps )
{
	const int stride = 2 * world->dimensions;
	const int slabCount = index->slabCount;
	const int* start = index->slabStart;
	// the window: lag + 1 regions of the largest slab's room, slab s's kept entries in region s % regions, or when
	// that is more than room for every entry (a long lag, or slabs far from even), slab s's from place start[s]
	const int largest = spLargestSlab( index, 0, slabCount );
	const int regions = lag + 1, room = largest > 0 ? largest : 1;
	const int windowed = (long long)regions * room < index->entryCount;
	spPairArray* found = &world->placePairs[1 - world->current];
	found->count = 0;
	const spArray window[] = { { (void**)&sc->window, sizeof( float ), stride },
							   { (void**)&sc->windowOrigins, sizeof( int ), 1 } };
	if ( !spReserveRefresh( index, sc, limit, limit, stride, false ) ||
		 !spGrowArrays( &sc->windowCapacity,
						spGrownCapacity( sc->windowCapacity, windowed ? regions * room : index->entryCount ), window,
						2 ) ||
		 !spReserveNewEntries( sc, index->entryCount, stride ) ||
		 !spGrowWithRoom( (void**)&found->data, &found->capacity, 2 * index->entryCount, sizeof( spPair ) ) )
		return spRefreshOutOfMemory;
	spTask* task = spRangeTask( &world->parallel, 0 );

	// The incoming scratch (room for twice the limit): the entries the pass finds from place 0, then a slab's incoming
	// entries while it is merged, and the new movers' grouped by slab at the end (after a slab's pass finds, as in the
	// refresh merged by the sweep, which finds them after the pass). With n new movers, the pass finds at most
	// limit - n entries and a slab gets at most limit: the three parts do not meet.
	int newCount = 0;
	if ( world->newMovers > 0 && ( newCount = spIncomingNewMovers( index, sc, world, 0, limit ) ) < 0 )
		return spRefreshTooManyMoves;
	float* grouped = sc->incoming + (size_t)( 2 * limit - newCount ) * stride;
	uint32_t* groupedIds = sc->incomingIds + ( 2 * limit - newCount );
	spGroupIncoming( sc, newCount, grouped, groupedIds, slabCount, stride );
	for ( int s = 0; s < slabCount; ++s )
	{
		sc->inHead[s] = sc->inTail[s] = -1;
	}

	const int anyGone = world->goneMovers > 0;
	const uint32_t* oldIds = index->ids;
	int* remap = world->noEvents ? NULL : sc->remap;
	int* newStart = sc->inCursor;
	// entries found by the pass, all (`passed`, the limit's count as the refresh merged by the sweep counts them) and
	// those whose boxes are still indexed (`m`, in the incoming scratch from place 0)
	int m = 0, passed = 0, total = 0, place = 0, tests = 0;
	for ( int s = 0; s < slabCount + lag; ++s )
	{
		if ( s < slabCount )
		{
			const int at = windowed ? s % regions * room : start[s];
			int moved = 0;
			const int m0 = m;
			const int r =
				spRefreshRange( index, sc, world, s, s + 1, sc->window + (size_t)at * stride, sc->windowOrigins + at,
								start[s], m, m + ( limit - passed ), swapBudget - total, &moved );
			if ( r < 0 )
				return r == SP_REFRESH_TOO_MANY_MOVES ? spRefreshTooManyMoves : spRefreshTooManySwaps;
			total += moved;
			passed += r - m0;
			// the slab's finds of boxes still indexed, linked to the slabs they reach
			m = r;
			if ( anyGone )
			{
				float* boxes = sc->incoming + (size_t)m0 * stride;
				m = m0 + spDropGone( world, boxes, sc->incomingIds + m0, sc->incomingSlabs + m0, r - m0, boxes,
									 sc->incomingIds + m0, sc->incomingSlabs + m0, stride );
			}
			for ( int j = m0; j < m; ++j )
			{
				const int t = sc->incomingSlabs[j];
				if ( t < s - lag )
					return SP_REFRESH_LATE;
				sc->inNext[j] = -1;
				if ( sc->inTail[t] < 0 )
					sc->inHead[t] = j;
				else
					sc->inNext[sc->inTail[t]] = j;
				sc->inTail[t] = j;
			}
			// past the limit with the new movers: the refresh merged by the sweep gives up as well, at its end
			if ( m + newCount > limit )
				return spRefreshTooManyMoves;
		}
		const int t = s - lag;
		if ( t < 0 )
			continue;
		// slab t's incoming entries, after the pass's finds: the pass's in the order found, then the new movers',
		// sorted
		float* slabIn = sc->incoming + (size_t)m * stride;
		uint32_t* slabInIds = sc->incomingIds + m;
		int nb = 0;
		for ( int j = sc->inHead[t]; j >= 0; j = sc->inNext[j], ++nb )
		{
			memcpy( slabIn + (size_t)nb * stride, sc->incoming + (size_t)j * stride, sizeof( float ) * (size_t)stride );
			slabInIds[nb] = sc->incomingIds[j];
		}
		const int n0 = sc->inStart[t], n1 = sc->inStart[t + 1];
		memcpy( slabIn + (size_t)nb * stride, grouped + (size_t)n0 * stride,
				sizeof( float ) * (size_t)( n1 - n0 ) * stride );
		memcpy( slabInIds + nb, groupedIds + n0, sizeof( uint32_t ) * (size_t)( n1 - n0 ) );
		nb += n1 - n0;
		const int sorted = spInsertionSortPacked( slabIn, slabInIds, nb, stride, swapBudget - total );
		if ( sorted < 0 )
			return spRefreshTooManySwaps;
		total += sorted;
		const int at = windowed ? t % regions * room : start[t];
		float* kept = sc->window + (size_t)at * stride;
		int* origins = sc->windowOrigins + at;
		if ( anyGone )
			sc->keptEnd[t] =
				sc->keptStart[t] + spDropGoneRun( world, oldIds, sc->remap, kept, origins, 0,
												  sc->keptEnd[t] - sc->keptStart[t], 0, stride, &sc->keptWidth[t] );
		const int na = sc->keptEnd[t] - sc->keptStart[t];
		if ( !spReserveNewEntries( sc, place + na + nb, stride ) )
			return spRefreshOutOfMemory;
		newStart[t] = place;
		sc->keptWidth[t] =
			spMergeSlabOf( sc->spareEntries + (size_t)place * stride, sc->previousIds + place, place, remap, kept,
						   oldIds, origins, na, slabIn, slabInIds, nb, stride, sc->keptWidth[t] );
		float* columns = NULL;
		if ( stride == 4 && !filtered && ( columns = spSweepColumns( task, na + nb ) ) == NULL )
			return spRefreshOutOfMemory;
		if ( !spSweepSlabOf( world, sc->spareEntries, sc->previousIds, found, columns, t, place, place + na + nb,
							 filtered, &tests ) )
			return spRefreshOutOfMemory;
		place += na + nb;
	}
	newStart[slabCount] = place;

	// Commit: the new entries and ids change places with the index's, which become the spare entries and previousIds
	memcpy( index->slabMaxWidth, sc->keptWidth, sizeof( float ) * (size_t)slabCount );
	float* entries = sc->spareEntries;
	uint32_t* ids = sc->previousIds;
	const int capacity = sc->spareCapacity < sc->previousIdsCapacity ? sc->spareCapacity : sc->previousIdsCapacity;
	sc->spareEntries = index->entries;
	sc->previousIds = index->ids;
	sc->spareCapacity = sc->previousIdsCapacity = index->entryCapacity;
	index->entries = entries;
	index->ids = ids;
	index->entryCapacity = capacity;
	spCommitSlabs( index, sc, newStart, place, stride );
	sc->swept = 1;
	sc->sweptTests = tests;
	*swaps = total;
	return spRefreshDone;
}

// The refresh with a pool: slab ranges refreshed at once, each with incoming room of its own (room for the limit at
// least: a range out of room makes the pass run again on one thread), then merged by the sweep.
static spRefreshResult spRefreshByRanges( spIndex* index, spRefreshScratch* sc, spWorld* world, int swapBudget,
										  int incomingLimit, int* swaps )
{
	const int stride = 2 * world->dimensions;
	const int slabCount = index->slabCount;
	spParallel* parallel = &world->parallel;
	const int planned = spPlanIncoming( index, parallel, incomingLimit );
	const int found = planned > incomingLimit ? planned : incomingLimit;

	// Scratch first: kept entries (at most the current ones), incoming entries, per-slab counts, the remap of the
	// current entries (written from the pass on: nothing reads it unless the refresh is done).
	if ( !spReserveRefresh( index, sc, found, incomingLimit, stride, true ) )
		return spRefreshOutOfMemory;

	int total = 0;
	spRefreshJob job = { index, sc, world, swapBudget, incomingLimit, 0 };
	spRunRanges( world, spRefreshTask, &job );
	int m = spGatherIncoming( sc, parallel, incomingLimit, swapBudget, stride, &total );
	// one of several ranges ran out of room (never the one range of a build with no parallel update)
	if ( SP_PARALLEL && m == SP_REFRESH_RANGE_FULL )
	{
		total = 0;
		m = spRefreshRange( index, sc, world, 0, slabCount, sc->kept, sc->keptOrigins, 0, 0, incomingLimit, swapBudget,
							&total );
	}
	const int checkLive = world->goneMovers > 0;
	// boxes removed or made static since the last update: their entries were kept or moved like any other's
	if ( m >= 0 && checkLive )
	{
		spDropGoneKept( index, sc, world, stride );
		m = spDropGone( world, sc->incoming, sc->incomingIds, sc->incomingSlabs, m, sc->incoming, sc->incomingIds,
						sc->incomingSlabs, stride );
	}
	if ( m >= 0 && world->newMovers > 0 )
	{
		m = spIncomingNewMovers( index, sc, world, m, incomingLimit );
	}
	if ( m < 0 )
	{
		return m == SP_REFRESH_TOO_MANY_MOVES ? spRefreshTooManyMoves : spRefreshTooManySwaps;
	}

	// Incoming entries grouped by slab (a stable counting sort into the second part), then each group
	// insertion-sorted, within what is left of the swap budget.
	float* grouped = sc->incoming + (size_t)found * stride;
	uint32_t* groupedIds = sc->incomingIds + found;
	int* inStart = sc->inStart;
	int* cursor = sc->inCursor;
	spGroupIncoming( sc, m, grouped, groupedIds, slabCount, stride );
	for ( int s = 0; s < slabCount; ++s )
	{
		const int b = inStart[s], nb = inStart[s + 1] - b;
		const int r =
			spInsertionSortPacked( grouped + (size_t)b * stride, groupedIds + b, nb, stride, swapBudget - total );
		if ( r < 0 )
		{
			return spRefreshTooManySwaps;
		}
		total += r;
	}

	// Where each slab goes (in the cursors: the index is written only after the room is reserved).
	int entries = 0;
	for ( int s = 0; s < slabCount; ++s )
	{
		cursor[s] = entries;
		entries += sc->keptEnd[s] - sc->keptStart[s] + inStart[s + 1] - inStart[s];
	}
	cursor[slabCount] = entries;
	// Room for the new entries; realloc keeps the current ones, so a failure here still leaves the index whole.
	// The new ids go to the previousIds buffer, which then changes places with ids: grown with them.
	if ( !spReserveEntries( index, entries + SP_INDEX_PADDING, stride ) ||
		 !spGrow( (void**)&sc->previousIds, &sc->previousIdsCapacity, index->entryCapacity, sizeof( uint32_t ) ) )
		return spRefreshOutOfMemory;

	// Commit: the ids and the slabs' starts of the entries before become previousIds and previousSlabStart, the
	// index gets the new slab starts and an ids buffer for the new ids, and each slab's kept and incoming entries are
	// merged into it later, recording where each entry went (spMergeRefreshed: the sweep's, while the slab is in
	// cache)
	SP_ASSERT( sc->previousIdsCapacity >= index->entryCapacity );
	uint32_t* ids = sc->previousIds;
	sc->previousIds = index->ids;
	index->ids = ids;
	sc->previousIdsCapacity = index->entryCapacity;
	spCommitSlabs( index, sc, cursor, entries, stride );
	sc->grouped = grouped;
	sc->groupedIds = groupedIds;
	sc->mergePending = 1;
	*swaps = total;
	return spRefreshDone;
}

spRefreshResult spRefreshIndex( spIndex* index, spRefreshScratch* sc, spWorld* world, int swapBudget, int incomingLimit,
								int filtered, int* swaps )
{
	SP_ASSERT( index->axis >= 0 );
	spCutSlabs( world, index );
	sc->swept = 0;
	if ( spRanges( &world->parallel ) > 1 )
		return spRefreshByRanges( index, sc, world, swapBudget, incomingLimit, swaps );
	// On one thread: merged and swept SP_STREAM_LAG slabs behind the pass, or after the whole pass while the back-off
	// of a late entry runs (and for the refresh that found one).
	int r = SP_REFRESH_LATE;
	if ( sc->streamWait > 0 )
		sc->streamWait -= 1;
	else if ( ( r = spStreamRefresh( index, sc, world, swapBudget, incomingLimit, filtered, SP_STREAM_LAG, swaps ) ) ==
			  SP_REFRESH_LATE )
	{
		const int b = sc->streamBackoff;
		sc->streamWait = b;
		sc->streamBackoff = b == 0 ? 1 : 2 * b + 1 < SP_STREAM_BACKOFF_MAX ? 2 * b + 1 : SP_STREAM_BACKOFF_MAX;
	}
	else if ( r == spRefreshDone )
		sc->streamBackoff = 0;
	if ( r == SP_REFRESH_LATE )
		r = spStreamRefresh( index, sc, world, swapBudget, incomingLimit, filtered, index->slabCount, swaps );
	return (spRefreshResult)r;
}

SP_COLD void spFreeRefreshScratch( spRefreshScratch* sc )
{
	spFree( sc->kept );
	spFree( sc->keptOrigins );
	spFree( sc->keptStart );
	spFree( sc->keptEnd );
	spFree( sc->previousSlabStart );
	spFree( sc->inStart );
	spFree( sc->inCursor );
	spFree( sc->keptWidth );
	spFree( sc->incoming );
	spFree( sc->incomingIds );
	spFree( sc->incomingSlabs );
	spFree( sc->remap );
	spFree( sc->previousIds );
	spFree( sc->window );
	spFree( sc->windowOrigins );
	spFree( sc->spareEntries );
	spFree( sc->inNext );
	spFree( sc->inHead );
	spFree( sc->inTail );
	memset( sc, 0, sizeof( *sc ) );
}

SP_COLD size_t spRefreshScratchByteCount( const spRefreshScratch* sc, int stride )
{
	return (size_t)sc->keptCapacity * ( (size_t)stride * sizeof( float ) + sizeof( int ) ) +
		   (size_t)sc->slabCapacity * ( 7 * sizeof( int ) + sizeof( float ) ) +
		   (size_t)sc->incomingCapacity *
			   ( (size_t)stride * sizeof( float ) + sizeof( uint32_t ) + 2 * sizeof( int ) ) +
		   (size_t)sc->remapCapacity * sizeof( int ) + (size_t)sc->previousIdsCapacity * sizeof( uint32_t ) +
		   (size_t)sc->windowCapacity * ( (size_t)stride * sizeof( float ) + sizeof( int ) ) +
		   (size_t)sc->spareCapacity * (size_t)stride * sizeof( float );
}
