/* What a finished fabric run reports: the nodes, the rounds that ran, every
 * pair-rail measured, and the judgement.  fabric/run_report.c fills it on
 * rank 0, fabric/judge.c judges it, print/fabric_out.c prints it
 * (docs/json/fabric.md). */
#ifndef RD_FABRIC_REPORT_H
#define RD_FABRIC_REPORT_H

#include "judge.h"
#include "load.h"
#include "schedule.h"

#define FAB_SCHEMA 1

/* fabric --load's part (docs/fabric.md, "Under load"). */
struct fab_load_report {
	enum fab_load mode;
	uint32_t fan_in;		/* incast: senders per receiver */
	int traffic_class;		/* 0: the device's default */
	const char *tc_from;		/* where it came from */
	int priority;			/* what it maps to on rank 0's rail 0; -1 unknown */
	double line_gbps;		/* --expect-gbps as every receiver's line; NAN */
	const struct fab_port_load *ports;	/* every rank's, every round */
	size_t n_ports;
	const struct fab_load_judgement *j;
};

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
	const struct fab_load_report *load;	/* --load; NULL: pairs */
};

#endif
