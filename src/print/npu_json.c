/* The "npus" part of the inventory JSON (docs/ascend.md has the keys). */
#include "json.h"

#include <math.h>

static json_t *lanes(const double *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n && i < NPU_LANES; i++)
		json_array_append_new(a, json_number_or_null(v[i]));
	return a;
}

static json_t *thres(const struct npu_thres *t)
{
	return json_pack("{s:o, s:o}", "high", json_number_or_null(t->high),
			 "low", json_number_or_null(t->low));
}

static json_t *optical_json(const struct npu_optical *o)
{
	if (!o)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
			 "s:o, s:o, s:o, s:o, s:o, s:o}",
			 "present", json_string_or_null(o->present),
			 "vendor", json_string_or_null(o->vendor),
			 "part", json_string_or_null(o->part),
			 "serial", json_string_or_null(o->serial),
			 "identifier", json_string_or_null(o->identifier),
			 "temperature_c", json_number_or_null(o->temp_c),
			 "vcc_mv", json_number_or_null(o->vcc_mv),
			 "tx_power_mw", lanes(o->tx_mw, o->n_lanes),
			 "rx_power_mw", lanes(o->rx_mw, o->n_lanes),
			 "tx_bias_ma", lanes(o->bias_ma, o->n_lanes),
			 "snr_db", lanes(o->snr_db, o->n_lanes),
			 "temperature_thresholds", thres(&o->temp),
			 "vcc_thresholds", thres(&o->vcc),
			 "tx_power_thresholds", thres(&o->tx_power),
			 "rx_power_thresholds", thres(&o->rx_power),
			 "tx_los", json_int_or_null(o->tx_los),
			 "rx_los", json_int_or_null(o->rx_los),
			 "tx_lol", json_int_or_null(o->tx_lol),
			 "rx_lol", json_int_or_null(o->rx_lol));
}

static json_t *failures_json(const struct npu_failure *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:o, s:o}",
						   "call", json_string_or_null(v[i].call),
						   "why", json_string_or_null(v[i].why)));
	return a;
}

static json_t *pfc_json(const int v[8])
{
	json_t *a = json_array();

	for (int i = 0; i < 8; i++)
		json_array_append_new(a, v[i] < 0 ? json_null() : json_boolean(v[i]));
	return a;
}

/* each member of a bonded port: its name and its PFC row */
static json_t *pfc_members_json(const struct npu_port *p)
{
	json_t *a = json_array();

	for (size_t i = 0; i < p->n_pfc_members; i++)
		json_array_append_new(a, json_pack("{s:o, s:o}",
					"dev", json_string_or_null(p->pfc_members[i].dev),
					"pfc_enabled", pfc_json(p->pfc_members[i].enabled)));
	return a;
}

static json_t *port_json(const struct npu_port *p)
{
	json_t *changes = json_array();

	for (size_t i = 0; i < p->n_link_changes; i++)
		json_array_append_new(changes, json_string_or_null(p->link_changes[i]));
	return json_pack("{s:o, s:o, s:o, s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
			 "s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o}",
			 "link", p->link_up < 0 ? json_null() : json_string(p->link_up ? "UP" : "DOWN"),
			 "speed_mbps", json_int_or_null(p->speed_mbps),
			 "ipaddr", json_string_or_null(p->ipaddr),
			 "netmask", json_string_or_null(p->netmask),
			 "ip_unset", p->ip_unset,
			 "net_health", json_string_or_null(p->net_health),
			 "link_up_count", json_int_or_null(p->link_up_count),
			 "link_downs_24h", json_int_or_null(p->link_downs_24h),
			 "link_changes", changes,
			 "optical", optical_json(p->optical),
			 "stat", p->stat ? counters_to_json(p->stat) : json_null(),
			 "fec_mode", json_string_or_null(p->fec_mode),
			 "pfc_enabled", pfc_json(p->pfc_enabled),
			 "lldp_port", json_string_or_null(p->lldp_port),
			 "lldp_system", json_string_or_null(p->lldp_system),
			 "mtu", json_int_or_null(p->mtu),
			 "mtu_raw", json_string_or_null(p->mtu_raw),
			 "ipv6_address", json_string_or_null(p->ipv6addr),
			 "ipv6_prefix", json_int_or_null(p->ipv6_prefix),
			 "ip_malformed", json_string_or_null(p->ip_malformed),
			 "ipv6_malformed", json_string_or_null(p->ip6_malformed),
			 "optical_unsupported", p->optical_unsupported,
			 "pfc_members", pfc_members_json(p));
}

static json_t *npu_json(const struct npu *n)
{
	json_t *v = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o, s:o, s:o, s:o}",
			 "id", (json_int_t)n->id,
			 "model", json_string_or_null(n->model),
			 "chip_name", json_string_or_null(n->chip_name),
			 "pci", n->pci ? pci_to_json(n->pci) : json_null(),
			 "bus_info", json_string_or_null(n->bus_info),
			 "firmware", json_string_or_null(n->fw_version),
			 "software", json_string_or_null(n->sw_version),
			 "pci_device_id", json_string_or_null(n->pci_device_id),
			 "port_read", n->port_read,
			 "port", port_json(&n->port),
			 "planned", json_pack("{s:o, s:o, s:o, s:o}",
					      "address", json_string_or_null(n->plan.address),
					      "netmask", json_string_or_null(n->plan.netmask),
					      "netdetect", json_string_or_null(n->plan.netdetect),
					      "gateway", json_string_or_null(n->plan.gateway)),
			 "failures", failures_json(n->failures, n->n_failures),
			 "not_recorded", failures_json(n->unrecorded, n->n_unrecorded));

	/* npu-smi's health (status and the health query's error code and
	 * information) and the table's temperature and power */
	if (v)
		json_object_set_new(v, "health", json_pack("{s:o, s:o, s:o}",
				"status", json_string_or_null(n->health),
				"error_code", json_string_or_null(n->health_code),
				"error_information", json_string_or_null(n->health_info)));
	if (v)
		json_object_set_new(v, "temperature_c", json_number_or_null(n->temp_c));
	if (v)
		json_object_set_new(v, "power_w", json_number_or_null(n->power_w));
	/* a die of a two-die NPU: which NPU, which die (only then) */
	if (v && !IS_NA(n->card))
		json_object_set_new(v, "die", json_pack("{s:I, s:I}", "npu", (json_int_t)n->card,
							 "chip", (json_int_t)n->die));
	return v;
}

json_t *npus_to_json(const struct npu_inventory *ni)
{
	json_t *v = json_array(), *unmapped = json_array();

	for (size_t i = 0; i < ni->n; i++)
		json_array_append_new(v, npu_json(&ni->v[i]));
	for (size_t i = 0; i < ni->n_unmapped; i++)
		json_array_append_new(unmapped, pci_to_json(&ni->unmapped[i]));
	return json_pack("{s:I, s:b, s:o, s:o, s:o, s:o}", "pci_functions",
			 (json_int_t)ni->n_pci, "hccn_conf", ni->conf_read, "devices", v,
			 "unmapped", unmapped, "failures", failures_json(ni->failures, ni->n_failures),
			 "table_not_read", json_string_or_null(ni->table_why));
}
