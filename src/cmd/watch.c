/* watch: counters over time.  The inventory once, then the counters (PMA,
 * hw_counters, carrier_changes) again every interval
 * (collect/counter_window.h); the report compares the first sample with
 * the last.  Replay: the end sample comes from a later snapshot (--until). */
#include "cmd.h"
#include "../opt/opt_parse.h"
#include "../pipeline/pipeline.h"
#include "../check/run.h"
#include "../collect/counter_window.h"
#include "../model/window.h"
#include "../model/growbuf.h"
#include "../print/check_out.h"
#include "../print/plural.h"
#include "../print/safe_stream.h"
#include "../print/watch_out.h"
#include "../sysfs/ethtool.h"
#include "../sysfs/netdev_port.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SECONDS 3600.0
#define MIN_INTERVAL 0.1
#define MAX_NETDEVS 16


/* Error counters that grew since the start, and all counters that did. */
static void count_growing(const struct inventory *inv, size_t *errors, size_t *all)
{
	*errors = *all = 0;
	for (size_t i = 0; i < inv->n_nics; i++)
		for (size_t k = 0; k < inv->nics[i].n_ports; k++) {
			const struct port *pt = &inv->nics[i].ports[k];

			for (int set = WIN_PMA; set <= WIN_NET; set++) {
				const struct counter_set *s = window_set_of(pt, set);

				for (size_t j = 0; j < s->n; j++) {
					struct counter_change ch;

					if (!s->v[j].name ||
					    !window_change(pt, set, s->v[j].name, &ch) || !ch.delta)
						continue;
					(*all)++;
					if (check_counter_is_error(inv->nics[i].driver, s->v[j].name, set))
						(*errors)++;
				}
			}
		}
}

/* The progress line on a terminal. */
static void progress(const struct inventory *inv, const struct counter_window *w, void *arg)
{
	const struct ctx *c = arg;
	size_t errors, all;

	count_growing(inv, &errors, &all);
	fprintf(stderr, "%s watch: %.1f of %g s: %zu %s growing, %zu of them "
		"error counters\n", c->prog, w->elapsed, w->duration, all,
		plural(all, "counter", "counters"), errors);
}

struct watch_args {
	double interval, duration;
	bool have_duration;
	const char *until;
	const char *netdevs[MAX_NETDEVS];
	size_t n_netdevs;
};

/* Each --netdev that no RDMA port already watches becomes a NIC of its
 * own name with one port on that netdev: no RDMA counters, only the
 * netdev's.  EXIT_OK, or EXIT_RUNTIME when it does not exist. */
static int add_netdevs(struct ctx *c, struct root *r, struct inventory *inv,
		       const struct watch_args *a)
{
	for (size_t k = 0; k < a->n_netdevs; k++) {
		struct port *pt;
		int rc = netdev_port(r, inv, a->netdevs[k], &pt);

		if (rc < 0) {
			fprintf(stderr, "%s: out of memory\n", c->prog);
			return EXIT_RUNTIME;
		}
		if (rc == 1)
			return ctx_fail(c, "%s watch: no netdev '%s' under '%s' (see `ip link`)",
					c->prog, a->netdevs[k], c->root_dir);
	}
	return EXIT_OK;
}

static int take_duration(struct ctx *c, void *args, const char *v)
{
	struct watch_args *a = args;

	if (!ctx_parse_seconds(v, MIN_INTERVAL, MAX_SECONDS, &a->duration)) {
		fprintf(stderr, "%s watch: --duration '%s': give seconds from %g to %g\n",
			c->prog, v, MIN_INTERVAL, MAX_SECONDS);
		return EXIT_USAGE;
	}
	a->have_duration = true;
	return CMD_GO_ON;
}

static int take_netdev(struct ctx *c, void *args, const char *v)
{
	struct watch_args *a = args;

	if (!opt_parse_ifname(v)) {
		fprintf(stderr, "%s watch: --netdev '%s': give a netdev name as `ip "
			"link` shows it (1 to 15 characters, no '/', ':' or spaces)\n", c->prog, v);
		return EXIT_USAGE;
	}
	if (a->n_netdevs == MAX_NETDEVS) {
		fprintf(stderr, "%s watch: at most %d --netdev\n", c->prog, MAX_NETDEVS);
		return EXIT_USAGE;
	}
	a->netdevs[a->n_netdevs++] = v;
	return CMD_GO_ON;
}

static const struct cmd_opt watch_opts[] = {
	{ "interval", 0, "S",
	  OPT_SECONDS_AT(struct watch_args, interval, MIN_INTERVAL, MAX_SECONDS),
	  .help = "seconds between samples (default 1, at least 0.1)" },
	{ "duration", 0, "S", OPT_CALL_AT(take_duration),
	  .help = "length of the window (default 10, at most 3600)" },
	{ "netdev", 0, "IF", OPT_CALL_AT(take_netdev),
	  .help = "also watch netdev IF, one that no RDMA port uses (a veth,\n"
		  "a bond slave, a plain NIC): its statistics/, ethtool\n"
		  "statistics and carrier changes, reported as nic IF port 1;\n"
		  "up to 16, repeat the option" },
	{ "until", 0, "DIR2", OPT_STRING_AT(struct watch_args, until), .flags = OPT_NONEMPTY,
	  .needs = "a directory",
	  .help = "replay: the end sample from DIR2, a later snapshot of the\n"
		  "machine under --root; --duration says how much later" },
	{ 0 }
};

const struct cmd_spec watch_spec = {
	.name = "watch",
	.opts = watch_opts,
	.usage =
	"usage: rdmadoctor [global options] watch [--interval S] [--duration S]\n"
	"                  [--netdev IF]...\n"
	"       rdmadoctor --root DIR watch --until DIR2 --duration S [--json]\n",
	.about =
	"Counters over a window: reads the inventory, then every interval the port\n"
	"counters, hw_counters, the netdev's carrier_changes and statistics/, its\n"
	"ethtool statistics (`ethtool -S`) and DCB PFC pause counters again, and\n"
	"reports each counter's start, end, change and rate (data counters in\n"
	"Gb/s, the rest per second), each port's tx and rx in Gb/s, and per\n"
	"port the PFC pause frames per priority (DCB and mlx5's rx/tx_prioN_pause)\n"
	"and the CNP activity (np_cnp_sent, rp_cnp_handled,\n"
	"np_ecn_marked_roce_packets).  Error counters that grew are\n"
	"counters.errors (error), a counter stuck at its maximum\n"
	"counters.saturated, link_downed or carrier changes that grew link.flaps\n"
	"(error).  Ctrl-C ends the window early and still gives the report.\n"
	"With --json: one document, its keys in docs/json/watch.md.\n",
	.epilog =
	"exit: 0 no error counter grew, 1 one did (or the link flapped), 2 usage,\n"
	"3 could not run (also: no RDMA device and no --netdev, nothing to watch;\n"
	"with --json the document then says so: verdict \"error\", the reason in\n"
	"\"error\").\n",
};

static int parse_args(struct ctx *c, int argc, char **argv, struct watch_args *a)
{
	int n, rc;

	a->interval = 1;
	a->duration = 10;
	rc = opts_parse(c, &watch_spec, argc, argv, a, &n);
	if (rc != CMD_GO_ON)
		return rc;
	if (a->until && !a->have_duration) {
		fprintf(stderr, "%s watch: --until needs --duration S: how much later the "
			"second snapshot was taken\n", c->prog);
		return EXIT_USAGE;
	}
	return CMD_GO_ON;
}

static int emit_text(struct ctx *c, const struct watch_report *rep)
{
	struct text_opts o = ctx_text_opts(c);
	FILE *out = ctx_open_text(c);

	if (!out)
		return EXIT_RUNTIME;
	text_watch(out, rep, &o);
	return ctx_close_text(c, out);
}

int cmd_watch(struct ctx *c, int argc, char **argv)
{
	struct watch_args a = { 0 };
	struct pipeline pl;
	struct counter_window w = { 0 };
	int rc = parse_args(c, argc, argv, &a);

	if (rc != CMD_GO_ON)
		return rc;
	counter_window_catch();
	rc = pipeline_collect(c, "watch", &pl, false);
	if (rc == EXIT_OK && !pl.r.live && !a.until) {
		fprintf(stderr, "%s watch: the counters of a snapshot ('%s') do not change: "
			"give --until DIR2, a later snapshot, and --duration S\n", c->prog,
			c->root_dir);
		rc = EXIT_USAGE;
	}
	if (rc == EXIT_OK)
		rc = add_netdevs(c, &pl.r, &pl.inv, &a);
	/* the first sample: the inventory's counters, with the netdevs'
	 * statistics/ that only watch reads */
	if (rc == EXIT_OK && counter_window_sample(&pl.r, &pl.inv) < 0) {
		fprintf(stderr, "%s: cannot read the counters under '%s': %s\n", c->prog,
			c->root_dir, strerror(ENOMEM));
		rc = EXIT_RUNTIME;
	}
	if (rc == EXIT_OK && counter_window_begin(&pl.inv) < 0) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		rc = EXIT_RUNTIME;
	}
	/* an empty window would pass: watching nothing is not "no errors" */
	if (rc == EXIT_OK && !pl.inv.n_nics) {
		rc = ctx_fail(c, "%s watch: nothing to watch under '%s': no RDMA device "
			      "(give --netdev IF to watch a plain netdev)", c->prog, c->root_dir);
		ctx_hint_no_devices(c);
	}
	if (rc == EXIT_OK && a.until) {
		rc = ctx_window_until(c, &pl.r, &pl.inv, a.until, a.duration);
		w.interval = w.elapsed = a.duration;
		w.samples = 2;
	} else if (rc == EXIT_OK) {
		w.interval = a.interval;
		w.duration = a.duration;
		if (!c->quiet && isatty(STDERR_FILENO)) {
			w.progress = progress;
			w.arg = c;
		}
		rc = counter_window_run(&pl.r, &pl.inv, &w);
		if (rc < 0) {
			fprintf(stderr, "%s: cannot read the counters under '%s': %s\n", c->prog,
				c->root_dir, strerror(-rc));
			rc = EXIT_RUNTIME;
		}
	}
	if (rc == EXIT_OK)
		rc = pipeline_judge(c, &pl, true);
	/* as check's: a script that reads the document learns why */
	if (rc == EXIT_RUNTIME && c->json)
		ctx_emit_json(c, json_pack("{s:i, s:s, s:s}", "schema", 1, "verdict", "error",
					   "error", c->error[0] ? c->error : "could not run"));
	if (rc == EXIT_OK) {
		struct watch_report rep = {
			.inv = &pl.inv, .interval_s = w.interval, .duration_s = pl.inv.window_s,
			.samples = w.samples, .interrupted = w.interrupted,
			.findings = &pl.findings,
		};

		rc = c->json ? ctx_emit_json(c, watch_to_json(&rep)) : emit_text(c, &rep);
		if (rc == EXIT_OK && strcmp(check_verdict(&pl.findings), "fail") == 0)
			rc = EXIT_PROBLEMS;
	}
	counter_window_catch_end();
	pipeline_free(&pl);
	return rc;
}
