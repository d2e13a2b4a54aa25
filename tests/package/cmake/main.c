// Two overlapping boxes and one apart: exactly one pair. Prints it; exits non-zero on any failure.
#include <sweep_prune/sweep_prune.h>

#include <stdio.h>

int main( void )
{
	spWorldDef def = spDefaultWorldDef();
	def.dimensions = 2;
	spWorldId world;
	if ( spCreateWorld( &def, &world ) != sp_resultOk )
		return 1;
	spBoxId a, b, c;
	spWorld_AddBox( world, ( float[] ){ 0, 0 }, ( float[] ){ 2, 2 }, &a );
	spWorld_AddBox( world, ( float[] ){ 2, 1 }, ( float[] ){ 3, 3 }, &b ); // touches a: closed intervals overlap
	spWorld_AddBox( world, ( float[] ){ 5, 5 }, ( float[] ){ 6, 6 }, &c );
	spResult result = spWorld_Update( world );
	int count = 0;
	const uint32_t* pairs = spWorld_GetPairs( world, &count );
	int ok = result == sp_resultOk && count == 1 && pairs[0] == a.bits && pairs[1] == b.bits;
	printf( "%s %d pair(s)\n", ok ? "ok" : "FAILED", count );
	spDestroyWorld( world );
	return ok ? 0 : 1;
}
