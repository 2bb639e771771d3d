/* The shapes come from each model's published configuration (its paper or
 * its config.json): parameter count, decoder layers, hidden size,
 * attention heads, key/value heads (num_key_value_heads), routed experts
 * and experts per token. */
#include "shapes.h"

#include <math.h>
#include <strings.h>

static const struct plan_shape shapes[] = {
	{ "llama2-7b", "Llama 2 7B", 7e9, 32, 4096, 32, 32, 0, 0, 0 },
	{ "llama2-13b", "Llama 2 13B", 13e9, 40, 5120, 40, 40, 0, 0, 0 },
	{ "llama2-70b", "Llama 2 70B", 70e9, 80, 8192, 64, 8, 0, 0, 0 },
	{ "llama3-8b", "Llama 3 8B", 8e9, 32, 4096, 32, 8, 0, 0, 0 },
	{ "llama3-70b", "Llama 3 70B", 70e9, 80, 8192, 64, 8, 0, 0, 0 },
	{ "llama3-405b", "Llama 3.1 405B", 405e9, 126, 16384, 128, 8, 0, 0, 0 },
	{ "mixtral-8x7b", "Mixtral 8x7B", 46.7e9, 32, 4096, 32, 8, 8, 2, 0 },
	{ "mixtral-8x22b", "Mixtral 8x22B", 141e9, 56, 6144, 48, 8, 8, 2, 0 },
	/* MLA: its config.json gives as many KV heads as heads */
	{ "deepseek-v3", "DeepSeek-V3 671B", 671e9, 61, 7168, 128, 128, 256, 8, 3 },
};

size_t plan_shape_count(void)
{
	return sizeof(shapes) / sizeof(shapes[0]);
}

const struct plan_shape *plan_shape_at(size_t i)
{
	return i < plan_shape_count() ? &shapes[i] : NULL;
}

const struct plan_shape *plan_shape_find(const char *name)
{
	for (size_t i = 0; name && i < plan_shape_count(); i++)
		if (strcasecmp(shapes[i].name, name) == 0)
			return &shapes[i];
	return NULL;
}

const struct plan_shape *plan_shape_of_params(double params, size_t i)
{
	for (size_t k = 0; k < plan_shape_count(); k++)
		if (fabs(shapes[k].params - params) <= shapes[k].params * 1e-6 && i-- == 0)
			return &shapes[k];
	return NULL;
}

bool plan_shape_same(const struct plan_shape *a, const struct plan_shape *b)
{
	return a->layers == b->layers && a->hidden == b->hidden && a->heads == b->heads &&
	       a->kv_heads == b->kv_heads &&
	       a->experts == b->experts && a->top_k == b->top_k &&
	       a->dense_layers == b->dense_layers;
}
