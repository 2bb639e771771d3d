/* Reading the drift fields out of check documents.  Everything here is
 * outside data (a file someone collected): every access checks its type
 * and a wrong type reads as "absent", never as a crash. */
#include "fields.h"

#include "../model/pcie_link.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const fleet_field_names[] = {
	"fw", "driver_stack", "npu_driver", "mtu", "netdev_mtu", "rocev2_gid_index", "pfc_priority",
	"trust", "ecn", "pcie_gen", "pcie_width", "port_rate_gbps", "port_state",
	"nic_count", "npu_count", "bw_gbps",
};
const size_t fleet_n_fields = sizeof(fleet_field_names) / sizeof(fleet_field_names[0]);

static bool is_scalar(const json_t *v)
{
	return json_is_string(v) || json_is_number(v) || json_is_boolean(v) || json_is_null(v);
}

/* Copy a scalar member; a missing member or a non-scalar one is left out. */
static void put_scalar(json_t *out, const char *key, const json_t *v)
{
	if (v && is_scalar(v))
		json_object_set_new(out, key, json_deep_copy(v));
}

/* PCIe generation from the negotiated transfer rate (GT/s per lane). */
static json_t *gen_of_speed(const json_t *speed)
{
	int gen;

	if (json_is_null(speed))
		return json_null();
	if (!json_is_number(speed))
		return NULL;
	gen = pcie_gen(json_number_value(speed));
	/* an unknown rate: keep what was seen */
	return gen ? json_integer(gen) : json_real(json_number_value(speed));
}

/* pcie_gen and pcie_width of a device's negotiated link (pci.link). */
static void put_pcie(json_t *out, const json_t *link)
{
	json_t *gen;

	if (!json_is_object(link))
		return;
	gen = gen_of_speed(json_object_get(link, "speed_gts"));
	if (gen)
		json_object_set_new(out, "pcie_gen", gen);
	put_scalar(out, "pcie_width", json_object_get(link, "width"));
}

json_t *fleet_nic_values(const json_t *nic)
{
	json_t *out = json_object();
	const json_t *link = json_object_get(json_object_get(nic, "pci"), "link");

	if (!out)
		return NULL;
	put_scalar(out, "fw", json_object_get(nic, "fw_ver"));
	put_pcie(out, link);
	return out;
}

/* A list of priorities 0..7 as text: "3", "3,4", "none". */
static void prio_list(char *buf, size_t len, const json_t *arr, bool bools)
{
	size_t i, used = 0;
	json_t *e;

	buf[0] = '\0';
	json_array_foreach(arr, i, e) {
		long long prio;

		if (bools) {
			if (!json_is_true(e))
				continue;
			prio = (long long)i;
		} else if (json_is_integer(e)) {
			prio = json_integer_value(e);
		} else {
			continue;
		}
		int n = snprintf(buf + used, len - used, "%s%lld", used ? "," : "", prio);

		if (n < 0 || (size_t)n >= len - used)
			break;	/* more than fits: what fits is enough to tell */
		used += (size_t)n;
	}
	if (!used)
		snprintf(buf, len, "none");
}

static json_t *pfc_value(const json_t *qos)
{
	char buf[64];
	const json_t *pfc = json_object_get(qos, "pfc_enabled");

	if (!json_is_array(pfc))
		return json_null();
	prio_list(buf, sizeof(buf), pfc, false);
	return json_string(buf);
}

static json_t *ecn_value(const json_t *qos)
{
	char np[64], rp[64], both[140];
	const json_t *a = json_object_get(qos, "ecn_np"), *b = json_object_get(qos, "ecn_rp");

	if (!json_is_array(a) && !json_is_array(b))
		return json_null();
	prio_list(np, sizeof(np), a, true);
	prio_list(rp, sizeof(rp), b, true);
	if (strcmp(np, rp) == 0)
		return json_string(np);
	snprintf(both, sizeof(both), "np %s, rp %s", np, rp);
	return json_string(both);
}

/* The GID an application should use: the first RoCE v2 entry with an IPv4
 * address (the rule of model/gid_choice.c, here over the document). */
static json_t *rocev2_index(const json_t *port)
{
	size_t i;
	json_t *g;

	json_array_foreach(json_object_get(port, "gids"), i, g) {
		const char *type = json_string_value(json_object_get(g, "type"));
		const json_t *idx = json_object_get(g, "index");

		if (type && strcmp(type, "RoCE v2") == 0 &&
		    json_is_string(json_object_get(g, "ipv4")) && json_is_integer(idx))
			return json_integer(json_integer_value(idx));
	}
	return json_null();
}

json_t *fleet_port_values(const json_t *port)
{
	json_t *out = json_object();
	const char *ll = json_string_value(json_object_get(port, "link_layer"));
	const json_t *qos = json_object_get(port, "qos");
	const char *state = json_string_value(json_object_get(json_object_get(port, "state"), "name"));

	if (!out)
		return NULL;
	put_scalar(out, "mtu", json_object_get(port, "active_mtu"));
	put_scalar(out, "netdev_mtu", json_object_get(port, "netdev_mtu"));
	if (ll && strcmp(ll, "Ethernet") == 0) {
		json_object_set_new(out, "rocev2_gid_index", rocev2_index(port));
		if (json_is_object(qos)) {
			json_object_set_new(out, "pfc_priority", pfc_value(qos));
			put_scalar(out, "trust", json_object_get(qos, "trust"));
			json_object_set_new(out, "ecn", ecn_value(qos));
		} else {
			json_object_set_new(out, "pfc_priority", json_null());
			json_object_set_new(out, "trust", json_null());
			json_object_set_new(out, "ecn", json_null());
		}
	}
	/* a port that is not up shows the kernel's placeholder rate (10 Gb/s
	 * on InfiniBand): its state is the drift, not its rate */
	if (state && strcmp(state, "ACTIVE") == 0)
		put_scalar(out, "port_rate_gbps", json_object_get(port, "rate_gbps"));
	put_scalar(out, "port_state", json_object_get(json_object_get(port, "state"), "name"));
	return out;
}

/* The port speed of an NPU in Gb/s (hccn_tool says Mb/s): a whole number
 * where it is one, so 100000 Mb/s compares equal to a NIC's 100. */
static json_t *npu_rate_gbps(const json_t *mbps)
{
	json_int_t v;

	if (json_is_integer(mbps)) {
		v = json_integer_value(mbps);
		return v % 1000 == 0 ? json_integer(v / 1000) : json_real((double)v / 1000.0);
	}
	if (json_is_real(mbps))
		return json_real(json_number_value(mbps) / 1000.0);
	return NULL;
}

/* A PFC bitmap with a bit not read (null) is not a set of priorities. */
static bool all_booleans(const json_t *arr)
{
	size_t i;
	json_t *e;

	json_array_foreach(arr, i, e)
		if (!json_is_boolean(e))
			return false;
	return true;
}

json_t *fleet_npu_values(const json_t *npu)
{
	json_t *out = json_object(), *rate;
	const json_t *link = json_object_get(json_object_get(npu, "pci"), "link");
	const json_t *port = json_object_get(npu, "port");
	const json_t *pfc = json_object_get(port, "pfc_enabled");
	const char *state = json_string_value(json_object_get(port, "link"));
	char buf[64];

	if (!out)
		return NULL;
	put_scalar(out, "fw", json_object_get(npu, "firmware"));
	put_scalar(out, "npu_driver", json_object_get(npu, "software"));
	put_pcie(out, link);
	if (!json_is_object(port)) {
		/* no port read: its state is unknown, and nothing else is said */
		json_object_set_new(out, "port_state", json_null());
		return out;
	}
	put_scalar(out, "port_state", json_object_get(port, "link"));
	/* a port that is down has no speed worth comparing: its state is the drift */
	if (state && strcmp(state, "UP") == 0) {
		rate = npu_rate_gbps(json_object_get(port, "speed_mbps"));
		if (rate)
			json_object_set_new(out, "port_rate_gbps", rate);
	}
	if (json_is_array(pfc) && all_booleans(pfc)) {
		prio_list(buf, sizeof(buf), pfc, true);
		json_object_set_new(out, "pfc_priority", json_string(buf));
	} else {
		json_object_set_new(out, "pfc_priority", json_null());
	}
	return out;
}

json_t *fleet_host_values(const json_t *check)
{
	json_t *out = json_object();
	const json_t *drv = json_object_get(
		json_object_get(json_object_get(check, "inventory"), "host"), "drivers");
	const char *stack = json_string_value(json_object_get(drv, "stack"));
	const char *ofed = json_string_value(json_object_get(drv, "ofed_version"));

	if (!out)
		return NULL;
	if (!stack) {
		json_object_set_new(out, "driver_stack", json_null());
	} else if (ofed) {
		size_t n = strlen(stack) + strlen(ofed) + 2;
		char *s = malloc(n);

		if (s) {
			snprintf(s, n, "%s %s", stack, ofed);
			json_object_set_new(out, "driver_stack", json_string(s));
			free(s);
		}
	} else {
		json_object_set_new(out, "driver_stack", json_string(stack));
	}
	return out;
}

/* Two significant digits: 394.2 -> 390, 97.3 -> 97, 9.37 -> 9.4. */
static json_t *two_digits(double v)
{
	double p, r;

	if (!(v > 0) || !isfinite(v))
		return json_integer(0);
	p = pow(10, floor(log10(v)) - 1);
	r = round(v / p) * p;
	if (p >= 1)
		return json_integer((json_int_t)llround(r));
	return json_real(round(r * 1e6) / 1e6);
}

/* The result of the largest message size in one bw document. */
static const json_t *largest_result(const json_t *doc)
{
	const json_t *best = NULL, *r;
	json_int_t best_size = -1;
	size_t i;

	json_array_foreach(json_object_get(doc, "results"), i, r) {
		const json_t *sz = json_object_get(r, "size_bytes");

		if (json_is_integer(sz) && json_integer_value(sz) > best_size) {
			best_size = json_integer_value(sz);
			best = r;
		}
	}
	return best;
}

json_t *fleet_bw_gbps(const json_t *bw_docs, const json_t *devices)
{
	double slowest = INFINITY;
	size_t i, j;
	const json_t *doc, *rail;

	json_array_foreach(bw_docs, i, doc) {
		const char *role = json_string_value(json_object_get(doc, "role"));

		if (!role || strcmp(role, "client") != 0)
			continue;
		json_array_foreach(json_object_get(largest_result(doc), "rails"), j, rail) {
			const char *dev = json_string_value(json_object_get(rail, "device"));
			const json_t *avg = json_object_get(json_object_get(rail, "gbps"), "avg");

			if (!dev || !json_object_get(devices, dev) || !json_is_number(avg))
				continue;
			if (json_number_value(avg) < slowest)
				slowest = json_number_value(avg);
		}
	}
	return isfinite(slowest) ? two_digits(slowest) : NULL;
}

char *fleet_value_text(const json_t *v)
{
	if (json_is_string(v))
		return strdup(json_string_value(v));
	if (!v)
		return strdup("null");
	return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(10));
}

const char *fleet_share_text(const char *key)
{
	return strcmp(key, "null") == 0 ? FLEET_MISSING : key;
}
