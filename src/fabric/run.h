/* fabric: every pair of nodes on every rail, in rounds, one task per node
 * under a PMIx launcher (srun --mpi=pmix, mpirun).  How a rank's run goes
 * (the command, cmd/fabric.c, calls these steps in order and prints):
 *
 *   1. fab_run_open: the launcher's rank and size;
 *   2. the command chooses this rank's rails (bw's) and fills r->side's
 *      bw part; fab_run_side sets the rest (latency test, traffic class,
 *      the slot of a round);
 *   3. fab_meet (fabric/rendezvous.h): each rank opens its bw listener and
 *      publishes its endpoint through PMIx; a fence exchanges them;
 *   4. fab_run_schedule: every rank computes the same schedule
 *      (fabric/schedule.c; --pairs FILE was read before the rendezvous,
 *      fabric/pairs_file.h) and rank 0 prints it (the command);
 *   5. fab_run_go: rank 0 hands out the first round's start time (a fence,
 *      or once fences fail, fetched from rank 0); round k runs in its own
 *      slot of wall-clock time from that start (fabric/rounds.h); each
 *      rank publishes what it measured as a client, and rank 0 gathers it
 *      (fabric/exchange.h), naming a rank whose results do not come within
 *      --timeout; rank 0 plans the retest and hands it out
 *      (fabric/retest.h); at the end rank 0 tells the others it has their
 *      results;
 *   6. rank 0 judges everything (fabric/run_report.h) and the command
 *      writes the report (print/fabric_out.c); the other ranks print
 *      nothing but errors.
 * docs/fabric.md is the how-to, docs/json/fabric.md the document. */
#ifndef RD_FABRIC_RUN_H
#define RD_FABRIC_RUN_H

#include "rendezvous.h"
#include "run_state.h"
#include "sample.h"

struct profile;

/* Join the launcher's job and make room for its ranks.  r holds cf and
 * lfd -1, the rest zero.  0, or -1 with the error said. */
int fab_run_open(struct fab_run *r);
/* After the command set r->side's bw part (rails, test, caps, bind): the
 * latency test, the traffic class (--tc, else with --load the one whose
 * DSCP the usual map puts on pr's PFC priority; pr may be NULL), the
 * slot of a round. */
void fab_run_side(struct fab_run *r, const struct profile *pr);
/* The main rounds, for the live nodes.  0, or -1 with r->error set (not
 * said). */
int fab_run_schedule(struct fab_run *r);

enum fab_end {
	FAB_END_DONE,		/* rank 0 reports; the others end well */
	FAB_END_BROKEN,		/* a step every rank needs failed: rank 0 reports it */
	FAB_END_FAILED,		/* this rank ends with an error, no report */
};
/* The rounds, the results, the retest (m: this rank's rails, for --load's
 * counters; else unused).  r->floor_gbps is the retest's floor. */
enum fab_end fab_run_go(struct fab_run *r, const struct fab_machine *m);
/* The run could not finish: r->error says why (the first error said, or
 * a general word). */
void fab_run_broken(struct fab_run *r);
void fab_run_free(struct fab_run *r);

#endif
