#include "inventory.h"
#include "port_start.h"
#include "neighbor.h"

#include <stdlib.h>
#include <string.h>

static void counters_free(struct counter_set *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].name);
	free(c->v);
}

void qos_init(struct qos *q)
{
	q->trust = NULL;
	q->dcb_supported = -1;
	q->dcbx = -1;
	for (int i = 0; i < 8; i++) {
		q->pfc_enabled[i] = q->ecn_np[i] = q->ecn_rp[i] = q->prio_tc[i] = -1;
		q->pause_tx[i] = q->pause_rx[i] = NA;
	}
	for (int i = 0; i < 64; i++)
		q->dscp_to_prio[i] = -1;
}

void link_info_init(struct link_info *l)
{
	memset(l, 0, sizeof(*l));
	l->linkmodes = l->autoneg = l->duplex = l->fec = l->fec_auto = l->fec_active = -1;
	l->speed_mbps = l->lanes = NA;
	fec_stats_init(&l->fec_stats);
}

void qos_free(struct qos *q)
{
	if (!q)
		return;
	free(q->trust);
	free(q);
}

struct qos *qos_dup(const struct qos *q)
{
	struct qos *d = malloc(sizeof(*d));

	if (!d)
		return NULL;
	*d = *q;
	d->trust = NULL;
	if (q->trust && !(d->trust = strdup(q->trust))) {
		free(d);
		return NULL;
	}
	return d;
}

static void port_free(struct port *p)
{
	free(p->module);
	free(p->link);
	qos_free(p->qos);
	for (size_t i = 0; i < p->n_slaves; i++) {
		free(p->slaves[i].netdev);
		qos_free(p->slaves[i].qos);
		free(p->slaves[i].module);
		free(p->slaves[i].link);
	}
	free(p->slaves);
	free(p->link_layer);
	free(p->state_name);
	free(p->phys_state_name);
	free(p->state_why);
	free(p->rate_speed);
	free(p->netdev);
	free(p->netdev_operstate);
	free(p->bond_slaves);
	for (size_t i = 0; i < p->n_gids; i++) {
		free(p->gids[i].text);
		free(p->gids[i].type);
		free(p->gids[i].netdev);
	}
	free(p->gids);
	counters_free(&p->counters);
	counters_free(&p->hw_counters);
	counters_free(&p->eth_stats);
	counters_free(&p->net_stats);
	port_start_free(p->start);
	port_start_free(p->start_boot);
	neighbor_free(p->neighbor);
	free(p->neighbor_why);
}

void nic_free(struct nic *n)
{
	free(n->name);
	free(n->driver);
	free(n->model);
	free(n->hca_type);
	free(n->fw_ver);
	free(n->board_id);
	free(n->node_guid);
	free(n->sys_image_guid);
	free(n->node_desc);
	free(n->netdev_parent);
	free(n->uverbs);
	free(n->uverbs_dev);
	free(n->exclude_pattern);
	pci_func_free(&n->pci);
	for (size_t i = 0; i < n->n_ports; i++)
		port_free(&n->ports[i]);
	free(n->ports);
}

void inventory_free(struct inventory *inv)
{
	struct host *h = &inv->host;

	free(h->hostname);
	free(h->kernel);
	free(h->dmi_product);
	free(h->iommu_domain);
	free(h->iommu_cmdline);
	free(h->stack);
	free(h->ofed_version);
	free(h->nvidia_driver);
	free(h->amd.amdgpu.initstate);
	free(h->amd.amdgpu.version);
	free(h->amd.memory_peer);
	dev_access_free(h->access);
	verbs_user_free(h->verbs_user);
	drv_stack_free(h->drv_stack);
	kmsg_log_free(h->kmsg);
	for (int i = 0; i < MOD_COUNT; i++) {
		free(h->modules[i].initstate);
		free(h->modules[i].version);
	}
	for (size_t i = 0; i < inv->n_gpus; i++)
		pci_func_free(&inv->gpus[i].pci);
	free(inv->gpus);
	for (size_t i = 0; i < inv->n_nics; i++)
		nic_free(&inv->nics[i]);
	free(inv->nics);
	free(inv->affinity);
	npu_inventory_free(&inv->npu);
}

const char *path_type_name(enum path_type p)
{
	static const char *const names[] = { "X", "PIX", "PXB", "PHB", "NODE", "SYS" };

	return names[p];
}

const char *gpu_vendor_name(enum gpu_vendor v)
{
	return v == GPU_VENDOR_AMD ? "AMD" : "NVIDIA";
}

bool inventory_has_network(const struct inventory *inv)
{
	return inv->n_nics || inv->npu.n_pci || inv->npu.n;
}
