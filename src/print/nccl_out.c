/* `nccl`'s advice as text and JSON (print/nccl_out.h). */
#include "nccl_out.h"

#include <string.h>

const char *nccl_advice_verdict(const struct nccl_advice *a)
{
	if (a->n_errors)
		return "error";
	return a->n_warnings ? "warn" : "ok";
}

/* The values are shell words as they stand ("=mlx5_0:1,mlx5_1:1", "3",
 * "PXB"): nothing in them a shell would expand, so no quoting to undo. */
void text_nccl_advice(FILE *out, const struct nccl_advice *a)
{
	if (a->library && strcmp(a->library, "rccl") == 0)
		fputs("# RCCL (AMD GPUs): it reads the NCCL_* variables as NCCL does, and "
		      "RCCL_* ones of its own\n", out);
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].value)
			fprintf(out, "export %s=%s   # %s\n", a->v[i].name, a->v[i].value,
				a->v[i].why);
	for (size_t i = 0; i < a->n; i++)
		if (!a->v[i].value)
			fprintf(out, "# %s not set: %s\n", a->v[i].name, a->v[i].why);
}

static json_t *strings(char *const *v, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr && i < n; i++)
		if (json_array_append_new(arr, json_string(v[i])) < 0) {
			json_decref(arr);
			return NULL;
		}
	return arr;
}

json_t *nccl_advice_to_json(const struct nccl_advice *a)
{
	json_t *vars = json_array(), *left = json_array();
	int bad = !vars || !left;

	for (size_t i = 0; !bad && i < a->n; i++) {
		const struct nccl_var *v = &a->v[i];

		if (v->value)
			bad = json_array_append_new(vars, json_pack("{s:s, s:s, s:s}", "name",
								    v->name, "value", v->value,
								    "why", v->why)) < 0;
		else
			bad = json_array_append_new(left, json_pack("{s:s, s:s}", "name",
								    v->name, "why",
								    v->why)) < 0;
	}
	if (bad) {
		json_decref(vars);
		json_decref(left);
		return NULL;
	}
	/* "o" takes the references, also of a NULL it refuses */
	return json_pack("{s:i, s:s, s:s, s:o, s:o, s:o, s:o, s:s}", "schema", NCCL_SCHEMA,
			 "test", "nccl", "library", a->library, "vars", vars, "left_out", left,
			 "warnings", strings(a->warnings, a->n_warnings), "errors",
			 strings(a->errors, a->n_errors), "verdict", nccl_advice_verdict(a));
}
