// SPDX-License-Identifier: MIT
// The update: validate, bucket the moving boxes into slabs along one axis, each slab sorted along another (index.c;
// or, on a coherent frame, refresh last update's slabs in place: refresh.c), sweep each slab, query the static
// boxes' index for every moving box, then diff the pairs found against the previous update's pairs.
//
// Why not the textbook form (insertion-sorted endpoint lists on every axis, pair events on every swap): on a
// uniform 2D scene the projections of n boxes on one axis overlap about n^1.5 times, and every one of those
// overlaps is a swap and a pair-table operation as boxes move. Here the work is O(n + swaps + candidates):
// insertion sorts keep each slab sorted for O(n + swaps) on coherent frames (a rebuild otherwise), and slabs
// keep the candidates (pairs overlapping on the sweep axis and sharing a slab) close to the real pairs.
// Static boxes cost nothing while they stay still beyond a comparison of their bounds with a cached copy.
#include "core.h"

#include <float.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#if defined( __wasm_simd128__ )
#include <wasm_simd128.h>
#elif defined( __SSE2__ )
#include <xmmintrin.h>
#endif

static void spResetStats( spAxisStats* stats, int d )
{
	for ( int a = 0; a < d; ++a )
	{
		stats[a].sum = stats[a].sumSq = stats[a].width = 0.0;
		stats[a].lo = INFINITY;
		stats[a].hi = -INFINITY;
	}
}

static void spAddStats( spAxisStats* stats, const float* b, int d )
{
	for ( int a = 0; a < d; ++a )
	{
		float lo = b[a], hi = b[d + a];
		double c = 0.5 * ( (double)lo + (double)hi );
		stats[a].sum += c;
		stats[a].sumSq += c * c;
		stats[a].width += (double)hi - (double)lo;
		stats[a].lo = lo < stats[a].lo ? lo : stats[a].lo;
		stats[a].hi = hi > stats[a].hi ? hi : stats[a].hi;
	}
}

// The fast validation pass and the statistics of the moving boxes, inlined with a constant `d`.
static inline __attribute__( ( always_inline ) ) void spCheckMoving( const spWorld* w, spAxisStats* stats, int d,
																	 int* outValid )
{
	const int stride = 2 * d;
	const float* bounds = w->bounds;
	const uint32_t* ids = w->ids;
	const uint8_t* flags = w->flags;
	int valid = 1;
	double sum[SP_MAX_DIMENSIONS] = { 0 }, sumSq[SP_MAX_DIMENSIONS] = { 0 }, width[SP_MAX_DIMENSIONS] = { 0 };
	float lo[SP_MAX_DIMENSIONS], hi[SP_MAX_DIMENSIONS];
	for ( int a = 0; a < d; ++a )
	{
		lo[a] = INFINITY;
		hi[a] = -INFINITY;
	}
	for ( int slot = 0; slot < w->slotCount; ++slot )
	{
		if ( ids[slot] == 0 || ( flags[slot] & SP_FLAG_STATIC ) != 0 )
		{
			continue;
		}
		const float* b = bounds + (size_t)slot * stride;
		for ( int a = 0; a < d; ++a )
		{
			const float mn = b[a], mx = b[d + a];
			valid &= ( mn >= -FLT_MAX ) & ( mn <= mx ) & ( mx <= FLT_MAX );
			const double c = 0.5 * ( (double)mn + (double)mx );
			sum[a] += c;
			sumSq[a] += c * c;
			width[a] += (double)mx - (double)mn;
			lo[a] = mn < lo[a] ? mn : lo[a];
			hi[a] = mx > hi[a] ? mx : hi[a];
		}
	}
	for ( int a = 0; a < d; ++a )
	{
		stats[a].sum = sum[a];
		stats[a].sumSq = sumSq[a];
		stats[a].width = width[a];
		stats[a].lo = lo[a];
		stats[a].hi = hi[a];
	}
	*outValid = valid;
}

#if defined( SP_VECTOR_4 )

// spCheckMoving for 2D, a box as one vector (min x, min y, max x, max y) and the statistics of both axes as one:
// the same operations in the same order per axis, so the same statistics to the bit, in about half the
// instructions.
static void spCheckMoving2D( const spWorld* w, spAxisStats* stats, int* outValid )
{
	const float* bounds = w->bounds;
	const uint32_t* ids = w->ids;
	const uint8_t* flags = w->flags;
	const spFloat4 lowest = { -FLT_MAX, -FLT_MAX, 0.0f, 0.0f };
	const spFloat4 highest = { 0.0f, 0.0f, FLT_MAX, FLT_MAX };
	spInt4 valid = { -1, -1, -1, -1 };
	spDouble2 sum = { 0.0, 0.0 }, sumSq = { 0.0, 0.0 }, width = { 0.0, 0.0 };
	spFloat4 lo = { INFINITY, INFINITY, INFINITY, INFINITY }, hi = -lo;
	for ( int slot = 0; slot < w->slotCount; ++slot )
	{
		if ( ids[slot] == 0 || ( flags[slot] & SP_FLAG_STATIC ) != 0 )
		{
			continue;
		}
		spFloat4 b;
		memcpy( &b, bounds + (size_t)slot * 4, sizeof( b ) );
		// lanes 0 and 1: -FLT_MAX <= min <= max; lanes 2 and 3: min <= max <= FLT_MAX (NaN fails both)
		const spFloat4 below = __builtin_shufflevector( lowest, b, 0, 1, 4, 5 );
		const spFloat4 above = __builtin_shufflevector( b, highest, 2, 3, 6, 7 );
		valid &= ( b >= below ) & ( b <= above );
		const spDouble2 mn = __builtin_convertvector( __builtin_shufflevector( b, b, 0, 1 ), spDouble2 );
		const spDouble2 mx = __builtin_convertvector( __builtin_shufflevector( b, b, 2, 3 ), spDouble2 );
		const spDouble2 c = 0.5 * ( mn + mx );
		sum += c;
		sumSq += c * c;
		width += mx - mn;
		// lanes 0 and 1 of lo are the smallest mins, lanes 2 and 3 of hi the largest maxes
		const spInt4 less = b < lo, more = b > hi;
		lo = (spFloat4)( ( (spInt4)b & less ) | ( (spInt4)lo & ~less ) );
		hi = (spFloat4)( ( (spInt4)b & more ) | ( (spInt4)hi & ~more ) );
	}
	for ( int a = 0; a < 2; ++a )
	{
		stats[a].sum = sum[a];
		stats[a].sumSq = sumSq[a];
		stats[a].width = width[a];
		stats[a].lo = lo[a];
		stats[a].hi = hi[2 + a];
	}
	*outValid = ( valid[0] & valid[1] & valid[2] & valid[3] ) != 0;
}
#define SP_CHECK_MOVING_2D( w, stats, valid ) spCheckMoving2D( w, stats, valid )
#else
#define SP_CHECK_MOVING_2D( w, stats, valid ) spCheckMoving( w, stats, 2, valid )
#endif

static spResult spReject( spWorld* w, int slot, spResult r )
{
	w->lastInvalidBox.bits = w->ids[slot];
	return r;
}

// Validate every live box and gather the moving boxes' statistics. Sets *staticChanged when a static box was
// added, removed, switched or moved since the static index was built, and *allPair when no box has a filter
// (every filter accepts every other), so the sweep can skip the per-pair filter lookups.
// Changes nothing else.
static spResult spValidate( spWorld* w, spAxisStats* stats, int* staticChanged, int* allPair )
{
	const int d = w->dimensions;
	const int stride = w->stride;
	const float* bounds = w->bounds;
	spResetStats( stats, d );

	// Fast pass in slot order (sequential memory, no call per box): finite and ordered is
	// -FLT_MAX <= min <= max <= FLT_MAX, which NaN fails too. On failure the exact pass below finds the box.
	int valid = 1;
	switch ( d )
	{
		case 1:
			spCheckMoving( w, stats, 1, &valid );
			break;
		case 2:
			SP_CHECK_MOVING_2D( w, stats, &valid );
			break;
		case 3:
			spCheckMoving( w, stats, 3, &valid );
			break;
		default:
			spCheckMoving( w, stats, 4, &valid );
			break;
	}
	const uint32_t* ids = w->ids;
	const uint8_t* flags = w->flags;
	*allPair = w->filteredBoxes == 0;
	for ( int i = 0; !valid && i < w->orderCount; ++i )
	{
		int slot = w->order[i];
		if ( w->ids[slot] == 0 || ( w->flags[slot] & SP_FLAG_STATIC ) != 0 )
		{
			continue;
		}
		const float* b = bounds + (size_t)slot * stride;
		spResult r = spCheckBounds( b, b + d, d );
		if ( r != sp_resultOk )
		{
			return spReject( w, slot, r );
		}
	}
	for ( int slot = 0; !valid && slot < w->slotCount; ++slot )
	{
		// a moving box outside the order (not expected): still never let it through
		if ( ids[slot] != 0 && ( flags[slot] & SP_FLAG_STATIC ) == 0 )
		{
			spResult r = spCheckBounds( bounds + (size_t)slot * stride, bounds + (size_t)slot * stride + d, d );
			if ( r != sp_resultOk )
			{
				return spReject( w, slot, r );
			}
		}
	}
	int changed = w->staticDirty;
	for ( int i = 0; i < w->staticCount; ++i )
	{
		int slot = w->statics[i];
		if ( w->ids[slot] == 0 || ( w->flags[slot] & SP_FLAG_STATIC ) == 0 )
		{
			continue;
		}
		const float* b = bounds + (size_t)slot * stride;
		// an unchanged static box was validated when it was cached
		if ( !changed && memcmp( b, w->staticCache + (size_t)i * stride, sizeof( float ) * (size_t)stride ) == 0 )
		{
			continue;
		}
		spResult r = spCheckBounds( b, b + d, d );
		if ( r != sp_resultOk )
		{
			return spReject( w, slot, r );
		}
		changed = 1;
	}
	w->lastInvalidBox = sp_nullBoxId;
	*staticChanged = changed;
	return sp_resultOk;
}

// Drop removed and now-static slots from the order of the moving boxes, keeping it in order.
static void spCompactOrder( spWorld* w )
{
	if ( !w->orderDirty )
	{
		return;
	}
	w->orderDirty = 0;
	int n = 0;
	for ( int i = 0; i < w->orderCount; ++i )
	{
		int slot = w->order[i];
		if ( w->ids[slot] == 0 || ( w->flags[slot] & SP_FLAG_STATIC ) != 0 )
		{
			w->flags[slot] &= (uint8_t)~SP_FLAG_IN_ORDER;
			continue;
		}
		w->order[n++] = slot;
	}
	w->orderCount = n;
}

static void spCompactStatics( spWorld* w )
{
	int n = 0;
	for ( int i = 0; i < w->staticCount; ++i )
	{
		int slot = w->statics[i];
		if ( w->ids[slot] == 0 || ( w->flags[slot] & SP_FLAG_STATIC ) == 0 )
		{
			w->flags[slot] &= (uint8_t)~SP_FLAG_IN_STATICS;
			continue;
		}
		w->statics[n++] = slot;
	}
	w->staticCount = n;
}

static spResult spRebuildStatics( spWorld* w )
{
	const int d = w->dimensions;
	const int stride = w->stride;
	spCompactStatics( w );
	const int n = w->staticCount;
	spAxisStats stats[SP_MAX_DIMENSIONS];
	spResetStats( stats, d );
	for ( int i = 0; i < n; ++i )
	{
		spAddStats( stats, w->bounds + (size_t)w->statics[i] * stride, d );
	}
	if ( !spGrow( (void**)&w->staticCache, &w->staticCacheCapacity, n * stride, sizeof( float ) ) )
		return sp_resultOutOfMemory;
	int axis = 0, slabAxis = -1;
	spChooseAxes( stats, d, n, -1, &axis, &slabAxis );
	if ( !spBuildIndex( &w->staticIndex, w, w->statics, n, axis, slabAxis, stats ) )
		return sp_resultOutOfMemory;
	for ( int i = 0; i < n; ++i )
	{
		memcpy( w->staticCache + (size_t)i * stride, w->bounds + (size_t)w->statics[i] * stride,
				sizeof( float ) * (size_t)stride );
	}
	w->staticDirty = 0;
	return sp_resultOk;
}

// True if the index's slabs still suit the boxes of `stats`: the same sweep and slab axes, a slab count within a
// third of the one a rebuild would choose, and the slab axis's extent within a tenth of the slabs' span.
static bool spSlabsStillFit( const spIndex* index, const spAxisStats* stats, int n, int axis, int slabAxis )
{
	int count, planAxis;
	float lo, scale;
	spPlanSlabs( stats, n, axis, slabAxis, &count, &planAxis, &lo, &scale );
	if ( index->axis != axis || index->slabAxis != planAxis )
	{
		return false;
	}
	if ( count == 1 || index->slabCount == 1 )
	{
		return count == index->slabCount;
	}
	if ( 4 * count < 3 * index->slabCount || 3 * count > 4 * index->slabCount )
	{
		return false;
	}
	const double span = index->slabCount / (double)index->slabScale;
	const double hi = (double)index->slabLo + span;
	return fabs( (double)stats[planAxis].lo - (double)index->slabLo ) <= 0.1 * span &&
		   fabs( (double)stats[planAxis].hi - hi ) <= 0.1 * span;
}

// The index version after v: never 0, which stands for none (placePairsVersion).
static inline uint32_t spNextIndexVersion( uint32_t v )
{
	return v == UINT32_MAX ? 1u : v + 1u;
}

// Sweep one slab of the moving boxes' index into `found` as place pairs (i, j), i < j: places of entries in the
// index, so the pairs come out sorted. A pair is reported only in the first slab both boxes touch. `filtered` is 0
// when every filter accepts every pair (spValidate's allPair): no per-pair lookups then.
static inline __attribute__( ( always_inline ) ) int spSweepSlab( spWorld* w, spPairArray* found, int begin, int end,
																  int slab, int d, int filtered, int* tests )
{
	const int stride = 2 * d;
	const spIndex* index = &w->dynamicIndex;
	const float* e = index->entries;
	const uint32_t* ids = index->ids;
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

#if defined( SP_VECTOR_4 )
// The lanes of a mask (all ones or zero in each lane) as four bits, lane 0 lowest.
static inline int spMaskBits( spInt4 m )
{
#if defined( __wasm_simd128__ )
	return wasm_i32x4_bitmask( (v128_t)m );
#elif defined( __SSE2__ )
	return _mm_movemask_ps( (__m128)m );
#else
	return ( m[0] & 1 ) | ( m[1] & 2 ) | ( m[2] & 4 ) | ( m[3] & 8 );
#endif
}

// The lanes set in a 4-bit mask: i32.popcnt in wasm; elsewhere from a table of 16 nibbles, unless the target has a
// popcount instruction (x86-64's baseline has none, and __builtin_popcount is then a call into libgcc).
static inline int spLaneCount( int bits )
{
#if defined( __wasm__ ) || defined( __POPCNT__ ) || defined( __ARM_NEON )
	return __builtin_popcount( (unsigned)bits );
#else
	return (int)( ( 0x4332322132212110ull >> ( 4 * bits ) ) & 15u );
#endif
}

#if !defined( __wasm_simd128__ )
// For each 4-bit mask, the lanes whose bit is set, in order (then lane 0, never counted).
static const uint8_t spHitOrder[16][4] = {
	{ 0, 0, 0, 0 }, { 0, 0, 0, 0 }, { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 2, 0, 0, 0 }, { 0, 2, 0, 0 },
	{ 1, 2, 0, 0 }, { 0, 1, 2, 0 }, { 3, 0, 0, 0 }, { 0, 3, 0, 0 }, { 1, 3, 0, 0 }, { 0, 1, 3, 0 },
	{ 2, 3, 0, 0 }, { 0, 2, 3, 0 }, { 1, 2, 3, 0 }, { 0, 1, 2, 3 },
};
#else
// For each 4-bit mask, the byte shuffle that packs the 32-bit lanes whose bit is set into the first lanes, in
// order (indices of 16 or more give zero bytes).
#define SP_L( k ) 4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3
#define SP_Z 16, 16, 16, 16
static const uint8_t spHitLanes[16][16] __attribute__( ( aligned( 16 ) ) ) = {
	{ SP_Z, SP_Z, SP_Z, SP_Z },				{ SP_L( 0 ), SP_Z, SP_Z, SP_Z },
	{ SP_L( 1 ), SP_Z, SP_Z, SP_Z },		{ SP_L( 0 ), SP_L( 1 ), SP_Z, SP_Z },
	{ SP_L( 2 ), SP_Z, SP_Z, SP_Z },		{ SP_L( 0 ), SP_L( 2 ), SP_Z, SP_Z },
	{ SP_L( 1 ), SP_L( 2 ), SP_Z, SP_Z },	{ SP_L( 0 ), SP_L( 1 ), SP_L( 2 ), SP_Z },
	{ SP_L( 3 ), SP_Z, SP_Z, SP_Z },		{ SP_L( 0 ), SP_L( 3 ), SP_Z, SP_Z },
	{ SP_L( 1 ), SP_L( 3 ), SP_Z, SP_Z },	{ SP_L( 0 ), SP_L( 1 ), SP_L( 3 ), SP_Z },
	{ SP_L( 2 ), SP_L( 3 ), SP_Z, SP_Z },	{ SP_L( 0 ), SP_L( 2 ), SP_L( 3 ), SP_Z },
	{ SP_L( 1 ), SP_L( 2 ), SP_L( 3 ), SP_Z }, { SP_L( 0 ), SP_L( 1 ), SP_L( 2 ), SP_L( 3 ) },
};
#undef SP_L
#undef SP_Z
#endif

// Test four candidates of box i, the entries at place l of the columns (place j in the index), and write the pairs
// of the hits at *out (room for four pairs), advancing it by the hits. Returns the lanes that overlap on x.
static inline __attribute__( ( always_inline ) ) int spSweepGroup( const float* minXs, const float* minYs,
																   const float* maxYs, int l, int i, int j,
																   spFloat4 maxXi, spFloat4 minYi, spFloat4 maxYi,
																   spFloat4 lows, spPair** out )
{
	spFloat4 minXj, minYj, maxYj;
	memcpy( &minXj, minXs + l, sizeof( minXj ) );
	memcpy( &minYj, minYs + l, sizeof( minYj ) );
	memcpy( &maxYj, maxYs + l, sizeof( maxYj ) );
	// candidates: overlapping on x (a prefix of the lanes: the slab is sorted by min x; the padding fails)
	const spInt4 inX = minXj <= maxXi;
	// closed intervals on y, and j starting in this slab unless i does
	const spInt4 hit = inX & ( minYj <= maxYi ) & ( maxYj >= minYi ) & ( minYj >= lows );
	const int bits = spMaskBits( hit );
	spPair* o = *out;
#if defined( __wasm_simd128__ )
	// the places of the hits packed to the first lanes (a byte shuffle from a table), then four pairs (i, place)
	// written as two vectors
	const v128_t places = wasm_i8x16_swizzle( wasm_i32x4_add( wasm_i32x4_splat( j ), wasm_i32x4_make( 0, 1, 2, 3 ) ),
											  wasm_v128_load( spHitLanes[bits] ) );
	const v128_t is = wasm_i32x4_splat( i );
	wasm_v128_store( o, wasm_i32x4_shuffle( is, places, 0, 4, 1, 5 ) );
	wasm_v128_store( o + 2, wasm_i32x4_shuffle( is, places, 2, 6, 3, 7 ) );
#else
	// the same from a table of the hits' lanes (SSE2, x86-64's baseline, has no byte shuffle): four pairs written,
	// the hits' first
	const uint8_t* hits = spHitOrder[bits];
	for ( int q = 0; q < 4; ++q )
	{
		o[q].a = (uint32_t)i;
		o[q].b = (uint32_t)( j + hits[q] );
	}
#endif
	*out = o + spLaneCount( bits );
	return spMaskBits( inX );
}

// Candidates a step of spSweepSlab2D tests (three groups of four), and so the padding of its columns.
#define SP_SWEEP_STEP 12

// spSweepSlab for 2D with no filter, four candidates at a time. The slab's min x, min y and max y are first copied
// into three columns (w->sweepColumns, 3 * (end - begin + SP_SWEEP_STEP) floats; min x padded with +INFINITY, which
// no candidate passes), so a group of four candidates is three vector loads; each test is one compare of four lanes,
// and the four pairs are written with the count advanced by the hits (no branch on a test).
static int spSweepSlab2D( spWorld* w, spPairArray* found, int begin, int end, int slab, int* tests )
{
	float* columns = w->sweepColumns;
	const float* e = w->dynamicIndex.entries;
	const float floor = w->dynamicIndex.slabFloor[slab];
	const int n = end - begin;
	float* minXs = columns;
	float* minYs = columns + n + SP_SWEEP_STEP;
	float* maxYs = columns + 2 * ( n + SP_SWEEP_STEP );
	for ( int k = 0; k < n; ++k )
	{
		const float* b = e + (size_t)( begin + k ) * 4;
		minXs[k] = b[0];
		minYs[k] = b[2];
		maxYs[k] = b[3];
	}
	for ( int k = n; k < n + SP_SWEEP_STEP; ++k )
	{
		minXs[k] = INFINITY;
		minYs[k] = maxYs[k] = 0.0f;
	}
	int t = 0;
	for ( int k = 0; k < n; ++k )
	{
		// room for every candidate of box k, and for the pairs past them that a step writes
		const int room = n - k + SP_SWEEP_STEP;
		if ( found->capacity - found->count < room &&
			 !spGrow( (void**)&found->data, &found->capacity, found->count + room, sizeof( spPair ) ) )
		{
			*tests += t;
			return 0;
		}
		spPair* out = found->data + found->count;
		const int i = begin + k;
		const float maxX = e[(size_t)i * 4 + 1], minY = minYs[k], maxY = maxYs[k];
		// reported in the first slab both boxes touch, the one where either starts: j must start here unless i does
		const float low = minY >= floor ? -INFINITY : floor;
		const spFloat4 maxXi = { maxX, maxX, maxX, maxX };
		const spFloat4 minYi = { minY, minY, minY, minY };
		const spFloat4 maxYi = { maxY, maxY, maxY, maxY };
		const spFloat4 lows = { low, low, low, low };
		// a step of three groups: most boxes have fewer candidates (about five on a uniform scene), so the loop's
		// exit is mostly predicted; a step of one group mispredicted it about once per box (1.06x slower in all)
		int l = k + 1;
		for ( ;; )
		{
			const int x0 = spSweepGroup( minXs, minYs, maxYs, l, i, begin + l, maxXi, minYi, maxYi, lows, &out );
			const int x1 = spSweepGroup( minXs, minYs, maxYs, l + 4, i, begin + l + 4, maxXi, minYi, maxYi, lows, &out );
			const int x2 = spSweepGroup( minXs, minYs, maxYs, l + 8, i, begin + l + 8, maxXi, minYi, maxYi, lows, &out );
			if ( ( x0 & x1 & x2 ) != 15 )
			{
				t += l - k - 1 + spLaneCount( x0 ) + spLaneCount( x1 ) + spLaneCount( x2 );
				break;
			}
			l += SP_SWEEP_STEP;
		}
		found->count = (int)( out - found->data );
	}
	*tests += t;
	return 1;
}
#define SP_SWEEP_SLAB_2D( w, found, begin, end, slab, tests ) spSweepSlab2D( w, found, begin, end, slab, tests )
#else
#define SP_SWEEP_SLAB_2D( w, found, begin, end, slab, tests ) spSweepSlab( w, found, begin, end, slab, 2, 0, tests )
#endif

static bool spSweepAll( spWorld* w, spPairArray* found, int filtered, int* tests )
{
	const spIndex* index = &w->dynamicIndex;
	const int* start = index->slabStart;
	found->count = 0;
#if defined( SP_VECTOR_4 )
	if ( w->dimensions == 2 && !filtered )
	{
		// the columns of spSweepSlab2D, for the largest slab
		int largest = 0;
		for ( int s = 0; s < index->slabCount; ++s )
		{
			largest = start[s + 1] - start[s] > largest ? start[s + 1] - start[s] : largest;
		}
		if ( !spGrowWithRoom( (void**)&w->sweepColumns, &w->sweepColumnsCapacity, 3 * ( largest + SP_SWEEP_STEP ), sizeof( float ) ) )
			return false;
	}
#endif
	for ( int s = 0; s < index->slabCount; ++s )
	{
		int ok;
		switch ( w->dimensions )
		{
			case 1:
				ok = filtered ? spSweepSlab( w, found, start[s], start[s + 1], s, 1, 1, tests )
							  : spSweepSlab( w, found, start[s], start[s + 1], s, 1, 0, tests );
				break;
			case 2:
				ok = filtered ? spSweepSlab( w, found, start[s], start[s + 1], s, 2, 1, tests )
							  : SP_SWEEP_SLAB_2D( w, found, start[s], start[s + 1], s, tests );
				break;
			case 3:
				ok = filtered ? spSweepSlab( w, found, start[s], start[s + 1], s, 3, 1, tests )
							  : spSweepSlab( w, found, start[s], start[s + 1], s, 3, 0, tests );
				break;
			default:
				ok = filtered ? spSweepSlab( w, found, start[s], start[s + 1], s, 4, 1, tests )
							  : spSweepSlab( w, found, start[s], start[s + 1], s, 4, 0, tests );
				break;
		}
		if ( !ok )
		{
			return false;
		}
	}
	return true;
}

// The id pair of a place pair, lower id first.
static inline spPair spPlacePairToIds( const uint32_t* ids, spPair p )
{
	const uint32_t x = ids[p.a], y = ids[p.b];
	spPair q = { x < y ? x : y, x < y ? y : x };
	return q;
}

static void spPlacePairsToIds( const uint32_t* ids, const spPair* in, int count, spPair* out )
{
	for ( int i = 0; i < count; ++i )
	{
		out[i] = spPlacePairToIds( ids, in[i] );
	}
}

// Carry the last update's place pairs over to the refreshed index's places (index->remap), lower place first,
// into `carried`, sorted again as they are written (an insertion sort: boxes that swapped places within a slab
// leave a few pairs out of order). A pair one of whose entries left its slab goes to `gone` as ids. Returns the
// carried count; *goneCount is set.
static int spCarryPlacePairs( const spIndex* index, const spPairArray* prev, spPair* carried, spPair* gone,
							  int* goneCount )
{
	const int* remap = index->remap;
	const spPair* in = prev->data;
	const int count = prev->count;
	int n = 0, g = 0;
	uint64_t last = 0; // the key of carried[n - 1] (0 before the first: every key is at least 0)
	for ( int k = 0; k < count; ++k )
	{
		const spPair p = in[k];
		SP_ASSERT( p.a < (uint32_t)index->previousCount && p.b < (uint32_t)index->previousCount );
		const int x = remap[p.a], y = remap[p.b];
		if ( ( x | y ) < 0 )
		{
			gone[g++] = spPlacePairToIds( index->previousIds, p );
			continue;
		}
		const spPair q = { (uint32_t)( x < y ? x : y ), (uint32_t)( x < y ? y : x ) };
		const uint64_t key = spPairKey( q );
		if ( key >= last )
		{
			// in order (nearly every pair): the key of the last one stays in a register
			carried[n++] = q;
			last = key;
			continue;
		}
		int j = n++;
		do
		{
			carried[j] = carried[j - 1];
			--j;
		}
		while ( j > 0 && key < spPairKey( carried[j - 1] ) );
		carried[j] = q;
	}
	*goneCount = g;
	return n;
}

// Diff two sorted place pair lists of one index: pairs only in `q` to began, pairs only in `p` to ended, as id
// pairs (appended at *beganCount and *endedCount). Writes every pair of `q` as ids to `out`, in its order.
static void spDiffPlacePairs( const uint32_t* ids, const spPair* p, int pCount, const spPair* q, int qCount,
							  spPair* out, spPair* began, int* beganCount, spPair* ended, int* endedCount )
{
	int i = 0, j = 0, nb = *beganCount, ne = *endedCount;
	while ( i < pCount && j < qCount )
	{
		// equal pairs (nearly all on a coherent frame) compared as two words at once
		uint64_t x, y;
		memcpy( &x, p + i, sizeof( x ) );
		memcpy( &y, q + j, sizeof( y ) );
		if ( x == y )
		{
			out[j] = spPlacePairToIds( ids, q[j] );
			++i;
			++j;
		}
		else if ( spPairKey( p[i] ) < spPairKey( q[j] ) )
		{
			ended[ne++] = spPlacePairToIds( ids, p[i++] );
		}
		else
		{
			out[j] = spPlacePairToIds( ids, q[j] );
			began[nb++] = out[j++];
		}
	}
	while ( i < pCount )
		ended[ne++] = spPlacePairToIds( ids, p[i++] );
	while ( j < qCount )
	{
		out[j] = spPlacePairToIds( ids, q[j] );
		began[nb++] = out[j++];
	}
	*beganCount = nb;
	*endedCount = ne;
}

// The pair lists of the update, from the sweep's place pairs (placePairs[1 - current]) and the pairs with static
// boxes (w->found, id pairs): the public pairs and the began and ended events.
// - When the index is a refresh of the last update's and neither update has pairs with static boxes, the last
//   update's place pairs are carried to the new places and diffed with this update's; only the events are
//   sorted by id, and the public pairs are this update's place pairs as ids, in place order.
// - Otherwise this update's pairs are sorted by id (and the last update's too, when they were in place order)
//   and diffed.
// Returns false on allocation failure, with the last update's results untouched.
static bool spMakePairLists( spWorld* w )
{
	const int cur = w->current, nxt = 1 - cur;
	const spIndex* index = &w->dynamicIndex;
	spPairArray* prev = &w->pairs[cur];
	spPairArray* next = &w->pairs[nxt];
	const spPairArray* prevPlaces = &w->placePairs[cur];
	const spPairArray* nextPlaces = &w->placePairs[nxt];
	const int mp = nextPlaces->count, ms = w->found.count;
	const int total = mp + ms;
	const bool carry = w->placePairsVersion[cur] != 0 && w->placePairsVersion[cur] == w->remapFromVersion &&
					   w->remapToVersion == w->indexVersion && w->staticPairCount[cur] == 0 && ms == 0;
	// everything reserved first, so a failure leaves the last update's results in place
	const int most = total > prev->count ? total : prev->count;
	const int was = prevPlaces->count;
	const int slots = w->slotCount;
	if ( carry )
	{
		// carried pairs in found; began and ended candidates in eventScratch (began first), then sorted by id
		// into began and ended through found
		if ( !spGrowWithRoom( (void**)&next->data, &next->capacity, mp, sizeof( spPair ) ) ||
			 !spGrowWithRoom( (void**)&w->began.data, &w->began.capacity, mp, sizeof( spPair ) ) ||
			 !spGrowWithRoom( (void**)&w->ended.data, &w->ended.capacity, was, sizeof( spPair ) ) ||
			 !spGrowWithRoom( (void**)&w->eventScratch.data, &w->eventScratch.capacity, mp + was + 1, sizeof( spPair ) ) ||
			 !spGrowWithRoom( (void**)&w->found.data, &w->found.capacity, mp > was ? mp : was, sizeof( spPair ) ) )
			return false;
		spPair* beganIn = w->eventScratch.data;
		spPair* endedIn = w->eventScratch.data + mp;
		int nb = 0, ne = 0;
		const int carried = spCarryPlacePairs( index, prevPlaces, w->found.data, endedIn, &ne );
		spDiffPlacePairs( index->ids, w->found.data, carried, nextPlaces->data, mp, next->data, beganIn, &nb, endedIn,
						  &ne );
		spSortPairs( beganIn, nb, w->began.data, w->found.data, w->pairStart, slots );
		spSortPairs( endedIn, ne, w->ended.data, w->found.data, w->pairStart, slots );
		w->began.count = nb;
		w->ended.count = ne;
		// a pair now reported in another slab than before is in both lists: neither began nor ended (the diff of
		// the two lists, written over them)
		spDiffPairs( &w->ended, &w->began, &w->began, &w->ended );
		next->count = mp;
		w->pairsSorted[nxt] = 0;
	}
	else
	{
		if ( !spGrowWithRoom( (void**)&next->data, &next->capacity, total, sizeof( spPair ) ) ||
			 !spGrowWithRoom( (void**)&w->began.data, &w->began.capacity, most, sizeof( spPair ) ) ||
			 !spGrowWithRoom( (void**)&w->ended.data, &w->ended.capacity, most, sizeof( spPair ) ) ||
			 !spGrowWithRoom( (void**)&w->eventScratch.data, &w->eventScratch.capacity, prev->count, sizeof( spPair ) ) )
			return false;
		// this update's pairs as id pairs into began (free until the diff), sorted into next through ended
		spPlacePairsToIds( index->ids, nextPlaces->data, mp, w->began.data );
		if ( ms > 0 )
		{
			memcpy( w->began.data + mp, w->found.data, sizeof( spPair ) * (size_t)ms );
		}
		spSortPairs( w->began.data, total, next->data, w->ended.data, w->pairStart, slots );
		next->count = total;
		spPairArray sortedPrev = *prev;
		if ( !w->pairsSorted[cur] )
		{
			// the last update's pairs are in place order: sorted by id into eventScratch
			spSortPairs( prev->data, prev->count, w->eventScratch.data, w->began.data, w->pairStart, slots );
			sortedPrev.data = w->eventScratch.data;
		}
		spDiffPairs( &sortedPrev, next, &w->began, &w->ended );
		w->pairsSorted[nxt] = 1;
	}
	w->placePairsVersion[nxt] = w->indexVersion;
	w->staticPairCount[nxt] = ms;
	w->current = nxt;
	return true;
}

spResult spUpdateWorld( spWorld* w )
{
	const int d = w->dimensions;
	const int stride = w->stride;
	spAxisStats stats[SP_MAX_DIMENSIONS];
	int staticChanged = 0;
	int allPair = 0;
	spResult r = spValidate( w, stats, &staticChanged, &allPair );
	if ( r != sp_resultOk )
	{
		return r;
	}
	spCompactOrder( w );
	const int n = w->orderCount;
	spCounters c = { 0 };
	c.boxes = w->boxCount;
	c.endpointSwaps = w->counters.endpointSwaps;

	if ( staticChanged )
	{
		w->staticDirty = 1;
		r = spRebuildStatics( w );
		if ( r != sp_resultOk )
		{
			return r;
		}
		c.staticRebuilt = 1;
	}
	c.staticBoxes = w->staticCount;

	// The moving boxes' index: refreshed in place on a coherent frame (insertion sorts within each slab,
	// O(n + swaps)), otherwise rebuilt (the boxes bucketed into slabs in slot order, each slab sorted in cache).
	spIndex* dynamic = &w->dynamicIndex;
	int previousAxis = dynamic->axis;
	int axis = 0, slabAxis = -1;
	spChooseAxes( stats, d, n, previousAxis, &axis, &slabAxis );
	// First choice on a coherent frame: refresh the index in place (when its slabs still fit the boxes; boxes
	// added, removed or switched are merged into or dropped from their slabs). A refresh that gives up (too many
	// boxes changed slabs, or too many swaps) costs up to a pass over the entries (7% of a one-shot frame at 100k
	// and 1M): after a give-up the next update tries again (one incoherent frame, a teleport, costs one rebuild),
	// and after each further one in a row the tries wait twice as many updates, up to every 8th.
	int refreshed = 0;
	const int tryRefresh = w->refreshWait == 0;
	w->refreshWait -= w->refreshWait > 0;
	if ( n > 0 && tryRefresh && dynamic->entryCount > 0 && axis == previousAxis &&
		 spSlabsStillFit( dynamic, stats, n, axis, slabAxis ) )
	{
		int swaps = 0;
		spRefreshResult r = spRefreshIndex( dynamic, w, 8 * n + 1024, n / 2 + 64, &swaps );
		if ( r == spRefreshOutOfMemory )
			return sp_resultOutOfMemory;
		if ( r == spRefreshDone )
		{
			refreshed = 1;
			w->refreshBackoff = 0;
			w->remapFromVersion = w->indexVersion;
			w->indexVersion = spNextIndexVersion( w->indexVersion );
			w->remapToVersion = w->indexVersion;
			c.swaps = swaps;
			c.refreshed = 1;
		}
		else
		{
			w->refreshWait = w->refreshBackoff;
			w->refreshBackoff = w->refreshBackoff == 0 ? 1 : w->refreshBackoff < 4 ? 2 * w->refreshBackoff + 1 : 7;
		}
	}
	if ( !refreshed )
	{
		c.rebuilt = 1;
		if ( !spBuildIndex( dynamic, w, w->order, n, axis, slabAxis, stats ) )
		{
			// the index of the last update is intact, so queries still answer from it
			return sp_resultOutOfMemory;
		}
		w->indexVersion = spNextIndexVersion( w->indexVersion );
	}
	// the index now holds every moving box
	if ( !refreshed || w->newMovers > 0 )
	{
		for ( int i = 0; i < n; ++i )
		{
			w->flags[w->order[i]] |= SP_FLAG_INDEXED;
		}
	}
	w->newMovers = 0;
	w->goneMovers = 0;
	c.sweepAxis = axis;
	c.slabs = w->dynamicIndex.slabCount;

	// Pairs among the moving boxes (place pairs), then between moving and static boxes (id pairs, into found).
	const int nxt = 1 - w->current;
	if ( !spGrow( (void**)&w->pairStart, &w->pairStartCapacity, w->slotCount + 1, sizeof( int ) ) )
		return sp_resultOutOfMemory;
	int tests = 0;
	if ( !spSweepAll( w, &w->placePairs[nxt], !allPair, &tests ) )
		return sp_resultOutOfMemory;
	w->found.count = 0;
	if ( w->staticIndex.entryCount > 0 )
	{
		const uint32_t allBits = 0xFFFFFFFFu;
		for ( int i = 0; i < n; ++i )
		{
			const int slot = w->order[i];
			const float* b = w->bounds + (size_t)slot * stride;
			if ( !spQueryIndex( &w->staticIndex, w, b, b + d, allBits, &w->found, w->ids[slot] ) )
				return sp_resultOutOfMemory;
		}
	}
	c.overlapTests = tests;
	if ( !spMakePairLists( w ) )
		return sp_resultOutOfMemory;
	const int m = w->pairs[w->current].count;

	c.pairs = m;
	c.began = w->began.count;
	c.ended = w->ended.count;
	w->counters = c;
	return sp_resultOk;
}
