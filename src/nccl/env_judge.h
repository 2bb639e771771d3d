/* rdmadoctor nccl --check: a job's NCCL/HCCL environment judged against
 * the machine's facts (nccl/facts.h).  Pure; each problem is a check
 * finding (check/finding.h) with an id "nccl.*" from the catalog
 * (check/catalog.c, docs/checks.md): observed, expected, why and fix. */
#ifndef RD_NCCL_ENV_JUDGE_H
#define RD_NCCL_ENV_JUDGE_H

#include "env.h"
#include "facts.h"
#include "../check/finding.h"

/* Judge the variables in env (only those it knows; others are left
 * alone) against f.  0 or -ENOMEM. */
int nccl_env_judge(const struct nccl_facts *f, const struct nccl_env *env,
		   struct findings *out);

#endif
