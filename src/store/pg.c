/* The PostgreSQL backend: a server every node writes to (libpq).  The URI
 * is libpq's (postgresql://user@host:port/db?sslmode=...); its password
 * comes from PGPASSFILE or ~/.pgpass, never from the command line, where
 * every user of the machine could read it.  Each thing asked of the server
 * waits at most the store's timeout (connect_timeout, statement_timeout,
 * lock_timeout): a health check is never held up by a slow server.
 * Documents are JSONB; text columns sort as bytes (COLLATE "C"), as in
 * SQLite, so both give the same answers in the same order.
 *
 * Its tables start at version 3 (the SQLite file's version 3, the same
 * columns); a new version is a new step at the end of `steps`, never an
 * edit of an old one (version 4: hosts, as in store/sqlite.c; the drift
 * facts become text, documents compressed with lz4). */
#include "internal.h"

#include <errno.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PG(s) ((PGconn *)(s)->conn)

/* The server's message, one line, without libpq's trailing newline. */
static const char *one_line(const char *m, char *buf, size_t len)
{
	size_t n;

	snprintf(buf, len, "%s", m && m[0] ? m : "no message");
	n = strcspn(buf, "\n");
	buf[n] = '\0';
	return buf;
}

static int conn_fail(struct store *s, const char *doing)
{
	char m[400];
	const char *what = one_line(PQerrorMessage(PG(s)), m, sizeof(m));

	if (strstr(what, "password authentication failed") || strstr(what, "no password supplied") ||
	    (PG(s) && PQconnectionNeedsPassword(PG(s))))
		return store_say(s, -EACCES, "cannot %s '%s': %s (the password comes from "
				 "PGPASSFILE or ~/.pgpass, mode 0600: is it there and right?)",
				 doing, s->path, what);
	if (strstr(what, "invalid") && strstr(what, "connection option"))
		return store_say(s, -EINVAL, "cannot use '%s': not a PostgreSQL URI (%s); give one "
				 "like postgresql://user@host:5432/fleet", s->path, what);
	if (strstr(what, "Connection refused"))
		return store_say(s, -ECONNREFUSED, "cannot %s '%s': %s (is the server running, "
				 "on that host and port?)", doing, s->path, what);
	if (strstr(what, "timeout expired"))
		return store_say(s, -ETIMEDOUT, "cannot %s '%s': no answer in %d s (%s)", doing,
				 s->path, (s->timeout_ms + 999) / 1000, what);
	if (strstr(what, "does not exist"))
		return store_say(s, -ENOENT, "cannot %s '%s': %s (create it: `createdb`)", doing,
				 s->path, what);
	if (strstr(what, "permission denied") || strstr(what, "no pg_hba.conf entry"))
		return store_say(s, -EACCES, "cannot %s '%s': %s", doing, s->path, what);
	return store_say(s, -EIO, "cannot %s '%s': %s", doing, s->path, what);
}

/* A statement's failure, by its SQLSTATE. */
static int result_fail(struct store *s, PGresult *res, const char *doing)
{
	const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
	char m[400];
	const char *what = one_line(PQresultErrorMessage(res), m, sizeof(m));

	if (PQstatus(PG(s)) == CONNECTION_BAD || (state && strncmp(state, "08", 2) == 0))
		return store_say(s, -EIO, "cannot %s '%s': the connection to the server was lost "
				 "(%s); what was committed before is kept", doing, s->path, what);
	if (!state)
		return store_say(s, -EIO, "cannot %s '%s': %s", doing, s->path, what);
	if (strcmp(state, "53100") == 0)
		return store_say(s, -ENOSPC, "cannot %s '%s': the server's disk is full (%s); "
				 "free some space and run it again; what was stored before is "
				 "kept", doing, s->path, what);
	if (strcmp(state, "57014") == 0)
		return store_say(s, -ETIMEDOUT, "cannot %s '%s': no answer in %d s (%s)", doing,
				 s->path, (s->timeout_ms + 999) / 1000, what);
	if (strcmp(state, "55P03") == 0 || strcmp(state, "40P01") == 0 ||
	    strcmp(state, "40001") == 0)
		return store_say(s, -EBUSY, "cannot %s '%s': another writer kept it locked (%s)",
				 doing, s->path, what);
	if (strncmp(state, "28", 2) == 0 || strcmp(state, "42501") == 0 ||
	    strcmp(state, "25006") == 0)
		return store_say(s, -EACCES, "cannot %s '%s': %s (no permission to write there?)",
				 doing, s->path, what);
	if (strcmp(state, "53200") == 0)
		return store_say(s, -ENOMEM, "cannot %s '%s': the server is out of memory (%s)",
				 doing, s->path, what);
	return store_say(s, -EIO, "cannot %s '%s': %s (SQLSTATE %s)", doing, s->path, what, state);
}

/* Notices ("table does not exist, skipping") are not for people here. */
static void quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

static int pg_exec(struct store *s, const char *sql, const char *doing)
{
	PGresult *res = PQexec(PG(s), sql);
	int rc = 0;

	if (!res)
		return conn_fail(s, doing);
	if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
		rc = result_fail(s, res, doing);
	PQclear(res);
	return rc;
}

/* ?1..?n as $1..$n: the statements of src/store/ hold no '?' in quotes. */
static char *dollars(const char *sql)
{
	char *out = strdup(sql);

	for (char *p = out; p && *p; p++)
		if (*p == '?')
			*p = '$';
	return out;
}

#define MAX_COLS 16

/* Statements kept prepared on the server, by their text: a batch of ten
 * thousand records runs the same few statements, parsed and planned once
 * (rd1, rd2, ... on this connection).  A statement is prepared the second
 * time it is run: one run by a node recording itself costs one round
 * trip, not two. */
#define PREPARED_MAX 32

struct prepared {
	char *sql[PREPARED_MAX];
	bool ready[PREPARED_MAX];	/* prepared on the server (else run once) */
	int n;
};

static void prepared_free(struct store *s)
{
	struct prepared *p = s->prepared;

	for (int i = 0; p && i < p->n; i++)
		free(p->sql[i]);
	free(p);
	s->prepared = NULL;
}

/* sql run with params: by the name it was prepared under, prepared now
 * when it was run before, else as a one-off (kept in mind). */
static PGresult *exec_prepared(struct store *s, const char *sql, int n,
			       const char *const *params)
{
	struct prepared *p = s->prepared;
	char name[16], *text;
	PGresult *res;
	int i = 0;

	if (!p)
		p = s->prepared = calloc(1, sizeof(*p));
	while (p && i < p->n && strcmp(p->sql[i], sql) != 0)
		i++;
	snprintf(name, sizeof(name), "rd%d", i + 1);
	if (p && i < p->n && p->ready[i])
		return PQexecPrepared(PG(s), name, n, params, NULL, NULL, 0);
	text = dollars(sql);
	if (!text)
		return NULL;
	if (p && i < p->n) {
		/* its second run: prepared now, for this one and the next */
		res = PQprepare(PG(s), name, text, n, NULL);
		free(text);
		if (!res || PQresultStatus(res) != PGRES_COMMAND_OK)
			return res;	/* its error is the statement's */
		PQclear(res);
		p->ready[i] = true;
		return PQexecPrepared(PG(s), name, n, params, NULL, NULL, 0);
	}
	if (p && p->n < PREPARED_MAX && (p->sql[p->n] = strdup(sql)))
		p->n++;
	res = PQexecParams(PG(s), text, n, NULL, params, NULL, NULL, 0);
	free(text);
	return res;
}

static int pg_run(struct store *s, const char *sql, const char *const *params, int n,
		  store_row_fn fn, void *arg, long long *changes, const char *doing)
{
	PGresult *res = exec_prepared(s, sql, n, params);
	int rc = 0;

	if (!res)
		return PQstatus(PG(s)) == CONNECTION_OK ? store_say(s, -ENOMEM, "out of memory")
							: conn_fail(s, doing);
	switch (PQresultStatus(res)) {
	case PGRES_TUPLES_OK:
		for (int r = 0; rc == 0 && r < PQntuples(res); r++) {
			const char *cols[MAX_COLS];
			size_t lens[MAX_COLS];
			int nc = PQnfields(res) < MAX_COLS ? PQnfields(res) : MAX_COLS;

			for (int i = 0; i < nc; i++) {
				cols[i] = PQgetisnull(res, r, i) ? NULL : PQgetvalue(res, r, i);
				lens[i] = (size_t)PQgetlength(res, r, i);
			}
			rc = fn ? fn(s, cols, lens, nc, arg) : 0;
		}
		/* fall through */
	case PGRES_COMMAND_OK:
		if (changes && rc == 0)
			*changes = strtoll(PQcmdTuples(res), NULL, 10);
		break;
	default:
		rc = result_fail(s, res, doing);
	}
	PQclear(res);
	return rc;
}

/* The URI's own password is refused: it would be on the command line. */
static int password_given(struct store *s, const char *uri)
{
	char *err = NULL, m[400];
	PQconninfoOption *opts = PQconninfoParse(uri, &err);
	int rc = 0;

	if (!opts) {
		rc = store_say(s, -EINVAL, "cannot use '%s': not a PostgreSQL URI (%s); give one "
			       "like postgresql://user@host:5432/fleet", s->path,
			       err ? one_line(err, m, sizeof(m)) : "out of memory");
		PQfreemem(err);
		return rc;
	}
	for (PQconninfoOption *o = opts; o->keyword; o++)
		if (strcmp(o->keyword, "password") == 0 && o->val && o->val[0])
			rc = store_say(s, -EINVAL, "cannot use the URI given: it holds a password, "
				       "which every user of this machine can read on the command "
				       "line; put it in ~/.pgpass or the file PGPASSFILE names "
				       "(mode 0600) and give the URI without it");
	PQconninfoFree(opts);
	return rc;
}

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* A server with every connection slot taken (a thousand nodes recording
 * at once) is asked again, a little later each time, until the timeout:
 * each writer holds a slot for milliseconds. */
static int connect_in_time(struct store *s, const char *const *keys, const char *const *vals)
{
	long long deadline = now_ms() + s->timeout_ms;
	unsigned wait_ms = 20, seed = (unsigned)getpid();

	for (;;) {
		const char *m;

		s->conn = PQconnectdbParams(keys, vals, 1);
		if (!s->conn)
			return store_say(s, -ENOMEM, "out of memory");
		if (PQstatus(PG(s)) == CONNECTION_OK)
			return 0;
		m = PQerrorMessage(PG(s));
		if (!strstr(m, "too many clients") && !strstr(m, "connection slots are reserved") &&
		    !strstr(m, "the database system is starting up"))
			return conn_fail(s, "open");
		if (now_ms() + wait_ms >= deadline)
			return store_say(s, -EBUSY, "cannot open '%s': the server had no free "
					 "connection for %d s (raise max_connections, or put a "
					 "pooler such as pgbouncer before it)", s->path,
					 (s->timeout_ms + 999) / 1000);
		PQfinish(PG(s));
		s->conn = NULL;
		/* jitter: a thousand writers do not all come back at once */
		usleep((wait_ms + rand_r(&seed) % wait_ms) * 1000);
		if (wait_ms < 400)
			wait_ms *= 2;
	}
}

static int pg_open(struct store *s, const char *target, enum store_mode mode)
{
	char timeout[16], sql[160];
	const char *keys[] = { "dbname", "connect_timeout", "application_name", NULL };
	const char *vals[] = { target, timeout, "rdmadoctor", NULL };
	int rc = password_given(s, target);

	(void)mode;
	if (rc < 0) {
		/* not even the URI is shown: it holds the password */
		free(s->path);
		s->path = strdup("postgresql://...");
		return rc;
	}
	/* libpq waits at least 2 s for a connection */
	snprintf(timeout, sizeof(timeout), "%d", (s->timeout_ms + 999) / 1000);
	rc = connect_in_time(s, keys, vals);
	if (rc < 0)
		return rc;
	PQsetNoticeProcessor(PG(s), quiet, NULL);
	s->writable = true;	/* the server says otherwise when it is not */
	snprintf(sql, sizeof(sql), "SET statement_timeout = %d; SET lock_timeout = %d; "
		 "SET idle_in_transaction_session_timeout = %d", s->timeout_ms, s->timeout_ms,
		 s->timeout_ms > 60000 ? s->timeout_ms : 60000);
	return pg_exec(s, sql, "open");
}

static void pg_close(struct store *s)
{
	prepared_free(s);
	PQfinish(PG(s));
	s->conn = NULL;
}

static int pg_begin(struct store *s)
{
	return pg_exec(s, "BEGIN", "start writing to");
}

static int pg_commit(struct store *s)
{
	return pg_exec(s, "COMMIT", "commit the records to");
}

static void pg_rollback(struct store *s)
{
	PGTransactionStatusType t = PG(s) ? PQtransactionStatus(PG(s)) : PQTRANS_UNKNOWN;

	if (t == PQTRANS_INTRANS || t == PQTRANS_INERROR)
		PQclear(PQexec(PG(s), "ROLLBACK"));
}

static int pg_version(struct store *s, bool locked, int *version)
{
	int found[2] = { 0, 0 }, rc = 0;

	/* upgraders one at a time, until this transaction ends */
	if (locked)
		rc = pg_run(s, "SELECT pg_advisory_xact_lock(hashtext('rdmadoctor fleet schema'))",
			    NULL, 0, NULL, NULL, NULL, "lock the schema of");
	if (rc == 0)
		/* the catalog read as a table, in this statement's snapshot: the
		 * tables another upgrader committed while we waited are seen */
		rc = pg_run(s, "SELECT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON "
			    "n.oid = c.relnamespace WHERE c.relname = 'schema_version' AND "
			    "n.nspname = current_schema()), EXISTS (SELECT 1 FROM pg_class c JOIN "
			    "pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = 'records' AND "
			    "n.nspname = current_schema())", NULL, 0, store_ints_row, found, NULL, "read");
	if (rc < 0)
		return rc;
	if (!found[0] && found[1])
		return store_say(s, -EBADMSG, "cannot use '%s': it has a table 'records' but is "
				 "not an rdmadoctor fleet database (no schema_version table); "
				 "give another database", s->path);
	*version = 0;
	if (!found[0])
		return 0;
	return pg_run(s, "SELECT max(version) FROM schema_version", NULL, 0, store_ints_row, version,
		      NULL, "read");
}

static int create_v3(struct store *s)
{
	return pg_exec(s,
		"CREATE TABLE schema_version(version INTEGER NOT NULL);"
		"INSERT INTO schema_version VALUES(0);"
		"CREATE TABLE records("
		"  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
		"  host TEXT COLLATE \"C\" NOT NULL,"
		"  time TEXT COLLATE \"C\" NOT NULL,"
		"  doc JSONB NOT NULL,"
		"  profile TEXT COLLATE \"C\","
		"  verdict TEXT COLLATE \"C\","
		"  findings INTEGER,"
		"  dmi_product TEXT COLLATE \"C\","
		"  gpus TEXT COLLATE \"C\","
		"  content TEXT COLLATE \"C\","
		"  last_seen TEXT COLLATE \"C\","
		"  counters JSONB,"
		"  fabric JSONB,"
		"  UNIQUE(host, time));"
		"CREATE INDEX records_by_latest ON records(host, last_seen);"
		"CREATE INDEX records_with_fabric ON records(last_seen) WHERE fabric IS NOT NULL;"
		"CREATE TABLE record_groups("
		"  record_id BIGINT NOT NULL REFERENCES records(id) ON DELETE CASCADE,"
		"  profile TEXT COLLATE \"C\","
		"  nic_model TEXT COLLATE \"C\" NOT NULL,"
		"  link_layer TEXT COLLATE \"C\" NOT NULL,"
		"  facts JSONB NOT NULL,"
		"  PRIMARY KEY(record_id, nic_model, link_layer));"
		"CREATE INDEX record_groups_by_group ON record_groups(profile, nic_model);"
		"CREATE TABLE seen("
		"  host TEXT COLLATE \"C\" NOT NULL,"
		"  time TEXT COLLATE \"C\" NOT NULL,"
		"  record_id BIGINT NOT NULL REFERENCES records(id) ON DELETE CASCADE,"
		"  deltas JSONB,"
		"  PRIMARY KEY(host, time));"
		"CREATE INDEX seen_by_record ON seen(record_id)",
		"create the tables of");
}

static int to_v4(struct store *s)
{
	return pg_exec(s,
		"CREATE TABLE hosts("
		"  host TEXT COLLATE \"C\" PRIMARY KEY,"
		"  record_id BIGINT NOT NULL,"
		"  last_seen TEXT COLLATE \"C\" NOT NULL,"
		"  checks BIGINT NOT NULL,"
		"  records BIGINT NOT NULL,"
		"  counters JSONB NOT NULL);"
		/* drift facts are read back whole by fleet diff, a hundred
		 * thousand at a time: as text they are not rendered again */
		"ALTER TABLE record_groups ALTER COLUMN facts TYPE TEXT USING facts::text;"
		/* lz4 compresses a document several times faster than pglz,
		 * the default, which took a quarter of the server's time at
		 * ingest; a server built without lz4 keeps pglz */
		"DO $$ BEGIN"
		"  ALTER TABLE records ALTER COLUMN doc SET COMPRESSION lz4;"
		"  ALTER TABLE hosts ALTER COLUMN counters SET COMPRESSION lz4;"
		"EXCEPTION WHEN feature_not_supported OR invalid_parameter_value OR syntax_error"
		"  THEN NULL; END $$",
		"upgrade (to schema 4)");
}

static int (*const steps[STORE_SCHEMA_VERSION])(struct store *) = { NULL, NULL, create_v3,
								     to_v4 };

const struct store_driver store_pg = {
	.name = "PostgreSQL",
	.open = pg_open,
	.ready = NULL,
	.close = pg_close,
	.exec = pg_exec,
	.run = pg_run,
	.begin = pg_begin,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.version = pg_version,
	.steps = steps,
	.first_version = 2,
	.respells = true,
};
