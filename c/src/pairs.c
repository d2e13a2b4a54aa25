// SPDX-License-Identifier: MIT
// Pair lists and events: the diff of two sorted lists into began and ended, the carry of the last update's place
// pairs over a refreshed index, and the assembly of the update's public pairs and events.
#include "pairs.h"

#include "parallel.h"
#include "refresh.h"
#include "world.h"

#include <string.h>

// Out of line: inlined into both of its calls in spMakePairLists it cost 1.3 KB of wasm each, for one call per update.
__attribute__( ( noinline ) ) void spDiffPairs( const spPairArray* prev, const spPairArray* next, spPairArray* began,
												spPairArray* ended )
{
	int i = 0, j = 0, nb = 0, ne = 0;
	const spPair* p = prev->data;
	const spPair* q = next->data;
	const int pCount = prev->count, qCount = next->count;
	spPair* b = began->data;
	spPair* e = ended->data;
	// Without a branch on the comparison (a merge of lists that interleave at random, as after an incoherent
	// frame, mispredicts half of them): both candidates are written, and the counts advance by the compares.
	// ne <= i and nb <= j, so the writes stay within the lists' lengths, and in place they never pass the reads.
	while ( i < pCount && j < qCount )
	{
		const spPair x = p[i], y = q[j];
		const uint64_t u = spPairKey( x ), v = spPairKey( y );
		e[ne] = x;
		b[nb] = y;
		ne += u < v;
		nb += v < u;
		i += u <= v;
		j += v <= u;
	}
	while ( i < pCount )
		e[ne++] = p[i++];
	while ( j < qCount )
		b[nb++] = q[j++];
	began->count = nb;
	ended->count = ne;
}

// The carry tests two pairs at a time where that is faster: in wasm, and not natively (docs/performance.md). The
// sanitizers' build takes wasm's form, so that it is checked natively too (CMakeLists.txt).
#ifndef SP_CARRY_TWO
#ifdef __wasm__
#define SP_CARRY_TWO 1
#else
#define SP_CARRY_TWO 0
#endif
#endif

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

// The last update's place pairs `p` carried to the refreshed index's places (map->remap, lower place first) and
// diffed with this update's `q` in one pass: pairs only in `q` to began, pairs only in `p` to ended, as id pairs
// (appended at *beganCount and *endedCount); every pair of `q` written as ids to `out`, in its order. A carried pair
// whose entry left its slab goes to ended (if it is now reported in another slab, the diff by id of the two lists
// cancels it: spMakePairLists).
//
// `q` is walked once, each of its pairs sent to began when a carried pair passes it, so the carried pairs need not
// be in order: one that falls behind (boxes that swapped places within a slab) is looked for among the last pairs
// of `q` passed, and taken back from began if it is there.
//
// `pIds`, when not null, holds the id pairs of `p`, pair by pair (the last update's public pairs, when it carried
// too): a pair in both updates is copied from there rather than made again from the ids of its places.
SP_FORCE_INLINE void spCarryDiff( const spRefreshScratch* map, const uint32_t* ids, const spPair* p, int pCount,
								  const spPair* restrict pIds, const spPair* restrict q, int qCount,
								  spPair* restrict out, spPair* restrict began, int* beganCount, spPair* restrict ended,
								  int* endedCount )
{
	const int* remap = map->remap;
	const spPair* const qEnd = q + qCount;
	const spPair* qp = q; // this update's next pair
	spPair* op = out;	  // its id pair's place
	spPair* bp = began + *beganCount;
	spPair* ep = ended + *endedCount;
	// the bits of *qp, in a register; q[qCount] is readable and above every carried pair, with places below
	// INT32_MAX: the next slab range's first pair, or the one spMakePairLists puts past the list
	uint64_t next = spPairBits( *qp );
	for ( int i = 0; i < pCount; ++i )
	{
#if SP_CARRY_TWO
		// two pairs at a time while both are in both updates, in the same order: one test for the two (i and qp
		// move together, so one bound serves both lists)
		const int both = pCount - i < (int)( qEnd - qp ) ? pCount - i : (int)( qEnd - qp );
		const int end = i + both - 1;
		const spPair* const from = qp;
		while ( i < end )
		{
			const spPair o0 = p[i], o1 = p[i + 1];
			SP_ASSERT( o0.a < (uint32_t)map->previousCount && o1.a < (uint32_t)map->previousCount );
			const uint64_t k0 = spPairBitsOf( (uint32_t)remap[o0.a], (uint32_t)remap[o0.b] );
			const uint64_t k1 = spPairBitsOf( (uint32_t)remap[o1.a], (uint32_t)remap[o1.b] );
			if ( ( ( k0 ^ spPairBits( qp[0] ) ) | ( k1 ^ spPairBits( qp[1] ) ) ) != 0 )
				break;
			if ( pIds != NULL )
				memcpy( op, pIds + i, 2 * sizeof( spPair ) );
			else
			{
				op[0] = spPlacePairToIds( ids, qp[0] );
				op[1] = spPlacePairToIds( ids, qp[1] );
			}
			op += 2;
			qp += 2;
			i += 2;
		}
		if ( i >= pCount )
			break;
		if ( qp != from )
			next = spPairBits( *qp );
#endif
		const spPair o = p[i];
		SP_ASSERT( o.a < (uint32_t)map->previousCount && o.b < (uint32_t)map->previousCount );
		const int x = remap[o.a], y = remap[o.b];
		// in both, in the same order (nearly every pair of a coherent frame): a pair of `q` has two places below
		// INT32_MAX, lower first, so a dropped entry's -1 or two places that crossed never match
		if ( __builtin_expect( next == spPairBitsOf( (uint32_t)x, (uint32_t)y ), 1 ) )
		{
			*op++ = pIds != NULL ? pIds[i] : spPlacePairToIds( ids, ( spPair ){ (uint32_t)x, (uint32_t)y } );
			next = spPairBits( *++qp );
			continue;
		}
		if ( ( x | y ) < 0 )
		{
			*ep++ = spPlacePairToIds( map->previousIds, o );
			continue;
		}
		const uint32_t lo = (uint32_t)( x < y ? x : y ), hi = (uint32_t)( x < y ? y : x );
		const uint64_t key = (uint64_t)lo << 32 | hi;
		const spPair idPair = spPlacePairToIds( ids, ( spPair ){ lo, hi } );
		if ( spPairKey( *qp ) < key )
		{
			// this update's pairs before it began
			do
			{
				// one value stored twice (a copy from *op made gcc emit a slow string move)
				const spPair pair = spPlacePairToIds( ids, *qp );
				*op++ = pair;
				*bp++ = pair;
				++qp;
			} while ( spPairKey( *qp ) < key );
			next = spPairBits( *qp );
		}
		if ( spPairKey( *qp ) == key )
		{
			// in both, its places crossed, or after pairs that began
			*op++ = idPair;
			next = spPairBits( *++qp );
			continue;
		}
		// behind *qp: sent to began when passed (as the last pair sent, or among the last few), or not in `q`
		const spPair* r = qp - 1;
		while ( r >= q && spPairKey( *r ) > key )
			--r;
		if ( r >= q && spPairKey( *r ) == key )
		{
			spPair* b = bp - 1;
			while ( b->a != idPair.a || b->b != idPair.b )
				--b;
			// (most often the last sent: no move)
			if ( b + 1 < bp )
				memmove( b, b + 1, sizeof( spPair ) * (size_t)( bp - 1 - b ) );
			--bp;
			continue;
		}
		*ep++ = idPair;
	}
	for ( ; qp < qEnd; ++qp )
	{
		const spPair pair = spPlacePairToIds( ids, *qp );
		*op++ = pair;
		*bp++ = pair;
	}
	*beganCount = (int)( bp - began );
	*endedCount = (int)( ep - ended );
}

// p + i for a list that may be empty and so null (null + 0 is undefined in C).
#define SP_AT( p, i ) ( ( i ) != 0 ? ( p ) + ( i ) : ( p ) )

// The first of `count` sorted place pairs whose lower place is at least `place`.
static int spFirstPairFrom( const spPair* p, int count, int place )
{
	int lo = 0, hi = count;
	while ( lo < hi )
	{
		const int mid = lo + ( hi - lo ) / 2;
		if ( p[mid].a < (uint32_t)place )
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

// One update's place pairs slab range by slab range: the lists its sweep's ranges kept (placeRanges), or its one list
// as one range over every slab.
typedef struct spPlaceSegments
{
	const spPairArray* lists;
	const int* cut;
	const int* at;
	int count;
	int oneCut[2], oneAt[2];
} spPlaceSegments;

// placeRanges[k] when the sweep's ranges kept placePairs[k], else null (always, in a build with no parallel update).
static inline const spPlaceRanges* spKeptPlaces( const spWorld* w, int k )
{
	return SP_PARALLEL && w->placeRanges[k].ranges > 0 ? &w->placeRanges[k] : NULL;
}

static void spPlaceSegmentsOf( const spWorld* w, int k, spPlaceSegments* g )
{
	const spPlaceRanges* kept = spKeptPlaces( w, k );
	if ( kept != NULL )
	{
		g->lists = kept->lists;
		g->cut = kept->cut;
		g->at = kept->at;
		g->count = kept->ranges;
		return;
	}
	g->oneCut[0] = 0;
	g->oneCut[1] = w->dynamicIndex.slabCount;
	g->oneAt[0] = 0;
	g->oneAt[1] = w->placePairs[k].count;
	g->lists = &w->placePairs[k];
	g->cut = g->oneCut;
	g->at = g->oneAt;
	g->count = 1;
}

typedef struct spCarryJob
{
	const spWorld* w;
	spPlaceSegments prev, next;
	const spPair* prevIds; // the id pairs of the last update's place pairs, pair by pair, or null
	spPair* beganIn;
	spPair* endedIn;
	spPair* out;
} spCarryJob;

// The carry and the diff of slabs s0..s1-1. A pair's places are in one slab (the sweep pairs entries of a slab),
// before and after the refresh, so the ranges of the last update's and this update's place pairs of the slabs are
// found by binary search and carried and diffed alone, in pieces where either update's pairs pass from one kept list
// to the next; each range writes where its pairs are in those lists (its spans: began, then ended).
static bool spCarryRange( int s0, int s1, spTask* task, void* context )
{
	const spCarryJob* job = context;
	const spWorld* w = job->w;
	const int* before = w->refreshScratch.previousSlabStart;
	const int* after = w->dynamicIndex.slabStart;
	const spPlaceSegments* prev = &job->prev;
	const spPlaceSegments* next = &job->next;
	int began = 0, ended = 0, beganAt = 0, endedAt = 0;
	int jp = 0, jn = 0;
	for ( int sa = s0; sa < s1 || !SP_PARALLEL; )
	{
		// (a build with no parallel update has one list of each and one range: one piece, with no tests)
		int sb = s1;
		if ( SP_PARALLEL )
		{
			while ( prev->cut[jp + 1] <= sa )
				++jp;
			while ( next->cut[jn + 1] <= sa )
				++jn;
			sb = sb < prev->cut[jp + 1] ? sb : prev->cut[jp + 1];
			sb = sb < next->cut[jn + 1] ? sb : next->cut[jn + 1];
		}
		const spPair* p = prev->lists[jp].data;
		const spPair* q = next->lists[jn].data;
		const int pb = spFirstPairFrom( p, prev->lists[jp].count, before[sa] );
		const int pe = spFirstPairFrom( p, prev->lists[jp].count, before[sb] );
		const int nb = spFirstPairFrom( q, next->lists[jn].count, after[sa] );
		const int ne = spFirstPairFrom( q, next->lists[jn].count, after[sb] );
		const int pAt = prev->at[jp] + pb, nAt = next->at[jn] + nb;
		if ( sa == s0 )
		{
			beganAt = nAt;
			endedAt = pAt;
		}
		// a copy of the kernel for each source of the id pairs
		if ( job->prevIds != NULL )
			spCarryDiff( &w->refreshScratch, w->dynamicIndex.ids, SP_AT( p, pb ), pe - pb, job->prevIds + pAt,
						 SP_AT( q, nb ), ne - nb, SP_AT( job->out, nAt ), SP_AT( job->beganIn, beganAt ), &began,
						 SP_AT( job->endedIn, endedAt ), &ended );
		else
			spCarryDiff( &w->refreshScratch, w->dynamicIndex.ids, SP_AT( p, pb ), pe - pb, NULL, SP_AT( q, nb ),
						 ne - nb, SP_AT( job->out, nAt ), SP_AT( job->beganIn, beganAt ), &began,
						 SP_AT( job->endedIn, endedAt ), &ended );
		if ( !SP_PARALLEL )
			break;
		sa = sb;
	}
	task->spans[0] = ( spSpan ){ beganAt, began };
	task->spans[1] = ( spSpan ){ endedAt, ended };
	return true;
}

typedef struct spIdsJob
{
	const uint32_t* ids;
	const spPair* in;
	spPair* out;
	const spPlaceRanges* kept; // or null: `in` is one list
} spIdsJob;

static bool spIdsRange( int i0, int i1, spTask* task, void* context )
{
	const spIdsJob* job = context;
	(void)task;
	if ( !SP_PARALLEL || job->kept == NULL )
	{
		spPlacePairsToIds( job->ids, SP_AT( job->in, i0 ), i1 - i0, SP_AT( job->out, i0 ) );
		return true;
	}
	// kept lists i0..i1-1, each to its place in the whole
	for ( int j = i0; j < i1; ++j )
	{
		spPlacePairsToIds( job->ids, job->kept->lists[j].data, job->kept->lists[j].count,
						   SP_AT( job->out, job->kept->at[j] ) );
	}
	return true;
}

// This update's place pairs (placePairs[k], or the lists its sweep's ranges kept) as id pairs into `out` (which may
// be placePairs[k].data: each pair is read before it is written), by ranges over the pool (two per thread), or a
// kept list a range.
static void spPlacePairsToIdsOn( spWorld* w, int k, spPair* out )
{
	const spPlaceRanges* kept = spKeptPlaces( w, k );
	if ( kept != NULL )
	{
		spIdsJob job = { w->dynamicIndex.ids, NULL, out, kept };
		spParallelFor( w, spIdsRange, kept->ranges, 0, &job );
		return;
	}
	spIdsJob job = { w->dynamicIndex.ids, w->placePairs[k].data, out, NULL };
	spParallelFor( w, spIdsRange, w->placePairs[k].count, 2, &job );
}

// The count of placePairs[k], kept by ranges or not.
static int spPlacePairCount( const spWorld* w, int k )
{
	const spPlaceRanges* kept = spKeptPlaces( w, k );
	return kept != NULL ? kept->at[kept->ranges] : w->placePairs[k].count;
}

typedef struct spDiffJob
{
	const spPairArray* prev;
	const spPairArray* next;
	spPair* began;
	spPair* ended;
	int prevCut[2 * SP_MAX_THREADS + 1]; // where each range's part of the last update's pairs starts, then the end
} spDiffJob;

// The first of the last update's pairs at or after this update's pair `at`.
static int spPrevBound( const spDiffJob* job, int at )
{
	const uint64_t key = spPairKey( job->next->data[at] );
	const spPair* p = job->prev->data;
	int lo = 0, hi = job->prev->count;
	while ( lo < hi )
	{
		const int mid = lo + ( hi - lo ) / 2;
		if ( spPairKey( p[mid] ) < key )
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

// The diff of this update's pairs n0..n1-1 with the last update's pairs cut at the same keys, into the outputs at
// the places of those pairs (its spans: began, then ended).
static bool spDiffRange( int n0, int n1, spTask* task, void* context )
{
	const spDiffJob* job = context;
	const int p0 = job->prevCut[task->range], p1 = job->prevCut[task->range + 1];
	const spPairArray prev = { SP_AT( job->prev->data, p0 ), p1 - p0, 0 };
	const spPairArray next = { SP_AT( job->next->data, n0 ), n1 - n0, 0 };
	spPairArray began = { SP_AT( job->began, n0 ), 0, 0 };
	spPairArray ended = { SP_AT( job->ended, p0 ), 0, 0 };
	spDiffPairs( &prev, &next, &began, &ended );
	task->spans[0] = ( spSpan ){ n0, began.count };
	task->spans[1] = ( spSpan ){ p0, ended.count };
	return true;
}

// spDiffPairs by ranges over the pool (two per thread): this update's pairs cut into equal ranges, the last update's
// cut at the same keys, each range diffed into the outputs at its own places, then moved together in order. In place
// too (`began` the same list as `next`, `ended` as `prev`): the cut is found before any range writes over its first
// pairs.
static void spDiffPairsOn( spWorld* w, const spPairArray* prev, const spPairArray* next, spPairArray* began,
						   spPairArray* ended )
{
	spDiffJob job = { prev, next, began->data, ended->data, { 0 } };
	const int ranges = spCutUnits( w, next->count, 2 );
	SP_ASSERT( ranges <= 2 * SP_MAX_THREADS );
	job.prevCut[0] = 0;
	for ( int r = 1; r < ranges; ++r )
		job.prevCut[r] = spPrevBound( &job, w->parallel.cut[r] );
	job.prevCut[ranges] = prev->count;
	spRunRanges( w, spDiffRange, &job );
	began->count = spGatherSpans( &w->parallel, 0, began->data, sizeof( spPair ) );
	ended->count = spGatherSpans( &w->parallel, 1, ended->data, sizeof( spPair ) );
}

// The update's pair lists (pairs.h):
// - When the index is a refresh of the last update's and neither update has pairs with static boxes, the last
//   update's place pairs are carried to the new places and diffed with this update's; only the events are
//   sorted by id, and the public pairs are this update's place pairs as ids, in place order.
// - Otherwise this update's pairs are sorted by id (and the last update's too, when they were in place order)
//   and diffed.
// - Without events (spWorld_SetEvents), the public pairs are this update's place pairs as ids, then the pairs
//   with static boxes, unsorted; began and ended are empty.
bool spMakePairLists( spWorld* w )
{
	const int cur = w->current, nxt = 1 - cur;
	const spIndex* index = &w->dynamicIndex;
	spPairArray* prev = &w->pairs[cur];
	spPairArray* next = &w->pairs[nxt];
	const int mp = spPlacePairCount( w, nxt ), ms = w->found.count;
	const int total = mp + ms;
	const bool carry = w->placePairsVersion[cur] != 0 && w->placePairsVersion[cur] == w->remapFromVersion &&
					   w->remapToVersion == w->indexVersion && w->staticPairCount[cur] == 0 && ms == 0;
	// everything reserved first, so a failure leaves the last update's results in place
	const int most = total > prev->count ? total : prev->count;
	const int was = spPlacePairCount( w, cur );
	if ( w->noEvents )
	{
		// the place pairs turned into id pairs where they are, and their array swapped in as the public one: no
		// second list of every pair to write (and, on a cold start, to fault in); no place pairs are kept. Kept by
		// the sweep's ranges, they are turned into the public array from there.
		spPairArray* places = &w->placePairs[nxt];
		const bool kept = spKeptPlaces( w, nxt ) != NULL;
		spPairArray* into = kept ? next : places;
		if ( !spGrowWithRoom( (void**)&into->data, &into->capacity, total, sizeof( spPair ) ) )
			return false;
		spPlacePairsToIdsOn( w, nxt, into->data );
		if ( ms > 0 )
		{
			memcpy( into->data + mp, w->found.data, sizeof( spPair ) * (size_t)ms );
		}
		if ( !kept )
		{
			const spPairArray swapped = *next;
			*next = *places;
			*places = swapped;
		}
		next->count = total;
		places->count = 0;
		w->placeRanges[nxt].ranges = 0;
		w->began.count = 0;
		w->ended.count = 0;
		w->pairsSorted[nxt] = 0;
		w->pairsAligned[nxt] = 0;
		w->placePairsVersion[nxt] = 0;
		w->staticPairCount[nxt] = ms;
		w->current = nxt;
		return true;
	}
	else if ( carry )
	{
		// began and ended candidates in eventScratch (began first), then sorted by id into began and ended through
		// found
		if ( !spGrowWithRoom( (void**)&next->data, &next->capacity, mp, sizeof( spPair ) ) ||
			 !spGrowWithRoom( (void**)&w->began.data, &w->began.capacity, mp, sizeof( spPair ) ) ||
			 !spGrowWithRoom( (void**)&w->ended.data, &w->ended.capacity, was, sizeof( spPair ) ) ||
			 !spGrowWithRoom( (void**)&w->eventScratch.data, &w->eventScratch.capacity, mp + was + 1,
							  sizeof( spPair ) ) ||
			 !spGrowWithRoom( (void**)&w->found.data, &w->found.capacity, mp > was ? mp : was, sizeof( spPair ) ) )
			return false;
		// a pair past this update's, above every pair, so that the carry's merge reads on without a bound check (not
		// all ones: a carried pair of two dropped entries is (-1, -1)); lists kept by ranges have theirs
		spPairArray* places = &w->placePairs[nxt];
		if ( spKeptPlaces( w, nxt ) == NULL )
		{
			if ( !spGrowWithRoom( (void**)&places->data, &places->capacity, mp + 1, sizeof( spPair ) ) )
				return false;
			places->data[mp] = ( spPair ){ INT32_MAX, INT32_MAX };
		}
		spPair* beganIn = w->eventScratch.data;
		spPair* endedIn = w->eventScratch.data + mp;
		// with a pool by slab ranges: the candidates' order then differs from one range's (gone and ended pairs
		// interleave by range), which the sorts by id below undo: the pairs are distinct
		spCarryJob job = { .w = w,
						   .prevIds = w->pairsAligned[cur] ? prev->data : NULL,
						   .beganIn = beganIn,
						   .endedIn = endedIn,
						   .out = next->data };
		spPlaceSegmentsOf( w, cur, &job.prev );
		spPlaceSegmentsOf( w, nxt, &job.next );
		spParallelForSlabs( w, index, spCarryRange, &job );
		const int nb = spGatherSpans( &w->parallel, 0, beganIn, sizeof( spPair ) );
		const int ne = spGatherSpans( &w->parallel, 1, endedIn, sizeof( spPair ) );
		spSortEventsOn( w, beganIn, nb, w->began.data, endedIn, ne, w->ended.data );
		w->began.count = nb;
		w->ended.count = ne;
		// a pair now reported in another slab than before is in both lists: neither began nor ended (the diff of
		// the two lists, written over them)
		spDiffPairsOn( w, &w->ended, &w->began, &w->began, &w->ended );
		next->count = mp;
		w->pairsSorted[nxt] = 0;
		w->pairsAligned[nxt] = 1;
	}
	else
	{
		if ( !spGrowWithRoom( (void**)&next->data, &next->capacity, total, sizeof( spPair ) ) ||
			 !spGrowWithRoom( (void**)&w->began.data, &w->began.capacity, most, sizeof( spPair ) ) ||
			 !spGrowWithRoom( (void**)&w->ended.data, &w->ended.capacity, most, sizeof( spPair ) ) ||
			 !spGrowWithRoom( (void**)&w->eventScratch.data, &w->eventScratch.capacity, prev->count,
							  sizeof( spPair ) ) )
			return false;
		// this update's pairs as id pairs into began (free until the diff), sorted into next through ended; with a
		// pool, the conversion by ranges, the sorts' blocks and the diff by ranges of keys at once
		spPlacePairsToIdsOn( w, nxt, w->began.data );
		if ( ms > 0 )
		{
			memcpy( w->began.data + mp, w->found.data, sizeof( spPair ) * (size_t)ms );
		}
		spSortPairsOn( w, w->began.data, total, next->data, w->ended.data );
		next->count = total;
		spPairArray sortedPrev = *prev;
		if ( !w->pairsSorted[cur] )
		{
			// the last update's pairs are in place order: sorted by id into eventScratch
			spSortPairsOn( w, prev->data, prev->count, w->eventScratch.data, w->began.data );
			sortedPrev.data = w->eventScratch.data;
		}
		spDiffPairsOn( w, &sortedPrev, next, &w->began, &w->ended );
		w->pairsSorted[nxt] = 1;
		w->pairsAligned[nxt] = 0;
	}
	w->placePairsVersion[nxt] = w->indexVersion;
	w->staticPairCount[nxt] = ms;
	w->current = nxt;
	return true;
}

SP_COLD void spFreePlaceRanges( spPlaceRanges* kept )
{
	for ( int r = 0; r < kept->capacity; ++r )
	{
		spFree( kept->lists[r].data );
	}
	spFree( kept->lists );
	spFree( kept->cut );
	spFree( kept->at );
	memset( kept, 0, sizeof( *kept ) );
}

SP_COLD size_t spPlaceRangesByteCount( const spPlaceRanges* kept )
{
	size_t n = (size_t)kept->capacity * ( sizeof( spPairArray ) + 2 * sizeof( int ) );
	for ( int r = 0; r < kept->capacity; ++r )
	{
		n += (size_t)kept->lists[r].capacity * sizeof( spPair );
	}
	return n;
}
