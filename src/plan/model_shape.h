/* The model's shape of a plan: --model's built-in shape under what the
 * command line gave, or one assumed from --params where the parallelism
 * needs it; and the data types' sizes. */
#ifndef RD_PLAN_MODEL_SHAPE_H
#define RD_PLAN_MODEL_SHAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "types.h"

/* What the command line said of the model. */
struct plan_shape_ask {
	const char *model, *params;	/* --model NAME, --params text; NULL */
	long long moe_layers;		/* 0: not given */
	/* which shape values the command line gave (they beat --model's) */
	bool has_layers, has_hidden, has_experts, has_topk;
};

/* Bytes per element of "bf16", "fp16" or "fp32" (case ignored); 0 for
 * another. */
int plan_dtype_bytes(const char *t);

/* Fills j's shape from ask (j holds what the command line gave).  title:
 * the model's title or NULL; assumed: what the output says of a shape
 * assumed from --params, "" when none.  prog names the program in the
 * advice.  0, or -EINVAL with the reason in *why (malloc'd, NULL when out
 * of memory; lower case, no "prog plan: "). */
int plan_model_shape(const struct plan_shape_ask *ask, struct plan_job *j, const char *prog,
		     const char **title, char *assumed, size_t len, char **why);

#endif
