/* `watch` output: each port's counters from the start to the end of the
 * window (start, end, delta, per second) and the counter findings, for
 * people (text) and machines (JSON: schema, interval_s, duration_s,
 * samples, ports, findings). */
#ifndef RD_OUT_WATCH_OUT_H
#define RD_OUT_WATCH_OUT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "../check/finding.h"
#include "check_out.h"

struct watch_report {
	const struct inventory *inv;	/* ports with their start (model/window.h) */
	double interval_s;
	double duration_s;		/* start to end sample, as measured */
	unsigned long samples;		/* counting the first */
	bool interrupted;		/* stopped early (SIGINT) */
	const struct findings *findings;
};

json_t *watch_to_json(const struct watch_report *rep);
/* o: colour (the findings' severities) and width. */
void text_watch(FILE *out, const struct watch_report *rep, const struct text_opts *o);

#endif
