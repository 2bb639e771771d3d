/* What `serve` exposes to Prometheus, built from the inventory and the
 * check's findings.  A consumer: it reads the model and writes text, and
 * never touches the system (src/cmd/serve.c reads, times and serves).
 *
 * Names carry the rdmadoctor_ prefix and base units (bytes, seconds, bytes
 * per second even for link rates, as promtool insists; transfers per
 * second); counters end in _total.  A value that
 * is not known is left out, never written as 0.
 *
 * Errors: the exposition buffer (expo.h) is sticky: a write that could not
 * grow it marks it, later writes are dropped, and the one check at the
 * end (metrics_render's result) says -ENOMEM.  Nothing here prints. */
#ifndef RD_METRICS_METRICS_H
#define RD_METRICS_METRICS_H

#include "expo.h"
#include "../check/finding.h"
#include "../model/inventory.h"

struct metrics_report {
	/* the refresh: NULL inventory when it could not be read */
	const struct inventory *inv;
	const struct findings *findings;	/* NULL: the check did not run */
	const char *profile;		/* the profile judged against */
	double check_time;		/* unix seconds of the reading */
	double refresh_seconds;		/* how long reading and judging took */
	/* the server's own bookkeeping */
	const char *version;		/* rdmadoctor */
	const char *http_version;	/* libmicrohttpd */
	uint64_t refreshes, refresh_failures;
};

/* Append every family to e; 0, or -ENOMEM when e failed. */
int metrics_render(const struct metrics_report *rep, struct expo *e);

#endif
