/* The record: one host run, as stored and as given to consumers (docs/fleet.md
 * contract):
 *   {"schema":1, "host":"dgx-h100-017", "time":"2026-11-30T07:00:00Z",
 *    "profile":"dgx-h100", "verdict":"pass", "check":<check --json>,
 *    "bw":[<bw --json client or server documents>...],
 *    "fabric":[<fabric --json reports naming the host>...] (optional)}
 * Here: building one, and judging documents that come from outside (files
 * collected on other hosts) before anything is stored. */
#ifndef RD_FLEET_RECORD_H
#define RD_FLEET_RECORD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#define FLEET_RECORD_SCHEMA 1
#define FLEET_TIME_LEN 21	/* "2026-11-30T07:00:00Z" and its NUL */

/* Times are UTC, to the second, exactly this form, so that their text
 * order is their time order. */
bool fleet_time_valid(const char *t);
/* t as that form; false when it has no such form (year past 9999). */
bool fleet_time_format(time_t t, char buf[FLEET_TIME_LEN]);

/* Why doc is not a `check --json` document (into why, lower-case, no
 * full stop), or 0 when it is one. */
int fleet_check_problem(const json_t *doc, char *why, size_t len);
/* The same for a `bw --json` document. */
int fleet_bw_problem(const json_t *doc, char *why, size_t len);

/* A host name we can show and group by: 1..255 bytes, no control
 * characters. */
bool fleet_host_valid(const char *h);

/* Why a bw document is not of host (its "local" host is another, or
 * none), or 0 when it is: a record keeps only its own host's results. */
int fleet_bw_host_problem(const json_t *doc, const char *host, char *why, size_t len);

/* A record from a check document (taken: one reference), the time and the
 * bw documents (an array, taken; NULL for none).  NULL when out of memory. */
json_t *fleet_record_new(json_t *check, const char *time, json_t *bw);

/* The same, with the fabric reports (an array; not taken; none when
 * empty) and stored under host when not NULL (else the check's). */
json_t *fleet_record_with(json_t *check, const char *time, json_t *bw, json_t *fabric,
			  const char *host);

/* A record from a document read from outside: a record is checked and
 * kept; a check document is wrapped with the time given.  Takes doc's
 * reference in every case.  NULL with the reason in why when it is
 * neither. */
json_t *fleet_record_from_doc(json_t *doc, const char *time, char *why, size_t len);

/* Would fleet_record_from_doc() keep this record as it is (its profile
 * and verdict are its check's, it has its "bw" list)?  Then its text can
 * be stored as it came. */
bool fleet_record_is_final(const json_t *doc);

/* The record as JSON text, its check document being check_text (len
 * bytes, the very text record's "check" was parsed from) put in as it is:
 * ingesting ten thousand files, writing each document again would cost as
 * much as parsing it.  malloc'd; NULL when out of memory. */
char *fleet_record_text(const json_t *record, const char *check_text, size_t len);

#endif
