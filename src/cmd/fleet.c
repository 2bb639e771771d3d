/* rdmadoctor fleet: what the records say about the fleet: ls, show HOST,
 * diff, report --html FILE. */
#include "cmd.h"
#include "../opt/opt_time.h"
#include "../pipeline/db.h"
#include "../opt/opt_files.h"
#include "../fleet/diff.h"
#include "../print/fleet_text.h"
#include "../print/json.h"
#include "../pipeline/fleet_report.h"
#include "../pipeline/fleet_show.h"
#include "../pipeline/fleet_html_file.h"
#include "../print/fleet_report_out.h"
#include "../print/fleet_show_out.h"
#include "../store/latest_drift.h"
#include "../store/store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


struct fleet_args {
	const char *db, *html, *host, *before;
	struct store_filter filter;
};

static int take_since(struct ctx *c, void *args, const char *value)
{
	return opt_take_time(c, "fleet", "since", value,
				  &((struct fleet_args *)args)->filter.since);
}

static int take_before(struct ctx *c, void *args, const char *value)
{
	return opt_take_time(c, "fleet", "before", value,
				  &((struct fleet_args *)args)->before);
}

/* the verdicts a check gives (check/finding.c) */
static int take_verdict(struct ctx *c, void *args, const char *value)
{
	static const char *const verdicts[] = { "pass", "warn", "fail" };

	for (size_t i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++)
		if (strcmp(value, verdicts[i]) == 0) {
			((struct fleet_args *)args)->filter.verdict = verdicts[i];
			return CMD_GO_ON;
		}
	fprintf(stderr, "%s fleet: --verdict '%s': give pass, warn or fail\n", c->prog, value);
	return EXIT_USAGE;
}

static const struct cmd_opt fleet_opts[] = {
	{ "db", 0, "PATH|URI", OPT_STRING_AT(struct fleet_args, db), .flags = OPT_NONEMPTY,
	  .help = "the database (default\n"
		  "$XDG_DATA_HOME/rdmadoctor/fleet.db, else\n"
		  "~/.local/share/rdmadoctor/fleet.db), or a PostgreSQL\n"
		  "server's: postgresql://user@host:port/dbname (the\n"
		  "password from PGPASSFILE or ~/.pgpass, never in the\n"
		  "URI)" },
	{ "html", 0, "FILE", OPT_STRING_AT(struct fleet_args, html), .flags = OPT_NONEMPTY,
	  .help = "report: where the page goes" },
	{ "profile", 0, "P", OPT_STRING_AT(struct fleet_args, filter.profile),
	  .flags = OPT_NONEMPTY, .help = "ls: the hosts judged against this profile" },
	{ "verdict", 0, "V", OPT_CALL_AT(take_verdict), .help = "ls: the hosts of this verdict (pass, warn, fail)" },
	{ "since", 0, "TIME", OPT_CALL_AT(take_since),
	  .help = "ls: the hosts checked at or after TIME (UTC,\n"
		  "2026-11-30T07:00:00Z)" },
	{ "group", 0, "NIC_MODEL", OPT_STRING_AT(struct fleet_args, filter.nic_model),
	  .flags = OPT_NONEMPTY, .help = "ls: the hosts with NICs of this model" },
	{ "before", 0, "TIME", OPT_CALL_AT(take_before),
	  .help = "rm: only the checks before TIME" },
	{ 0 }
};

const struct cmd_spec fleet_spec = {
	.name = "fleet",
	.opts = fleet_opts,
	.operands = "ls | show HOST | diff | report | rm HOST",
	.min_operands = 0,
	.max_operands = 2,
	.usage =
	"usage: rdmadoctor fleet [--db PATH|URI] ls [--profile P] [--verdict V]\n"
	"                        [--since TIME] [--group NIC_MODEL]\n"
	"       rdmadoctor fleet [--db PATH|URI] show HOST\n"
	"       rdmadoctor fleet [--db PATH|URI] diff\n"
	"       rdmadoctor fleet [--db PATH|URI] report --html FILE\n"
	"       rdmadoctor fleet [--db PATH|URI] rm HOST [--before TIME]\n",
	.about =
	"What the records of `rdmadoctor record` say about the fleet (--json: one\n"
	"JSON document on standard output).\n"
	"\n"
	"  ls              every host: its last check's time, profile, verdict,\n"
	"                  number of findings, and how many checks are kept\n"
	"  show HOST       the history of one host: its records, and what changed\n"
	"                  from one to the next (firmware, MTU, PCIe link, port\n"
	"                  state, QoS, driver, kernel, findings), and when\n"
	"  diff            drift: hosts are grouped by profile, NIC model and link\n"
	"                  layer; each NIC and port is a value of its own (fw,\n"
	"                  driver_stack, kernel, rdma_modules, rdma_core,\n"
	"                  slurmd_memlock, device_modes, mtu, netdev_mtu,\n"
	"                  rocev2_gid_index, pfc_priority, trust, ecn, pcie_gen,\n"
	"                  pcie_width, pcie_mps, pcie_mrrs, pcie_relaxed_ordering,\n"
	"                  port_rate_gbps, port_state, nic_count, bw_gbps); Ascend\n"
	"                  NPUs are grouped by NPU model, each NPU (npu3) a value\n"
	"                  (fw, npu_driver, port_state, port_rate_gbps,\n"
	"                  pfc_priority, npu_count); the\n"
	"                  value more hosts have than any other is the baseline, and\n"
	"                  every host that differs is listed with its value, the\n"
	"                  baseline and how many hosts have each value.  A tie has\n"
	"                  no baseline and is listed as such.  Also: hosts whose\n"
	"                  profile changed, machines alike (DMI product, GPUs,\n"
	"                  NPUs)\n"
	"                  judged against different profiles, and the hosts the\n"
	"                  newest fabric report (`record --fabric`) names as suspects\n"
	"  report --html FILE\n"
	"                  one self-contained HTML page: summary, findings per\n"
	"                  host, drift, bandwidth, the error counters that grew\n"
	"                  over each host's unchanged checks (small charts), NPU\n"
	"                  ports, the newest fabric report's heatmap\n"
	"                  per rail and its suspects (written whole, then renamed)\n"
	"  rm HOST         remove the host's records\n",
	.epilog =
	"Each host is judged on its latest record.\n"
	"\n"
	"exit: 0 fine; 1 diff found hosts that differ; 2 usage (a host with no\n"
	"record); 3 could not run (no database, not a fleet database, cannot\n"
	"write FILE).\n",
};


static int write_text_or_json(struct ctx *c, json_t *doc, void (*print)(FILE *, const json_t *))
{
	FILE *out;

	if (c->json)
		return ctx_emit_json(c, doc);
	out = ctx_open_text(c);
	if (!out) {
		json_decref(doc);
		return EXIT_RUNTIME;
	}
	print(out, doc);
	json_decref(doc);
	return ctx_close_text(c, out);
}

static int db_failed(struct ctx *c, struct store *s)
{
	fprintf(stderr, "%s: %s\n", c->prog, store_error(s));
	return EXIT_RUNTIME;
}

/* An engine's -EIO (the store failed) or -ENOMEM, said. */
static int load_failed(struct ctx *c, struct store *s, int err)
{
	if (err == -EIO)
		return db_failed(c, s);
	fprintf(stderr, "%s: out of memory\n", c->prog);
	return EXIT_RUNTIME;
}

static void note_empty(struct ctx *c, const char *db)
{
	if (!c->quiet)
		fprintf(stderr, "%s fleet: no records in '%s' yet (store some with "
			"`rdmadoctor record`)\n", c->prog, db);
}

static int fleet_ls(struct ctx *c, struct store *s, const struct fleet_args *a)
{
	json_t *hosts;

	if (store_hosts(s, &a->filter, &hosts) < 0)
		return db_failed(c, s);
	if (!json_array_size(hosts))
		note_empty(c, a->db);
	return write_text_or_json(c, json_pack("{s:i, s:o, s:o}", "schema", 1,
					       "db", json_string_or_null(a->db),
					       "hosts", hosts), fleet_text_ls);
}

/* {"schema", "host", "records": [{time, profile, verdict, findings,
 *  last_seen, checks}], "changes": [...], "counters": store_counters(),
 *  "latest": <the newest record>} */
static int fleet_show(struct ctx *c, struct store *s, const struct fleet_args *a)
{
	json_t *doc;
	int rc = fleet_show_load(s, a->host, &doc);

	if (rc == -ENOENT) {
		fprintf(stderr, "%s fleet: no record of host '%s' in '%s' (`rdmadoctor fleet "
			"ls` lists the hosts)\n", c->prog, a->host, a->db);
		return EXIT_USAGE;	/* a name that is not there, as profiles show */
	}
	if (rc == -EBADMSG) {
		fprintf(stderr, "%s fleet: cannot read '%s': the latest record of host '%s' does "
			"not carry the time it is stored under (the file was edited by hand? "
			"move it aside)\n", c->prog, a->db, a->host);
		return EXIT_RUNTIME;
	}
	if (rc < 0)
		return load_failed(c, s, rc);
	return write_text_or_json(c, doc, fleet_text_show);
}

static int fleet_diff_cmd(struct ctx *c, struct store *s, const struct fleet_args *a)
{
	json_t *diff;
	size_t outliers, n_hosts;
	int rc = store_latest_drift(s, &diff, &n_hosts);

	if (n_hosts == 0)
		note_empty(c, a->db);
	if (rc < 0)
		return load_failed(c, s, rc);
	/* exit 1 for the fabric's suspects too, recorded or not */
	outliers = fleet_diff_odd_hosts(diff) + fleet_diff_fabric_unrecorded(diff);
	rc = write_text_or_json(c, diff, fleet_text_diff);
	return rc == EXIT_OK && outliers ? EXIT_PROBLEMS : rc;
}

static int fleet_report(struct ctx *c, struct store *s, const struct fleet_args *a)
{
	json_t *records, *diff;
	char why[8192];	/* a path of PATH_MAX and the reason */
	int rc = EXIT_RUNTIME, err;

	if (!a->html) {
		fprintf(stderr, "%s fleet report: say where: --html FILE\n", c->prog);
		return EXIT_USAGE;
	}
	err = fleet_report_load(s, &records, &diff);
	if (err == -ENOENT)
		fprintf(stderr, "%s fleet report: no records in '%s': nothing to report (store "
			"some with `rdmadoctor record`)\n", c->prog, a->db);
	else if (err < 0)
		rc = load_failed(c, s, err);
	else if ((err = fleet_html_write_file(a->html, records, diff, why, sizeof(why))) == -ENOMEM)
		fprintf(stderr, "%s: out of memory\n", c->prog);
	else if (err < 0)
		fprintf(stderr, "%s fleet: %s\n", c->prog, why);
	else
		rc = EXIT_OK;
	if (rc == EXIT_OK && !c->quiet && !c->json)
		text_fleet_report(stdout, a->html, records, diff);
	if (rc == EXIT_OK && c->json)
		rc = ctx_emit_json(c, fleet_report_json(a->html, records, diff));
	json_decref(records);
	json_decref(diff);
	return rc;
}

static int fleet_rm(struct ctx *c, struct store *s, const struct fleet_args *a)
{
	long long removed;

	if (store_begin(s) < 0 || store_rm(s, a->host, a->before, &removed) < 0 ||
	    store_commit(s) < 0) {
		store_rollback(s);
		fprintf(stderr, "%s: %s\n%s fleet rm: nothing was removed\n", c->prog,
			store_error(s), c->prog);
		return EXIT_RUNTIME;
	}
	if (!removed) {
		fprintf(stderr, "%s fleet: no record of host '%s'%s%s in '%s' (`rdmadoctor "
			"fleet ls` lists the hosts)\n", c->prog, a->host,
			a->before ? " before " : "", a->before ? a->before : "", a->db);
		return EXIT_USAGE;
	}
	return write_text_or_json(c, json_pack("{s:i, s:s, s:s?, s:I}", "schema", 1, "host",
					       a->host, "before", a->before, "removed",
					       (json_int_t)removed), fleet_text_rm);
}

static const struct fleet_cmd {
	const char *name;
	int (*fn)(struct ctx *, struct store *, const struct fleet_args *);
	bool takes_host;
} subcommands[] = {
	{ "ls", fleet_ls, false },
	{ "show", fleet_show, true },
	{ "diff", fleet_diff_cmd, false },
	{ "report", fleet_report, false },
	{ "rm", fleet_rm, true },
};

/* "what 'arg'", or what alone when arg is NULL, then where help is. */
static int usage_error(struct ctx *c, const char *what, const char *arg)
{
	if (arg)
		fprintf(stderr, "%s fleet: %s '%s'\n", c->prog, what, arg);
	else
		fprintf(stderr, "%s fleet: %s\n", c->prog, what);
	fprintf(stderr, "`%s fleet --help` explains it\n", c->prog);
	return EXIT_USAGE;
}

int cmd_fleet(struct ctx *c, int argc, char **argv)
{
	const struct fleet_cmd *sub = NULL;
	struct fleet_args a = { 0 };
	struct store *s = NULL;
	char *db;
	int n, rc = opts_parse(c, &fleet_spec, argc, argv, &a, &n);

	if (rc != CMD_GO_ON)
		return rc;
	if (n >= 1) {
		for (size_t k = 0; k < sizeof(subcommands) / sizeof(subcommands[0]); k++)
			if (strcmp(argv[1], subcommands[k].name) == 0)
				sub = &subcommands[k];
		if (!sub)
			return usage_error(c, "no subcommand", argv[1]);
	}
	if (sub && sub->takes_host && n >= 2)
		a.host = argv[2];
	else if (n >= 2)
		return usage_error(c, "unexpected argument", argv[2]);
	if (!sub)
		return usage_error(c, "say what: ls, show HOST, diff, report --html FILE or rm HOST", NULL);
	if (sub->takes_host && !a.host)
		return usage_error(c, sub->fn == fleet_rm ? "rm needs a host" :
				   "show needs a host (`rdmadoctor fleet ls` lists them)", NULL);
	if (a.html && sub->fn != fleet_report)
		return usage_error(c, "--html goes with report", NULL);
	if (a.before && sub->fn != fleet_rm)
		return usage_error(c, "--before goes with rm", NULL);
	if ((a.filter.profile || a.filter.verdict || a.filter.since || a.filter.nic_model) &&
	    sub->fn != fleet_ls)
		return usage_error(c, "--profile, --verdict, --since and --group go with ls", NULL);
	if (a.html && (rc = opt_need_parent(c, "fleet report", "--html", a.html)) != CMD_GO_ON)
		return rc;
	db = pipeline_db_path(c, a.db, false);
	if (!db)
		return EXIT_RUNTIME;
	a.db = db;
	rc = pipeline_db_open(c, db, STORE_READ, STORE_WAIT_MS, &s);
	if (rc == EXIT_OK)
		rc = sub->fn(c, s, &a);
	store_close(&s);
	free(db);
	return rc;
}
