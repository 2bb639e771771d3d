/* The NPUs section of `inventory` text: each NPU, its PCI place, its
 * port, and the tool calls that did not answer. */
#include "text.h"
#include "text_printf.h"

#include <math.h>
#include <string.h>

#define OR_NA(s) ((s) ? (s) : "?")

static void print_lanes(FILE *out, const char *what, const double *v, int n)
{
	text_printf(out, "  %s", what);
	for (int i = 0; i < n && i < NPU_LANES; i++) {
		if (isnan(v[i]))
			fputs(" ?", out);
		else
			text_printf(out, " %.4g", v[i]);
	}
}

static void print_flag(FILE *out, const char *what, int64_t v)
{
	if (IS_NA(v))
		text_printf(out, "  %s ?", what);
	else
		text_printf(out, "  %s 0x%llx", what, (unsigned long long)v);
}

static void print_optical(FILE *out, const struct npu_optical *o)
{
	text_printf(out, "      module %s %s (%s)", OR_NA(o->vendor), OR_NA(o->part), OR_NA(o->present));
	if (!isnan(o->temp_c))
		text_printf(out, "  %.4g C", o->temp_c);
	if (!isnan(o->vcc_mv))
		text_printf(out, "  Vcc %.6g mV", o->vcc_mv);
	fputc('\n', out);
	fputs("     ", out);
	print_lanes(out, "tx mW", o->tx_mw, o->n_lanes);
	print_lanes(out, "rx mW", o->rx_mw, o->n_lanes);
	print_lanes(out, "bias mA", o->bias_ma, o->n_lanes);
	fputc('\n', out);
	fputs("     ", out);
	print_flag(out, "tx los", o->tx_los);
	print_flag(out, "rx los", o->rx_los);
	print_flag(out, "tx lol", o->tx_lol);
	print_flag(out, "rx lol", o->rx_lol);
	fputc('\n', out);
}

/* " on 3,4", " off" or " ?" */
static void print_pfc(FILE *out, const int enabled[8])
{
	for (int i = 0, any = 0; i < 8; i++) {
		if (enabled[i] == 1) {
			text_printf(out, "%s%d", any ? "," : " on ", i);
			any = 1;
		}
		if (i == 7 && !any)
			fputs(enabled[0] < 0 ? " ?" : " off", out);
	}
}

static void print_port(FILE *out, const struct npu_port *p)
{
	text_printf(out, "    port %s", p->link_up < 0 ? "?" : p->link_up ? "UP" : "DOWN");
	if (IS_NA(p->speed_mbps))
		fputs("  speed ?", out);
	else
		text_printf(out, "  %lld Mb/s", (long long)p->speed_mbps);
	if (p->ipaddr)
		text_printf(out, "  ip %s/%s", p->ipaddr, OR_NA(p->netmask));
	else
		fputs(p->ip_unset ? "  ip none" : "  ip ?", out);
	text_printf(out, "  health %s  fec %s", OR_NA(p->net_health), OR_NA(p->fec_mode));
	if (!IS_NA(p->mtu))
		text_printf(out, "  mtu %lld", (long long)p->mtu);
	fputc('\n', out);
	fputs("      link up count ", out);
	if (IS_NA(p->link_up_count))
		fputc('?', out);
	else
		text_printf(out, "%lld", (long long)p->link_up_count);
	if (!IS_NA(p->link_downs_24h))
		text_printf(out, ", %lld down in the last 24 h", (long long)p->link_downs_24h);
	fputs("  pfc", out);
	if (p->n_pfc_members)
		fputs(" per member", out);	/* the port's row is only where they agree */
	else
		print_pfc(out, p->pfc_enabled);
	if (p->lldp_system || p->lldp_port)
		text_printf(out, "  switch %s port %s", OR_NA(p->lldp_system), OR_NA(p->lldp_port));
	fputc('\n', out);
	for (size_t m = 0; m < p->n_pfc_members; m++) {
		text_printf(out, "      member %s pfc", p->pfc_members[m].dev);
		print_pfc(out, p->pfc_members[m].enabled);
		fputc('\n', out);
	}
	if (p->ipv6addr && IS_NA(p->ipv6_prefix))
		text_printf(out, "      ipv6 %s/?\n", p->ipv6addr);
	else if (p->ipv6addr)
		text_printf(out, "      ipv6 %s/%lld\n", p->ipv6addr, (long long)p->ipv6_prefix);
	if (p->ip_malformed || p->ip6_malformed)
		text_printf(out, "      ip not read: %s\n", p->ip_malformed ? p->ip_malformed
								  : p->ip6_malformed);
	if (p->optical_unsupported)
		fputs("      module: not supported (this device has no optical commands)\n", out);
	if (p->optical)
		print_optical(out, p->optical);
	if (p->stat) {
		bool any = false;

		for (size_t i = 0; i < p->stat->n; i++) {
			const struct counter *c = &p->stat->v[i];

			if (!c->value || (!strstr(c->name, "err") && !strstr(c->name, "out_of_order")))
				continue;
			text_printf(out, "%s %s %llu", any ? "" : "      errors", c->name,
				    (unsigned long long)c->value);
			any = true;
		}
		if (any)
			fputc('\n', out);
	}
}

/* "not read" a call that failed; "not checked" one a snapshot never made */
static void print_failures(FILE *out, const char *ind, const char *what,
			   const struct npu_failure *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		text_printf(out, "%s%s: %s: %s\n", ind, what, v[i].call, v[i].why);
}

/* npu-smi's health (with the health query's error code and information
 * when it gives them), temperature and power; ? for what was not read. */
static void print_health(FILE *out, const struct npu *n)
{
	text_printf(out, "    npu-smi health %s", OR_NA(n->health));
	if (n->health_code || n->health_info)
		text_printf(out, " (error code %s: %s)", OR_NA(n->health_code), OR_NA(n->health_info));
	if (isnan(n->temp_c))
		text_printf(out, "  temp ?");
	else
		text_printf(out, "  temp %.4g C", n->temp_c);
	if (isnan(n->power_w))
		text_printf(out, "  power ?\n");
	else
		text_printf(out, "  power %.4g W\n", n->power_w);
}

void text_npus(FILE *out, const struct npu_inventory *ni)
{
	if (!ni->n_pci && !ni->n)
		return;
	text_printf(out, "\nNPUs (%zu, %zu PCI function%s)\n", ni->n, ni->n_pci,
		    ni->n_pci == 1 ? "" : "s");
	print_failures(out, "  ", "not read", ni->failures, ni->n_failures);
	if (ni->table_why)
		text_printf(out, "  not read: npu-smi info: %s\n", ni->table_why);
	for (size_t i = 0; i < ni->n; i++) {
		const struct npu *n = &ni->v[i];

		text_printf(out, "  npu%lld  %s  chip %s  fw %s  software %s", (long long)n->id,
			    OR_NA(n->model), OR_NA(n->chip_name), OR_NA(n->fw_version),
			    OR_NA(n->sw_version));
		if (!IS_NA(n->card))
			text_printf(out, "  (NPU %lld die %lld)", (long long)n->card, (long long)n->die);
		fputc('\n', out);
		if (n->pci) {
			text_printf(out, "    pci %s  ", n->pci->bdf);
			text_pci_place(out, n->pci);
			fputc('\n', out);
		} else {
			text_printf(out, "    pci %s (no such PCI function)\n", OR_NA(n->bus_info));
		}
		print_health(out, n);
		if (n->port_read)
			print_port(out, &n->port);
		if (n->plan.address || n->plan.netmask || n->plan.netdetect)
			text_printf(out, "      hccn.conf %s/%s  detect %s\n", OR_NA(n->plan.address),
				    OR_NA(n->plan.netmask), OR_NA(n->plan.netdetect));
		print_failures(out, "    ", "not read", n->failures, n->n_failures);
		print_failures(out, "    ", "not checked", n->unrecorded, n->n_unrecorded);
	}
	for (size_t i = 0; i < ni->n_unmapped; i++)
		text_printf(out, "  %s  NPU PCI function that no npu-smi id names\n",
			    ni->unmapped[i].bdf);
}
