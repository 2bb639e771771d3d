/* The fleet records: in SQLite (a file, the embedded default) or in
 * PostgreSQL (a postgresql:// URI: a server every node writes to), with
 * the same tables and the same answers (store/driver.h).
 *
 * Every write is one transaction (a full disk or a crash in the middle
 * loses that batch only, never what was stored before); a record whose
 * transaction committed survives a crash or a power cut.  Documents are kept whole, as JSON text;
 * beside them, columns for what `fleet ls` shows and rows of drift facts
 * per NIC model and link layer, indexed by (profile, nic_model), for `fleet
 * diff`.  A check whose content (all but its counters and times) equals
 * its host's latest record is not kept again: it adds a "seen" row (its
 * time and the deltas of its counters) to that record.  Table hosts keeps
 * each host's latest record, its check count and its last check's
 * counters, kept up to date as records come: `fleet ls` and `fleet diff`
 * read it and the latest records' columns, not every record.
 *
 * The schema has a version (table schema_version) and upgrades itself on
 * open, inside one transaction (store/schema.c lists the steps).
 *
 * Every function returns 0 or a negative errno (-ENOENT no database,
 * -EACCES not writable or refused, -ENOSPC disk full, -EBADMSG not our
 * database or damaged, -EBUSY locked too long, -ETIMEDOUT no answer in
 * time, -ECONNREFUSED no server, -EINVAL a bad URI, -EPROTO made by a
 * newer rdmadoctor, -ENOMEM, -EIO) and leaves a complete message for people in
 * store_error(): what failed, on which file, what to do. */
#ifndef RD_STORE_STORE_H
#define RD_STORE_STORE_H

#include <jansson.h>
#include <stdbool.h>

#define STORE_SCHEMA_VERSION 4

struct store;

enum store_mode {
	STORE_READ,	/* the database must exist; upgraded if it can be written */
	STORE_WRITE,	/* created when missing (not its directory) */
};

/* How long a store is waited for by default (another writer's lock, a
 * server that does not answer). */
#define STORE_WAIT_MS 30000

/* On failure *out is still set when a message is to be read from it;
 * close it in every case.  target: a file (":memory:" is a private
 * database) or a PostgreSQL URI (store_is_uri); the password of a URI
 * comes from PGPASSFILE or ~/.pgpass only: a URI with one is refused.
 * timeout_ms: how long to wait for the store at most, for each thing
 * asked of it (then -ETIMEDOUT or -EBUSY, said). */
int store_open_wait(const char *target, enum store_mode mode, int timeout_ms, struct store **out);
int store_open(const char *target, enum store_mode mode, struct store **out);
bool store_is_uri(const char *target);
void store_close(struct store **s);
const char *store_error(const struct store *s);

/* The schema version found in the file before any upgrade (0: new). */
int store_found_version(const struct store *s);

/* Batches: store_put calls between begin and commit are one transaction. */
int store_begin(struct store *s);
int store_commit(struct store *s);
void store_rollback(struct store *s);	/* any store, even one not opened */

/* A record made ready to store: all the store keeps of it, without the
 * parsed document, so that a batch can be prepared first and written in
 * one short transaction (a second writer waits for the writing only, not
 * for the parsing). */
struct store_row {
	char *host, *time, *profile, *verdict;	/* profile, verdict: NULL if none */
	char *dmi_product, *gpus;		/* fleet_machine(); dmi NULL if none */
	char *fabric;		/* fleet_fabric_summary() of its fabric report, or NULL */
	long long findings;
	char *text;		/* the record's JSON text */
	json_t *facts;		/* fleet_facts() */
	char *counters;		/* fleet_counters() of its check, JSON text */
	char content[65];	/* store_row_content() */
};

/* From a record (checked by the caller; its counters there, the rest
 * may be a slim copy: fleet_skim_ingest) and its JSON text (taken; NULL
 * to have it written here).  0 or -ENOMEM (text is freed then too). */
int store_row_make(const json_t *record, char *text, struct store_row *row);
void store_row_free(struct store_row *row);
/* The content fingerprint of a record's text: the SHA-256 of the text
 * without the keys of fleet_skim_volatile and without white space between
 * tokens, hex.  Two checks of a host with the same one are the same but
 * for counters and times; texts that order one content's keys two ways
 * differ, so at worst an unchanged check is kept as a record of its own
 * (this tool writes its keys in one order).  0, -ENOMEM, or
 * -EBADMSG when it is not JSON. */
int store_row_content(const char *text, char out[65]);
/* What storing one did. */
enum store_put {
	STORE_NEW,	/* a record of its own */
	STORE_SEEN,	/* the same as the host's latest: a seen time and deltas */
	STORE_ALREADY,	/* the host has a check at that time already: kept once */
};

/* Store one (see store_put). */
int store_put_row(struct store *s, const struct store_row *row, enum store_put *what);

/* Store a record (fleet/record.h; checked by the caller).  text: the
 * record's own JSON text when the caller has it (fleet_record_text()), NULL
 * to have it written here.  Ingesting a file twice stores it once
 * (STORE_ALREADY); a check later than the host's latest record and equal
 * to it but for counters and times is STORE_SEEN. */
int store_put(struct store *s, const json_t *record, const char *text, enum store_put *what);

/* Which hosts store_hosts lists; a NULL member does not filter. */
struct store_filter {
	const char *profile, *verdict;
	const char *since;	/* latest check at or after this time */
	const char *nic_model;	/* has NICs of this model (a drift group) */
};

/* Per host, its latest record: [{"host", "time" (its latest check),
 * "profile", "verdict", "findings" (count), "records" (how many checks)}],
 * by host name.  filter: NULL for every host. */
int store_hosts(struct store *s, const struct store_filter *filter, json_t **out);
/* The records of one host, oldest first ([] for an unknown host), each
 * with "last_seen" (its latest check) and "checks" (how many checks it
 * stands for) added; drop as for store_latest (fleet_skim_drop keeps all
 * that fleet_changes() reads). */
int store_history(struct store *s, const char *host, const char *const *drop, json_t **out);
/* The counter deltas of one host's unchanged checks, oldest first:
 * [{"time", "record": <the record's time>, "deltas": {subject: {name: d}}}]. */
int store_counters(struct store *s, const char *host, json_t **out);
/* Remove a host's records (before: only those whose latest check is
 * before that time, and the seen times before it); *removed counts the
 * checks removed. */
int store_rm(struct store *s, const char *host, const char *before, long long *removed);
/* The record of host at time, whole: [record], or [] when none. */
int store_record(struct store *s, const char *host, const char *time, json_t **out);
/* The latest record of every host, by host name; drop: NULL for the
 * records whole, or keys whose members are left out (fleet/skim.h):
 * ten thousand whole records are gigabytes of jansson trees. */
int store_latest(struct store *s, const char *const *drop, json_t **out);
/* The suspects of the newest fabric report kept (fleet_fabric_summary()),
 * or JSON null when no record has one. */
int store_latest_fabric(struct store *s, json_t **out);
/* What fleet_diff() reads: [{"host", "profile", "dmi_product", "gpus",
 * "previous_profile"? , "facts"}] of the latest record of every host,
 * without parsing the documents. */
int store_latest_facts(struct store *s, json_t **out);

#endif
