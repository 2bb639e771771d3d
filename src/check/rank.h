/* The order of findings: by the bandwidth each costs, the most likely
 * cause of lost bandwidth first.  One table (rank.c) for every output:
 * check_sort's order (text, JSON, --brief), the line `--nhc` gives Slurm
 * and the `--npd` headline; docs/checks.md says its basis. */
#ifndef RD_CHECK_RANK_H
#define RD_CHECK_RANK_H

#include <stddef.h>

/* What a finding costs, the most first. */
enum check_cost {
	COST_READING,	/* the reading itself cut short: anything may hide there */
	COST_RAIL_LOST,	/* a rail, or every rail, carries nothing */
	COST_RAIL_SLOW,	/* a rail below its rate (link, lanes, PCIe, cabling) */
	COST_GPU_PATH,	/* GPU traffic staged through host memory or the socket link */
	COST_LOSSLESS,	/* RoCE without lossless delivery: drops, retransmission */
	COST_WIRE,	/* bits lost on the wire: FEC off, a high error ratio */
	COST_OPTICS,	/* a transceiver out of its range: errors next, then the link */
	COST_SETTING,	/* a setting that costs a part (MTU, PCIe payload, GID layout) */
	COST_PAST,	/* a record of faults: kernel log lines, error counters */
	COST_NONE,	/* no bandwidth now: versions, the next boot, context */
	N_COSTS
};

/* The cost of an id: its row in the table, else its family's, else
 * COST_NONE. */
enum check_cost check_cost(const char *id);
/* The position of an id in the order (lower first): by cost, then by its
 * row within that cost; an id with no row of its own comes after its
 * cost's rows. */
unsigned check_rank(const char *id);
/* A cost's name ("rail lost") and one clause of why it stands where it
 * does, static. */
const char *check_cost_name(enum check_cost c);
const char *check_cost_basis(enum check_cost c);

/* The table's rows, in order, for the docs and their test: *n of them. */
struct check_rank_row {
	const char *id;
	enum check_cost cost;
};
const struct check_rank_row *check_rank_rows(size_t *n);

#endif
