// SPDX-License-Identifier: MIT
// Unit tests of the private modules: sorting, pair lists and the slab index's query.
#include "index.h"
#include "pairs.h"
#include "sort.h"
#include "test.h"

#include <math.h>
#include <string.h>

static int IsSorted( const float* keys, int n )
{
	for ( int i = 1; i < n; ++i )
		if ( keys[i] < keys[i - 1] )
			return 0;
	return 1;
}

// keys[i] must still be the key of slot slots[i]
static int KeysFollowSlots( const float* keys, const int* slots, const float* original, int n )
{
	for ( int i = 0; i < n; ++i )
		if ( memcmp( &keys[i], &original[slots[i]], sizeof( float ) ) != 0 )
			return 0;
	return 1;
}

int SortUnits( void )
{
	enum
	{
		N = 70000
	};
	static float keys[N], original[N];
	static int slots[N], tmpSlots[N];
	static uint32_t tmpKeys[2 * N];
	Rng rng = { 42 };
	// radix: negative, positive, zero, -0, duplicates, huge magnitudes
	for ( int i = 0; i < N; ++i )
	{
		float v = ( RngFloat( &rng ) - 0.5f ) * 2000.0f;
		if ( i % 7 == 0 )
			v = (float)( RngInt( &rng, 5 ) - 2 );
		if ( i % 101 == 0 )
			v = -0.0f;
		if ( i % 211 == 0 )
			v = ( i & 1 ) ? 3.0e38f : -3.0e38f;
		original[i] = keys[i] = v;
		slots[i] = i;
	}
	spRadixSortKeys( keys, slots, tmpKeys, tmpSlots, N );
	ENSURE( IsSorted( keys, N ) );
	ENSURE( KeysFollowSlots( keys, slots, original, N ) );
	// radix is stable: equal keys keep slot order
	for ( int i = 1; i < N; ++i )
		if ( keys[i] == keys[i - 1] && memcmp( &keys[i], &keys[i - 1], 4 ) == 0 )
			ENSURE( slots[i] > slots[i - 1] );
	// all keys equal: the early-out path
	for ( int i = 0; i < 100; ++i )
	{
		keys[i] = 1.5f;
		slots[i] = 99 - i;
	}
	spRadixSortKeys( keys, slots, tmpKeys, tmpSlots, 100 );
	for ( int i = 0; i < 100; ++i )
		ENSURE( keys[i] == 1.5f && slots[i] == 99 - i );

	// the stable key sort of the index build: its places sort the keys, and equal keys keep their order. Uniform
	// keys (the 16-bit path), a dense cluster among spread keys (its give-up to the radix sort), equal keys, and
	// more keys than 16 bits of places, keys near both ends of the float range, and keys a few denormals apart
	// (the radix sort)
	static int order[N], orderTemp[N];
	for ( int scene = 0; scene < 6; ++scene )
	{
		const int m = scene == 3 ? N : 5000; // N > 65536
		for ( int i = 0; i < m; ++i )
		{
			float v = RngFloat( &rng ) * 1000.0f;
			if ( scene == 1 && i % 4 != 0 )
				v = 500.0f + RngFloat( &rng ) * 1e-3f; // thousands of keys within one 16-bit step
			if ( scene == 2 || ( i % 13 == 0 && scene != 5 ) )
				v = (float)RngInt( &rng, 3 );
			if ( scene == 4 && i % 3 == 0 )
				v = ( i & 1 ) ? 3.0e38f : -3.0e38f;
			if ( scene == 5 )
				v = (float)RngInt( &rng, 8 ) * 1e-45f;
			original[i] = keys[i] = v;
		}
		spSortKeys( keys, m, order, orderTemp, tmpKeys );
		long long seen = 0;
		for ( int k = 0; k < m; ++k )
		{
			ENSURE( order[k] >= 0 && order[k] < m );
			seen += order[k];
			if ( k > 0 )
			{
				const float x = original[order[k - 1]], y = original[order[k]];
				ENSURE( x < y || ( x == y && order[k - 1] < order[k] ) );
			}
		}
		ENSURE( seen == (long long)m * ( m - 1 ) / 2 ); // with the order checks: a permutation
	}
	return 0;
}

int PairUnits( void )
{
	// sort: by a, then b
	spPair in[6] = { { 3 << 10 | 1, 5 << 10 | 1 }, { 1 << 10 | 1, 4 << 10 | 1 }, { 3 << 10 | 1, 4 << 10 | 1 },
					 { 1 << 10 | 1, 2 << 10 | 1 }, { 0 << 10 | 2, 9 << 10 | 1 }, { 1 << 10 | 1, 3 << 10 | 1 } };
	spPair out[6], scratch[6];
	int start[11];
	// the histograms for the most slots (22 bits of slot): enough for every sort below
	static int histograms[4 << 11];
	ENSURE( spPairHistogramCount( 10 ) <= 4 << 11 && spPairHistogramCount( 1 << 22 ) == 4 << 11 );
	spSortPairs( in, 6, out, scratch, start, histograms, 10 );
	for ( int i = 1; i < 6; ++i )
		ENSURE( out[i - 1].a < out[i].a || ( out[i - 1].a == out[i].a && out[i - 1].b < out[i].b ) );
	ENSURE( out[0].a == ( 0 << 10 | 2 ) && out[5].b == ( 5 << 10 | 1 ) );

	// long runs of one a (a box overlapping thousands) take the radix path; every pair is kept. Four strategies:
	// counting sort (many pairs for the slots), radix sort for a few pairs among many slots, and for more slots
	// than the counters fit in cache, radix sort (few pairs) or counting sort in blocks of slots (many pairs).
	enum
	{
		most = 90000
	};
	static spPair bigIn[most], bigOut[most], bigScratch[most];
	static int bigStart[( 1 << 20 ) + 1];
	const int slotCounts[4] = { 2000, 60010, 1 << 20, 300000 };
	const int pairCounts[4] = { 3000, 3000, 3000, most };
	for ( int k = 0; k < 4; ++k )
	{
		uint32_t seed = 12345u, sum = 0;
		const uint32_t span = (uint32_t)slotCounts[k] - 10u;
		const int many = pairCounts[k];
		for ( int i = 0; i < many; ++i )
		{
			seed = seed * 1664525u + 1013904223u;
			// pairs of a few boxes, or of any box (the last case: in every block of slots)
			uint32_t a = i % 3 == 0 ? 7u : ( seed >> 8 ) % ( k == 3 ? span : 5u );
			uint32_t b = a + 1u + ( seed >> 12 ) % ( span - a ); // a slot below slotCount
			bigIn[i].a = a << 10 | 1u;
			bigIn[i].b = b << 10 | 1u; // a live slot has one id
			sum += bigIn[i].a * 3u + bigIn[i].b;
		}
		memset( bigOut, 0, sizeof( bigOut ) );
		spSortPairs( bigIn, many, bigOut, bigScratch, bigStart, histograms, slotCounts[k] );
		uint32_t sumOut = bigOut[0].a * 3u + bigOut[0].b;
		for ( int i = 1; i < many; ++i )
		{
			ENSURE( bigOut[i - 1].a < bigOut[i].a ||
					( bigOut[i - 1].a == bigOut[i].a && bigOut[i - 1].b <= bigOut[i].b ) );
			sumOut += bigOut[i].a * 3u + bigOut[i].b;
		}
		ENSURE( sumOut == sum );
	}

	// diff
	spPair p[4] = { { 1, 2 }, { 1, 3 }, { 2, 5 }, { 4, 6 } };
	spPair q[4] = { { 1, 3 }, { 2, 4 }, { 2, 5 }, { 7, 8 } };
	spPair b[4], e[4];
	spPairArray prev = { p, 4, 4 }, next = { q, 4, 4 }, began = { b, 0, 4 }, ended = { e, 0, 4 };
	spDiffPairs( &prev, &next, &began, &ended );
	ENSURE( began.count == 2 && b[0].a == 2 && b[0].b == 4 && b[1].a == 7 );
	ENSURE( ended.count == 2 && e[0].a == 1 && e[0].b == 2 && e[1].a == 4 );
	spPairArray empty = { NULL, 0, 0 };
	spDiffPairs( &empty, &next, &began, &ended );
	ENSURE( began.count == 4 && ended.count == 0 );
	// in place: each list keeps the pairs the other lacks (how an update cancels a pair found in both its began
	// and ended candidates)
	spPair x[4] = { { 1, 2 }, { 1, 3 }, { 2, 5 }, { 4, 6 } };
	spPair y[4] = { { 1, 3 }, { 2, 4 }, { 2, 5 }, { 7, 8 } };
	spPairArray xs = { x, 4, 4 }, ys = { y, 4, 4 };
	spDiffPairs( &xs, &ys, &ys, &xs );
	ENSURE( xs.count == 2 && x[0].a == 1 && x[0].b == 2 && x[1].a == 4 && x[1].b == 6 );
	ENSURE( ys.count == 2 && y[0].a == 2 && y[0].b == 4 && y[1].a == 7 && y[1].b == 8 );
	return 0;
}

// The slab index queried with no world: an index of random 2D boxes made by hand (swept along x, two slabs along y
// split at 128), and slots given as plain arrays, some removed, with random filters. Region queries and pair queries
// against brute force over the boxes.
int IndexQueriesWithoutAWorld( void )
{
	enum
	{
		N = 300,
		QUERIES = 400
	};
	static float boxes[N][4]; // min x, min y, max x, max y
	static uint32_t ids[N + 1], categories[N + 1], masks[N + 1];
	static float entries[2 * N][4];
	static uint32_t entryIds[2 * N];
	Rng rng = { 7 };
	for ( int i = 0; i < N; ++i )
	{
		for ( int a = 0; a < 2; ++a )
		{
			const float lo = RngFloat( &rng ) * 240.0f;
			boxes[i][a] = lo;
			boxes[i][2 + a] = lo + RngFloat( &rng ) * 16.0f;
		}
		ids[i] = (uint32_t)i << SP_GENERATION_BITS | 1u;
		categories[i] = 1u << RngInt( &rng, 3 );
		masks[i] = RngInt( &rng, 3 ) == 0 ? 0xFFFFFFFFu : 1u << RngInt( &rng, 3 );
	}
	// slot N: a box of no index that queries pair with
	ids[N] = (uint32_t)N << SP_GENERATION_BITS | 1u;
	// slab s of the y range: s = (int)(y / 128) (1/128 is exact), every box in each slab it touches, sorted by min x
	int slabStart[3] = { 0 }, count = 0;
	float maxWidth[2] = { 0.0f, 0.0f };
	const float floors[2] = { -INFINITY, 128.0f };
	for ( int s = 0; s < 2; ++s )
	{
		for ( int i = 0; i < N; ++i )
		{
			if ( ( s == 0 && boxes[i][1] >= 128.0f ) || ( s == 1 && boxes[i][3] < 128.0f ) )
				continue;
			int k = count++;
			for ( ; k > slabStart[s] && entries[k - 1][0] > boxes[i][0]; --k )
			{
				memcpy( entries[k], entries[k - 1], sizeof( entries[k] ) );
				entryIds[k] = entryIds[k - 1];
			}
			const float e[4] = { boxes[i][0], boxes[i][2], boxes[i][1], boxes[i][3] };
			memcpy( entries[k], e, sizeof( e ) );
			entryIds[k] = ids[i];
			maxWidth[s] = e[1] - e[0] > maxWidth[s] ? e[1] - e[0] : maxWidth[s];
		}
		slabStart[s + 1] = count;
	}
	spIndex index = { 0 };
	index.axis = 0;
	index.slabAxis = 1;
	index.slabCount = 2;
	index.slabLo = 0.0f;
	index.slabScale = 1.0f / 128.0f;
	index.slabAt = 2;
	index.entries = &entries[0][0];
	index.ids = entryIds;
	index.entryCount = count;
	index.slabStart = slabStart;
	index.slabMaxWidth = maxWidth;
	index.slabFloor = (float*)floors;
	// every tenth box removed since the index was made: its slot holds another id
	for ( int i = 0; i < N; i += 10 )
		ids[i] += 1u;
	const spSlotTable slots = { 2, ids, categories, masks };
	spPairArray out = { NULL, 0, 0 };
	for ( int q = 0; q < QUERIES; ++q )
	{
		float min[2], max[2];
		for ( int a = 0; a < 2; ++a )
		{
			min[a] = RngFloat( &rng ) * 256.0f - 8.0f;
			max[a] = min[a] + RngFloat( &rng ) * ( q % 4 == 0 ? 200.0f : 24.0f );
		}
		const uint32_t mask = q % 3 == 0 ? 0xFFFFFFFFu : 1u << RngInt( &rng, 3 );
		// odd queries pair with slot N's box (a sweep's query), with a random filter
		const int pairs = q & 1;
		categories[N] = 1u << RngInt( &rng, 3 );
		masks[N] = RngInt( &rng, 2 ) == 0 ? 0xFFFFFFFFu : 1u << RngInt( &rng, 3 );
		out.count = 0;
		ENSURE( spQueryIndex( &index, &slots, min, max, mask, &out, pairs ? ids[N] : 0 ) );
		int want = 0;
		for ( int i = 0; i < N; ++i )
		{
			const int overlap =
				boxes[i][0] <= max[0] && min[0] <= boxes[i][2] && boxes[i][1] <= max[1] && min[1] <= boxes[i][3];
			const int live = i % 10 != 0;
			const int accepted =
				pairs ? spFiltersAccept( categories, masks, (uint32_t)i, N ) : ( categories[i] & mask ) != 0;
			if ( !overlap || !live || !accepted )
				continue;
			want += 1;
			// reported once: as (id, its entry's place) by a region query, as (lower, higher) with slot N's id
			int found = 0;
			for ( int k = 0; k < out.count; ++k )
			{
				const spPair p = out.data[k];
				if ( pairs )
					found += p.a == ids[i] && p.b == ids[N];
				else
					found += p.a == ids[i] && p.b < (uint32_t)count && entryIds[p.b] == ids[i];
			}
			ENSURE( found == 1 );
		}
		ENSURE( out.count == want );
	}
	spFree( out.data );
	return 0;
}
