/* rdmadoctor labels: the machine as Node Feature Discovery labels, written
 * to NFD's local feature directory (print/nfd_labels.h, docs/kubernetes.md),
 * so that a job's node selector can ask for "4 rails of 400G, GPUDirect
 * ready".  The file is replaced whole (file_replace.h) and expires. */
#include "cmd.h"
#include "../state/file_replace.h"
#include "../opt/opt_files.h"
#include "../pipeline/pipeline.h"
#include "../print/nfd_labels.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define NFD_FEATURE_FILE "/etc/kubernetes/node-feature-discovery/features.d/rdmadoctor"

struct labels_args {
	const char *profile;
	const char *output;
	double ttl;
};

static const struct cmd_opt labels_opts[] = {
	{ "profile", 0, "NAME|FILE", OPT_STRING_AT(struct labels_args, profile),
	  .flags = OPT_NONEMPTY,
	  .help = "judge against this profile (as `check --profile`)" },
	{ "output", 'o', "FILE|-", OPT_STRING_AT(struct labels_args, output),
	  .flags = OPT_NONEMPTY,
	  .help = "where to write (default " NFD_FEATURE_FILE ");\n"
		  "- for standard output" },
	{ "ttl", 0, "S", OPT_SECONDS_AT(struct labels_args, ttl, 0, 7 * 86400),
	  .help = "NFD drops the labels S seconds after they are\n"
		  "written unless written again (default 900; 0 never)" },
	{ 0 }
};

const struct cmd_spec labels_spec = {
	.name = "labels",
	.opts = labels_opts,
	.about =
	"The machine's RDMA network as Node Feature Discovery labels: NFD's local\n"
	"source reads " NFD_FEATURE_FILE "\n"
	"and labels the node feature.node.kubernetes.io/rdmadoctor.NAME=VALUE:\n"
	"  verdict          pass, warn or fail (as `check`)\n"
	"  unchecked        how many findings say what could not be read\n"
	"  rails            rail ports up (ACTIVE, LinkUp)\n"
	"  rail-gbps        the slowest of them; railN-gbps each one's rate\n"
	"  link-layer       infiniband, ethernet or mixed\n"
	"  roce-gid-index   the RoCE v2 IPv4 GID index every RoCE rail shares\n"
	"  gpudirect        true, false or unknown, with datacenter GPUs\n"
	"A label that cannot be known is left out, never guessed.\n",
	.epilog =
	"Run it from a timer or the DaemonSet more often than --ttl: the file says\n"
	"when it expires (# +expiry-time), so a node whose agent stopped loses its\n"
	"labels instead of keeping a stale \"pass\".\n"
	"\n"
	"Examples:\n"
	"  rdmadoctor labels\n"
	"  rdmadoctor --root examples/dgx-h100 labels -o -\n"
	"  kubectl get nodes -l feature.node.kubernetes.io/rdmadoctor.rails=8\n"
	"\n"
	"exit: 0 written, 2 usage, a broken profile or site file, no directory for\n"
	"the file (is NFD installed? -o names another), 3 could not read the\n"
	"machine or write the file.\n",
};

struct labels_job {
	const struct check_report *rep;
	long ttl;
};

static int write_labels(FILE *out, void *arg)
{
	const struct labels_job *j = arg;

	return nfd_labels_write(out, j->rep, time(NULL), j->ttl, RD_VERSION);
}

static int emit(struct ctx *c, const char *path, const struct labels_job *j)
{
	const char *stage;
	int rc;

	if (!strcmp(path, "-")) {
		rc = write_labels(stdout, (void *)j);
		if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
			rc = -EIO;
		if (rc == 0)
			return EXIT_OK;
		return ctx_fail(c, "%s labels: cannot write to standard output: %s", c->prog,
				strerror(-rc));
	}
	rc = file_replace(path, write_labels, (void *)j, &stage);
	if (rc == 0)
		return EXIT_OK;
	return ctx_fail(c, "%s labels: cannot %s '%s': %s", c->prog, stage, path, strerror(-rc));
}

int cmd_labels(struct ctx *c, int argc, char **argv)
{
	struct labels_args a = { .ttl = 900 };
	struct pipeline_option option;
	struct pipeline pl;
	int n, rc = opts_parse(c, &labels_spec, argc, argv, &a, &n);

	if (rc != CMD_GO_ON)
		return rc;
	if (c->json) {
		fprintf(stderr, "%s labels: the feature file is NFD's format, not JSON (`check "
			"--json` has every fact)\n", c->prog);
		return EXIT_USAGE;
	}
	/* a mistyped directory is said before the machine is read */
	if (!a.output)
		a.output = NFD_FEATURE_FILE;
	if (strcmp(a.output, "-") &&
	    (rc = opt_need_parent(c, "labels", "--output", a.output)) != CMD_GO_ON)
		return rc;
	rc = pipeline_option(c, "labels", a.profile, &option);
	if (rc >= 0)
		return rc;
	rc = pipeline_run(c, "labels", &pl, &option);
	if (rc == EXIT_OK) {
		struct check_report rep = pipeline_report(&pl);
		struct labels_job j = { &rep, (long)a.ttl };

		rc = emit(c, a.output, &j);
	}
	pipeline_free(&pl);
	pipeline_option_free(&option);
	return rc;
}
