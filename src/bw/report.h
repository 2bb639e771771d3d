/* What a finished bw/lat run reports: the static facts of each rail, the
 * outcome of each size, the expectation and the verdict.  cmd/bw.c fills
 * it, bw/verdict.c judges it, print/bw_out.c prints it. */
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
	/* for the test's bw_local, not printed: the NUMA node's CPU list
	 * (NULL unknown) and the host's nvidia_peermem state */
	const char *cpulist;
	enum bw_peermem peermem;
};

/* The default (port-rate) expectation judges sizes of at least this many
 * bytes only. */
#define BW_EXPECT_MIN_BYTES 65536u

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
	/* The default expectation applies only to sizes of at least this many
	 * bytes (small messages cannot fill a link); 0: every size (an
	 * explicit --expect-gbps). */
	uint64_t expect_min_bytes;
	/* The run could not finish (a later size of a sweep failed): the
	 * reason; the report holds the sizes that finished.  Verdict "error",
	 * exit 3. */
	const char *error;
	/* bw_judge: the verdict is "error" (could not run), not "fail" */
	bool could_not_run;
	/* bw_judge: a bandwidth test with no floor to hold it to (tcp without
	 * --expect-gbps, verbs with neither a profile floor nor a port rate):
	 * it ran, nothing was judged; verdict "no floor", exit 0 */
	bool no_floor;
	/* On the server: the client's --expect-gbps (from its HELLO), NAN
	 * none; the server judges by it when it has no --expect-gbps of its own. */
	double client_expect_gbps;
};

/* The figures of one outcome, computed once for every output: per rail the
 * counting side (and the peer's sending when bidirectional), the totals
 * over the rails, and both directions together. */
struct bw_outcome_totals {
	const struct bw_result *mine[BW_RAILS_MAX], *peer[BW_RAILS_MAX];
	uint64_t msgs, peer_msgs;
	double secs, peer_secs;
	struct bw_gbps gbps, peer_gbps, bidir_gbps;	/* peer/bidir: bidir only */
};
void bw_outcome_totals(const struct bw_report *r, const struct bw_outcome *o,
		       struct bw_outcome_totals *t);

/* The figures of rail i of an outcome, from the side that measured them:
 * one way, the initiator's (the client); both ways, this side's own sending
 * (and the peer's as *peer, else NULL). */
const struct bw_result *bw_rail_figures(const struct bw_report *r, const struct bw_outcome *o,
					uint32_t i, const struct bw_result **peer);
/* Latency samples of an outcome (the client measures them). */
const struct bw_result *bw_lat_figures(const struct bw_report *r, const struct bw_outcome *o);

/* Sets pass and reason: every rail's average at every size (of at least
 * expect_min_bytes) against expect_gbps (when set).  Latency tests pass
 * when they ran and have samples.  An error, or a latency test without
 * samples, sets could_not_run.  A bandwidth test without expect_gbps sets
 * no_floor (pass stays true: nothing was found below a floor) and says in
 * reason that nothing was judged. */
void bw_judge(struct bw_report *r);
/* The verdict's word, as text and JSON print it: "pass", "fail", "error"
 * or "no floor". */
const char *bw_verdict_name(const struct bw_report *r);

#endif
