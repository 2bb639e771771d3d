/* One rank's fabric run as the engine's files share it: what the command
 * asked (struct fab_conf) and what this rank set up, met, measured and,
 * on rank 0, gathered (struct fab_run).  The steps are fabric/run.h's.
 * Errors: a step that fails says why on the log (fab_say), keeps the
 * first such message in error_buf and returns -1. */
#ifndef RD_FABRIC_RUN_STATE_H
#define RD_FABRIC_RUN_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "judge.h"
#include "load.h"
#include "load_run.h"
#include "pair_secret.h"
#include "pair_test.h"
#include "schedule.h"
#include "wire.h"

enum fab_mode { FAB_MODE_DEFAULT, FAB_MODE_FULL, FAB_MODE_QUICK, FAB_MODE_PAIRS };

/* What the command line asked of the run. */
struct fab_conf {
	const char *prog;	/* for messages */
	FILE *log;		/* errors, the plan's progress (stderr) */
	bool verbose, quiet;
	enum fab_mode mode;	/* DEFAULT: full up to FAB_FULL_MAX_NODES, else quick */
	const char *pairs_file, *name;
	/* --pairs FILE's text, read (and its form checked) before the
	 * launcher's rendezvous (fabric/pairs_file.h) */
	char *pairs_text;
	size_t pairs_len;
	bool transport_set, lat;
	double tolerance, timeout_s, guard_s, expect_gbps;
	uint32_t retest;
	enum fab_load load;	/* --load: congestion rounds (fabric/load_round.c) */
	uint32_t fan_in;	/* --fan-in: senders per receiver, 0 every other */
	int traffic_class;	/* --tc, else the profile's PFC priority's; -1 none */
	uint32_t qp_timeout;	/* --qp-timeout; 0 perftest's */
	const char *tc_from;	/* where traffic_class came from */
	/* rank 0's lines on the log as it goes, unless quiet (the command
	 * gives print/fabric_progress.h's; NULL: none): a round done, the
	 * retest's plan */
	void (*show_round)(FILE *log, const char *prog, bool retest, size_t k,
			   const struct fab_schedule *s, double slot_s);
	void (*show_retest)(FILE *log, const char *prog, const struct fab_schedule *s,
			    char *const *names);
};

struct fab_run {
	struct fab_conf *cf;
	uint32_t rank, size;
	bool pmix_up;
	bool fence_broken;	/* a fence after the rounds failed: none is tried again */
	int lfd;
	unsigned char secret[FAB_SECRET_LEN];	/* what a partner proves to lfd */
	struct fab_side side;
	double floor_gbps;		/* the retest's floor; NAN none */
	struct fab_endpoint *eps;	/* size */
	struct fab_node *nodes;		/* size */
	char **names;			/* size, unique */
	struct fab_schedule main_rounds, retest_rounds;
	struct fab_result *mine;	/* what this rank measured as a client */
	size_t n_mine, cap_mine;
	struct fab_result *all;		/* everybody's, rank 0 after the last fence */
	size_t n_all;
	struct fab_results *decoded;	/* per rank, owning the error texts */
	double slot_s, t_start;
	const char *error;		/* the run could not finish */
	char error_buf[300];
	bool named;			/* nodes[] are filled (the rendezvous went well) */
	struct fab_load_run lr;		/* --load (fabric/load_run.c) */
};

/* An error on the log; the first one is also why the run could not
 * finish, should it not. */
void fab_say(struct fab_run *r, const char *msg);

/* The mode's name in the report: "full", "quick", "pairs". */
const char *fab_mode_name(enum fab_mode m);

#endif
