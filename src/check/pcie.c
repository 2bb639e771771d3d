/* pcie.link_degraded: the NIC's own link below what both ends can do,
 *   narrower than the card itself is built for (whatever the slot allows),
 *   or below the profile's generation / width.
 * pcie.upstream_degraded: a link higher up the NIC's path runs degraded.
 * pcie.bottleneck: the ports of one PCI device need more than its link
 *   (said by pcie.link_degraded instead when that link is degraded).
 * pcie.acs: ACS redirect on a bridge between a GPU and its NIC.
 * pcie.mps_mismatch: the NIC's Max Payload Size differs from a bridge's
 *   above it where that costs (the NIC below what it and the path could
 *   do) or risks (the NIC above a bridge's) something.
 * pcie.mrrs_low: the NIC's Max Read Request below the profile's.
 * pcie.relaxed_ordering: Relaxed Ordering off where the profile asks for it. */
#include "families.h"
#include "../model/pcie_link.h"
#include "../model/port_rate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ACS_RR 0x04	/* P2P Request Redirect */
#define ACS_CR 0x08	/* P2P Completion Redirect */

static const char why_link[] =
	"A NIC link that trained slower than its slot allows, or narrower than the card "
	"is built for, cannot feed the ports at line rate: the card runs at a fraction "
	"of its bandwidth.";

static bool judged(const struct nic *n)
{
	return n->has_pci && !check_nic_is_software(n) && n->pci.bdf;
}

static double max_known(double a, double b)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	return a > b ? a : b;
}

/* *idx: the index of its finding in out, or (size_t)-1 for none.  0 or
 * -ENOMEM. */
static int link_degraded(const struct check_ctx *c, struct findings *out, size_t i,
			 size_t *idx)
{
	const struct nic *n = &c->inv->nics[i];
	const struct role_spec *rs = check_role_spec(c, i);
	const struct pci_func *f = &n->pci;
	const struct pci_func *partner = f->n_upstream ? &f->upstream[f->n_upstream - 1] : NULL;
	struct pci_link reach = pcie_link_reachable(f, partner);
	bool below_cap = pcie_link_degraded(f, partner), below_profile = false;
	/* An x16 card in a slot wired for x8 trained all the slot allows, yet
	 * gets half its bandwidth: judged against the card's own width.  Not
	 * a fault of the link but of where the card sits, so a warning unless
	 * the profile asks for the width.  (A Gen5 card in a Gen4 host is a
	 * common design, so the speed is still judged against both ends.) */
	bool below_card = !below_cap && !IS_NA(f->link.width) && !IS_NA(f->link.max_width) &&
			  f->link.width < f->link.max_width;
	double want_gts = reach.max_speed_gts;
	int64_t want_width = reach.max_width;
	char have[32], want[32], cap[32];
	struct check_buf names = { 0 };
	size_t shared = 0;
	struct finding *f_;

	*idx = (size_t)-1;
	if (rs->pcie_gen > 0 && !isnan(f->link.speed_gts) &&
	    pcie_gen(f->link.speed_gts) < rs->pcie_gen) {
		below_profile = true;
		want_gts = max_known(want_gts, pcie_gen_gts(rs->pcie_gen));
	}
	if (rs->pcie_width > 0 && !IS_NA(f->link.width) && f->link.width < rs->pcie_width) {
		below_profile = true;
		if (IS_NA(want_width) || want_width < rs->pcie_width)
			want_width = rs->pcie_width;
	}
	if (below_card && (IS_NA(want_width) || want_width < f->link.max_width))
		want_width = f->link.max_width;
	if (!below_cap && !below_card && !below_profile)
		return 0;
	/* the functions of one card (a dual-port NIC) share one link: it is
	 * reported once, at the first of them, naming them all */
	for (size_t j = 0; j < c->inv->n_nics; j++) {
		const struct nic *o = &c->inv->nics[j];

		if (!judged(o) || !check_same_pci_device(o->pci.bdf, f->bdf))
			continue;
		if (j < i) {
			check_buf_free(&names);
			return 0;
		}
		check_buf_printf(&names, "%s%s", shared++ ? ", " : "", o->name);
	}
	f_ = check_add(c, out, "pcie.link_degraded",
		       below_cap || below_profile ? check_role_sev(c, i) : SEV_WARN, why_link);
	if (!f_) {
		check_buf_free(&names);
		return -ENOMEM;
	}
	check_link_str(have, sizeof(have), f->link.speed_gts, f->link.width);
	check_link_str(want, sizeof(want), want_gts, want_width);
	check_link_str(cap, sizeof(cap), reach.max_speed_gts, reach.max_width);
	if (shared > 1) {
		const char *dot = strrchr(f->bdf, '.');

		check_buf_printf(&names, " (%.*s)", dot ? (int)(dot - f->bdf) : (int)strlen(f->bdf),
				 f->bdf);
		check_buf_take(&names, &f_->subject);
	} else {
		check_buf_free(&names);
		finding_set(&f_->subject, "%s", n->name);
	}
	finding_set(&f_->observed, "%s", have);
	finding_set(&f_->expected, "%s", want);
	if (below_cap)
		finding_set(&f_->fix,
			    "reseat the card (%s) and check its riser; then check the BIOS "
			    "settings for this slot (bifurcation, link speed); `lspci -vv -s %s` "
			    "shows LnkCap against LnkSta",
			    f->bdf, f->bdf);
	else if (below_card)
		finding_set(&f_->fix,
			    "the card can do x%lld but its slot (%s) no more than x%lld: move it to "
			    "a slot wired for x%lld, or check this slot's bifurcation in the BIOS; "
			    "`lspci -vv -s %s` shows LnkCap against LnkSta",
			    (long long)f->link.max_width, partner && partner->bdf ? partner->bdf : "?",
			    (long long)reach.max_width, (long long)f->link.max_width, f->bdf);
	else
		finding_set(&f_->fix,
			    "the link runs as fast as the card and slot allow (%s): move the card "
			    "to a slot that gives %s, or check it is the card model this machine "
			    "should have",
			    cap, want);
	*idx = out->n - 1;
	return 0;
}

static bool link_known(const struct pci_link *l)
{
	return !isnan(l->speed_gts) || !IS_NA(l->width);
}

static int upstream_degraded(const struct check_ctx *c, struct findings *out, size_t i)
{
	const struct nic *n = &c->inv->nics[i];
	const struct pci_func *f = &n->pci;

	for (size_t k = 0; k < f->n_upstream; k++) {
		const struct pci_func *b = &f->upstream[k];
		const struct pci_func *partner = pcie_link_partner(f, k);
		struct pci_link reach;
		char have[32], want[32];
		struct finding *fd;

		/* the link into the NIC is pcie.link_degraded's */
		if (partner == f)
			continue;
		/* both ends report one link: judge it at the downstream /
		 * root port, at the upstream port only when that one is mute */
		if (k % 2 == 1 && link_known(&f->upstream[k - 1].link))
			continue;
		if (!pcie_link_degraded(b, partner))
			continue;
		fd = check_add(c, out, "pcie.upstream_degraded", check_role_sev(c, i),
			       "A degraded link above the NIC caps everything below it: the NIC "
			       "and any GPU behind the same switch share a slower path to the host.");
		if (!fd)
			return -ENOMEM;
		reach = pcie_link_reachable(b, partner);
		check_link_str(have, sizeof(have), b->link.speed_gts, b->link.width);
		check_link_str(want, sizeof(want), reach.max_speed_gts, reach.max_width);
		finding_set(&fd->subject, "%s via bridge %s", n->name, b->bdf);
		finding_set(&fd->observed, "%s", have);
		finding_set(&fd->expected, "%s", want);
		finding_set(&fd->fix,
			    "reseat the PCIe switch board or riser (and its cable) that carries "
			    "this link; then check the BIOS link speed and bifurcation settings; "
			    "`lspci -vv -s %s` shows LnkCap against LnkSta",
			    b->bdf);
	}
	return 0;
}

/* Data rate of one port for the bottleneck sum, PCIe carrying data and
 * not the line code: the profile's rate, else what an up port reports;
 * NAN when neither is known. */
static double port_need(const struct role_spec *rs, const struct port *pt)
{
	if (rs->rate_gbps > 0)
		return port_data_gbps(pt, rs->rate_gbps);
	if (port_is_up(pt) && !isnan(pt->rate_gbps) && pt->rate_gbps > 0)
		return port_data_gbps(pt, pt->rate_gbps);
	return NAN;
}

/* The smallest link at or above the current generation that carries need
 * GB/s with 10 % headroom, and no faster or wider than the card itself can
 * train (its max link speed and width): "Gen4 x16".  false when even the
 * card's own maximum does not carry it. */
static bool link_for(char *buf, size_t len, const struct pci_link *l, double need)
{
	static const int widths[] = { 1, 2, 4, 8, 16 };
	int maxgen = !isnan(l->max_speed_gts) ? pcie_gen(l->max_speed_gts) : 6;
	int64_t maxw = !IS_NA(l->max_width) && l->max_width > 0 ? l->max_width : 16;

	buf[0] = '\0';
	for (int gen = pcie_gen(l->speed_gts); gen >= 1 && gen <= 6 && gen <= maxgen; gen++)
		for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
			if (widths[w] <= maxw &&
			    pcie_usable_gbytes(pcie_gen_gts(gen), widths[w]) >= need) {
				snprintf(buf, len, "Gen%d x%d", gen, widths[w]);
				return true;
			}
	return false;
}

/* degraded: the index of this device's pcie.link_degraded finding, or
 * (size_t)-1.  A degraded link that is also too slow for the ports is one
 * cause: that finding then says what the link carries against what the
 * ports need (storage cards too), and no pcie.bottleneck is added. */
static int bottleneck(const struct check_ctx *c, struct findings *out, size_t i,
		      size_t degraded)
{
	const struct inventory *inv = c->inv;
	const struct pci_link *l = NULL;
	struct check_buf names = { 0 }, rates = { 0 }, want = { 0 };
	double sum = 0, first_rate = NAN, raw, need;
	size_t nports = 0;
	bool same = true, rail = false;
	char have[32], raw_s[32], need_s[32], rate_s[32], better[32];
	const char *dot;
	struct finding *f;

	for (size_t j = 0; j < i; j++)
		if (judged(&inv->nics[j]) &&
		    check_same_pci_device(inv->nics[j].pci.bdf, inv->nics[i].pci.bdf))
			return 0;	/* this device was summed at its first NIC */
	for (size_t j = i; j < inv->n_nics; j++) {
		const struct nic *n = &inv->nics[j];
		const struct role_spec *rs;

		if (!judged(n) || !check_same_pci_device(n->pci.bdf, inv->nics[i].pci.bdf))
			continue;
		rs = check_role_spec(c, j);
		rail |= check_is_rail(c, j);
		if (!l && !isnan(n->pci.link.speed_gts) && !IS_NA(n->pci.link.width))
			l = &n->pci.link;
		check_buf_printf(&names, "%s%s", names.len ? ", " : "", n->name);
		for (size_t k = 0; k < n->n_ports; k++) {
			double r = port_need(rs, &n->ports[k]);

			if (isnan(r))
				continue;
			check_num_str(rate_s, sizeof(rate_s), r);
			check_buf_printf(&rates, "%s%s", nports ? " + " : "", rate_s);
			if (nports && r != first_rate)
				same = false;
			if (!nports)
				first_rate = r;
			sum += r;
			nports++;
		}
	}
	if (!l || !nports)
		goto done;
	raw = pcie_raw_gbytes(l->speed_gts, (int)l->width);
	need = sum / 8.0;
	if (raw <= 0 || need <= pcie_usable_gbytes(l->speed_gts, (int)l->width))
		goto done;
	check_num_str(raw_s, sizeof(raw_s), raw);
	check_num_str(need_s, sizeof(need_s), need);
	if (degraded != (size_t)-1) {
		struct finding *d = &out->v[degraded];

		char *fix = d->fix;

		d->fix = NULL;
		/* the card at its best would not carry them either: say so,
		 * rather than promise that the fix above is enough */
		if (!link_for(better, sizeof(better), l, need) && !isnan(l->max_speed_gts) &&
		    !IS_NA(l->max_width) && l->max_width > 0) {
			check_link_str(better, sizeof(better), l->max_speed_gts, l->max_width);
			check_num_str(rate_s, sizeof(rate_s),
				      pcie_raw_gbytes(l->max_speed_gts, (int)l->max_width));
			check_buf_printf(&want, ", and even the card's own %s (about %s GB/s) "
					 "does not carry %s", better, rate_s,
					 nports == 1 ? "it" : "them all");
		}
		finding_set(&d->fix, "%s; until then the link carries about %s GB/s where the "
			    "port%s need%s %s GB/s: %s never reach%s line rate%s",
			    fix ? fix : "", raw_s, nports == 1 ? "" : "s", nports == 1 ? "s" : "",
			    need_s, nports == 1 ? "it" : "they", nports == 1 ? "es" : "",
			    check_buf_str(&want));
		free(fix);
		goto done;
	}
	/* storage cards seldom run every port at line rate at once: a link
	 * that is not degraded is judged only where a rail shares the device
	 * (every NIC under generic) */
	if (!rail)
		goto done;
	f = check_add(c, out, "pcie.bottleneck", SEV_WARN,
		      "The ports can move more data than the PCIe link carries, so the NIC "
		      "never reaches line rate however good the network is.");
	if (!f)
		goto done;
	check_link_str(have, sizeof(have), l->speed_gts, l->width);
	check_num_str(rate_s, sizeof(rate_s), first_rate);
	/* "rocep65s0f0, rocep65s0f1 (0000:41:00)": the NICs and the device */
	dot = strrchr(inv->nics[i].pci.bdf, '.');
	check_buf_printf(&names, " (%.*s)",
			 dot ? (int)(dot - inv->nics[i].pci.bdf) : (int)strlen(inv->nics[i].pci.bdf),
			 inv->nics[i].pci.bdf);
	check_buf_take(&names, &f->subject);
	finding_set(&f->observed, "%s carries about %s GB/s", have, raw_s);
	if (nports == 1)
		check_buf_printf(&want, "the port needs %s GB/s (%s Gb/s)", need_s, rate_s);
	else if (same)
		check_buf_printf(&want, "the ports need %s GB/s (%zu x %s Gb/s)", need_s, nports,
				 rate_s);
	else
		check_buf_printf(&want, "the ports need %s GB/s (%s Gb/s)", need_s,
				 check_buf_str(&rates));
	check_buf_take(&want, &f->expected);
	if (link_for(better, sizeof(better), l, need))
		finding_set(&f->fix,
			    "put the card in a slot that trains %s or better (check the BIOS "
			    "bifurcation and slot speed settings, and that the slot is wired "
			    "for x16, not only shaped for it); where no such slot is free, "
			    "expect the ports to share about %s GB/s",
			    better, raw_s);
	else if (!isnan(l->max_speed_gts) && !IS_NA(l->max_width) && l->max_width > 0) {
		char top[32], top_raw[32];

		/* no slot helps: the card's own link is the limit */
		check_link_str(top, sizeof(top), l->max_speed_gts, l->max_width);
		check_num_str(top_raw, sizeof(top_raw),
			      pcie_raw_gbytes(l->max_speed_gts, (int)l->max_width));
		finding_set(&f->fix,
			    "the card itself tops out at %s (about %s GB/s), so no slot lets "
			    "all ports run at line rate together: %sexpect them to share that, "
			    "or use a card of a later PCIe generation for this many ports",
			    top, top_raw,
			    strcmp(top, have) != 0 ? "put it in a slot that trains that; " : "");
	} else
		finding_set(&f->fix,
			    "put the card in a faster or wider slot (check the BIOS bifurcation "
			    "and slot speed settings); where none is free, expect the ports to "
			    "share about %s GB/s",
			    raw_s);
done:
	check_buf_free(&names);
	check_buf_free(&rates);
	check_buf_free(&want);
	return 0;
}

/* Already named in list (" bdf " entries)? */
static bool listed(const struct check_buf *list, const char *bdf)
{
	char key[64];

	snprintf(key, sizeof(key), " %s ", bdf);
	return list->s && strstr(list->s, key);
}

static const char why_acs[] =
	"ACS redirect sends every peer-to-peer transfer between a GPU and its NIC up "
	"to the root complex, which cuts GPUDirect RDMA bandwidth or breaks it.";

/* The bridges with redirect on, on one GPU-NIC path, not yet reported. */
struct acs_path {
	struct check_buf where;	/* "0000:c9:00.0 (0x001d)" */
	struct check_buf fix;	/* the setpci commands */
	size_t n;
};

static void acs_bridge(const struct pci_func *b, struct check_buf *reported,
		       struct acs_path *path, size_t *unknown)
{
	int64_t v = b->acs_ctrl;

	if (!b->acs_known) {
		(*unknown)++;
		return;
	}
	if (IS_NA(v) || !(v & (ACS_RR | ACS_CR)) || !b->bdf || listed(reported, b->bdf))
		return;
	check_buf_printf(reported, " %s ", b->bdf);
	check_buf_printf(&path->where, "%s%s (0x%04llx: %s%s%s)", path->n ? ", " : "", b->bdf,
			 (long long)v, v & ACS_RR ? "Request Redirect" : "",
			 (v & ACS_RR) && (v & ACS_CR) ? " and " : "",
			 v & ACS_CR ? "Completion Redirect" : "");
	check_buf_printf(&path->fix, "%s`setpci -s %s ECAP_ACS+0x6.w=0000`",
			 path->n ? " and " : "", b->bdf);
	path->n++;
}

/* One finding per GPU-NIC path, naming every bridge on it: each needs
 * its own setpci, and all are known. */
static int acs_finding(const struct check_ctx *c, struct findings *out, size_t gpu,
		       size_t nic, struct acs_path *path)
{
	struct finding *f = check_add(c, out, "pcie.acs", SEV_ERROR, why_acs);

	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "%s", c->inv->nics[nic].name);
	finding_set(&f->observed, "ACS redirect on at %s bridge%s %s, on the path to GPU %s",
		    path->n == 1 ? "a" : "its", path->n == 1 ? "" : "s",
		    check_buf_str(&path->where),
		    c->inv->gpus[gpu].pci.bdf ? c->inv->gpus[gpu].pci.bdf : "?");
	finding_set(&f->expected,
		    "Request and Completion Redirect off, so GPU-NIC traffic stays below the switch");
	finding_set(&f->fix,
		    "turn ACS off in the BIOS (PCIe / ACS control), or clear it at every boot "
		    "with %s (NVIDIA's DGX images do this); keep it on only where VMs need "
		    "IOMMU isolation",
		    check_buf_str(&path->fix));
	return path->where.nomem || path->fix.nomem ? -ENOMEM : 0;
}

static int acs(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;
	struct check_buf reported = { 0 };
	size_t unknown = 0;
	struct finding *f;
	bool lost;
	int rc = 0;

	for (size_t g = 0; !rc && g < inv->n_gpus; g++) {
		const struct pci_func *gp = &inv->gpus[g].pci;
		const struct pci_func *np;
		enum path_type path = c->gpu_path[g];
		size_t nic = c->gpu_nic[g], common = 0;
		struct acs_path found = { 0 };

		if (nic == (size_t)-1 || path > PATH_PXB)
			continue;	/* through the host bridge anyway */
		np = &inv->nics[nic].pci;
		while (common < gp->n_upstream && common < np->n_upstream &&
		       gp->upstream[common].bdf && np->upstream[common].bdf &&
		       strcmp(gp->upstream[common].bdf, np->upstream[common].bdf) == 0)
			common++;
		if (!common)
			continue;
		for (size_t k = common; k < gp->n_upstream; k++)
			acs_bridge(&gp->upstream[k], &reported, &found, &unknown);
		for (size_t k = common; k < np->n_upstream; k++)
			acs_bridge(&np->upstream[k], &reported, &found, &unknown);
		if (found.n)
			rc = acs_finding(c, out, g, nic, &found);
		check_buf_free(&found.where);
		check_buf_free(&found.fix);
	}
	lost = reported.nomem;
	check_buf_free(&reported);
	if (rc)
		return rc;
	if (lost)
		return -ENOMEM;
	if (!unknown)
		return 0;
	f = check_add(c, out, "pcie.acs", SEV_INFO, why_acs);
	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	finding_set(&f->subject, "host");
	finding_set(&f->observed, "not checked: the bridges' ACS control is in extended PCI "
		    "config space, which only root reads, and only where the kernel reaches it");
	finding_set(&f->expected,
		    "Request and Completion Redirect off on the bridges between each GPU and its NIC");
	finding_set(&f->fix,
		    "run rdmadoctor as root, or look by hand: `sudo lspci -vvv | grep ACSCtl` "
		    "shows ReqRedir- CmpltRedir- when redirect is off");
	return 0;
}

/* The settings of a function, as lspci's "DevCtl:" words say them. */
static bool settings_known(const struct pcie_settings *p)
{
	return p->express == 1 && p->mps > 0;
}

static int not_checked(const struct check_ctx *c, struct findings *out, size_t i,
		       const char *id, const char *why, const char *expected, const char *fix);

static const char why_mps[] =
	"Every link carries TLPs no larger than the smaller Max Payload Size of its two ends: a "
	"NIC set below the path writes to GPU and host memory in smaller pieces (more header "
	"per byte), and a NIC set above a bridge may send TLPs that bridge drops as malformed.";
static const char expected_mps[] = "one MaxPayload on the NIC and every bridge above it";

/* Bridges above the NIC whose settings could not be read while the NIC's
 * were (config space of only some functions readable): not checked, the
 * bridges named. */
static int mps_bridges_unknown(const struct check_ctx *c, struct findings *out, size_t i,
			       const struct check_buf *which)
{
	struct finding *f = check_add(c, out, "pcie.mps_mismatch", SEV_INFO, why_mps);

	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	finding_set(&f->subject, "%s", c->inv->nics[i].name);
	finding_set(&f->observed, "not checked: the Device Control of bridge %s above it "
		    "could not be read (config space past the first 64 bytes, which only root "
		    "reads)", check_buf_str(which));
	finding_set(&f->expected, "%s", expected_mps);
	finding_set(&f->fix, "run rdmadoctor as root, or `sudo lspci -vv -s BDF | grep "
		    "MaxPayload` for each bridge");
	return 0;
}

/* One finding per NIC: every bridge above it whose MaxPayload differs
 * from the NIC's, when the NIC is set above one (it may send TLPs that
 * bridge rejects as malformed) or below both what it supports and what
 * the bridge runs (it writes in smaller pieces than the path allows).  A
 * NIC already at its own maximum below a bridge loses nothing. */
static int mps_mismatch(const struct check_ctx *c, struct findings *out, size_t i)
{
	const struct nic *n = &c->inv->nics[i];
	const struct pci_func *f = &n->pci;
	struct check_buf where = { 0 }, unknown = { 0 };
	int smallest = f->pcie.mps, best = f->pcie.mps_cap, rc;
	bool above = false;
	struct finding *fd;

	/* unread is not matched: said, counted (a NIC with no PCI Express
	 * capability has no payload size to match) */
	if (!settings_known(&f->pcie))
		return f->pcie.express == 0 ? 0 :
		       not_checked(c, out, i, "pcie.mps_mismatch", why_mps, expected_mps,
				   "run rdmadoctor as root, or `sudo lspci -vv -s BDF | grep "
				   "MaxPayload` on the NIC and each bridge above it");
	for (size_t k = f->n_upstream; k-- > 0;) {
		const struct pci_func *b = &f->upstream[k];

		if (!settings_known(&b->pcie)) {
			if (b->pcie.express != 0)
				check_buf_printf(&unknown, "%s%s", unknown.len ? ", " : "",
						 b->bdf ? b->bdf : "?");
			continue;
		}
		if (b->pcie.mps_cap > 0 && b->pcie.mps_cap < best)
			best = b->pcie.mps_cap;
		if (b->pcie.mps == f->pcie.mps)
			continue;
		if (b->pcie.mps > f->pcie.mps && f->pcie.mps >= f->pcie.mps_cap)
			continue;	/* the NIC is at its own maximum */
		above |= b->pcie.mps < f->pcie.mps;
		if (b->pcie.mps < smallest)
			smallest = b->pcie.mps;
		check_buf_printf(&where, "%sbridge %s MaxPayload %d bytes", where.len ? ", " : "",
				 b->bdf ? b->bdf : "?", b->pcie.mps);
	}
	if (!where.len) {
		check_buf_free(&where);
		rc = unknown.len ? mps_bridges_unknown(c, out, i, &unknown) : 0;
		if (!rc && unknown.nomem)
			rc = -ENOMEM;
		check_buf_free(&unknown);
		return rc;
	}
	check_buf_free(&unknown);
	fd = check_add(c, out, "pcie.mps_mismatch", SEV_WARN, why_mps);
	if (!fd) {
		check_buf_free(&where);
		return -ENOMEM;
	}
	finding_set(&fd->subject, "%s", n->name);
	finding_set(&fd->observed, "NIC %s MaxPayload %d bytes, %s", f->bdf, f->pcie.mps,
		    check_buf_str(&where));
	if (best > 0 && best < f->pcie.mps_cap)
		finding_set(&fd->expected, "%s (%d bytes, the most they all support)",
			    expected_mps, best);
	else
		finding_set(&fd->expected, "%s (up to %d bytes, what the NIC supports)",
			    expected_mps, f->pcie.mps_cap);
	finding_set(&fd->fix,
		    "%sboot with `pci=pcie_bus_safe` (the kernel then sets each device to the "
		    "largest size all devices below its root port support), or set MaxPayload "
		    "in the BIOS PCIe settings; `lspci -vv -s %s | grep MaxPayload` shows it "
		    "(the link uses %d bytes now)",
		    above ? "the NIC is set above a bridge on its path: " : "", f->bdf,
		    smallest);
	check_buf_free(&where);
	return where.nomem ? -ENOMEM : 0;
}

static int not_checked(const struct check_ctx *c, struct findings *out, size_t i,
		       const char *id, const char *why, const char *expected, const char *fix)
{
	const struct nic *n = &c->inv->nics[i];
	struct finding *f = check_add(c, out, id, SEV_INFO, why);

	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	finding_set(&f->subject, "%s", n->name);
	finding_set(&f->observed, "not checked: %s", n->pci.pcie.express == 0 ?
		    "the NIC has no PCI Express capability" :
		    "the NIC's Device Control is in PCI config space past the first 64 "
		    "bytes, which only root reads");
	finding_set(&f->expected, "%s", expected);
	finding_set(&f->fix, "%s", fix);
	return 0;
}

static const char why_mrrs[] =
	"The Max Read Request Size caps each DMA read the NIC sends (what it transmits from "
	"host or GPU memory): small reads mean more requests and completions in flight for "
	"the same bytes, and a send-heavy NIC falls short of line rate.";

static int mrrs_low(const struct check_ctx *c, struct findings *out, size_t i)
{
	const struct nic *n = &c->inv->nics[i];
	const struct role_spec *rs = check_role_spec(c, i);
	const struct pcie_settings *p = &n->pci.pcie;
	char expected[64];
	struct finding *f;

	if (rs->pcie_mrrs <= 0)
		return 0;
	snprintf(expected, sizeof(expected), "MaxReadReq %d bytes or more", rs->pcie_mrrs);
	if (!settings_known(p) || p->mrrs <= 0) {
		int rc = not_checked(c, out, i, "pcie.mrrs_low", why_mrrs, expected,
				     "run rdmadoctor as root, or `sudo lspci -vv -s BDF | grep "
				     "MaxReadReq`");

		if (!rc)	/* the profile names pcie_mrrs: unseen is no pass */
			out->v[out->n - 1].required = true;
		return rc;
	}
	if (p->mrrs >= rs->pcie_mrrs)
		return 0;
	f = check_add(c, out, "pcie.mrrs_low", SEV_WARN, why_mrrs);
	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "%s", n->name);
	finding_set(&f->observed, "MaxReadReq %d bytes (%s)", p->mrrs, n->pci.bdf);
	finding_set(&f->expected, "%s", expected);
	finding_set(&f->fix,
		    "set it at every boot, e.g. `setpci -s %s CAP_EXP+8.w=%d000:7000` for %d "
		    "bytes (the field is bits 14:12, 128 << n; a driver reload or reset may "
		    "set it back); check with `lspci -vv -s %s | grep MaxReadReq`",
		    n->pci.bdf, __builtin_ctz((unsigned)rs->pcie_mrrs) - 7, rs->pcie_mrrs,
		    n->pci.bdf);
	return 0;
}

static const char why_ro[] =
	"With Relaxed Ordering off in the NIC's Device Control the NIC cannot mark its "
	"writes relaxed (mlx5 uses it only then), so on hosts whose root complex orders "
	"writes strictly, GPUDirect RDMA and host-memory writes lose bandwidth.";

static int relaxed_ordering(const struct check_ctx *c, struct findings *out, size_t i)
{
	const struct nic *n = &c->inv->nics[i];
	const struct role_spec *rs = check_role_spec(c, i);
	const struct pcie_settings *p = &n->pci.pcie;
	const char *want = "RlxdOrd+ (Relaxed Ordering on)";
	struct finding *f;

	if (!rs->pcie_relaxed_ordering)
		return 0;
	if (!settings_known(p) || p->relaxed_ordering < 0)
		return not_checked(c, out, i, "pcie.relaxed_ordering", why_ro, want,
				   "run rdmadoctor as root, or `sudo lspci -vv -s BDF | grep "
				   "RlxdOrd`");
	if (p->relaxed_ordering == 1)
		return 0;
	f = check_add(c, out, "pcie.relaxed_ordering", SEV_WARN, why_ro);
	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "%s", n->name);
	finding_set(&f->observed, "RlxdOrd- (%s)", n->pci.bdf);
	finding_set(&f->expected, "%s", want);
	finding_set(&f->fix,
		    "the kernel clears it below root ports it knows to mishandle it (a quirk: "
		    "then leave it off and drop the profile's key); else `setpci -s %s "
		    "CAP_EXP+8.w=0010:0010` sets it, and NCCL's NCCL_IB_PCI_RELAXED_ORDERING "
		    "asks for it per memory region",
		    n->pci.bdf);
	return 0;
}

int check_pcie(const struct check_ctx *c, struct findings *out)
{
	for (size_t i = 0; i < c->inv->n_nics; i++) {
		if (!judged(&c->inv->nics[i]))
			continue;
		size_t degraded;

		CHECK_TRY(link_degraded(c, out, i, &degraded));
		CHECK_TRY(upstream_degraded(c, out, i));
		CHECK_TRY(bottleneck(c, out, i, degraded));
		CHECK_TRY(mps_mismatch(c, out, i));
		CHECK_TRY(mrrs_low(c, out, i));
		CHECK_TRY(relaxed_ordering(c, out, i));
	}
	CHECK_TRY(acs(c, out));
	return 0;
}
