/* rdmadoctor record: keep this host's check result (or documents collected
 * elsewhere) in the fleet database. */
#include "cmd.h"
#include "check_doc.h"
#include "fleet_db.h"
#include "../fleet/record.h"
#include "../store/store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char help[] =
	"usage: rdmadoctor [--root DIR] record [--db PATH] [--profile NAME|FILE]\n"
	"                  [--bw FILE]... [--json]\n"
	"       rdmadoctor record [--db PATH] [--time T] [--json] --from FILE.json|-...\n"
	"\n"
	"Keeps the record a cluster engineer keeps in a spreadsheet, for every\n"
	"machine: runs this host's check (as `rdmadoctor check` does: inventory,\n"
	"findings, profile) and stores it, with the results of `rdmadoctor bw\n"
	"--json` runs given with --bw, in a SQLite file.  `rdmadoctor fleet`\n"
	"then lists the hosts, shows what changed, finds the hosts that differ\n"
	"from the rest, and writes an HTML report.\n"
	"\n"
	"  --db PATH     the database (default $XDG_DATA_HOME/rdmadoctor/fleet.db,\n"
	"                else ~/.local/share/rdmadoctor/fleet.db; made when missing)\n"
	"  --profile P   judge against this profile instead of the one picked\n"
	"  --bw FILE     a `rdmadoctor bw --json` result to keep with the record\n"
	"                (repeat for each; - reads standard input)\n"
	"  --from F...   store documents collected elsewhere instead: each file a\n"
	"                `check --json` document or a record (`fleet show --json`\n"
	"                gives them), - for standard input.  All go in one\n"
	"                transaction; a file that is not one is named and skipped,\n"
	"                the others are stored\n"
	"  --time T      with --from: the time of check documents, which carry\n"
	"                none (UTC, 2026-11-30T07:00:00Z; default: each file's\n"
	"                modification time, now for standard input)\n"
	"  --json        say what was stored as one JSON document\n"
	"\n"
	"A host has one record per time: storing the same one twice keeps one.\n"
	"Two records at once (several hosts writing to one shared file) wait for\n"
	"each other; a full disk or a crash loses nothing stored before.\n"
	"\n"
	"exit: 0 stored; 1 stored, but the check found errors (or, with --from,\n"
	"a file was not stored); 2 usage; 3 could not run (database not writable,\n"
	"disk full: then nothing of this run was stored).\n";

/* Documents bigger than this are not check results. */
#define DOC_MAX (64u << 20)

struct record_args {
	const char *db, *profile, *time;
	const char **bw;
	size_t n_bw;
	const char **from;
	size_t n_from;
	bool any_from;
};

static int parse_args(struct ctx *c, int argc, char **argv, struct record_args *a)
{
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		bool more = i + 1 < argc;

		if (strcmp(o, "-h") == 0 || strcmp(o, "--help") == 0) {
			fputs(help, stdout);
			return EXIT_OK;
		} else if (strcmp(o, "--json") == 0) {
			c->json = true;
		} else if (strcmp(o, "--db") == 0 && more && argv[i + 1][0]) {
			a->db = argv[++i];
		} else if (strcmp(o, "--profile") == 0 && more) {
			a->profile = argv[++i];
		} else if (strcmp(o, "--time") == 0 && more) {
			a->time = argv[++i];
			if (!fleet_time_valid(a->time)) {
				fprintf(stderr, "%s record: --time '%s': give a UTC time like "
					"2026-11-30T07:00:00Z\n", c->prog, a->time);
				return EXIT_USAGE;
			}
		} else if (strcmp(o, "--bw") == 0 && more) {
			a->bw[a->n_bw++] = argv[++i];
		} else if (strcmp(o, "--from") == 0) {
			a->any_from = true;
			/* every following word that is not an option is a file */
			while (i + 1 < argc && (argv[i + 1][0] != '-' || strcmp(argv[i + 1], "-") == 0))
				a->from[a->n_from++] = argv[++i];
		} else {
			fprintf(stderr, "%s record: unexpected argument '%s'\n\n%s", c->prog, o, help);
			return EXIT_USAGE;
		}
	}
	if (a->any_from && !a->n_from) {
		fprintf(stderr, "%s record: --from needs files (or - for standard input)\n",
			c->prog);
		return EXIT_USAGE;
	}
	if (a->any_from && (a->profile || a->n_bw)) {
		fprintf(stderr, "%s record: --profile and --bw are for this host's record, "
			"not with --from\n", c->prog);
		return EXIT_USAGE;
	}
	if (a->time && !a->any_from) {
		fprintf(stderr, "%s record: --time goes with --from (this host's record "
			"is stamped now)\n", c->prog);
		return EXIT_USAGE;
	}
	return -1;
}

/* Read a whole file (or stdin for "-") and parse it; NULL with why. */
static json_t *read_doc(const char *file, time_t *mtime, char *why, size_t len)
{
	bool in = strcmp(file, "-") == 0;
	int fd = in ? STDIN_FILENO : open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	size_t used = 0, cap = 0;
	char *buf = NULL;
	json_t *doc = NULL;
	json_error_t jerr;
	struct stat st;

	*mtime = time(NULL);
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(why, len, "cannot open it: %s", strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(why, len, "it is a directory, not a JSON file");
		goto out;
	}
	if (!in && S_ISREG(st.st_mode))
		*mtime = st.st_mtime;
	for (;;) {
		ssize_t n;

		if (used == cap) {
			char *grown;

			if (cap >= DOC_MAX) {
				snprintf(why, len, "it is over %u MiB: not a check document",
					 DOC_MAX >> 20);
				goto out;
			}
			cap = cap ? cap * 2 : 65536;
			grown = realloc(buf, cap);
			if (!grown) {
				snprintf(why, len, "out of memory");
				goto out;
			}
			buf = grown;
		}
		n = read(fd, buf + used, cap - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(why, len, "cannot read it: %s", strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	if (!used) {
		snprintf(why, len, "it is empty");
		goto out;
	}
	doc = json_loadb(buf, used, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc)
		snprintf(why, len, "not valid JSON at line %d column %d: %s%s", jerr.line,
			 jerr.column, jerr.text,
			 json_error_code(&jerr) == json_error_premature_end_of_input ?
			 " (a truncated file?)" : "");
out:
	if (fd >= 0 && !in)
		close(fd);
	free(buf);
	return doc;
}

struct tally {
	size_t stored, already;
	json_t *failed;		/* [{"file", "error"}] */
};

static int fail_file(struct ctx *c, struct tally *t, const char *file, const char *why)
{
	fprintf(stderr, "%s record: '%s': %s\n", c->prog, file, why);
	return json_array_append_new(t->failed, json_pack("{s:s, s:s}", "file", file,
							  "error", why));
}

static int emit_summary(struct ctx *c, const char *db, struct tally *t, const json_t *one)
{
	if (c->json) {
		json_t *doc = json_pack("{s:i, s:s, s:I, s:I, s:O}", "schema", 1, "db", db,
					"stored", (json_int_t)t->stored,
					"already", (json_int_t)t->already, "failed", t->failed);

		if (doc && one) {
			json_object_set(doc, "host", json_object_get(one, "host"));
			json_object_set(doc, "time", json_object_get(one, "time"));
			json_object_set(doc, "verdict", json_object_get(one, "verdict"));
		}
		return ctx_emit_json(c, doc);
	}
	if (c->quiet)
		return EXIT_OK;
	if (one)
		printf("%s %s '%s' at %s: %s, %zu findings\n", t->stored ? "stored" : "already had",
		       json_string_value(json_object_get(one, "host")), db,
		       json_string_value(json_object_get(one, "time")),
		       json_string_value(json_object_get(one, "verdict")),
		       json_array_size(json_object_get(json_object_get(one, "check"), "findings")));
	else
		printf("stored %zu records in '%s'; %zu already there, %zu files failed\n",
		       t->stored, db, t->already, json_array_size(t->failed));
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: cannot write to standard output: %s\n", c->prog,
			strerror(errno));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* Store records (taken) in one transaction; EXIT_OK or EXIT_RUNTIME. */
static int store_all(struct ctx *c, struct store *s, json_t *records, struct tally *t)
{
	json_t *r;
	size_t i;
	int rc = store_begin(s);

	json_array_foreach(records, i, r) {
		bool dup;

		if (rc == 0)
			rc = store_put(s, r, &dup);
		if (rc == 0)
			dup ? t->already++ : t->stored++;
	}
	if (rc == 0)
		rc = store_commit(s);
	if (rc < 0) {
		store_rollback(s);
		fprintf(stderr, "%s: %s\n%s record: nothing of this run was stored\n", c->prog,
			store_error(s), c->prog);
		t->stored = t->already = 0;
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

static int record_from(struct ctx *c, const struct record_args *a, const char *db,
		       struct store *s)
{
	struct tally t = { 0, 0, json_array() };
	json_t *records = json_array();
	int rc = EXIT_RUNTIME;
	bool stdin_used = false;

	if (!t.failed || !records)
		goto out;
	for (size_t i = 0; i < a->n_from; i++) {
		char why[512], stamp[FLEET_TIME_LEN];
		const char *file = a->from[i];
		time_t mtime;
		json_t *doc, *rec;

		if (strcmp(file, "-") == 0) {
			if (stdin_used) {
				fail_file(c, &t, file, "standard input was read already");
				continue;
			}
			stdin_used = true;
		}
		doc = read_doc(file, &mtime, why, sizeof(why));
		if (!doc) {
			fail_file(c, &t, file, why);
			continue;
		}
		if (!a->time && !fleet_time_format(mtime, stamp)) {
			json_decref(doc);
			fail_file(c, &t, file, "its modification time is out of range: give --time");
			continue;
		}
		rec = fleet_record_from_doc(doc, a->time ? a->time : stamp, why, sizeof(why));
		if (!rec) {
			fail_file(c, &t, file, why);
			continue;
		}
		if (json_array_append_new(records, rec) < 0)
			goto out;
	}
	rc = store_all(c, s, records, &t);
	if (rc == EXIT_OK)
		rc = emit_summary(c, db, &t, NULL);
	if (rc == EXIT_OK && json_array_size(t.failed))
		rc = EXIT_PROBLEMS;
out:
	if (rc == EXIT_RUNTIME && (!t.failed || !records))
		fprintf(stderr, "%s: out of memory\n", c->prog);
	json_decref(records);
	json_decref(t.failed);
	return rc;
}

static json_t *read_bw(struct ctx *c, const struct record_args *a)
{
	json_t *bw = json_array();

	for (size_t i = 0; bw && i < a->n_bw; i++) {
		char why[512];
		time_t mtime;
		json_t *doc = read_doc(a->bw[i], &mtime, why, sizeof(why));

		if (doc && fleet_bw_problem(doc, why, sizeof(why)) < 0) {
			json_decref(doc);
			doc = NULL;
		}
		if (!doc) {
			fprintf(stderr, "%s record: --bw '%s': %s\n", c->prog, a->bw[i], why);
			json_decref(bw);
			return NULL;
		}
		json_array_append_new(bw, doc);
	}
	return bw;
}

static int record_here(struct ctx *c, const struct record_args *a, const char *db,
		       struct store *s)
{
	struct tally t = { 0, 0, json_array() };
	char stamp[FLEET_TIME_LEN];
	json_t *check = NULL, *bw, *rec, *records;
	int rc;

	bw = read_bw(c, a);
	if (!bw) {
		json_decref(t.failed);
		return EXIT_USAGE;
	}
	rc = check_document(c, a->profile, &check);
	if (rc != EXIT_OK) {
		json_decref(bw);
		json_decref(t.failed);
		return rc;
	}
	if (!fleet_time_format(time(NULL), stamp)) {
		fprintf(stderr, "%s: the clock is out of range\n", c->prog);
		json_decref(bw);
		json_decref(check);
		json_decref(t.failed);
		return EXIT_RUNTIME;
	}
	rec = fleet_record_new(check, stamp, bw);
	records = json_array();
	if (!rec || !records || !t.failed || json_array_append(records, rec) < 0) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		rc = EXIT_RUNTIME;
	} else {
		rc = store_all(c, s, records, &t);
	}
	if (rc == EXIT_OK)
		rc = emit_summary(c, db, &t, rec);
	if (rc == EXIT_OK && strcmp(json_string_value(json_object_get(rec, "verdict")), "fail") == 0)
		rc = EXIT_PROBLEMS;
	json_decref(rec);
	json_decref(records);
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
	if (rc >= 0)
		goto out;
	db = fleet_db_path(c, a.db, true);
	rc = db ? fleet_db_open(c, db, STORE_WRITE, &s) : EXIT_RUNTIME;
	if (rc != EXIT_OK)
		goto out;
	rc = a.any_from ? record_from(c, &a, db, s) : record_here(c, &a, db, s);
out:
	store_close(&s);
	free(db);
	free(a.bw);
	free(a.from);
	return rc;
}
