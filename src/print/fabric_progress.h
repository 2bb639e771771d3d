/* What a fabric run says on stderr beside its report (the plan itself is
 * print/fabric_out.h's): how to start it, and on rank 0 a line per round
 * done and the retest plan. */
#ifndef RD_OUT_FABRIC_PROGRESS_H
#define RD_OUT_FABRIC_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../fabric/schedule.h"

/* "round K/N done (P pairs), S s left"; retest: "retest round ...". */
void fab_round_done_print(FILE *out, const char *prog, bool retest, size_t k,
			  const struct fab_schedule *s, double slot_s);
/* The retest's rounds and their pairs by name. */
void fab_retest_print(FILE *out, const char *prog, const struct fab_schedule *s,
		      char *const *names);

/* Started outside a launcher: how to start it. */
void fab_launch_hint_print(FILE *out, const char *prog);

#endif
