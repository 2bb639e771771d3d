/* A fabric run's retest (fabric/retest.c): rank 0 plans it from
 * everybody's results (fabric/judge.c: known-good partners for each
 * suspect end) and hands it out with its start time; every rank runs it
 * and publishes again. */
#ifndef RD_FABRIC_RETEST_H
#define RD_FABRIC_RETEST_H

#include "run_state.h"

/* 0, or -1 with the error said (fab_say). */
int fab_retest(struct fab_run *r);

#endif
