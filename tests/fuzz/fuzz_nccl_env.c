/* libFuzzer target: a job script's or Slurm prolog's NAME=value lines
 * (src/nccl/env.c), read by `nccl --check --env FILE` and `check --env
 * FILE`.  Seeds in corpus/nccl_env/.  Whatever parses must keep the
 * documented bounds, and a refusal must name its line; each value is
 * also read as an NCCL_IB_HCA list (src/nccl/if_list.c).  The same bytes
 * are read as a job script too (nccl_env_parse_script), which refuses
 * only what is no text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nccl/env.h"
#include "nccl/if_list.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int name_ok(const char *s)
{
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_'))
		return 0;
	for (s++; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_' ||
		      (*s >= '0' && *s <= '9')))
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nccl_env env;
	char err[200];
	int rc = nccl_env_parse((const char *)data, size, &env, err, sizeof(err));

	if (rc == -1) {
		if (env.n || env.v || (size <= (1u << 20) && strncmp(err, "line ", 5) != 0))
			abort();
		return 0;
	}
	if (rc != 0)
		return 0;
	if (env.n > 4096)
		abort();
	for (size_t i = 0; i < env.n; i++) {
		struct if_list l;

		/* every value also as NCCL_IB_HCA's list: the judge reads it so */
		if (if_list_parse(env.v[i].value, &l, err, sizeof(err)) == 0) {
			if (l.n > IF_LIST_MAX)
				abort();
			for (size_t k = 0; k < l.n; k++)
				if (!l.e[k].name[0] || strlen(l.e[k].name) > IF_NAME_MAX ||
				    l.e[k].port == 0 || l.e[k].port > 255)
					abort();
		}
		if (!name_ok(env.v[i].name) || strlen(env.v[i].name) > 255 ||
		    strlen(env.v[i].value) > 4096 || env.v[i].line == 0 ||
		    nccl_env_get(&env, env.v[i].name) != env.v[i].value)
			abort();
	}
	nccl_env_free(&env);
	/* as a job script: only a NUL, the size bound or the count of variables
	 * refuses it (a refusal names its line); its notes
	 * are bounded and NUL-ended, and it reads every assignment the strict
	 * parse read (the same text, read leniently, loses nothing) */
	rc = nccl_env_parse_script((const char *)data, size, &env, err, sizeof(err));
	if (rc == -1) {
		if (env.n || env.v || (size <= (1u << 20) && strncmp(err, "line ", 5) != 0))
			abort();
		return 0;
	}
	if (rc != 0)
		return 0;
	if (env.n > 4096 || env.n_notes > NCCL_ENV_NOTES || env.n_notes > env.skipped)
		abort();
	for (unsigned i = 0; i < env.n_notes; i++)
		if (!memchr(env.notes[i], '\0', NCCL_ENV_NOTE_MAX))
			abort();
	for (size_t i = 0; i < env.n; i++)
		if (!name_ok(env.v[i].name) || strlen(env.v[i].name) > 255 ||
		    strlen(env.v[i].value) > 4096 || env.v[i].line == 0)
			abort();
	nccl_env_free(&env);
	return 0;
}
