/* What a finished bw/lat run reports: the static facts of each rail, the
 * outcome of each size, the expectation and the verdict.  cmd/bw.c fills
 * it, bw/verdict.c judges it, out/bw_out.c prints it. */
#ifndef RD_BW_REPORT_H
#define RD_BW_REPORT_H

#include "session.h"
#include "stats.h"

struct bw_report_rail {
	const char *device;	/* RDMA device (verbs), netdev or NULL (tcp) */
	int port;		/* IB port; 0: none (tcp) */
	int numa_node;		/* -1 unknown */
	int gpu;		/* -1 host memory */
	const char *gpu_path;	/* "PIX".. or NULL */
	double rate_gbps;	/* the port's rate; NAN unknown */
};

struct bw_report {
	bool is_server;
	struct bw_params p;	/* as asked (size: the first of the sweep) */
	const char *local_host, *local_addr, *remote_host, *remote_addr;
	uint32_t n_rails;
	struct bw_report_rail rails[BW_RAILS_MAX];
	struct bw_outcome *outcomes;
	size_t n_outcomes;
	/* the verdict (bw_judge) */
	double expect_gbps;	/* per rail; NAN: no expectation */
	const char *expect_why;	/* where the expectation came from */
	bool pass;
	char reason[512];
};

/* The figures of rail i of an outcome, from the side that measured them:
 * one way, the initiator's (the client); both ways, this side's own sending
 * (and the peer's as *peer, else NULL). */
const struct bw_result *bw_rail_figures(const struct bw_report *r, const struct bw_outcome *o,
					uint32_t i, const struct bw_result **peer);
/* Latency samples of an outcome (the client measures them). */
const struct bw_result *bw_lat_figures(const struct bw_report *r, const struct bw_outcome *o);

/* Sets pass and reason: every rail's average at every size against
 * expect_gbps (when set).  Latency tests pass when they ran. */
void bw_judge(struct bw_report *r);

#endif
