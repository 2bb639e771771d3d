/* rdmadoctor nccl --check: a job's environment judged against the
 * machine's facts and printed like check's findings (cmd/nccl_check.c). */
#ifndef RD_CMD_NCCL_CHECK_H
#define RD_CMD_NCCL_CHECK_H

#include "cmd.h"
#include "../nccl/env.h"
#include "../nccl/facts.h"

/* Judge env (read from `from`: a file's name or "environ") against f and
 * print the findings (text, or --json's document).  EXIT_OK pass,
 * EXIT_PROBLEMS findings, EXIT_RUNTIME. */
int nccl_check_run(struct ctx *c, const struct nccl_facts *f, const struct nccl_env *env,
		   const char *from);

#endif
