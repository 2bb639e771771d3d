/* One series per port (labels device, port, netdev, pci): state, rate,
 * MTU, the netdev on it, RoCE QoS per priority. */
#include "families.h"
#include "../model/port_state.h"

#include <math.h>
#include <stdio.h>


void port_labels_init(struct port_labels *pl, const struct nic *n, const struct port *p)
{
	snprintf(pl->num, sizeof(pl->num), "%d", p->num);
	pl->l[0] = (struct expo_label){ "device", n->name };
	pl->l[1] = (struct expo_label){ "port", pl->num };
	pl->l[2] = (struct expo_label){ "netdev", p->netdev };
	pl->l[3] = (struct expo_label){ "pci", n->has_pci ? n->pci.bdf : NULL };
}

static double port_up(const struct port *p)
{
	return IS_NA(p->state) ? NAN : p->state == PORT_STATE_ACTIVE;
}

static double port_rate(const struct port *p)
{
	return isnan(p->rate_gbps) ? NAN : p->rate_gbps * 1e9 / 8;
}

static double port_lanes(const struct port *p)
{
	return metrics_known(p->lanes);
}

static double port_active_mtu(const struct port *p)
{
	return metrics_known(p->active_mtu);
}

static double port_max_mtu(const struct port *p)
{
	return metrics_known(p->max_mtu);
}

static double netdev_mtu(const struct port *p)
{
	return p->netdev ? metrics_known(p->netdev_mtu) : NAN;
}

static double netdev_speed(const struct port *p)
{
	return p->netdev ? metrics_known(p->netdev_speed_mbps) * 1e6 / 8 : NAN;
}

static const struct port_gauge {
	const char *name, *help;
	double (*get)(const struct port *p);
} gauges[] = {
	{ "rdmadoctor_port_up", "1 when the port state is ACTIVE, else 0", port_up },
	{ "rdmadoctor_port_rate_bytes_per_second",
	  "Port rate the link trained at (sysfs rate), bytes per second "
	  "(400 Gb/s is 5e10)", port_rate },
	{ "rdmadoctor_port_lanes", "Lanes of the port's link (sysfs rate)", port_lanes },
	{ "rdmadoctor_port_active_mtu_bytes", "Active MTU of the port (verbs), bytes",
	  port_active_mtu },
	{ "rdmadoctor_port_max_mtu_bytes", "Largest MTU the port supports (verbs), bytes",
	  port_max_mtu },
	{ "rdmadoctor_netdev_mtu_bytes", "MTU of the port's network interface, bytes",
	  netdev_mtu },
	{ "rdmadoctor_netdev_speed_bytes_per_second",
	  "Speed of the port's network interface (ethtool), bytes per second", netdev_speed },
};

static void port_gauges(struct expo *e, const struct inventory *inv)
{
	for (size_t k = 0; k < sizeof(gauges) / sizeof(gauges[0]); k++) {
		struct expo_fam f = { gauges[k].name, "gauge", gauges[k].help, false };

		for (size_t i = 0; i < inv->n_nics; i++) {
			const struct nic *n = &inv->nics[i];

			for (size_t j = 0; j < n->n_ports; j++) {
				struct port_labels pl;
				double v = gauges[k].get(&n->ports[j]);

				if (isnan(v))
					continue;
				port_labels_init(&pl, n, &n->ports[j]);
				expo_fam_sample(e, &f, pl.l, PORT_LABELS, v);
			}
		}
	}
}

/* State as the kernel numbers it, its name as a label: alert on
 * rdmadoctor_port_up, read the name when it is not. */
static void port_states(struct expo *e, const struct inventory *inv, bool phys)
{
	struct expo_fam f = {
		phys ? "rdmadoctor_port_phys_state" : "rdmadoctor_port_state", "gauge",
		phys ? "Physical port state, the kernel's number (5 LinkUp); name in label phys_state"
		     : "Logical port state, the kernel's number (4 ACTIVE); name in label state", false
	};

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		for (size_t j = 0; j < n->n_ports; j++) {
			const struct port *p = &n->ports[j];
			int64_t code = phys ? p->phys_state : p->state;
			struct port_labels pl;

			if (IS_NA(code))
				continue;
			port_labels_init(&pl, n, p);
			pl.l[PORT_LABELS] = (struct expo_label){
				phys ? "phys_state" : "state",
				phys ? p->phys_state_name : p->state_name };
			expo_fam_sample(e, &f, pl.l, PORT_LABELS + 1, (double)code);
		}
	}
}

static void port_info(struct expo *e, const struct inventory *inv)
{
	struct expo_fam f = { "rdmadoctor_port_info", "gauge",
			      "RDMA port, always 1: link layer and lane speed in labels", false };

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		for (size_t j = 0; j < n->n_ports; j++) {
			struct port_labels pl;

			port_labels_init(&pl, n, &n->ports[j]);
			pl.l[PORT_LABELS] = (struct expo_label){ "link_layer",
								 n->ports[j].link_layer };
			pl.l[PORT_LABELS + 1] = (struct expo_label){ "lane_speed",
								     n->ports[j].rate_speed };
			expo_fam_sample(e, &f, pl.l, PORT_LABELS + 2, 1);
		}
	}
}

/* RoCE QoS per priority, as DCB and the ECN files report it (ports whose
 * QoS was read): one value of a port and priority, NAN when not known
 * (the pause counts themselves are written exactly, as integers). */
enum prio_value { PFC_ON, PAUSE_TX, PAUSE_RX, ECN_NP, ECN_RP };

static double prio_value(const struct qos *q, enum prio_value which, int prio)
{
	switch (which) {
	case PFC_ON:
		return q->pfc_enabled[prio] < 0 ? NAN : q->pfc_enabled[prio] > 0;
	case PAUSE_TX:
		return IS_NA(q->pause_tx[prio]) || q->pause_tx[prio] < 0 ? NAN : 0;
	case PAUSE_RX:
		return IS_NA(q->pause_rx[prio]) || q->pause_rx[prio] < 0 ? NAN : 0;
	case ECN_NP:
		return q->ecn_np[prio] < 0 ? NAN : q->ecn_np[prio] > 0;
	case ECN_RP:
		return q->ecn_rp[prio] < 0 ? NAN : q->ecn_rp[prio] > 0;
	}
	return NAN;
}

static void port_prio(struct expo *e, const struct inventory *inv)
{
	static const struct {
		const char *name, *type, *help;
		enum prio_value which;
	} fams[] = {
		{ "rdmadoctor_port_pfc_enabled", "gauge",
		  "1 when priority flow control is on for the priority (DCB), else 0", PFC_ON },
		{ "rdmadoctor_port_pfc_pause_frames_sent_total", "counter",
		  "PFC pause frames the port sent for the priority", PAUSE_TX },
		{ "rdmadoctor_port_pfc_pause_frames_received_total", "counter",
		  "PFC pause frames the port received for the priority", PAUSE_RX },
		{ "rdmadoctor_port_ecn_np_enabled", "gauge",
		  "1 when ECN is on for the priority as notification point (marks CNPs), "
		  "else 0", ECN_NP },
		{ "rdmadoctor_port_ecn_rp_enabled", "gauge",
		  "1 when ECN is on for the priority as reaction point (slows down on "
		  "CNPs), else 0", ECN_RP },
	};

	for (size_t k = 0; k < sizeof(fams) / sizeof(fams[0]); k++) {
		struct expo_fam f = { fams[k].name, fams[k].type, fams[k].help, false };

		for (size_t i = 0; i < inv->n_nics; i++) {
			const struct nic *n = &inv->nics[i];

			for (size_t j = 0; j < n->n_ports; j++) {
				const struct qos *q = n->ports[j].qos;
				struct port_labels pl;

				if (!q)
					continue;
				port_labels_init(&pl, n, &n->ports[j]);
				for (int prio = 0; prio < 8; prio++) {
					char num[2] = { (char)('0' + prio), '\0' };
					double v = prio_value(q, fams[k].which, prio);

					if (isnan(v))
						continue;
					pl.l[PORT_LABELS] = (struct expo_label){ "priority", num };
					if (fams[k].which == PAUSE_TX || fams[k].which == PAUSE_RX)
						/* counts: exact past 2^53 */
						expo_fam_sample_u64(e, &f, pl.l, PORT_LABELS + 1,
							(uint64_t)(fams[k].which == PAUSE_TX ?
								   q->pause_tx[prio] :
								   q->pause_rx[prio]));
					else
						expo_fam_sample(e, &f, pl.l, PORT_LABELS + 1, v);
				}
			}
		}
	}
}

/* How the port classifies RoCE traffic (DCB): "dscp" or "pcp". */
static void port_trust(struct expo *e, const struct inventory *inv)
{
	struct expo_fam f = { "rdmadoctor_port_qos_info", "gauge",
			      "RoCE QoS of the port, always 1: the trust mode (dscp or pcp) "
			      "in a label", false };

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		for (size_t j = 0; j < n->n_ports; j++) {
			const struct qos *q = n->ports[j].qos;
			struct port_labels pl;

			if (!q || !q->trust)
				continue;
			port_labels_init(&pl, n, &n->ports[j]);
			pl.l[PORT_LABELS] = (struct expo_label){ "trust", q->trust };
			expo_fam_sample(e, &f, pl.l, PORT_LABELS + 1, 1);
		}
	}
}

void metrics_ports(struct expo *e, const struct inventory *inv)
{
	port_info(e, inv);
	port_states(e, inv, false);
	port_states(e, inv, true);
	port_gauges(e, inv);
	port_trust(e, inv);
	port_prio(e, inv);
}
