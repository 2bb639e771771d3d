/* record's summary (record_out.h). */
#include "record_out.h"
#include "json.h"
#include "plural.h"
#include "text_printf.h"

size_t record_n_findings(const json_t *rec)
{
	return json_array_size(json_object_get(json_object_get(rec, "check"), "findings"));
}

json_t *record_summary_json(const char *db, const struct store_tally *t, json_t *failed,
			    const json_t *one)
{
	json_t *doc = json_pack("{s:i, s:o, s:I, s:I, s:I, s:O}", "schema", 1,
				"db", json_string_or_null(db),
				"stored", (json_int_t)t->stored, "seen", (json_int_t)t->seen,
				"already", (json_int_t)t->already, "failed", failed);

	if (doc && one) {
		json_object_set(doc, "host", json_object_get(one, "host"));
		json_object_set(doc, "time", json_object_get(one, "time"));
		json_object_set(doc, "verdict", json_object_get(one, "verdict"));
	}
	return doc;
}

void text_record_summary(FILE *out, const char *db, const struct store_tally *t,
			 const json_t *failed, const json_t *one)
{
	if (one)
		text_printf(out, "%s %s at %s in '%s'%s: verdict %s, %zu %s\n",
		            t->stored ? "stored" : t->seen ? "seen" : "already had",
		            json_string_value(json_object_get(one, "host")),
		            json_string_value(json_object_get(one, "time")), db,
		            t->seen ? " (unchanged since its last record)" : "",
		            json_string_value(json_object_get(one, "verdict")),
		            record_n_findings(one), plural(record_n_findings(one), "finding", "findings"));
	else
		fprintf(out, "stored %zu %s in '%s' (and %zu unchanged %s as seen times); "
			"%zu already there, %zu %s failed\n", t->stored,
			plural(t->stored, "record", "records"), db, t->seen,
			plural(t->seen, "check", "checks"), t->already,
			json_array_size(failed),
			plural(json_array_size(failed), "file", "files"));
}

json_t *record_not_stored_json(const char *db, const json_t *rec, const char *why)
{
	return json_pack("{s:i, s:o, s:i, s:i, s:i, s:[], s:O?, s:O?, s:O?, s:s?, s:O?}",
			 "schema", 1, "db", json_string_or_null(db), "stored", 0, "seen", 0,
			 "already", 0, "failed", "host", json_object_get(rec, "host"),
			 "time", json_object_get(rec, "time"),
			 "verdict", json_object_get(rec, "verdict"), "error", why,
			 "check", json_object_get(rec, "check"));
}

void text_record_not_stored(FILE *out, const char *db, const json_t *rec)
{
	text_printf(out, "%s: verdict %s, %zu %s (not stored in '%s')\n",
		    json_string_value(json_object_get(rec, "host")),
		    json_string_value(json_object_get(rec, "verdict")), record_n_findings(rec),
		    plural(record_n_findings(rec), "finding", "findings"), db);
}
