/* The machine's facts for NCCL (nccl/facts.h): one nccl_port per port of
 * every RDMA NIC, in the inventory's order, read off the model as check
 * reads it, so that the advice and the judge see what check sees.
 *
 * The strings of a port (dev, netdev, trust) point into the inventory:
 * the facts live no longer than it does. */
#include "facts.h"
#include "../model/driver_link.h"
#include "../check/run.h"
#include "../check/gpudirect.h"
#include "../model/gid_choice.h"
#include "../model/port_state.h"
#include "../model/topo_verdict.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GPUDirect RDMA as every command judges it (check/gpudirect.c): 1
 * ready, 0 not (its cause in f->gdr_cause), -1 unknown. */
static int gdr_ready(const struct inventory *inv, struct nccl_facts *f)
{
	struct gd_judgement j;

	gpudirect_judge(inv, &j);
	f->gdr_cause = j.cause;
	f->gdr_why = j.why;
	return j.state == GD_READY ? 1 : j.state == GD_UNKNOWN ? -1 : 0;
}

static int netdev_up(const struct port *p)
{
	if (!p->netdev || !p->netdev_operstate)
		return -1;
	return strcmp(p->netdev_operstate, "up") == 0;
}

static int port_up(const struct port *p)
{
	switch (port_link(p)) {
	case PORT_LINK_UP:
		return 1;
	case PORT_LINK_DOWN:
		return 0;
	default:
		return -1;
	}
}

/* Every RoCE v2 IPv4 index of the port, to judge a job's against. */
static int v2_indices(const struct port *p, struct nccl_port *np)
{
	const struct gid *rec = gid_recommended(p);

	np->gid_index = -1;
	if (p->link_layer && strcmp(p->link_layer, "InfiniBand") == 0)
		return 0;
	if (rec)
		np->gid_index = rec->index;
	np->v2_ipv4_indices = calloc(p->n_gids ? p->n_gids : 1, sizeof(int));
	if (!np->v2_ipv4_indices)
		return -ENOMEM;
	for (size_t i = 0; i < p->n_gids; i++) {
		const struct gid *g = &p->gids[i];

		if (g->type && strcmp(g->type, "RoCE v2") == 0 && g->ipv4[0])
			np->v2_ipv4_indices[np->n_v2_ipv4++] = g->index;
	}
	return 0;
}

/* Trust, PFC and the DSCP map; a PFC bit that could not be read makes
 * the whole mask unknown, never a "no". */
static void qos_of(const struct port *p, struct nccl_port *np)
{
	const struct qos *q = p->qos;

	np->trust = NULL;
	np->pfc_mask = -1;
	for (int d = 0; d < 64; d++)
		np->dscp_to_prio[d] = -1;
	if (!q)
		return;
	np->trust = q->trust;
	np->pfc_mask = 0;
	for (int i = 0; i < 8; i++) {
		if (q->pfc_enabled[i] < 0) {
			np->pfc_mask = -1;
			break;
		}
		if (q->pfc_enabled[i])
			np->pfc_mask |= 1 << i;
	}
	memcpy(np->dscp_to_prio, q->dscp_to_prio, sizeof(np->dscp_to_prio));
}

static int port_of(const struct inventory *inv, const enum nic_role *roles, size_t nic,
		   const struct port *p, struct nccl_port *np)
{
	struct topo_nearest near = topo_nearest_gpu(inv, nic);

	np->dev = inv->nics[nic].name;
	np->port = p->num;
	np->nic = nic;
	np->role = roles[nic];
	np->infiniband = p->link_layer && strcmp(p->link_layer, "InfiniBand") == 0;
	np->own_transport = drv_link_of(inv->nics[nic].driver) ?
			    drv_link_of(inv->nics[nic].driver)->own_transport : NULL;
	np->up = port_up(p);
	np->netdev = p->netdev;
	np->netdev_up = netdev_up(p);
	qos_of(p, np);
	np->nearest_gpu = near.found ? (int)near.gpu : -1;
	np->path = near.found ? near.path : PATH_SYS;
	return v2_indices(p, np);
}

static int npu_ports_of(const struct inventory *inv, struct nccl_facts *f)
{
	f->npu_ports = calloc(inv->npu.n ? inv->npu.n : 1, sizeof(*f->npu_ports));
	if (!f->npu_ports)
		return -ENOMEM;
	for (size_t i = 0; i < inv->npu.n; i++) {
		const struct npu *n = &inv->npu.v[i];

		f->npu_ports[f->n_npu_ports++] = (struct nccl_npu_port){
			n->id, n->port_read ? n->port.link_up : -1,
			n->port_read ? npu_port_pfc_mask(&n->port) : -1,
		};
	}
	return 0;
}

int nccl_facts_of(const struct inventory *inv, const enum nic_role *roles,
		  const struct profile *p, struct nccl_facts *f)
{
	enum nic_role *own = NULL;
	size_t n = 0;
	int rc = 0;

	memset(f, 0, sizeof(*f));
	/* no roles given: the profile's alone, as check would give them
	 * without a site file */
	if (!roles) {
		own = calloc(inv->n_nics ? inv->n_nics : 1, sizeof(*own));
		if (!own)
			return -ENOMEM;
		roles_assign(inv, p, own);
		roles = own;
	}
	for (size_t i = 0; i < inv->n_nics; i++)
		n += inv->nics[i].n_ports;
	f->ports = calloc(n ? n : 1, sizeof(*f->ports));
	if (!f->ports) {
		free(own);
		return -ENOMEM;
	}
	for (size_t i = 0; i < inv->n_nics && rc == 0; i++)
		for (size_t k = 0; k < inv->nics[i].n_ports && rc == 0; k++)
			rc = port_of(inv, roles, i, &inv->nics[i].ports[k], &f->ports[f->n_ports++]);
	f->n_gpus = inv->n_gpus;
	for (size_t g = 0; g < inv->n_gpus; g++)
		f->rccl |= inv->gpus[g].vendor == GPU_VENDOR_AMD;
	f->gdr_ready = gdr_ready(inv, f);
	f->ascend = inv->npu.n > 0 || inv->npu.n_pci > 0;
	if (rc == 0)
		rc = npu_ports_of(inv, f);
	free(own);
	if (rc < 0)
		nccl_facts_free(f);
	return rc;
}

void nccl_facts_free(struct nccl_facts *f)
{
	free(f->npu_ports);
	for (size_t i = 0; i < f->n_ports; i++)
		free(f->ports[i].v2_ipv4_indices);
	free(f->ports);
	for (size_t i = 0; i < f->n_errors; i++)
		free(f->errors[i]);
	free(f->errors);
	memset(f, 0, sizeof(*f));
}
