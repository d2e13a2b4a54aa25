// SPDX-License-Identifier: MIT
// Private: four-lane primitives, one block per target (wasm SIMD128, SSE2, scalar), so that the kernels that use
// them (validate.c's 2D statistics, sweep.c's 2D sweep, refresh.c's 2D entry pass) are written once. The vector
// targets use the compilers' vector extensions, so the arithmetic is shared and only what has no portable form
// (a mask's bits, writing the hits' pairs) is per instruction set. SP_SIMD=0 (cmake -DSP_SIMD=OFF) selects the
// scalar block on any target; the tests run on that build too. todo: a NEON block (other targets take the scalar one).
//
// spF4: four floats; spM4: four lane masks (all ones or zero); spD2: two doubles. Lane k of a box loaded from the
// slot layout of a 2D world is (min x, min y, max x, max y)[k].
#pragma once

#include "core.h"

#ifndef SP_SIMD
#define SP_SIMD 1
#endif

#if SP_SIMD && defined( __wasm_simd128__ )
#define SP_SIMD_WASM 1
#include <wasm_simd128.h>
#elif SP_SIMD && defined( __SSE2__ ) && ( defined( __clang__ ) || __GNUC__ >= 12 )
#define SP_SIMD_SSE2 1
#include <emmintrin.h>
#endif

#if defined( SP_SIMD_WASM ) || defined( SP_SIMD_SSE2 )

// ---- Vector targets: GCC and Clang vector extensions (__builtin_shufflevector: GCC 12 and later) ----
typedef float spF4 __attribute__( ( vector_size( 16 ) ) );
typedef int32_t spM4 __attribute__( ( vector_size( 16 ) ) );
typedef double spD2 __attribute__( ( vector_size( 16 ) ) );

SP_FORCE_INLINE spF4 spF4Load( const float* p )
{
	spF4 v;
	memcpy( &v, p, sizeof( v ) );
	return v;
}
SP_FORCE_INLINE void spF4Store( float* p, spF4 v )
{
	memcpy( p, &v, sizeof( v ) );
}
SP_FORCE_INLINE spF4 spF4Set( float a, float b, float c, float d )
{
	return ( spF4 ){ a, b, c, d };
}
SP_FORCE_INLINE spF4 spF4Splat( float x )
{
	return ( spF4 ){ x, x, x, x };
}
SP_FORCE_INLINE float spF4Lane( spF4 v, int k )
{
	return v[k];
}
// (x, v0, v1, v2): the lanes moved up by one, x into lane 0
SP_FORCE_INLINE spF4 spF4ShiftIn( float x, spF4 v )
{
	const spF4 xs = { x, x, x, x };
	return __builtin_shufflevector( xs, v, 0, 4, 5, 6 );
}
// (a0, a1, b0, b1) and (a2, a3, b2, b3)
SP_FORCE_INLINE spF4 spF4LowHalves( spF4 a, spF4 b )
{
	return __builtin_shufflevector( a, b, 0, 1, 4, 5 );
}
SP_FORCE_INLINE spF4 spF4HighHalves( spF4 a, spF4 b )
{
	return __builtin_shufflevector( a, b, 2, 3, 6, 7 );
}
// (a0, a2, b0, b2) and (a1, a3, b1, b3)
SP_FORCE_INLINE spF4 spF4Evens( spF4 a, spF4 b )
{
	return __builtin_shufflevector( a, b, 0, 2, 4, 6 );
}
SP_FORCE_INLINE spF4 spF4Odds( spF4 a, spF4 b )
{
	return __builtin_shufflevector( a, b, 1, 3, 5, 7 );
}
// a 2D box in entry layout with x, or y, as the sweep axis: (min x, max x, min y, max y), (min y, max y, min x, max x)
SP_FORCE_INLINE spF4 spF4EntryX( spF4 b )
{
	return __builtin_shufflevector( b, b, 0, 2, 1, 3 );
}
SP_FORCE_INLINE spF4 spF4EntryY( spF4 b )
{
	return __builtin_shufflevector( b, b, 1, 3, 0, 2 );
}
SP_FORCE_INLINE spM4 spF4Le( spF4 a, spF4 b )
{
	return a <= b;
}
SP_FORCE_INLINE spM4 spF4Ge( spF4 a, spF4 b )
{
	return a >= b;
}
SP_FORCE_INLINE spM4 spF4Lt( spF4 a, spF4 b )
{
	return a < b;
}
SP_FORCE_INLINE spM4 spF4Gt( spF4 a, spF4 b )
{
	return a > b;
}
SP_FORCE_INLINE spM4 spF4Eq( spF4 a, spF4 b )
{
	return a == b;
}
// lanes of a where m is set, of b elsewhere
SP_FORCE_INLINE spF4 spF4Select( spM4 m, spF4 a, spF4 b )
{
	return (spF4)( ( (spM4)a & m ) | ( (spM4)b & ~m ) );
}
// a < b ? a : b and a > b ? a : b, lane by lane (so b where either is NaN): one instruction each
SP_FORCE_INLINE spF4 spF4Min( spF4 a, spF4 b )
{
#if defined( SP_SIMD_WASM )
	return (spF4)wasm_f32x4_pmin( (v128_t)b, (v128_t)a );
#else
	return (spF4)_mm_min_ps( (__m128)a, (__m128)b );
#endif
}
SP_FORCE_INLINE spF4 spF4Max( spF4 a, spF4 b )
{
#if defined( SP_SIMD_WASM )
	return (spF4)wasm_f32x4_pmax( (v128_t)b, (v128_t)a );
#else
	return (spF4)_mm_max_ps( (__m128)a, (__m128)b );
#endif
}
SP_FORCE_INLINE spF4 spF4Sub( spF4 a, spF4 b )
{
	return a - b;
}
SP_FORCE_INLINE spF4 spF4Mul( spF4 a, spF4 b )
{
	return a * b;
}
// each lane truncated toward zero; lanes must be within int32's range (no conversion check on any target)
SP_FORCE_INLINE spM4 spF4ToInt( spF4 v )
{
#if defined( SP_SIMD_WASM )
	return (spM4)wasm_i32x4_trunc_sat_f32x4( (v128_t)v );
#else
	return (spM4)_mm_cvttps_epi32( (__m128)v );
#endif
}
SP_FORCE_INLINE int32_t spM4Lane( spM4 m, int k )
{
	return m[k];
}
SP_FORCE_INLINE spM4 spM4Set( int32_t a, int32_t b, int32_t c, int32_t d )
{
	return ( spM4 ){ a, b, c, d };
}
// lane by lane, wrapping (ids and places: never near the wrap)
SP_FORCE_INLINE spM4 spM4Add( spM4 a, spM4 b )
{
	return (spM4)( (uint32_t __attribute__( ( vector_size( 16 ) ) ))a +
				   (uint32_t __attribute__( ( vector_size( 16 ) ) ))b );
}
SP_FORCE_INLINE spM4 spM4Sub( spM4 a, spM4 b )
{
	return (spM4)( (uint32_t __attribute__( ( vector_size( 16 ) ) ))a -
				   (uint32_t __attribute__( ( vector_size( 16 ) ) ))b );
}
SP_FORCE_INLINE spM4 spM4And( spM4 a, spM4 b )
{
	return a & b;
}
SP_FORCE_INLINE spM4 spM4Or( spM4 a, spM4 b )
{
	return a | b;
}
// a & ~b
SP_FORCE_INLINE spM4 spM4AndNot( spM4 a, spM4 b )
{
	return a & ~b;
}
SP_FORCE_INLINE bool spM4All( spM4 m )
{
	return ( m[0] & m[1] & m[2] & m[3] ) != 0;
}
// lanes 0 and 1, and lanes 2 and 3, as doubles
SP_FORCE_INLINE spD2 spD2Low( spF4 v )
{
	return __builtin_convertvector( __builtin_shufflevector( v, v, 0, 1 ), spD2 );
}
SP_FORCE_INLINE spD2 spD2High( spF4 v )
{
	return __builtin_convertvector( __builtin_shufflevector( v, v, 2, 3 ), spD2 );
}
SP_FORCE_INLINE spD2 spD2Splat( double x )
{
	return ( spD2 ){ x, x };
}
SP_FORCE_INLINE spD2 spD2Add( spD2 a, spD2 b )
{
	return a + b;
}
SP_FORCE_INLINE spD2 spD2Sub( spD2 a, spD2 b )
{
	return a - b;
}
SP_FORCE_INLINE spD2 spD2Mul( spD2 a, spD2 b )
{
	return a * b;
}
SP_FORCE_INLINE double spD2Lane( spD2 v, int k )
{
	return v[k];
}

#else

// ---- Scalar: the same primitives, a lane at a time ----
typedef struct spF4
{
	float v[4];
} spF4;
typedef struct spM4
{
	int32_t v[4];
} spM4;
typedef struct spD2
{
	double v[2];
} spD2;

SP_FORCE_INLINE spF4 spF4Load( const float* p )
{
	spF4 r;
	memcpy( r.v, p, sizeof( r.v ) );
	return r;
}
SP_FORCE_INLINE void spF4Store( float* p, spF4 v )
{
	memcpy( p, v.v, sizeof( v.v ) );
}
SP_FORCE_INLINE spF4 spF4Set( float a, float b, float c, float d )
{
	spF4 r = { { a, b, c, d } };
	return r;
}
SP_FORCE_INLINE spF4 spF4Splat( float x )
{
	return spF4Set( x, x, x, x );
}
SP_FORCE_INLINE float spF4Lane( spF4 v, int k )
{
	return v.v[k];
}
SP_FORCE_INLINE spF4 spF4ShiftIn( float x, spF4 v )
{
	return spF4Set( x, v.v[0], v.v[1], v.v[2] );
}
SP_FORCE_INLINE spF4 spF4LowHalves( spF4 a, spF4 b )
{
	return spF4Set( a.v[0], a.v[1], b.v[0], b.v[1] );
}
SP_FORCE_INLINE spF4 spF4HighHalves( spF4 a, spF4 b )
{
	return spF4Set( a.v[2], a.v[3], b.v[2], b.v[3] );
}
SP_FORCE_INLINE spF4 spF4Evens( spF4 a, spF4 b )
{
	return spF4Set( a.v[0], a.v[2], b.v[0], b.v[2] );
}
SP_FORCE_INLINE spF4 spF4Odds( spF4 a, spF4 b )
{
	return spF4Set( a.v[1], a.v[3], b.v[1], b.v[3] );
}
SP_FORCE_INLINE spF4 spF4EntryX( spF4 b )
{
	return spF4Set( b.v[0], b.v[2], b.v[1], b.v[3] );
}
SP_FORCE_INLINE spF4 spF4EntryY( spF4 b )
{
	return spF4Set( b.v[1], b.v[3], b.v[0], b.v[2] );
}
#define SP_SCALAR_COMPARE( name, op )                                                                                  \
	SP_FORCE_INLINE spM4 name( spF4 a, spF4 b )                                                                        \
	{                                                                                                                  \
		spM4 r;                                                                                                        \
		for ( int k = 0; k < 4; ++k )                                                                                  \
			r.v[k] = a.v[k] op b.v[k] ? -1 : 0;                                                                        \
		return r;                                                                                                      \
	}
SP_SCALAR_COMPARE( spF4Le, <= )
SP_SCALAR_COMPARE( spF4Ge, >= )
SP_SCALAR_COMPARE( spF4Lt, < )
SP_SCALAR_COMPARE( spF4Gt, > )
SP_SCALAR_COMPARE( spF4Eq, == )
#undef SP_SCALAR_COMPARE
SP_FORCE_INLINE spF4 spF4Select( spM4 m, spF4 a, spF4 b )
{
	spF4 r;
	for ( int k = 0; k < 4; ++k )
		r.v[k] = m.v[k] != 0 ? a.v[k] : b.v[k];
	return r;
}
SP_FORCE_INLINE spF4 spF4Min( spF4 a, spF4 b )
{
	return spF4Set( a.v[0] < b.v[0] ? a.v[0] : b.v[0], a.v[1] < b.v[1] ? a.v[1] : b.v[1],
					a.v[2] < b.v[2] ? a.v[2] : b.v[2], a.v[3] < b.v[3] ? a.v[3] : b.v[3] );
}
SP_FORCE_INLINE spF4 spF4Max( spF4 a, spF4 b )
{
	return spF4Set( a.v[0] > b.v[0] ? a.v[0] : b.v[0], a.v[1] > b.v[1] ? a.v[1] : b.v[1],
					a.v[2] > b.v[2] ? a.v[2] : b.v[2], a.v[3] > b.v[3] ? a.v[3] : b.v[3] );
}
SP_FORCE_INLINE spF4 spF4Sub( spF4 a, spF4 b )
{
	return spF4Set( a.v[0] - b.v[0], a.v[1] - b.v[1], a.v[2] - b.v[2], a.v[3] - b.v[3] );
}
SP_FORCE_INLINE spF4 spF4Mul( spF4 a, spF4 b )
{
	return spF4Set( a.v[0] * b.v[0], a.v[1] * b.v[1], a.v[2] * b.v[2], a.v[3] * b.v[3] );
}
SP_FORCE_INLINE spM4 spF4ToInt( spF4 v )
{
	spM4 r = { { (int32_t)v.v[0], (int32_t)v.v[1], (int32_t)v.v[2], (int32_t)v.v[3] } };
	return r;
}
SP_FORCE_INLINE int32_t spM4Lane( spM4 m, int k )
{
	return m.v[k];
}
SP_FORCE_INLINE spM4 spM4Set( int32_t a, int32_t b, int32_t c, int32_t d )
{
	spM4 r = { { a, b, c, d } };
	return r;
}
SP_FORCE_INLINE spM4 spM4Add( spM4 a, spM4 b )
{
	return spM4Set( (int32_t)( (uint32_t)a.v[0] + (uint32_t)b.v[0] ), (int32_t)( (uint32_t)a.v[1] + (uint32_t)b.v[1] ),
					(int32_t)( (uint32_t)a.v[2] + (uint32_t)b.v[2] ),
					(int32_t)( (uint32_t)a.v[3] + (uint32_t)b.v[3] ) );
}
SP_FORCE_INLINE spM4 spM4Sub( spM4 a, spM4 b )
{
	return spM4Set( (int32_t)( (uint32_t)a.v[0] - (uint32_t)b.v[0] ), (int32_t)( (uint32_t)a.v[1] - (uint32_t)b.v[1] ),
					(int32_t)( (uint32_t)a.v[2] - (uint32_t)b.v[2] ),
					(int32_t)( (uint32_t)a.v[3] - (uint32_t)b.v[3] ) );
}
SP_FORCE_INLINE spM4 spM4And( spM4 a, spM4 b )
{
	return spM4Set( a.v[0] & b.v[0], a.v[1] & b.v[1], a.v[2] & b.v[2], a.v[3] & b.v[3] );
}
SP_FORCE_INLINE spM4 spM4Or( spM4 a, spM4 b )
{
	return spM4Set( a.v[0] | b.v[0], a.v[1] | b.v[1], a.v[2] | b.v[2], a.v[3] | b.v[3] );
}
SP_FORCE_INLINE spM4 spM4AndNot( spM4 a, spM4 b )
{
	return spM4Set( a.v[0] & ~b.v[0], a.v[1] & ~b.v[1], a.v[2] & ~b.v[2], a.v[3] & ~b.v[3] );
}
SP_FORCE_INLINE bool spM4All( spM4 m )
{
	return ( m.v[0] & m.v[1] & m.v[2] & m.v[3] ) != 0;
}
SP_FORCE_INLINE spD2 spD2Set( double a, double b )
{
	spD2 r = { { a, b } };
	return r;
}
SP_FORCE_INLINE spD2 spD2Low( spF4 v )
{
	return spD2Set( (double)v.v[0], (double)v.v[1] );
}
SP_FORCE_INLINE spD2 spD2High( spF4 v )
{
	return spD2Set( (double)v.v[2], (double)v.v[3] );
}
SP_FORCE_INLINE spD2 spD2Splat( double x )
{
	return spD2Set( x, x );
}
SP_FORCE_INLINE spD2 spD2Add( spD2 a, spD2 b )
{
	return spD2Set( a.v[0] + b.v[0], a.v[1] + b.v[1] );
}
SP_FORCE_INLINE spD2 spD2Sub( spD2 a, spD2 b )
{
	return spD2Set( a.v[0] - b.v[0], a.v[1] - b.v[1] );
}
SP_FORCE_INLINE spD2 spD2Mul( spD2 a, spD2 b )
{
	return spD2Set( a.v[0] * b.v[0], a.v[1] * b.v[1] );
}
SP_FORCE_INLINE double spD2Lane( spD2 v, int k )
{
	return v.v[k];
}

#endif

// ---- Four int32 lanes to memory, and one value in all four (either layout of spM4: 16 bytes) ----
SP_FORCE_INLINE void spM4Store( int32_t* p, spM4 v )
{
	memcpy( p, &v, sizeof( v ) );
}
SP_FORCE_INLINE spM4 spM4Splat( int32_t x )
{
	return spM4Set( x, x, x, x );
}

// ---- A mask's lanes as four bits (lane 0 lowest) ----
#if defined( SP_SIMD_WASM )
SP_FORCE_INLINE int spM4Bits( spM4 m )
{
	return (int)wasm_i32x4_bitmask( (v128_t)m ); // 0 to 15
}
#elif defined( SP_SIMD_SSE2 )
SP_FORCE_INLINE int spM4Bits( spM4 m )
{
	return _mm_movemask_ps( (__m128)m );
}
#else
SP_FORCE_INLINE int spM4Bits( spM4 m )
{
	return ( m.v[0] & 1 ) | ( m.v[1] & 2 ) | ( m.v[2] & 4 ) | ( m.v[3] & 8 );
}
#endif

// The lanes set in a 4-bit mask: i32.popcnt in wasm; elsewhere a table of 16 bytes (one load), unless the target has a
// popcount instruction (x86-64's baseline has none, and __builtin_popcount is then a call into libgcc).
#if defined( __wasm__ ) || defined( __POPCNT__ ) || defined( __ARM_NEON )
SP_FORCE_INLINE int spLaneCount( int bits )
{
	return __builtin_popcount( (unsigned)bits );
}
#else
static const uint8_t spLaneCounts[16] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4 };
SP_FORCE_INLINE int spLaneCount( int bits )
{
	return spLaneCounts[bits];
}
#endif

// ---- The pairs (i, j + k) of the lanes k set in `bits`, packed first, from base = (i, j, i, j): four pairs
// written at `out` (eight uint32 values, lane 0's pair first); the caller advances by spLaneCount(bits) ----
#if defined( SP_SIMD_WASM ) || defined( SP_SIMD_SSE2 )
// For each 4-bit mask, the offsets from (i, j) of the pairs of the lanes whose bit is set, in order (then (0, 0),
// never counted): two vectors of two pairs.
static const int32_t spHitPairs[16][8] __attribute__( ( aligned( 16 ) ) ) = {
	{ 0, 0, 0, 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0, 0, 0, 0 }, { 0, 1, 0, 0, 0, 0, 0, 0 }, { 0, 0, 0, 1, 0, 0, 0, 0 },
	{ 0, 2, 0, 0, 0, 0, 0, 0 }, { 0, 0, 0, 2, 0, 0, 0, 0 }, { 0, 1, 0, 2, 0, 0, 0, 0 }, { 0, 0, 0, 1, 0, 2, 0, 0 },
	{ 0, 3, 0, 0, 0, 0, 0, 0 }, { 0, 0, 0, 3, 0, 0, 0, 0 }, { 0, 1, 0, 3, 0, 0, 0, 0 }, { 0, 0, 0, 1, 0, 3, 0, 0 },
	{ 0, 2, 0, 3, 0, 0, 0, 0 }, { 0, 0, 0, 2, 0, 3, 0, 0 }, { 0, 1, 0, 2, 0, 3, 0, 0 }, { 0, 0, 0, 1, 0, 2, 0, 3 },
};

// four pairs written as two vectors: the table's offsets plus (i, j, i, j); no shuffle, and no store per value
SP_FORCE_INLINE void spStoreHits( uint32_t* out, spM4 base, int bits )
{
	spM4 low, high;
	memcpy( &low, spHitPairs[bits], sizeof( low ) );
	memcpy( &high, spHitPairs[bits] + 4, sizeof( high ) );
	low = spM4Add( low, base );
	high = spM4Add( high, base );
	memcpy( out, &low, sizeof( low ) );
	memcpy( out + 4, &high, sizeof( high ) );
}
#else
// For each 4-bit mask, the lanes whose bit is set, in order (then lane 0, never counted).
static const uint8_t spHitOrder[16][4] = {
	{ 0, 0, 0, 0 }, { 0, 0, 0, 0 }, { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 2, 0, 0, 0 }, { 0, 2, 0, 0 },
	{ 1, 2, 0, 0 }, { 0, 1, 2, 0 }, { 3, 0, 0, 0 }, { 0, 3, 0, 0 }, { 1, 3, 0, 0 }, { 0, 1, 3, 0 },
	{ 2, 3, 0, 0 }, { 0, 2, 3, 0 }, { 1, 2, 3, 0 }, { 0, 1, 2, 3 },
};

// the same, a value at a time: four pairs written, the hits' first; base is (i, j, i, j)
SP_FORCE_INLINE void spStoreHits( uint32_t* out, spM4 base, int bits )
{
	const uint8_t* hits = spHitOrder[bits];
	for ( int q = 0; q < 4; ++q )
	{
		out[2 * q] = (uint32_t)base.v[0];
		out[2 * q + 1] = (uint32_t)base.v[1] + hits[q];
	}
}
#endif
