/* Counters over a window: the values of a port's counters at the start of
 * a window of samples, kept next to the end values in struct port, and the
 * change between the two (`watch`, `check --window`). */
#ifndef RD_MODEL_WINDOW_H
#define RD_MODEL_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include "inventory.h"
#include "port_start.h"

/* Which counters of a port: the PMA counters, hw_counters, `ethtool -S`,
 * the netdev's statistics/ (the first two as false / true for the bool
 * callers). */
enum window_set { WIN_PMA = 0, WIN_HW = 1, WIN_ETH = 2, WIN_NET = 3 };

/* The set of a port (its end values). */
const struct counter_set *window_set_of(const struct port *pt, int set);

/* One counter from the start to the end of the window.  A counter that
 * went down was cleared (or replaced) within the window: reset is set and
 * delta is 0, since how much it grew before the clear is unknown. */
struct counter_change {
	uint64_t start, end, delta;
	bool reset;
};

/* The baseline of a port: its counters as they are now (the PMA counters,
 * hw_counters, ethtool and netdev statistics, carrier_changes, the FEC
 * totals, the DCB pause frames), malloc'ed; NULL without memory.  The one
 * way a baseline is taken: window_start below (check --window, watch,
 * fabric --load through collect/counter_window.h) and the agent's memory
 * (state/latch_base.h, serve and check --state) take theirs with it. */
struct port_start *window_baseline(const struct port *pt);

/* Make the current counters of every port the start of a window (replacing
 * any earlier start).  0 or -ENOMEM. */
int window_start(struct inventory *inv);

/* The change of a named counter of pt's set (enum window_set; false /
 * true: PMA / hw_counters) over the window; false when the port has no
 * window or either sample lacks it. */
bool window_change(const struct port *pt, int set, const char *name,
		   struct counter_change *out);
/* The DCB PFC pause frames of one priority (tx: sent, else received). */
bool window_pause(const struct port *pt, int prio, bool tx, struct counter_change *out);
/* The same for the netdev's carrier_changes. */
bool window_carrier(const struct port *pt, struct counter_change *out);
/* The same for a FEC counter's total (both samples' FEC statistics). */
bool window_fec(const struct port *pt, enum fec_counter k, struct counter_change *out);

#endif
