/* How long the steps of a fabric run may take, and the clock its rounds
 * keep: rounds are slots of wall-clock time, the same on every node whose
 * clock is synchronised. */
#ifndef RD_FABRIC_TIMING_H
#define RD_FABRIC_TIMING_H

#include <time.h>

/* how much longer than --timeout the other ranks wait for rank 0, which
 * itself waits up to --timeout for a rank's results */
#define FAB_RANK0_EXTRA_S 10
/* a fence after the rounds: how long it may take (capped by --timeout)
 * before the run goes on without fences */
#define FAB_FENCE_S 10
/* the slot of a round beyond its test (connect, endpoints, results), by
 * default */
#define FAB_GUARD_S 0.5
/* The same under --load: K senders' queues (on tcp, their socket buffers)
 * drain through one port after the window. */
#define FAB_LOAD_GUARD_S 2.0
/* rank 0's start time is this far after it publishes it: the others ask
 * rank 0 for it every 50 ms or so (fabric/pmix.c), and a rank that learns
 * it late would start its first round late */
#define FAB_LEAD_S 0.5

/* The wall clock, in seconds. */
static inline double fab_now_real(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
