/* rdmadoctor nccl: the environment a training job's collective library
 * should be given on this machine, derived from what check reads (the
 * rails and their roles, GIDs, DSCP and PFC, GPU-NIC placement,
 * GPUDirect), each value with why and nothing that cannot be justified
 * (docs/nccl.md, docs/json/nccl.md). */
#include "cmd.h"
#include "../pipeline/check_env.h"
#include "../nccl/env_judge.h"
#include "../pipeline/pipeline.h"
#include "../nccl/advice.h"
#include "../check/run.h"
#include "../nccl/facts.h"
#include "../print/nccl_check_out.h"
#include "../print/nccl_out.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct nccl_args {
	const char *profile;
	bool check;
	const char *env;
};

static const struct cmd_opt nccl_opts[] = {
	{ "profile", 0, "NAME|FILE", OPT_STRING_AT(struct nccl_args, profile),
	  .flags = OPT_NONEMPTY,
	  .help = "the profile that says which NICs are rails and which\n"
		  "priority is lossless, instead of the site file's or\n"
		  "the one picked from the machine (as `check`)" },
	{ "check", 0, NULL, OPT_FLAG_AT(struct nccl_args, check),
	  .help = "judge the job's environment against the machine\n"
		  "instead: findings like check's (docs/checks.md, nccl.*)" },
	{ "env", 0, "FILE|environ", OPT_STRING_AT(struct nccl_args, env), .flags = OPT_NONEMPTY,
	  .help = "with --check: NAME=value lines of a job script or\n"
		  "Slurm prolog (default environ: this process's NCCL_*\n"
		  "and HCCL_* variables)" },
	{ 0 }
};

const struct cmd_spec nccl_spec = {
	.name = "nccl",
	.opts = nccl_opts,
	.about =
	"The environment a training job should set on this machine: NCCL's\n"
	"variables (HCCL's on an Ascend machine), derived from what `check` reads:\n"
	"the compute rails that are up (NCCL_IB_HCA, storage NICs and down ports\n"
	"left out), the RoCE v2 IPv4 GID index (NCCL_IB_GID_INDEX), the lossless\n"
	"priority from the DSCP and PFC setup (NCCL_IB_TC or NCCL_IB_SL), and the\n"
	"GPUDirect RDMA level from the GPU-NIC placement (NCCL_NET_GDR_LEVEL,\n"
	"NCCL_NET_GDR_READ).  One `export NAME=value   # why` line per variable,\n"
	"then a comment for each one left out and why: a variable is set only\n"
	"where the machine justifies it, else NCCL's own default stands.  With\n"
	"--json: one document (docs/json/nccl.md).\n",
	.epilog =
	"Examples:\n"
	"  rdmadoctor nccl > nccl.env && . ./nccl.env   # source it in the job script\n"
	"  rdmadoctor --root examples/dgx-h100 nccl     # a bundled machine\n"
	"\n"
	"The rails are those `check` judges (the profile's [rail] and [storage], the\n"
	"site file's rail/storage lines); docs/nccl.md gives every rule and what NCCL\n"
	"documents for each variable.  Warnings (nothing lossless, no rail up, a\n"
	"rail only across the socket link from every GPU) and errors (a value that\n"
	"cannot be derived: rails with different GID indices) go to stderr.\n"
	"\n"
	"--check [--env FILE]: the job's NCCL_*/HCCL_* variables judged against the\n"
	"machine (an HCA that is not there, down or storage, a GID index that is not\n"
	"RoCE v2 IPv4, a traffic class without PFC, a down interface, a GDR level\n"
	"that forbids the placement), as findings with observed, expected, why and\n"
	"fix; `check --env` adds them to check's verdict.\n"
	"\n"
	"exit: 0 every value derived, no warning (--check: pass); 1 warnings, or a\n"
	"value could not be derived (--check: findings); 2 usage, a broken profile,\n"
	"site file or --env file (its line named); 3 could not read the machine\n"
	"(also: neither GPUs, NPUs nor RDMA devices).\n",
};

/* The roles check gives, with a NIC that is no rail only for its link
 * layer as neither (ROLE_COUNT): NCCL must not be pointed at it. */
static enum nic_role *roles_of(const struct pipeline *pl)
{
	enum nic_role *roles = calloc(pl->inv.n_nics ? pl->inv.n_nics : 1, sizeof(*roles));
	const struct site *site = pl->has_site ? &pl->site : NULL;
	bool *wrong;

	if (!roles)
		return NULL;
	check_roles(&pl->inv, pl->profile, site, roles);
	wrong = check_wrong_links(&pl->inv, pl->profile, site);
	if (!wrong) {
		free(roles);
		return NULL;
	}
	for (size_t i = 0; i < pl->inv.n_nics; i++)
		if (wrong[i])
			roles[i] = ROLE_COUNT;
	free(wrong);
	return roles;
}

static void say(const struct ctx *c, const struct nccl_advice *a)
{
	for (size_t i = 0; i < a->n_errors; i++)
		fprintf(stderr, "%s nccl: %s\n", c->prog, a->errors[i]);
	for (size_t i = 0; !c->quiet && i < a->n_warnings; i++)
		fprintf(stderr, "%s nccl: warning: %s\n", c->prog, a->warnings[i]);
}

static int emit(struct ctx *c, const struct nccl_advice *a)
{
	FILE *out;
	int rc;

	if (c->json) {
		rc = ctx_emit_json(c, nccl_advice_to_json(a));
	} else {
		out = ctx_open_text(c);
		if (!out)
			return EXIT_RUNTIME;
		text_nccl_advice(out, a);
		rc = ctx_close_text(c, out);
		say(c, a);
	}
	if (rc == EXIT_OK && (a->n_errors || a->n_warnings))
		rc = EXIT_PROBLEMS;
	return rc;
}

/* --check: env judged against f and printed like check's findings.
 * EXIT_OK pass, EXIT_PROBLEMS findings, EXIT_RUNTIME. */
static int check_env(struct ctx *c, const struct nccl_facts *f, const struct nccl_env *env,
		     const char *from)
{
	struct findings fs = { 0 };
	int rc = EXIT_OK;

	if (nccl_env_judge(f, env, &fs) < 0)
		rc = ctx_fail(c, "%s: out of memory", c->prog);
	else
		check_sort(&fs);
	if (rc == EXIT_OK && c->json) {
		rc = ctx_emit_json(c, nccl_check_to_json(f, env, from, &fs));
	} else if (rc == EXIT_OK) {
		FILE *out = ctx_open_text(c);
		struct text_opts o = ctx_text_opts(c);

		rc = EXIT_RUNTIME;
		if (out) {
			text_nccl_check(out, env, from, &fs, &o);
			rc = ctx_close_text(c, out);
		}
	}
	if (rc == EXIT_OK && strcmp(check_verdict(&fs), "pass") != 0)
		rc = EXIT_PROBLEMS;
	findings_free(&fs);
	return rc;
}

/* The advice of a collected machine whose profile is chosen, or with
 * --check the judgement of env against it. */
static int advise(struct ctx *c, struct pipeline *pl, const struct nccl_args *args,
		  const struct nccl_env *env)
{
	enum nic_role *roles = roles_of(pl);
	struct nccl_facts f;
	struct nccl_advice a;
	int rc;

	if (!roles)
		return ctx_fail(c, "%s: out of memory", c->prog);
	if (args->check) {
		rc = check_env_facts(pl, roles, &f);
		free(roles);
		if (rc < 0)
			return ctx_fail(c, "%s: out of memory", c->prog);
		rc = check_env(c, &f, env, args->env ? args->env : "environ");
		check_env_facts_free(&f);
		return rc;
	}
	rc = nccl_facts_of(&pl->inv, roles, pl->profile, &f);
	free(roles);
	if (rc == 0) {
		rc = f.ascend ? hccl_advise(&pl->inv, pl->profile, &a) :
				nccl_advise(&f, pl->profile, &a);
		nccl_facts_free(&f);
	}
	if (rc < 0)
		return ctx_fail(c, "%s: out of memory", c->prog);
	rc = emit(c, &a);
	nccl_advice_free(&a);
	return rc;
}

int cmd_nccl(struct ctx *c, int argc, char **argv)
{
	struct nccl_args a = { 0 };
	struct nccl_env env = { 0 };
	struct pipeline_option option;
	struct pipeline pl;
	int n, rc = opts_parse(c, &nccl_spec, argc, argv, &a, &n);

	if (rc != CMD_GO_ON)
		return rc;
	if (a.env && !a.check) {
		fprintf(stderr, "%s nccl: --env is the environment --check judges: give --check "
			"with it\n(see `%s nccl --help`)\n", c->prog, c->prog);
		return EXIT_USAGE;
	}
	/* the job's environment first: a bad line is a usage error before
	 * the machine is read */
	if (a.check && (rc = check_env_load(c, "nccl", a.env ? a.env : "environ", &env)) != EXIT_OK)
		return rc;
	rc = pipeline_option(c, "nccl", a.profile, &option);
	if (rc >= 0) {
		nccl_env_free(&env);
		return rc;
	}
	rc = pipeline_collect(c, "nccl", &pl, false);
	if (rc == EXIT_OK)
		rc = pipeline_choose(c, &pl, &option);
	if (rc == EXIT_OK && !pl.inv.n_gpus && !inventory_has_network(&pl.inv)) {
		rc = ctx_fail(c, "%s nccl: nothing to derive under '%s': no GPU, no NPU and no "
			      "RDMA device", c->prog, c->root_dir);
		if (!c->quiet)
			ctx_hint_no_devices(c);
	}
	if (rc == EXIT_OK)
		rc = advise(c, &pl, &a, &env);
	/* a script that reads the document gets one that says why */
	if (rc == EXIT_RUNTIME && c->json)
		ctx_emit_json(c, json_pack("{s:i, s:s, s:s, s:s}", "schema", NCCL_SCHEMA, "test",
					   "nccl", "verdict", "error", "error",
					   c->error[0] ? c->error : "could not run"));
	pipeline_free(&pl);
	pipeline_option_free(&option);
	nccl_env_free(&env);
	return rc;
}
