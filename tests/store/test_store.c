/* store/: records in and out of SQLite (":memory:" and temporary files),
 * duplicates, transactions, the schema upgrade from version 1, and the
 * files it must refuse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>
#include <sqlite3.h>

#include "fleet/facts.h"
#include "fleet/record.h"
#include "fleet/skim.h"
#include "store/sha256.h"
#include "store/store.h"

static json_t *record(const char *host, const char *time, const char *fw, const char *verdict,
		      int findings)
{
	json_t *f = json_array();
	json_t *check;

	for (int i = 0; i < findings; i++)
		json_array_append_new(f, json_pack("{s:s, s:s}", "id", "port.down", "subject", "x"));
	check = json_pack("{s:i, s:s, s:s, s:o, s:{s:{s:s}, s:[{s:s, s:s, s:s, s:[]}]}}",
			  "schema", 1, "profile", "dgx-h100", "verdict", verdict, "findings", f,
			  "inventory", "host", "hostname", host, "nics", "name", "mlx5_0",
			  "model", "ConnectX-7", "fw_ver", fw, "ports");
	return fleet_record_new(check, time, NULL);
}

static void put_as(struct store *s, json_t *rec, enum store_put want)
{
	enum store_put what = STORE_NEW;

	assert_int_equal(store_put(s, rec, NULL, &what), 0);
	assert_int_equal(what, want);
	json_decref(rec);
}

static void put(struct store *s, json_t *rec, bool want_dup)
{
	put_as(s, rec, want_dup ? STORE_ALREADY : STORE_NEW);
}

/* A record whose port carries counters. */
static json_t *counted(const char *host, const char *time, long long rcv)
{
	json_t *rec = record(host, time, "1", "pass", 0);
	json_t *nic = json_array_get(json_object_get(json_object_get(json_object_get(rec, "check"),
		"inventory"), "nics"), 0);

	json_array_append_new(json_object_get(nic, "ports"),
			      json_pack("{s:i, s:s, s:{s:I, s:i}}", "port", 1, "link_layer",
					"InfiniBand", "counters", "port_rcv_data", (json_int_t)rcv,
					"link_downed", 0));
	return rec;
}

/* An unchanged check adds a seen time and its counters' deltas, not a
 * copy; a change is a record again; rm takes the checks away. */
static void unchanged_checks(void **state)
{
	struct store *s;
	json_t *hosts, *hist, *series, *d;
	long long removed;

	(void)state;
	assert_int_equal(store_open(":memory:", STORE_WRITE, &s), 0);
	assert_int_equal(store_begin(s), 0);
	put_as(s, counted("a", "2026-11-01T00:00:00Z", 100), STORE_NEW);
	put_as(s, counted("a", "2026-11-01T01:00:00Z", 150), STORE_SEEN);
	put_as(s, counted("a", "2026-11-01T02:00:00Z", 150), STORE_SEEN);
	put_as(s, counted("a", "2026-11-01T02:00:00Z", 999), STORE_ALREADY);
	put_as(s, counted("a", "2026-11-01T03:00:00Z", 40), STORE_SEEN);	/* reset */
	/* an older check arriving late is a record of its own */
	put_as(s, counted("a", "2026-10-31T00:00:00Z", 1), STORE_NEW);
	put_as(s, record("a", "2026-11-01T04:00:00Z", "2", "pass", 0), STORE_NEW);
	assert_int_equal(store_commit(s), 0);

	assert_int_equal(store_hosts(s, NULL, &hosts), 0);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(hosts, 0), "records")), 6);
	assert_string_equal(json_string_value(json_object_get(json_array_get(hosts, 0), "time")),
			    "2026-11-01T04:00:00Z");
	json_decref(hosts);
	assert_int_equal(store_history(s, "a", NULL, &hist), 0);
	assert_int_equal(json_array_size(hist), 3);
	d = json_array_get(hist, 1);	/* the record of 00:00, seen until 03:00 */
	assert_string_equal(json_string_value(json_object_get(d, "last_seen")),
			    "2026-11-01T03:00:00Z");
	assert_int_equal(json_integer_value(json_object_get(d, "checks")), 4);
	json_decref(hist);
	assert_int_equal(store_counters(s, "a", &series), 0);
	assert_int_equal(json_array_size(series), 3);
	d = json_object_get(json_object_get(json_array_get(series, 0), "deltas"), "mlx5_0 port 1");
	assert_int_equal(json_integer_value(json_object_get(d, "port_rcv_data")), 50);
	assert_null(json_object_get(d, "link_downed"));	/* unchanged: not kept */
	assert_int_equal(json_object_size(json_object_get(json_array_get(series, 1), "deltas")), 0);
	d = json_object_get(json_object_get(json_array_get(series, 2), "deltas"), "mlx5_0 port 1");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(d, "port_rcv_data"),
							    "reset")), 40);
	json_decref(series);

	/* rm --before: the checks before it go, the record seen after stays */
	assert_int_equal(store_rm(s, "a", "2026-11-01T02:00:00Z", &removed), 0);
	assert_int_equal(removed, 2);	/* the late record and the 01:00 seen */
	assert_int_equal(store_hosts(s, NULL, &hosts), 0);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(hosts, 0), "records")), 4);
	json_decref(hosts);
	assert_int_equal(store_rm(s, "a", NULL, &removed), 0);
	assert_int_equal(removed, 4);
	assert_int_equal(store_hosts(s, NULL, &hosts), 0);
	assert_int_equal(json_array_size(hosts), 0);
	json_decref(hosts);
	store_close(&s);
}

/* fleet ls filters */
static void host_filters(void **state)
{
	struct store *s;
	json_t *hosts;
	struct store_filter f = { .verdict = "fail" };

	(void)state;
	assert_int_equal(store_open(":memory:", STORE_WRITE, &s), 0);
	put(s, record("a", "2026-11-01T00:00:00Z", "1", "pass", 0), false);
	put(s, record("b", "2026-11-02T00:00:00Z", "1", "fail", 1), false);
	assert_int_equal(store_hosts(s, &f, &hosts), 0);
	assert_int_equal(json_array_size(hosts), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(hosts, 0), "host")), "b");
	json_decref(hosts);
	f = (struct store_filter){ .since = "2026-11-01T12:00:00Z", .profile = "dgx-h100" };
	assert_int_equal(store_hosts(s, &f, &hosts), 0);
	assert_int_equal(json_array_size(hosts), 1);
	json_decref(hosts);
	f = (struct store_filter){ .nic_model = "ConnectX-7" };
	assert_int_equal(store_hosts(s, &f, &hosts), 0);
	assert_int_equal(json_array_size(hosts), 2);
	json_decref(hosts);
	f = (struct store_filter){ .nic_model = "BlueField-3" };
	assert_int_equal(store_hosts(s, &f, &hosts), 0);
	assert_int_equal(json_array_size(hosts), 0);
	json_decref(hosts);
	store_close(&s);
}

static void roundtrip(void **state)
{
	struct store *s;
	json_t *hosts, *hist, *latest, *facts, *want;

	(void)state;
	assert_int_equal(store_open(":memory:", STORE_WRITE, &s), 0);
	assert_int_equal(store_found_version(s), 0);
	assert_int_equal(store_begin(s), 0);
	put(s, record("b", "2026-11-02T00:00:00Z", "2", "fail", 2), false);
	put(s, record("b", "2026-11-01T00:00:00Z", "1", "pass", 0), false);
	put(s, record("a", "2026-11-01T00:00:00Z", "1", "pass", 0), false);
	put(s, record("a", "2026-11-01T00:00:00Z", "9", "pass", 0), true);	/* same time */
	assert_int_equal(store_commit(s), 0);

	assert_int_equal(store_hosts(s, NULL, &hosts), 0);
	assert_int_equal(json_array_size(hosts), 2);
	want = json_loads("[{\"host\":\"a\",\"time\":\"2026-11-01T00:00:00Z\",\"profile\":\"dgx-h100\","
			  "\"verdict\":\"pass\",\"findings\":0,\"records\":1},"
			  "{\"host\":\"b\",\"time\":\"2026-11-02T00:00:00Z\",\"profile\":\"dgx-h100\","
			  "\"verdict\":\"fail\",\"findings\":2,\"records\":2}]", 0, NULL);
	assert_true(json_equal(hosts, want));
	json_decref(want);
	json_decref(hosts);

	assert_int_equal(store_history(s, "b", NULL, &hist), 0);
	assert_int_equal(json_array_size(hist), 2);	/* oldest first */
	assert_string_equal(json_string_value(json_object_get(json_array_get(hist, 0), "time")),
			    "2026-11-01T00:00:00Z");
	json_decref(hist);
	assert_int_equal(store_history(s, "nobody", NULL, &hist), 0);
	assert_int_equal(json_array_size(hist), 0);
	json_decref(hist);

	/* the first record of a at that time is kept, not the duplicate */
	assert_int_equal(store_latest(s, NULL, &latest), 0);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(json_object_get(json_object_get(json_array_get(latest, 0), "check"),
						"inventory"), "nics"), 0), "fw_ver")), "1");
	/* the facts the store keeps are those of the latest documents */
	assert_int_equal(store_latest_facts(s, &facts), 0);
	assert_int_equal(json_array_size(facts), 2);
	for (size_t i = 0; i < 2; i++) {
		json_t *f = fleet_facts(json_array_get(latest, i));

		assert_true(json_equal(f, json_object_get(json_array_get(facts, i), "facts")));
		json_decref(f);
	}
	json_decref(facts);
	json_decref(latest);
	store_close(&s);
	assert_null(s);
}

static void latest_without_bulk(void **state)
{
	struct store *s;
	json_t *rec = record("a", "2026-11-01T00:00:00Z", "1", "pass", 0), *whole, *slim, *port;

	(void)state;
	port = json_array_get(json_object_get(json_array_get(json_object_get(json_object_get(
		json_object_get(rec, "check"), "inventory"), "nics"), 0), "ports"), 0);
	assert_null(port);
	json_array_append_new(json_object_get(json_array_get(json_object_get(json_object_get(
		json_object_get(rec, "check"), "inventory"), "nics"), 0), "ports"),
		json_pack("{s:i, s:{s:i}, s:i}", "port", 1, "counters", "port_rcv_data", 7,
			  "active_mtu", 4096));
	assert_int_equal(store_open(":memory:", STORE_WRITE, &s), 0);
	put(s, rec, false);
	assert_int_equal(store_latest(s, NULL, &whole), 0);
	assert_int_equal(store_latest(s, fleet_skim_bulk, &slim), 0);
	port = json_array_get(json_object_get(json_array_get(json_object_get(json_object_get(
		json_object_get(json_array_get(slim, 0), "check"), "inventory"), "nics"), 0),
		"ports"), 0);
	assert_null(json_object_get(port, "counters"));
	assert_int_equal(json_integer_value(json_object_get(port, "active_mtu")), 4096);
	/* put back, the slim record is the whole one */
	json_object_set_new(port, "counters", json_pack("{s:i}", "port_rcv_data", 7));
	assert_true(json_equal(whole, slim));
	json_decref(whole);
	json_decref(slim);
	/* fleet show: the history without the bulk, the latest whole */
	assert_int_equal(store_history(s, "a", fleet_skim_drop, &slim), 0);
	assert_int_equal(json_array_size(slim), 1);
	port = json_array_get(json_object_get(json_array_get(json_object_get(json_object_get(
		json_object_get(json_array_get(slim, 0), "check"), "inventory"), "nics"), 0),
		"ports"), 0);
	assert_null(json_object_get(port, "counters"));
	assert_int_equal(json_integer_value(json_object_get(port, "active_mtu")), 4096);
	json_decref(slim);
	assert_int_equal(store_record(s, "a", "2026-11-01T00:00:00Z", &whole), 0);
	assert_int_equal(json_array_size(whole), 1);
	port = json_array_get(json_object_get(json_array_get(json_object_get(json_object_get(
		json_object_get(json_array_get(whole, 0), "check"), "inventory"), "nics"), 0),
		"ports"), 0);
	assert_non_null(json_object_get(port, "counters"));
	json_decref(whole);
	assert_int_equal(store_record(s, "a", "2026-11-02T00:00:00Z", &whole), 0);
	assert_int_equal(json_array_size(whole), 0);
	json_decref(whole);
	store_close(&s);
}

static void rollback(void **state)
{
	struct store *s;
	json_t *hosts;

	(void)state;
	assert_int_equal(store_open(":memory:", STORE_WRITE, &s), 0);
	assert_int_equal(store_begin(s), 0);
	put(s, record("a", "2026-11-01T00:00:00Z", "1", "pass", 0), false);
	store_rollback(s);
	assert_int_equal(store_hosts(s, NULL, &hosts), 0);
	assert_int_equal(json_array_size(hosts), 0);
	json_decref(hosts);
	store_close(&s);
}

static char *temp_path(const char *name)
{
	char *dir = strdup("/tmp/rd-store-XXXXXX"), *p;

	assert_non_null(mkdtemp(dir));
	assert_true(asprintf(&p, "%s/%s", dir, name) > 0);
	free(dir);
	return p;
}

static void remove_db(char *path)
{
	char *x;

	unlink(path);
	assert_true(asprintf(&x, "%s-wal", path) > 0);
	unlink(x);
	free(x);
	assert_true(asprintf(&x, "%s-shm", path) > 0);
	unlink(x);
	free(x);
	x = strrchr(path, '/');
	*x = '\0';
	rmdir(path);
	free(path);
}

static void sql(const char *path, const char *text)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	if (sqlite3_exec(db, text, NULL, NULL, NULL) != SQLITE_OK)
		fail_msg("%s: %s", text, sqlite3_errmsg(db));
	sqlite3_close(db);
}

static void upgrade_from_1(void **state)
{
	char *path = temp_path("v1.db"), *doc, *text;
	json_t *rec = record("old", "2025-01-01T00:00:00Z", "1", "warn", 3), *hosts, *facts;
	struct store *s;

	(void)state;
	sql(path, "CREATE TABLE schema_version(version INTEGER NOT NULL);"
		  "INSERT INTO schema_version VALUES(1);"
		  "CREATE TABLE records(id INTEGER PRIMARY KEY, host TEXT NOT NULL,"
		  " time TEXT NOT NULL, doc TEXT NOT NULL, UNIQUE(host, time));");
	doc = json_dumps(rec, JSON_COMPACT);
	text = sqlite3_mprintf("INSERT INTO records(host, time, doc) VALUES ('old', "
			       "'2025-01-01T00:00:00Z', %Q)", doc);
	sql(path, text);
	sqlite3_free(text);
	free(doc);
	assert_int_equal(store_open(path, STORE_READ, &s), 0);
	assert_int_equal(store_found_version(s), 1);
	assert_int_equal(store_hosts(s, NULL, &hosts), 0);
	assert_string_equal(json_string_value(json_object_get(json_array_get(hosts, 0), "verdict")),
			    "warn");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(hosts, 0), "findings")), 3);
	json_decref(hosts);
	assert_int_equal(store_latest_facts(s, &facts), 0);
	assert_int_equal(json_array_size(json_object_get(json_array_get(facts, 0), "facts")), 1);
	json_decref(facts);
	store_close(&s);
	/* opened again: already the current version, nothing to do */
	assert_int_equal(store_open(path, STORE_READ, &s), 0);
	assert_int_equal(store_found_version(s), STORE_SCHEMA_VERSION);
	store_close(&s);
	json_decref(rec);
	remove_db(path);
}

/* A version 1 file with a row that is JSON but no record: the upgrade
 * says so (and changes nothing), it does not claim to be out of memory. */
static void upgrade_refuses_non_record(void **state)
{
	char *path = temp_path("v1bad.db");
	struct store *s;
	sqlite3 *db;
	sqlite3_stmt *st;

	(void)state;
	sql(path, "CREATE TABLE schema_version(version INTEGER NOT NULL);"
		  "INSERT INTO schema_version VALUES(1);"
		  "CREATE TABLE records(id INTEGER PRIMARY KEY, host TEXT NOT NULL,"
		  " time TEXT NOT NULL, doc TEXT NOT NULL, UNIQUE(host, time));"
		  "INSERT INTO records(host, time, doc) VALUES ('h', '2025-01-01T00:00:00Z',"
		  " '{\"note\": \"not a record\"}')");
	assert_int_equal(store_open(path, STORE_WRITE, &s), -EBADMSG);
	assert_non_null(strstr(store_error(s), "record 1 is not"));
	store_close(&s);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT version FROM schema_version", -1, &st,
					    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 1);
	sqlite3_finalize(st);
	sqlite3_close(db);
	remove_db(path);
}

static void refusals(void **state)
{
	char *path = temp_path("x.db");
	struct store *s;
	FILE *f;

	(void)state;
	/* missing, for reading */
	assert_int_equal(store_open(path, STORE_READ, &s), -ENOENT);
	assert_non_null(strstr(store_error(s), "no fleet database"));
	store_close(&s);
	/* newer */
	assert_int_equal(store_open(path, STORE_WRITE, &s), 0);
	store_close(&s);
	sql(path, "UPDATE schema_version SET version = 7");
	assert_int_equal(store_open(path, STORE_READ, &s), -EPROTO);
	assert_non_null(strstr(store_error(s), "newer rdmadoctor"));
	store_close(&s);
	remove_db(path);
	/* someone else's database */
	path = temp_path("y.db");
	sql(path, "CREATE TABLE t(x)");
	assert_int_equal(store_open(path, STORE_WRITE, &s), -EBADMSG);
	assert_non_null(strstr(store_error(s), "not an rdmadoctor fleet database"));
	store_close(&s);
	remove_db(path);
	/* not SQLite at all */
	path = temp_path("z.db");
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"this is\": \"json\"}\n", f);
	fclose(f);
	assert_int_equal(store_open(path, STORE_READ, &s), -EBADMSG);
	assert_non_null(strstr(store_error(s), "damaged"));
	store_close(&s);
	remove_db(path);
}

/* Another process, newer, upgrades the file while we wait for the write
 * lock to upgrade it ourselves: what we read again under the lock is a
 * schema we do not know, and it is refused, not written into. */
static void newer_upgrade_meanwhile(void **state)
{
	char *path = temp_path("race.db");
	struct store *s;
	int ready[2];
	char c;
	pid_t pid;

	(void)state;
	sql(path, "CREATE TABLE schema_version(version INTEGER NOT NULL);"
		  "INSERT INTO schema_version VALUES(1);"
		  "CREATE TABLE records(id INTEGER PRIMARY KEY, host TEXT NOT NULL,"
		  " time TEXT NOT NULL, doc TEXT NOT NULL, UNIQUE(host, time));");
	assert_int_equal(pipe(ready), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		sqlite3 *db;

		if (sqlite3_open(path, &db) != SQLITE_OK ||
		    sqlite3_exec(db, "BEGIN IMMEDIATE; UPDATE schema_version SET version = 9",
				 NULL, NULL, NULL) != SQLITE_OK)
			_exit(1);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		usleep(500 * 1000);
		_exit(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : 1);
	}
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	assert_int_equal(store_open(path, STORE_WRITE, &s), -EPROTO);
	assert_non_null(strstr(store_error(s), "newer rdmadoctor"));
	store_close(&s);
	{
		int status;

		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	remove_db(path);
}

/* The fingerprint is SHA-256 as FIPS 180-4 gives it: lengths around the
 * padding's edges (55, 56, 64 bytes) and one of several blocks. */
static void sha256_vectors(void **state)
{
	static const struct {
		size_t n;
		char c;	/* n times this byte ("abc" for 3) */
		const char *hex;
	} v[] = {
		{ 0, 'a', "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ 3, 'a', "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ 55, 'a', "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
		{ 56, 'a', "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
		{ 64, 'a', "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
		{ 119, 'b', "68297a9eb141ce16bbc0847da1c0c48e2858704feaa13993bde29f87a198a6e1" },
		{ 1000, 'a', "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3" },
	};
	char buf[1000], out[SHA256_HEX_LEN + 1];

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (v[i].n == 3)
			memcpy(buf, "abc", 3);
		else
			memset(buf, v[i].c, v[i].n);
		sha256_hex(buf, v[i].n, out);
		assert_string_equal(out, v[i].hex);
	}
}

/* The fast path (where the CPU has one) gives the plain C digest for
 * every length around the block and padding edges, and at any offset. */
static void sha256_paths_agree(void **state)
{
	static unsigned char buf[1200];
	char fast[SHA256_HEX_LEN + 1], plain[SHA256_HEX_LEN + 1];
	uint32_t x = 2463534242u;

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[i] = (unsigned char)x;
	}
	for (size_t n = 0; n <= 1000; n++) {
		size_t off = n % 7;

		sha256_hex(buf + off, n, fast);
		sha256_hex_c(buf + off, n, plain);
		assert_string_equal(fast, plain);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(roundtrip),
		cmocka_unit_test(latest_without_bulk),
		cmocka_unit_test(rollback),
		cmocka_unit_test(unchanged_checks),
		cmocka_unit_test(host_filters),
		cmocka_unit_test(upgrade_from_1),
		cmocka_unit_test(upgrade_refuses_non_record),
		cmocka_unit_test(refusals),
		cmocka_unit_test(newer_upgrade_meanwhile),
		cmocka_unit_test(sha256_vectors),
		cmocka_unit_test(sha256_paths_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
