/* The baseline of one port: the values of its counters at the start of a
 * window, kept next to the end values in struct port (its start).  Taken
 * one way, by model/window.h's window_baseline. */
#ifndef RD_MODEL_PORT_START_H
#define RD_MODEL_PORT_START_H

#include <stdint.h>

#include "counter_set.h"
#include "fec_stats.h"

struct port_start {
	struct counter_set counters, hw_counters;
	struct counter_set eth_stats, net_stats;	/* v NULL: not read */
	int64_t carrier_changes;	/* NA when unknown */
	int64_t pause_tx[8], pause_rx[8];	/* DCB PFC pause frames; NA */
	/* the FEC counters' totals (link->fec_stats); n 0: not read */
	struct fec_count fec[FEC_COUNTERS];
};

void port_start_free(struct port_start *s);

#endif
