// SPDX-License-Identifier: MIT
// Test runner: `sp_tests` runs every test, `sp_tests name` runs the tests whose name contains `name`.
#include "test.h"

#include <string.h>

int IdsAreGenerational( void );
int StaleAndForeignIdsAreRejected( void );
int BadInputChangesNothing( void );
int OutOfMemoryChangesNothing( void );
int WorldRegistry( void );
int SortUnits( void );
int PairUnits( void );
int PairsMatchBruteForceRandom( void );
int PairsMatchBruteForceDegenerate( void );
int EventsMatchBruteForceSequences( void );
int InvalidBoundsViewRejectsFrame( void );
int EndpointsSorted( void );
int LargeSceneMatchesBruteForce( void );

static const struct
{
	const char* name;
	int ( *fcn )( void );
} sp_tests[] = {
	{ "ids_are_generational", IdsAreGenerational },
	{ "stale_and_foreign_ids_are_rejected", StaleAndForeignIdsAreRejected },
	{ "bad_input_changes_nothing", BadInputChangesNothing },
	{ "out_of_memory_changes_nothing", OutOfMemoryChangesNothing },
	{ "world_registry", WorldRegistry },
	{ "sort_units", SortUnits },
	{ "pair_units", PairUnits },
	{ "pairs_match_brute_force_random", PairsMatchBruteForceRandom },
	{ "pairs_match_brute_force_degenerate", PairsMatchBruteForceDegenerate },
	{ "events_match_brute_force_sequences", EventsMatchBruteForceSequences },
	{ "invalid_bounds_view_rejects_frame", InvalidBoundsViewRejectsFrame },
	{ "endpoints_sorted", EndpointsSorted },
	{ "large_scene_matches_brute_force", LargeSceneMatchesBruteForce },
};

int main( int argc, char** argv )
{
	const char* filter = argc > 1 ? argv[1] : "";
	int run = 0, failed = 0;
	for ( size_t i = 0; i < sizeof( sp_tests ) / sizeof( sp_tests[0] ); ++i )
	{
		if ( strstr( sp_tests[i].name, filter ) == NULL )
			continue;
		run += 1;
		int r = sp_tests[i].fcn();
		printf( "%s %s\n", r == 0 ? "ok  " : "FAIL", sp_tests[i].name );
		failed += r != 0;
	}
	printf( "%d tests, %d failed\n", run, failed );
	if ( run == 0 )
	{
		fprintf( stderr, "no test matches '%s'\n", filter );
		return 2;
	}
	return failed != 0;
}
