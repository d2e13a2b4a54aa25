// SPDX-License-Identifier: MIT
// Sorting a frame's pairs by id (lower id, then higher): counting sorts by the slots, or a radix sort of the slots
// when the pairs are few among many slots; with a pool, the blocks of the sort by blocks at once.
#include "pairs.h"

#include "parallel.h"
#include "world.h"

#include <string.h>

#define SP_PAIR_RADIX_BITS	   11
#define SP_PAIR_SMALL_RUN	   32
#define SP_PAIR_COUNTING_SLOTS ( 1 << 18 )
#define SP_PAIR_COUNTING_BLOCK 1024

// Scatter `in` into `out` by one digit of the slot of a (high == 0) or b (high == 1); stable.
static void spScatterPairs( const spPair* in, int count, spPair* out, int* hist, int high, int shift, int buckets )
{
	int sum = 0;
	for ( int b = 0; b < buckets; ++b )
	{
		int c = hist[b];
		hist[b] = sum;
		sum += c;
	}
	const uint32_t mask = (uint32_t)buckets - 1u;
	shift += SP_GENERATION_BITS;
	for ( int i = 0; i < count; ++i )
	{
		const spPair p = in[i];
		const uint32_t key = high ? p.b : p.a;
		out[hist[( key >> shift ) & mask]++] = p;
	}
}

// Sort a run of pairs with one a by the slot of b, stably: insertion sort for short runs (the usual case: a box
// has a few pairs), LSD radix sort through `scratch` (room for `count` pairs) for long ones, so a box that
// overlaps thousands of others costs O(count), not O(count^2).
static void spSortRunByB( spPair* run, int count, spPair* scratch )
{
	if ( count <= SP_PAIR_SMALL_RUN )
	{
		for ( int i = 1; i < count; ++i )
		{
			const spPair p = run[i];
			int j = i;
			for ( ; j > 0 && run[j - 1].b > p.b; --j )
			{
				run[j] = run[j - 1];
			}
			run[j] = p;
		}
		return;
	}
	enum
	{
		buckets = 1 << SP_PAIR_RADIX_BITS
	};
	const uint32_t mask = buckets - 1u;
	spPair* src = run;
	spPair* dst = scratch;
	for ( int shift = 0; shift < 32 - SP_GENERATION_BITS; shift += SP_PAIR_RADIX_BITS )
	{
		int hist[buckets];
		memset( hist, 0, sizeof( hist ) );
		for ( int i = 0; i < count; ++i )
		{
			hist[( src[i].b >> ( SP_GENERATION_BITS + shift ) ) & mask] += 1;
		}
		// a digit that is the same for every pair changes nothing
		if ( hist[( src[0].b >> ( SP_GENERATION_BITS + shift ) ) & mask] == count )
		{
			continue;
		}
		spScatterPairs( src, count, dst, hist, 1, shift, buckets );
		spPair* t = src;
		src = dst;
		dst = t;
	}
	if ( src != run )
	{
		memcpy( run, src, sizeof( spPair ) * (size_t)count );
	}
}

void spSlotDigits( int slotCount, int* lowBits, int* highBits )
{
	int bits = 1;
	while ( bits < 22 && ( 1 << bits ) < slotCount )
	{
		++bits;
	}
	*lowBits = bits <= SP_PAIR_RADIX_BITS ? bits : bits / 2;
	*highBits = bits - *lowBits;
}

int spPairHistogramCount( int slotCount )
{
	int lowBits, highBits;
	spSlotDigits( slotCount, &lowBits, &highBits );
	return 2 * ( ( 1 << lowBits ) + ( 1 << highBits ) );
}

// spSortPairs's choice of the radix sort: `count` pairs few among `slotCount` slots (see there).
static inline bool spFewPairs( int count, int slotCount )
{
	return count < slotCount / 4;
}

static void spRadixSortPairs( const spPair* in, int count, spPair* out, spPair* scratch, int* histograms,
							  int slotCount )
{
	// LSD radix sort on the slots (ids compare in slot order, and a live slot has one id): by the slot of b,
	// then stably by the slot of a. Each slot takes one pass of up to 11 bits or two passes: buckets few enough
	// for the histograms and the scatter targets to stay in cache, and no comparison to mispredict.
	int lowBits, highBits;
	spSlotDigits( slotCount, &lowBits, &highBits );
	// digits in pass order: b low, b high, a low, a high (spPairHistogramCount ints in all)
	int* hist[4];
	hist[0] = histograms;
	hist[1] = hist[0] + ( 1 << lowBits );
	hist[2] = hist[1] + ( 1 << highBits );
	hist[3] = hist[2] + ( 1 << lowBits );
	const int digitBits[4] = { lowBits, highBits, lowBits, highBits };
	const int digitShift[4] = { 0, lowBits, 0, lowBits };
	for ( int k = 0; k < 4; ++k )
	{
		memset( hist[k], 0, sizeof( int ) * ( (size_t)1 << digitBits[k] ) );
	}
	const uint32_t lowMask = ( 1u << lowBits ) - 1u;
	for ( int i = 0; i < count; ++i )
	{
		const uint32_t slotB = in[i].b >> SP_GENERATION_BITS;
		const uint32_t slotA = in[i].a >> SP_GENERATION_BITS;
		hist[0][slotB & lowMask] += 1;
		hist[1][slotB >> lowBits] += 1;
		hist[2][slotA & lowMask] += 1;
		hist[3][slotA >> lowBits] += 1;
	}
	// a digit that is the same for every pair changes nothing
	int passes[4];
	int passCount = 0;
	for ( int k = 0; k < 4 && count > 0; ++k )
	{
		const uint32_t key = k < 2 ? in[0].b : in[0].a;
		const uint32_t digit = ( key >> ( SP_GENERATION_BITS + digitShift[k] ) ) & ( ( 1u << digitBits[k] ) - 1u );
		if ( digitBits[k] > 0 && hist[k][digit] != count )
		{
			passes[passCount++] = k;
		}
	}
	if ( passCount == 0 )
	{
		if ( count > 0 )
		{
			memcpy( out, in, sizeof( spPair ) * (size_t)count );
		}
		return;
	}
	// ping-pong between scratch and out so that the last pass writes out
	const spPair* src = in;
	spPair* dst = passCount % 2 == 1 ? out : scratch;
	for ( int p = 0; p < passCount; ++p )
	{
		const int k = passes[p];
		spScatterPairs( src, count, dst, hist[k], k < 2, digitShift[k], 1 << digitBits[k] );
		src = dst;
		dst = dst == out ? scratch : out;
	}
}

// Counting sort of pairs whose slots of a are in [base, base + range) by that slot, then each run of one a by b.
// `start` has room for range + 1 counters; `scratch` for `count` pairs.
static void spCountingSortPairs( const spPair* in, int count, spPair* out, spPair* scratch, int* start, int base,
								 int range )
{
	memset( start, 0, sizeof( int ) * ( (size_t)range + 1 ) );
	for ( int i = 0; i < count; ++i )
	{
		start[( in[i].a >> SP_GENERATION_BITS ) - (uint32_t)base + 1] += 1;
	}
	for ( int s = 0; s < range; ++s )
	{
		start[s + 1] += start[s];
	}
	// scatter with start[s] as the cursor of slot s: afterwards start[s] is where slot s + 1's run begins
	for ( int i = 0; i < count; ++i )
	{
		const spPair p = in[i];
		out[start[( p.a >> SP_GENERATION_BITS ) - (uint32_t)base]++] = p;
	}
	// Each run of one a by b. Runs are usually a few pairs: one insertion pass over the whole list (a sequential
	// read with a well-predicted branch), which gives up after a budget of moves for the per-run sort, so a long
	// shuffled run (a box overlapping thousands) costs O(count), not O(count^2). Giving up leaves every run a
	// permutation of itself.
	long long budget = (long long)count + 4096;
	for ( int i = 1; i < count && budget >= 0; ++i )
	{
		const spPair p = out[i];
		if ( !( p.a == out[i - 1].a && p.b < out[i - 1].b ) )
		{
			continue;
		}
		int j = i;
		do
		{
			out[j] = out[j - 1];
			--j;
		} while ( j > 0 && out[j - 1].a == p.a && p.b < out[j - 1].b );
		out[j] = p;
		budget -= i - j;
	}
	if ( budget >= 0 )
	{
		return;
	}
	int begin = 0;
	for ( int s = 0; s < range; ++s )
	{
		const int end = start[s];
		if ( end - begin > 1 )
		{
			spSortRunByB( out + begin, end - begin, scratch );
		}
		begin = end;
	}
}

// One counting pass of an LSD sort: `in` scattered stably into `out` by the slot of b (high == 1) or of a, with
// `start` (slotCount + 1 counters) as the cursors.
static void spCountPairsBySlot( const spPair* in, int count, spPair* out, int* start, int slotCount, int high )
{
	memset( start, 0, sizeof( int ) * ( (size_t)slotCount + 1 ) );
	for ( int i = 0; i < count; ++i )
	{
		start[( ( high ? in[i].b : in[i].a ) >> SP_GENERATION_BITS ) + 1] += 1;
	}
	for ( int s = 0; s < slotCount; ++s )
	{
		start[s + 1] += start[s];
	}
	for ( int i = 0; i < count; ++i )
	{
		const spPair p = in[i];
		out[start[( high ? p.b : p.a ) >> SP_GENERATION_BITS]++] = p;
	}
}

// The blocks of SP_PAIR_COUNTING_BLOCK slots that `slotCount` slots make.
static int spPairBlocks( int slotCount )
{
	return ( slotCount + SP_PAIR_COUNTING_BLOCK - 1 ) / SP_PAIR_COUNTING_BLOCK;
}

// The pairs of `in` per block: block k's count in counts[k + 1] (counts: blocks + 1 ints; counts[0] is 0).
static void spCountPairBlocks( const spPair* in, int count, int* counts, int blocks )
{
	memset( counts, 0, sizeof( int ) * ( (size_t)blocks + 1 ) );
	for ( int i = 0; i < count; ++i )
	{
		counts[( in[i].a >> SP_GENERATION_BITS ) / SP_PAIR_COUNTING_BLOCK + 1] += 1;
	}
}

// Scatter the pairs of `in` in order into `scratch`, each at cursor[its block], which moves on.
static void spScatterPairsToBlocks( const spPair* in, int count, spPair* scratch, int* cursor )
{
	for ( int i = 0; i < count; ++i )
	{
		const spPair p = in[i];
		scratch[cursor[( p.a >> SP_GENERATION_BITS ) / SP_PAIR_COUNTING_BLOCK]++] = p;
	}
}

// The scatter of `in` by block into `scratch`; returns where each block starts there (blocks + 1 ints, in `start`,
// which has slotCount + 1 counters, past the first block's).
static const int* spScatterPairBlocks( const spPair* in, int count, spPair* scratch, int* start, int slotCount )
{
	const int blocks = spPairBlocks( slotCount );
	int* blockStart = start + SP_PAIR_COUNTING_BLOCK + 1;
	spCountPairBlocks( in, count, blockStart, blocks );
	for ( int k = 0; k < blocks; ++k )
	{
		blockStart[k + 1] += blockStart[k];
	}
	int* cursor = blockStart + blocks + 1;
	memcpy( cursor, blockStart, sizeof( int ) * (size_t)blocks );
	spScatterPairsToBlocks( in, count, scratch, cursor );
	return blockStart;
}

// Sort the blocks k0..k1-1 of `scratch` into `out` (the same places). `start`: the counters of this call alone,
// SP_PAIR_COUNTING_BLOCK + 1 ints.
static void spSortPairBlocks( spPair* scratch, spPair* out, const int* blockStart, int* start, int k0, int k1 )
{
	for ( int k = k0; k < k1; ++k )
	{
		const int b0 = blockStart[k], b1 = blockStart[k + 1];
		// the block's pairs, sorted from scratch into out; then scratch there is free for its long runs
		spCountingSortPairs( scratch + b0, b1 - b0, out + b0, scratch + b0, start, k * SP_PAIR_COUNTING_BLOCK,
							 SP_PAIR_COUNTING_BLOCK );
	}
}

void spSortPairs( const spPair* in, int count, spPair* out, spPair* scratch, int* start, int* histograms,
				  int slotCount )
{
	// Ids compare in slot order (a live slot has one id). Two counting sorts, by the slot of b then of a (each one
	// pass to count, one to scatter). Above SP_PAIR_COUNTING_SLOTS slots the counters and the scatter targets no
	// longer fit in cache: the pairs are first scattered by the high bits of the slot of a into blocks of
	// SP_PAIR_COUNTING_BLOCK slots, and each block (a few thousand pairs) is sorted by a, then each run of one a by
	// b, in cache. A few pairs among many slots (the began and ended events of a coherent frame), where clearing
	// and summing a counter per slot would cost more than the pairs, take the radix sort.
	if ( spFewPairs( count, slotCount ) )
	{
		spRadixSortPairs( in, count, out, scratch, histograms, slotCount );
		return;
	}
	if ( slotCount <= SP_PAIR_COUNTING_SLOTS )
	{
		// LSD: stably by the slot of b, then by the slot of a; no branch per pair (an insertion sort of each run of
		// one a by b missed a branch about once a pair: the runs come in sweep order)
		spCountPairsBySlot( in, count, scratch, start, slotCount, 1 );
		spCountPairsBySlot( scratch, count, out, start, slotCount, 0 );
		return;
	}
	const int blocks = spPairBlocks( slotCount );
	const int* blockStart = spScatterPairBlocks( in, count, scratch, start, slotCount );
	spSortPairBlocks( scratch, out, blockStart, start, 0, blocks );
}

// The sort by blocks over the pool: the scatter into blocks by ranges of pairs (each range counted apart, then
// scattered after the ranges before it in every block: the serial scatter's order), then the blocks sorted by
// ranges. A range's scratch: the counters of its scatter (blocks + 1), then of its blocks' sorts.
typedef struct spPairSortJob
{
	const spPair* in;
	spPair* out;
	spPair* scratch;
	int* blockStart;
	int blocks;
} spPairSortJob;

static bool spCountBlocksRange( int i0, int i1, spTask* task, void* context )
{
	const spPairSortJob* job = context;
	int* counts = spTaskScratch( task, sizeof( int ) * (size_t)( job->blocks + 1 ) );
	if ( counts == NULL )
		return false;
	spCountPairBlocks( job->in + i0, i1 - i0, counts, job->blocks );
	return true;
}

static bool spScatterBlocksRange( int i0, int i1, spTask* task, void* context )
{
	const spPairSortJob* job = context;
	spScatterPairsToBlocks( job->in + i0, i1 - i0, job->scratch, task->scratch );
	return true;
}

static bool spSortBlocksRange( int k0, int k1, spTask* task, void* context )
{
	const spPairSortJob* job = context;
	int* start = spTaskScratch( task, sizeof( int ) * ( SP_PAIR_COUNTING_BLOCK + 1 ) );
	if ( start == NULL )
		return false;
	spSortPairBlocks( job->scratch, job->out, job->blockStart, start, k0, k1 );
	return true;
}

void spSortPairsOn( spWorld* w, const spPair* in, int count, spPair* out, spPair* scratch )
{
	const int slots = w->slotCount;
	// the blocks' starts where spScatterPairBlocks puts them
	spPairSortJob job = { in, out, scratch, w->pairStart + SP_PAIR_COUNTING_BLOCK + 1, spPairBlocks( slots ) };
	if ( !spFewPairs( count, slots ) && slots > SP_PAIR_COUNTING_SLOTS && spParallelOn( w ) &&
		 spParallelFor( w, spCountBlocksRange, count, 1, &job ) )
	{
		job.blockStart[0] = 0;
		spRangeCursors( &w->parallel, job.blocks, job.blockStart );
		spRunRanges( w, spScatterBlocksRange, &job );
		// the blocks cut by their pairs, not by their count: the lower id of a pair is its first, so the blocks of low
		// slots hold more pairs
		spCutByStarts( w, job.blockStart, job.blocks, 0 );
		if ( spRunRanges( w, spSortBlocksRange, &job ) )
			return;
	}
	spSortPairs( in, count, out, scratch, w->pairStart, w->pairHistograms, slots );
}

// The began (unit 0) and ended (unit 1) candidates' sorts, each on a thread of its own: radix sorts (few pairs among
// many slots), the began sort's in the world's scratch, the ended sort's histograms and pairs in its range's scratch.
typedef struct spEventSortJob
{
	spWorld* w;
	const spPair* in[2];
	int count[2];
	spPair* out[2];
} spEventSortJob;

static bool spSortEventsRange( int k0, int k1, spTask* task, void* context )
{
	const spEventSortJob* job = context;
	spWorld* w = job->w;
	for ( int k = k0; k < k1; ++k )
	{
		if ( k == 0 )
		{
			spRadixSortPairs( job->in[0], job->count[0], job->out[0], w->found.data, w->pairHistograms, w->slotCount );
			continue;
		}
		// an even count of ints: the pairs after them are 8-byte aligned
		const size_t histogramBytes = sizeof( int ) * (size_t)spPairHistogramCount( w->slotCount );
		char* scratch = spTaskScratch( task, histogramBytes + sizeof( spPair ) * (size_t)job->count[1] );
		if ( scratch == NULL )
			return false;
		spRadixSortPairs( job->in[1], job->count[1], job->out[1], (spPair*)( scratch + histogramBytes ), (int*)scratch,
						  w->slotCount );
	}
	return true;
}

void spSortEventsOn( spWorld* w, const spPair* began, int beganCount, spPair* beganOut, const spPair* ended,
					 int endedCount, spPair* endedOut )
{
	const int slots = w->slotCount;
	spEventSortJob job = { w, { began, ended }, { beganCount, endedCount }, { beganOut, endedOut } };
	if ( spFewPairs( beganCount, slots ) && spFewPairs( endedCount, slots ) && spParallelOn( w ) &&
		 spParallelFor( w, spSortEventsRange, 2, 1, &job ) )
		return;
	spSortPairs( began, beganCount, beganOut, w->found.data, w->pairStart, w->pairHistograms, slots );
	spSortPairs( ended, endedCount, endedOut, w->found.data, w->pairStart, w->pairHistograms, slots );
}
