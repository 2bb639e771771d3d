#include "cmd.h"
#include "pipeline.h"
#include "../check/check.h"
#include "../out/check_out.h"
#include "../out/json.h"
#include "../profiles/profile.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char help[] =
	"usage: rdmadoctor [--root DIR] [--json] check [--profile NAME|FILE] [--nhc]\n"
	"                  [--window S [--until DIR2]]\n"
	"\n"
	"Is this machine's RDMA network fit for training?  Reads the inventory and\n"
	"judges it against the profile of its machine model: every NIC, port, PCIe\n"
	"link and bridge, MTU, GID, counter, GPUDirect and GPU-NIC placement, with\n"
	"what was observed, what was expected, why it matters and the fix to try\n"
	"first.\n"
	"\n"
	"  --profile NAME|FILE  judge against this profile instead of the site file's\n"
	"                       or the one picked from the DMI product name and the\n"
	"                       GPUs (`rdmadoctor profiles` lists the built-in ones)\n"
	"  --nhc                Slurm HealthCheckProgram / NHC mode: print nothing when\n"
	"                       healthy, one 'ERROR: ...' line when not\n"
	"  --window S           read the counters again after S seconds (at most\n"
	"                       3600): counters.errors then means grew within the\n"
	"                       window (error), and link.flaps is judged\n"
	"  --until DIR2         with --root and --window: the second reading from\n"
	"                       DIR2, a snapshot taken S seconds after the first\n"
	"  --json               the verdict, findings and inventory as one document\n"
	"\n"
	"The site file /etc/rdmadoctor/rdmadoctor.conf (under --root) may name the\n"
	"fleet's profile, waive check ids (ignore = sys.memlock) and name rail and\n"
	"storage NICs; docs/profiles.md describes it.  What the profile expects but\n"
	"cannot be read is an info saying so, counted as unchecked.\n"
	"\n"
	"exit: 0 nothing at error severity (waived findings do not count), 1 errors\n"
	"found, 2 usage or a broken profile or site file, 3 could not run (also:\n"
	"neither GPUs nor RDMA devices, nothing to check).\n";

struct check_args {
	const char *profile;
	bool nhc;
	double window;		/* 0: none */
	const char *until;
};

static int parse_args(struct ctx *c, int argc, char **argv, struct check_args *a)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			fputs(help, stdout);
			return EXIT_OK;
		} else if (strcmp(argv[i], "--json") == 0) {
			c->json = true;
		} else if (strcmp(argv[i], "--nhc") == 0) {
			a->nhc = true;
		} else if (strcmp(argv[i], "--profile") == 0 && i + 1 < argc) {
			a->profile = argv[++i];
		} else if (strncmp(argv[i], "--profile=", 10) == 0) {
			a->profile = argv[i] + 10;
		} else if ((strcmp(argv[i], "--window") == 0 && i + 1 < argc) ||
			   strncmp(argv[i], "--window=", 9) == 0) {
			const char *v = argv[i][8] ? argv[i] + 9 : argv[++i];

			if (!ctx_parse_seconds(v, 0.1, 3600, &a->window)) {
				fprintf(stderr, "%s check: --window '%s': give seconds from 0.1 "
					"to 3600\n", c->prog, v);
				return EXIT_USAGE;
			}
		} else if (strcmp(argv[i], "--until") == 0 && i + 1 < argc && *argv[i + 1]) {
			a->until = argv[++i];
		} else if (strncmp(argv[i], "--until=", 8) == 0 && argv[i][8]) {
			a->until = argv[i] + 8;
		} else {
			fprintf(stderr, "%s check: unexpected argument '%s'\n\n%s", c->prog,
				argv[i], help);
			return EXIT_USAGE;
		}
	}
	if (a->nhc && c->json) {
		fprintf(stderr, "%s check: --nhc and --json do not go together\n", c->prog);
		return EXIT_USAGE;
	}
	if (a->until && !a->window) {
		fprintf(stderr, "%s check: --until needs --window S: how much later the "
			"second snapshot was taken\n", c->prog);
		return EXIT_USAGE;
	}
	return -1;
}

static bool want_color(const struct ctx *c)
{
	return c->color == COLOR_ALWAYS || (c->color == COLOR_AUTO && isatty(STDOUT_FILENO));
}

int cmd_check(struct ctx *c, int argc, char **argv)
{
	struct check_args a = { 0 };
	struct pipeline_option option;
	struct pipeline pl;
	int rc = parse_args(c, argc, argv, &a);

	if (rc >= 0)
		return rc;
	rc = pipeline_option(c, "check", a.profile, &option);
	if (rc >= 0)
		return rc;
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
		rc = pipeline_judge(c, &pl, false);
	if (rc == EXIT_OK) {
		struct check_report rep = pipeline_report(&pl);

		if (!pl.inv.n_nics && !a.nhc)
			ctx_hint_no_devices(c);
		if (c->json) {
			rc = ctx_emit_json(c, check_to_json(&rep));
		} else if (a.nhc) {
			nhc_check(stdout, &rep);
		} else {
			text_check(stdout, &rep, want_color(c));
		}
		if (fflush(stdout) != 0 || ferror(stdout)) {
			fprintf(stderr, "%s: cannot write to standard output: %s\n", c->prog,
				strerror(errno));
			rc = EXIT_RUNTIME;
		}
		if (rc == EXIT_OK && strcmp(check_verdict(&pl.findings), "fail") == 0)
			rc = EXIT_PROBLEMS;
	}
	pipeline_free(&pl);
	pipeline_option_free(&option);
	return rc;
}
