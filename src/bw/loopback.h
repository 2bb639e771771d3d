/* bw --loopback: a rail-to-rail test on one host, pair after pair of its
 * RDMA devices (bw/loopback.c says how).  The caller (cmd/bw.c) reads the
 * machine, fills the inputs, chooses the pairs, runs them and prints each
 * pair's report as pair_done hands it over. */
#ifndef RD_BW_LOOPBACK_H
#define RD_BW_LOOPBACK_H

#include <stdbool.h>
#include <stdio.h>

#include "opts.h"
#include "rails.h"
#include "report.h"

struct inventory;
struct profile;
struct root;
struct site;

struct bw_lb_side {
	uint32_t rail;		/* index into the rails */
	const char *device;
	int port;
	int gid_index;		/* -1: InfiniBand (LID, no GRH) */
	const char *addr;	/* RoCE: the GID's IPv4 address; NULL on InfiniBand */
};

struct bw_lb_pair {
	struct bw_lb_side from, to;
};

/* The worst of the pairs, as the exit code says it, best first: a pair with
 * no floor (nothing judged, exit 0) is worse than one that passed. */
enum bw_lb_verdict { BW_LB_PASS, BW_LB_NO_FLOOR, BW_LB_FAIL, BW_LB_ERROR };

struct bw_loopback {
	/* in */
	const struct bw_opts *o;
	struct root *r;
	const struct inventory *inv;
	const struct profile *pr;	/* the one check judges by; NULL: none */
	const struct site *site;	/* the site file's roles; NULL: none */
	const char *prog;		/* for the lines on err */
	FILE *err;			/* a line per pair as it starts, and errors */
	bool quiet;			/* no pair lines, no notes */
	bool progress;			/* a progress line per test on err */
	/* Each pair's report, judged, as the pair ends (k: its index): the
	 * printer.  0, or -1: the pair counts as could not run. */
	int (*pair_done)(void *arg, const struct bw_loopback *L, size_t k,
			 const struct bw_report *rep);
	void *arg;
	/* the pairs (bw_loopback_pairs) and their rails */
	struct bw_rail_set rs;
	struct bw_lb_pair pairs[BW_RAILS_MAX / 2];
	size_t n_pairs;
	char host[BW_HOST_MAX + 1];
	/* after bw_loopback_run: why the pairs that did not pass did not */
	char reason[1024];
};

/* The pairs: those named (o->lb_names), else each rail with its partner,
 * rail i with rail i + n/2 (check/rails.h's numbering, under the roles
 * check would give).  0, or a negative errno with why filled: -EINVAL a
 * usage error, others could not run. */
int bw_loopback_pairs(struct bw_loopback *L, char *why, size_t whysz);
/* Every pair, one after the other: the worst verdict, or -ENOMEM. */
int bw_loopback_run(struct bw_loopback *L);
void bw_loopback_free(struct bw_loopback *L);

#endif
