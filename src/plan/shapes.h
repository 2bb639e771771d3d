/* Built-in model shapes: what a planner needs of a published model. */
#ifndef RD_PLAN_SHAPES_H
#define RD_PLAN_SHAPES_H

#include <stdbool.h>
#include <stddef.h>

struct plan_shape {
	const char *name;	/* "llama3-70b": lower case, as --model takes it */
	const char *title;	/* "Llama 3 70B" */
	double params;		/* all parameters, experts included */
	int layers, hidden, heads;
	int kv_heads;		/* key/value heads: fewer than heads with
				 * grouped-query attention (num_key_value_heads) */
	int experts, top_k;	/* routed experts per MoE layer and per token; 0 dense */
	int dense_layers;	/* leading layers without experts (MoE models) */
};

size_t plan_shape_count(void);
const struct plan_shape *plan_shape_at(size_t i);
/* By name, case ignored; NULL when not built in. */
const struct plan_shape *plan_shape_find(const char *name);
/* The i-th built-in model (from 0) of this parameter count (within a
 * millionth: "46.7B" is Mixtral 8x7B); NULL after the last. */
const struct plan_shape *plan_shape_of_params(double params, size_t i);
/* Two shapes a planner cannot tell apart: layers, hidden size, heads,
 * KV heads, experts, experts per token and leading dense layers alike. */
bool plan_shape_same(const struct plan_shape *a, const struct plan_shape *b);

#endif
