/* Records: built here from a check run, or accepted here from a file. */
#include "record.h"
#include "fabric.h"
#include "../model/growbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool fleet_time_valid(const char *t)
{
	static const char form[] = "dddd-dd-ddTdd:dd:ddZ";
	int mon, day, hh, mm, ss;

	if (!t || strlen(t) != sizeof(form) - 1)
		return false;
	for (size_t i = 0; form[i]; i++) {
		if (form[i] == 'd' ? (t[i] < '0' || t[i] > '9') : t[i] != form[i])
			return false;
	}
	if (sscanf(t + 5, "%2d-%2dT%2d:%2d:%2d", &mon, &day, &hh, &mm, &ss) != 5)
		return false;
	return mon >= 1 && mon <= 12 && day >= 1 && day <= 31 && hh < 24 && mm < 60 &&
	       ss <= 60;
}

bool fleet_time_format(time_t t, char buf[FLEET_TIME_LEN])
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) || tm.tm_year + 1900 > 9999 || tm.tm_year + 1900 < 0)
		return false;
	return strftime(buf, FLEET_TIME_LEN, "%Y-%m-%dT%H:%M:%SZ", &tm) == FLEET_TIME_LEN - 1;
}

static int problem(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int problem(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

bool fleet_host_valid(const char *h)
{
	size_t n = h ? strlen(h) : 0;

	if (n == 0 || n > 255)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)h[i] < 0x20 || h[i] == 0x7f)
			return false;
	return true;
}

static int schema_problem(const json_t *doc, const char *what, char *why, size_t len)
{
	const json_t *schema = json_object_get(doc, "schema");

	if (!json_is_integer(schema))
		return problem(why, len, "%s has no \"schema\" number", what);
	if (json_integer_value(schema) != 1)
		return problem(why, len, "%s has schema %lld; this rdmadoctor reads schema 1 "
			       "(a newer rdmadoctor made it? upgrade this one)", what,
			       (long long)json_integer_value(schema));
	return 0;
}

int fleet_check_problem(const json_t *doc, char *why, size_t len)
{
	const json_t *inv = json_object_get(doc, "inventory");
	const json_t *host = json_object_get(inv, "host"), *f, *profile;
	size_t i;

	if (!json_is_object(doc))
		return problem(why, len, "not a JSON object");
	if (json_object_get(doc, "test"))
		return problem(why, len, "a `bw --json` document, not a check document "
			       "(give it to record with --bw FILE)");
	if ((json_is_object(inv) && !json_object_get(doc, "findings")) ||
	    (!inv && json_object_get(doc, "nics") && json_object_get(doc, "host")))
		return problem(why, len, "an inventory document, not a check document "
			       "(run `rdmadoctor check --json` to make one)");
	if (!json_is_object(inv) || !json_is_array(json_object_get(doc, "findings")))
		return problem(why, len, "not a check document: it needs \"inventory\" and "
			       "\"findings\" (make one with `rdmadoctor check --json`)");
	if (schema_problem(doc, "the check document", why, len) < 0)
		return -1;
	if (!json_is_string(json_object_get(doc, "verdict")))
		return problem(why, len, "the check document has no \"verdict\" string");
	profile = json_object_get(doc, "profile");
	if (!json_is_string(profile) && !json_is_null(profile))
		return problem(why, len, "the check document's \"profile\" is not a string");
	json_array_foreach(json_object_get(doc, "findings"), i, f)
		if (!json_is_object(f) || !json_is_string(json_object_get(f, "id")))
			return problem(why, len, "finding %zu is not an object with an \"id\"", i);
	if (!fleet_host_valid(json_string_value(json_object_get(host, "hostname"))))
		return problem(why, len, "no usable host name at inventory.host.hostname "
			       "(1 to 255 characters, no control characters)");
	if (!json_is_array(json_object_get(inv, "nics")))
		return problem(why, len, "the inventory has no \"nics\" list");
	return 0;
}

int fleet_bw_problem(const json_t *doc, char *why, size_t len)
{
	const char *test = json_string_value(json_object_get(doc, "test"));

	if (!json_is_object(doc))
		return problem(why, len, "not a JSON object");
	if (!test || strcmp(test, "bw") != 0)
		return problem(why, len, "not a bw document: it needs \"test\": \"bw\" "
			       "(make one with `rdmadoctor bw --json`)");
	if (schema_problem(doc, "the bw document", why, len) < 0)
		return -1;
	if (!json_is_array(json_object_get(doc, "results")))
		return problem(why, len, "the bw document has no \"results\" list");
	return 0;
}

int fleet_bw_host_problem(const json_t *doc, const char *host, char *why, size_t len)
{
	const char *local = json_string_value(json_object_get(json_object_get(doc, "local"), "host"));

	if (!local)
		return problem(why, len, "it names no host (\"local\": {\"host\"}): it cannot "
			       "be told whose it is");
	if (strcmp(local, host) != 0)
		return problem(why, len, "it was measured on host '%s', not on '%s'", local, host);
	return 0;
}

json_t *fleet_record_new(json_t *check, const char *time, json_t *bw)
{
	const char *host = json_string_value(json_object_get(
		json_object_get(json_object_get(check, "inventory"), "host"), "hostname"));
	json_t *profile = json_object_get(check, "profile");
	json_t *verdict = json_object_get(check, "verdict");

	if (!bw)
		bw = json_array();
	return json_pack("{s:i, s:s, s:s, s:O, s:O, s:o, s:o}", "schema", FLEET_RECORD_SCHEMA,
			 "host", host ? host : "", "time", time,
			 "profile", profile ? profile : json_null(),
			 "verdict", verdict ? verdict : json_null(), "check", check, "bw", bw);
}

json_t *fleet_record_with(json_t *check, const char *time, json_t *bw, json_t *fabric,
			  const char *host)
{
	json_t *rec = fleet_record_new(check, time, bw);

	if (rec && json_array_size(fabric) && json_object_set(rec, "fabric", fabric) < 0) {
		json_decref(rec);
		rec = NULL;
	}
	if (rec && host && json_object_set_new(rec, "host", json_string(host)) < 0) {
		json_decref(rec);
		rec = NULL;
	}
	return rec;
}

static json_t *record_checked(json_t *doc, char *why, size_t len)
{
	const json_t *check = json_object_get(doc, "check"), *b;
	const char *host = json_string_value(json_object_get(doc, "host"));
	const char *time = json_string_value(json_object_get(doc, "time"));
	json_t *bw = json_object_get(doc, "bw");
	char inner[200];
	size_t i;

	if (schema_problem(doc, "the record", why, len) < 0)
		goto bad;
	if (!fleet_host_valid(host)) {
		problem(why, len, "the record has no usable \"host\"");
		goto bad;
	}
	if (!fleet_time_valid(time)) {
		problem(why, len, "the record's \"time\" is not a UTC time like "
			"2026-11-30T07:00:00Z");
		goto bad;
	}
	if (fleet_check_problem(check, inner, sizeof(inner)) < 0) {
		problem(why, len, "its \"check\": %s", inner);
		goto bad;
	}
	if (bw && !json_is_array(bw)) {
		problem(why, len, "the record's \"bw\" is not a list");
		goto bad;
	}
	json_array_foreach(bw, i, b) {
		if (fleet_bw_problem(b, inner, sizeof(inner)) < 0 ||
		    fleet_bw_host_problem(b, host, inner, sizeof(inner)) < 0) {
			problem(why, len, "its bw document %zu: %s", i, inner);
			goto bad;
		}
	}
	json_array_foreach(json_object_get(doc, "fabric"), i, b) {
		if (fleet_fabric_problem(b, inner, sizeof(inner)) < 0 ||
		    (!fleet_fabric_names(b, host) &&
		     problem(inner, sizeof(inner), "it does not name host '%s' among its nodes",
			     host) < 0)) {
			problem(why, len, "its fabric report %zu: %s", i, inner);
			goto bad;
		}
	}
	if (json_object_get(doc, "fabric") && !json_is_array(json_object_get(doc, "fabric"))) {
		problem(why, len, "the record's \"fabric\" is not a list");
		goto bad;
	}
	/* profile and verdict are the check's own: a record cannot disagree */
	if (json_object_set(doc, "profile", json_object_get(check, "profile")) < 0 ||
	    json_object_set(doc, "verdict", json_object_get(check, "verdict")) < 0 ||
	    (!bw && json_object_set_new(doc, "bw", json_array()) < 0)) {
		problem(why, len, "out of memory");
		goto bad;
	}
	return doc;
bad:
	json_decref(doc);
	return NULL;
}

bool fleet_record_is_final(const json_t *doc)
{
	const json_t *check = json_object_get(doc, "check");

	return json_equal(json_object_get(doc, "profile"), json_object_get(check, "profile")) &&
	       json_equal(json_object_get(doc, "verdict"), json_object_get(check, "verdict")) &&
	       json_is_array(json_object_get(doc, "bw"));
}

json_t *fleet_record_from_doc(json_t *doc, const char *time, char *why, size_t len)
{
	json_t *rec;

	if (json_is_object(doc) && json_object_get(doc, "check"))
		return record_checked(doc, why, len);
	if (fleet_check_problem(doc, why, len) < 0) {
		json_decref(doc);
		return NULL;
	}
	rec = fleet_record_new(doc, time, NULL);
	if (!rec)
		problem(why, len, "out of memory");
	return rec;
}

/* Append n bytes to *out (with room for *cap, *used used), keeping it
 * NUL-terminated; false when out of memory. */
static bool append(char **out, size_t *used, size_t *cap, const char *bytes, size_t n)
{
	char *grown = growbuf_reserve(*out, cap, *used + n + 1, 1);

	if (!grown)
		return false;
	*out = grown;
	memcpy(*out + *used, bytes, n);
	*used += n;
	(*out)[*used] = '\0';
	return true;
}

/* The members in the record's own order (fleet_record_new's: the check
 * before bw): one check stored live and from its file must be one text
 * but for white space, else the store takes it for a change
 * (store_row_content).  Each member but the check is small: dumped as a
 * one-member object, braces dropped. */
char *fleet_record_text(const json_t *record, const char *check_text, size_t len)
{
	static const char check_key[] = "\"check\":";
	size_t used = 0, cap = 0;
	char *out = NULL;
	const char *key;
	json_t *v;
	bool ok = append(&out, &used, &cap, "{", 1);

	json_object_foreach((json_t *)record, key, v) {
		json_t *one;
		char *text;

		if (!ok)
			break;
		if (used > 1)
			ok = append(&out, &used, &cap, ",", 1);
		if (ok && strcmp(key, "check") == 0) {
			ok = append(&out, &used, &cap, check_key, sizeof(check_key) - 1) &&
			     append(&out, &used, &cap, check_text, len);
			continue;
		}
		one = ok ? json_pack("{s:O}", key, v) : NULL;
		text = one ? json_dumps(one, JSON_COMPACT) : NULL;
		ok = text && append(&out, &used, &cap, text + 1, strlen(text) - 2);
		free(text);
		json_decref(one);
	}
	if (ok)
		ok = append(&out, &used, &cap, "}", 1);
	if (!ok) {
		free(out);
		return NULL;
	}
	return out;
}
