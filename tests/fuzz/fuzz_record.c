/* libFuzzer target: a document given to `record --from` from start to
 * store: the skim, the record checks (src/fleet/record.c), the drift
 * facts, a diff and a history over it.  Nothing may crash, a document
 * that is accepted has a host, a valid time and a check, and the slim
 * copy gives the same facts, findings and history as the whole text (no
 * member the fleet reads is in fleet_skim_drop).  Its fabric reports, its
 * machine and its counters (the series of an unchanged check) are read as
 * the store reads them.  Seeds in corpus/record/. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fleet/counters.h"
#include "fleet/diff.h"
#include "fleet/fabric.h"
#include "fleet/facts.h"
#include "fleet/history.h"
#include "fleet/record.h"
#include "fleet/skim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The slim and the whole record agree on all the fleet reads. */
static void same_as_whole(const json_t *rec, const uint8_t *data, size_t size)
{
	char why[512];
	json_t *whole = json_loadb((const char *)data, size, 0, NULL), *wrec, *a, *b, *ca, *cb;
	json_t *a2, *b2;

	if (!whole)
		abort();
	wrec = fleet_record_from_doc(whole, "2026-11-30T07:00:00Z", why, sizeof(why));
	if (!wrec)
		abort();	/* the slim one passed the same checks */
	a = fleet_facts(rec);
	b = fleet_facts(wrec);
	ca = json_array();
	cb = json_array();
	if (!json_equal(a, b) ||
	    json_array_size(json_object_get(json_object_get(rec, "check"), "findings")) !=
	    json_array_size(json_object_get(json_object_get(wrec, "check"), "findings")) ||
	    !json_equal(json_object_get(rec, "profile"), json_object_get(wrec, "profile")) ||
	    !json_equal(json_object_get(rec, "verdict"), json_object_get(wrec, "verdict")) ||
	    ((json_object_get(rec, "fabric") || json_object_get(wrec, "fabric")) &&
	     !json_equal(json_object_get(rec, "fabric"), json_object_get(wrec, "fabric"))))
		abort();
	a2 = fleet_machine(rec);
	b2 = fleet_machine(wrec);
	if (!a2 || !json_equal(a2, b2))
		abort();
	json_decref(a2);
	json_decref(b2);
	/* nothing history compares differs between the two, either way */
	if (fleet_changes(rec, wrec, ca) < 0 || fleet_changes(wrec, rec, cb) < 0 ||
	    json_array_size(ca) || json_array_size(cb))
		abort();
	json_decref(ca);
	json_decref(cb);
	json_decref(a);
	json_decref(b);
	json_decref(wrec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *slim, why[512];
	size_t len;
	json_t *doc, *rec, *facts, *recs, *diff, *changes;

	if (fleet_skim((const char *)data, size, fleet_skim_drop, &slim, &len, why,
		       sizeof(why)) < 0)
		return 0;
	doc = json_loadb(slim, len, 0, NULL);
	free(slim);
	if (!doc)
		abort();	/* the skim said it was JSON */
	rec = fleet_record_from_doc(doc, "2026-11-30T07:00:00Z", why, sizeof(why));
	if (!rec)
		return 0;
	same_as_whole(rec, data, size);
	if (!fleet_time_valid(json_string_value(json_object_get(rec, "time"))) ||
	    !json_string_value(json_object_get(rec, "host")) ||
	    !json_is_object(json_object_get(rec, "check")) ||
	    !json_is_array(json_object_get(rec, "bw")))
		abort();
	facts = fleet_facts(rec);
	recs = json_pack("[O, O]", rec, rec);
	diff = fleet_diff_records(recs);
	changes = json_array();
	/* a host against itself: the same facts, no outliers, no changes */
	if (!facts || !diff || fleet_diff_outliers(diff) != 0 ||
	    fleet_changes(rec, rec, changes) < 0 || json_array_size(changes) != 0)
		abort();
	/* who its fabric reports suspect: an entry per host named */
	{
		json_t *f;
		size_t i;

		json_array_foreach(json_object_get(rec, "fabric"), i, f) {
			json_t *sum = fleet_fabric_summary(f, "2026-11-30T07:00:00Z");

			if (!sum || json_array_size(json_object_get(sum, "suspects")) <
				    json_array_size(json_object_get(f, "suspects")))
				abort();
			json_decref(sum);
		}
	}
	/* the whole document's counters: kept as what differs and laid over
	 * again, they are what they were; against themselves, no delta */
	{
		json_t *whole = json_loadb((const char *)data, size, 0, NULL);
		json_t *check = json_object_get(whole, "check") ? json_object_get(whole, "check") : whole;
		json_t *c = fleet_counters(check), *none = json_object();
		json_t *changed = c ? fleet_counters_changed(none, c) : NULL;
		json_t *back = changed ? fleet_counters_overlay(none, changed) : NULL;
		json_t *d = c ? fleet_counter_deltas(c, c) : NULL;

		if (!c || !back || !d || json_object_size(d) || !json_equal(back, c))
			abort();
		json_decref(whole);
		json_decref(c);
		json_decref(none);
		json_decref(changed);
		json_decref(back);
		json_decref(d);
	}
	json_decref(changes);
	json_decref(diff);
	json_decref(recs);
	json_decref(facts);
	json_decref(rec);
	return 0;
}
