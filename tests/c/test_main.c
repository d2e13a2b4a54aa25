// SPDX-License-Identifier: MIT
// Test runner: `sp_tests` runs every test, `sp_tests name` runs the tests whose name contains `name`.
#include "test.h"

#include <string.h>

// flags of tests.def
enum
{
	SP_MEMCHECK = 1, // run under valgrind by tests/c/run.sh
	SP_VARIANTS = 2	 // run on the slab-sort and scalar engines too (CMakeLists.txt)
};

#define SP_TEST( name, fcn, flags ) int fcn( void );
#include "tests.def"
#undef SP_TEST

static const struct
{
	const char* name;
	int ( *fcn )( void );
} sp_tests[] = {
#define SP_TEST( name, fcn, flags ) { #name, fcn },
#include "tests.def"
#undef SP_TEST
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
