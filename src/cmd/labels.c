/* rdmadoctor labels: the machine as Node Feature Discovery labels, written
 * to NFD's local feature directory (print/nfd_labels.h, docs/kubernetes.md),
 * so that a job's node selector can ask for "4 rails of 400G, GPUDirect
 * ready".  The file is replaced whole (file_replace.h) and expires.  With
 * --npd the same reading's verdict goes to the file NPD's plugin reads
 * (state/npd_verdict.h); with --every it is the DaemonSet's agent, writing
 * both again every S seconds until SIGTERM. */
#include "cmd.h"
#include "../state/file_replace.h"
#include "../opt/opt_files.h"
#include "../pipeline/latch_run.h"
#include "../pipeline/pipeline.h"
#include "../print/nfd_labels.h"
#include "../print/npd_out.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define NFD_FEATURE_FILE "/etc/kubernetes/node-feature-discovery/features.d/rdmadoctor"

struct labels_args {
	const char *profile;
	const char *output;
	const char *npd;
	double ttl, every;
	struct latch_opts latch;	/* --state DIR */
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
	{ "npd", 0, "FILE", OPT_STRING_AT(struct labels_args, npd), .flags = OPT_NONEMPTY,
	  .help = "also write the verdict as Node Problem Detector\n"
		  "reads it (check --npd's line and status) to FILE,\n"
		  "which rdmadoctor-npd prints from NPD's pod" },
	{ "state", 0, "DIR", OPT_STRING_AT(struct labels_args, latch.dir), .flags = OPT_NONEMPTY,
	  .help = "remember what each reading saw in DIR/latched, as\n"
		  "check --state does: a flap between two readings\n"
		  "stays in the verdict until `rdmadoctor clear`" },
	{ "every", 0, "S", OPT_SECONDS_AT(struct labels_args, every, 0, 86400),
	  .help = "read and write again every S seconds until SIGTERM\n"
		  "or Ctrl-C (the DaemonSet's agent); 0, the default:\n"
		  "once" },
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
	"Run it more often than --ttl (--every S, a timer, or the DaemonSet's\n"
	"agent container, contrib/kubernetes/daemonset.yaml): the file says when\n"
	"it expires (# +expiry-time), so a node whose agent stopped loses its\n"
	"labels instead of keeping a stale \"pass\".  --npd FILE writes the same\n"
	"reading's verdict for Node Problem Detector: rdmadoctor-npd, a program\n"
	"with no library to load, prints it from NPD's own pod.\n"
	"\n"
	"Examples:\n"
	"  rdmadoctor labels\n"
	"  rdmadoctor --root examples/dgx-h100 labels -o -\n"
	"  rdmadoctor labels --every 300 --state /var/lib/rdmadoctor \\\n"
	"      --npd /var/lib/rdmadoctor/npd\n"
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

static int write_verdict(FILE *out, void *arg)
{
	char buf[NPD_VERDICT_FILE_MAX + 1];
	int n = npd_verdict_format(buf, sizeof(buf), arg);

	if (n < 0)
		return -EINVAL;
	return fputs(buf, out) < 0 ? -EIO : 0;
}

/* One reading: the labels, and with --npd the verdict (unknown, with why,
 * when the machine could not be read). */
static int one_round(struct ctx *c, struct labels_args *a,
		     const struct pipeline_option *option)
{
	struct pipeline pl;
	struct npd_verdict v;
	long long now = (long long)time(NULL);
	const char *stage;
	int rc, vrc = 0;

	c->error[0] = 0;
	rc = latch_pipeline_run(c, "labels", &pl, option, &a->latch);
	if (rc == EXIT_OK) {
		struct check_report rep = pipeline_report(&pl);
		struct labels_job j = { &rep, (long)a->ttl };

		rc = emit(c, a->output, &j);
		if (a->npd)
			vrc = npd_verdict_of(&rep, now, &v);
	} else if (a->npd) {
		vrc = npd_verdict_of_error(c->error, now, &v);
	}
	pipeline_free(&pl);
	if (!a->npd)
		return rc;
	if (vrc < 0)
		return ctx_fail(c, "%s labels: out of memory", c->prog);
	vrc = file_replace(a->npd, write_verdict, &v, &stage);
	if (vrc < 0)
		return ctx_fail(c, "%s labels: cannot %s '%s': %s", c->prog, stage, a->npd,
				strerror(-vrc));
	return rc;
}

/* Wait s seconds, or until SIGTERM or SIGINT (blocked while the agent
 * runs, so that one that comes during a reading ends the agent after it
 * instead of half way through a file): false when one came. */
static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool wait_next(const sigset_t *stop, double s)
{
	double end = mono_s() + s;

	for (;;) {
		/* what is left, after a stop (SIGSTOP, SIGCONT) cut the wait */
		double left = end - mono_s();
		struct timespec ts;
		int sig;

		if (left <= 0)
			return true;	/* the time is up */
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		sig = sigtimedwait(stop, NULL, &ts);
		if (sig == SIGTERM || sig == SIGINT)
			return false;
		if (sig < 0 && errno != EINTR && errno != EAGAIN)
			return true;
	}
}

int cmd_labels(struct ctx *c, int argc, char **argv)
{
	struct labels_args a = { .ttl = 900 };
	struct pipeline_option option;
	sigset_t stop;
	int n, rc;

	latch_opts_init(&a.latch);
	rc = opts_parse(c, &labels_spec, argc, argv, &a, &n);

	if (rc != CMD_GO_ON)
		return rc;
	if (c->json) {
		fprintf(stderr, "%s labels: the feature file is NFD's format, not JSON (`check "
			"--json` has every fact)\n", c->prog);
		return EXIT_USAGE;
	}
	if (a.every > 0 && a.ttl > 0 && a.every >= a.ttl) {
		fprintf(stderr, "%s labels: --every %.0f is not more often than --ttl %.0f: the "
			"labels would expire between two writes\n", c->prog, a.every, a.ttl);
		return EXIT_USAGE;
	}
	/* a mistyped directory is said before the machine is read */
	if (!a.output)
		a.output = NFD_FEATURE_FILE;
	if (strcmp(a.output, "-") &&
	    (rc = opt_need_parent(c, "labels", "--output", a.output)) != CMD_GO_ON)
		return rc;
	if (a.npd && (rc = opt_need_parent(c, "labels", "--npd", a.npd)) != CMD_GO_ON)
		return rc;
	rc = pipeline_option(c, "labels", a.profile, &option);
	if (rc >= 0)
		return rc;
	if (a.every <= 0) {
		rc = one_round(c, &a, &option);
		pipeline_option_free(&option);
		return rc;
	}
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	/* a reading that failed is said, and the next one tried: the labels
	 * expire meanwhile (--ttl) and the verdict says unknown */
	do
		rc = one_round(c, &a, &option);
	while (wait_next(&stop, a.every));
	pipeline_option_free(&option);
	return rc;
}
