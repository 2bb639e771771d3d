/* rdmadoctor nccl --check [--env FILE]: a job's NCCL/HCCL environment (the
 * process's own, or a file of NAME=value lines as a job script or Slurm
 * prolog has it) judged against the machine's facts (nccl/env_judge.h),
 * as findings printed like check's (nccl_check_out.h). */
#include "nccl_check_out.h"
#include "nccl_out.h"

#include <stdio.h>

static json_t *vars_json(const struct nccl_env *env)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < env->n; i++)
		json_object_set_new(o, env->v[i].name, json_string(env->v[i].value));
	return o;
}

json_t *nccl_check_to_json(const struct nccl_facts *f, const struct nccl_env *env,
			   const char *from, const struct findings *fs)
{
	return json_pack("{s:i, s:s, s:s, s:s, s:o, s:o, s:s}", "schema", NCCL_SCHEMA, "test",
			 "nccl-check", "library", f->ascend ? "hccl" : "nccl", "env_from", from,
			 "vars", vars_json(env), "findings", findings_to_json(fs), "verdict",
			 check_verdict(fs));
}

void text_nccl_check(FILE *out, const struct nccl_env *env, const char *from,
		     const struct findings *fs, const struct text_opts *o)
{
	text_findings(out, fs, o);
	fprintf(out, "verdict: %s (%zu variable%s from %s)\n", check_verdict(fs), env->n,
		env->n == 1 ? "" : "s", from);
}
