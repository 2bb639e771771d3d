/* The fabric test's judgement: which pairs are slow, and whether a slow
 * pair is explained by a node, a rail of a node, or only the path between
 * the two.  Pure functions over the measurements (no I/O), unit-tested in
 * tests/fabric/test_fabric_judge.c; docs/fabric.md states the rules:
 *
 *   - per rail, the threshold is the higher of the absolute floor and
 *     tolerance x the median of every measured direction on that rail in
 *     the first pass; a pair-rail is slow when either direction is below;
 *   - a node is bad on a rail when it is slow there with every partner of
 *     the first pass (at least two), or with every partner of its retest;
 *     bad on every rail it has (or its only rail): a node suspect, else a
 *     rail suspect per bad rail;
 *   - a slow pair-rail that no bad node-rail explains is a pair suspect;
 *   - the ends of such pairs are retested against nodes that passed
 *     everything (fab_retest_plan), so that a node slow with every good
 *     partner is told from a path slow only between two nodes;
 *   - and each such pair is re-run itself, once, alone in a round of its
 *     own (at most FAB_RERUN_MAX pairs): slow again, the pair suspect says
 *     the re-run confirmed it; at or above the threshold, it is cleared
 *     (listed as cleared, never named as a bad path);
 *   - a node that died, never answered, or could test with no partner is a
 *     node suspect with that reason. */
#ifndef RD_FABRIC_JUDGE_H
#define RD_FABRIC_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedule.h"

enum fab_node_state {
	FAB_NODE_OK,
	FAB_NODE_NEVER,		/* never answered the rendezvous */
	FAB_NODE_DIED,		/* answered, then gave no results */
};

struct fab_node {
	const char *name;
	uint32_t rank;
	uint32_t n_rails;
	enum fab_node_state state;
};

enum fab_pair_verdict { FAB_PV_PASS, FAB_PV_SLOW, FAB_PV_ERROR, FAB_PV_NOT_RUN };

/* One pair on one rail in one round: a the client, b the server. */
struct fab_result {
	uint32_t a, b, rail;
	uint32_t round;		/* 0-based, over the main rounds then the retest rounds */
	bool retest;
	double ab, ba;		/* Gb/s a to b and b to a; NAN: not measured */
	double lat_usec;	/* p50 one-way; NAN: none */
	const char *error;	/* why it could not run, or NULL */
	enum fab_pair_verdict verdict;	/* set by fab_judge */
};

struct fab_input {
	const struct fab_node *nodes;
	uint32_t n_nodes;
	struct fab_result *results;
	size_t n_results;
	double floor_gbps;	/* absolute floor per rail and direction; NAN: none */
	double tolerance;	/* of the rail's median, e.g. 0.93 */
};

struct fab_rail_stats {
	uint32_t rail;
	size_t n;		/* measured directions */
	double min, median, max, threshold;	/* Gb/s; NAN when n is 0 */
};

enum fab_suspect_kind { FAB_SUSPECT_NODE, FAB_SUSPECT_RAIL, FAB_SUSPECT_PAIR };

/* The slow pairs re-run alone after the first pass, at most: each is a
 * round of its own (warm-up + duration + guard), so the retest stays
 * bounded however many pairs were slow.  The rest are named unconfirmed. */
#define FAB_RERUN_MAX 8

/* What the re-run of a slow pair said (pair suspects and cleared pairs). */
enum fab_rerun {
	FAB_RERUN_NONE,		/* not re-run (not planned: over FAB_RERUN_MAX, --retest 0) */
	FAB_RERUN_CONFIRMED,	/* slow again, alone */
	FAB_RERUN_CLEARED,	/* at or above the threshold alone: not a bad path */
	FAB_RERUN_ERROR,	/* the re-run could not test */
};

struct fab_suspect {
	enum fab_suspect_kind kind;
	uint32_t a, b;		/* the node (a), or the pair (a, b) */
	int rail;		/* -1: every rail (or the only one) */
	char reason[200];
	size_t *evidence;	/* indices into the input's results */
	size_t n_evidence;
	enum fab_rerun rerun;	/* pairs: what its re-run said */
};

struct fab_judgement {
	struct fab_rail_stats *rails;
	uint32_t n_rails;
	struct fab_suspect *suspects;
	size_t n_suspects, cap_suspects;	/* cap_suspects: room (growbuf) */
	/* pairs slow in the first pass that their re-run cleared (kind pair,
	 * rerun FAB_RERUN_CLEARED): not suspects, said in the report */
	struct fab_suspect *cleared;
	size_t n_cleared, cap_cleared;
	bool could_not_run;	/* fewer than two nodes, or nothing measured */
	const char *verdict;	/* "pass", "fail", "error" */
	char reason[256];
};

/* Classify every result (verdict), compute the rail statistics and the
 * suspects.  0, or -1 (no memory; *j is then empty). */
int fab_judge(const struct fab_input *in, struct fab_judgement *j);
void fab_judgement_free(struct fab_judgement *j);

/* The retest rounds after the first pass (results with retest false): the
 * ends of pair suspects, each against up to `partners` nodes that passed
 * everything, as few rounds as the greedy packing gives; then each slow
 * pair no node explains (at most FAB_RERUN_MAX, in the order of their
 * names' indices), a round of its own, connecting as in the first pass.
 * partners 0: no retest at all.  0 or -1. */
int fab_retest_plan(const struct fab_input *in, uint32_t partners, struct fab_schedule *s);

const char *fab_suspect_kind_name(enum fab_suspect_kind k);
/* "none", "confirmed", "cleared", "error" */
const char *fab_rerun_name(enum fab_rerun r);
const char *fab_pair_verdict_name(enum fab_pair_verdict v);

#endif
