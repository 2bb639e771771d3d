#include "text.h"
#include "../check/run.h"
#include "tint.h"
#include "../model/module_info.h"
#include "../model/link_modes.h"
#include "../model/gid_choice.h"
#include "../model/neighbor.h"
#include "../model/pcie_link.h"
#include "text_printf.h"
#include "access_out.h"
#include "text_wrap.h"
#include "plural.h"
#include "../model/port_guid.h"
#include "../model/port_state.h"
#include "../model/window.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#define OR_NA(s) ((s) ? (s) : "?")
/* ACS P2P request and completion redirect (PCIe ACS control bits 2 and 3) */
#define ACS_REDIRECT 0x000c


/* "  verbs libibverbs.so.1.14.44.0 (rdma-core 44.0) IBVERBS_1.14, 17 providers"
 * "  verbs ABI private 34, kernel uverbs 6, umad 5" */
static void verbs_user_text(FILE *out, const struct verbs_user *u)
{
	if (!u)
		return;
	fputs("  verbs ", out);
	if (!u->library)
		fputs("no libibverbs on the host", out);
	else if (u->why)
		text_printf(out, "%s (not read: %s)", u->library, u->why);
	else
		text_printf(out, "%s (rdma-core %s) IBVERBS_1.%d, %zu provider%s",
			    u->library, OR_NA(u->release), u->verbs_minor,
			    u->n_providers, u->n_providers == 1 ? "" : "s");
	fputs("\n  verbs ABI", out);
	if (u->library && !u->why)
		text_printf(out, " private %d,", u->pabi);
	fputs(" kernel uverbs ", out);
	if (u->uverbs_abi >= 0)
		text_printf(out, "%d", u->uverbs_abi);
	else
		fputs("?", out);
	fputs(", umad ", out);
	if (u->umad_abi >= 0)
		text_printf(out, "%d", u->umad_abi);
	else
		fputs("?", out);
	fputc('\n', out);
}
/* "  driver mlx5_core kernel/drivers/.../mlx5_core.ko (inbox), ib_core ...; next kernel 6.1.0-58-amd64" */
static void drv_stack_text(FILE *out, const struct drv_stack *s)
{
	bool any = false;

	if (!s)
		return;
	fputs("  driver", out);
	for (size_t i = 0; i < DRV_COUNT; i++) {
		const struct drv_module *m = &s->mods[i];

		if (!m->loaded)
			continue;
		text_printf(out, "%s %s", any ? "," : "", m->name);
		if (m->path)
			text_printf(out, " %s (%s)", m->path, drv_source_name(m->source));
		else if (s->dep_known)
			fputs(" (no file)", out);
		any = true;
	}
	if (!any)
		fputs(" no RDMA module loaded", out);
	if (any && !s->dep_known)
		text_printf(out, "; files not read (%s)", OR_NA(s->dep_why));
	if (s->next_kernel)
		text_printf(out, "; next kernel %s", s->next_kernel);
	fputc('\n', out);
}

static void print_host(FILE *out, const struct host *h)
{
	text_printf(out, "host %s  kernel %s  product %s\n", OR_NA(h->hostname),
		    OR_NA(h->kernel), OR_NA(h->dmi_product));
	fputs("  memlock ", out);
	if (h->memlock_unlimited == 1)
		fputs("unlimited", out);
	else if (!IS_NA(h->memlock_bytes))
		text_printf(out, "%lld bytes", (long long)h->memlock_bytes);
	else
		fputs("?", out);
	text_printf(out, "  iommu %s", h->iommu_present < 0 ? "?" : h->iommu_present ? "on" : "off");
	if (h->iommu_domain)
		text_printf(out, " (%s)", h->iommu_domain);
	text_printf(out, "  stack %s", OR_NA(h->stack));
	if (h->ofed_version)
		text_printf(out, " %s", h->ofed_version);
	if (h->nvidia_driver)
		text_printf(out, "  nvidia %s", h->nvidia_driver);
	if (h->nvidia_open >= 0)
		text_printf(out, h->nvidia_driver ? " (%s)" : "  nvidia (%s)",
			    h->nvidia_open ? "open" : "proprietary");
	fputs("\n  modules", out);
	if (!h->modules_known)
		fputs(" ? (no /proc/modules, no /sys/module)", out);
	for (int i = 0; i < MOD_COUNT; i++)
		if (h->modules[i].loaded)
			text_printf(out, " %s", h->modules[i].name);
	fputc('\n', out);
	verbs_user_text(out, h->verbs_user);
	drv_stack_text(out, h->drv_stack);
}

/* "prio 3", "prio 0,3", "all", "off" or "?": where a flag is on. */
static void print_prios(FILE *out, const char *what, const int v[8])
{
	bool known = false, any = false, all = true;

	for (int i = 0; i < 8; i++) {
		known |= v[i] >= 0;
		all &= v[i] == 1;
	}
	text_printf(out, " %s ", what);
	if (!known || all) {
		fputs(all ? "all" : "?", out);
		return;
	}
	for (int i = 0; i < 8; i++) {
		if (v[i] != 1)
			continue;
		text_printf(out, "%s%d", any ? "," : "prio ", i);
		any = true;
	}
	if (!any)
		fputs("off", out);
}

/* "module QSFP112 NVIDIA MMA1Z00-NS400 SN MT2312FT01234 45.2 C rx -2.1..-1.8 dBm" */
static void print_module(FILE *out, const char *ind, const struct module_info *m)
{
	double lo = NAN, hi = NAN;

	text_printf(out, "%smodule %s", ind, m->type ? m->type : "unknown");
	if (m->vendor[0])
		text_printf(out, " %s", m->vendor);
	if (m->part[0])
		text_printf(out, " %s", m->part);
	if (m->serial[0])
		text_printf(out, " SN %s", m->serial);
	if (!isnan(m->temp_c))
		text_printf(out, " %.1f C", m->temp_c);
	for (int i = 0; i < m->lanes && i < MODULE_MAX_LANES; i++) {
		double v = m->rx_power_mw[i];

		if (isnan(v) || v <= 0)
			continue;
		v = 10 * log10(v);
		if (isnan(lo) || v < lo)
			lo = v;
		if (isnan(hi) || v > hi)
			hi = v;
	}
	if (!isnan(lo))
		text_printf(out, " rx %.1f..%.1f dBm", lo, hi);
	fputc('\n', out);
	/* what it is built for: "built for 400GAUI-8 C2M / 400GBASE-DR4 (400G)";
	 * an SFP's codes are not decoded, and say nothing */
	if (m->apps.known && m->apps.n == 0) {
		text_printf(out, "%s  built for: none stated\n", ind);
	} else if (m->apps.known) {
		for (size_t i = 0; i < m->apps.n && i < MODULE_MAX_APPS; i++)
			text_printf(out, "%s  %s %s%s%s%s\n", ind, i ? "         " : "built for",
				    m->apps.app[i].name, m->apps.app[i].kind[0] ? " (" : "",
				    m->apps.app[i].kind, m->apps.app[i].kind[0] ? ")" : "");
	} else if (m->spec == MODULE_SPEC_SFF8636 || m->spec == MODULE_SPEC_CMIS) {
		text_printf(out, "%s  built for: ? (compliance codes not read)\n", ind);
	}
}

/* The speed modes of a set ("400000baseSR4/Full ..."): what a link can
 * run at, without the port-type, pause and FEC bits. */
static void print_speed_modes(FILE *out, const char *label, const uint32_t *set)
{
	bool any = false;

	for (unsigned b = 0; b < LINK_MODE_BITS; b++) {
		const char *name = link_mode_name(b);

		if (!link_mode_has(set, b) || !name || !strstr(name, "base"))
			continue;
		text_printf(out, "%s %s", any ? "" : label, name);
		any = true;
	}
	if (!any)
		text_printf(out, "%s none", label);
}

/* "fec stats corrected_blocks 812345, uncorrectable_blocks 0, corrected_bits
 * 1034567 (lanes 1 2 3 4)" and one line per histogram bin: lifetime counts
 * (`watch` and `check --window` judge their growth) */
static void fec_stats_lines(FILE *out, const char *ind, const struct fec_stats *s)
{
	bool first = true;

	if (s->have != 1 || !fec_stats_any(s))
		return;
	text_printf(out, "%sfec stats", ind);
	for (int k = 0; k < FEC_COUNTERS; k++) {
		const struct fec_count *c = &s->c[k];

		if (!c->n)
			continue;
		text_printf(out, "%s %s %llu", first ? "" : ",", fec_counter_name(k),
			    (unsigned long long)c->v[0]);
		first = false;
		for (size_t i = 1; i < c->n; i++)
			text_printf(out, "%s%llu%s", i == 1 ? " (lanes " : " ",
				    (unsigned long long)c->v[i], i + 1 == c->n ? ")" : "");
	}
	fputc('\n', out);
	for (size_t i = 0; i < s->n_hist; i++)
		text_printf(out, "%s  %u to %u symbols corrected: %llu codewords\n", ind,
			    s->hist[i].low, s->hist[i].high, (unsigned long long)s->hist[i].val);
}

/* "link 400000 Mb/s full 4 lanes autoneg on fec RS (auto)" and the modes */
static void link_lines(FILE *out, const char *ind, const struct link_info *l)
{
	text_printf(out, "%slink", ind);
	if (l->linkmodes == 0)
		fputs(" modes not supported", out);
	if (!IS_NA(l->speed_mbps))
		text_printf(out, " %lld Mb/s", (long long)l->speed_mbps);
	if (l->duplex >= 0)
		text_printf(out, " %s", l->duplex ? "full" : "half");
	if (!IS_NA(l->lanes))
		text_printf(out, " %lld %s", (long long)l->lanes,
			plural((unsigned long long)l->lanes, "lane", "lanes"));
	if (l->autoneg >= 0)
		text_printf(out, " autoneg %s", l->autoneg ? "on" : "off");
	if (l->fec == 0)
		fputs(" fec not supported", out);
	if (l->fec == 1) {
		const char *active = link_fec_name(l->fec_active);
		bool any = false;

		text_printf(out, " fec %s (configured", active ? active : "?");
		if (l->fec_auto == 1) {
			fputs(" auto", out);
			any = true;
		}
		for (int b = 0; b < (int)LINK_MODE_BITS; b++)
			if (link_fec_name(b) && link_mode_has(l->fec_configured, (unsigned)b)) {
				text_printf(out, " %s", link_fec_name(b));
				any = true;
			}
		text_printf(out, "%s)", any ? "" : " none");
	}
	fputc('\n', out);
	fec_stats_lines(out, ind, &l->fec_stats);
	if (l->has_modes) {
		fputs(ind, out);
		print_speed_modes(out, "advertised", l->advertised);
		fputc('\n', out);
	}
	if (l->has_peer) {
		fputs(ind, out);
		print_speed_modes(out, "partner", l->peer);
		fputc('\n', out);
	}
}

void text_link(FILE *out, const struct link_info *l)
{
	link_lines(out, "      ", l);
}

static void print_qos(FILE *out, const char *ind, const struct qos *q)
{
	text_printf(out, "%secn", ind);
	print_prios(out, "np", q->ecn_np);
	print_prios(out, " rp", q->ecn_rp);
	fputc('\n', out);
	if (q->dcb_supported == 0)
		text_printf(out, "%sdcb not supported\n", ind);
	if (q->dcb_supported < 0)	/* no answer: unknown, said so, not left out */
		text_printf(out, "%sdcb ?\n", ind);
	if (q->dcb_supported == 1) {
		text_printf(out, "%sdcb trust %s", ind, q->trust ? q->trust : "?");
		print_prios(out, "pfc", q->pfc_enabled);
		if (q->dscp_to_prio[26] >= 0)
			text_printf(out, " dscp 26->prio %d", q->dscp_to_prio[26]);
		fputc('\n', out);
	}
}

/* "100 Gb/s (4X EDR)": the parenthesis holds what is known of lanes and
 * speed, and is left out when neither is. */
static void print_rate(FILE *out, const struct port *p)
{
	bool lanes = !IS_NA(p->lanes) && p->lanes > 0;
	bool speed = p->rate_speed && *p->rate_speed;

	text_printf(out, "%g Gb/s", p->rate_gbps);
	if (lanes && speed)
		text_printf(out, " (%lldX %s)", (long long)p->lanes, p->rate_speed);
	else if (lanes)
		text_printf(out, " (%lldX)", (long long)p->lanes);
	else if (speed)
		text_printf(out, " (%s)", p->rate_speed);
}

/* " node guid 0x98039b0300a3c3a6": the kernel's "9803:9b03:00a3:c3a6"
 * (checked by the reader) as ibstat writes it; "?" when not read. */
static void print_guid(FILE *out, const char *label, const char *text)
{
	fprintf(out, "  %s ", label);
	if (!text) {
		fputc('?', out);
		return;
	}
	fputs("0x", out);
	for (const char *s = text; *s; s++)
		if (isxdigit((unsigned char)*s))
			fputc(*s, out);
}

/* "      lid 1  sm lid 1  port guid 0x98039b0300a3c3a6": what ibstat shows
 * of an InfiniBand port first (LIDs in decimal, as its "Base lid"). */
static void print_ib_ids(FILE *out, const struct port *p)
{
	uint64_t guid;

	fputs("      lid ", out);
	if (IS_NA(p->lid))
		fputc('?', out);
	else
		fprintf(out, "%lld", (long long)p->lid);
	fputs("  sm lid ", out);
	if (IS_NA(p->sm_lid))
		fputc('?', out);
	else
		fprintf(out, "%lld", (long long)p->sm_lid);
	if (port_guid(p, &guid))
		fprintf(out, "  port guid 0x%016" PRIx64, guid);
	else
		fputs("  port guid ?", out);
	fputc('\n', out);
}

/* "ACTIVE/LinkUp": red when the port is down, yellow when its state is
 * not known. */
static void print_state(FILE *out, const struct port *p, const struct text_opts *o)
{
	enum port_link l = port_link(p);

	if (l != PORT_LINK_UP)
		tint_on(out, o, l == PORT_LINK_DOWN ? TINT_BAD : TINT_DOUBT);
	fprintf(out, "%s/%s", OR_NA(p->state_name), OR_NA(p->phys_state_name));
	if (l != PORT_LINK_UP)
		tint_off(out, o);
}

/* "neighbor leaf-r0 port Ethernet1 chassis 52:c3:40:da:bd:84 (lldpd)", or
 * "neighbor not checked: why"; nothing when no reader asked. */
static void print_neighbor(FILE *out, const struct port *p)
{
	const struct neighbor *n = p->neighbor;

	if (!n) {
		if (p->neighbor_why)
			text_printf(out, "      neighbor not checked: %s\n", p->neighbor_why);
		return;
	}
	fputs("      neighbor", out);
	if (n->system)
		text_printf(out, " %s", n->system);
	if (n->port)
		text_printf(out, " port %s", n->port);
	if (n->chassis_id)
		text_printf(out, " chassis %s", n->chassis_id);
	text_printf(out, " (%s)\n", n->source ? n->source : "?");
}

/* One line of the counters counters.errors judges (check_counter_is_listed:
 * its table), PMA, hw_counters and the PHY's, those not 0: the retries
 * (check_counter_is_retry) or the others; nothing when all are 0. */
static void print_error_line(FILE *out, const char *driver, const struct port *p,
			     const char *label, bool retries)
{
	const struct counter_set *sets[] = { &p->counters, &p->hw_counters, &p->eth_stats };
	const int kind[] = { WIN_PMA, WIN_HW, WIN_ETH };
	bool first = true;

	for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++)
		for (size_t i = 0; i < sets[s]->n; i++) {
			const struct counter *c = &sets[s]->v[i];

			if (!c->ok || !c->value || !c->name ||
			    !check_counter_is_listed(driver, c->name, kind[s]) ||
			    check_counter_is_retry(driver, c->name, kind[s]) != retries)
				continue;
			text_printf(out, "%s%s%s %llu", first ? label : ", ",
				    kind[s] == WIN_ETH ? "ethtool " : "", c->name,
				    (unsigned long long)c->value);
			first = false;
		}
	if (!first)
		fputc('\n', out);
}

/* "errors: link_downed 3, rx_icrc_encapsulated 2, ethtool rx_crc_errors_phy
 * 1532", then "retries: local_ack_timeout_err 8, out_of_sequence 4" (lifetime
 * counts, as check sees them without a window). */
static void print_errors(FILE *out, const char *driver, const struct port *p)
{
	print_error_line(out, driver, p, "      errors: ", false);
	print_error_line(out, driver, p, "      retries: ", true);
}

/* driver: the NIC's, which says what its hw_counters count */
static void print_port(FILE *out, const char *driver, const struct port *p,
		       const struct text_opts *o)
{
	const struct gid *rec = gid_recommended(p);

	text_printf(out, "    port %d  %-10s  ", p->num, OR_NA(p->link_layer));
	print_state(out, p, o);
	fputs("  ", out);
	if (isnan(p->rate_gbps))
		fputs("rate ?", out);
	else
		print_rate(out, p);
	if (!IS_NA(p->active_mtu))
		text_printf(out, "  mtu %lld", (long long)p->active_mtu);
	fputc('\n', out);
	if (p->link_layer && strcmp(p->link_layer, "InfiniBand") == 0)
		print_ib_ids(out, p);
	if (p->netdev) {
		text_printf(out, "      netdev %s", p->netdev);
		if (!IS_NA(p->netdev_mtu))
			text_printf(out, " mtu %lld", (long long)p->netdev_mtu);
		if (p->netdev_operstate)
			text_printf(out, " %s", p->netdev_operstate);
		if (!IS_NA(p->netdev_speed_mbps))
			text_printf(out, " %lld Mb/s", (long long)p->netdev_speed_mbps);
		if (!IS_NA(p->carrier_changes))
			text_printf(out, " carrier_changes %lld", (long long)p->carrier_changes);
		if (p->bond_slaves && p->bond_slaves[strspn(p->bond_slaves, " \t\n")])
			text_printf(out, " (bond of %s)", p->bond_slaves);
		fputc('\n', out);
	}
	print_neighbor(out, p);
	if (rec)
		text_printf(out, "      roce v2 gid index %d (%s)\n", rec->index, rec->ipv4);
	if (p->qos)
		print_qos(out, "      ", p->qos);
	if (p->module)
		print_module(out, "      ", p->module);
	if (p->link)
		link_lines(out, "      ", p->link);
	/* RoCE LAG: each physical function's own view */
	for (size_t i = 0; i < p->n_slaves; i++) {
		const struct lag_slave *s = &p->slaves[i];

		text_printf(out, "      bond member %s\n", s->netdev);
		if (s->qos)
			print_qos(out, "        ", s->qos);
		if (s->module)
			print_module(out, "        ", s->module);
		if (s->link)
			link_lines(out, "        ", s->link);
	}
	print_errors(out, driver, p);
}

/* The NIC's PCI Express settings in lspci's words, when root read them:
 * "MaxPayload 256 bytes (capable 512), MaxReadReq 4096 bytes, RlxdOrd+
 * ExtTag+ ATS-", and each bridge above it that runs another MaxPayload. */
static void print_pcie_settings(FILE *out, const struct pci_func *f)
{
	const struct pcie_settings *p = &f->pcie;

	if (p->express != 1 || p->mps <= 0)
		return;
	text_printf(out, "    pcie MaxPayload %d bytes", p->mps);
	if (p->mps_cap > 0 && p->mps_cap != p->mps)
		text_printf(out, " (capable %d)", p->mps_cap);
	text_printf(out, ", MaxReadReq %d bytes, RlxdOrd%c ExtTag%c", p->mrrs,
		    p->relaxed_ordering ? '+' : '-', p->ext_tag ? '+' : '-');
	if (p->ats == 1)
		text_printf(out, " ATS Enable%c STU %d", p->ats_enable ? '+' : '-', p->ats_stu);
	else if (p->ats == 0)
		text_printf(out, " ATS-");
	fputc('\n', out);
	for (size_t b = f->n_upstream; b-- > 0;) {
		const struct pcie_settings *q = &f->upstream[b].pcie;

		if (q->express == 1 && q->mps > 0 && q->mps != p->mps)
			text_printf(out, "    bridge %s above it: MaxPayload %d bytes\n",
				    f->upstream[b].bdf, q->mps);
	}
}

/* A device the site file excludes: its name, its PCI address and place,
 * nothing else (nothing else was read). */
static void print_excluded(FILE *out, const struct nic *n)
{
	text_printf(out, "  %s  excluded by the site file (line %d, '%s'): not read%s%s\n",
		    n->name, n->exclude_line, OR_NA(n->exclude_pattern), n->role ? "  " : "",
		    n->role ? n->role : "");
	if (!n->has_pci)
		return;
	text_printf(out, "    pci %s", n->pci.bdf);
	for (size_t b = 0; b < n->pci.n_upstream; b++) {
		text_printf(out, b ? " <- " : "  via ");
		text_put_clean(out, n->pci.upstream[n->pci.n_upstream - 1 - b].bdf);
	}
	fputc('\n', out);
}

void text_inventory(FILE *out, const struct inventory *inv, const struct text_opts *o)
{
	print_host(out, &inv->host);
	access_text_host(out, inv->host.access);
	text_printf(out, "\nRDMA devices (%zu)\n", inv->n_nics);
	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		if (n->excluded) {
			print_excluded(out, n);
			continue;
		}
		text_printf(out, "  %s  %s  driver %s  fw %s  board %s%s%s\n", n->name,
			    OR_NA(n->model), OR_NA(n->driver), OR_NA(n->fw_ver),
			    OR_NA(n->board_id), n->role ? "  " : "", n->role ? n->role : "");
		if (n->has_pci) {
			text_printf(out, "    pci %s  ", n->pci.bdf);
			text_pci_numa(out, n->pci.numa_node);
			text_pci_link(out, &n->pci.link);
			for (size_t b = 0; b < n->pci.n_upstream; b++) {
				text_printf(out, b ? " <- " : "  via ");
				text_put_clean(out, n->pci.upstream[n->pci.n_upstream - 1 - b].bdf);
			}
			fputc('\n', out);
			print_pcie_settings(out, &n->pci);
			for (size_t b = 0; b < n->pci.n_upstream; b++) {
				const struct pci_func *br = &n->pci.upstream[b];

				/* on a root port it redirects nothing a GPU and a NIC
				 * share: they never sit below the same one */
				if (b > 0 && !IS_NA(br->acs_ctrl) && (br->acs_ctrl & ACS_REDIRECT))
					text_printf(out, "    bridge %s above it redirects peer-to-peer "
						    "(ACS control 0x%04llx)\n", br->bdf,
						    (unsigned long long)br->acs_ctrl);
				if (!pcie_link_degraded(br, pcie_link_partner(&n->pci, b)))
					continue;
				text_printf(out, "    bridge %s above it runs ", br->bdf);
				text_pci_link(out, &br->link);
				fputc('\n', out);
			}
		}
		fputs("  ", out);
		print_guid(out, "node guid", n->node_guid);
		print_guid(out, "system image guid", n->sys_image_guid);
		fputc('\n', out);
		if (n->uverbs)
			text_printf(out, "    verbs /dev/infiniband/%s %s\n", n->uverbs,
				    OR_NA(n->uverbs_dev));
		access_text_nic(out, inv->host.access, n->name);
		for (size_t p = 0; p < n->n_ports; p++)
			print_port(out, n->driver, &n->ports[p], o);
	}
	text_printf(out, "\nGPUs (%zu)\n", inv->n_gpus);
	for (size_t i = 0; i < inv->n_gpus; i++) {
		const struct gpu *g = &inv->gpus[i];

		text_printf(out, "  %s  %s %s  ", g->pci.bdf, gpu_vendor_name(g->vendor),
			    OR_NA(g->model));
		text_pci_numa(out, g->pci.numa_node);
		text_pci_link(out, &g->pci.link);
		fputc('\n', out);
	}
	text_npus(out, &inv->npu);
}
