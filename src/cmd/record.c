/* rdmadoctor record: keep this host's check result (or documents collected
 * elsewhere) in the fleet database. */
#include "cmd.h"
#include "../opt/opt_files.h"
#include "../pipeline/check_doc.h"
#include "../opt/opt_time.h"
#include "../pipeline/db.h"
#include "../store/record_read.h"
#include "../fleet/fabric.h"
#include "../fleet/record.h"
#include "../print/json.h"
#include "../print/plural.h"
#include "../print/record_out.h"
#include "../store/batch.h"
#include "../store/store.h"
#include "../model/growbuf.h"
#include "../print/text_printf.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* Files read at once (by a few threads) before their rows are queued. */
#define READ_CHUNK 256

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

/* Store one record; text: its JSON text or NULL.  0 or the store's error. */
static int put_one(struct store *s, const json_t *rec, const char *text, struct tally *t)
{
	enum store_put what;
	int rc = store_put(s, rec, text, &what);

	if (rc == 0)
		store_tally_count(&t->n, what);
	return rc;
}

/* A chunk of files read at once (up to n of them, fewer when their text
 * passes STORE_BATCH_MAX_BYTES: *done says how many), then reported and queued
 * in their order.  0, -ENOMEM, or 1 when the store failed (said by
 * store_failed). */
static int read_chunk(struct ctx *c, struct store *s, const struct record_args *a,
		      size_t first, size_t n, struct store_batch *p, bool *begun, struct tally *t,
		      size_t *done)
{
	struct record_slot *slots = calloc(n, sizeof(*slots));
	size_t stdin_at = SIZE_MAX;	/* the first "-" of the run reads stdin */
	int rc;

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < a->n_from && stdin_at == SIZE_MAX; i++)
		if (strcmp(a->from[i], "-") == 0)
			stdin_at = i;
	rc = record_read_files(a->from + first, n,
			       stdin_at >= first && stdin_at < first + n ? stdin_at - first : n,
			       a->time, STORE_BATCH_MAX_BYTES, slots, done);
	for (size_t i = 0; i < n; i++) {	/* the slots past *done are empty */
		if (rc == 0 && i < *done && !slots[i].ok &&
		    fail_file(c, t, a->from[first + i], slots[i].why) < 0)
			rc = -ENOMEM;
		if (rc == 0 && slots[i].ok)
			rc = store_batch_add(p, &slots[i].row);
		store_row_free(&slots[i].row);
	}
	free(slots);
	if (rc == 0 && p->bytes >= STORE_BATCH_MAX_BYTES &&
	    store_batch_flush(s, p, begun, &t->n) < 0)
		rc = 1;
	return rc;
}

/* Each file is read and checked, then all are written in one transaction:
 * one commit (one fsync) for the lot. */
static int record_from(struct ctx *c, const struct record_args *a, const char *db,
		       struct store *s)
{
	struct tally t = { { 0, 0, 0 }, json_array() };
	struct store_batch p = { 0 };
	bool begun = false;
	int rc = EXIT_RUNTIME, err;

	if (!t.failed)
		goto oom;
	for (size_t i = 0, done = 0; i < a->n_from; i += done) {
		err = read_chunk(c, s, a, i, a->n_from - i < READ_CHUNK ? a->n_from - i : READ_CHUNK,
				 &p, &begun, &t, &done);
		if (err < 0)
			goto oom;
		if (err > 0)
			goto store_failed;
	}
	if (store_batch_flush(s, &p, &begun, &t.n) < 0 || (begun && store_commit(s) < 0))
		goto store_failed;
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
	store_batch_free(&p);
	json_decref(t.failed);
	return rc;
}

/* The --fabric report, checked: [doc], [] without one, NULL when refused. */
static json_t *read_fabric(struct ctx *c, const struct record_args *a, const char *host)
{
	struct doc_buf b = { 0 };
	char why[512];
	time_t mtime;
	json_t *doc;

	if (!a->fabric)
		return json_array();
	doc = record_read_doc(&b, a->fabric, false, &mtime, why, sizeof(why));
	free(b.buf);
	if (doc && fleet_fabric_problem(doc, why, sizeof(why)) < 0) {
		json_decref(doc);
		doc = NULL;
	}
	if (doc && !fleet_fabric_names(doc, host)) {
		snprintf(why, sizeof(why), "it does not name host '%s' among its nodes (give --host "
			 "NAME when this machine is known there by another name)", host);
		json_decref(doc);
		doc = NULL;
	}
	if (!doc) {
		fprintf(stderr, "%s record: --fabric '%s': %s\n", c->prog, a->fabric, why);
		return NULL;
	}
	return json_pack("[o]", doc);
}

static json_t *read_bw(struct ctx *c, const struct record_args *a, const char *host)
{
	struct doc_buf b = { 0 };
	json_t *bw = json_array();

	for (size_t i = 0; bw && i < a->n_bw; i++) {
		char why[512];
		time_t mtime;
		json_t *doc = record_read_doc(&b, a->bw[i], false, &mtime, why, sizeof(why));

		if (doc && (fleet_bw_problem(doc, why, sizeof(why)) < 0 ||
			    fleet_bw_host_problem(doc, host, why, sizeof(why)) < 0)) {
			json_decref(doc);
			doc = NULL;
		}
		if (!doc) {
			fprintf(stderr, "%s record: --bw '%s': %s%s\n", c->prog, a->bw[i], why,
				strstr(why, "measured on host") ? " (give --host NAME when this "
				"machine is known by the name the document gives)" : "");
			json_decref(bw);
			bw = NULL;
			break;
		}
		json_array_append_new(bw, doc);
	}
	free(b.buf);
	return bw;
}

/* The store could not take this host's record: the check result is
 * still what the caller came for, so it is printed all the same. */
static int not_stored(struct ctx *c, const char *db, const json_t *rec, const char *why)
{
	const json_t *check = json_object_get(rec, "check");

	fprintf(stderr, "%s record: nothing was stored%s%s\n", c->prog, why ? ": " : "",
		why ? why : "");
	if (c->json) {
		json_t *doc = json_pack("{s:i, s:o, s:i, s:i, s:i, s:[], s:O?, s:O?, s:O?, s:s?, "
					"s:O?}", "schema", 1, "db", json_string_or_null(db),
					"stored", 0, "seen", 0, "already", 0, "failed",
					"host", json_object_get(rec, "host"),
					"time", json_object_get(rec, "time"),
					"verdict", json_object_get(rec, "verdict"), "error", why,
					"check", check);

		ctx_emit_json(c, doc);
	} else if (!c->quiet) {
		text_printf(stdout, "%s: verdict %s, %zu %s (not stored in '%s')\n",
		                    json_string_value(json_object_get(rec, "host")),
		                    json_string_value(json_object_get(rec, "verdict")), record_n_findings(rec),
		                    plural(record_n_findings(rec), "finding", "findings"), db);
		fflush(stdout);
	}
	return EXIT_RUNTIME;
}

static int record_here(struct ctx *c, const struct record_args *a, const char *db)
{
	struct store *s = NULL;
	struct tally t = { { 0, 0, 0 }, json_array() };
	char stamp[FLEET_TIME_LEN];
	json_t *check = NULL, *bw, *rec, *fabric;
	const char *host;
	int rc;

	rc = check_document(c, a->profile, &check);
	if (rc != EXIT_OK) {
		json_decref(t.failed);
		return rc;
	}
	host = a->host ? a->host : json_string_value(json_object_get(json_object_get(
		json_object_get(check, "inventory"), "host"), "hostname"));
	if (a->host && !fleet_host_valid(a->host)) {
		fprintf(stderr, "%s record: --host '%s': give a host name of 1 to 255 characters, "
			"no control characters\n", c->prog, a->host);
		json_decref(check);
		json_decref(t.failed);
		return EXIT_USAGE;
	}
	bw = read_bw(c, a, host ? host : "");
	fabric = bw ? read_fabric(c, a, host ? host : "") : NULL;
	if (!fabric) {
		json_decref(bw);
		json_decref(check);
		json_decref(t.failed);
		return EXIT_USAGE;
	}
	if (!fleet_time_format(time(NULL), stamp)) {
		fprintf(stderr, "%s: the clock is out of range\n", c->prog);
		json_decref(fabric);
		json_decref(bw);
		json_decref(check);
		json_decref(t.failed);
		return EXIT_RUNTIME;
	}
	rec = fleet_record_new(check, stamp, bw);
	if (rec && json_array_size(fabric) && json_object_set(rec, "fabric", fabric) < 0) {
		json_decref(rec);
		rec = NULL;
	}
	json_decref(fabric);
	if (rec && a->host && json_object_set_new(rec, "host", json_string(a->host)) < 0) {
		json_decref(rec);
		rec = NULL;
	}
	if (!rec || !t.failed) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		rc = EXIT_RUNTIME;
	} else if (store_open_wait(db, STORE_WRITE, a->timeout_ms ? a->timeout_ms : 5000, &s) < 0 ||
		   store_begin(s) < 0 || put_one(s, rec, NULL, &t) < 0 || store_commit(s) < 0) {
		store_rollback(s);
		rc = not_stored(c, db, rec, store_error(s));
	}
	store_close(&s);
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
