/* One series per NIC (labels device, pci): what it is, its PCIe link and
 * the PCI Express settings it runs with. */
#include "families.h"

#include <math.h>

static const char *pci_of(const struct nic *n)
{
	return n->has_pci ? n->pci.bdf : NULL;
}

static void nic_info(struct expo *e, const struct inventory *inv)
{
	struct expo_fam f = { "rdmadoctor_nic_info", "gauge",
			      "RDMA device, always 1: model, driver, firmware and board in labels", false };

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];
		struct expo_label l[] = {
			{ "device", n->name }, { "pci", pci_of(n) }, { "model", n->model },
			{ "driver", n->driver }, { "fw_ver", n->fw_ver },
			{ "board_id", n->board_id }, { "hca_type", n->hca_type },
		};

		expo_fam_sample(e, &f, l, sizeof(l) / sizeof(l[0]), 1);
	}
}

/* GT/s to transfers per second, the base unit; NAN stays unknown. */
static double gts(double v)
{
	return isnan(v) ? NAN : v * 1e9;
}

enum link_value { SPEED, MAX_SPEED, WIDTH, MAX_WIDTH };

static double link_value(const struct pci_link *k, enum link_value which)
{
	switch (which) {
	case SPEED:
		return gts(k->speed_gts);
	case MAX_SPEED:
		return gts(k->max_speed_gts);
	case WIDTH:
		return metrics_known(k->width);
	case MAX_WIDTH:
		return metrics_known(k->max_width);
	}
	return NAN;
}

static void pcie_links(struct expo *e, const struct inventory *inv)
{
	static const struct {
		const char *name, *help;
		enum link_value which;
	} fams[] = {
		{ "rdmadoctor_pcie_link_speed_transfers_per_second",
		  "PCIe link speed the NIC trained at, transfers per second "
		  "(16e9 Gen4, 32e9 Gen5: GT/s times 1e9)", SPEED },
		{ "rdmadoctor_pcie_link_max_speed_transfers_per_second",
		  "PCIe link speed the NIC can train at, transfers per second", MAX_SPEED },
		{ "rdmadoctor_pcie_link_width_lanes",
		  "PCIe link width the NIC trained at, lanes", WIDTH },
		{ "rdmadoctor_pcie_link_max_width_lanes",
		  "PCIe link width the NIC can train at, lanes", MAX_WIDTH },
	};

	for (size_t k = 0; k < sizeof(fams) / sizeof(fams[0]); k++) {
		struct expo_fam f = { fams[k].name, "gauge", fams[k].help, false };

		for (size_t i = 0; i < inv->n_nics; i++) {
			const struct nic *n = &inv->nics[i];
			struct expo_label l[] = { { "device", n->name }, { "pci", pci_of(n) } };
			double v;

			if (!n->has_pci)
				continue;
			v = link_value(&n->pci.link, fams[k].which);
			if (!isnan(v))
				expo_fam_sample(e, &f, l, 2, v);
		}
	}
}

/* A setting from config space: -1 unknown (not root), and a function
 * without the PCI Express capability has none. */
static double setting(const struct pcie_settings *s, int v)
{
	return s->express == 1 && v >= 0 ? (double)v : NAN;
}

static void pcie_settings(struct expo *e, const struct inventory *inv)
{
	enum { MPS, MRRS, RLXD, EXT_TAG, ATS_ENABLE };
	static const struct {
		const char *name, *help;
		int which;
	} fams[] = {
		{ "rdmadoctor_pcie_max_payload_bytes",
		  "PCIe Max Payload Size the NIC runs with (DevCtl MaxPayload), bytes", MPS },
		{ "rdmadoctor_pcie_max_read_request_bytes",
		  "PCIe Max Read Request Size the NIC runs with (DevCtl MaxReadReq), bytes", MRRS },
		{ "rdmadoctor_pcie_relaxed_ordering_enabled",
		  "PCIe Relaxed Ordering enabled on the NIC (DevCtl RlxdOrd): 1 on, 0 off", RLXD },
		{ "rdmadoctor_pcie_ext_tag_enabled",
		  "PCIe Extended Tag enabled on the NIC (DevCtl ExtTag): 1 on, 0 off", EXT_TAG },
		{ "rdmadoctor_pcie_ats_enabled",
		  "PCIe Address Translation Services enabled on the NIC (ATSCtl Enable): 1 on, "
		  "0 off; none without the ATS capability", ATS_ENABLE },
	};

	for (size_t k = 0; k < sizeof(fams) / sizeof(fams[0]); k++) {
		struct expo_fam f = { fams[k].name, "gauge", fams[k].help, false };

		for (size_t i = 0; i < inv->n_nics; i++) {
			const struct nic *n = &inv->nics[i];
			const struct pcie_settings *s = &n->pci.pcie;
			struct expo_label l[] = { { "device", n->name }, { "pci", pci_of(n) } };
			double v = NAN;

			if (!n->has_pci)
				continue;
			switch (fams[k].which) {
			case MPS:
				v = setting(s, s->mps);
				break;
			case MRRS:
				v = setting(s, s->mrrs);
				break;
			case RLXD:
				v = setting(s, s->relaxed_ordering);
				break;
			case EXT_TAG:
				v = setting(s, s->ext_tag);
				break;
			case ATS_ENABLE:
				v = s->ats == 1 ? setting(s, s->ats_enable) : NAN;
				break;
			}
			if (!isnan(v))
				expo_fam_sample(e, &f, l, 2, v);
		}
	}
}

void metrics_nics(struct expo *e, const struct inventory *inv)
{
	nic_info(e, inv);
	pcie_links(e, inv);
	pcie_settings(e, inv);
}
