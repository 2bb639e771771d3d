/* A job's environment as `NAME=value` assignments: the process's own
 * (environ) or a file as a job script or Slurm prolog has it (`export
 * NAME=value`, `NAME="value"`, comments, blank lines).  The file is
 * outside bytes: every line is checked, fuzzed by tests/fuzz/fuzz_nccl_env.c. */
#ifndef RD_NCCL_ENV_H
#define RD_NCCL_ENV_H

#include <stddef.h>

struct nccl_env_var {
	char *name, *value;
	unsigned line;			/* 1-based line of the file; 0 from environ */
};

struct nccl_env {
	struct nccl_env_var *v;		/* the last assignment of a name wins */
	size_t n, cap;
};

/* Parse text (len bytes, not NUL-terminated) into env.  A line that is
 * not an assignment, a comment or blank is an error naming the line.
 * 0, or -1 with err set (env then empty), or -ENOMEM. */
int nccl_env_parse(const char *text, size_t len, struct nccl_env *env, char *err,
		   size_t errsz);
/* The variables of envp (NULL-terminated "NAME=value") whose names start
 * with NCCL_ or HCCL_.  0 or -ENOMEM. */
int nccl_env_from(char *const *envp, struct nccl_env *env);
/* The value of name, or NULL. */
const char *nccl_env_get(const struct nccl_env *env, const char *name);
void nccl_env_free(struct nccl_env *env);

#endif
