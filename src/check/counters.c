/* counters.errors: non-zero lifetime error counters (a one-shot check
 *   cannot know since when, so a warning at most); with a window of
 *   samples (inv->window_s, model/window.h): error counters that grew
 *   within it, an error (only retries: a warning).
 * link.flaps: link_downed or the netdev's carrier_changes grew within a
 *   window.
 * counters.saturated: an IB PMA error counter stuck at its width's maximum
 *   (they saturate instead of wrapping: the IBTA PMA counters stop at their maximum). */
#include "families.h"
#include "../model/driver_tools.h"
#include "../model/driver_counters.h"
#include "../model/window.h"
#include "run.h"

#include <stdio.h>
#include <string.h>

struct pma_error {
	const char *name;
	uint64_t max;
};

static const struct pma_error pma_errors[] = {
	{ "symbol_error", 65535 },
	{ "link_error_recovery", 255 },
	{ "link_downed", 255 },
	{ "port_rcv_errors", 65535 },
	{ "port_rcv_remote_physical_errors", 65535 },
	{ "port_rcv_switch_relay_errors", 65535 },
	{ "port_xmit_discards", 65535 },
	{ "port_xmit_constraint_errors", 255 },
	{ "port_rcv_constraint_errors", 255 },
	{ "local_link_integrity_errors", 15 },
	{ "excessive_buffer_overrun_errors", 15 },
	{ "VL15_dropped", 65535 },
};

/* Transport counters (hw_counters), by the driver's vocabulary
 * (model/driver_counters.h).  Retries (classes retransmit, seq_err,
 * ack_timeout) build up on any busy fabric over a lifetime, from a peer
 * that rebooted mid-transfer for one: alone they say nothing in a
 * one-shot check (listing them on every healthy port only buries real
 * findings); they matter when they grow within a window.  They are listed
 * next to a real fault.  Corrupted packets (phy_err: mlx5's ICRC errors)
 * are as much a fault as a symbol error.  Echoes (a duplicate request is
 * the peer's retransmit, judged where it was sent: one cause, one
 * finding) and byte counts (their packet counter counts the same events)
 * are left out.  Drops, RNR and the rest are shown, not judged here. */
bool check_hw_judged(const struct drv_counter *r, bool *retry)
{
	if (!r || r->flags & (CTR_F_ECHO | CTR_F_BYTES))
		return false;
	switch (r->cls) {
	case CTR_RETRANSMIT:
	case CTR_SEQ_ERR:
	case CTR_ACK_TIMEOUT:
		*retry = true;
		return true;
	case CTR_PHY_ERR:
		*retry = false;
		return true;
	default:
		return false;
	}
}

/* The driver's judged rows in its table's order (the order they are
 * listed in); NULL past the last or for a driver no table knows. */
static const struct drv_counter *hw_next(const struct drv_table *t, unsigned *i, bool *retry)
{
	for (; t && *i < t->n; (*i)++)
		if (check_hw_judged(&t->rows[*i], retry))
			return &t->rows[(*i)++];
	return NULL;
}

/* The PHY's own error counters in `ethtool -S` (mlx5 names,
 * mlx5's ethtool -S names): FCS errors and symbol errors on the wire.
 * On a RoCE port they are where a bad cable shows first.  Their per-lane
 * forms (a "_lane<N>" or "_lane_<N>" part) count the same per lane.  The
 * FEC's corrected bits (rx_corrected_bits_phy, rx_err_lane_<N>_phy) are
 * not among them: FEC correcting bits is how a PAM4 link works. */
static const char *const eth_errors[] = {
	"rx_crc_errors_phy", "rx_symbol_err_phy", "rx_pcs_symbol_err_phy",
};

/* The PHY's link-down count: link_downed's Ethernet form (link.flaps
 * within a window, counters.errors as a lifetime count). */
#define ETH_LINK_DOWN "link_down_events_phy"

/* After "_lane<N>" or "_lane_<N>" at p: what follows; NULL if not that. */
static const char *after_lane(const char *p)
{
	if (strncmp(p, "_lane", 5) != 0)
		return NULL;
	p += 5;
	if (*p == '_')
		p++;
	if (*p < '0' || *p > '9')
		return NULL;
	while (*p >= '0' && *p <= '9')
		p++;
	return p;
}

/* name is base, or base with a lane part before its "_phy" ending
 * (rx_symbol_err_lane0_phy) or after it (rx_symbol_err_phy_lane_0). */
static bool lane_form(const char *name, const char *base)
{
	size_t nb = strlen(base);
	const char *p;

	if (strcmp(name, base) == 0)
		return true;
	if (strncmp(name, base, nb) == 0 && (p = after_lane(name + nb)) && !*p)
		return true;
	if (nb <= 4 || strcmp(base + nb - 4, "_phy") != 0 || strncmp(name, base, nb - 4) != 0)
		return false;
	p = after_lane(name + nb - 4);
	return p && strcmp(p, "_phy") == 0;
}

/* One of the PHY error counters above, in any of its forms. */
static bool eth_error(const char *name)
{
	for (size_t i = 0; i < sizeof(eth_errors) / sizeof(eth_errors[0]); i++)
		if (lane_form(name, eth_errors[i]))
			return true;
	return false;
}

#define N_PMA (sizeof(pma_errors) / sizeof(pma_errors[0]))

static const struct counter *find(const struct counter_set *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].ok && s->v[i].name && strcmp(s->v[i].name, name) == 0)
			return &s->v[i];
	return NULL;
}

static int errors(const struct check_ctx *c, struct findings *out, const struct nic *n,
		  const struct port *pt)
{
	struct check_buf obs = { 0 };
	bool link = false, fault = false, eth = false, retry;
	size_t nz = 0;
	struct finding *f;
	const struct drv_table *t = drv_table_of(n->driver);
	const struct drv_counter *r;

	for (size_t i = 0; i < N_PMA; i++) {
		const struct counter *ct = find(&pt->counters, pma_errors[i].name);

		if (!ct || !ct->value)
			continue;
		check_buf_printf(&obs, "%s%s %llu%s", nz ? ", " : "", ct->name,
				 (unsigned long long)ct->value,
				 ct->value >= pma_errors[i].max ? " (saturated)" : "");
		nz++;
		fault = true;
		/* physical-layer errors, as opposed to discards */
		if (i <= 4 || i == 9)
			link = true;
	}
	for (unsigned i = 0; (r = hw_next(t, &i, &retry));) {
		const struct counter *ct = find(&pt->hw_counters, r->name);

		if (!ct || !ct->value)
			continue;
		check_buf_printf(&obs, "%s%s %llu", nz ? ", " : "", ct->name,
				 (unsigned long long)ct->value);
		nz++;
		if (!retry)
			fault = link = true;
	}
	/* the PHY's own counts (RoCE ports: the PMA's read 0 there) */
	for (size_t i = 0; i < pt->eth_stats.n; i++) {
		const struct counter *ct = &pt->eth_stats.v[i];

		if (!ct->ok || !ct->name || !ct->value ||
		    (!eth_error(ct->name) && strcmp(ct->name, ETH_LINK_DOWN) != 0))
			continue;
		check_buf_printf(&obs, "%sethtool %s %llu", nz ? ", " : "", ct->name,
				 (unsigned long long)ct->value);
		nz++;
		fault = link = eth = true;
	}
	if (!nz || !fault) {
		check_buf_free(&obs);
		return 0;
	}
	f = check_add(c, out, "counters.errors", SEV_WARN,
		      "Error counts mean lost or retried packets; when they keep growing they "
		      "cause the intermittent stalls that slow training.");
	if (!f) {
		check_buf_free(&obs);
		return -ENOMEM;
	}
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	check_buf_take(&obs, &f->observed);
	finding_set(&f->expected,
		    "0, or at least not growing (lifetime counts: the time since they were "
		    "cleared is unknown)");
	if (eth && !drv_tools_of_nic(n)->mlx)	/* mlxlink answers only ConnectX */
		finding_set(&f->fix,
			    "find out whether they grow: judge them over a window (`rdmadoctor "
			    "check --window 60`, or `ethtool -S %s` now and later); if they do, "
			    "reseat then replace the cable and module, check the module's "
			    "temperature and optical power (" DRV_ETHTOOL_MODULE "), then the "
			    "switch port",
			    pt->netdev ? pt->netdev : "<netdev>", pt->netdev ? pt->netdev : "<netdev>");
	else if (eth)
		finding_set(&f->fix,
			    "find out whether they grow: judge them over a window (`rdmadoctor "
			    "check --window 60`, or `ethtool -S %s` now and later); if they do, "
			    "reseat then replace the cable and module, check the module's "
			    "temperature and optical power (`ethtool -m %s`, `mlxlink -d %s -p %d "
			    "-m`), then the switch port",
			    pt->netdev ? pt->netdev : "<netdev>", pt->netdev ? pt->netdev : "<netdev>",
			    n->name, pt->num);
	else if (link && !drv_tools_of_nic(n)->mlx)
		finding_set(&f->fix,
			    "find out whether they grow: clear them (`perfquery -R -C %s -P %d`) "
			    "and look again after a while; if they do, reseat then replace the "
			    "cable and module, check the module's temperature and optical power "
			    "(" DRV_ETHTOOL_MODULE "), then the switch port",
			    n->name, pt->num, pt->netdev ? pt->netdev : "<netdev>");
	else if (link)
		finding_set(&f->fix,
			    "find out whether they grow: clear them (`perfquery -R -C %s -P %d`) "
			    "and look again after a while; if they do, reseat then replace the "
			    "cable and module, check the module's temperature and optical power "
			    "(`mlxlink -d %s -p %d -m`), then the switch port",
			    n->name, pt->num, n->name, pt->num);
	else
		finding_set(&f->fix,
			    "find out whether they grow (clear them with `perfquery -R` (IB) or note them (RoCE) and look "
			    "again after a while); growing discards, "
			    "sequence errors or ACK timeouts point at congestion or a lossy "
			    "fabric: check PFC and ECN on the NIC and the switch ports");
	return 0;
}

static int saturated(const struct check_ctx *c, struct findings *out, const struct nic *n,
		     const struct port *pt)
{
	struct check_buf obs = { 0 }, want = { 0 };
	size_t nz = 0;
	struct finding *f;

	for (size_t i = 0; i < N_PMA; i++) {
		const struct counter *ct = find(&pt->counters, pma_errors[i].name);

		if (!ct || ct->value < pma_errors[i].max)
			continue;
		check_buf_printf(&obs, "%s%s %llu", nz ? ", " : "", ct->name,
				 (unsigned long long)ct->value);
		check_buf_printf(&want, "%s%s below %llu", nz ? ", " : "", ct->name,
				 (unsigned long long)pma_errors[i].max);
		nz++;
	}
	if (!nz)
		return 0;
	f = check_add(c, out, "counters.saturated", SEV_WARN,
		      "A PMA error counter stops at its maximum instead of wrapping: it no "
		      "longer shows new errors, so neither this tool nor anyone else can see "
		      "whether the link still has them.");
	if (!f) {
		check_buf_free(&obs);
		check_buf_free(&want);
		return -ENOMEM;
	}
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	check_buf_take(&obs, &f->observed);
	check_buf_take(&want, &f->expected);
	finding_set(&f->fix,
		    "clear the counters (`perfquery -R -C %s -P %d`) and look again after a "
		    "while; if they rise, reseat then replace the cable "
		    "and module",
		    n->name, pt->num);
	return 0;
}

bool check_counter_is_error(const char *driver, const char *name, int set)
{
	bool retry;

	if (set == WIN_ETH)
		return eth_error(name);
	if (set == WIN_NET)
		return false;
	if (set == WIN_HW)
		return check_hw_judged(drv_counter_find(driver, name), &retry);
	for (size_t i = 0; i < N_PMA; i++)
		if (strcmp(pma_errors[i].name, name) == 0)
			return true;
	return false;
}

bool check_counter_is_listed(const char *driver, const char *name, int set)
{
	return check_counter_is_error(driver, name, set) ||
	       (set == WIN_ETH && strcmp(name, ETH_LINK_DOWN) == 0);
}

bool check_counter_is_retry(const char *driver, const char *name, int set)
{
	bool retry;

	return set == WIN_HW && check_hw_judged(drv_counter_find(driver, name), &retry) && retry;
}

bool check_counter_is_bit_error(const char *name, int set)
{
	if (set == WIN_ETH)
		return eth_error(name);
	/* the PMA's: symbol errors and received packets with errors (bad
	 * CRC among them); not link_downed, discards or VL15 drops */
	return set == WIN_PMA &&
	       (strcmp(name, "symbol_error") == 0 || strcmp(name, "port_rcv_errors") == 0);
}

/* "symbol_error grew by 12 in 60 s (0 to 12)" */
static void grew(const struct check_ctx *c, struct check_buf *obs, size_t *nz,
		 const char *name, const struct counter_change *ch)
{
	char secs[32];

	check_num_str(secs, sizeof(secs), c->inv->window_s);
	check_buf_printf(obs, "%s%s grew by %llu in %s s (%llu to %llu)", *nz ? ", " : "",
			 name, (unsigned long long)ch->delta, secs,
			 (unsigned long long)ch->start, (unsigned long long)ch->end);
	(*nz)++;
}

/* With a window: what grew within it, whatever the lifetime counts. */
static int errors_window(const struct check_ctx *c, struct findings *out,
			 const struct nic *n, const struct port *pt)
{
	struct check_buf obs = { 0 };
	bool link = false, fault = false, retry;
	size_t nz = 0;
	struct counter_change ch;
	struct finding *f;
	char secs[32];
	const struct drv_table *t = drv_table_of(n->driver);
	const struct drv_counter *r;

	for (size_t i = 0; i < N_PMA; i++) {
		/* link_downed growing is a flap: link.flaps says so */
		if (strcmp(pma_errors[i].name, "link_downed") == 0 ||
		    !window_change(pt, false, pma_errors[i].name, &ch) || !ch.delta)
			continue;
		grew(c, &obs, &nz, pma_errors[i].name, &ch);
		if (ch.end >= pma_errors[i].max)
			check_buf_printf(&obs, " (saturated)");
		fault = true;
		if (i <= 4 || i == 9)
			link = true;
	}
	for (unsigned i = 0; (r = hw_next(t, &i, &retry));) {
		if (!window_change(pt, true, r->name, &ch) || !ch.delta)
			continue;
		grew(c, &obs, &nz, r->name, &ch);
		if (!retry)
			fault = link = true;
	}
	for (size_t i = 0; i < pt->eth_stats.n; i++) {
		const char *name = pt->eth_stats.v[i].name;
		char label[96];

		if (!name || !eth_error(name) || !window_change(pt, WIN_ETH, name, &ch) ||
		    !ch.delta)
			continue;
		snprintf(label, sizeof(label), "ethtool %.80s", name);
		grew(c, &obs, &nz, label, &ch);
		fault = link = true;
	}
	if (!nz) {
		check_buf_free(&obs);
		return 0;
	}
	check_num_str(secs, sizeof(secs), c->inv->window_s);
	f = check_add(c, out, "counters.errors", fault ? SEV_ERROR : SEV_WARN,
		      "Error counters growing now mean packets lost or retried now: the "
		      "intermittent stalls that slow training.");
	if (!f) {
		check_buf_free(&obs);
		return -ENOMEM;
	}
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	check_buf_take(&obs, &f->observed);
	finding_set(&f->expected, "no growth within the %s s window", secs);
	if (link && !drv_tools_of_nic(n)->mlx)
		finding_set(&f->fix,
			    "reseat then replace the cable and module, check the module's "
			    "temperature and optical power (" DRV_ETHTOOL_MODULE "), then the "
			    "switch port", pt->netdev ? pt->netdev : "<netdev>");
	else if (link)
		finding_set(&f->fix,
			    "reseat then replace the cable and module, check the module's "
			    "temperature and optical power (`mlxlink -d %s -p %d -m`), then the "
			    "switch port",
			    n->name, pt->num);
	else
		finding_set(&f->fix,
			    "growing discards, sequence errors or ACK timeouts point at congestion "
			    "or a lossy fabric: check PFC and ECN on the NIC and the switch ports");
	return 0;
}

static int flaps(const struct check_ctx *c, struct findings *out, const struct nic *n,
		 const struct port *pt)
{
	struct check_buf obs = { 0 };
	struct counter_change ch;
	size_t nz = 0;
	struct finding *f;
	char secs[32];

	if (window_change(pt, false, "link_downed", &ch) && ch.delta)
		grew(c, &obs, &nz, "link_downed", &ch);
	/* mlx5's PHY link-down count, where the RDMA port has no link_downed
	 * of its own to say it (RoCE) */
	if (window_change(pt, WIN_ETH, ETH_LINK_DOWN, &ch) && ch.delta)
		grew(c, &obs, &nz, "ethtool link_down_events_phy", &ch);
	if (window_carrier(pt, &ch) && ch.delta) {
		char label[96];

		snprintf(label, sizeof(label), "%s carrier_changes",
			 pt->netdev ? pt->netdev : "netdev");
		grew(c, &obs, &nz, label, &ch);
	}
	if (!nz) {
		check_buf_free(&obs);
		return 0;
	}
	check_num_str(secs, sizeof(secs), c->inv->window_s);
	f = check_add(c, out, "link.flaps", SEV_ERROR,
		      "A link that goes down and up drops every connection over it: "
		      "collectives stall or fail, and a job may hang until its timeout.");
	if (!f) {
		check_buf_free(&obs);
		return -ENOMEM;
	}
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	check_buf_take(&obs, &f->observed);
	finding_set(&f->expected, "the link stays up (no link_downed or carrier changes) "
		    "within the %s s window", secs);
	if (drv_tools_of_nic(n)->mlx)
		finding_set(&f->fix,
			    "if nobody took the port down on purpose: reseat then replace the "
			    "cable and module (`mlxlink -d %s -p %d -m` shows its errors and "
			    "temperature), then look at the switch port's log",
			    n->name, pt->num);
	else
		finding_set(&f->fix,
			    "if nobody took the port down on purpose: reseat then replace the "
			    "cable and module (" DRV_ETHTOOL_MODULE " shows its temperature and "
			    "optical power), then look at the switch port's log",
			    pt->netdev ? pt->netdev : "<netdev>");
	return 0;
}

int check_counters(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;

	CHECK_TRY(check_counter_avail(c, out));

	for (size_t i = 0; i < inv->n_nics; i++)
		for (size_t k = 0; k < inv->nics[i].n_ports; k++) {
			const struct nic *n = &inv->nics[i];
			const struct port *pt = &n->ports[k];

			if (inv->window_s > 0) {
				CHECK_TRY(errors_window(c, out, n, pt));
				CHECK_TRY(flaps(c, out, n, pt));
			} else {
				CHECK_TRY(errors(c, out, n, pt));
			}
			CHECK_TRY(saturated(c, out, n, pt));
		}
	return 0;
}
