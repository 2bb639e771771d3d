/* The model's shape of a plan (model_shape.h). */
#include "model_shape.h"
#include "shapes.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int plan_dtype_bytes(const char *t)
{
	if (strcasecmp(t, "bf16") == 0 || strcasecmp(t, "fp16") == 0)
		return 2;
	if (strcasecmp(t, "fp32") == 0)
		return 4;
	return 0;
}

/* The shape of s under what the command line gave. */
static void take_shape(const struct plan_shape_ask *a, struct plan_job *j,
		       const struct plan_shape *s)
{
	if (!a->params)
		j->params = s->params;
	if (!a->has_layers)
		j->layers = s->layers;
	if (!a->has_hidden)
		j->hidden = s->hidden;
	if (!a->has_experts)
		j->experts = s->experts;
	if (!a->has_topk)
		j->top_k = s->top_k;
	/* another hidden size is another model: its heads are not known */
	if (!a->has_hidden) {
		j->heads = s->heads;
		j->kv_heads = s->kv_heads;
	}
	j->moe_layers = a->moe_layers ? (int)a->moe_layers :
			j->experts ? j->layers - (j->layers > s->dense_layers ? s->dense_layers : 0) :
				     j->layers;
}

/* The job's parallelism needs a shape value the command line did not give. */
static bool shape_missing(const struct plan_shape_ask *a, const struct plan_job *j)
{
	bool tp_pp = j->tp > 1 || j->pp > 1;

	return ((tp_pp || j->ep > 1) && !a->has_hidden) || (tp_pp && !a->has_layers) ||
	       (j->ep > 1 && !a->has_experts);
}

/* The reason, malloc'd (NULL when out of memory), into *why. */
static int refuse(char **why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int refuse(char **why, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	*why = n < 0 ? NULL : malloc((size_t)n + 1);
	if (*why) {
		va_start(ap, fmt);
		vsnprintf(*why, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* buf + at, as far as len allows; where the text ends now. */
static size_t append(char *buf, size_t len, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static size_t append(char *buf, size_t len, size_t at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (at >= len)
		return at;
	va_start(ap, fmt);
	n = vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
	return n < 0 ? len : at + (size_t)n;
}

/* --params alone, where the parallelism needs the shape: the built-in
 * model of exactly that size, when all of that size share one shape
 * (Llama 2 70B and Llama 3 70B do).  assumed: what the output says. */
static int assume_shape(const struct plan_shape_ask *a, struct plan_job *j, const char *prog,
			const char **title, char *assumed, size_t len, char **why)
{
	const struct plan_shape *s = plan_shape_of_params(j->params, 0), *o;
	size_t used;

	if (!s)
		return refuse(why, "--params %s is no built-in model's size, and tensor, "
			      "pipeline and expert parallelism need the shape: give --hidden H and "
			      "--layers L (--experts E --top-k K for --ep), or --model NAME (`%s "
			      "plan --models` lists them)", a->params, prog);
	for (size_t i = 1; (o = plan_shape_of_params(j->params, i)); i++)
		if (!plan_shape_same(s, o))
			return refuse(why, "--params %s is the size of %s and of %s, which "
				      "have other shapes: give --model NAME, or --hidden H and "
				      "--layers L", a->params, s->title, o->title);
	take_shape(a, j, s);
	*title = s->title;
	/* the job's values: what the command line gave still wins */
	used = append(assumed, len, 0, "shape assumed from %s (%d layers, hidden %d",
		      s->title, j->layers, j->hidden);
	if (j->experts)
		used = append(assumed, len, used, ", %d experts, top-%d", j->experts, j->top_k);
	used = append(assumed, len, used, "), the built-in model of --params %s", a->params);
	for (size_t i = 1; (o = plan_shape_of_params(j->params, i)); i++)
		used = append(assumed, len, used, " (%s has the same shape)", o->title);
	append(assumed, len, used, "; give --layers and --hidden, or --model NAME, for another");
	return 0;
}

int plan_model_shape(const struct plan_shape_ask *a, struct plan_job *j, const char *prog,
		     const char **title, char *assumed, size_t len, char **why)
{
	const struct plan_shape *s;

	*title = NULL;
	assumed[0] = '\0';
	if (!a->model) {
		if (!a->params)
			return refuse(why, "give the model: --params 70B, or --model NAME "
				      "(`%s plan --models` lists them)", prog);
		if (shape_missing(a, j))
			return assume_shape(a, j, prog, title, assumed, len, why);
		if (a->moe_layers)
			j->moe_layers = (int)a->moe_layers;
		else
			j->moe_layers = j->layers;
		return 0;
	}
	s = plan_shape_find(a->model);
	if (!s)
		return refuse(why, "no built-in model '%s' (`%s plan --models` lists them; "
			      "or give --params and the shape)", a->model, prog);
	*title = s->title;
	take_shape(a, j, s);
	return 0;
}
