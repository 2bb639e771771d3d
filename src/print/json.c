#include "json.h"
#include "access_out.h"
#include "../model/module_info.h"
#include "../model/link_modes.h"
#include "../model/port_guid.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *code_name(int64_t code, const char *name)
{
	if (IS_NA(code))
		return json_null();
	return json_pack("{s:I, s:o}", "code", (json_int_t)code, "name",
			 json_string_or_null(name));
}

static json_t *gids_json(const struct port *p)
{
	json_t *a = json_array();

	for (size_t i = 0; i < p->n_gids; i++) {
		const struct gid *g = &p->gids[i];

		json_array_append_new(a, json_pack("{s:i, s:o, s:o, s:o, s:o}",
			"index", g->index, "gid", json_string_or_null(g->text),
			"type", json_string_or_null(g->type),
			"netdev", json_string_or_null(g->netdev),
			"ipv4", g->ipv4[0] ? json_string(g->ipv4) : json_null()));
	}
	return a;
}

static json_t *split_words(const char *s)
{
	json_t *a;

	if (!s)
		return json_null();
	a = json_array();
	for (const char *w = s; *w;) {
		size_t len = strcspn(w, " \t\n");

		if (len) {
			char *word = strndup(w, len);

			json_array_append_new(a, json_string_or_null(word));
			free(word);
		}
		w += len;
		w += strspn(w, " \t\n");
	}
	return a;
}

static json_t *tristate(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

/* Eight per-priority flags: true/false/null each, or null when none is known. */
static json_t *prio_flags(const int v[8])
{
	json_t *a;
	bool any = false;

	for (int i = 0; i < 8; i++)
		any |= v[i] >= 0;
	if (!any)
		return json_null();
	a = json_array();
	for (int i = 0; i < 8; i++)
		json_array_append_new(a, tristate(v[i]));
	return a;
}

/* The priorities with PFC on, or null unless all eight are known. */
static json_t *prio_list(const int v[8])
{
	json_t *a;

	for (int i = 0; i < 8; i++)
		if (v[i] < 0)
			return json_null();
	a = json_array();
	for (int i = 0; i < 8; i++)
		if (v[i])
			json_array_append_new(a, json_integer(i));
	return a;
}

/* Eight counters, or null unless all eight are known. */
static json_t *prio_counts(const int64_t v[8])
{
	json_t *a;

	for (int i = 0; i < 8; i++)
		if (IS_NA(v[i]))
			return json_null();
	a = json_array();
	for (int i = 0; i < 8; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

/* {"26": 3, ...}: the DSCP values the APP table maps, as strings. */
static json_t *dscp_map(const int v[64])
{
	json_t *o = json_object();

	for (int i = 0; i < 64; i++) {
		char key[12];

		if (v[i] < 0)
			continue;
		snprintf(key, sizeof(key), "%d", i);
		json_object_set_new(o, key, json_integer(v[i]));
	}
	return o;
}

static json_t *qos_json(const struct qos *q)
{
	json_t *o;

	if (!q)
		return json_null();
	o = json_pack("{s:o, s:o, s:o, s:o}",
		      "trust", json_string_or_null(q->trust),
		      "pfc_enabled", prio_list(q->pfc_enabled),
		      "ecn_np", prio_flags(q->ecn_np),
		      "ecn_rp", prio_flags(q->ecn_rp));
	if (!o)
		return json_null();
	/* DCB netlink (net/dcb/dcbnl.c) */
	if (q->trust && strcmp(q->trust, "dscp") == 0)
		json_object_set_new(o, "dscp_map", dscp_map(q->dscp_to_prio));
	json_object_set_new(o, "pfc_pause_tx", prio_counts(q->pause_tx));
	json_object_set_new(o, "pfc_pause_rx", prio_counts(q->pause_rx));
	json_object_set_new(o, "dcb", q->dcb_supported == 1 ? json_string("supported") :
				      q->dcb_supported == 0 ? json_string("not supported") :
				      json_null());
	return o;
}

static json_t *lane_values(const double *v, int lanes)
{
	json_t *a = json_array();

	for (int i = 0; i < lanes && i < MODULE_MAX_LANES; i++)
		json_array_append_new(a, json_number_or_null(v[i]));
	return a;
}

static json_t *threshold_json(const struct module_threshold *t)
{
	return json_pack("{s:o, s:o, s:o, s:o}",
			 "high_alarm", json_number_or_null(t->high_alarm),
			 "low_alarm", json_number_or_null(t->low_alarm),
			 "high_warn", json_number_or_null(t->high_warn),
			 "low_warn", json_number_or_null(t->low_warn));
}

/* What the module is built for (eeprom/apps.h): null not read or not
 * decoded (an SFP), [] none stated */
static json_t *apps_json(const struct module_apps *a)
{
	json_t *arr;

	if (!a->known)
		return json_null();
	arr = json_array();
	for (size_t i = 0; i < a->n && i < MODULE_MAX_APPS; i++)
		json_array_append_new(arr, json_pack("{s:s, s:o, s:o}", "name", a->app[i].name,
						     "kind", json_string_or_null(a->app[i].kind[0] ?
									       a->app[i].kind : NULL),
						     "gbps", a->app[i].gbps > 0 ?
						     json_real(a->app[i].gbps) : json_null()));
	return arr;
}

/* The transceiver (ethtool netlink MODULE_EEPROM_GET, eeprom/module.h) */
static json_t *module_json(const struct module_info *m)
{
	json_t *o;

	if (!m)
		return json_null();
	o = json_object();
	json_object_set_new(o, "type", json_string_or_null(m->type));
	json_object_set_new(o, "vendor", json_string_or_null(m->vendor[0] ? m->vendor : NULL));
	json_object_set_new(o, "part", json_string_or_null(m->part[0] ? m->part : NULL));
	json_object_set_new(o, "serial", json_string_or_null(m->serial[0] ? m->serial : NULL));
	json_object_set_new(o, "temp_c", json_number_or_null(m->temp_c));
	json_object_set_new(o, "vcc_v", json_number_or_null(m->vcc_v));
	json_object_set_new(o, "lanes", json_integer(m->lanes));
	json_object_set_new(o, "tx_bias_ma", lane_values(m->tx_bias_ma, m->lanes));
	json_object_set_new(o, "tx_power_mw", lane_values(m->tx_power_mw, m->lanes));
	json_object_set_new(o, "rx_power_mw", lane_values(m->rx_power_mw, m->lanes));
	json_object_set_new(o, "thresholds", !m->has_thresholds ? json_null() :
			    json_pack("{s:o, s:o, s:o, s:o, s:o}",
				      "temp_c", threshold_json(&m->temp),
				      "vcc_v", threshold_json(&m->vcc),
				      "tx_bias_ma", threshold_json(&m->tx_bias),
				      "tx_power_mw", threshold_json(&m->tx_power),
				      "rx_power_mw", threshold_json(&m->rx_power)));
	json_object_set_new(o, "applications", apps_json(&m->apps));
	json_object_set_new(o, "top_gbps", m->apps.known && m->apps.top_gbps > 0 ?
			    json_real(m->apps.top_gbps) : json_null());
	return o;
}

/* The kernel's names of the bits set; an unnamed (newer) bit as "bitN". */
static json_t *mode_list(const uint32_t *set)
{
	json_t *a = json_array();

	for (unsigned b = 0; b < LINK_MODE_BITS; b++) {
		const char *name = link_mode_name(b);
		char buf[16];

		if (!link_mode_has(set, b))
			continue;
		if (!name) {
			snprintf(buf, sizeof(buf), "bit%u", b);
			name = buf;
		}
		json_array_append_new(a, json_string(name));
	}
	return a;
}

/* FEC: null unknown, "not supported", or what FEC_GET said */
static json_t *fec_json(const struct link_info *l)
{
	json_t *configured;

	if (l->fec < 0)
		return json_null();
	if (l->fec == 0)
		return json_string("not supported");
	configured = mode_list(l->fec_configured);
	return json_pack("{s:o, s:o, s:o, s:o}",
			 "active", json_string_or_null(link_fec_name(l->fec_active)),
			 "configured", configured, "auto", tristate(l->fec_auto),
			 "stats", fec_stats_to_json(&l->fec_stats));
}

/* Link modes and FEC over ethtool netlink (`ethtool IF`, `--show-fec`) */
json_t *link_to_json(const struct link_info *l)
{
	json_t *o;

	if (!l)
		return json_null();
	o = json_object();
	json_object_set_new(o, "linkmodes", l->linkmodes == 1 ? json_string("supported") :
				      l->linkmodes == 0 ? json_string("not supported") :
				      json_null());
	json_object_set_new(o, "autoneg", tristate(l->autoneg));
	json_object_set_new(o, "speed_mbps", json_int_or_null(l->speed_mbps));
	json_object_set_new(o, "duplex", l->duplex < 0 ? json_null() :
			    json_string(l->duplex ? "full" : "half"));
	json_object_set_new(o, "lanes", json_int_or_null(l->lanes));
	json_object_set_new(o, "supported", l->has_modes ? mode_list(l->supported) : json_null());
	json_object_set_new(o, "advertised", l->has_modes ? mode_list(l->advertised) :
			    json_null());
	json_object_set_new(o, "peer", l->has_peer ? mode_list(l->peer) : json_null());
	json_object_set_new(o, "fec", fec_json(l));
	return o;
}

/* RoCE LAG: what each slave (physical function) said */
static json_t *slaves_json(const struct port *p)
{
	json_t *a;

	if (!p->slaves)
		return json_null();
	a = json_array();
	for (size_t i = 0; i < p->n_slaves; i++)
		json_array_append_new(a, json_pack("{s:o, s:o, s:o, s:o}",
			"netdev", json_string_or_null(p->slaves[i].netdev),
			"qos", qos_json(p->slaves[i].qos),
			"module", module_json(p->slaves[i].module),
			"link", link_to_json(p->slaves[i].link)));
	return a;
}

/* As the kernel writes node_guid: "9803:9b03:00a3:c3a6"; null without GID 0. */
static json_t *port_guid_json(const struct port *p)
{
	char buf[24];
	uint64_t g;

	if (!port_guid(p, &g))
		return json_null();
	snprintf(buf, sizeof(buf), "%04x:%04x:%04x:%04x", (unsigned)(g >> 48) & 0xffff,
		 (unsigned)(g >> 32) & 0xffff, (unsigned)(g >> 16) & 0xffff, (unsigned)g & 0xffff);
	return json_string(buf);
}

static json_t *port_json(const struct port *p)
{
	json_t *o = json_object();

	json_object_set_new(o, "port", json_integer(p->num));
	json_object_set_new(o, "link_layer", json_string_or_null(p->link_layer));
	json_object_set_new(o, "state", code_name(p->state, p->state_name));
	json_object_set_new(o, "phys_state", code_name(p->phys_state, p->phys_state_name));
	json_object_set_new(o, "rate_gbps", json_number_or_null(p->rate_gbps));
	json_object_set_new(o, "lanes", json_int_or_null(p->lanes));
	json_object_set_new(o, "lane_speed", json_string_or_null(p->rate_speed));
	json_object_set_new(o, "lid", json_int_or_null(p->lid));
	json_object_set_new(o, "sm_lid", json_int_or_null(p->sm_lid));
	json_object_set_new(o, "port_guid", port_guid_json(p));
	json_object_set_new(o, "active_mtu", json_int_or_null(p->active_mtu));
	json_object_set_new(o, "max_mtu", json_int_or_null(p->max_mtu));
	json_object_set_new(o, "netdev", json_string_or_null(p->netdev));
	json_object_set_new(o, "netdev_mtu", json_int_or_null(p->netdev_mtu));
	json_object_set_new(o, "netdev_operstate", json_string_or_null(p->netdev_operstate));
	json_object_set_new(o, "netdev_speed_mbps", json_int_or_null(p->netdev_speed_mbps));
	json_object_set_new(o, "carrier_changes", json_int_or_null(p->carrier_changes));
	json_object_set_new(o, "bond_slaves", split_words(p->bond_slaves));
	json_object_set_new(o, "gids", gids_json(p));
	json_object_set_new(o, "counters", counters_to_json(&p->counters));
	json_object_set_new(o, "hw_counters", counters_to_json(&p->hw_counters));
	/* `ethtool -S` of the netdev; null when not known */
	json_object_set_new(o, "ethtool_stats",
			    p->eth_stats.v ? counters_to_json(&p->eth_stats) : json_null());
	/* ECN from sysfs (MLNX_OFED); trust and PFC from DCB netlink */
	json_object_set_new(o, "qos", qos_json(p->qos));
	json_object_set_new(o, "module", module_json(p->module));
	json_object_set_new(o, "link", link_to_json(p->link));
	/* a bond's qos above merges these */
	json_object_set_new(o, "bond_members", slaves_json(p));
	/* who the cable reaches (collect/lldp.c); when not known, why */
	json_object_set_new(o, "neighbor", neighbor_to_json(p->neighbor));
	if (!p->neighbor && p->neighbor_why)
		json_object_set_new(o, "neighbor_unknown", json_string_or_null(p->neighbor_why));
	return o;
}

static json_t *nic_json(const struct nic *n)
{
	json_t *o = json_object(), *ports = json_array();

	json_object_set_new(o, "name", json_string_or_null(n->name));
	json_object_set_new(o, "driver", json_string_or_null(n->driver));
	json_object_set_new(o, "model", json_string_or_null(n->model));
	json_object_set_new(o, "hca_type", json_string_or_null(n->hca_type));
	json_object_set_new(o, "fw_ver", json_string_or_null(n->fw_ver));
	json_object_set_new(o, "board_id", json_string_or_null(n->board_id));
	json_object_set_new(o, "node_guid", json_string_or_null(n->node_guid));
	json_object_set_new(o, "sys_image_guid", json_string_or_null(n->sys_image_guid));
	json_object_set_new(o, "node_desc", json_string_or_null(n->node_desc));
	json_object_set_new(o, "netdev_parent", json_string_or_null(n->netdev_parent));
	json_object_set_new(o, "pci", n->has_pci ? pci_to_json(&n->pci) : json_null());
	json_object_set_new(o, "uverbs", json_string_or_null(n->uverbs));
	json_object_set_new(o, "uverbs_dev", json_string_or_null(n->uverbs_dev));
	if (n->excluded)
		json_object_set_new(o, "excluded", json_pack("{s:s?,s:i}", "pattern",
							     n->exclude_pattern, "line",
							     n->exclude_line));
	else
		json_object_set_new(o, "excluded", json_null());
	for (size_t i = 0; i < n->n_ports; i++)
		json_array_append_new(ports, port_json(&n->ports[i]));
	json_object_set_new(o, "ports", ports);
	return o;
}

static const char *gpu_kind_name(enum gpu_kind k)
{
	switch (k) {
	case GPU_DATACENTER: return "datacenter";
	case GPU_WORKSTATION: return "workstation";
	case GPU_GEFORCE: return "geforce";
	default: return NULL;
	}
}

/* gpus[].nvlink (docs/json/inventory.md): NVML's fabric and links; NULL
 * (the key left out) where NVML was not asked: a replay that recorded
 * nothing, so older snapshots read as before */
static json_t *nvlink_json(const struct gpu_fabric *f)
{
	char uuid[2 * NVLINK_UUID_LEN + 1], links[NVLINK_MAX_LINKS + 1];
	const char *rc;
	size_t nl = 0;

	if (f->err == -ENOENT)
		return NULL;
	if (f->err)
		return json_pack("{s:s?}", "not_checked", f->why);
	for (size_t i = 0; i < NVLINK_UUID_LEN; i++)
		snprintf(uuid + 2 * i, 3, "%02x", f->cluster[i]);
	for (size_t i = 0; i < NVLINK_MAX_LINKS; i++) {
		links[i] = !(f->answered >> i & 1) ? '-' : (f->active >> i & 1) ? '1' : '0';
		if (f->answered >> i & 1)
			nl = i + 1;
	}
	links[nl] = '\0';
	rc = nvml_return_name(f->status);
	return json_pack("{s:s, s:o, s:I, s:s, s:s}",
			 "fabric_state", nvlink_fabric_state_name(f->state),
			 "fabric_status", rc ? json_string(rc) : json_integer(f->status),
			 "clique_id", (json_int_t)f->clique, "cluster_uuid", uuid, "links", links);
}

static json_t *gpu_json(const struct gpu *g)
{
	json_t *up = pci_upstream_to_json(&g->pci);
	json_t *nv = nvlink_json(&g->fabric);

	return json_pack("{s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o*}",
			 "bdf", json_string_or_null(g->pci.bdf),
			 "vendor", json_hex_or_null(g->pci.vendor, 4),
			 "vendor_name", gpu_vendor_name(g->vendor),
			 "device", json_hex_or_null(g->pci.device, 4),
			 "model", json_string_or_null(g->model),
			 "kind", json_string_or_null(gpu_kind_name(g->kind)),
			 "numa_node", json_int_or_null(g->pci.numa_node),
			 "link", pci_link_to_json(&g->pci.link),
			 "upstream", up, "nvlink", nv);
}

/* host.verbs_userspace (docs/json/inventory.md); null when not read */
static json_t *verbs_user_json(const struct verbs_user *u)
{
	json_t *prov = json_array(), *drv = json_array();

	if (!u) {
		json_decref(prov);
		json_decref(drv);
		return json_null();
	}
	for (size_t i = 0; i < u->n_providers; i++)
		json_array_append_new(prov, json_pack("{s:s, s:i}", "name", u->providers[i].name,
						      "private_abi", u->providers[i].pabi));
	for (size_t i = 0; i < u->n_drivers; i++)
		json_array_append_new(drv, json_string(u->drivers[i]));
	if (!u->drivers_known) {
		json_decref(drv);
		drv = json_null();
	}
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"libdir", json_string_or_null(u->libdir),
		"library", json_string_or_null(u->library),
		"rdma_core", json_string_or_null(u->release),
		"verbs_set", u->verbs_minor >= 0 ? json_integer(u->verbs_minor) : json_null(),
		"private_abi", u->pabi >= 0 ? json_integer(u->pabi) : json_null(),
		"unreadable", json_string_or_null(u->why),
		"providers", prov,
		"driver_files", drv,
		"uverbs_abi", u->uverbs_abi >= 0 ? json_integer(u->uverbs_abi) : json_null(),
		"umad_abi", u->umad_abi >= 0 ? json_integer(u->umad_abi) : json_null());
}

/* host.driver_stack (docs/json/inventory.md); null when not read */
static json_t *hex_or_null(const unsigned char *id, size_t len)
{
	char hex[2 * MODINFO_BUILD_ID_MAX + 1];

	if (!len)
		return json_null();
	drv_id_hex(id, len, hex);
	return json_string(hex);
}

static json_t *drv_stack_json(const struct drv_stack *s)
{
	json_t *mods = json_array();

	if (!s) {
		json_decref(mods);
		return json_null();
	}
	for (size_t i = 0; i < DRV_COUNT; i++) {
		const struct drv_module *m = &s->mods[i];
		const struct modinfo *d = m->disk_read ? &m->disk : NULL;

		json_array_append_new(mods, json_pack(
			"{s:s, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			"name", m->name,
			"loaded", m->loaded,
			"version", json_string_or_null(m->loaded_version),
			"srcversion", json_string_or_null(m->loaded_srcversion),
			"build_id", hex_or_null(m->loaded_id, m->loaded_id_len),
			"file", json_string_or_null(m->path),
			"source", m->path ? json_string(drv_source_name(m->source)) : json_null(),
			"file_version", json_string_or_null(d ? d->version : NULL),
			"file_srcversion", json_string_or_null(d ? d->srcversion : NULL),
			"file_vermagic", json_string_or_null(d ? d->vermagic : NULL),
			"file_build_id", d ? hex_or_null(d->build_id, d->build_id_len) : json_null(),
			"file_unreadable", json_string_or_null(m->disk_why),
			"next_file", json_string_or_null(m->next_path),
			"next_dkms", json_string_or_null(m->next_dkms)));
	}
	return json_pack("{s:o, s:b, s:o, s:o, s:b, s:o, s:o, s:o}",
		"kernel", json_string_or_null(s->kernel),
		"modules_dep", s->dep_known,
		"unreadable", json_string_or_null(s->dep_why),
		"next_kernel", json_string_or_null(s->next_kernel),
		"next_modules_dep", s->next_dep_known,
		"next_unreadable", json_string_or_null(s->next_why),
		"nvidia_version", json_string_or_null(s->nvidia_version),
		"modules", mods);
}

/* host.kernel_log (docs/json/inventory.md): the kernel log's matched
 * fault records, the last KERNEL_LOG_JSON_MAX of them */
#define KERNEL_LOG_JSON_MAX 64
static json_t *kernel_log_json(const struct kmsg_log *l)
{
	json_t *v;
	size_t from;
	char note[400];

	kmsg_log_note(l, note, sizeof(note));
	v = json_array();
	from = l->n > KERNEL_LOG_JSON_MAX ? l->n - KERNEL_LOG_JSON_MAX : 0;
	for (size_t i = from; v && i < l->n; i++)
		json_array_append_new(v, json_pack("{s:s, s:o, s:f, s:s}", "id", l->v[i].id,
						   "device", json_string_or_null(l->v[i].device),
						   "seconds", (double)l->v[i].usec / 1e6,
						   "line", l->v[i].line));
	return json_pack("{s:o, s:o, s:o, s:I, s:o}",
		"note", note[0] ? json_string(note) : json_null(),
		"unreadable", l->err ? json_string(strerror(-l->err))
			      : l->none_parsed ? json_string("no record in /dev/kmsg's form")
			      : json_null(),
		"boot_time", l->boot_wall >= 0 ? json_real(l->boot_wall) : json_null(),
		"records", (json_int_t)l->n,
		"faults", v ? v : json_null());
}

static json_t *host_json(const struct host *h)
{
	json_t *mods = json_object();

	for (int i = 0; i < MOD_COUNT; i++)
		json_object_set_new(mods, h->modules[i].name,
				    h->modules_known ? json_boolean(h->modules[i].loaded)
						     : json_null());
	json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:o, s:{s:o, s:o, s:o}, s:o, s:{s:o, s:o, s:o, s:o, s:o, s:o, s:b}}",
		"hostname", json_string_or_null(h->hostname),
		"kernel", json_string_or_null(h->kernel),
		"dmi_product", json_string_or_null(h->dmi_product),
		"memlock_bytes", json_int_or_null(h->memlock_bytes),
		"memlock_unlimited", tristate(h->memlock_unlimited),
		"iommu",
		  "present", tristate(h->iommu_present),
		  "default_domain", json_string_or_null(h->iommu_domain),
		  "cmdline", json_string_or_null(h->iommu_cmdline),
		"modules", mods,
		"drivers",
		  "stack", json_string_or_null(h->stack),
		  "ofed_version", json_string_or_null(h->ofed_version),
		  "nvidia", json_string_or_null(h->nvidia_driver),
		  "nvidia_open", tristate(h->nvidia_open),
		  "nvidia_peermem_initstate",
		    json_string_or_null(h->modules[MOD_NVIDIA_PEERMEM].initstate),
		  "nv_peer_mem_initstate",
		    json_string_or_null(h->modules[MOD_NV_PEER_MEM].initstate),
		  "memory_peers_nv_mem", h->peermem_memory_peers);

	access_json_add(o, h->access);
	if (o)
		json_object_set_new(o, "verbs_userspace", verbs_user_json(h->verbs_user));
	if (o)
		json_object_set_new(o, "driver_stack", drv_stack_json(h->drv_stack));
	/* absent, not null, when not read: a tree taken without the log */
	if (o && h->kmsg)
		json_object_set_new(o, "kernel_log", kernel_log_json(h->kmsg));
	return o;
}

json_t *inventory_to_json(const struct inventory *inv)
{
	json_t *gpus = json_array(), *nics = json_array(), *aff = json_array(), *doc;

	for (size_t i = 0; i < inv->n_gpus; i++)
		json_array_append_new(gpus, gpu_json(&inv->gpus[i]));
	for (size_t i = 0; i < inv->n_nics; i++)
		json_array_append_new(nics, nic_json(&inv->nics[i]));
	for (size_t i = 0; i < inv->n_affinity; i++) {
		const struct affinity *a = &inv->affinity[i];

		json_array_append_new(aff, json_pack("{s:o, s:o, s:s}",
			"gpu", json_string_or_null(inv->gpus[a->gpu].pci.bdf),
			"nic", json_string_or_null(inv->nics[a->nic].name),
			"path", path_type_name(a->path)));
	}
	doc = json_pack("{s:i, s:o, s:o, s:o, s:o}", "schema", INVENTORY_SCHEMA,
			"host", host_json(&inv->host), "gpus", gpus, "nics", nics,
			"affinity", aff);
	/* only on a machine with NPUs (docs/ascend.md) */
	if (doc && (inv->npu.n_pci || inv->npu.n) &&
	    json_object_set_new(doc, "npus", npus_to_json(&inv->npu)) < 0) {
		json_decref(doc);
		doc = NULL;
	}
	return doc;
}

int json_write(FILE *out, const json_t *doc)
{
	char *text;
	size_t len;
	int rc = 0;

	if (!doc)
		return -ENOMEM;
	text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	if (!text)
		return -ENOMEM;
	len = strlen(text);
	if (fwrite(text, 1, len, out) != len || fputc('\n', out) == EOF ||
	    fflush(out) != 0)
		rc = errno ? -errno : -EIO;
	free(text);
	return rc;
}
