/* One host's history as a list of changes. */
#include "history.h"
#include "fields.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* jansson counts references even on values we only read: hence the cast */
static json_t *null_if_absent(const json_t *v)
{
	return v ? (json_t *)v : json_null();
}

static int add(json_t *changes, const char *time, const char *subject, const char *field,
	       const json_t *old, const json_t *new)
{
	json_t *c = json_pack("{s:s, s:s, s:s, s:O, s:O}", "time", time, "subject", subject,
			      "field", field, "old", null_if_absent(old),
			      "new", null_if_absent(new));

	return json_array_append_new(changes, c);
}

/* Every key of a or b whose value differs (absent counts as null). */
static int diff_objects(json_t *changes, const char *time, const char *subject,
			const json_t *a, const json_t *b)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)a, k, v) {
		if (!json_equal(null_if_absent(v), null_if_absent(json_object_get(b, k))) &&
		    add(changes, time, subject, k, v, json_object_get(b, k)) < 0)
			return -1;
	}
	json_object_foreach((json_t *)b, k, v) {
		if (!json_object_get(a, k) && !json_is_null(v) &&
		    add(changes, time, subject, k, NULL, v) < 0)
			return -1;
	}
	return 0;
}

/* The drift values (values() of fields.h) of one thing in both records
 * compared: every one that changed. */
static int diff_values(json_t *changes, const char *time, const char *subject,
		       json_t *(*values)(const json_t *), const json_t *old, const json_t *new)
{
	json_t *va = values(old), *vb = values(new);
	int rc = va && vb ? diff_objects(changes, time, subject, va, vb) : -1;

	json_decref(va);
	json_decref(vb);
	return rc;
}

static const json_t *inv_of(const json_t *rec)
{
	return json_object_get(json_object_get(rec, "check"), "inventory");
}

/* The host-level values: profile, verdict, kernel, ... */
static json_t *host_values(const json_t *rec)
{
	const json_t *host = json_object_get(inv_of(rec), "host");
	const json_t *drv = json_object_get(host, "drivers");
	json_t *out = fleet_host_values(json_object_get(rec, "check"));

	if (!out)
		return NULL;
	json_object_set(out, "profile", null_if_absent(json_object_get(rec, "profile")));
	json_object_set(out, "verdict", null_if_absent(json_object_get(rec, "verdict")));
	json_object_set(out, "kernel", null_if_absent(json_object_get(host, "kernel")));
	json_object_set(out, "dmi_product", null_if_absent(json_object_get(host, "dmi_product")));
	json_object_set(out, "nvidia", null_if_absent(json_object_get(drv, "nvidia")));
	return out;
}

/* The nth (from 0) element of arr whose key is want.  Names and numbers
 * come from outside data: should two NICs, ports or NPUs give one, the
 * kth of them is matched with the other record's kth, so that a record
 * compared with itself shows no change. */
static const json_t *find_nth_by(const json_t *arr, const char *key, const json_t *want,
				 size_t nth)
{
	size_t i;
	const json_t *e;

	json_array_foreach(arr, i, e)
		if (json_equal(json_object_get(e, key), want) && nth-- == 0)
			return e;
	return NULL;
}

/* How many elements of arr before index end have this key's value. */
static size_t count_before(const json_t *arr, size_t end, const char *key, const json_t *want)
{
	size_t n = 0;

	for (size_t i = 0; i < end; i++)
		n += json_equal(json_object_get(json_array_get(arr, i), key), want);
	return n;
}

/* What a port that appeared or went away is shown as: its state. */
static const json_t *port_shown(const json_t *p)
{
	const json_t *state = json_object_get(json_object_get(p, "state"), "name");

	return json_is_string(state) ? state : json_object_get(p, "port");
}

static int diff_ports(json_t *changes, const char *time, const char *nic, const json_t *a,
		      const json_t *b)
{
	const json_t *pa = json_object_get(a, "ports"), *pb = json_object_get(b, "ports"), *p;
	size_t i;
	char subject[300];

	/* ports gone from a NIC present on both sides */
	json_array_foreach(pa, i, p) {
		const json_t *num = json_object_get(p, "port");

		if (!json_is_integer(num) ||
		    find_nth_by(pb, "port", num, count_before(pa, i, "port", num)))
			continue;
		snprintf(subject, sizeof(subject), "%s port %lld", nic,
			 (long long)json_integer_value(num));
		if (add(changes, time, subject, "port", port_shown(p), NULL) < 0)
			return -1;
	}
	/* ports present on both sides, matched by number, and new ones */
	json_array_foreach(pb, i, p) {
		const json_t *num = json_object_get(p, "port");
		const json_t *old = find_nth_by(pa, "port", num, count_before(pb, i, "port", num));

		if (!json_is_integer(num))
			continue;
		snprintf(subject, sizeof(subject), "%s port %lld", nic,
			 (long long)json_integer_value(num));
		if (!old) {
			if (add(changes, time, subject, "port", NULL, port_shown(p)) < 0)
				return -1;
			continue;
		}
		if (diff_values(changes, time, subject, fleet_port_values, old, p) < 0)
			return -1;
	}
	return 0;
}

/* What a NIC that appeared or went away is shown as: its model, else
 * its name (a change from null to null would say nothing). */
static const json_t *nic_shown(const json_t *n)
{
	const json_t *model = json_object_get(n, "model");

	return json_is_string(model) ? model : json_object_get(n, "name");
}

static int diff_nics(json_t *changes, const char *time, const json_t *a, const json_t *b)
{
	const json_t *na = json_object_get(inv_of(a), "nics"), *nb = json_object_get(inv_of(b), "nics");
	const json_t *n;
	size_t i;

	json_array_foreach(na, i, n) {
		const json_t *name = json_object_get(n, "name");

		if (json_is_string(name) &&
		    !find_nth_by(nb, "name", name, count_before(na, i, "name", name)) &&
		    add(changes, time, json_string_value(name), "nic", nic_shown(n), NULL) < 0)
			return -1;
	}
	json_array_foreach(nb, i, n) {
		const json_t *name = json_object_get(n, "name"), *old;
		json_t *va, *vb;
		int rc;

		if (!json_is_string(name))
			continue;
		old = find_nth_by(na, "name", name, count_before(nb, i, "name", name));
		if (!old) {
			if (add(changes, time, json_string_value(name), "nic", NULL,
				nic_shown(n)) < 0)
				return -1;
			continue;
		}
		va = fleet_nic_values(old);
		vb = fleet_nic_values(n);
		if (va && vb) {
			json_object_set(va, "model", null_if_absent(json_object_get(old, "model")));
			json_object_set(vb, "model", null_if_absent(json_object_get(n, "model")));
		}
		rc = va && vb ? diff_objects(changes, time, json_string_value(name), va, vb) : -1;
		json_decref(va);
		json_decref(vb);
		if (rc < 0 || diff_ports(changes, time, json_string_value(name), old, n) < 0)
			return -1;
	}
	return 0;
}

static const json_t *npus_of(const json_t *rec)
{
	return json_object_get(json_object_get(inv_of(rec), "npus"), "devices");
}

/* An Ascend NPU and its port, matched by id, subject "npuN": "npu" when
 * one appeared or went away (the value its model), and the NPU drift
 * fields that changed.  The ids come from the tools' output: should two
 * NPUs give one id, the kth of them is matched with the other record's kth,
 * so that a record compared with itself shows no change. */
static int diff_npus(json_t *changes, const char *time, const json_t *a, const json_t *b)
{
	const json_t *na = npus_of(a), *nb = npus_of(b), *n;
	char subject[40];
	size_t i;

	json_array_foreach(na, i, n) {
		const json_t *id = json_object_get(n, "id");

		if (!json_is_integer(id) ||
		    find_nth_by(nb, "id", id, count_before(na, i, "id", id)))
			continue;
		snprintf(subject, sizeof(subject), "npu%lld", (long long)json_integer_value(id));
		if (add(changes, time, subject, "npu", json_object_get(n, "model"), NULL) < 0)
			return -1;
	}
	json_array_foreach(nb, i, n) {
		const json_t *id = json_object_get(n, "id");
		const json_t *old = find_nth_by(na, "id", id, count_before(nb, i, "id", id));

		if (!json_is_integer(id))
			continue;
		snprintf(subject, sizeof(subject), "npu%lld", (long long)json_integer_value(id));
		if (!old) {
			if (add(changes, time, subject, "npu", NULL, json_object_get(n, "model")) < 0)
				return -1;
			continue;
		}
		if (diff_values(changes, time, subject, fleet_npu_values, old, n) < 0)
			return -1;
	}
	return 0;
}

/* Is there a finding with this id and subject in the list? */
static bool has_finding(const json_t *list, const json_t *f)
{
	size_t i;
	const json_t *g;

	json_array_foreach(list, i, g)
		if (json_equal(null_if_absent(json_object_get(g, "id")),
			       null_if_absent(json_object_get(f, "id"))) &&
		    json_equal(null_if_absent(json_object_get(g, "subject")),
			       null_if_absent(json_object_get(f, "subject"))))
			return true;
	return false;
}

static int diff_findings(json_t *changes, const char *time, const json_t *a, const json_t *b)
{
	const json_t *fa = json_object_get(json_object_get(a, "check"), "findings");
	const json_t *fb = json_object_get(json_object_get(b, "check"), "findings"), *f;
	size_t i;

	json_array_foreach(fa, i, f) {
		const char *subj = json_string_value(json_object_get(f, "subject"));

		if (!has_finding(fb, f) &&
		    add(changes, time, subj ? subj : "host", "finding",
			json_object_get(f, "id"), NULL) < 0)
			return -1;
	}
	json_array_foreach(fb, i, f) {
		const char *subj = json_string_value(json_object_get(f, "subject"));

		if (!has_finding(fa, f) &&
		    add(changes, time, subj ? subj : "host", "finding", NULL,
			json_object_get(f, "id")) < 0)
			return -1;
	}
	return 0;
}

int fleet_changes(const json_t *older, const json_t *newer, json_t *changes)
{
	const char *time = json_string_value(json_object_get(newer, "time"));
	json_t *ha = host_values(older), *hb = host_values(newer);
	int rc = -1;

	if (!time)
		time = "";
	if (ha && hb && diff_objects(changes, time, "host", ha, hb) == 0 &&
	    diff_nics(changes, time, older, newer) == 0 &&
	    diff_npus(changes, time, older, newer) == 0 &&
	    diff_findings(changes, time, older, newer) == 0)
		rc = 0;
	json_decref(ha);
	json_decref(hb);
	return rc;
}
