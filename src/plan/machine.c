#include "machine.h"
#include "../check/run.h"
#include "../check/families.h"
#include "../model/pcie_link.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *why, size_t len, const char *msg)
{
	snprintf(why, len, "%s", msg);
	return -1;
}

/* The RDMA MTU a RoCE netdev MTU allows: the largest IB MTU that fits
 * after 96 bytes of headers (the kernel's rule). */
static int roce_mtu(int netdev_mtu)
{
	int m = 4096;

	while (m > 256 && m > netdev_mtu - 96)
		m /= 2;
	return m;
}

int plan_machine_from_profile(const struct profile *p, int gpus, struct plan_machine *m,
			      char *why, size_t len)
{
	const struct role_spec *rs = &p->role[ROLE_RAIL];
	bool ib = rs->link_layer && strcmp(rs->link_layer, "InfiniBand") == 0;
	double usable = NAN;

	memset(m, 0, sizeof(*m));
	if (!rs->defined || rs->count <= 0 || rs->rate_gbps <= 0)
		return fail(why, len, "the profile does not say how many rail NICs of what "
			    "rate the machine has ([rail] count and rate_gbps)");
	m->gpus_per_node = gpus > 0 ? gpus : p->match_gpu_count > 0 ? p->match_gpu_count :
				  rs->gpus_per_nic > 0 ? rs->count * rs->gpus_per_nic : 0;
	if (m->gpus_per_node <= 0)
		return fail(why, len, "the profile does not say how many GPUs the machine "
			    "has: give --gpus-per-node N");
	m->ports = calloc((size_t)rs->count, sizeof(*m->ports));
	if (!m->ports)
		return fail(why, len, "out of memory");
	if (rs->pcie_gen > 0 && rs->pcie_width > 0 && !isnan(pcie_gen_gts(rs->pcie_gen)))
		usable = pcie_usable_gbytes(pcie_gen_gts(rs->pcie_gen), rs->pcie_width);
	m->n_ports = (size_t)rs->count;
	for (size_t i = 0; i < m->n_ports; i++) {
		struct plan_port *pt = &m->ports[i];

		snprintf(pt->nic, sizeof(pt->nic), "rail %zu", i + 1);
		pt->port = 1;
		pt->rate_gbps = rs->rate_gbps;
		pt->measured_gbps = NAN;
		pt->ib = ib;
		pt->mtu = ib ? (rs->mtu > 0 ? rs->mtu : 4096) :
			       (rs->mtu > 0 ? roce_mtu(rs->mtu) : 4096);
		pt->pcie_gbytes = pt->slot_gbytes = usable;
		if (!isnan(usable))
			snprintf(pt->pcie_link, sizeof(pt->pcie_link), "Gen%d x%d", rs->pcie_gen,
				 rs->pcie_width);
	}
	m->gpudirect = rs->gpudirect;
	return 0;
}

static void card_of(char *buf, size_t len, const char *bdf)
{
	const char *dot = bdf ? strrchr(bdf, '.') : NULL;

	buf[0] = '\0';
	if (dot)
		snprintf(buf, len, "%.*s", (int)(dot - bdf), bdf);
}

static void port_from(const struct nic *n, const struct port *pt, struct plan_port *out)
{
	const struct pci_func *f = &n->pci;
	const struct pci_func *partner = f->n_upstream ? &f->upstream[f->n_upstream - 1] : NULL;
	struct pci_link reach = pcie_link_reachable(f, partner);

	/* names from a recorded document may be anything: keep what a device
	 * name can hold, so text and JSON stay plain */
	snprintf(out->nic, sizeof(out->nic), "%s", n->name ? n->name : "?");
	for (char *ch = out->nic; *ch; ch++)
		if (!isalnum((unsigned char)*ch) && !strchr("_-.:", *ch))
			*ch = '?';
	out->port = pt->num;
	out->rate_gbps = pt->rate_gbps;
	out->measured_gbps = NAN;
	out->ib = check_port_is_ib(pt);
	out->mtu = !IS_NA(pt->active_mtu) && pt->active_mtu > 0 && pt->active_mtu <= 65536 ?
			   (int)pt->active_mtu : 0;
	out->pcie_gbytes = out->slot_gbytes = NAN;
	if (!n->has_pci)
		return;
	card_of(out->card, sizeof(out->card), f->bdf);
	if (!isnan(f->link.speed_gts) && !IS_NA(f->link.width) && f->link.width > 0 &&
	    f->link.width <= 32) {
		out->pcie_gbytes = pcie_usable_gbytes(f->link.speed_gts, (int)f->link.width);
		check_link_str(out->pcie_link, sizeof(out->pcie_link), f->link.speed_gts,
			  f->link.width);
	}
	if (!isnan(reach.max_speed_gts) && !IS_NA(reach.max_width) && reach.max_width > 0 &&
	    reach.max_width <= 32)
		out->slot_gbytes = pcie_usable_gbytes(reach.max_speed_gts, (int)reach.max_width);
	if (out->pcie_gbytes <= 0)
		out->pcie_gbytes = NAN;
	if (out->slot_gbytes <= 0)
		out->slot_gbytes = NAN;
}

static int gpudirect_of(const struct inventory *inv)
{
	if (inv->host.modules[MOD_NVIDIA_PEERMEM].loaded ||
	    inv->host.modules[MOD_NV_PEER_MEM].loaded)
		return 1;
	for (size_t i = 0; i < inv->n_gpus; i++)
		if (inv->gpus[i].kind == GPU_GEFORCE)
			return 0;	/* no GPUDirect RDMA on GeForce cards */
	return -1;	/* dma-buf may give it without a peer-memory module */
}

int plan_machine_from_inventory(const struct inventory *inv, const struct profile *p,
				const struct site *site,
				int gpus, struct plan_machine *m, char *why, size_t len)
{
	enum nic_role *roles = calloc(inv->n_nics ? inv->n_nics : 1, sizeof(*roles));
	size_t n = 0;

	memset(m, 0, sizeof(*m));
	if (!roles)
		return fail(why, len, "out of memory");
	/* the rails check would count: the site file names those the PCI tree
	 * cannot tell (NULL: no site file) */
	check_roles(inv, p, site, roles);
	for (size_t i = 0; i < inv->n_nics; i++)
		if (roles[i] == ROLE_RAIL && !check_nic_is_software(&inv->nics[i]))
			n += inv->nics[i].n_ports;
	m->ports = calloc(n ? n : 1, sizeof(*m->ports));
	if (!m->ports) {
		free(roles);
		return fail(why, len, "out of memory");
	}
	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *nic = &inv->nics[i];

		if (roles[i] != ROLE_RAIL || check_nic_is_software(nic))
			continue;
		for (size_t k = 0; k < nic->n_ports; k++) {
			const struct port *pt = &nic->ports[k];

			if (!port_is_up(pt) || isnan(pt->rate_gbps) || pt->rate_gbps <= 0) {
				m->ports_down++;
				continue;
			}
			port_from(nic, pt, &m->ports[m->n_ports++]);
		}
	}
	free(roles);
	m->gpus_per_node = gpus > 0 ? gpus : (int)inv->n_gpus;
	m->gpudirect = gpudirect_of(inv);
	if (!m->n_ports) {
		plan_machine_free(m);
		return fail(why, len, "no rail port is up on this machine: nothing to plan "
			    "with (try --profile NAME for the machine it should be)");
	}
	if (m->gpus_per_node <= 0) {
		plan_machine_free(m);
		return fail(why, len, "no GPUs found: give --gpus-per-node N");
	}
	return 0;
}

void plan_machine_free(struct plan_machine *m)
{
	free(m->ports);
	m->ports = NULL;
	m->n_ports = 0;
}
