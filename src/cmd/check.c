#include "cmd.h"
#include "../pipeline/check_env.h"
#include "../opt/hold.h"
#include "../pipeline/latch_run.h"
#include "../pipeline/pipeline.h"
#include "../check/finding.h"
#include "../print/check_out.h"
#include "../print/json.h"
#include "../print/npd_out.h"
#include "../profiles/profile.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct check_args {
	const char *profile;
	bool nhc, npd, brief, list;
	double window;		/* 0: none */
	const char *until;
	const char *env;	/* --env FILE|environ; NULL: none */
	struct latch_opts latch;	/* --state DIR, --hold */
	bool hold_set;
};

static int take_state(struct ctx *c, void *a, const char *v)
{
	(void)c;
	((struct check_args *)a)->latch.dir = v;
	return CMD_GO_ON;
}

static int take_hold(struct ctx *c, void *a, const char *v)
{
	((struct check_args *)a)->hold_set = true;
	return opt_hold(c, "check", &((struct check_args *)a)->latch, v);
}

static const struct cmd_opt check_opts[] = {
	{ "profile", 0, "NAME|FILE", OPT_STRING_AT(struct check_args, profile),
	  .flags = OPT_NONEMPTY,
	  .help = "judge against this profile instead of the site file's\n"
		  "or the one picked from the DMI product name and the\n"
		  "GPUs (`rdmadoctor profiles` lists the built-in ones)" },
	{ "nhc", 0, NULL, OPT_FLAG_AT(struct check_args, nhc),
	  .help = "Slurm HealthCheckProgram / NHC mode: print nothing when\n"
		  "healthy, one 'ERROR: ...' line when not" },
	{ "npd", 0, NULL, OPT_FLAG_AT(struct check_args, npd),
	  .help = "Kubernetes Node Problem Detector custom plugin: one\n"
		  "line of at most 80 bytes; exit 0 OK, 1 a problem, 3\n"
		  "unknown (a rail not checked, or could not run)" },
	{ "window", 0, "S", OPT_SECONDS_AT(struct check_args, window, 0.1, 3600),
	  .help = "read the counters again after S seconds (at most\n"
		  "3600): counters.errors then means grew within the\n"
		  "window (error), and link.flaps is judged" },
	{ "until", 0, "DIR2", OPT_STRING_AT(struct check_args, until), .flags = OPT_NONEMPTY,
	  .needs = "a directory",
	  .help = "with --root and --window: the second reading from\n"
		  "DIR2, a snapshot taken S seconds after the first" },
	{ "env", 0, "FILE|environ", OPT_STRING_AT(struct check_args, env),
	  .flags = OPT_NONEMPTY,
	  .help = "also judge a job's NCCL environment against this\n"
		  "machine: FILE of NAME=value lines (a job script or\n"
		  "prolog), or `environ` for this process's NCCL_* and\n"
		  "HCCL_*; adds the nccl.* findings to the verdict" },
	{ "state", 0, "DIR", OPT_CALL_AT(take_state), .flags = OPT_NONEMPTY,
	  .needs = "a directory",
	  .help = "remember what this reading saw in DIR/latched, as\n"
		  "`serve` does: a port that went down and came back, a\n"
		  "flap, counters that grew since the last reading, a\n"
		  "kernel-log fault stay in the verdict until they expire\n"
		  "or `rdmadoctor clear` (docs/state.md)" },
	{ "hold", 0, "CLASS=S", OPT_CALL_AT(take_hold), .help = LATCH_HOLD_HELP },
	{ "brief", 0, NULL, OPT_FLAG_AT(struct check_args, brief),
	  .help = "one line per finding" },
	{ "list", 0, NULL, OPT_FLAG_AT(struct check_args, list),
	  .help = "every check id: what fires it, its severity and fix\n"
		  "(docs/checks.md); nothing is checked" },
	{ 0 }
};

const struct cmd_spec check_spec = {
	.name = "check",
	.opts = check_opts,
	.about =
	"Is this machine's RDMA network fit for training?  Reads the inventory and\n"
	"judges it against the profile of its machine model: every NIC, port, PCIe\n"
	"link and bridge, MTU, GID, counter, GPUDirect and GPU-NIC placement, with\n"
	"what was observed, what was expected, why it matters and the fix to try\n"
	"first.  With --json: the verdict, findings and inventory as one document\n"
	"(docs/json/check.md).\n",
	.epilog =
	"The site file /etc/rdmadoctor/rdmadoctor.conf (under --root) may name the\n"
	"fleet's profile, waive check ids (ignore = sys.job_memlock) and name rail and\n"
	"storage NICs; docs/profiles.md describes it.  What the profile expects but\n"
	"cannot be read is an info saying so, counted as unchecked.\n"
	"\n"
	"--env judges a job's NCCL_* variables too (docs/nccl.md): a storage NIC\n"
	"or unknown device in NCCL_IB_HCA, a rail it leaves idle, a GID index\n"
	"that is not RoCE v2 IPv4, a TC or SL without PFC, a down\n"
	"NCCL_SOCKET_IFNAME, a GDR level that turns GPUDirect off (nccl.* ids).\n"
	"FILE is read as a job script: its assignments and #SBATCH --export items;\n"
	"its commands (srun, if, ...) are skipped and counted on stderr.\n"
	"\n"
	"--npd speaks Node Problem Detector's plugin protocol: the line names the\n"
	"error --nhc would (or the rail not checked), and contrib/kubernetes/ has\n"
	"the monitor that makes a NodeCondition of it (docs/kubernetes.md).\n"
	"\n"
	"exit: 0 nothing at error severity (waived findings do not count), 1 errors\n"
	"found, 2 usage or a broken profile or site file, 3 could not run (also:\n"
	"neither GPUs nor RDMA devices, nothing to check; with --json the document\n"
	"then says so: verdict \"error\" and the reason in \"error\").\n",
};

static int parse_args(struct ctx *c, int argc, char **argv, struct check_args *a)
{
	int n, rc = opts_parse(c, &check_spec, argc, argv, a, &n);

	if (rc != CMD_GO_ON)
		return rc;
	if ((a->nhc || a->npd) && c->json) {
		fprintf(stderr, "%s check: %s and --json do not go together\n", c->prog,
			a->nhc ? "--nhc" : "--npd");
		return EXIT_USAGE;
	}
	if (a->nhc && a->npd) {
		fprintf(stderr, "%s check: --nhc (Slurm) and --npd (Kubernetes) are two forms "
			"of one line: give one\n", c->prog);
		return EXIT_USAGE;
	}
	if (a->brief && (c->json || a->nhc || a->npd)) {
		fprintf(stderr, "%s check: --brief is a text form: not with %s\n", c->prog,
			c->json ? "--json" : a->nhc ? "--nhc" : "--npd");
		return EXIT_USAGE;
	}
	if (a->list && (a->nhc || a->npd || a->brief || a->profile || a->window || a->env)) {
		fprintf(stderr, "%s check: --list checks nothing: give it alone (or with "
			"--json)\n", c->prog);
		return EXIT_USAGE;
	}
	if (a->hold_set && !a->latch.dir) {
		fprintf(stderr, "%s check: --hold says how long --state DIR remembers: give "
			"--state too\n", c->prog);
		return EXIT_USAGE;
	}
	if (a->list && a->latch.dir) {
		fprintf(stderr, "%s check: --list checks nothing: not with --state\n", c->prog);
		return EXIT_USAGE;
	}
	if (a->until && !a->window) {
		fprintf(stderr, "%s check: --until needs --window S: how much later the "
			"second snapshot was taken\n", c->prog);
		return EXIT_USAGE;
	}
	return CMD_GO_ON;
}

int cmd_check(struct ctx *c, int argc, char **argv)
{
	struct check_args a = { 0 };
	struct pipeline_option option;
	struct pipeline pl;
	struct nccl_env env = { 0 };
	struct latch_run latch;
	int rc;

	latch_opts_init(&a.latch);
	memset(&latch, 0, sizeof(latch));
	rc = parse_args(c, argc, argv, &a);

	if (rc != CMD_GO_ON)
		return rc;
	if (a.list) {
		if (c->json)
			return ctx_emit_json(c, check_list_to_json());
		text_check_list(stdout, ctx_text_opts(c).width);
		if (fflush(stdout) == 0 && !ferror(stdout))
			return EXIT_OK;
		fprintf(stderr, "%s: cannot write to standard output: %s\n", c->prog,
			strerror(errno));
		return EXIT_RUNTIME;
	}
	rc = pipeline_option(c, "check", a.profile, &option);
	if (rc >= 0)
		return rc;
	/* a bad --env file is a usage error: named before the machine is read */
	if (a.env) {
		rc = check_env_load(c, "check", a.env, &env);
		if (rc != EXIT_OK) {
			pipeline_option_free(&option);
			return rc;
		}
	}
	rc = pipeline_collect(c, "check", &pl, false);
	if (rc == EXIT_OK && a.window && !pl.r.live && !a.until) {
		fprintf(stderr, "%s check: the counters of a snapshot ('%s') do not change: "
			"give --until DIR2 with --window\n", c->prog, c->root_dir);
		rc = EXIT_USAGE;
	}
	if (rc == EXIT_OK && a.window)
		rc = ctx_window(c, &pl.r, &pl.inv, a.window, a.until);
	if (rc == EXIT_OK)
		rc = pipeline_choose(c, &pl, &option);
	if (rc == EXIT_OK)
		rc = latch_run_begin(c, &pl, &a.latch, &latch);
	if (rc == EXIT_OK)
		rc = pipeline_judge(c, &pl, false);
	if (rc == EXIT_OK && a.env)
		rc = check_env_judge(c, &pl, &env);
	if (rc == EXIT_OK)
		rc = latch_run_end(c, &pl, &latch);
	/* a script that reads the document gets one that says why, never an
	 * empty stdout it would have to guess from */
	if (rc == EXIT_RUNTIME && c->json)
		ctx_emit_json(c, json_pack("{s:i, s:s, s:s}", "schema", 1, "verdict", "error",
					   "error", c->error[0] ? c->error : "could not run"));
	if (rc == EXIT_OK) {
		struct check_report rep = pipeline_report(&pl);

		enum npd_status npd = NPD_OK;

		if (!inventory_has_network(&pl.inv) && !a.nhc && !a.npd)
			ctx_hint_no_devices(c);
		if (c->json) {
			rc = ctx_emit_json(c, check_to_json(&rep));
		} else if (a.nhc) {
			nhc_check(stdout, &rep);
		} else if (a.npd) {
			npd = npd_check(stdout, &rep);
		} else {
			struct text_opts o = ctx_text_opts(c);

			if (a.brief)
				text_check_brief(stdout, &rep, &o);
			else
				text_check(stdout, &rep, &o);
		}
		if (fflush(stdout) != 0 || ferror(stdout)) {
			fprintf(stderr, "%s: cannot write to standard output: %s\n", c->prog,
				strerror(errno));
			rc = EXIT_RUNTIME;
		}
		if (rc == EXIT_OK && strcmp(check_verdict(&pl.findings), "fail") == 0)
			rc = EXIT_PROBLEMS;
		if (rc != EXIT_RUNTIME && a.npd)
			rc = (int)npd;	/* NPD's statuses, not ours */
	} else if (a.npd) {
		/* NPD shows stdout, not stderr: say why here too (unknown) */
		npd_error(stdout, c->error);
		fflush(stdout);
		rc = NPD_UNKNOWN;
	}
	latch_run_free(&latch);
	pipeline_free(&pl);
	pipeline_option_free(&option);
	nccl_env_free(&env);
	return rc;
}
