/* Reading the drift fields out of check documents.  Everything here is
 * outside data (a file someone collected): every access checks its type
 * and a wrong type reads as "absent", never as a crash. */
#include "fields.h"

#include "../model/growbuf.h"
#include "../model/pcie_link.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const fleet_field_names[] = {
	"fw", "driver_stack", "kernel", "rdma_modules", "rdma_core", "slurmd_memlock",
	"device_modes", "npu_driver", "mtu", "netdev_mtu", "rocev2_gid_index", "pfc_priority", "trust", "ecn", "pcie_gen", "pcie_width",
	"pcie_mps", "pcie_mrrs", "pcie_relaxed_ordering", "port_rate_gbps", "port_state",
	"nic_count", "npu_count", "bw_gbps",
};
const size_t fleet_n_fields = sizeof(fleet_field_names) / sizeof(fleet_field_names[0]);

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

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

/* The settings the NIC runs with from its config space (pci.settings):
 * a record from before they were read has no settings and adds nothing;
 * one that could not read them (not root) says null. */
static void put_pcie_settings(json_t *out, const json_t *settings)
{
	if (!json_is_object(settings))
		return;
	put_scalar(out, "pcie_mps", json_object_get(settings, "mps"));
	put_scalar(out, "pcie_mrrs", json_object_get(settings, "mrrs"));
	put_scalar(out, "pcie_relaxed_ordering", json_object_get(settings, "relaxed_ordering"));
}

json_t *fleet_nic_values(const json_t *nic)
{
	json_t *out = json_object();
	const json_t *pci = json_object_get(nic, "pci");

	if (!out)
		return NULL;
	put_scalar(out, "fw", json_object_get(nic, "fw_ver"));
	put_pcie(out, json_object_get(pci, "link"));
	put_pcie_settings(out, json_object_get(pci, "settings"));
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

/* kernel and rdma_modules from host.driver_stack: the running kernel, and
 * each RDMA module loaded now as "NAME VERSION (SOURCE)", the version its
 * srcversion where it has none ("ib_core 6C5A1AB8B4B4C2E6E7D1C55 (inbox)"),
 * either piece left out when unknown.  Two hosts of one group that differ
 * run different stacks, whatever each one's driver.* checks say. */
static void put_modules(json_t *out, const json_t *stack)
{
	const json_t *m;
	size_t i, len = 0;
	char *text = NULL;
	FILE *f;

	if (!json_is_object(stack))
		return;
	put_scalar(out, "kernel", json_object_get(stack, "kernel"));
	f = open_memstream(&text, &len);
	if (!f)
		return;
	json_array_foreach(json_object_get(stack, "modules"), i, m) {
		const char *name = json_string_value(json_object_get(m, "name"));
		const char *ver = json_string_value(json_object_get(m, "version"));
		const char *src = json_string_value(json_object_get(m, "source"));

		if (!ver)
			ver = json_string_value(json_object_get(m, "srcversion"));
		if (!name || !json_is_true(json_object_get(m, "loaded")))
			continue;
		fprintf(f, "%s%s%s%s%s%s%s", ftell(f) > 0 ? ", " : "", name, ver ? " " : "",
			ver ? ver : "", src ? " (" : "", src ? src : "", src ? ")" : "");
	}
	if (fclose(f) == 0 && text && *text)
		json_object_set_new(out, "rdma_modules", json_string(text));
	free(text);
}

/* slurmd's soft memlock limit, as its unit (or systemd's default) sets it:
 * "unlimited", bytes, or "systemd default" when neither sets it; a host
 * without Slurm, or a record from before it was read, adds nothing. */
static void put_slurmd_memlock(json_t *out, const json_t *jm)
{
	const json_t *unit = json_object_get(jm, "slurmd_unit");
	const json_t *lim = json_object_get(jm, "slurmd_limit");

	if (!json_is_object(jm) || !json_is_string(unit))
		return;
	if (!json_is_object(lim))
		lim = json_object_get(jm, "systemd_default");
	if (!json_is_object(lim))
		json_object_set_new(out, "slurmd_memlock", json_string("systemd default"));
	else if (json_is_true(json_object_get(lim, "soft_unlimited")))
		json_object_set_new(out, "slurmd_memlock", json_string("unlimited"));
	else
		put_scalar(out, "slurmd_memlock", json_object_get(lim, "soft_bytes"));
}

/* The /dev/infiniband nodes' modes by kind, in the order the inventory
 * lists them: "uverbs 0666, umad 0600, issm 0600, rdma_cm 0666"; a kind
 * whose nodes differ lists each mode ("uverbs 0600|0666"), a missing node
 * is "missing".  Which of a host's nodes differ is the inventory's to say;
 * this tells a host whose udev rules are not its group's. */
static void put_device_modes(json_t *out, const json_t *nodes)
{
	json_t *kinds = json_object(), *order = json_array();
	size_t i, used = 0, cap = 0;
	const json_t *d;
	char *text = NULL;

	if (!json_is_array(nodes) || !kinds || !order)
		goto done;
	json_array_foreach(nodes, i, d) {
		const char *name = json_string_value(json_object_get(d, "name"));
		const json_t *present = json_object_get(d, "present");
		const char *mode = json_string_value(json_object_get(d, "mode"));
		char kind[32];
		size_t n;
		json_t *modes;

		if (!name || !json_is_boolean(present))
			continue;	/* not known: no mode to compare */
		for (n = strlen(name); n && name[n - 1] >= '0' && name[n - 1] <= '9'; n--)
			;
		snprintf(kind, sizeof(kind), "%.*s", (int)(n < 31 ? n : 31), name);
		if (!json_is_true(present) || !json_is_true(json_object_get(d, "char_device")) || !mode)
			mode = "missing";
		modes = json_object_get(kinds, kind);
		if (!modes) {
			modes = json_object();
			if (!modes || json_object_set_new(kinds, kind, modes) < 0 ||
			    json_array_append_new(order, json_string(kind)) < 0)
				goto done;
		}
		json_object_set_new(modes, mode, json_true());
	}
	json_array_foreach(order, i, d) {
		const char *kind = json_string_value(d), *mode;
		const json_t *modes = json_object_get(kinds, kind);
		json_t *v;
		bool first = true;
		size_t need = strlen(kind) + 4;
		char *grown;

		json_object_foreach((json_t *)modes, mode, v)
			need += strlen(mode) + 1;
		grown = growbuf_reserve(text, &cap, used + need + 1, 1);
		if (!grown)
			goto done;
		text = grown;
		used += (size_t)sprintf(text + used, "%s%s ", used ? ", " : "", kind);
		/* jansson keeps keys in insertion order: sort them for one text */
		const char **keys = calloc(json_object_size(modes), sizeof(*keys));
		size_t k = 0;

		if (!keys)
			goto done;
		json_object_foreach((json_t *)modes, mode, v)
			keys[k++] = mode;
		qsort(keys, k, sizeof(*keys), cmp_str);
		for (size_t j = 0; j < k; j++) {
			used += (size_t)sprintf(text + used, "%s%s", first ? "" : "|", keys[j]);
			first = false;
		}
		free(keys);
	}
	if (text)
		json_object_set_new(out, "device_modes", json_string(text));
done:
	free(text);
	json_decref(kinds);
	json_decref(order);
}

json_t *fleet_host_values(const json_t *check)
{
	json_t *out = json_object();
	const json_t *host = json_object_get(json_object_get(check, "inventory"), "host");
	const json_t *drv = json_object_get(host, "drivers");
	const json_t *verbs = json_object_get(host, "verbs_userspace");
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
	put_modules(out, json_object_get(host, "driver_stack"));
	/* a host without RDMA devices has no verbs userspace to compare */
	if (json_is_object(verbs))
		put_scalar(out, "rdma_core", json_object_get(verbs, "rdma_core"));
	put_slurmd_memlock(out, json_object_get(host, "job_memlock"));
	put_device_modes(out, json_object_get(host, "device_nodes"));
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
