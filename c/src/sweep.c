// SPDX-License-Identifier: MIT
// The sweep kernels: each slab of the moving boxes' index swept for the pairs of its entries that overlap, as place
// pairs. A kernel per dimension count from one generic loop (the dimension a constant), and for 2D with no
// filter one that tests four candidates at a time on simd.h's primitives.
#include "sweep.h"

#include "index.h"
#include "parallel.h"
#include "simd.h"
#include "world.h"

#include <math.h>
#include <string.h>

// Sweep one slab of the moving boxes' index into `found` as place pairs (i, j), i < j: places of entries in the
// index, so the pairs come out sorted. A pair is reported only in the first slab both boxes touch. `filtered` is 0
// when every filter accepts every pair (spValidate's allPair): no per-pair lookups then.
SP_FORCE_INLINE int spSweepSlab( const spWorld* w, const float* e, const uint32_t* ids, spPairArray* found, int begin,
								 int end, int slab, int d, int filtered, int* tests )
{
	const int stride = 2 * d;
	const spIndex* index = &w->dynamicIndex;
	// in 2D the slab axis, when there is one, is the second axis: its min is at 2 (with one slab the floor test
	// passes anyway), a constant the compiler can use
	const int slabAt = d == 2 ? 2 : index->slabAt;
	const float floor = index->slabFloor[slab];
	int t = 0;
	for ( int i = begin; i < end; ++i )
	{
		// room for every candidate of box i, so the inner loop writes without a check and without a branch on
		// the overlap test (about half the candidates overlap: a branch there mispredicts)
		if ( found->capacity - found->count < end - i &&
			 !spGrow( (void**)&found->data, &found->capacity, found->count + ( end - i ), sizeof( spPair ) ) )
		{
			*tests += t;
			return 0;
		}
		spPair* out = found->data + found->count;
		// box i in locals: the pair stores below could alias the entries as far as the compiler knows, and would
		// make it load them again for every candidate
		float bi[2 * SP_MAX_DIMENSIONS];
		memcpy( bi, e + (size_t)i * stride, sizeof( float ) * (size_t)stride );
		const float maxA = bi[1];
		// reported in the first slab both boxes touch, the one where either starts: j must start here unless i does
		const float low = bi[slabAt] >= floor ? -INFINITY : floor;
		int j = i + 1;
		for ( ; j < end; ++j )
		{
			const float* bj = e + (size_t)j * stride;
			if ( bj[0] > maxA )
			{
				break;
			}
			// closed intervals on the other axes: overlap unless one lies strictly beyond the other
			int overlap = 1;
			for ( int a = 2; a < stride; a += 2 )
			{
				overlap &= ( bi[a] <= bj[a + 1] ) & ( bj[a] <= bi[a + 1] );
			}
			overlap &= bj[slabAt] >= low;
			if ( filtered && overlap )
			{
				overlap = spShouldPair( w, ids[i] >> SP_GENERATION_BITS, ids[j] >> SP_GENERATION_BITS );
			}
#if defined( __BYTE_ORDER__ ) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			// the pair (i, j) as one 64-bit store (little-endian: a, then b)
			const uint64_t pair = (uint64_t)(uint32_t)j << 32 | (uint32_t)i;
			memcpy( out, &pair, sizeof( pair ) );
#else
			out->a = (uint32_t)i;
			out->b = (uint32_t)j;
#endif
			out += overlap;
		}
		t += j - i - 1;
		found->count = (int)( out - found->data );
	}
	*tests += t;
	return 1;
}

// Test four candidates of box i, the entries at place l of the columns (place j in the index; base is (i, j, i, j)),
// and write the pairs of the hits at *out (room for four pairs), advancing it by the hits. `minYs` is the column of
// min y box i tests against (spSweepSlab2D). Returns the lanes that overlap on x.
SP_FORCE_INLINE spM4 spSweepGroup( const float* minXs, const float* minYs, const float* maxYs, int l, spM4 base,
								   spF4 maxXi, spF4 minYi, spF4 maxYi, spPair** out )
{
	const spF4 minXj = spF4Load( minXs + l ), minYj = spF4Load( minYs + l ), maxYj = spF4Load( maxYs + l );
	// candidates: overlapping on x (a prefix of the lanes: the slab is sorted by min x; the padding fails)
	const spM4 inX = spF4Le( minXj, maxXi );
	// closed intervals on y (max y not below box i's min: no NaN reaches the sweep, and in this form SSE's compare
	// writes over the loaded column, not over a copy of box i's)
	const spM4 hit = spM4AndNot( spM4And( inX, spF4Le( minYj, maxYi ) ), spF4Lt( maxYj, minYi ) );
	const int bits = spM4Bits( hit );
	spStoreHits( (uint32_t*)*out, base, bits );
	*out += spLaneCount( bits );
	return inX;
}

// The sum of a vector's lanes, as a count of candidates (spSweepSlab2D).
static inline long long spLaneSum( spM4 v )
{
	return (long long)(uint32_t)spM4Lane( v, 0 ) + (uint32_t)spM4Lane( v, 1 ) + (uint32_t)spM4Lane( v, 2 ) +
		   (uint32_t)spM4Lane( v, 3 );
}

// Candidates a step of spSweepSlab2D tests (two groups of four), and so the padding of its columns.
#define SP_SWEEP_STEP 8

// The columns of spSweepSlab2D.
#define SP_SWEEP_COLUMNS 4

// spSweepSlab for 2D with no filter, four candidates at a time. The slab's min x, min y and max y are first copied
// into columns (`columns`, SP_SWEEP_COLUMNS * (end - begin + SP_SWEEP_STEP) floats; min x padded with +INFINITY,
// which no candidate passes), so a group of four candidates is three vector loads; each test is one compare of four
// lanes, and the four pairs are written with the count advanced by the hits (no branch on a test). A pair is
// reported in the first slab both boxes touch, the one where either starts: a box that starts in an earlier slab
// tests its candidates' min y in a fourth column, where a candidate that starts earlier too has +INFINITY, which
// fails the test on y.
static int spSweepSlab2D( const spWorld* w, const float* e, spPairArray* found, float* columns, int begin, int end,
						  int slab, int* tests )
{
	const float floor = w->dynamicIndex.slabFloor[slab];
	const int n = end - begin;
	const int height = n + SP_SWEEP_STEP;
	float* minXs = columns;
	float* minYs = columns + height;
	float* maxYs = columns + 2 * height;
	float* minYsHere = columns + 3 * height; // min y, or +INFINITY for an entry that starts in an earlier slab
	int k = 0;
	// four entries at a time, transposed in registers
	const spF4 floors = spF4Splat( floor ), above = spF4Splat( INFINITY );
	for ( ; k + 4 <= n; k += 4 )
	{
		const float* b = e + (size_t)( begin + k ) * 4;
		const spF4 b0 = spF4Load( b ), b1 = spF4Load( b + 4 ), b2 = spF4Load( b + 8 ), b3 = spF4Load( b + 12 );
		const spF4 xs01 = spF4LowHalves( b0, b1 ), xs23 = spF4LowHalves( b2, b3 );
		const spF4 ys01 = spF4HighHalves( b0, b1 ), ys23 = spF4HighHalves( b2, b3 );
		const spF4 minY = spF4Evens( ys01, ys23 );
		spF4Store( minXs + k, spF4Evens( xs01, xs23 ) );
		spF4Store( minYs + k, minY );
		spF4Store( maxYs + k, spF4Odds( ys01, ys23 ) );
		spF4Store( minYsHere + k, spF4Select( spF4Ge( minY, floors ), minY, above ) );
	}
	for ( ; k < n; ++k )
	{
		const float* b = e + (size_t)( begin + k ) * 4;
		minXs[k] = b[0];
		minYs[k] = b[2];
		maxYs[k] = b[3];
		minYsHere[k] = b[2] >= floor ? b[2] : INFINITY;
	}
	for ( k = n; k < height; ++k )
	{
		minXs[k] = INFINITY;
		minYs[k] = maxYs[k] = minYsHere[k] = 0.0f;
	}
	// room for the first box's candidates, so that the list exists before the pointers below are taken
	if ( found->capacity - found->count < n + SP_SWEEP_STEP &&
		 !spGrow( (void**)&found->data, &found->capacity, found->count + n + SP_SWEEP_STEP, sizeof( spPair ) ) )
		return 0;
	// the next pair's place, in a local (found's count written back at a grow and at the end)
	spPair* out = found->data + found->count;
	// room for every candidate of box k and for the pairs past them that a step writes, n - k + SP_SWEEP_STEP pairs,
	// while out is at most `edge` (an address: it moves up a pair a box), set so at the start
	uintptr_t edge = (uintptr_t)( found->data + found->capacity ) - sizeof( spPair ) * (size_t)( n + SP_SWEEP_STEP );
	// the candidate tests: the lanes in x of every group tested, a lane each
	spM4 candidates = spM4Set( 0, 0, 0, 0 );
	// (i, i + 1, i, i + 1): the pairs' base for box k's first group
	spM4 first = spM4Set( begin, begin + 1, begin, begin + 1 );
	const spM4 one = spM4Set( 1, 1, 1, 1 ), four = spM4Set( 0, 4, 0, 4 ), eight = spM4Set( 0, 8, 0, 8 );
	for ( k = 0; k < n; ++k, first = spM4Add( first, one ), edge += sizeof( spPair ) )
	{
		if ( (uintptr_t)out > edge )
		{
			const int room = n - k + SP_SWEEP_STEP;
			found->count = (int)( out - found->data );
			if ( !spGrow( (void**)&found->data, &found->capacity, found->count + room, sizeof( spPair ) ) )
			{
				*tests += (int)spLaneSum( candidates );
				return 0;
			}
			out = found->data + found->count;
			edge = (uintptr_t)( found->data + found->capacity ) - sizeof( spPair ) * (size_t)room;
		}
		const float maxX = e[(size_t)( begin + k ) * 4 + 1], minY = minYs[k], maxY = maxYs[k];
		const float* candidateMinYs = minY >= floor ? minYs : minYsHere;
		const spF4 maxXi = spF4Splat( maxX ), minYi = spF4Splat( minY ), maxYi = spF4Splat( maxY );
		// a step of two groups: most boxes have fewer candidates (about five on a uniform scene), so the loop's
		// exit is mostly predicted; a step of one group mispredicted it about once per box (1.06x slower in all),
		// and a third group cost more than the mispredictions it saved
		int l = k + 1;
		spM4 base = first;
		for ( ;; )
		{
			const spM4 x0 = spSweepGroup( minXs, candidateMinYs, maxYs, l, base, maxXi, minYi, maxYi, &out );
			const spM4 x1 =
				spSweepGroup( minXs, candidateMinYs, maxYs, l + 4, spM4Add( base, four ), maxXi, minYi, maxYi, &out );
			// a lane in x is -1: each one counts a candidate (the lanes in x are a prefix, as the slab is sorted by
			// min x, so the lanes past the last candidate add nothing)
			candidates = spM4Sub( spM4Sub( candidates, x0 ), x1 );
			if ( spM4Bits( spM4And( x0, x1 ) ) != 15 )
			{
				break;
			}
			l += SP_SWEEP_STEP;
			base = spM4Add( base, eight );
		}
	}
	found->count = (int)( out - found->data );
	*tests += (int)spLaneSum( candidates );
	return 1;
}
bool spSweepSlabOf( const spWorld* w, const float* entries, const uint32_t* ids, spPairArray* found, float* columns,
					int slab, int begin, int end, int filtered, int* tests )
{
	switch ( w->dimensions )
	{
		case 1:
			return filtered ? spSweepSlab( w, entries, ids, found, begin, end, slab, 1, 1, tests )
							: spSweepSlab( w, entries, ids, found, begin, end, slab, 1, 0, tests );
		case 2:
			return filtered ? spSweepSlab( w, entries, ids, found, begin, end, slab, 2, 1, tests )
							: spSweepSlab2D( w, entries, found, columns, begin, end, slab, tests );
		case 3:
			return filtered ? spSweepSlab( w, entries, ids, found, begin, end, slab, 3, 1, tests )
							: spSweepSlab( w, entries, ids, found, begin, end, slab, 3, 0, tests );
		default:
			return filtered ? spSweepSlab( w, entries, ids, found, begin, end, slab, 4, 1, tests )
							: spSweepSlab( w, entries, ids, found, begin, end, slab, 4, 0, tests );
	}
}

float* spSweepColumns( spTask* task, int entries )
{
	return spTaskScratch( task, sizeof( float ) * SP_SWEEP_COLUMNS * (size_t)( entries + SP_SWEEP_STEP ) );
}
