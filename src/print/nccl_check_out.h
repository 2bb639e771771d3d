/* `nccl --check` output: a job's environment judged against the machine's
 * facts, printed like check's findings (text), or as its --json document
 * (docs/json/nccl.md). */
#ifndef RD_PRINT_NCCL_CHECK_OUT_H
#define RD_PRINT_NCCL_CHECK_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "check_out.h"
#include "../check/finding.h"
#include "../nccl/env.h"
#include "../nccl/facts.h"

/* from: where env was read (a file's name or "environ").  NULL when out
 * of memory. */
json_t *nccl_check_to_json(const struct nccl_facts *f, const struct nccl_env *env,
			   const char *from, const struct findings *fs);
void text_nccl_check(FILE *out, const struct nccl_env *env, const char *from,
		     const struct findings *fs, const struct text_opts *o);

#endif
