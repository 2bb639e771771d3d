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

/* Notes kept of a job script's lines that were not read (the first ones;
 * all are counted). */
#define NCCL_ENV_NOTES 8
#define NCCL_ENV_NOTE_MAX 160

struct nccl_env {
	struct nccl_env_var *v;		/* the last assignment of a name wins */
	size_t n, cap;
	/* nccl_env_parse_script: lines that are no assignment (a command, a
	 * keyword) or whose value the shell would compute, not read */
	unsigned skipped;
	unsigned n_notes;
	char notes[NCCL_ENV_NOTES][NCCL_ENV_NOTE_MAX];	/* "line 7: srun ...: ..." */
};

/* Parse text (len bytes, not NUL-terminated) into env.  A line that is
 * not an assignment, a comment or blank is an error naming the line.
 * 0, or -1 with err set (env then empty), or -ENOMEM. */
int nccl_env_parse(const char *text, size_t len, struct nccl_env *env, char *err,
		   size_t errsz);
/* A job script as sbatch takes it: its assignments (as nccl_env_parse
 * reads them) and the NAME=value items of `#SBATCH --export=...`, with
 * every other line (srun, if, module load, an assignment the shell would
 * compute) skipped and counted, the first ones noted in env->notes.  -1
 * (err set) only for what is no text: a NUL byte, more than 1 MiB. */
int nccl_env_parse_script(const char *text, size_t len, struct nccl_env *env, char *err,
			  size_t errsz);
/* The variables of envp (NULL-terminated "NAME=value") whose names start
 * with NCCL_ or HCCL_.  0 or -ENOMEM. */
int nccl_env_from(char *const *envp, struct nccl_env *env);
/* The value of name, or NULL. */
const char *nccl_env_get(const struct nccl_env *env, const char *name);
void nccl_env_free(struct nccl_env *env);

#endif
