/* Ascend NPU ports (docs/ascend.md): one series per NPU, labels npu (the
 * id hccn_tool takes) and pci.  What is not known is left out. */
#include "families.h"

#include <stdio.h>
#include <strings.h>

struct npu_labels {
	struct expo_label l[4];
	char id[24], lane[12];
};

static void labels_init(struct npu_labels *nl, const struct npu *n)
{
	snprintf(nl->id, sizeof(nl->id), "%lld", (long long)n->id);
	nl->l[0] = (struct expo_label){ "npu", nl->id };
	nl->l[1] = (struct expo_label){ "pci", n->pci ? n->pci->bdf : NULL };
}

static double port_up(const struct npu *n)
{
	return n->port.link_up < 0 ? NAN : n->port.link_up;
}

static double speed(const struct npu *n)
{
	return metrics_known(n->port.speed_mbps) * 1e6 / 8;
}

static double health_ok(const struct npu *n)
{
	const char *h = n->port.net_health;

	return !h ? NAN : strcasecmp(h, "Success") == 0 || strcasecmp(h, "Init") == 0;
}

static double link_ups(const struct npu *n)
{
	return metrics_known(n->port.link_up_count);
}

static double downs_24h(const struct npu *n)
{
	return metrics_known(n->port.link_downs_24h);
}

static double temperature(const struct npu *n)
{
	return n->port.optical ? n->port.optical->temp_c : NAN;
}

static double chip_temperature(const struct npu *n)
{
	return n->temp_c;
}

static double power(const struct npu *n)
{
	return n->power_w;
}

static double unread(const struct npu *n)
{
	return (double)n->n_failures;
}

static const struct npu_gauge {
	const char *name, *help;
	double (*get)(const struct npu *n);
} gauges[] = {
	{ "rdmadoctor_npu_port_up", "1 when the NPU port's link status is UP, else 0", port_up },
	{ "rdmadoctor_npu_port_speed_bytes_per_second",
	  "NPU port speed (hccn_tool -speed), bytes per second", speed },
	{ "rdmadoctor_npu_net_health_ok",
	  "1 when the NPU's net health is Success or Init, else 0; the status in "
	  "rdmadoctor_npu_info", health_ok },
	{ "rdmadoctor_npu_link_ups", "Link-up count of the NPU port (hccn_tool -link_stat)",
	  link_ups },
	{ "rdmadoctor_npu_link_downs_24h",
	  "Link downs of the NPU port in the 24 h before the tool's current time", downs_24h },
	{ "rdmadoctor_npu_module_temperature_celsius",
	  "Temperature of the NPU port's transceiver", temperature },
	{ "rdmadoctor_npu_temperature_celsius", "Temperature of the NPU chip (npu-smi info)",
	  chip_temperature },
	{ "rdmadoctor_npu_power_watts",
	  "Power of the NPU (npu-smi info; on a two-die NPU given on its first die)", power },
	{ "rdmadoctor_npu_unread_calls", "hccn_tool / npu-smi calls for this NPU that did not "
	  "answer", unread },
};

static void lanes(struct expo *e, const struct inventory *inv, bool rx)
{
	struct expo_fam f = {
		rx ? "rdmadoctor_npu_module_rx_power_watts" : "rdmadoctor_npu_module_tx_power_watts",
		"gauge", rx ? "Received optical power per lane of the NPU port's transceiver, watts"
			    : "Transmitted optical power per lane of the NPU port's transceiver, watts",
		false
	};

	for (size_t i = 0; i < inv->npu.n; i++) {
		const struct npu *n = &inv->npu.v[i];
		const struct npu_optical *o = n->port.optical;

		for (int k = 0; o && k < o->n_lanes && k < NPU_LANES; k++) {
			struct npu_labels nl;
			double mw = rx ? o->rx_mw[k] : o->tx_mw[k];

			if (isnan(mw))
				continue;
			labels_init(&nl, n);
			/* from 1, as the NIC modules' lane label (module_metrics.c) */
			snprintf(nl.lane, sizeof(nl.lane), "%d", k + 1);
			nl.l[2] = (struct expo_label){ "lane", nl.lane };
			expo_fam_sample(e, &f, nl.l, 3, mw / 1000);
		}
	}
}

static void counters(struct expo *e, const struct inventory *inv)
{
	struct expo_fam f = { "rdmadoctor_npu_stat_total", "counter",
			      "NPU port packet statistics (hccn_tool -stat), by name", false };

	for (size_t i = 0; i < inv->npu.n; i++) {
		const struct npu *n = &inv->npu.v[i];

		for (size_t k = 0; n->port.stat && k < n->port.stat->n; k++) {
			struct npu_labels nl;

			labels_init(&nl, n);
			nl.l[2] = (struct expo_label){ "name", n->port.stat->v[k].name };
			expo_fam_sample_u64(e, &f, nl.l, 3, n->port.stat->v[k].value);
		}
	}
}

static void info(struct expo *e, const struct inventory *inv)
{
	struct expo_fam f = { "rdmadoctor_npu_info", "gauge",
			      "Ascend NPU, always 1: model, firmware, net health, address in labels",
			      false };

	for (size_t i = 0; i < inv->npu.n; i++) {
		const struct npu *n = &inv->npu.v[i];
		struct expo_label l[7];
		struct npu_labels nl;

		labels_init(&nl, n);
		l[0] = nl.l[0];
		l[1] = nl.l[1];
		l[2] = (struct expo_label){ "model", n->model };
		l[3] = (struct expo_label){ "firmware", n->fw_version };
		l[4] = (struct expo_label){ "net_health", n->port.net_health };
		l[5] = (struct expo_label){ "ipaddr", n->port.ipaddr };
		l[6] = (struct expo_label){ "fec", n->port.fec_mode };
		expo_fam_sample(e, &f, l, 7, 1);
	}
}

/* npu-smi's health: 1 OK, else 0, the status itself in a label so that an
 * alert can tell Warning from Critical; an NPU whose health was not read
 * has no sample (unknown is not 0 and not 1). */
static void health(struct expo *e, const struct inventory *inv)
{
	struct expo_fam f = { "rdmadoctor_npu_health_ok", "gauge",
			      "1 when npu-smi's health of the NPU is OK, else 0; status label: "
			      "OK, Warning, Alarm, Critical, UNKNOWN", false };

	for (size_t i = 0; i < inv->npu.n; i++) {
		const struct npu *n = &inv->npu.v[i];
		struct npu_labels nl;

		if (!n->health)
			continue;
		labels_init(&nl, n);
		nl.l[2] = (struct expo_label){ "status", n->health };
		expo_fam_sample(e, &f, nl.l, 3, strcasecmp(n->health, "OK") == 0);
	}
}

void metrics_npus(struct expo *e, const struct inventory *inv)
{
	info(e, inv);
	health(e, inv);
	for (size_t k = 0; k < sizeof(gauges) / sizeof(gauges[0]); k++) {
		struct expo_fam f = { gauges[k].name, "gauge", gauges[k].help, false };

		for (size_t i = 0; i < inv->npu.n; i++) {
			struct npu_labels nl;
			double v = gauges[k].get(&inv->npu.v[i]);

			if (isnan(v))
				continue;
			labels_init(&nl, &inv->npu.v[i]);
			expo_fam_sample(e, &f, nl.l, 2, v);
		}
	}
	lanes(e, inv, true);
	lanes(e, inv, false);
	counters(e, inv);
}
