/* fabric --load: the congestion test's model and judgement.  Pure
 * functions over what the ranks measured and the counters they read
 * around each round (no I/O), unit-tested in
 * tests/fabric/test_fabric_load.c from recorded deltas of real mlx5 and rxe
 * counter names; docs/fabric.md ("Under load") states the rules.
 *
 * A load round sends many flows into one port at once (incast: K senders
 * into one receiver; alltoall: every node into every other), so a switch
 * port is oversubscribed and the fabric's congestion control must act.
 * What it did shows in the ports' counters: PFC pause frames (the
 * receiver's switch port paused the senders), CNPs (ECN marked, the
 * receiver notified, the senders slowed), or drops and retransmits (the
 * priority the traffic used had no working PFC).  Per receiver and rail:
 *
 *   - lossy:     drops or retransmits grew on the round's ports;
 *   - no-ecn:    pauses were seen, CNP counters were read and stayed 0:
 *                congestion is held by PFC alone (head-of-line blocking);
 *   - unfair:    one sender's goodput is below unfair_frac x the median
 *                of the receiver's senders;
 *   - slow:      the receiver's goodput is below goodput_frac x its line
 *                rate, and nothing above explains it;
 *   - not-checked: a port of the row could not be read, or read no drop
 *                counter or no retransmit counter (a loss shows as one
 *                or the other), or the line rate is not known: unknown
 *                is never lossless;
 *   - lossless:  goodput near the line rate, no drops, no retransmits.
 *
 * The first that applies in that order is the verdict; the evidence lists
 * every counter that grew.  A rail's verdict is its worst receiver's. */
#ifndef RD_FABRIC_LOAD_H
#define RD_FABRIC_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "judge.h"
#include "load_counters.h"

enum fab_load { FAB_LOAD_NONE, FAB_LOAD_INCAST, FAB_LOAD_ALLTOALL };

const char *fab_load_name(enum fab_load l);	/* "incast", "alltoall", NULL for none */

struct fab_load_input {
	enum fab_load mode;
	const struct fab_node *nodes;
	uint32_t n_nodes;
	/* The flows: a result's a sent ab Gb/s to b; b sent ba to a (NAN:
	 * not that way: incast is one-way, alltoall both ways).  round is
	 * 0-based over the load rounds. */
	const struct fab_result *results;
	size_t n_results;
	const struct fab_port_load *ports;
	size_t n_ports;
	int priority;		/* the priority the test's traffic used; -1 unknown */
	double line_gbps;	/* each receiver's line rate when finite (--expect-gbps);
				 * NAN: the receiver port's rate_gbps */
	double goodput_frac;	/* FAB_LOAD_GOODPUT_FRAC */
	double unfair_frac;	/* FAB_LOAD_UNFAIR_FRAC */
};

#define FAB_LOAD_GOODPUT_FRAC 0.85
#define FAB_LOAD_UNFAIR_FRAC 0.5

enum fab_load_verdict {
	FAB_LV_LOSSLESS,
	FAB_LV_NOT_CHECKED,
	FAB_LV_SLOW,
	FAB_LV_UNFAIR,
	FAB_LV_NO_ECN,
	FAB_LV_LOSSY,
	FAB_LV_NOT_RUN,		/* no flow into it finished (errors) */
};

const char *fab_load_verdict_name(enum fab_load_verdict v);	/* "lossless", "no-ecn" ... */

/* A counter that grew, as evidence: which node's port, which counter. */
struct fab_load_evidence {
	uint32_t node;
	const char *counter;	/* points into the input's fab_cdelta names */
	uint64_t delta;
	enum fab_ckind kind;
};

/* The verdict of one receiver on one rail in one round (rail_only false),
 * or of a whole rail over the run (rail_only true: receiver and round
 * unused; the worst of its receivers, the counts in reason). */
struct fab_load_row {
	bool rail_only;
	uint32_t round, receiver, rail;
	enum fab_load_verdict v;
	uint32_t n_senders;		/* flows into the receiver that finished */
	double goodput_gbps;		/* their sum; NAN none */
	double line_gbps;		/* NAN unknown */
	double min_share_gbps, median_share_gbps;	/* NAN with no flow */
	int64_t weakest;		/* the sender of the lowest share; -1 none */
	/* totals over the ports the row judges by (the receiver's and, in
	 * incast, its senders'); the _known flags: every such port read at
	 * least one counter of that kind */
	uint64_t drops, retrans, pause_tx, pause_rx, cnp_sent, cnp_handled, ecn_marked;
	bool loss_known, pause_known, cnp_known;
	uint8_t pause_prios;		/* bit p: pauses seen on priority p */
	int pfc_mask;			/* the receiver port's; -1 unknown */
	char reason[384];		/* the verdict's why in one sentence */
	struct fab_load_evidence *evidence;
	size_t n_evidence;
};

struct fab_load_judgement {
	struct fab_load_row *rows;	/* receivers (round, rail order), then rails */
	size_t n_rows, cap_rows;	/* cap_rows: room (growbuf) */
	size_t count[FAB_LV_NOT_RUN + 1];	/* receiver rows per verdict */
	const char *verdict;		/* "pass" (all lossless), "fail", "error" (nothing ran) */
	char reason[256];
};

/* Judge every receiver of every round on every rail, then every rail.
 * 0, or -1 (no memory; *j is then empty). */
int fab_load_judge(const struct fab_load_input *in, struct fab_load_judgement *j);
void fab_load_judgement_free(struct fab_load_judgement *j);

#endif
