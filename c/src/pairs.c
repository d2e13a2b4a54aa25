// SPDX-License-Identifier: MIT
// Pair lists and events: the diff of two sorted lists into began and ended, the carry of the last update's place
// pairs over a refreshed index, and the assembly of the update's public pairs and events.
#include "pairs.h"

#include "parallel.h"
#include "pool.h"
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

// Carry the last update's place pairs over to the refreshed index's places (map->remap), lower place first,
// into `carried`, sorted again as they are written (an insertion sort: boxes that swapped places within a slab
// leave a few pairs out of order). A pair one of whose entries left its slab goes to `gone` as ids. Returns the
// carried count; *goneCount is set.
static int spCarryPlacePairs( const spRefreshScratch* map, const spPair* in, int count, spPair* carried, spPair* gone,
							  int* goneCount )
{
	const int* remap = map->remap;
	int n = 0, g = 0;
	uint64_t last = 0; // the key of carried[n - 1] (0 before the first: every key is at least 0)
	for ( int k = 0; k < count; ++k )
	{
		const spPair p = in[k];
		SP_ASSERT( p.a < (uint32_t)map->previousCount && p.b < (uint32_t)map->previousCount );
		const int x = remap[p.a], y = remap[p.b];
		if ( ( x | y ) < 0 )
		{
			gone[g++] = spPlacePairToIds( map->previousIds, p );
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
		} while ( j > 0 && key < spPairKey( carried[j - 1] ) );
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

typedef struct spCarryJob
{
	spWorld* w;
	const spPairArray* prevPlaces;
	const spPairArray* nextPlaces;
	spPair* carried;
	spPair* beganIn;
	spPair* endedIn;
	spPair* out;
} spCarryJob;

// The carry and the diff of one slab range. A pair's places are in one slab (the sweep pairs entries of a slab),
// before and after the refresh, so the ranges of the last update's and this update's place pairs of the slabs are
// found by binary search and carried and diffed alone; each range writes where its pairs are in those lists.
static void spCarryTask( void* context, int t )
{
	const spCarryJob* job = context;
	spWorld* w = job->w;
	spTask* task = &w->parallel.tasks[t];
	const int s0 = w->parallel.cut[t], s1 = w->parallel.cut[t + 1];
	const int* before = w->refreshScratch.previousSlabStart;
	const int* after = w->dynamicIndex.slabStart;
	const spPair* prev = job->prevPlaces->data;
	const spPair* next = job->nextPlaces->data;
	const int pb = spFirstPairFrom( prev, job->prevPlaces->count, before[s0] );
	const int pe = spFirstPairFrom( prev, job->prevPlaces->count, before[s1] );
	const int nb = spFirstPairFrom( next, job->nextPlaces->count, after[s0] );
	const int ne = spFirstPairFrom( next, job->nextPlaces->count, after[s1] );
	int began = 0, ended = 0;
	const int carried = spCarryPlacePairs( &w->refreshScratch, SP_AT( prev, pb ), pe - pb, SP_AT( job->carried, pb ),
										   SP_AT( job->endedIn, pb ), &ended );
	spDiffPlacePairs( w->dynamicIndex.ids, SP_AT( job->carried, pb ), carried, SP_AT( next, nb ), ne - nb,
					  SP_AT( job->out, nb ), SP_AT( job->beganIn, nb ), &began, SP_AT( job->endedIn, pb ), &ended );
	task->prevBegin = pb;
	task->nextBegin = nb;
	task->began = began;
	task->ended = ended;
}

// The began and ended pairs of `count` tasks, each at its own place (nextBegin and prevBegin), moved together in task
// order to the start of `began` and `ended`; their counts in *beganCount and *endedCount.
static void spGatherEvents( const spWorld* w, int count, spPair* began, spPair* ended, int* beganCount,
							int* endedCount )
{
	int nb = 0, ne = 0;
	for ( int t = 0; t < count; ++t )
	{
		const spTask* task = &w->parallel.tasks[t];
		if ( task->began > 0 )
			memmove( began + nb, began + task->nextBegin, sizeof( spPair ) * (size_t)task->began );
		if ( task->ended > 0 )
			memmove( ended + ne, ended + task->prevBegin, sizeof( spPair ) * (size_t)task->ended );
		nb += task->began;
		ne += task->ended;
	}
	*beganCount = nb;
	*endedCount = ne;
}

// spCarryPlacePairs and spDiffPlacePairs by slab ranges over the pool; the began and ended candidates gathered in
// task order to the start of beganIn and endedIn. Returns false on allocation failure.
static bool spParallelCarry( spWorld* w, spCarryJob* job, int* beganCount, int* endedCount )
{
	if ( !spCutSlabs( w ) )
		return false;
	const int count = w->parallel.taskCount;
	spPoolRun( w->pool, spCarryTask, job, count );
	spGatherEvents( w, count, job->beganIn, job->endedIn, beganCount, endedCount );
	return true;
}

typedef struct spIdsJob
{
	spWorld* w;
	const spPair* in;
	spPair* out;
	int count;
	// the block sorts
	spPair* scratch;
	const int* blockStart;
	int blocks;
	// the diff: the last update's pairs and this one's, and the outputs
	const spPairArray* prev;
	const spPairArray* next;
	spPair* began;
	spPair* ended;
} spIdsJob;

static void spIdsTask( void* context, int t )
{
	const spIdsJob* job = context;
	const int tasks = job->w->parallel.taskCount;
	const int i0 = spTaskBegin( t, job->count, tasks ), i1 = spTaskBegin( t + 1, job->count, tasks );
	spPlacePairsToIds( job->w->dynamicIndex.ids, SP_AT( job->in, i0 ), i1 - i0, SP_AT( job->out, i0 ) );
}

// This update's `count` place pairs as id pairs into `out` (which may be `in`: each pair is read before it is
// written), by ranges over the pool when `parallel` (its tasks reserved: 2 per thread).
static void spPlacePairsToIdsOn( spWorld* w, bool parallel, const spPair* in, int count, spPair* out )
{
	if ( !parallel )
	{
		spPlacePairsToIds( w->dynamicIndex.ids, in, count, out );
		return;
	}
	spIdsJob job = { 0 };
	job.w = w;
	job.in = in;
	job.out = out;
	job.count = count;
	w->parallel.taskCount = 2 * spPoolThreads( w->pool );
	spPoolRun( w->pool, spIdsTask, &job, w->parallel.taskCount );
}

static void spBlocksTask( void* context, int t )
{
	const spIdsJob* job = context;
	spTask* task = &job->w->parallel.tasks[t];
	const int tasks = job->w->parallel.taskCount;
	spSortPairBlocks( job->scratch, job->out, job->blockStart, task->counters, spTaskBegin( t, job->blocks, tasks ),
					  spTaskBegin( t + 1, job->blocks, tasks ) );
}

// The scatter into blocks by ranges of pairs: each range counted with counters of its own, then scattered after
// the ranges before it in every block (the serial scatter's order).
static void spBlockCountTask( void* context, int t )
{
	const spIdsJob* job = context;
	const int tasks = job->w->parallel.taskCount;
	const int i0 = spTaskBegin( t, job->count, tasks ), i1 = spTaskBegin( t + 1, job->count, tasks );
	spCountPairBlocks( SP_AT( job->in, i0 ), i1 - i0, job->w->parallel.tasks[t].counters, job->blocks );
}

static void spBlockScatterTask( void* context, int t )
{
	const spIdsJob* job = context;
	const int tasks = job->w->parallel.taskCount;
	const int i0 = spTaskBegin( t, job->count, tasks ), i1 = spTaskBegin( t + 1, job->count, tasks );
	spScatterPairsToBlocks( SP_AT( job->in, i0 ), i1 - i0, job->scratch, job->w->parallel.tasks[t].counters );
}

// spSortPairs, its scatter into blocks and its blocks' sorts over the pool when it sorts by blocks (each task with
// counters of its own, reserved first; on one thread if they cannot be had).
static void spSortPairsOn( spWorld* w, bool parallel, const spPair* in, int count, spPair* out, spPair* scratch )
{
	const int blocks = parallel ? spPairSortBlocks( count, w->slotCount ) : 0;
	const int tasks = spPoolThreads( w->pool );
	const int counters = blocks + 1 > SP_PAIR_SORT_BLOCK + 1 ? blocks + 1 : SP_PAIR_SORT_BLOCK + 1;
	bool ok = blocks > 0 && spReserveTasks( &w->parallel, tasks );
	for ( int t = 0; ok && t < tasks; ++t )
	{
		spTask* task = &w->parallel.tasks[t];
		ok = spGrow( (void**)&task->counters, &task->countersCapacity, counters, sizeof( int ) );
	}
	if ( !ok )
	{
		spSortPairs( in, count, out, scratch, w->pairStart, w->pairHistograms, w->slotCount );
		return;
	}
	spIdsJob job = { 0 };
	job.w = w;
	job.in = in;
	job.count = count;
	job.out = out;
	job.scratch = scratch;
	job.blocks = blocks;
	w->parallel.taskCount = tasks;
	spPoolRun( w->pool, spBlockCountTask, &job, tasks );
	// where each block starts (where spScatterPairBlocks puts it), and each task's cursors
	int* blockStart = w->pairStart + SP_PAIR_SORT_BLOCK + 1;
	blockStart[0] = 0;
	spTaskCursors( &w->parallel, tasks, blocks, blockStart );
	spPoolRun( w->pool, spBlockScatterTask, &job, tasks );
	job.blockStart = blockStart;
	spPoolRun( w->pool, spBlocksTask, &job, tasks );
}

static void spDiffTask( void* context, int t )
{
	const spIdsJob* job = context;
	spTask* task = &job->w->parallel.tasks[t];
	const int* cut = job->w->parallel.cut;
	// this update's pairs cut evenly
	const int n0 = cut[t], n1 = cut[t + 1];
	const spPair* p = job->prev->data;
	const int pCount = job->prev->count;
	// the last update's pairs cut at the keys of this update's cuts: the first task from the first pair, the last
	// to the last
	int bounds[2];
	for ( int k = 0; k < 2; ++k )
	{
		const int c = t + k, at = cut[c];
		if ( c == 0 || c == job->w->parallel.taskCount || at == job->next->count )
		{
			bounds[k] = c == 0 ? 0 : pCount;
			continue;
		}
		const uint64_t key = spPairKey( job->next->data[at] );
		int lo = 0, hi = pCount;
		while ( lo < hi )
		{
			const int mid = lo + ( hi - lo ) / 2;
			if ( spPairKey( p[mid] ) < key )
				lo = mid + 1;
			else
				hi = mid;
		}
		bounds[k] = lo;
	}
	const spPairArray prev = { SP_AT( (spPair*)p, bounds[0] ), bounds[1] - bounds[0], 0 };
	const spPairArray next = { SP_AT( job->next->data, n0 ), n1 - n0, 0 };
	spPairArray began = { SP_AT( job->began, n0 ), 0, 0 };
	spPairArray ended = { SP_AT( job->ended, bounds[0] ), 0, 0 };
	spDiffPairs( &prev, &next, &began, &ended );
	task->prevBegin = bounds[0];
	task->nextBegin = n0;
	task->began = began.count;
	task->ended = ended.count;
}

// spDiffPairs over the pool: this update's pairs cut into equal ranges, the last update's cut at the same keys,
// each range diffed into the outputs at its own places, then moved together in order.
static bool spParallelDiff( spWorld* w, const spPairArray* prev, const spPairArray* next, spPairArray* began,
							spPairArray* ended )
{
	const int tasks = spPoolThreads( w->pool ) * 2;
	if ( !spReserveTasks( &w->parallel, tasks ) )
		return false;
	for ( int t = 0; t <= tasks; ++t )
		w->parallel.cut[t] = spTaskBegin( t, next->count, tasks );
	w->parallel.taskCount = tasks;
	spIdsJob job = { 0 };
	job.w = w;
	job.prev = prev;
	job.next = next;
	job.began = began->data;
	job.ended = ended->data;
	spPoolRun( w->pool, spDiffTask, &job, tasks );
	spGatherEvents( w, tasks, began->data, ended->data, &began->count, &ended->count );
	return true;
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
	if ( w->noEvents )
	{
		// the place pairs turned into id pairs where they are, and their array swapped in as the public one: no
		// second list of every pair to write (and, on a cold start, to fault in); no place pairs are kept
		spPairArray* places = &w->placePairs[nxt];
		if ( !spGrowWithRoom( (void**)&places->data, &places->capacity, total, sizeof( spPair ) ) )
			return false;
		const bool parallel = spParallelOn( w ) && spReserveTasks( &w->parallel, 2 * spPoolThreads( w->pool ) );
		spPlacePairsToIdsOn( w, parallel, places->data, mp, places->data );
		if ( ms > 0 )
		{
			memcpy( places->data + mp, w->found.data, sizeof( spPair ) * (size_t)ms );
		}
		const spPairArray swapped = *next;
		*next = *places;
		next->count = total;
		*places = swapped;
		places->count = 0;
		w->began.count = 0;
		w->ended.count = 0;
		w->pairsSorted[nxt] = 0;
		w->placePairsVersion[nxt] = 0;
		w->staticPairCount[nxt] = ms;
		w->current = nxt;
		return true;
	}
	else if ( carry )
	{
		// carried pairs in found; began and ended candidates in eventScratch (began first), then sorted by id
		// into began and ended through found
		if ( !spGrowWithRoom( (void**)&next->data, &next->capacity, mp, sizeof( spPair ) ) ||
			 !spGrowWithRoom( (void**)&w->began.data, &w->began.capacity, mp, sizeof( spPair ) ) ||
			 !spGrowWithRoom( (void**)&w->ended.data, &w->ended.capacity, was, sizeof( spPair ) ) ||
			 !spGrowWithRoom( (void**)&w->eventScratch.data, &w->eventScratch.capacity, mp + was + 1,
							  sizeof( spPair ) ) ||
			 !spGrowWithRoom( (void**)&w->found.data, &w->found.capacity, mp > was ? mp : was, sizeof( spPair ) ) )
			return false;
		spPair* beganIn = w->eventScratch.data;
		spPair* endedIn = w->eventScratch.data + mp;
		int nb = 0, ne = 0;
		if ( spParallelOn( w ) )
		{
			// the candidates' order differs from the serial form's (gone and ended pairs interleave by slab
			// range), which the sorts by id below undo: the pairs are distinct
			spCarryJob job = { w, prevPlaces, nextPlaces, w->found.data, beganIn, endedIn, next->data };
			if ( !spParallelCarry( w, &job, &nb, &ne ) )
				return false;
		}
		else
		{
			const int carried = spCarryPlacePairs( &w->refreshScratch, prevPlaces->data, prevPlaces->count,
												   w->found.data, endedIn, &ne );
			spDiffPlacePairs( index->ids, w->found.data, carried, nextPlaces->data, mp, next->data, beganIn, &nb,
							  endedIn, &ne );
		}
		spSortPairs( beganIn, nb, w->began.data, w->found.data, w->pairStart, w->pairHistograms, slots );
		spSortPairs( endedIn, ne, w->ended.data, w->found.data, w->pairStart, w->pairHistograms, slots );
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
			 !spGrowWithRoom( (void**)&w->eventScratch.data, &w->eventScratch.capacity, prev->count,
							  sizeof( spPair ) ) )
			return false;
		// this update's pairs as id pairs into began (free until the diff), sorted into next through ended; with a
		// pool, the conversion by ranges, the sorts' blocks and the diff by ranges of keys at once
		const bool parallel = spParallelOn( w ) && spReserveTasks( &w->parallel, 2 * spPoolThreads( w->pool ) );
		spPlacePairsToIdsOn( w, parallel, nextPlaces->data, mp, w->began.data );
		if ( ms > 0 )
		{
			memcpy( w->began.data + mp, w->found.data, sizeof( spPair ) * (size_t)ms );
		}
		spSortPairsOn( w, parallel, w->began.data, total, next->data, w->ended.data );
		next->count = total;
		spPairArray sortedPrev = *prev;
		if ( !w->pairsSorted[cur] )
		{
			// the last update's pairs are in place order: sorted by id into eventScratch
			spSortPairsOn( w, parallel, prev->data, prev->count, w->eventScratch.data, w->began.data );
			sortedPrev.data = w->eventScratch.data;
		}
		if ( !parallel || !spParallelDiff( w, &sortedPrev, next, &w->began, &w->ended ) )
			spDiffPairs( &sortedPrev, next, &w->began, &w->ended );
		w->pairsSorted[nxt] = 1;
	}
	w->placePairsVersion[nxt] = w->indexVersion;
	w->staticPairCount[nxt] = ms;
	w->current = nxt;
	return true;
}
