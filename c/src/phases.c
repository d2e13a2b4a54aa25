// SPDX-License-Identifier: MIT
// The update's phase times (world.h SP_PHASE), in a build with SP_PHASE_TIMES defined: the benchmark's, to measure
// which share of a frame runs on one thread and which on all.
#define _POSIX_C_SOURCE 199309L // clock_gettime
#include "world.h"

#include <time.h>

#ifdef SP_PHASE_TIMES
double spPhaseClock( void )
{
	struct timespec t;
	clock_gettime( CLOCK_MONOTONIC, &t );
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

#endif

/// The ms the world's updates spent in each phase so far (SP_PHASE_COUNT values), then the totals are cleared.
/// Returns the phase count, or 0 for an invalid world or a build without SP_PHASE_TIMES. For the benchmark; not in
/// the public header.
int spTakePhaseTimes( spWorldId id, double* out );
int spTakePhaseTimes( spWorldId id, double* out )
{
#ifdef SP_PHASE_TIMES
	spWorld* w = spGetWorldPtr( id );
	if ( w == NULL )
		return 0;
	for ( int k = 0; k < SP_PHASE_COUNT; ++k )
	{
		out[k] = w->phaseTimes[k];
		w->phaseTimes[k] = 0.0;
	}
	return SP_PHASE_COUNT;
#else
	(void)id;
	(void)out;
	return 0;
#endif
}
