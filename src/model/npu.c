#include "npu.h"
#include "counter_set.h"
#include "na.h"
#include "pci_func.h"
#include "growbuf.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void npu_optical_init(struct npu_optical *o)
{
	memset(o, 0, sizeof(*o));
	o->temp_c = o->vcc_mv = NAN;
	for (int i = 0; i < NPU_LANES; i++)
		o->tx_mw[i] = o->rx_mw[i] = o->bias_ma[i] = o->snr_db[i] = NAN;
	o->temp.high = o->temp.low = o->vcc.high = o->vcc.low = NAN;
	o->tx_power.high = o->tx_power.low = o->rx_power.high = o->rx_power.low = NAN;
	o->tx_los = o->rx_los = o->tx_lol = o->rx_lol = NA;
}

void npu_port_init(struct npu_port *p)
{
	memset(p, 0, sizeof(*p));
	p->link_up = -1;
	p->speed_mbps = p->link_up_count = p->link_downs_24h = p->mtu = p->ipv6_prefix = NA;
	for (int i = 0; i < 8; i++)
		p->pfc_enabled[i] = -1;
}

int npu_failure_add(struct npu_failure **v, size_t *n, size_t *cap, const char *call,
		    const char *why)
{
	struct npu_failure *g = growbuf_reserve(*v, cap, *n + 1, sizeof(**v));

	if (!g)
		return -ENOMEM;
	*v = g;
	g[*n].call = strdup(call);
	g[*n].why = strdup(why);
	if (!g[*n].call || !g[*n].why) {
		free(g[*n].call);
		free(g[*n].why);
		return -ENOMEM;
	}
	(*n)++;
	return 0;
}

static void failures_free(struct npu_failure *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].call);
		free(v[i].why);
	}
	free(v);
}

void npu_optical_free(struct npu_optical *o)
{
	if (!o)
		return;
	free(o->present);
	free(o->vendor);
	free(o->part);
	free(o->serial);
	free(o->identifier);
	free(o);
}

void npu_counters_free(struct counter_set *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].name);
	free(c->v);
	free(c);
}

void npu_pfc_members_free(struct npu_port *p)
{
	for (size_t i = 0; i < p->n_pfc_members; i++)
		free(p->pfc_members[i].dev);
	free(p->pfc_members);
	p->pfc_members = NULL;
	p->n_pfc_members = 0;
}

static void port_free(struct npu_port *p)
{
	free(p->ipaddr);
	free(p->netmask);
	free(p->ipv6addr);
	free(p->ip_malformed);
	free(p->ip6_malformed);
	npu_pfc_members_free(p);
	free(p->net_health);
	for (size_t i = 0; i < p->n_link_changes; i++)
		free(p->link_changes[i]);
	free(p->link_changes);
	npu_optical_free(p->optical);
	npu_counters_free(p->stat);
	free(p->fec_mode);
	free(p->lldp_port);
	free(p->lldp_system);
	free(p->mtu_raw);
}

static void npu_free(struct npu *n)
{
	free(n->chip_name);
	if (n->pci) {
		pci_func_free(n->pci);
		free(n->pci);
	}
	free(n->bus_info);
	free(n->fw_version);
	free(n->sw_version);
	free(n->pci_device_id);
	free(n->health);
	free(n->health_code);
	free(n->health_info);
	port_free(&n->port);
	free(n->plan.address);
	free(n->plan.netmask);
	free(n->plan.netdetect);
	free(n->plan.gateway);
	failures_free(n->failures, n->n_failures);
	failures_free(n->unrecorded, n->n_unrecorded);
}

void npu_inventory_free(struct npu_inventory *ni)
{
	for (size_t i = 0; i < ni->n; i++)
		npu_free(&ni->v[i]);
	free(ni->v);
	for (size_t i = 0; i < ni->n_unmapped; i++)
		pci_func_free(&ni->unmapped[i]);
	free(ni->unmapped);
	failures_free(ni->failures, ni->n_failures);
	free(ni->table_why);
	memset(ni, 0, sizeof(*ni));
}

const char *npu_model_name(uint64_t vendor, uint64_t device)
{
	if (vendor != 0x19e5)
		return NULL;
	switch (device) {
	case 0xd801:
		return "Ascend 910";
	case 0xd802:
		return "Ascend 910B";
	case 0xd803:
		return "Ascend 910C";
	default:
		return NULL;
	}
}

int npu_port_pfc_mask(const struct npu_port *p)
{
	int m = 0;

	for (int k = 0; k < 8; k++) {
		if (p->pfc_enabled[k] < 0)
			return -1;
		m |= p->pfc_enabled[k] == 1 ? 1 << k : 0;
	}
	return m;
}
