/* rdmadoctor fleet: what the records say about the fleet: ls, show HOST,
 * diff, report --html FILE. */
#include "cmd.h"
#include "fleet_db.h"
#include "../fleet/diff.h"
#include "../fleet/history.h"
#include "../fleet/skim.h"
#include "../fleet/text.h"
#include "../out/json.h"
#include "../out/fleet_html.h"
#include "../out/safe_stream.h"
#include "../store/store.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char help[] =
	"usage: rdmadoctor fleet [--db PATH] [--json] ls\n"
	"       rdmadoctor fleet [--db PATH] [--json] show HOST\n"
	"       rdmadoctor fleet [--db PATH] [--json] diff\n"
	"       rdmadoctor fleet [--db PATH] report --html FILE\n"
	"\n"
	"What the records of `rdmadoctor record` say about the fleet.\n"
	"\n"
	"  ls              every host: its last record's time, profile, verdict,\n"
	"                  number of findings, and how many records are kept\n"
	"  show HOST       the history of one host: its records, and what changed\n"
	"                  from one to the next (firmware, MTU, PCIe link, port\n"
	"                  state, QoS, driver, kernel, findings), and when\n"
	"  diff            drift: hosts are grouped by profile and NIC model; in each\n"
	"                  group the value most hosts have is the baseline of each\n"
	"                  field (fw, driver_stack, mtu, netdev_mtu, rocev2_gid_index,\n"
	"                  pfc_priority, trust, ecn, pcie_gen, pcie_width,\n"
	"                  port_rate_gbps, port_state, nic_count, bw_gbps), and\n"
	"                  every host that differs is listed with its value, the\n"
	"                  baseline and how many hosts have each value.  A tie goes\n"
	"                  to a value over none, then to the value that sorts first\n"
	"  report --html FILE\n"
	"                  one self-contained HTML page: summary, findings per\n"
	"                  host, drift, bandwidth (written whole, then renamed)\n"
	"\n"
	"  --db PATH       the database (default $XDG_DATA_HOME/rdmadoctor/fleet.db,\n"
	"                  else ~/.local/share/rdmadoctor/fleet.db)\n"
	"  --json          one JSON document on standard output\n"
	"\n"
	"Each host is judged on its latest record.\n"
	"\n"
	"exit: 0 fine; 1 diff found hosts that differ; 2 usage; 3 could not run\n"
	"(no database, not a fleet database, unknown host, cannot write FILE).\n";

struct fleet_args {
	const char *db, *html, *host;
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

static void note_empty(struct ctx *c, const char *db)
{
	if (!c->quiet)
		fprintf(stderr, "%s fleet: no records in '%s' yet (store some with "
			"`rdmadoctor record`)\n", c->prog, db);
}

static int fleet_ls(struct ctx *c, struct store *s, const struct fleet_args *a)
{
	json_t *hosts;

	if (store_hosts(s, &hosts) < 0)
		return db_failed(c, s);
	if (!json_array_size(hosts))
		note_empty(c, a->db);
	return write_text_or_json(c, json_pack("{s:i, s:o, s:o}", "schema", 1,
					       "db", json_string_or_null(a->db),
					       "hosts", hosts), fleet_text_ls);
}

/* {"schema", "host", "records": [{time, profile, verdict, findings}],
 *  "changes": [...], "latest": <the newest record>} */
static json_t *show_doc(const char *host, json_t *history, json_t *latest)
{
	json_t *recs = json_array(), *changes = json_array(), *r, *prev = NULL;
	size_t i;

	if (!recs || !changes)
		goto fail;
	json_array_foreach(history, i, r) {
		json_t *row = json_pack("{s:O?, s:O?, s:O?, s:I}", "time", json_object_get(r, "time"),
					"profile", json_object_get(r, "profile"),
					"verdict", json_object_get(r, "verdict"), "findings",
					(json_int_t)json_array_size(json_object_get(
						json_object_get(r, "check"), "findings")));

		if (json_array_append_new(recs, row) < 0)
			goto fail;
		if (prev && fleet_changes(prev, r, changes) < 0)
			goto fail;
		prev = r;
	}
	return json_pack("{s:i, s:o, s:o, s:o, s:O}", "schema", 1,
			 "host", json_string_or_null(host), "records", recs,
			 "changes", changes, "latest", latest);
fail:
	json_decref(recs);
	json_decref(changes);
	return NULL;
}

static int fleet_show(struct ctx *c, struct store *s, const struct fleet_args *a)
{
	json_t *history, *latest, *doc;

	/* the changes need only what fleet_skim_drop keeps; the latest
	 * record is shown whole */
	if (store_history(s, a->host, fleet_skim_drop, &history) < 0)
		return db_failed(c, s);
	if (!json_array_size(history)) {
		json_decref(history);
		fprintf(stderr, "%s fleet: no records of host '%s' in '%s' (`rdmadoctor fleet "
			"ls` lists the hosts)\n", c->prog, a->host, a->db);
		return EXIT_RUNTIME;
	}
	/* the record the history ends with, whole (not a newer one stored
	 * meanwhile: the two agree) */
	if (store_record(s, a->host, json_string_value(json_object_get(json_array_get(history,
			 json_array_size(history) - 1), "time")), &latest) < 0) {
		json_decref(history);
		return db_failed(c, s);
	}
	if (!json_array_size(latest)) {
		json_decref(history);
		json_decref(latest);
		fprintf(stderr, "%s fleet: cannot read '%s': the latest record of host '%s' does "
			"not carry the time it is stored under (the file was edited by hand? "
			"move it aside)\n", c->prog, a->db, a->host);
		return EXIT_RUNTIME;
	}
	doc = show_doc(a->host, history, json_array_get(latest, 0));
	json_decref(history);
	json_decref(latest);
	if (!doc) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return EXIT_RUNTIME;
	}
	return write_text_or_json(c, doc, fleet_text_show);
}

static int fleet_diff_cmd(struct ctx *c, struct store *s, const struct fleet_args *a)
{
	json_t *hosts, *diff;
	size_t outliers;
	int rc;

	if (store_latest_facts(s, &hosts) < 0)
		return db_failed(c, s);
	if (!json_array_size(hosts))
		note_empty(c, a->db);
	diff = fleet_diff(hosts);
	json_decref(hosts);
	if (!diff) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return EXIT_RUNTIME;
	}
	outliers = fleet_diff_outliers(diff);
	rc = write_text_or_json(c, diff, fleet_text_diff);
	return rc == EXIT_OK && outliers ? EXIT_PROBLEMS : rc;
}

/* mkstemp makes 0600; the page gets what any new file would. */
static mode_t current_umask(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

/* Write the page beside FILE, make it durable, then rename it over FILE:
 * a reader sees the old page or the new one, never half of one. */
static int write_atomic(struct ctx *c, const char *file, json_t *records, json_t *diff)
{
	char *tmp = NULL, *dir_copy = strdup(file);
	int fd = -1, rc = EXIT_RUNTIME, dfd;
	FILE *out = NULL;

	if (!dir_copy || asprintf(&tmp, "%s.XXXXXX", file) < 0) {
		tmp = NULL;
		fprintf(stderr, "%s: out of memory\n", c->prog);
		goto out;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "%s fleet: cannot write beside '%s': %s (is its directory "
			"there and writable?)\n", c->prog, file, strerror(errno));
		free(tmp);
		tmp = NULL;
		goto out;
	}
	if (fchmod(fd, 0666 & ~current_umask()) < 0) {
		close(fd);
		goto fail;
	}
	out = fdopen(fd, "w");
	if (!out) {
		close(fd);
		goto fail;
	}
	if (fleet_html_write(out, records, diff) < 0 || fflush(out) != 0 || ferror(out) ||
	    fsync(fileno(out)) < 0)
		goto fail;
	if (fclose(out) != 0) {
		out = NULL;
		goto fail;
	}
	out = NULL;
	if (rename(tmp, file) < 0)
		goto fail;
	free(tmp);
	tmp = NULL;
	/* the rename itself is durable once the directory is synced */
	dfd = open(dirname(dir_copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	rc = EXIT_OK;
	goto out;
fail:
	fprintf(stderr, "%s fleet: cannot write '%s': %s\n", c->prog, file,
		strerror(errno ? errno : EIO));
	if (out)
		fclose(out);
	unlink(tmp);
out:
	free(tmp);
	free(dir_copy);
	return rc;
}

static int fleet_report(struct ctx *c, struct store *s, const struct fleet_args *a)
{
	json_t *records = NULL, *hosts = NULL, *diff = NULL;
	int rc = EXIT_RUNTIME;

	if (!a->html) {
		fprintf(stderr, "%s fleet report: say where: --html FILE\n", c->prog);
		return EXIT_USAGE;
	}
	/* the page shows no counters, GID tables, GPUs: leave them out of
	 * the trees (fleet_skim_bulk) */
	if (store_latest(s, fleet_skim_bulk, &records) < 0 ||
	    store_latest_facts(s, &hosts) < 0) {
		rc = db_failed(c, s);
		goto out;
	}
	if (!json_array_size(records)) {
		fprintf(stderr, "%s fleet report: no records in '%s': nothing to report (store "
			"some with `rdmadoctor record`)\n", c->prog, a->db);
		goto out;
	}
	diff = fleet_diff(hosts);
	if (!diff) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		goto out;
	}
	rc = write_atomic(c, a->html, records, diff);
	if (rc == EXIT_OK && !c->quiet && !c->json)
		printf("wrote '%s': %zu hosts, %zu differ from their group\n", a->html,
		       json_array_size(records), fleet_diff_odd_hosts(diff));
	if (rc == EXIT_OK && c->json)
		rc = ctx_emit_json(c, json_pack("{s:i, s:o, s:I, s:I}", "schema", 1, "html",
						json_string_or_null(a->html),
						"hosts", (json_int_t)json_array_size(records),
						"outliers", (json_int_t)fleet_diff_outliers(diff)));
out:
	json_decref(records);
	json_decref(hosts);
	json_decref(diff);
	return rc;
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
};

/* "what 'arg'", or what alone when arg is NULL, then the usage. */
static int usage_error(struct ctx *c, const char *what, const char *arg)
{
	if (arg)
		fprintf(stderr, "%s fleet: %s '%s'\n\n%s", c->prog, what, arg, help);
	else
		fprintf(stderr, "%s fleet: %s\n\n%s", c->prog, what, help);
	return EXIT_USAGE;
}

int cmd_fleet(struct ctx *c, int argc, char **argv)
{
	const struct fleet_cmd *sub = NULL;
	struct fleet_args a = { 0 };
	struct store *s = NULL;
	char *db;
	int rc;

	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];

		if (strcmp(o, "-h") == 0 || strcmp(o, "--help") == 0) {
			fputs(help, stdout);
			return EXIT_OK;
		} else if (strcmp(o, "--json") == 0) {
			c->json = true;
		} else if (strcmp(o, "--db") == 0 && i + 1 < argc && argv[i + 1][0]) {
			a.db = argv[++i];
		} else if (strcmp(o, "--html") == 0 && i + 1 < argc && argv[i + 1][0]) {
			a.html = argv[++i];
		} else if (strcmp(o, "--db") == 0 || strcmp(o, "--html") == 0) {
			return usage_error(c, "a value is missing after", o);
		} else if (o[0] == '-') {
			return usage_error(c, "unexpected option", o);
		} else if (!sub) {
			for (size_t k = 0; k < sizeof(subcommands) / sizeof(subcommands[0]); k++)
				if (strcmp(o, subcommands[k].name) == 0)
					sub = &subcommands[k];
			if (!sub)
				return usage_error(c, "no subcommand", o);
		} else if (sub->takes_host && !a.host) {
			a.host = o;
		} else {
			return usage_error(c, "unexpected argument", o);
		}
	}
	if (!sub)
		return usage_error(c, "say what: ls, show HOST, diff or report --html FILE", NULL);
	if (sub->takes_host && !a.host)
		return usage_error(c, "show needs a host (`rdmadoctor fleet ls` lists them)", NULL);
	if (a.html && sub->fn != fleet_report)
		return usage_error(c, "--html goes with report", NULL);
	db = fleet_db_path(c, a.db, false);
	if (!db)
		return EXIT_RUNTIME;
	a.db = db;
	rc = fleet_db_open(c, db, STORE_READ, &s);
	if (rc == EXIT_OK)
		rc = sub->fn(c, s, &a);
	store_close(&s);
	free(db);
	return rc;
}
