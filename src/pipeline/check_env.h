/* `check --env FILE|environ` (and `nccl --check --env`): a job's
 * NCCL/HCCL environment read and judged against the machine check read
 * (nccl/env_judge.h), its nccl.* findings added to check's. */
#ifndef RD_PIPELINE_CHECK_ENV_H
#define RD_PIPELINE_CHECK_ENV_H

#include "ctx.h"
#include "pipeline.h"
#include "../nccl/env.h"

/* arg "environ": this process's NCCL_* and HCCL_* variables; else a file
 * of NAME=value lines (a job script, a prolog; "./environ" for a file of
 * that name).  EXIT_OK, EXIT_USAGE (the file cannot be read, or a line
 * of it is no assignment: the line named) or EXIT_RUNTIME (memory);
 * printed as `PROG VERB: ...`. */
int check_env_load(struct ctx *c, const char *verb, const char *arg, struct nccl_env *env);
/* The facts a job's environment is judged against: pl's machine (roles:
 * one per NIC) and the host's interfaces, read through pl's root.  0 or
 * -ENOMEM; free with check_env_facts_free. */
struct nccl_facts;
int check_env_facts(struct pipeline *pl, const enum nic_role *roles, struct nccl_facts *f);
void check_env_facts_free(struct nccl_facts *f);
/* Judge env against pl's machine (judged: its roles set) and add the
 * findings to pl->findings, waived by the site file and sorted.
 * EXIT_OK or EXIT_RUNTIME. */
int check_env_judge(struct ctx *c, struct pipeline *pl, const struct nccl_env *env);

#endif
