// SPDX-License-Identifier: MIT
// The C engine on the scenes of tests/bench/scenes.mjs (same generator, same seeds, same float32 boxes), built
// natively (gcc) and as wasm (emcc, run in Node), so the two builds of the same C can be compared:
//   sp_bench [filter] [maxN]      e.g. sp_bench one-shot 100000
//   sp_bench [filter] [maxN] [minN]  sizes from minN to maxN only
// Instruction counts (hardware counters are not available on these machines): tests/bench/bench-c.sh runs one size
// of a workload under callgrind, counting only inside spWorld_Update, and divides by the updates this program made
// (printed last, to stderr). Where the instructions go:
//   valgrind --tool=callgrind --callgrind-out-file=build/cg.out build/bench-native/sp_bench motion 100000 100000
//   callgrind_annotate build/cg.out | head -30
// SP_BENCH_EVENTS=0 runs the motion workloads with events off (the pairs only).
#define _POSIX_C_SOURCE 199309L // clock_gettime
#include "sweep_prune/sweep_prune.h"
#include "box_pruning.h"
#include "pool_threads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define K 100.0

static double Now( void )
{
	struct timespec t;
	clock_gettime( CLOCK_MONOTONIC, &t );
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

typedef struct Rng
{
	uint32_t a;
} Rng;

// mulberry32, as scenes.mjs
static double Next( Rng* r )
{
	r->a += 0x6d2b79f5u;
	uint32_t t = r->a;
	t = ( t ^ ( t >> 15 ) ) * ( t | 1u );
	t ^= t + ( t ^ ( t >> 7 ) ) * ( t | 61u );
	return (double)( t ^ ( t >> 14 ) ) / 4294967296.0;
}

static double Side( int n, int d )
{
	return K * pow( (double)n, 1.0 / d );
}

static float* Uniform( int n, int d, uint32_t seed, uint32_t placeSeed )
{
	Rng rnd = { seed }, place = { placeSeed };
	double L = Side( n, d );
	float* b = malloc( sizeof( float ) * 2 * (size_t)d * (size_t)n );
	for ( int i = 0; i < n; ++i )
	{
		for ( int a = 0; a < d; ++a )
		{
			double size = 2 * K * ( 0.05 + 0.95 * Next( &rnd ) );
			double lo = Next( &place ) * ( L - size );
			b[(size_t)i * 2 * d + a] = (float)lo;
			b[(size_t)i * 2 * d + d + a] = (float)( lo + size );
		}
	}
	return b;
}

static float* Clustered( int n, uint32_t seed, uint32_t placeSeed )
{
	Rng rnd = { seed }, place = { placeSeed };
	double L = Side( n, 2 );
	int clusters = ( n + 499 ) / 500;
	double* centers = malloc( sizeof( double ) * 2 * (size_t)clusters );
	for ( int c = 0; c < 2 * clusters; ++c )
		centers[c] = Next( &place ) * L;
	float* b = malloc( sizeof( float ) * 4 * (size_t)n );
	for ( int i = 0; i < n; ++i )
	{
		int c = i % clusters;
		for ( int a = 0; a < 2; ++a )
		{
			double size = 2 * K * ( 0.05 + 0.95 * Next( &rnd ) );
			double u = Next( &place );
			u += Next( &place );
			u += Next( &place );
			double lo = centers[2 * c + a] + ( u - 1.5 ) * 8 * K;
			b[(size_t)i * 4 + a] = (float)lo;
			b[(size_t)i * 4 + 2 + a] = (float)( lo + size );
		}
	}
	free( centers );
	return b;
}

static int Overlap( const float* b, int i, int j, int d )
{
	const float* p = b + (size_t)i * 2 * d;
	const float* q = b + (size_t)j * 2 * d;
	for ( int a = 0; a < d; ++a )
		if ( p[a] > q[d + a] || q[a] > p[d + a] )
			return 0;
	return 1;
}

typedef struct Entry
{
	uint64_t key;
	int box;
} Entry;

static int CompareEntries( const void* x, const void* y )
{
	const Entry* p = x;
	const Entry* q = y;
	return p->key < q->key ? -1 : p->key > q->key ? 1 : p->box - q->box;
}

// Oracle: brute force for small n; otherwise a grid with cells larger than any box, each pair counted in the cell
// holding the corner made of the larger mins (as gridCount in scenes.mjs). Shares no code with the engine.
static long long OracleCount( const float* b, int n, int d )
{
	long long count = 0;
	if ( n <= 5000 )
	{
		for ( int i = 0; i < n; ++i )
			for ( int j = i + 1; j < n; ++j )
				count += Overlap( b, i, j, d );
		return count;
	}
	double cell = 0;
	for ( int i = 0; i < n; ++i )
		for ( int a = 0; a < d; ++a )
		{
			double w = (double)b[(size_t)i * 2 * d + d + a] - b[(size_t)i * 2 * d + a];
			cell = w > cell ? w : cell;
		}
	cell = cell * 1.001 + 1e-9;
	Entry* e = malloc( sizeof( Entry ) * ( (size_t)n << d ) );
	size_t m = 0;
	for ( int i = 0; i < n; ++i )
	{
		int lo[4], hi[4];
		for ( int a = 0; a < d; ++a )
		{
			lo[a] = (int)floor( b[(size_t)i * 2 * d + a] / cell );
			hi[a] = (int)floor( b[(size_t)i * 2 * d + d + a] / cell );
		}
		for ( int mask = 0; mask < 1 << d; ++mask )
		{
			uint64_t key = 0;
			int skip = 0;
			for ( int a = d - 1; a >= 0; --a )
			{
				int c = ( mask >> a ) & 1 ? hi[a] : lo[a];
				skip |= ( ( mask >> a ) & 1 ) && hi[a] == lo[a];
				key = key * 4096 + (uint64_t)( c + 2048 );
			}
			if ( !skip )
				e[m++] = ( Entry ){ key, i };
		}
	}
	qsort( e, m, sizeof( Entry ), CompareEntries );
	for ( size_t s = 0; s < m; )
	{
		size_t t = s;
		while ( t < m && e[t].key == e[s].key )
			++t;
		for ( size_t x = s; x < t; ++x )
			for ( size_t y = x + 1; y < t; ++y )
			{
				int i = e[x].box, j = e[y].box;
				if ( !Overlap( b, i, j, d ) )
					continue;
				uint64_t key = 0;
				for ( int a = d - 1; a >= 0; --a )
				{
					float lo = b[(size_t)i * 2 * d + a] > b[(size_t)j * 2 * d + a] ? b[(size_t)i * 2 * d + a]
																				   : b[(size_t)j * 2 * d + a];
					key = key * 4096 + (uint64_t)( (int)floor( lo / cell ) + 2048 );
				}
				count += key == e[s].key;
			}
		s = t;
	}
	free( e );
	return count;
}

static void Check( spResult r, const char* what )
{
	if ( r != sp_resultOk )
	{
		fprintf( stderr, "%s: %s\n", what, spResultString( r ) );
		exit( 1 );
	}
}

// spWorld_Update calls made, for instructions per update under callgrind
static long long updates;

static spWorldId MakeWorld( const float* b, int n, int d )
{
	spWorldDef def = spDefaultWorldDef();
	def.dimensions = d;
	def.capacity = n;
	spWorldId w;
	Check( spCreateWorld( &def, &w ), "create" );
	for ( int i = 0; i < n; ++i )
	{
		spBoxId id;
		Check( spWorld_AddBox( w, b + (size_t)i * 2 * d, b + (size_t)i * 2 * d + d, &id ), "add" );
	}
	Check( spWorld_Update( w ), "update" );
	++updates;
	return w;
}

// One frame: every box moved by one copy into the bounds array (slots are consecutive), then the update.
static int Frame( spWorldId w, const float* b, int n, int d, int* events )
{
	int floats;
	float* bounds = spWorld_GetBounds( w, &floats );
	memcpy( bounds, b, sizeof( float ) * 2 * (size_t)d * (size_t)n );
	Check( spWorld_Update( w ), "update" );
	++updates;
	int count, began, ended;
	spWorld_GetPairs( w, &count );
	spWorld_GetBeganPairs( w, &began );
	spWorld_GetEndedPairs( w, &ended );
	*events += began + ended;
	return count;
}

static int CompareDoubles( const void* x, const void* y )
{
	double p = *(const double*)x, q = *(const double*)y;
	return p < q ? -1 : p > q;
}

static void Report( const char* workload, int n, int d, double* t, int runs, long long pairs, spWorldId w )
{
	double mean = 0, var = 0;
	for ( int i = 0; i < runs; ++i )
		mean += t[i] / runs;
	for ( int i = 0; i < runs; ++i )
		var += ( t[i] - mean ) * ( t[i] - mean ) / runs;
	qsort( t, (size_t)runs, sizeof( double ), CompareDoubles );
	spCounters c = spWorld_GetCounters( w );
	printf(
		"%-22s n=%-8d %dD  median %9.3f ms  mean %9.3f ± %7.3f  min %9.3f  (%d runs)  pairs %lld  slabs %d  tests %d  "
		"swaps %d  %.0f bytes/box\n",
		workload, n, d, t[runs / 2], mean, sqrt( var ), t[0], runs, pairs, c.slabs, c.overlapTests, c.swaps,
		(double)spWorld_GetByteCount( w ) / n );
	fflush( stdout );
}

typedef float* SceneFcn( int n, int d, uint32_t seed, uint32_t placeSeed );

static float* UniformScene( int n, int d, uint32_t seed, uint32_t placeSeed )
{
	return Uniform( n, d, seed, placeSeed );
}

static float* ClusteredScene( int n, int d, uint32_t seed, uint32_t placeSeed )
{
	(void)d;
	return Clustered( n, seed, placeSeed );
}

// Every timed run moves every box to a fresh random place (the same boxes in two arrangements, alternating).
static void OneShot( const char* workload, int n, int d, SceneFcn* make )
{
	float* scenes[2] = { make( n, d, 1, 1001 ), make( n, d, 1, 1002 ) };
	long long expected[2] = { OracleCount( scenes[0], n, d ), OracleCount( scenes[1], n, d ) };
	int runs = n <= 1000 ? 21 : n <= 10000 ? 11 : n <= 100000 ? 7 : 5;
	spWorldId w = MakeWorld( scenes[1], n, d );
	double t[32];
	int events = 0;
	for ( int r = 0; r <= runs; ++r )
	{
		double t0 = Now();
		int count = Frame( w, scenes[r & 1 ? 1 : 0], n, d, &events );
		double t1 = Now();
		if ( count != expected[r & 1 ? 1 : 0] )
		{
			fprintf( stderr, "%s n=%d: %d pairs, oracle %lld\n", workload, n, count, expected[r & 1 ? 1 : 0] );
			exit( 1 );
		}
		if ( r > 0 )
			t[r - 1] = t1 - t0;
	}
	Report( workload, n, d, t, runs, expected[0], w );
	spDestroyWorld( w );
	free( scenes[0] );
	free( scenes[1] );
}

// c/src/results.c: ms per phase of a world's updates since the last call (the benchmark's engine is built with
// SP_PHASE_TIMES; 0 phases otherwise)
int spTakePhaseTimes( spWorldId id, double* out );
#define PHASES 6
static const char* const phaseNames[PHASES] = { "validate", "statics", "index", "sweep", "static pairs", "pair lists" };

// Coherent motion, as Motion in scenes.mjs; reports the mean per frame over 60 frames as the median column too.
static void Motion( int n, int d )
{
	float* b = Uniform( n, d, 7, 1007 );
	double L = Side( n, d );
	Rng rnd = { 7u ^ 0x9e3779b9u };
	double* vel = malloc( sizeof( double ) * (size_t)n * d );
	for ( int i = 0; i < n * d; ++i )
		vel[i] = ( 2 * Next( &rnd ) - 1 ) * 0.02 * 2 * K;
	spWorldId w = MakeWorld( b, n, d );
	// SP_BENCH_EVENTS=0: the pairs only, no began and ended lists (spWorld_SetEvents)
	const char* eventsOn = getenv( "SP_BENCH_EVENTS" );
	if ( eventsOn != NULL && strcmp( eventsOn, "0" ) == 0 )
		Check( spWorld_SetEvents( w, false ), "events" );
	enum
	{
		frames = 60
	};
	double t[frames];
	int events = 0;
	long long last = 0;
	// the phases of the frames below only (the set-up update's taken off)
	double phases[PHASES] = { 0 }, setUp[PHASES];
	spTakePhaseTimes( w, setUp );
	for ( int f = 0; f < frames; ++f )
	{
		for ( int i = 0; i < n; ++i )
			for ( int a = 0; a < d; ++a )
			{
				float* p = b + (size_t)i * 2 * d + a;
				double size = (double)p[d] - (double)p[0];
				double lo = (double)p[0] + vel[i * d + a];
				if ( lo < 0 || lo + size > L )
				{
					vel[i * d + a] = -vel[i * d + a];
					lo = (double)p[0] + vel[i * d + a];
				}
				p[0] = (float)lo;
				p[d] = (float)( lo + size );
			}
		double t0 = Now();
		last = Frame( w, b, n, d, &events );
		t[f] = Now() - t0;
		double p[PHASES] = { 0 };
		spTakePhaseTimes( w, p );
		for ( int k = 0; k < PHASES; ++k )
			phases[k] += p[k] / frames;
		if ( f == 0 || f == frames - 1 )
		{
			long long o = OracleCount( b, n, d );
			if ( o != last )
			{
				fprintf( stderr, "motion n=%d frame %d: %lld pairs, oracle %lld\n", n, f, last, o );
				exit( 1 );
			}
		}
	}
	double mean = 0;
	for ( int f = 0; f < frames; ++f )
		mean += t[f] / frames;
	Report( "motion (per frame)", n, d, t, frames, last, w );
	printf( "%-22s n=%-8d %dD  mean per frame %9.3f ms, %d began+ended events in 60 frames\n", "", n, d, mean, events );
	// where the frame goes (the phases of spUpdateWorld, update.c; the refresh's merge runs in the sweep's)
	printf( "%-22s n=%-8d %dD  phases, mean ms per frame:", "", n, d );
	for ( int k = 0; k < PHASES; ++k )
		if ( phases[k] > 0.0005 )
			printf( "  %s %.3f", phaseNames[k], phases[k] );
	printf( "\n" );
	spDestroyWorld( w );
	free( vel );
	free( b );
}

// Cold start: from nothing to the first pairs. Ours: create a world, add every box with one spWorld_AddBoxes, one
// update. The reference: the textbook box pruning (box_pruning.c), its pair array grown from nothing. They take
// turns, each first in every other round (so neither always runs on the caches the other left); freeing is not
// timed for either.
static spWorldId ColdStartOnce( const float* b, int n, int d, spBoxId* ids, int* count )
{
	spWorldDef def = spDefaultWorldDef();
	def.dimensions = d;
	spWorldId w;
	Check( spCreateWorld( &def, &w ), "create" );
	// all pairs once: no began and ended lists to make (boxIntersect's worlds do the same)
	Check( spWorld_SetEvents( w, false ), "events" );
	Check( spWorld_AddBoxes( w, b, n, ids ), "add boxes" );
	Check( spWorld_Update( w ), "update" );
	spWorld_GetPairs( w, count );
	return w;
}

static void ColdStart( int n, int d )
{
	float* b = Uniform( n, d, 1, 1001 );
	long long expected = OracleCount( b, n, d );
	int runs = n <= 10000 ? 21 : n <= 100000 ? 9 : 5;
	// untimed rounds first: V8 runs a wasm function on its baseline code until it has been called enough, and each
	// of the engine's many functions gets there on its own (the reference is one function)
	const int warm = n <= 10000 ? 40 : 1;
	double ours[32], reference[32], ratios[32];
	spBoxId* ids = malloc( sizeof( spBoxId ) * (size_t)n );
	spWorldId last = { 0 };
	for ( int r = 1 - warm; r <= runs; ++r )
	{
		double tOurs = 0, tReference = 0;
		int count = 0, refCount = 0;
		for ( int turn = 0; turn < 2; ++turn )
		{
			if ( ( turn == 0 ) == ( ( r & 1 ) == 0 ) )
			{
				double t0 = Now();
				spWorldId w = ColdStartOnce( b, n, d, ids, &count );
				tOurs = Now() - t0;
				++updates;
				// the last world is kept for the report's counters
				if ( r == runs )
					last = w;
				else
					spDestroyWorld( w );
			}
			else
			{
				uint32_t* pairs = NULL;
				int capacity = 0;
				double t0 = Now();
				refCount = BoxPruning( b, n, d, &pairs, &capacity );
				tReference = Now() - t0;
				free( pairs );
			}
		}
		if ( count != expected || refCount != expected )
		{
			fprintf( stderr, "cold start n=%d: %d pairs, reference %d, oracle %lld\n", n, count, refCount, expected );
			exit( 1 );
		}
		if ( r > 0 )
		{
			ours[r - 1] = tOurs;
			reference[r - 1] = tReference;
			ratios[r - 1] = tReference / tOurs;
		}
	}
	Report( d == 2 ? "cold start 2D" : "cold start 3D", n, d, ours, runs, expected, last );
	spDestroyWorld( last );
	// the ratio of each run's two times, side by side, is steadier than the ratio of the medians on a busy machine
	qsort( reference, (size_t)runs, sizeof( double ), CompareDoubles );
	qsort( ratios, (size_t)runs, sizeof( double ), CompareDoubles );
	printf( "%-22s n=%-8d %dD  box pruning reference %9.3f ms (med of %d): %.2fx sweep-prune's time (run by run: "
			"%.2fx, lowest %.2fx)\n",
			"", n, d, reference[runs / 2], runs, reference[runs / 2] / ours[runs / 2], ratios[runs / 2], ratios[0] );
	fflush( stdout );
	free( ids );
	free( b );
}

// ---- threads: the same frames on a world with no pool and on one with a pool of 2 threads (pthreads) ----

typedef struct ThreadRuns
{
	double one[64], two[64], ratio[64];
	double phasesOne[PHASES], phasesTwo[PHASES];
	int runs;
} ThreadRuns;

// One frame on both worlds (which goes first alternates), timed, pair counts checked equal.
static void ThreadFrame( spWorldId w1, spWorldId w2, const float* b, int n, int d, ThreadRuns* r, int timed )
{
	double t[2];
	int counts[2], events = 0;
	for ( int k = 0; k < 2; ++k )
	{
		const int which = ( k + r->runs ) & 1;
		const double t0 = Now();
		counts[which] = Frame( which ? w2 : w1, b, n, d, &events );
		t[which] = Now() - t0;
	}
	if ( counts[0] != counts[1] )
	{
		fprintf( stderr, "threads n=%d: %d pairs on one thread, %d on two\n", n, counts[0], counts[1] );
		exit( 1 );
	}
	double p1[PHASES] = { 0 }, p2[PHASES] = { 0 };
	spTakePhaseTimes( w1, p1 );
	spTakePhaseTimes( w2, p2 );
	if ( !timed || r->runs == 64 )
		return;
	r->one[r->runs] = t[0];
	r->two[r->runs] = t[1];
	r->ratio[r->runs] = t[0] / t[1];
	for ( int k = 0; k < PHASES; ++k )
	{
		r->phasesOne[k] += p1[k];
		r->phasesTwo[k] += p2[k];
	}
	r->runs += 1;
}

static void ThreadReport( const char* workload, int n, ThreadRuns* r )
{
	printf( "%-22s n=%-8d %d frames; 1 thread's time over 2 threads', run by run:", workload, n, r->runs );
	for ( int k = 0; k < r->runs; ++k )
		printf( " %.2f", r->ratio[k] );
	double one[64], two[64];
	memcpy( one, r->one, sizeof( one ) );
	memcpy( two, r->two, sizeof( two ) );
	qsort( one, (size_t)r->runs, sizeof( double ), CompareDoubles );
	qsort( two, (size_t)r->runs, sizeof( double ), CompareDoubles );
	qsort( r->ratio, (size_t)r->runs, sizeof( double ), CompareDoubles );
	printf( "\n%-22s n=%-8d median ratio %.2fx (1 thread %.3f ms, 2 threads %.3f ms)\n", "", n, r->ratio[r->runs / 2],
			one[r->runs / 2], two[r->runs / 2] );
	// Per phase, the ms per frame on each, and the serial fraction of the phase measured on 2 threads (Karp-Flatt:
	// e = 2 * T2 / T1 - 1, 0 when it halves, 1 when it does not speed up at all)
	double t1 = 0, t2 = 0;
	for ( int k = 0; k < PHASES; ++k )
	{
		t1 += r->phasesOne[k];
		t2 += r->phasesTwo[k];
	}
	if ( t1 <= 0 )
		return;
	printf( "%-22s phase ms/frame (1 thread / 2 threads, serial fraction):", "" );
	for ( int k = 0; k < PHASES; ++k )
	{
		const double a = r->phasesOne[k] / r->runs, b = r->phasesTwo[k] / r->runs;
		printf( "  %s %.3f / %.3f (%.2f)", phaseNames[k], a, b, a > 0 ? 2 * b / a - 1 : 0.0 );
	}
	// Amdahl with the frame's measured serial fraction e: N cores give 1 / (e + (1 - e) / N)
	double e = 2 * t2 / t1 - 1;
	e = e < 0 ? 0 : e > 1 ? 1 : e;
	printf( "\n%-22s serial fraction of the frame %.3f: Amdahl estimate %.2fx on 4 cores, %.2fx on 8, %.2fx on 16\n",
			"", e, 1 / ( e + ( 1 - e ) / 4 ), 1 / ( e + ( 1 - e ) / 8 ), 1 / ( e + ( 1 - e ) / 16 ) );
	fflush( stdout );
}

static spWorldId PooledWorld( const float* b, int n, int d, PoolThreads* pool )
{
	spWorldId w = MakeWorld( b, n, d );
	Check( spWorld_SetPool( w, PoolOf( pool ) ), "set pool" );
	return w;
}

static void ThreadsMotion( int n, int d, PoolThreads* pool, int minBoxes )
{
	float* b = Uniform( n, d, 7, 1007 );
	double L = Side( n, d );
	Rng rnd = { 7u ^ 0x9e3779b9u };
	double* vel = malloc( sizeof( double ) * (size_t)n * d );
	for ( int i = 0; i < n * d; ++i )
		vel[i] = ( 2 * Next( &rnd ) - 1 ) * 0.02 * 2 * K;
	spWorldId w1 = MakeWorld( b, n, d ), w2 = PooledWorld( b, n, d, pool );
	Check( spWorld_SetParallelMinBoxes( w2, minBoxes ), "set parallel min boxes" );
	ThreadRuns r = { 0 };
	const int frames = n >= 1000000 ? 16 : n >= 100000 ? 40 : 60;
	for ( int f = 0; f < frames + 4; ++f )
	{
		for ( int i = 0; i < n; ++i )
			for ( int a = 0; a < d; ++a )
			{
				float* p = b + (size_t)i * 2 * d + a;
				double size = (double)p[d] - (double)p[0];
				double lo = (double)p[0] + vel[i * d + a];
				if ( lo < 0 || lo + size > L )
				{
					vel[i * d + a] = -vel[i * d + a];
					lo = (double)p[0] + vel[i * d + a];
				}
				p[0] = (float)lo;
				p[d] = (float)( lo + size );
			}
		ThreadFrame( w1, w2, b, n, d, &r, f >= 4 );
	}
	ThreadReport( "threads motion 2D", n, &r );
	spDestroyWorld( w1 );
	spDestroyWorld( w2 );
	free( vel );
	free( b );
}

static void ThreadsOneShot( int n, int d, PoolThreads* pool )
{
	float* scenes[2] = { Uniform( n, d, 1, 1001 ), Uniform( n, d, 1, 1002 ) };
	spWorldId w1 = MakeWorld( scenes[1], n, d ), w2 = PooledWorld( scenes[1], n, d, pool );
	ThreadRuns r = { 0 };
	for ( int f = 0; f < 8; ++f )
		ThreadFrame( w1, w2, scenes[f & 1], n, d, &r, f >= 1 );
	ThreadReport( "threads one-shot 2D", n, &r );
	spDestroyWorld( w1 );
	spDestroyWorld( w2 );
	free( scenes[0] );
	free( scenes[1] );
}

int main( int argc, char** argv )
{
	const char* filter = argc > 1 ? argv[1] : "";
	int maxN = argc > 2 ? atoi( argv[2] ) : 1000000;
	int minN = argc > 3 ? atoi( argv[3] ) : 0;
	const int sizes[] = { 1000, 10000, 100000, 1000000 };
#define SP_WANT( s, name ) ( sizes[s] <= maxN && sizes[s] >= minN && strstr( name, filter ) )
	for ( int s = 0; s < 4; ++s )
		if ( SP_WANT( s, "one-shot uniform 2D" ) )
			OneShot( "one-shot uniform 2D", sizes[s], 2, UniformScene );
	for ( int s = 0; s < 4; ++s )
		if ( SP_WANT( s, "motion 2D" ) )
			Motion( sizes[s], 2 );
	for ( int s = 1; s < 3; ++s )
		if ( SP_WANT( s, "one-shot clustered 2D" ) )
			OneShot( "one-shot clustered 2D", sizes[s], 2, ClusteredScene );
	for ( int s = 1; s < 3; ++s )
		if ( SP_WANT( s, "one-shot uniform 3D" ) )
			OneShot( "one-shot uniform 3D", sizes[s], 3, UniformScene );
	for ( int s = 1; s < 4; ++s )
		if ( SP_WANT( s, "cold start 2D" ) )
			ColdStart( sizes[s], 2 );
#ifndef __EMSCRIPTEN__
	// threads (native only: the wasm benchmark has no threads)
	if ( strstr( filter, "threads" ) != NULL )
	{
		PoolThreads* pool = StartPool( 2 );
		for ( int s = 2; s < 4; ++s )
			if ( sizes[s] <= maxN && sizes[s] >= minN )
				ThreadsMotion( sizes[s], 2, pool, SP_PARALLEL_MIN_BOXES );
		// where threads start to pay: small scenes with every update parallel (SP_PARALLEL_MIN_BOXES is set from it)
		const int small[] = { 2000, 5000, 10000, 20000, 50000 };
		for ( int s = 0; s < 5 && strstr( filter, "threshold" ) != NULL; ++s )
			ThreadsMotion( small[s], 2, pool, 0 );
		if ( sizes[3] <= maxN && sizes[3] >= minN )
			ThreadsOneShot( sizes[3], 2, pool );
		StopPool( pool );
	}
#endif
	fprintf( stderr, "updates %lld\n", updates );
	return 0;
}
