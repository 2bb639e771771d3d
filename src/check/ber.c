/* link.ber: the bit errors of a link over a window of samples (watch,
 * check --window, and the agent's memory from its last reading to this
 * one: check --state, serve), in the terms the standards set them.
 *
 * Ethernet: the FEC statistics of FEC_GET (model/fec_stats.h).  The link
 * carries bits at its line rate whether or not there is traffic (idles are
 * coded and checked too), so the bits carried are the link's speed times
 * the window; the FEC's own overhead (3 % for RS(528,514), 6 % for
 * RS(544,514)) is not counted, so the ratios err a few per cent high.
 *   - uncorrectable blocks that grew reached the MAC as errors: error;
 *   - the post-FEC ratio is at least (t + 1) bits per uncorrectable block
 *     (a Reed-Solomon codeword fails only past t symbol errors): error past
 *     the profile's ber_max, the standards' 1e-12;
 *   - the pre-FEC ratio, corrected bits over bits carried, near the limit
 *     the FEC is built for (ber_pre_fec_kr4, _kp4 times ber_near): warn,
 *     the link has no margin left.
 * InfiniBand: the PMA's symbol_error over the bits carried at the port's
 * rate against ber_max, and symbol errors and link error recoveries per
 * hour against the profile's per-hour ceilings where it sets them.
 *
 * A window too short for a ratio or a per-hour rate to be told apart from
 * its limit (one error would pass it), a counter that went down (cleared)
 * or one that could not be read gives "not checked" with the reason, never
 * a pass.  docs/checks.md names the source of each default. */
#include "families.h"
#include "../model/driver_tools.h"
#include "../model/window.h"

#include <linux/ethtool.h>
#include <math.h>
#include <stdio.h>

/* What one criterion found. */
enum verdict { V_OK, V_WARN, V_ERROR, V_UNKNOWN };

struct judged {
	enum verdict v;
	/* the window is the agent's memory's, from its last reading to this
	 * one (docs/state.md): one too short for a ratio or a per-hour rate
	 * says nothing of it, rather than "not checked" at every reading of
	 * a healthy link; the growth of uncorrectable blocks is judged over
	 * any window */
	bool latched;
	/* latched, and a ratio or a per-hour rate was left unsaid for it */
	bool unsaid;
	/* judged over the long window, from the boot's first reading of the
	 * agent to this one: only ratios and rates, the growth of a count
	 * since then being old news the short window already told */
	bool boot;
	struct check_buf what;	/* observed: what was measured */
	struct check_buf why;	/* not checked: why not */
	struct check_buf want;	/* expected */
};

static void worse(struct judged *j, enum verdict v)
{
	/* an exceeded limit outweighs what could not be judged */
	if (v == V_ERROR || (v == V_WARN && j->v != V_ERROR) ||
	    (v == V_UNKNOWN && j->v == V_OK))
		j->v = v;
}

static void unknown(struct judged *j, const char *text)
{
	check_buf_printf(&j->why, "%s%s", j->why.len ? "; " : "", text);
	worse(j, V_UNKNOWN);
}

static struct ber_spec spec_of(const struct check_ctx *c)
{
	struct ber_spec d = { .max = BER_MAX_DEFAULT, .pre_fec_kr4 = BER_PRE_FEC_KR4_DEFAULT,
			      .pre_fec_kp4 = BER_PRE_FEC_KP4_DEFAULT,
			      .near = BER_NEAR_DEFAULT };

	/* watch judges without a profile: the defaults every profile has */
	return c->p ? c->p->ber : d;
}

/* The link's rate in bit/s and where it came from; 0 unknown. */
static double line_bps(const struct port *pt, const char **from)
{
	if (pt->link && !IS_NA(pt->link->speed_mbps) && pt->link->speed_mbps > 0) {
		*from = "ethtool link speed";
		return (double)pt->link->speed_mbps * 1e6;
	}
	if (check_port_is_eth(pt) && !IS_NA(pt->netdev_speed_mbps) && pt->netdev_speed_mbps > 0) {
		*from = "netdev speed";
		return (double)pt->netdev_speed_mbps * 1e6;
	}
	if (isfinite(pt->rate_gbps) && pt->rate_gbps > 0) {
		*from = "port rate";
		return pt->rate_gbps * 1e9;
	}
	*from = NULL;
	return 0;
}

static void sci(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.3g", v);
}

/* ratio = errors / bits against max; the window must carry 1/max bits,
 * or a single error would pass the limit and none would prove nothing. */
static void ratio(struct judged *j, const char *what, double errors, double bits, double secs,
		  double max, enum verdict over)
{
	char r[32], m[32], need[32];

	if (max <= 0)
		return;
	sci(m, sizeof(m), max);
	check_buf_printf(&j->want, "%s%s at most %s", j->want.len ? ", " : "", what, m);
	if (bits <= 0) {
		check_buf_printf(&j->why, "%s%s: the link's rate is not known",
				 j->why.len ? "; " : "", what);
		worse(j, V_UNKNOWN);
		return;
	}
	sci(r, sizeof(r), errors / bits);
	check_buf_printf(&j->what, "%s%s %s", j->what.len ? ", " : "", what, r);
	if (errors / bits > max && bits * max >= 1) {
		worse(j, over);
		return;
	}
	if (bits * max < 1 && j->latched)
		j->unsaid = true;
	if (bits * max < 1 && !j->latched) {
		sci(need, sizeof(need), 1 / max);
		check_buf_printf(&j->why, "%sthe window carried fewer than %s bits, too few to "
				 "tell the %s from %s (at this speed: a window of %.0f s or more)",
				 j->why.len ? "; " : "", need, what, m, ceil(secs / (bits * max)));
		worse(j, V_UNKNOWN);
	}
}

/* A per-hour rate of a counter change over the window against a ceiling
 * (0: not judged); the window must be long enough that one event is
 * within it. */
static void per_hour(struct judged *j, const char *what, const struct counter_change *ch,
		     double secs, double ceiling)
{
	char r[32], m[32];
	double rate = (double)ch->delta * 3600 / secs;

	/* whole numbers where they are large: "3900000 per hour" */
	snprintf(r, sizeof(r), rate >= 1000 ? "%.0f" : "%.3g", rate);
	check_buf_printf(&j->what, "%s%s %s per hour", j->what.len ? ", " : "", what, r);
	if (ceiling <= 0)
		return;
	sci(m, sizeof(m), ceiling);
	check_buf_printf(&j->want, "%s%s at most %s per hour", j->want.len ? ", " : "", what, m);
	if (secs * ceiling < 3600) {
		if (j->latched) {
			j->unsaid = true;
			return;
		}
		check_buf_printf(&j->why, "%sa window shorter than %.0f s cannot tell %s per "
				 "hour from %s", j->why.len ? "; " : "", ceil(3600 / ceiling),
				 what, m);
		worse(j, V_UNKNOWN);
	} else if (rate > ceiling) {
		worse(j, V_ERROR);
	}
}

/* Which RS code the active FEC is, from the lane rate: RS(528,514) on
 * 25 Gb/s NRZ lanes, RS(544,514) on 50 and 100 Gb/s PAM4 ones (IEEE 802.3
 * Clause 91 and 134); t the symbols it corrects.  NULL: not an RS code
 * whose limit the profile has (BASE-R, LLRS). */
static const char *rs_code(const struct port *pt, const struct ber_spec *s, int *t,
			   double *limit)
{
	const struct link_info *l = pt->link;
	int64_t lanes = !IS_NA(l->lanes) ? l->lanes : pt->lanes;

	if (l->fec_active != ETHTOOL_LINK_MODE_FEC_RS_BIT || IS_NA(l->speed_mbps) ||
	    IS_NA(lanes) || lanes <= 0)
		return NULL;
	if (l->speed_mbps / lanes >= 50000) {
		*t = 15;
		*limit = s->pre_fec_kp4;
		return "RS(544,514)";
	}
	*t = 7;
	*limit = s->pre_fec_kr4;
	return "RS(528,514)";
}

/* Why the FEC statistics cannot be judged; NULL when they can. */
static const char *fec_unreadable(const struct port *pt)
{
	const struct link_info *l = pt->link;

	if (pt->n_slaves)
		return "RoCE LAG: the bond's members' FEC statistics are not sampled over a window";
	if (!l || l->fec == -1)
		return "FEC_GET was not answered or not captured";
	if (l->fec == 0)
		return "the driver has no FEC settings (FEC_GET not supported)";
	if (l->fec_active == ETHTOOL_LINK_MODE_FEC_NONE_BIT)
		return "FEC is off: there are no FEC statistics to count bit errors by";
	if (l->fec_stats.have == 0)
		return "the FEC reply carries no statistics (a snapshot taken without them)";
	if (l->fec_stats.have == -1)
		return "the FEC statistics could not be read at the end of the window";
	if (!fec_stats_any(&l->fec_stats))
		return "the driver reports no FEC statistics";
	return NULL;
}

/* The lane with the most corrected bits over the window, where the driver
 * counts per lane at both ends: one lane far above the others is one
 * fibre, one laser or one SerDes, not the whole cable. */
static void worst_lane(struct judged *j, const struct port *pt, double bits)
{
	const struct fec_count *a = &pt->start->fec[FEC_CORR_BITS];
	const struct fec_count *b = &pt->link->fec_stats.c[FEC_CORR_BITS];
	uint64_t most = 0;
	size_t worst = 0;
	char r[32];

	if (a->n != b->n || b->n < 2 || !(bits > 0))
		return;
	for (size_t i = 1; i < b->n; i++) {
		if (b->v[i] < a->v[i])
			return;	/* cleared: no lane can be told */
		if (b->v[i] - a->v[i] > most) {
			most = b->v[i] - a->v[i];
			worst = i - 1;
		}
	}
	if (!most)
		return;
	sci(r, sizeof(r), (double)most / (bits / (double)(b->n - 1)));
	check_buf_printf(&j->what, " (lane %zu the worst: %s)", worst, r);
}

static void judge_eth(const struct port *pt, const struct ber_spec *s, double secs,
		      struct judged *j, const char **rate_from)
{
	struct counter_change unc = { 0 }, bits_ch = { 0 };
	double bits = line_bps(pt, rate_from) * secs, limit = 0;
	const char *why = fec_unreadable(pt), *code;
	bool have_unc, have_bits, bits_reset = false;
	char buf[64];
	int t = 0;

	if (why) {
		unknown(j, why);
		return;
	}
	code = rs_code(pt, s, &t, &limit);
	have_unc = window_fec(pt, FEC_UNCORR, &unc);
	have_bits = window_fec(pt, FEC_CORR_BITS, &bits_ch);
	if (have_unc && unc.reset) {
		unknown(j, "the uncorrectable block count went down (cleared) within the window");
		have_unc = false;
	}
	if (have_bits && bits_ch.reset) {
		unknown(j, "the corrected bit count went down (cleared) within the window");
		have_bits = false;
		bits_reset = true;
	}
	if (have_unc) {
		check_buf_printf(&j->what, "%llu uncorrectable %s", (unsigned long long)unc.delta,
				 unc.delta == 1 ? "block" : "blocks");
		check_buf_printf(&j->want, "no uncorrectable blocks");
		if (unc.delta && !j->boot)
			worse(j, V_ERROR);
		/* at least t + 1 bits of each failed codeword were wrong */
		if (code)
			ratio(j, "post-FEC bit error ratio", (double)unc.delta * (t + 1), bits, secs,
			      s->max, V_ERROR);
	} else if (!j->why.len) {
		unknown(j, "the driver reports no uncorrectable block count");
	}
	if (!have_bits) {
		if (!bits_reset && code)
			unknown(j, "the driver reports no corrected bit count: no pre-FEC ratio");
		return;
	}
	if (code && limit > 0 && s->near > 0) {
		snprintf(buf, sizeof(buf), "pre-FEC bit error ratio (%s)", code);
		ratio(j, buf, (double)bits_ch.delta, bits, secs, limit * s->near, V_WARN);
	} else if (bits > 0) {
		sci(buf, sizeof(buf), (double)bits_ch.delta / bits);
		check_buf_printf(&j->what, "%spre-FEC bit error ratio %s", j->what.len ? ", " : "",
				 buf);
	}
	worst_lane(j, pt, bits);
}

static void judge_ib(const struct port *pt, const struct ber_spec *s, double secs,
		     struct judged *j, const char **rate_from)
{
	static const char *const names[] = { "symbol_error", "link_error_recovery" };
	static const char *const words[] = { "symbol errors", "link error recoveries" };
	/* the PMA counters' widths (IBA PortCounters: 16 and 8 bits): one that
	 * stopped there counted less than happened (counters.saturated) */
	static const uint64_t widths[] = { 65535, 255 };
	const double ceilings[] = { s->ib_symbol_per_hour, s->ib_recovery_per_hour };
	double bits = line_bps(pt, rate_from) * secs;

	for (int i = 0; i < 2; i++) {
		struct counter_change ch = { 0 };
		const struct counter *c;

		if (!window_change(pt, WIN_PMA, names[i], &ch) || ch.reset) {
			check_buf_printf(&j->why, "%s%s %s", j->why.len ? "; " : "", names[i],
					 ch.reset ? "went down (cleared) within the window" :
					 "not read at both ends of the window");
			worse(j, V_UNKNOWN);
			continue;
		}
		c = counter_find(&pt->counters, names[i]);
		if (c && !c->ext && ch.end >= widths[i]) {
			check_buf_printf(&j->why, "%s%s is saturated at %llu", j->why.len ? "; " : "",
					 names[i], (unsigned long long)widths[i]);
			worse(j, V_UNKNOWN);
			continue;
		}
		per_hour(j, words[i], &ch, secs, ceilings[i]);
		if (i == 0)
			ratio(j, "symbol error ratio", (double)ch.delta, bits, secs, s->max, V_ERROR);
	}
}

static int report(const struct check_ctx *c, struct findings *out, const struct nic *n,
		  const struct port *pt, struct judged *j, const char *rate_from, double window)
{
	char secs[32];
	struct finding *f;
	bool eth = check_port_is_eth(pt);

	if (j->v == V_OK)
		return 0;
	f = check_add(c, out, "link.ber",
		      j->v == V_ERROR ? SEV_ERROR : j->v == V_WARN ? SEV_WARN : SEV_INFO,
		      eth ? "Bit errors past what the FEC corrects reach the MAC as dropped "
			    "frames, which RoCE retransmits with a stall each time; a pre-FEC "
			    "ratio near the FEC's limit leaves no margin for a warmer module "
			    "or a dirtier fibre." :
			    "Symbol errors and link error recoveries past the link's bit "
			    "error target cost retransmissions and stalls; they come from the "
			    "cable, the module or the port.");
	if (!f)
		return -ENOMEM;
	f->unchecked = j->v == V_UNKNOWN;
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	check_num_str(secs, sizeof(secs), window);
	if (j->v == V_UNKNOWN) {
		finding_set(&f->observed, "not checked: %s", check_buf_str(&j->why));
		if (drv_tools_of_nic(n)->mlx)
			finding_set(&f->fix, "where the window was too short, a longer one "
				    "(`rdmadoctor check --window 600`); a driver without the "
				    "counters named cannot be judged this way: `mlxlink -d %s -c` "
				    "shows the BER", n->name);
		else	/* mlxlink answers only ConnectX: ethtool's FEC statistics */
			finding_set(&f->fix, "where the window was too short, a longer one "
				    "(`rdmadoctor check --window 600`); a driver without the "
				    "counters named cannot be judged this way: " DRV_ETHTOOL_FEC
				    " shows the corrected and uncorrected FEC blocks",
				    pt->netdev ? pt->netdev : "<netdev>");
	} else {
		finding_set(&f->observed, j->boot ? "%s in the %s s since this boot's first reading "
			    "(bits carried at the %s; the time between two readings is too short "
			    "to tell)" : "%s in a %s s window (bits carried at the %s)",
			    check_buf_str(&j->what), secs, rate_from ? rate_from : "?");
		if (!eth && !drv_tools_of_nic(n)->mlx)
			finding_set(&f->fix, "reseat, then swap the cable or module (" DRV_ETHTOOL_FEC
				    " shows the FEC blocks per lane), then the switch port",
				    pt->netdev ? pt->netdev : "<netdev>");
		else
		finding_set(&f->fix, eth ?
			    "reseat, then swap the cable or module; check `ethtool -I --show-fec "
			    "%s` per lane and `ethtool -m %s` optical power, then the switch port" :
			    "reseat, then swap the cable or module (`mlxlink -d %s -c` shows the "
			    "BER per lane), then the switch port", eth && pt->netdev ? pt->netdev :
			    n->name, eth && pt->netdev ? pt->netdev : n->name);
	}
	finding_set(&f->expected, "%s", j->want.len ? check_buf_str(&j->want) :
		    "a bit error ratio within the standards' target");
	return 0;
}

static void judge(const struct port *pt, const struct ber_spec *s, double secs,
		  struct judged *j, const char **rate_from)
{
	if (check_port_is_eth(pt))
		judge_eth(pt, s, secs, j, rate_from);
	else
		judge_ib(pt, s, secs, j, rate_from);
}

static void judged_free(struct judged *j)
{
	check_buf_free(&j->what);
	check_buf_free(&j->why);
	check_buf_free(&j->want);
}

static bool judged_nomem(const struct judged *j)
{
	return j->what.nomem || j->why.nomem || j->want.nomem;
}

/* The short window between two readings left a ratio or a rate unsaid:
 * judged again over the long one (the boot's first reading to this one),
 * which speaks only of a limit passed; 1 it did (*b filled), 0 not. */
static int judge_boot(const struct inventory *inv, const struct port *pt,
		      const struct ber_spec *s, const struct judged *j, struct judged *b,
		      const char **rate_from)
{
	struct port alt;

	if (!j->unsaid || j->v != V_OK || !pt->start_boot || !(inv->window_boot_s > inv->window_s))
		return 0;
	alt = *pt;	/* the same port, its window the long one */
	alt.start = pt->start_boot;
	judge(&alt, s, inv->window_boot_s, b, rate_from);
	if (judged_nomem(b))
		return -ENOMEM;
	return b->v == V_ERROR || b->v == V_WARN;
}

int check_ber(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;
	struct ber_spec s = spec_of(c);

	if (!(inv->window_s > 0))
		return 0;
	for (size_t i = 0; i < inv->n_nics; i++)
		for (size_t k = 0; k < inv->nics[i].n_ports; k++) {
			const struct port *pt = &inv->nics[i].ports[k];
			struct judged j = { .v = V_OK, .latched = inv->window_latched };
			struct judged b = { .v = V_OK, .latched = true, .boot = true };
			const char *rate_from = NULL, *boot_from = NULL;
			int rc;

			/* rxe and siw have no wire of their own: the netdev
			 * under them is not theirs to judge */
			if (!pt->start || !port_is_up(pt) || check_nic_is_software(&inv->nics[i]) ||
			    (!check_port_is_eth(pt) && !check_port_is_ib(pt)))
				continue;
			judge(pt, &s, inv->window_s, &j, &rate_from);
			rc = judged_nomem(&j) ? -ENOMEM : judge_boot(inv, pt, &s, &j, &b, &boot_from);
			if (rc > 0)
				rc = report(c, out, &inv->nics[i], pt, &b, boot_from, inv->window_boot_s);
			else if (rc == 0)
				rc = report(c, out, &inv->nics[i], pt, &j, rate_from, inv->window_s);
			judged_free(&j);
			judged_free(&b);
			CHECK_TRY(rc);
		}
	return 0;
}
