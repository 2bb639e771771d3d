/* link.ber (src/check/ber.c, docs/checks.md): a window of counters in, the
 * finding out.  One Ethernet port whose FEC statistics (FEC_GET) were read at
 * both ends of a window, or one InfiniBand port whose PMA counters were, on a
 * small machine (check_machine.h); each case puts the figures just under and
 * just over a threshold:
 *   - ber_max (1e-12): InfiniBand symbol errors over the bits the port's rate
 *     carried; on Ethernet any uncorrectable block that grew is an error;
 *   - the pre-FEC limit times ber_near (0.5): 2.5e-5 for RS(528,514) on 25G
 *     lanes, 1.2e-4 for RS(544,514) on 50G and 100G PAM4 lanes: warn;
 *   - "not checked" (info): a window that carried fewer than 1/ber_max bits
 *     (left unsaid between two readings of the agent), a counter that went
 *     down, FEC off, no statistics, no FEC reply, a driver without the
 *     counters; and no finding at all without a window. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <linux/ethtool.h>

#include "check_machine.h"
#include "model/window.h"

#define NONE (-1)	/* no link.ber finding */

/* One NIC with one port of that link layer and rate (Gb/s), up, whose
 * window starts now (every counter's start set by the case). */
static struct port *one_port(struct machine *m, const char *ll, double gbps)
{
	struct nic *n;
	struct port *pt;

	machine_init(m);
	n = add_nic(m, "mlx5_0", "sys/devices/pci0000:10/0000:10:01.0/0000:11:00.0", 0,
		    "ConnectX-7", ll, 1, gbps);
	pt = &n->ports[0];
	pt->start = calloc(1, sizeof(*pt->start));
	assert_non_null(pt->start);
	return pt;
}

/* The ethtool link of an Ethernet port: speed, lanes, the active FEC, and
 * FEC statistics answered (have 1) with nothing counted yet. */
static struct link_info *eth_link(struct port *pt, int64_t mbps, int64_t lanes, int fec_active)
{
	struct link_info *l = calloc(1, sizeof(*l));

	assert_non_null(l);
	link_info_init(l);
	l->speed_mbps = mbps;
	l->lanes = lanes;
	l->fec = 1;
	l->fec_active = fec_active;
	fec_stats_init(&l->fec_stats);
	l->fec_stats.have = 1;
	pt->link = l;
	pt->netdev_speed_mbps = mbps;
	return l;
}

/* A FEC counter's total at the start and the end of the window. */
static void fec_window(struct port *pt, enum fec_counter k, uint64_t start, uint64_t end)
{
	pt->start->fec[k].n = 1;
	pt->start->fec[k].v[0] = start;
	pt->link->fec_stats.c[k].n = 1;
	pt->link->fec_stats.c[k].v[0] = end;
}

/* A PMA counter at the start and the end of the window (the end replaces
 * what port_init put there). */
static void pma_window(struct port *pt, const char *name, uint64_t start, uint64_t end)
{
	struct counter_set *s = &pt->counters;
	size_t i;

	add_counter(&pt->start->counters, name, start);
	for (i = 0; i < s->n && strcmp(s->v[i].name, name) != 0; i++)
		;
	if (i == s->n)
		add_counter(s, name, end);
	else
		s->v[i].value = end;
}

/* The defaults every profile has (profiles/profile.h), and the InfiniBand
 * per-hour ceilings a site may set (0: none). */
static struct profile ber_profile(double symbol_per_hour, double recovery_per_hour)
{
	struct profile p = generic_profile();

	p.ber.max = BER_MAX_DEFAULT;
	p.ber.pre_fec_kr4 = BER_PRE_FEC_KR4_DEFAULT;
	p.ber.pre_fec_kp4 = BER_PRE_FEC_KP4_DEFAULT;
	p.ber.near = BER_NEAR_DEFAULT;
	p.ber.ib_symbol_per_hour = symbol_per_hour;
	p.ber.ib_recovery_per_hour = recovery_per_hour;
	return p;
}

/* check_run over a window of secs; the one link.ber finding's severity
 * (NONE without one), its observed text checked for want (NULL: any). */
static int judge(struct machine *m, const struct profile *p, double secs, bool latched,
		 const char *want)
{
	struct findings fs;
	const struct finding *f;
	int sev = NONE;

	m->inv.window_s = secs;
	m->inv.window_latched = latched;
	run(m, p, &fs);
	assert_true(count_id(&fs, "link.ber") <= 1);
	f = get(&fs, "link.ber", "mlx5_0 port 1");
	if (f) {
		sev = (int)f->severity;
		/* not checked is info, and only info */
		assert_int_equal(f->unchecked, f->severity == SEV_INFO);
		if (want && !strstr(f->observed, want)) {
			fprintf(stderr, "link.ber observed '%s', wanted '%s' in it\n", f->observed,
				want);
			fail();
		}
	} else if (want) {
		fprintf(stderr, "no link.ber (wanted '%s') among:\n", want);
		dump(&fs);
		fail();
	}
	findings_free(&fs);
	machine_free(m);
	return sev;
}

/* ---- Ethernet: FEC statistics over a window ----------------------------- */

struct eth_case {
	const char *name;
	int64_t mbps, lanes;
	int fec_active;
	double secs;
	bool latched;
	/* totals at the start and the end; start UINT64_MAX: not reported */
	uint64_t unc0, unc1, bits0, bits1;
	int sev;		/* NONE or the finding's severity */
	const char *observed;	/* a piece of its observed text */
};

#define RS ETHTOOL_LINK_MODE_FEC_RS_BIT
#define NOTREAD UINT64_MAX

static const struct eth_case eth_cases[] = {
	/* RS(528,514): 100G on 4 lanes of 25G, 60 s carry 6e12 bits; the
	 * near limit 5e-5 * 0.5 = 2.5e-5 is 1.5e8 corrected bits */
	{ "kr4 clean", 100000, 4, RS, 60, false, 5, 5, 1000, 1000, NONE, NULL },
	{ "kr4 just under near", 100000, 4, RS, 60, false, 5, 5, 1000, 1000 + 149000000,
	  NONE, NULL },
	{ "kr4 just over near", 100000, 4, RS, 60, false, 5, 5, 1000, 1000 + 151000000,
	  SEV_WARN, "pre-FEC bit error ratio (RS(528,514)) 2.52e-05" },
	/* RS(544,514): 200G on 4 lanes of 50G, 60 s carry 1.2e13 bits; the
	 * near limit 2.4e-4 * 0.5 = 1.2e-4 is 1.44e9 corrected bits */
	{ "kp4 50G just under near", 200000, 4, RS, 60, false, 0, 0, 0, 1430000000, NONE,
	  NULL },
	{ "kp4 50G just over near", 200000, 4, RS, 60, false, 0, 0, 0, 1450000000, SEV_WARN,
	  "pre-FEC bit error ratio (RS(544,514)) 0.000121" },
	/* 400G on 4 lanes of 100G is RS(544,514) too: 2.4e13 bits, 2.88e9 */
	{ "kp4 100G just under near", 400000, 4, RS, 60, false, 0, 0, 0, 2870000000, NONE,
	  NULL },
	{ "kp4 100G just over near", 400000, 4, RS, 60, false, 0, 0, 0, 2890000000, SEV_WARN,
	  "(RS(544,514))" },
	/* the KR4 figure on a KP4 link would have warned: the code decides */
	{ "kr4 figure on kp4 passes", 200000, 4, RS, 60, false, 0, 0, 0, 1000000000, NONE,
	  NULL },
	/* uncorrectable blocks that grew reached the MAC: an error at once,
	 * and the post-FEC ratio (t + 1 = 8 bits a block) is over ber_max */
	{ "one uncorrectable block", 100000, 4, RS, 60, false, 7, 8, 0, 0, SEV_ERROR,
	  "1 uncorrectable block" },
	{ "uncorrectable growth", 100000, 4, RS, 600, false, 0, 1000, 0, 0, SEV_ERROR,
	  "1000 uncorrectable blocks, post-FEC bit error ratio 1.33e-10" },
	/* BASE-R is no RS code with a limit: growth still errs, bits do not */
	{ "base-r growth", 25000, 1, ETHTOOL_LINK_MODE_FEC_BASER_BIT, 60, false, 0, 2, 0, 0,
	  SEV_ERROR, "2 uncorrectable blocks" },
	{ "base-r many corrected", 25000, 1, ETHTOOL_LINK_MODE_FEC_BASER_BIT, 60, false, 0, 0,
	  0, 1000000000, NONE, NULL },
	/* a window too short: 100G for 5 s is 5e11 bits, fewer than 1e12 */
	{ "window too short", 100000, 4, RS, 5, false, 0, 0, 0, 0, SEV_INFO,
	  "not checked: the window carried fewer than 1e+12 bits" },
	/* between two readings of the agent a short window says nothing */
	{ "short window latched", 100000, 4, RS, 5, true, 0, 0, 0, 0, NONE, NULL },
	/* ... but the growth of uncorrectable blocks is judged over any */
	{ "short window latched growth", 100000, 4, RS, 5, true, 0, 1, 0, 0, SEV_ERROR,
	  "1 uncorrectable block" },
	/* a counter that went down was cleared: not checked, never a pass */
	{ "uncorrectable cleared", 100000, 4, RS, 60, false, 50, 3, 0, 0, SEV_INFO,
	  "the uncorrectable block count went down (cleared) within the window" },
	{ "corrected bits cleared", 100000, 4, RS, 60, false, 0, 0, 900, 10, SEV_INFO,
	  "the corrected bit count went down (cleared) within the window" },
	/* a driver that counts no corrected bits: no pre-FEC ratio */
	{ "no corrected bits", 100000, 4, RS, 60, false, 0, 0, NOTREAD, 0, SEV_INFO,
	  "the driver reports no corrected bit count: no pre-FEC ratio" },
	{ "no uncorrectable count", 100000, 4, RS, 60, false, NOTREAD, 0, 0, 0, SEV_INFO,
	  "the driver reports no uncorrectable block count" },
	/* FEC off: nothing to count by */
	{ "fec off", 100000, 4, ETHTOOL_LINK_MODE_FEC_NONE_BIT, 60, false, 0, 0, 0, 0,
	  SEV_INFO, "FEC is off" },
};

static void eth_thresholds(void **state)
{
	struct profile p = ber_profile(0, 0);

	(void)state;
	for (size_t i = 0; i < sizeof(eth_cases) / sizeof(eth_cases[0]); i++) {
		const struct eth_case *c = &eth_cases[i];
		struct machine m;
		struct port *pt = one_port(&m, "Ethernet", (double)c->mbps / 1000);
		int sev;

		eth_link(pt, c->mbps, c->lanes, c->fec_active);
		if (c->unc0 != NOTREAD)
			fec_window(pt, FEC_UNCORR, c->unc0, c->unc1);
		if (c->bits0 != NOTREAD)
			fec_window(pt, FEC_CORR_BITS, c->bits0, c->bits1);
		fec_window(pt, FEC_CORRECTED, 0, 0);
		sev = judge(&m, &p, c->secs, c->latched, c->observed);
		if (sev != c->sev) {
			fprintf(stderr, "%s: severity %d, wanted %d\n", c->name, sev, c->sev);
			fail();
		}
	}
}

/* Where the FEC statistics cannot be had at all: not checked, the reason
 * named. */
static void eth_no_statistics(void **state)
{
	struct profile p = ber_profile(0, 0);
	struct machine m;
	struct port *pt;

	(void)state;
	/* a snapshot taken without the statistics */
	pt = one_port(&m, "Ethernet", 100);
	eth_link(pt, 100000, 4, RS);
	pt->link->fec_stats.have = 0;
	assert_int_equal(judge(&m, &p, 60, false, "the FEC reply carries no statistics"),
			 SEV_INFO);
	/* not read at the end of the window */
	pt = one_port(&m, "Ethernet", 100);
	eth_link(pt, 100000, 4, RS);
	pt->link->fec_stats.have = -1;
	assert_int_equal(judge(&m, &p, 60, false, "could not be read at the end of the window"),
			 SEV_INFO);
	/* an empty nest: a driver without get_fec_stats */
	pt = one_port(&m, "Ethernet", 100);
	eth_link(pt, 100000, 4, RS);
	assert_int_equal(judge(&m, &p, 60, false, "the driver reports no FEC statistics"),
			 SEV_INFO);
	/* no FEC settings, no reply */
	pt = one_port(&m, "Ethernet", 100);
	eth_link(pt, 100000, 4, RS);
	pt->link->fec = 0;
	assert_int_equal(judge(&m, &p, 60, false, "the driver has no FEC settings"), SEV_INFO);
	pt = one_port(&m, "Ethernet", 100);
	assert_int_equal(judge(&m, &p, 60, false, "FEC_GET was not answered or not captured"),
			 SEV_INFO);
	/* without a window nothing is judged, whatever the counters say */
	pt = one_port(&m, "Ethernet", 100);
	eth_link(pt, 100000, 4, RS);
	fec_window(pt, FEC_UNCORR, 0, 1000);
	assert_int_equal(judge(&m, &p, 0, false, NULL), NONE);
	/* a port that is down is not judged */
	pt = one_port(&m, "Ethernet", 100);
	eth_link(pt, 100000, 4, RS);
	fec_window(pt, FEC_UNCORR, 0, 1000);
	pt->state = 1;
	free(pt->state_name);
	pt->state_name = strdup("DOWN");
	assert_int_equal(judge(&m, &p, 60, false, NULL), NONE);
}

/* Without a profile's figures (watch judges with the defaults; a profile
 * with ber_max 0 judges no ratio): growth still errs. */
static void eth_zero_limits(void **state)
{
	struct profile p = generic_profile();
	struct machine m;
	struct port *pt;

	(void)state;
	pt = one_port(&m, "Ethernet", 100);
	eth_link(pt, 100000, 4, RS);
	fec_window(pt, FEC_UNCORR, 0, 0);
	fec_window(pt, FEC_CORR_BITS, 0, 1000000000);
	assert_int_equal(judge(&m, &p, 60, false, NULL), NONE);
	pt = one_port(&m, "Ethernet", 100);
	eth_link(pt, 100000, 4, RS);
	fec_window(pt, FEC_UNCORR, 0, 3);
	fec_window(pt, FEC_CORR_BITS, 0, 0);
	assert_int_equal(judge(&m, &p, 60, false, "3 uncorrectable blocks"), SEV_ERROR);
}

/* The worst lane, where the driver counts corrected bits per lane. */
static void eth_worst_lane(void **state)
{
	struct profile p = ber_profile(0, 0);
	struct machine m;
	struct port *pt = one_port(&m, "Ethernet", 100);
	struct fec_count *a, *b;

	(void)state;
	eth_link(pt, 100000, 4, RS);
	fec_window(pt, FEC_UNCORR, 0, 0);
	a = &pt->start->fec[FEC_CORR_BITS];
	b = &pt->link->fec_stats.c[FEC_CORR_BITS];
	a->n = b->n = 5;
	b->v[1] = 1000;
	b->v[2] = 160000000;	/* lane 1: 1.6e8 of 1.5e12 bits, 1.07e-4 */
	b->v[3] = 2000;
	b->v[4] = 3000;
	b->v[0] = b->v[1] + b->v[2] + b->v[3] + b->v[4];
	assert_int_equal(judge(&m, &p, 60, false, "(lane 1 the worst: 0.000107)"), SEV_WARN);
}

/* ---- InfiniBand: the PMA's symbol errors ------------------------------- */

struct ib_case {
	const char *name;
	double secs;
	uint64_t sym0, sym1, rec0, rec1;
	double sym_per_hour, rec_per_hour;
	int sev;
	const char *observed;
};

static const struct ib_case ib_cases[] = {
	/* 200 Gb/s for 100 s carry 2e13 bits: ber_max 1e-12 is 20 errors */
	{ "clean", 100, 3, 3, 0, 0, 0, 0, NONE, NULL },
	{ "symbol errors just under ber_max", 100, 0, 19, 0, 0, 0, 0, NONE, NULL },
	{ "symbol errors just over ber_max", 100, 0, 21, 0, 0, 0, 0, SEV_ERROR,
	  "symbol errors 756 per hour, symbol error ratio 1.05e-12" },
	/* 2 s carry 4e11 bits: too few to tell */
	{ "window too short", 2, 0, 0, 0, 0, 0, 0, SEV_INFO,
	  "not checked: the window carried fewer than 1e+12 bits" },
	{ "window too short latched", 2, 0, 0, 0, 0, 0, 0, NONE, NULL },
	{ "symbol_error cleared", 100, 40, 2, 0, 0, 0, 0, SEV_INFO,
	  "symbol_error went down (cleared) within the window" },
	{ "symbol_error saturated", 100, 65000, 65535, 0, 0, 0, 0, SEV_INFO,
	  "symbol_error is saturated at 65535" },
	/* a site's ceilings per hour: 100 s at 36 an hour is one event */
	{ "recoveries at the ceiling", 100, 0, 0, 0, 1, 0, 36, NONE, NULL },
	{ "recoveries over the ceiling", 100, 0, 0, 0, 2, 0, 36, SEV_ERROR,
	  "link error recoveries 72 per hour" },
	{ "symbols over the ceiling", 100, 0, 3, 0, 0, 72, 0, SEV_ERROR,
	  "symbol errors 108 per hour" },
	{ "window shorter than one event an hour", 100, 0, 0, 0, 0, 10, 0, SEV_INFO,
	  "a window shorter than 360 s cannot tell symbol errors per hour from 10" },
};

static void ib_thresholds(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(ib_cases) / sizeof(ib_cases[0]); i++) {
		const struct ib_case *c = &ib_cases[i];
		struct profile p = ber_profile(c->sym_per_hour, c->rec_per_hour);
		struct machine m;
		struct port *pt = one_port(&m, "InfiniBand", 200);
		int sev;

		pma_window(pt, "symbol_error", c->sym0, c->sym1);
		pma_window(pt, "link_error_recovery", c->rec0, c->rec1);
		sev = judge(&m, &p, c->secs, strstr(c->name, "latched") != NULL, c->observed);
		if (sev != c->sev) {
			fprintf(stderr, "%s: severity %d, wanted %d\n", c->name, sev, c->sev);
			fail();
		}
	}
}

/* A counter not read at one end of the window is named, not passed. */
static void ib_not_read(void **state)
{
	struct profile p = ber_profile(0, 0);
	struct machine m;
	struct port *pt = one_port(&m, "InfiniBand", 200);

	(void)state;
	pma_window(pt, "symbol_error", 0, 0);
	assert_int_equal(judge(&m, &p, 100, false,
			       "link_error_recovery not read at both ends of the window"),
			 SEV_INFO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(eth_thresholds),
		cmocka_unit_test(eth_no_statistics),
		cmocka_unit_test(eth_zero_limits),
		cmocka_unit_test(eth_worst_lane),
		cmocka_unit_test(ib_thresholds),
		cmocka_unit_test(ib_not_read),
	};

	return cmocka_run_group_tests_name("check_ber", tests, NULL, NULL);
}
