/* fabric --load's part of a rank's run (fabric/run.c calls it): whom it
 * meets, its rails' counters around each load round it is in, its flows
 * as results, and, on rank 0, everybody's counters after the rounds. */
#ifndef RD_FABRIC_LOAD_RUN_H
#define RD_FABRIC_LOAD_RUN_H

#include "load_round.h"
#include "sample.h"
#include "wire.h"

/* The PMIx key of a rank's counters (fabric/load_wire.h's text). */
#define FAB_KEY_LOAD "rdmadoctor.fabric.load"

struct fab_load_run {
	uint32_t size, rank;
	struct fab_sampler smp;
	struct fab_peer *peers;			/* size */
	struct fab_port_load *mine;		/* this rank's rails, every round it was in */
	size_t n_mine, cap_mine;
	struct fab_load_ports *decoded;		/* rank 0: size, owning all's */
	struct fab_port_load *all;		/* rank 0: everybody's */
	size_t n_all;
};

/* After the rendezvous: the peers from their endpoints and states, the
 * rails' ports for the counters.  0, or -1 (no memory). */
int fab_load_run_init(struct fab_load_run *lr, uint32_t rank, uint32_t size,
		      const struct fab_endpoint *eps, const struct fab_node *nodes,
		      const struct fab_machine *m, enum bw_transport transport);

/* One load round of this rank (nothing when it is in none of rd's
 * pairs): the counters, the flows at once (fab_load_round), the counters
 * again.  Every flow it started, per rail, is appended to *res (a
 * growbuf of n/cap; error texts malloc'd, cleaned for the wire).  -1 when
 * something was lost for want of memory (said in why). */
int fab_load_run_round(struct fab_load_run *lr, const struct fab_side *s, int lfd,
		       const unsigned char *secret, const struct fab_round *rd, uint32_t round,
		       double deadline, struct fab_result **res, size_t *n, size_t *cap,
		       char *why, size_t whysz);

/* This rank's counters as the text to publish (malloc'd), or NULL. */
char *fab_load_run_text(const struct fab_load_run *lr);

/* Rank 0, after the results' fence: every live rank's counters.  A rank
 * whose counters do not come or are broken is said so on stderr (prog,
 * names); its ports are then missing, and the judge does not check the
 * receivers they weigh in.  0, or -1 (no memory). */
int fab_load_run_gather(struct fab_load_run *lr, const struct fab_node *nodes,
			uint32_t n_rounds, const char *prog);

void fab_load_run_free(struct fab_load_run *lr);

#endif
