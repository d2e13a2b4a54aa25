// SPDX-License-Identifier: MIT
// The update's first pass: every live box validated (a frame with a bad box changes nothing), the moving boxes'
// axis statistics gathered on the way, static boxes' changes detected; and the compaction of the lists of moving
// and static slots.
#include "validate.h"

#include "parallel.h"
#include "simd.h"
#include "world.h"

#include <float.h>
#include <math.h>
#include <string.h>

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

void spGatherStats( const spWorld* w, const int* slots, int n, spAxisStats* stats )
{
	const int d = w->dimensions;
	spResetStats( stats, d );
	for ( int i = 0; i < n; ++i )
	{
		spAddStats( stats, w->bounds + (size_t)slots[i] * w->stride, d );
	}
}

// The fast validation pass and the statistics of the moving boxes, inlined with a constant `d`.
SP_FORCE_INLINE void spCheckMoving( const spWorld* w, spAxisStats* stats, int d, int s0, int s1, int* outValid )
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
	for ( int slot = s0; slot < s1; ++slot )
	{
		if ( ids[slot] == 0 || ( flags[slot] & SP_FLAG_STATIC ) != 0 )
		{
			continue;
		}
		const float* b = bounds + (size_t)slot * stride;
		valid &= spBoundsOrdered( b, d );
		for ( int a = 0; a < d; ++a )
		{
			const float mn = b[a], mx = b[d + a];
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

// Worlds of at least SP_STATS_SAMPLE_SLOTS slots take the sums of their 2D statistics from the moving boxes of every
// SP_STATS_SAMPLE-th slot (scaled to all of them; the smallest min and largest max still from every box): the sums
// only steer the choice of axes and slabs, and their double arithmetic was most of the pass. A chunk whose sample
// has fewer than SP_STATS_SAMPLE_MIN boxes sums every box.
#define SP_STATS_SAMPLE		  8
#define SP_STATS_SAMPLE_SLOTS 8192
#define SP_STATS_SAMPLE_MIN	  64

// The running statistics of spCheckMoving2D: both axes' at once (lane a of each is axis a's; lanes 0 and 1 of lo
// are the smallest mins, lanes 2 and 3 of hi the largest maxes).
typedef struct spStats2D
{
	spD2 sum, sumSq, width;
	spF4 lo, hi;
} spStats2D;

SP_FORCE_INLINE void spAddSums2D( spStats2D* s, spF4 b )
{
	const spD2 half = spD2Splat( 0.5 );
	const spD2 mn = spD2Low( b ), mx = spD2High( b );
	const spD2 c = spD2Mul( half, spD2Add( mn, mx ) );
	s->sum = spD2Add( s->sum, c );
	s->sumSq = spD2Add( s->sumSq, spD2Mul( c, c ) );
	s->width = spD2Add( s->width, spD2Sub( mx, mn ) );
}

// One box of spCheckMoving2D (min x, min y, max x, max y): lanes 0 and 1 test min <= max, lanes 2 and 3 max <= max
// (NaN fails either), into `valid`; its mins and maxes into the running `lo` and `hi`.
SP_FORCE_INLINE void spTakeBox2D( spF4 b, spM4* valid, spF4* lo, spF4* hi )
{
	*valid = spM4And( *valid, spF4Le( b, spF4HighHalves( b, b ) ) );
	*lo = spF4Min( b, *lo );
	*hi = spF4Max( b, *hi );
}

// spCheckMoving for 2D, a box as one vector (min x, min y, max x, max y) and the statistics of both axes as one, in
// two sets (even and odd slots, added at the end), so that consecutive boxes do not wait on each other's additions.
// Each box is tested for min <= max only (which NaN fails); the smallest min and the largest max being finite
// covers every other bound. The sums are of the boxes of slots that are multiples of `sample`, scaled.
static void spCheckMoving2D( const spWorld* w, spAxisStats* stats, int s0, int s1, int sample, int* outValid )
{
	const float* bounds = w->bounds;
	const uint32_t* ids = w->ids;
	const uint8_t* flags = w->flags;
	const int mask = sample - 1;
	spM4 valid = spM4Set( -1, -1, -1, -1 );
	spStats2D set[2];
	for ( int k = 0; k < 2; ++k )
	{
		set[k].sum = set[k].sumSq = set[k].width = spD2Splat( 0.0 );
		set[k].lo = spF4Splat( INFINITY );
		set[k].hi = spF4Splat( -INFINITY );
	}
	int moving = 0, sampled = 0;
	const int allMoving = w->boxCount == w->slotCount && w->staticCount == 0;
	if ( allMoving )
	{
		// every slot a moving box (no free slot, no static box): no test per slot, and the sampled slots' sums
		// apart, added in the same order as below
		spF4 lo0 = set[0].lo, hi0 = set[0].hi, lo1 = set[1].lo, hi1 = set[1].hi;
		int slot = s0;
		for ( ; slot + 1 < s1; slot += 2 )
		{
			spTakeBox2D( spF4Load( bounds + (size_t)slot * 4 ), &valid, &lo0, &hi0 );
			spTakeBox2D( spF4Load( bounds + (size_t)slot * 4 + 4 ), &valid, &lo1, &hi1 );
		}
		if ( slot < s1 )
		{
			spTakeBox2D( spF4Load( bounds + (size_t)slot * 4 ), &valid, &lo0, &hi0 );
		}
		set[0].lo = lo0;
		set[0].hi = hi0;
		set[1].lo = lo1;
		set[1].hi = hi1;
		for ( int slot = ( s0 + mask ) & ~mask; slot < s1; slot += sample )
		{
			spAddSums2D( &set[( slot - s0 ) & 1], spF4Load( bounds + (size_t)slot * 4 ) );
			sampled += 1;
		}
		moving = s1 - s0;
	}
	for ( int slot = s0; !allMoving && slot < s1; slot += 2 )
	{
		for ( int k = 0; k < 2; ++k )
		{
			// a moving box: live and not static (the last slot of an odd range has no partner)
			if ( slot + k >= s1 || ids[slot + k] == 0 || ( flags[slot + k] & SP_FLAG_STATIC ) != 0 )
			{
				continue;
			}
			const spF4 b = spF4Load( bounds + (size_t)( slot + k ) * 4 );
			spTakeBox2D( b, &valid, &set[k].lo, &set[k].hi );
			moving += 1;
			if ( ( ( slot + k ) & mask ) == 0 )
			{
				spAddSums2D( &set[k], b );
				sampled += 1;
			}
		}
	}
	if ( sample > 1 && sampled < SP_STATS_SAMPLE_MIN && sampled < moving )
	{
		spCheckMoving2D( w, stats, s0, s1, 1, outValid );
		return;
	}
	const double scale = sampled < moving ? (double)moving / sampled : 1.0;
	const spD2 sum = spD2Add( set[0].sum, set[1].sum ), sumSq = spD2Add( set[0].sumSq, set[1].sumSq ),
			   width = spD2Add( set[0].width, set[1].width );
	const spF4 lo = spF4Min( set[1].lo, set[0].lo );
	const spF4 hi = spF4Max( set[1].hi, set[0].hi );
	for ( int a = 0; a < 2; ++a )
	{
		stats[a].sum = spD2Lane( sum, a ) * scale;
		stats[a].sumSq = spD2Lane( sumSq, a ) * scale;
		stats[a].width = spD2Lane( width, a ) * scale;
		stats[a].lo = spF4Lane( lo, a );
		stats[a].hi = spF4Lane( hi, 2 + a );
	}
	// every min and max is finite when the smallest min and the largest max are (min <= max holds for each box)
	*outValid = spM4All( valid ) && spF4Lane( lo, 0 ) >= -FLT_MAX && spF4Lane( lo, 1 ) >= -FLT_MAX &&
				spF4Lane( hi, 2 ) <= FLT_MAX && spF4Lane( hi, 3 ) <= FLT_MAX;
}

SP_COLD static spResult spReject( spWorld* w, int slot, spResult r )
{
	w->lastInvalidBox.bits = w->ids[slot];
	return r;
}

// The fast pass over the slots s0..s1-1: their moving boxes' statistics into `stats`, and whether all are valid.
static void spCheckRange( const spWorld* w, spAxisStats* stats, int s0, int s1, int* valid )
{
	switch ( w->dimensions )
	{
		case 1:
			spCheckMoving( w, stats, 1, s0, s1, valid );
			break;
		case 2:
			spCheckMoving2D( w, stats, s0, s1, w->slotCount >= SP_STATS_SAMPLE_SLOTS ? SP_STATS_SAMPLE : 1, valid );
			break;
		case 3:
			spCheckMoving( w, stats, 3, s0, s1, valid );
			break;
		default:
			spCheckMoving( w, stats, 4, s0, s1, valid );
			break;
	}
}

// Add the statistics of a chunk of slots to the totals.
static void spAddChunk( spAxisStats* stats, const spAxisStats* chunk, int d )
{
	for ( int a = 0; a < d; ++a )
	{
		stats[a].sum += chunk[a].sum;
		stats[a].sumSq += chunk[a].sumSq;
		stats[a].width += chunk[a].width;
		stats[a].lo = chunk[a].lo < stats[a].lo ? chunk[a].lo : stats[a].lo;
		stats[a].hi = chunk[a].hi > stats[a].hi ? chunk[a].hi : stats[a].hi;
	}
}

// A chunk's statistics and validity, as a range of chunks leaves them in its scratch.
typedef struct spChunk
{
	spAxisStats stats[SP_MAX_DIMENSIONS];
	int valid;
} spChunk;

// The fast pass over chunks c0..c1-1 of slots, each chunk's results into the range's scratch.
static bool spCheckChunks( int c0, int c1, spTask* task, void* context )
{
	const spWorld* w = context;
	const int size = w->parallel.statsChunk;
	spChunk* chunks = spTaskScratch( task, sizeof( spChunk ) * (size_t)( c1 - c0 ) );
	if ( chunks == NULL )
		return false;
	for ( int c = c0; c < c1; ++c )
	{
		const int s0 = c * size, s1 = s0 + size < w->slotCount ? s0 + size : w->slotCount;
		spCheckRange( w, chunks[c - c0].stats, s0, s1, &chunks[c - c0].valid );
	}
	task->count = c1 - c0;
	return true;
}

spResult spValidate( spWorld* w, spAxisStats* stats, int* staticChanged, int* allPair )
{
	const int d = w->dimensions;
	const int stride = w->stride;
	const float* bounds = w->bounds;
	spResetStats( stats, d );

	// Fast pass in slot order (sequential memory, no call per box): finite and ordered is
	// -FLT_MAX <= min <= max <= FLT_MAX, which NaN fails too. On failure the exact pass below finds the box.
	// The statistics are summed by chunks of slots, the chunks' sums then added in order: the same sums whether
	// the chunks run one after the other or by ranges at once on a pool's threads.
	int valid = 1;
	const int chunk = w->parallel.statsChunk;
	const int chunks = ( w->slotCount + chunk - 1 ) / chunk;
	if ( chunks > 1 && spParallelOn( w ) && spParallelFor( w, spCheckChunks, chunks, 0, w ) )
	{
		for ( int r = 0; r < spRanges( &w->parallel ); ++r )
		{
			const spTask* task = spRangeTask( &w->parallel, r );
			const spChunk* c = task->scratch;
			for ( int k = 0; k < task->count; ++k )
			{
				spAddChunk( stats, c[k].stats, d );
				valid &= c[k].valid;
			}
		}
	}
	else
	{
		for ( int c = 0; c < chunks; ++c )
		{
			spAxisStats part[SP_MAX_DIMENSIONS];
			int v = 1;
			spCheckRange( w, part, c * chunk, c * chunk + chunk < w->slotCount ? c * chunk + chunk : w->slotCount, &v );
			spAddChunk( stats, part, d );
			valid &= v;
		}
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

void spCompactOrder( spWorld* w )
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

void spCompactStatics( spWorld* w )
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
