/* Fabric reports: checked before they are kept, and who they suspect. */
#include "fabric.h"

#include <stdio.h>
#include <string.h>

/* Say why (into why) and return -1. */
#define PROBLEM(why, len, ...) (snprintf((why), (len), __VA_ARGS__), -1)

static bool is_str(const json_t *o, const char *k)
{
	return json_is_string(json_object_get(o, k));
}

int fleet_fabric_problem(const json_t *doc, char *why, size_t len)
{
	const char *test = json_string_value(json_object_get(doc, "test"));
	const json_t *e, *g;
	size_t i;

	if (!json_is_object(doc))
		return PROBLEM(why, len, "not a JSON object");
	if (!test || strcmp(test, "fabric") != 0)
		return PROBLEM(why, len, "not a fabric report: it needs \"test\": \"fabric\" (make "
			       "one with `rdmadoctor fabric --json`)");
	if (json_integer_value(json_object_get(doc, "schema")) != 1)
		return PROBLEM(why, len, "the fabric report is not schema 1 (a newer rdmadoctor "
			       "made it? upgrade this one)");
	if (!json_is_array(json_object_get(doc, "nodes")) ||
	    !json_is_array(json_object_get(doc, "pairs")) ||
	    !json_is_array(json_object_get(doc, "suspects")) || !is_str(doc, "verdict"))
		return PROBLEM(why, len, "the fabric report needs \"nodes\", \"pairs\", "
			       "\"suspects\" lists and a \"verdict\"");
	json_array_foreach(json_object_get(doc, "nodes"), i, e)
		if (!is_str(e, "name") || !json_string_value(json_object_get(e, "name"))[0])
			return PROBLEM(why, len, "node %zu of the fabric report has no usable "
				       "\"name\"", i);
	json_array_foreach(json_object_get(doc, "pairs"), i, e) {
		g = json_object_get(e, "gbps");
		if (!is_str(e, "a") || !is_str(e, "b") || !json_object_get(e, "rail") ||
		    !json_is_object(g))
			return PROBLEM(why, len, "pair %zu of the fabric report needs \"a\", \"b\", "
				       "\"rail\" and \"gbps\"", i);
	}
	json_array_foreach(json_object_get(doc, "suspects"), i, e) {
		const char *kind = json_string_value(json_object_get(e, "kind"));

		if (!kind || (strcmp(kind, "node") && strcmp(kind, "rail") && strcmp(kind, "pair")) ||
		    !is_str(e, "subject"))
			return PROBLEM(why, len, "suspect %zu of the fabric report needs a \"kind\" "
				       "(node, rail or pair) and a \"subject\"", i);
	}
	return 0;
}

bool fleet_fabric_names(const json_t *doc, const char *host)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(doc, "nodes"), i, e) {
		const char *n = json_string_value(json_object_get(e, "name"));

		if (n && strcmp(n, host) == 0)
			return true;
	}
	return false;
}

static int add_suspect(json_t *out, const char *host, const json_t *s)
{
	json_t *e = json_pack("{s:s, s:O, s:O, s:O?}", "host", host, "kind",
			      json_object_get(s, "kind"), "subject", json_object_get(s, "subject"),
			      "reason", json_object_get(s, "reason"));

	if (e && json_object_get(s, "rail") &&
	    json_object_set(e, "rail", json_object_get(s, "rail")) < 0) {
		json_decref(e);
		e = NULL;
	}
	return json_array_append_new(out, e);
}

/* A pair's subject "A-B" split where A and B are both nodes (names hold
 * dashes themselves). */
static int add_pair(json_t *out, const json_t *doc, const json_t *s)
{
	const char *subject = json_string_value(json_object_get(s, "subject"));
	size_t n = strlen(subject), i;
	const json_t *e;

	json_array_foreach(json_object_get(doc, "nodes"), i, e) {
		const char *a = json_string_value(json_object_get(e, "name"));
		size_t la = a ? strlen(a) : 0;

		if (a && la + 1 < n && strncmp(subject, a, la) == 0 && subject[la] == '-' &&
		    fleet_fabric_names(doc, subject + la + 1))
			return add_suspect(out, a, s) < 0 ? -1 : add_suspect(out, subject + la + 1, s);
	}
	return add_suspect(out, subject, s);	/* not two nodes: named as it is */
}

json_t *fleet_fabric_summary(const json_t *doc, const char *time)
{
	json_t *list = json_array(), *s;
	size_t i;

	if (!list)
		return NULL;
	json_array_foreach(json_object_get(doc, "suspects"), i, s) {
		const char *kind = json_string_value(json_object_get(s, "kind"));
		int rc = kind && strcmp(kind, "pair") == 0 ? add_pair(list, doc, s)
			 : add_suspect(list, json_string_value(json_object_get(s, "subject")), s);

		if (rc < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return json_pack("{s:s, s:O?, s:O?, s:o}", "time", time, "verdict",
			 json_object_get(doc, "verdict"), "reason", json_object_get(doc, "reason"),
			 "suspects", list);
}
