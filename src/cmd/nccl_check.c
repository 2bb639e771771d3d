/* rdmadoctor nccl --check [--env FILE]: a job's NCCL/HCCL environment (the
 * process's own, or a file of NAME=value lines as a job script or Slurm
 * prolog has it) judged against the machine's facts (nccl/env_judge.h),
 * as findings printed like check's (nccl_check.h). */
#include "nccl_check.h"
#include "../nccl/env_judge.h"
#include "../print/check_out.h"
#include "../print/nccl_out.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *vars_json(const struct nccl_env *env)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < env->n; i++)
		json_object_set_new(o, env->v[i].name, json_string(env->v[i].value));
	return o;
}

static int emit(struct ctx *c, const struct nccl_facts *f, const struct nccl_env *env,
		const char *from, const struct findings *fs)
{
	FILE *out;

	if (c->json)
		return ctx_emit_json(c, json_pack("{s:i, s:s, s:s, s:s, s:o, s:o, s:s}", "schema",
						  NCCL_SCHEMA, "test", "nccl-check", "library",
						  f->ascend ? "hccl" : "nccl", "env_from", from,
						  "vars", vars_json(env), "findings",
						  findings_to_json(fs), "verdict",
						  check_verdict(fs)));
	out = ctx_open_text(c);
	if (!out)
		return EXIT_RUNTIME;
	struct text_opts o = ctx_text_opts(c);

	text_findings(out, fs, &o);
	fprintf(out, "verdict: %s (%zu variable%s from %s)\n", check_verdict(fs), env->n,
		env->n == 1 ? "" : "s", from);
	return ctx_close_text(c, out);
}

int nccl_check_run(struct ctx *c, const struct nccl_facts *f, const struct nccl_env *env,
		   const char *from)
{
	struct findings fs = { 0 };
	int rc = EXIT_OK;

	if (nccl_env_judge(f, env, &fs) < 0)
		rc = ctx_fail(c, "%s: out of memory", c->prog);
	else
		check_sort(&fs);
	if (rc == EXIT_OK)
		rc = emit(c, f, env, from, &fs);
	if (rc == EXIT_OK && strcmp(check_verdict(&fs), "pass") != 0)
		rc = EXIT_PROBLEMS;
	findings_free(&fs);
	return rc;
}
