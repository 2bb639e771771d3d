/* `plan --models` (plan_models_out.h). */
#include "plan_models_out.h"
#include "../plan/shapes.h"

void plan_print_models(FILE *out)
{
	fprintf(out, "%-15s %-18s %8s %7s %7s %6s %8s %6s\n", "name", "model", "params",
		"layers", "hidden", "heads", "experts", "top-k");
	for (size_t i = 0; i < plan_shape_count(); i++) {
		const struct plan_shape *s = plan_shape_at(i);

		fprintf(out, "%-15s %-18s %7.4gB %7d %7d %6d %8d %6d\n", s->name, s->title,
			s->params / 1e9, s->layers, s->hidden, s->heads, s->experts, s->top_k);
	}
}
