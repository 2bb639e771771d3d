/* What a finished fabric run reports: the nodes, the rounds that ran, every
 * pair-rail measured, and the judgement.  cmd/fabric.c fills it on rank 0,
 * fabric/judge.c judges it, out/fabric_out.c prints it (docs/json/fabric.md). */
#ifndef RD_FABRIC_REPORT_H
#define RD_FABRIC_REPORT_H

#include "judge.h"
#include "schedule.h"

#define FAB_SCHEMA 1

struct fab_report {
	const struct fab_node *nodes;
	uint32_t n_nodes;
	const struct fab_result *results;
	size_t n_results;
	const struct fab_schedule *main_rounds, *retest_rounds;
	const struct fab_judgement *j;
	const char *transport;	/* "tcp" or "verbs" */
	const char *mode;	/* "full", "quick", "pairs" */
	uint64_t size;
	double duration_s, warmup_s, slot_s, wall_s;
	uint32_t qps;
	bool bidir, lat;
	double tolerance, floor_gbps;	/* NAN: no floor */
	const char *floor_why;	/* where the floor came from, or NULL */
	const char *error;	/* the run could not finish: why (verdict error) */
};

#endif
