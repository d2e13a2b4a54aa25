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
int RefreshedFramesMatchBruteForce( void );
int CoherentFramesDoNotAllocate( void );
int ChurnFramesMatchBruteForce( void );
int RebuildsAsTheSceneShrinks( void );
int FiltersAndStaticsMatchBruteForce( void );
int BipartiteGroupsReportCrossPairsOnly( void );
int StaticBoxesCostNothingWhileStill( void );
int QueriesMatchBruteForce( void );
int QueriesSeeTheLastUpdate( void );
int NearestAndRaysMatchBruteForce( void );
int QueryArgumentsAreChecked( void );
// robustness (test_robust.c)
int RobustInvalidBounds( void );
int RobustInvertedBounds( void );
int RobustInvalidDimensions( void );
int RobustNullArgument( void );
int RobustInvalidWorld( void );
int RobustInvalidBox( void );
int RobustStaleBox( void );
int RobustCapacityExceeded( void );
int RobustCapacityLimit( void );
int RobustTooManyWorlds( void );
int RobustInvalidDef( void );
int RobustOutOfMemory( void );
int RobustBoundsViewRejectsFrame( void );
int RobustExtremeFiniteBounds( void );
int RobustSoakChurn( void );

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
	{ "refreshed_frames_match_brute_force", RefreshedFramesMatchBruteForce },
	{ "coherent_frames_do_not_allocate", CoherentFramesDoNotAllocate },
	{ "churn_frames_match_brute_force", ChurnFramesMatchBruteForce },
	{ "rebuilds_as_the_scene_shrinks", RebuildsAsTheSceneShrinks },
	{ "filters_and_statics_match_brute_force", FiltersAndStaticsMatchBruteForce },
	{ "bipartite_groups_report_cross_pairs_only", BipartiteGroupsReportCrossPairsOnly },
	{ "static_boxes_cost_nothing_while_still", StaticBoxesCostNothingWhileStill },
	{ "queries_match_brute_force", QueriesMatchBruteForce },
	{ "queries_see_the_last_update", QueriesSeeTheLastUpdate },
	{ "nearest_and_rays_match_brute_force", NearestAndRaysMatchBruteForce },
	{ "query_arguments_are_checked", QueryArgumentsAreChecked },
	// robustness (test_robust.c)
	{ "robust_invalid_bounds", RobustInvalidBounds },
	{ "robust_inverted_bounds", RobustInvertedBounds },
	{ "robust_invalid_dimensions", RobustInvalidDimensions },
	{ "robust_null_argument", RobustNullArgument },
	{ "robust_invalid_world", RobustInvalidWorld },
	{ "robust_invalid_box", RobustInvalidBox },
	{ "robust_stale_box", RobustStaleBox },
	{ "robust_capacity_exceeded", RobustCapacityExceeded },
	{ "robust_capacity_limit", RobustCapacityLimit },
	{ "robust_too_many_worlds", RobustTooManyWorlds },
	{ "robust_invalid_def", RobustInvalidDef },
	{ "robust_out_of_memory", RobustOutOfMemory },
	{ "robust_bounds_view_rejects_frame", RobustBoundsViewRejectsFrame },
	{ "robust_extreme_finite_bounds", RobustExtremeFiniteBounds },
	{ "robust_soak_churn", RobustSoakChurn },
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
