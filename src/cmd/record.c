/* rdmadoctor record: keep this host's check result (or documents collected
 * elsewhere) in the fleet database. */
#include "cmd.h"
#include "../opt/opt_files.h"
#include "../pipeline/record_doc.h"
#include "../opt/opt_time.h"
#include "../pipeline/db.h"
#include "../print/json.h"
#include "../print/record_out.h"
#include "../store/batch.h"
#include "../store/record_files.h"
#include "../store/put_record.h"
#include "../store/store.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct record_args {
	const char *db, *profile, *time, *host, *fabric;
	double timeout;		/* seconds; 0: the default */
	const char **bw;	/* argc of them at most */
	size_t n_bw;
	const char **from;
	size_t n_from;
	bool any_from;
	int timeout_ms;		/* from timeout; 0: the default */
};

static int take_bw(struct ctx *c, void *args, const char *value)
{
	struct record_args *a = args;

	(void)c;
	a->bw[a->n_bw++] = value;
	return CMD_GO_ON;
}

static int take_time(struct ctx *c, void *args, const char *value)
{
	return opt_take_time(c, "record", "time", value, &((struct record_args *)args)->time);
}

static const struct cmd_opt record_opts[] = {
	{ "db", 0, "PATH|URI", OPT_STRING_AT(struct record_args, db), .flags = OPT_NONEMPTY,
	  .help = "the database: a file (default\n"
		  "$XDG_DATA_HOME/rdmadoctor/fleet.db, else\n"
		  "~/.local/share/rdmadoctor/fleet.db; made when missing),\n"
		  "or a PostgreSQL server's\n"
		  "postgresql://user@host:port/dbname (the password from\n"
		  "PGPASSFILE or ~/.pgpass, never in the URI; tables made\n"
		  "when missing)" },
	{ "timeout", 0, "S", OPT_SECONDS_AT(struct record_args, timeout, 0.001, 3600),
	  .help = "wait for the database at most S seconds for each thing\n"
		  "asked of it (default 5; with --from 30): then say so\n"
		  "and exit 3; this host's check result is still printed" },
	{ "profile", 0, "NAME|FILE", OPT_STRING_AT(struct record_args, profile),
	  .help = "judge against this profile instead of the one picked" },
	{ "host", 0, "NAME", OPT_STRING_AT(struct record_args, host), .flags = OPT_NONEMPTY,
	  .help = "store the record under this name instead of the host's\n"
		  "own (inventory.host.hostname)" },
	{ "bw", 0, "FILE", OPT_CALL_AT(take_bw),
	  .help = "a `rdmadoctor bw --json` result to keep with the record\n"
		  "(repeat for each; - reads standard input); it must name\n"
		  "this host as its local host, else it is refused" },
	{ "fabric", 0, "FILE", OPT_STRING_AT(struct record_args, fabric),
	  .help = "a `rdmadoctor fabric --json` report to keep with the\n"
		  "record (- reads standard input); it must name this host\n"
		  "among its nodes, else it is refused. `fleet report`\n"
		  "draws its heatmap, `fleet diff` names its suspects" },
	{ "from", 0, NULL, OPT_FLAG_AT(struct record_args, any_from),
	  .help = "store the files given instead (FILE.json|-...): each a\n"
		  "`check --json` document, or a record as the store keeps\n"
		  "it ({\"schema\", \"host\", \"time\", \"check\", \"bw\"}), - for\n"
		  "standard input. All go in one transaction; a file that\n"
		  "is not one is named and skipped, the others are stored" },
	{ "time", 0, "T", OPT_CALL_AT(take_time),
	  .help = "with --from: the time of check documents, which carry\n"
		  "none (UTC, 2026-11-30T07:00:00Z; default: each file's\n"
		  "modification time, now for standard input)" },
	{ 0 }
};

const struct cmd_spec record_spec = {
	.name = "record",
	.opts = record_opts,
	.operands = "[FILE.json|-...]",
	.min_operands = 0,
	.max_operands = INT_MAX,
	.usage =
	"usage: rdmadoctor [--root DIR] record [--db PATH|URI] [--profile NAME|FILE]\n"
	"                  [--host NAME] [--bw FILE]... [--fabric FILE] [--timeout S]\n"
	"       rdmadoctor record [--db PATH|URI] [--time T] [--timeout S]\n"
	"                  --from FILE.json|-...\n",
	.about =
	"Keeps the record a cluster engineer keeps in a spreadsheet, for every\n"
	"machine: runs this host's check (as `rdmadoctor check` does: inventory,\n"
	"findings, profile) and stores it, with the results of `rdmadoctor bw\n"
	"--json` runs given with --bw and a fabric report given with --fabric, in\n"
	"a SQLite file or a PostgreSQL server every node writes to.  `rdmadoctor\n"
	"fleet` then lists the hosts, shows what changed, finds the hosts that\n"
	"differ from the rest, and writes an HTML report.  --json says what was\n"
	"stored as one JSON document.\n",
	.epilog =
	"A host has one record per time: storing the same one twice keeps one.\n"
	"A check that equals the host's latest record but for what moves by\n"
	"itself (NIC and NPU counters, transceiver readings, link-change counts,\n"
	"the readings findings quote, times) adds only its time and its\n"
	"counters' deltas to that record (docs/fleet.md).\n"
	"Two records at once (several hosts writing to one store) wait for each\n"
	"other; a full disk or a crash loses nothing stored before.\n"
	"\n"
	"exit: 0 stored; 1 stored, but the check found errors (or, with --from,\n"
	"a file was not stored); 2 usage (a --bw document of another host); 3\n"
	"could not store (database not writable, disk full, no answer in time:\n"
	"then nothing of this run was stored).\n",
};

static int parse_args(struct ctx *c, int argc, char **argv, struct record_args *a)
{
	int n, rc = opts_parse(c, &record_spec, argc, argv, a, &n);

	if (rc != CMD_GO_ON)
		return rc;
	if (n && !a->any_from) {
		opts_say_unknown(c, &record_spec, argv[1]);
		return EXIT_USAGE;
	}
	for (int i = 1; i <= n; i++)
		a->from[a->n_from++] = argv[i];
	a->timeout_ms = a->timeout > 0 ? (int)(a->timeout * 1000 + 0.5) : 0;
	if (a->timeout > 0 && a->timeout_ms < 1)
		a->timeout_ms = 1;
	if (a->any_from && !a->n_from) {
		fprintf(stderr, "%s record: --from needs files (or - for standard input)\n",
			c->prog);
		return EXIT_USAGE;
	}
	if (a->any_from && (a->profile || a->n_bw || a->host || a->fabric)) {
		fprintf(stderr, "%s record: --profile, --host, --bw and --fabric are for this "
			"host's record, not with --from (a collected file names its own host)\n",
			c->prog);
		return EXIT_USAGE;
	}
	if (a->time && !a->any_from) {
		fprintf(stderr, "%s record: --time goes with --from (this host's record "
			"is stamped now)\n", c->prog);
		return EXIT_USAGE;
	}
	/* before the check is run: what they hold is read after it */
	for (size_t i = 0; i < a->n_bw; i++)
		if ((rc = opt_need_file(c, "record", "--bw", a->bw[i])) != CMD_GO_ON)
			return rc;
	if (a->fabric)
		return opt_need_file(c, "record", "--fabric", a->fabric);
	return CMD_GO_ON;
}

struct tally {
	struct store_tally n;
	json_t *failed;		/* [{"file", "error"}] */
};

static int fail_file(struct ctx *c, struct tally *t, const char *file, const char *why)
{
	fprintf(stderr, "%s record: '%s': %s\n", c->prog, file, why);
	return json_array_append_new(t->failed, json_pack("{s:o, s:o}",
		"file", json_string_or_null(file), "error", json_string_or_null(why)));
}

static int emit_summary(struct ctx *c, const char *db, struct tally *t, const json_t *one)
{
	if (c->json)
		return ctx_emit_json(c, record_summary_json(db, &t->n, t->failed, one));
	if (c->quiet)
		return EXIT_OK;
	text_record_summary(stdout, db, &t->n, t->failed, one);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: cannot write to standard output: %s\n", c->prog,
			strerror(errno));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

static int store_failed(struct ctx *c, struct store *s, struct tally *t)
{
	store_rollback(s);
	fprintf(stderr, "%s: %s\n%s record: nothing of this run was stored\n", c->prog,
		store_error(s), c->prog);
	t->n.stored = t->n.seen = t->n.already = 0;
	return EXIT_RUNTIME;
}

struct refused_arg {
	struct ctx *c;
	struct tally *t;
};

static int refused_file(void *arg, const char *file, const char *why)
{
	struct refused_arg *r = arg;

	return fail_file(r->c, r->t, file, why);
}

/* Each file is read and checked, then all are written in one transaction:
 * one commit (one fsync) for the lot. */
static int record_from(struct ctx *c, const struct record_args *a, const char *db,
		       struct store *s)
{
	struct tally t = { { 0, 0, 0 }, json_array() };
	bool begun = false;
	int rc = EXIT_RUNTIME, err;

	if (!t.failed)
		goto oom;
	err = record_store_files(s, a->from, a->n_from, a->time, refused_file,
				 &(struct refused_arg){ c, &t }, &begun, &t.n);
	if (err == -EIO || (err == 0 && begun && store_commit(s) < 0))
		goto store_failed;
	if (err < 0)
		goto oom;
	rc = emit_summary(c, db, &t, NULL);
	if (rc == EXIT_OK && json_array_size(t.failed))
		rc = EXIT_PROBLEMS;
	goto out;
oom:
	fprintf(stderr, "%s: out of memory\n", c->prog);
	store_rollback(s);
	goto out;
store_failed:
	rc = store_failed(c, s, &t);
out:
	json_decref(t.failed);
	return rc;
}

/* The store could not take this host's record: the check result is
 * still what the caller came for, so it is printed all the same. */
static int not_stored(struct ctx *c, const char *db, const json_t *rec, const char *why)
{
	fprintf(stderr, "%s record: nothing was stored%s%s\n", c->prog, why ? ": " : "",
		why ? why : "");
	if (c->json) {
		ctx_emit_json(c, record_not_stored_json(db, rec, why));
	} else if (!c->quiet) {
		text_record_not_stored(stdout, db, rec);
		fflush(stdout);
	}
	return EXIT_RUNTIME;
}

static int record_here(struct ctx *c, const struct record_args *a, const char *db)
{
	struct tally t = { { 0, 0, 0 }, json_array() };
	char why[1024];
	json_t *rec;
	int rc = record_document(c, &(struct record_ask){ a->profile, a->host, a->bw, a->n_bw,
							  a->fabric }, &rec);

	if (rc == EXIT_OK && !t.failed) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		rc = EXIT_RUNTIME;
	} else if (rc == EXIT_OK && store_put_record(db, rec, a->timeout_ms ? a->timeout_ms : 5000,
						     &t.n, why, sizeof(why)) < 0) {
		rc = not_stored(c, db, rec, why);
	}
	if (rc == EXIT_OK)
		rc = emit_summary(c, db, &t, rec);
	if (rc == EXIT_OK && strcmp(json_string_value(json_object_get(rec, "verdict")), "fail") == 0)
		rc = EXIT_PROBLEMS;
	json_decref(rec);
	json_decref(t.failed);
	return rc;
}

int cmd_record(struct ctx *c, int argc, char **argv)
{
	struct record_args a = { 0 };
	struct store *s = NULL;
	char *db = NULL;
	int rc;

	a.bw = calloc((size_t)argc, sizeof(*a.bw));
	a.from = calloc((size_t)argc, sizeof(*a.from));
	if (!a.bw || !a.from) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = parse_args(c, argc, argv, &a);
	if (rc != CMD_GO_ON)
		goto out;
	db = pipeline_db_path(c, a.db, true);
	if (!db) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	/* this host's check runs first: a store that does not answer must
	 * not keep the check from being done and shown */
	if (!a.any_from) {
		rc = record_here(c, &a, db);
		goto out;
	}
	rc = pipeline_db_open(c, db, STORE_WRITE, a.timeout_ms ? a.timeout_ms : STORE_WAIT_MS, &s);
	if (rc == EXIT_OK)
		rc = record_from(c, &a, db, s);
	else	/* a store that never opened (a server dying as we connect) */
		fprintf(stderr, "%s record: nothing of this run was stored\n", c->prog);
out:
	store_close(&s);
	free(db);
	free(a.bw);
	free(a.from);
	return rc;
}
