/* A counter window around a reading: the one API that takes a baseline of
 * every port and samples the counters again, for `check --window`,
 * `watch` and `fabric --load` (`serve` and `check --state` take theirs
 * from the agent's memory, state/latch_base.h, with the same
 * model/window.h window_baseline).  The window's changes are then read
 * with model/window.h (window_change, window_fec, ...).
 *
 *   counter_window_begin   the inventory's counters as they are: the start
 *   counter_window_open    the counters read anew, then the start (a
 *                          reading whose inventory is older: fabric --load)
 *   counter_window_sample  the counters read anew: the end
 *   counter_window_run     begin .. sample every interval for a duration,
 *                          Ctrl-C ending it early; inv->window_s set
 *   counter_window_until   the end from a later snapshot (replay)
 *
 * Each returns 0 or a negative errno and never prints. */
#ifndef RD_COLLECT_COUNTER_WINDOW_H
#define RD_COLLECT_COUNTER_WINDOW_H

#include <stdbool.h>

#include "../model/inventory.h"

struct root;

struct counter_window {
	double interval, duration;	/* seconds */
	/* after each sample within the duration, when set (watch's line) */
	void (*progress)(const struct inventory *inv, const struct counter_window *w,
			 void *arg);
	void *arg;
	/* out */
	unsigned long samples;	/* the start counted */
	double elapsed;		/* seconds, at least 1e-6 */
	bool interrupted;	/* Ctrl-C (or another signal) ended it early */
};

int counter_window_begin(struct inventory *inv);
int counter_window_open(struct root *r, struct inventory *inv);
int counter_window_sample(struct root *r, struct inventory *inv);
/* Sample every w->interval until w->duration is over or SIGINT stops it
 * (SIGINT is caught meanwhile; the caller's handler is put back), at least
 * once.  The start must be taken before.  0 with inv->window_s the
 * elapsed time, or the sample's negative errno. */
int counter_window_run(struct root *r, struct inventory *inv, struct counter_window *w);
/* SIGINT ends a window early from now on (watch: also while collecting);
 * counter_window_catch_end puts the old handler back. */
void counter_window_catch(void);
void counter_window_catch_end(void);
/* The end sample from later, a snapshot taken duration seconds after the
 * one inv was read from.  0, or the sample's negative errno. */
int counter_window_until(struct root *later, struct inventory *inv, double duration);

#endif
