#include "bandwidth.h"

#include <math.h>
#include <string.h>

/* Payload share of the wire at MTU mtu: RDMA WRITE middle packets carry
 * 26 bytes of IB headers (LRH, BTH, ICRC, VCRC), or 82 bytes of RoCEv2
 * over IPv4 counting Ethernet framing, preamble and gap. */
static double payload_share(bool ib, int mtu)
{
	double m = mtu > 0 ? mtu : 4096;

	return m / (m + (ib ? 26.0 : 82.0));
}

/* What NCCL's two-node bus bandwidth reaches per NIC, as a share of the
 * rate, where its maintainers have quoted a figure: 12 GB/s on 100G,
 * 24 GB/s on 200G, 46-48 GB/s on 400G. */
static double nccl_share(double rate_gbps)
{
	if (fabs(rate_gbps - 100) < 1)
		return 12.0 / 12.5;
	if (fabs(rate_gbps - 200) < 1)
		return 24.0 / 25.0;
	if (fabs(rate_gbps - 400) < 1)
		return 47.0 / 50.0;
	return 1;
}

double plan_port_efficiency(bool ib, int mtu, double rate_gbps)
{
	double a = payload_share(ib, mtu), b = nccl_share(rate_gbps);

	return a < b ? a : b;
}

static bool same_card(const struct plan_port *a, const struct plan_port *b)
{
	if (!a->card[0] || !b->card[0])
		return a == b;
	return strcmp(a->card, b->card) == 0;
}

void plan_bandwidth(const struct plan_machine *m, struct plan_result *r)
{
	double nominal = 0, line = 0, expected = 0, lost_pcie = 0, lost_measured = 0;
	const struct plan_port *pcie_port = NULL, *measured_port = NULL;

	r->measured = false;
	for (size_t i = 0; i < m->n_ports; i++) {
		const struct plan_port *p = &m->ports[i];
		double card_line = 0, card_exp = 0, cap = NAN;
		bool first = true;

		for (size_t k = 0; k < i; k++)
			if (same_card(&m->ports[k], p))
				first = false;
		if (!first)
			continue;	/* this card was summed at its first port */
		for (size_t k = i; k < m->n_ports; k++) {
			const struct plan_port *q = &m->ports[k];
			double rate = q->rate_gbps > 0 ? q->rate_gbps : 0;
			double l = rate, e = rate * plan_port_efficiency(q->ib, q->mtu, rate);

			if (!same_card(q, p))
				continue;
			if (!isnan(q->measured_gbps) && q->measured_gbps >= 0) {
				r->measured = true;
				if (q->measured_gbps < l) {
					lost_measured += (l - q->measured_gbps) / 8;
					if (!measured_port)
						measured_port = q;
					l = q->measured_gbps;
				}
				if (q->measured_gbps < e)
					e = q->measured_gbps;
			}
			nominal += rate / 8;
			card_line += l / 8;
			card_exp += e / 8;
			if (!isnan(q->pcie_gbytes))
				cap = isnan(cap) || q->pcie_gbytes < cap ? q->pcie_gbytes : cap;
		}
		if (!isnan(cap) && card_line > cap) {
			lost_pcie += card_line - cap;
			if (!pcie_port)
				pcie_port = p;
			card_line = cap;
		}
		if (!isnan(cap) && card_exp > cap)
			card_exp = cap;
		line += card_line;
		expected += card_exp;
	}
	r->per_gpu_nominal = nominal / m->gpus_per_node;
	r->per_gpu_line = line / m->gpus_per_node;
	r->per_gpu_expected = expected / m->gpus_per_node;
	r->capped_by = PLAN_CAP_PORTS;
	r->cap_port = NULL;
	if (lost_pcie > 0 && lost_pcie >= lost_measured) {
		r->capped_by = PLAN_CAP_PCIE;
		r->cap_port = pcie_port;
	} else if (lost_measured > 0) {
		r->capped_by = PLAN_CAP_MEASURED;
		r->cap_port = measured_port;
	}
}
