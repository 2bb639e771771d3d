/* What the ranks of a fabric run hand each other through the launcher
 * (fabric/pmix.h): published texts, fences within --timeout, what rank 0
 * hands out, and the results of the rounds (fabric/exchange.c).  0, or -1
 * with the error said (fab_say). */
#ifndef RD_FABRIC_EXCHANGE_H
#define RD_FABRIC_EXCHANGE_H

#include "run_state.h"

#define FAB_KEY_EP "rdmadoctor.fabric.ep"
#define FAB_KEY_T0 "rdmadoctor.fabric.t0"
#define FAB_KEY_T1 "rdmadoctor.fabric.t1"
#define FAB_KEY_RES1 "rdmadoctor.fabric.res1"
#define FAB_KEY_RES2 "rdmadoctor.fabric.res2"
#define FAB_KEY_RETEST "rdmadoctor.fabric.retest"
#define FAB_KEY_DONE "rdmadoctor.fabric.done"

/* A fence of every rank, within --timeout: the launcher leaves a rank that
 * died out (Open MPI with --enable-recovery, Slurm).  When one dies just
 * as the fence forms, the fence may time out: it is tried again, three
 * tries in all.  0, or -1 with err set (not said). */
int fab_fence_live(struct fab_run *r, char *err, size_t errsz);
/* Publish text (malloc'd, freed here; NULL: out of memory) under key for
 * every rank. */
int fab_publish(struct fab_run *r, const char *key, char *text);
/* A fence of every rank after the rounds, within FAB_FENCE_S: what was
 * published before it is then here, fresh (a launcher may serve a rank's
 * data once, without what it published later: Slurm's does).  Once a rank
 * died the launcher may keep a fence waiting for it (Open MPI 4.1) or fail
 * it; then no fence is tried again and the ranks fetch from each other
 * (fab_pmix_get_wait), which Open MPI serves.  0, or -1. */
int fab_sync_all(struct fab_run *r);
/* Rank 0 hands text (malloc'd, rank 0's; NULL elsewhere) out under key;
 * the others get it in *got (malloc'd); what names it in an error. */
int fab_handout(struct fab_run *r, const char *key, char *text, char **got, const char *what);
/* Rank 0's wall-clock start of the next rounds, handed out. */
int fab_agree_start(struct fab_run *r, const char *key, double *t);
/* Publish what this rank measured.  Rank 0 then fetches every rank's
 * results from the launcher, each within --timeout of now: a rank whose
 * results do not come is named as dead.  The fence before (fab_sync_all)
 * has its own deadline, so a dead rank cannot hold it; when it failed,
 * each rank's results are asked of that rank itself. */
int fab_exchange_results(struct fab_run *r, const char *key, uint32_t n_rounds);

#endif
