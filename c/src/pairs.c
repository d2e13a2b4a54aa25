// SPDX-License-Identifier: MIT
// Pair lists: sorting the pairs a sweep found, and diffing two sorted lists into began and ended events.
#include "core.h"

#include <string.h>

void spSortPairs( const spPair* in, int count, spPair* out, int* bucketStart, int slotCount )
{
	// counting sort on the slot of the lower id: ids compare in slot order, and a live slot has one id
	memset( bucketStart, 0, sizeof( int ) * (size_t)( slotCount + 1 ) );
	for ( int i = 0; i < count; ++i )
	{
		bucketStart[( in[i].a >> SP_GENERATION_BITS ) + 1] += 1;
	}
	for ( int s = 0; s < slotCount; ++s )
	{
		bucketStart[s + 1] += bucketStart[s];
	}
	for ( int i = 0; i < count; ++i )
	{
		int dst = bucketStart[in[i].a >> SP_GENERATION_BITS]++;
		out[dst] = in[i];
	}
	// buckets hold the few partners of one box: insertion sort on the higher id
	int begin = 0;
	for ( int s = 0; s < slotCount; ++s )
	{
		int end = bucketStart[s];
		for ( int i = begin + 1; i < end; ++i )
		{
			spPair p = out[i];
			int j = i;
			while ( j > begin && out[j - 1].b > p.b )
			{
				out[j] = out[j - 1];
				--j;
			}
			out[j] = p;
		}
		begin = end;
	}
}

static inline int spComparePairs( spPair x, spPair y )
{
	if ( x.a != y.a )
		return x.a < y.a ? -1 : 1;
	if ( x.b != y.b )
		return x.b < y.b ? -1 : 1;
	return 0;
}

void spDiffPairs( const spPairArray* prev, const spPairArray* next, spPairArray* began, spPairArray* ended )
{
	int i = 0, j = 0, nb = 0, ne = 0;
	const spPair* p = prev->data;
	const spPair* q = next->data;
	while ( i < prev->count && j < next->count )
	{
		int c = spComparePairs( p[i], q[j] );
		if ( c == 0 )
		{
			++i;
			++j;
		}
		else if ( c < 0 )
		{
			ended->data[ne++] = p[i++];
		}
		else
		{
			began->data[nb++] = q[j++];
		}
	}
	while ( i < prev->count )
		ended->data[ne++] = p[i++];
	while ( j < next->count )
		began->data[nb++] = q[j++];
	began->count = nb;
	ended->count = ne;
}
