// SPDX-License-Identifier: MIT
// Runs the fuzz harness over files and directories without libFuzzer, so the checked-in corpus is a regression
// test in every native build (ctest fuzz_corpus_replay, under the sanitizers and valgrind too).
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size );

static int RunFile( const char* path )
{
	FILE* f = fopen( path, "rb" );
	if ( f == NULL )
	{
		fprintf( stderr, "cannot open %s\n", path );
		return 1;
	}
	fseek( f, 0, SEEK_END );
	long size = ftell( f );
	fseek( f, 0, SEEK_SET );
	uint8_t* data = malloc( (size_t)size + 1 );
	size_t got = fread( data, 1, (size_t)size, f );
	fclose( f );
	LLVMFuzzerTestOneInput( data, got );
	free( data );
	return 0;
}

int main( int argc, char** argv )
{
	int files = 0, failed = 0;
	for ( int i = 1; i < argc; ++i )
	{
		struct stat st;
		if ( stat( argv[i], &st ) != 0 )
		{
			fprintf( stderr, "cannot stat %s\n", argv[i] );
			return 1;
		}
		if ( !S_ISDIR( st.st_mode ) )
		{
			failed += RunFile( argv[i] );
			files += 1;
			continue;
		}
		DIR* dir = opendir( argv[i] );
		struct dirent* e;
		while ( dir != NULL && ( e = readdir( dir ) ) != NULL )
		{
			if ( e->d_name[0] == '.' )
				continue;
			char path[4096];
			snprintf( path, sizeof( path ), "%s/%s", argv[i], e->d_name );
			failed += RunFile( path );
			files += 1;
		}
		if ( dir != NULL )
			closedir( dir );
	}
	printf( "%d inputs replayed\n", files );
	return failed != 0 || files == 0;
}
