/* `plan` for people (the verdict first, then the traffic by kind) and for
 * machines (docs/json/plan.md). */
#ifndef RD_OUT_PLAN_OUT_H
#define RD_OUT_PLAN_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "../plan/plan.h"

#define PLAN_SCHEMA 1

struct plan_report {
	const struct plan_job *job;
	const struct plan_machine *machine;
	const struct plan_result *result;
	const char *model;		/* "Llama 3 70B", or NULL for --params alone */
	const char *dtype, *grad_dtype;	/* "bf16" */
	const char *source;		/* where the machine came from, in words */
	const char *measured_from;	/* where measured figures came from; NULL */
	const char *shape_assumed;	/* --params named a built-in model whose shape
					 * was taken, in words; NULL otherwise */
};

void plan_print_text(FILE *out, const struct plan_report *p);
/* NULL when out of memory. */
json_t *plan_to_json(const struct plan_report *p);

#endif
