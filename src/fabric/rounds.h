/* A fabric run's rounds (fabric/rounds.c): round k runs in its own slot
 * of wall-clock time from the start rank 0 handed out, so that no rank
 * waits for another between rounds: in each pair the lower node connects,
 * both run the bw engine on every rail at once (fabric/pair_test.c), and
 * the slot's end stops the test whatever a peer does.  Under --load a
 * round is this rank's flows all at once (fabric/load_run.c).  What this
 * rank measured as a client goes to r->mine. */
#ifndef RD_FABRIC_ROUNDS_H
#define RD_FABRIC_ROUNDS_H

#include "run_state.h"

/* s's rounds, numbered from first, the first starting at t (wall clock);
 * rank 0 says on the log how far it got, unless quiet. */
void fab_run_rounds(struct fab_run *r, const struct fab_schedule *s, uint32_t first,
		    bool retest, double t);

#endif
