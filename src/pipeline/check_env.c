/* `check --env`: a job's environment judged with the machine (check_env.h).
 * The file is read whole (at most 1 MiB, what nccl_env_parse takes) before
 * the machine is: a bad file is a usage error, named by its line, and
 * costs no inventory. */
#include "check_env.h"
#include "../nccl/env_judge.h"
#include "../nccl/facts.h"
#include "../sysfs/host_netdevs.h"
#include "../check/run.h"
#include "../print/safe_stream.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

#define ENV_FILE_MAX (1u << 20)

/* A job script's lines that were not read: counted on stderr, and named
 * where they speak of NCCL or HCCL (a value the shell computes is one
 * nobody judged); with -v every one noted. */
static void say_skipped(const struct ctx *c, const char *verb, const char *arg,
			const struct nccl_env *env)
{
	FILE *err;

	if (!env->skipped || c->quiet)
		return;
	/* the notes quote the script's lines: filtered like any text output */
	err = safe_stream(stderr);
	if (!err)
		return;
	fprintf(err, "%s %s: --env '%s': %u line%s not read (commands, or values the shell "
		"would compute); %zu assignment%s read\n", c->prog, verb, arg, env->skipped,
		env->skipped == 1 ? "" : "s", env->n, env->n == 1 ? "" : "s");
	for (unsigned i = 0; i < env->n_notes; i++)
		if (c->verbose || strstr(env->notes[i], "NCCL_") || strstr(env->notes[i], "HCCL_"))
			fprintf(err, "%s %s: --env '%s': %s\n", c->prog, verb, arg, env->notes[i]);
	fclose(err);
}

int check_env_load(struct ctx *c, const char *verb, const char *arg, struct nccl_env *env)
{
	char err[240], *text;
	size_t len;
	FILE *f;
	int rc;

	if (strcmp(arg, "environ") == 0) {
		if (nccl_env_from(environ, env) < 0)
			return ctx_fail(c, "%s: out of memory", c->prog);
		return EXIT_OK;
	}
	f = fopen(arg, "re");
	if (!f) {
		fprintf(stderr, "%s %s: cannot open --env '%s': %s\n", c->prog, verb, arg,
			strerror(errno));
		return EXIT_USAGE;
	}
	/* one byte past the bound tells a file over it from one at it */
	text = malloc(ENV_FILE_MAX + 1);
	if (!text) {
		fclose(f);
		return ctx_fail(c, "%s: out of memory", c->prog);
	}
	len = fread(text, 1, ENV_FILE_MAX + 1, f);
	if (ferror(f)) {
		fprintf(stderr, "%s %s: cannot read --env '%s'\n", c->prog, verb, arg);
		fclose(f);
		free(text);
		return EXIT_USAGE;
	}
	fclose(f);
	rc = nccl_env_parse_script(text, len, env, err, sizeof(err));
	free(text);
	if (rc == -1) {
		fprintf(stderr, "%s %s: --env '%s': %s\n", c->prog, verb, arg, err);
		return EXIT_USAGE;
	}
	if (rc < 0)
		return ctx_fail(c, "%s: out of memory", c->prog);
	say_skipped(c, verb, arg, env);
	return EXIT_OK;
}

int check_env_facts(struct pipeline *pl, const enum nic_role *roles, struct nccl_facts *f)
{
	struct host_netdev *nd;
	size_t n;
	int rc = nccl_facts_of(&pl->inv, roles, pl->profile, f);

	if (rc < 0)
		return rc;
	rc = host_netdevs_read(&pl->r, &nd, &n);
	if (rc < 0) {
		nccl_facts_free(f);
		return rc;
	}
	f->netdevs = nd;
	f->n_netdevs = n;
	f->netdevs_read = rc == 0;
	return 0;
}

void check_env_facts_free(struct nccl_facts *f)
{
	host_netdevs_free((struct host_netdev *)f->netdevs, f->n_netdevs);
	nccl_facts_free(f);
}

int check_env_judge(struct ctx *c, struct pipeline *pl, const struct nccl_env *env)
{
	struct nccl_facts facts;
	int rc;

	rc = check_env_facts(pl, pl->roles, &facts);
	if (rc == 0) {
		rc = nccl_env_judge(&facts, env, &pl->findings);
		check_env_facts_free(&facts);
	}
	if (rc < 0)
		return ctx_fail(c, "%s: out of memory", c->prog);
	check_waive(&pl->findings, pl->has_site ? &pl->site : NULL);
	check_sort(&pl->findings);
	return EXIT_OK;
}
