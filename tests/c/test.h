// SPDX-License-Identifier: MIT
// Minimal test harness: ENSURE prints the failed expression and fails the test.
#pragma once

#include <stdio.h>
#include <stdlib.h>

#include "sweep_prune/sweep_prune.h"

#define ENSURE( c )                                                                                                    \
	do                                                                                                                 \
	{                                                                                                                  \
		if ( !( c ) )                                                                                                  \
		{                                                                                                              \
			fprintf( stderr, "%s:%d: ENSURE failed: %s\n", __FILE__, __LINE__, #c );                                   \
			return 1;                                                                                                  \
		}                                                                                                              \
	} while ( 0 )

#define ENSURE_OK( r ) ENSURE( ( r ) == sp_resultOk )

#define RUN_SUB( f )                                                                                                   \
	do                                                                                                                 \
	{                                                                                                                  \
		if ( ( f ) != 0 )                                                                                              \
			return 1;                                                                                                  \
	} while ( 0 )

/// Seeded PRNG (mulberry32), the same scenes on every platform.
typedef struct Rng
{
	uint32_t state;
} Rng;

static inline uint32_t RngNext( Rng* r )
{
	uint32_t t = ( r->state += 0x6D2B79F5u );
	t = ( t ^ ( t >> 15 ) ) * ( t | 1u );
	t ^= t + ( t ^ ( t >> 7 ) ) * ( t | 61u );
	return t ^ ( t >> 14 );
}

static inline float RngFloat( Rng* r )
{
	return (float)( RngNext( r ) >> 8 ) / 16777216.0f;
}

static inline int RngInt( Rng* r, int n )
{
	return (int)( RngNext( r ) % (uint32_t)n );
}

/// A mirror of a world kept by the test: live ids and their bounds, for the brute-force oracle.
typedef struct Mirror
{
	int dimensions;
	int count;
	int capacity;
	uint32_t* ids;
	float* bounds; // per box: d mins then d maxes
	uint32_t* categories;
	uint32_t* masks;
	uint8_t* statics;
} Mirror;

/// A world of `dimensions` from spDefaultWorldDef, or the null id if creation failed.
spWorldId TestWorld( int dimensions );

/// The tests' allocator, installed with spSetAllocator( TestRealloc ): it counts the allocations and reallocations it
/// is asked for (count), and fails the one numbered failAt since TestFailAt (none when -1), and every one after it
/// too when keepFailing is set.
typedef struct TestAllocator
{
	_Atomic int count; // a pool's workers allocate too
	int failAt;
	int keepFailing;
} TestAllocator;
extern TestAllocator testAllocator;
void* TestRealloc( void* p, size_t size );

/// Count from 0 again and fail allocation k of the count (-1: none).
void TestFailAt( int k );

/// A random box in the world [0, 100]^d: `size` is the largest extent as a fraction of it.
void RandomBox( Rng* rng, int d, float size, float* min, float* max );

/// qsort's comparison of two uint32 values.
int CompareU32( const void* x, const void* y );

/// Add a random box (RandomBox) to the world and the mirror. Returns its id, or 0 if the world refused it.
uint32_t AddRandomBox( spWorldId world, Mirror* m, Rng* rng, float size );

/// Switch the mirror's box i between static and moving, in the world and the mirror. Returns 0, or 1 (with a
/// message) if the world refused.
int SetMirrorBoxStatic( spWorldId world, Mirror* m, int i, bool isStatic );

void MirrorInit( Mirror* m, int dimensions );
void MirrorFree( Mirror* m );
void MirrorAdd( Mirror* m, uint32_t id, const float* min, const float* max );
void MirrorSet( Mirror* m, uint32_t id, const float* min, const float* max );
void MirrorRemove( Mirror* m, uint32_t id );
int MirrorFind( const Mirror* m, uint32_t id );

/// True if the oracle pairs boxes i and j of the mirror: overlap on every axis, filters accept each other, and not
/// both static.
int MirrorPairs( const Mirror* m, int i, int j );

/// Brute force: every pair of live boxes that overlap on every axis (closed intervals), as (lower id, higher id),
/// sorted. Returns the count; *out is malloc'd (caller frees).
int BruteForcePairs( const Mirror* m, uint32_t** out );

/// Compare a world's pair list with an expected one; prints the first difference.
int SamePairs( const uint32_t* got, int gotCount, const uint32_t* want, int wantCount, const char* what );

/// Compare a world's pair list, in any order but each pair lower id first, with an expected sorted one.
int SamePairSet( const uint32_t* got, int gotCount, const uint32_t* want, int wantCount, const char* what );

/// pairs in a and not in b (both sorted) into out (room for aCount pairs); returns the count.
int PairsMinus( const uint32_t* a, int aCount, const uint32_t* b, int bCount, uint32_t* out );

/// Full check of a world against the mirror after spWorld_Update: pairs, began and ended.
/// `prev`/`prevCount` hold the oracle's pairs of the previous update and are replaced by the current ones.
int CheckWorld( spWorldId world, const Mirror* m, uint32_t** prev, int* prevCount );
/// CheckWorld for an update with events off: the pairs are brute force's, began and ended are empty.
int CheckWorldWithoutEvents( spWorldId world, const Mirror* m, uint32_t** prev, int* prevCount );

/// Everything a user can observe of a world without calling something that may change it (tests/c/state.c): its
/// sizes, bounds, pair lists, counters, and for each id the test knows about whether it is valid and its box.
typedef struct State
{
	int valid, dimensions, boxes, floatCount;
	size_t byteCount;
	float* bounds;
	int pairCount[3];
	uint32_t* pairs[3];
	spCounters counters;
	uint32_t lastInvalid;
	int idCount;
	uint32_t* ids;	 // the ids the test knows about...
	int* idValid;	 // ...whether each is valid...
	float* idBounds; // ...and what GetBox reads for the valid ones
	int* idResult;	 // ...and what RemoveBox would say is wrong with the others (via IsBoxValid + GetBox)
} State;

/// A malloc'd copy of `bytes` bytes of `p` (one byte more, so a copy of nothing is not null).
void* Dup( const void* p, size_t bytes );
State Capture( spWorldId w, const uint32_t* ids, int idCount );
void Release( State* s );
/// 1 if nothing observable differs (byteCount only when checkBytes: a failed allocation may leave a scratch array
/// larger); otherwise 0, with the first difference printed for `line`.
int SameStateAt( const State* x, const State* y, int line, int checkBytes );
/// Capture the state after a call, compare it with `before` (unless `skip`), and release both.
int SameAfter( State* before, spWorldId w, const uint32_t* ids, int idCount, int skip, int line, int checkBytes );
/// Compare `before` with the world as it is now (nothing released).
int SameAsNow( const State* before, spWorldId w, const uint32_t* ids, int idCount, int line, int checkBytes );

/// Run the failing call between two captures and require that nothing changed.
#define UNCHANGED( w, ids, n, call, expected )                                                                         \
	do                                                                                                                 \
	{                                                                                                                  \
		State before_ = Capture( w, ids, n );                                                                          \
		spResult r_ = ( call );                                                                                        \
		State after_ = Capture( w, ids, n );                                                                           \
		int same_ = SameStateAt( &before_, &after_, __LINE__, 1 );                                                     \
		Release( &before_ );                                                                                           \
		Release( &after_ );                                                                                            \
		if ( r_ != ( expected ) )                                                                                      \
			fprintf( stderr, "%s:%d: %s returned %d (%s)\n", __FILE__, __LINE__, #call, (int)r_,                       \
					 spResultString( r_ ) );                                                                           \
		ENSURE( r_ == ( expected ) );                                                                                  \
		ENSURE( same_ );                                                                                               \
	} while ( 0 )
