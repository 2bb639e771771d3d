/* ethtool netlink LINKMODES_GET and FEC_GET (src/nl/link_modes.c):
 * replies built byte by byte as net/ethtool/netlink.c, linkmodes.c, fec.c
 * and bitset.c lay them out (nlmsghdr, genlmsghdr with the _GET_REPLY
 * command, the reply header nest with NLA_F_NESTED, then the attributes;
 * bitsets compact {SIZE, VALUE, MASK} or verbose {SIZE, BITS {BIT {INDEX,
 * NAME, VALUE}}}, NOMASK for value-only lists), the request layout and the
 * kernel's link-mode names.
 *
 * FEC statistics (the ETHTOOL_A_FEC_STATS nest, src/nl/fec_stats.c) are
 * built the same way, from source: net/ethtool/fec.c fec_put_stats (u64
 * arrays [total, lanes...] through nla_reserve_64bit, STAT_PAD where the
 * architecture aligns) and 6.18's fec_put_hist (a HIST nest per bin:
 * BIN_LOW, BIN_HIGH u32, BIN_VAL as NLA_UINT, BIN_VAL_PER_LANE u64s).  No
 * kernel at hand reports FEC statistics: the VM's Debian 6.1 has no
 * netdevsim (CONFIG_NETDEVSIM off; its get_fec_stats came with 6.18 in any
 * case), and virtio_net, veth and lo have no FEC at all.
 *
 * With RD_LINK_MODES_CORPUS=DIR set, the well-formed replies are also
 * written there (tests/fuzz/corpus/link_modes/ was made that way), and
 * with RD_FEC_STATS_CORPUS=DIR the stats nests' payloads
 * (tests/fuzz/corpus/fec_stats/). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nlmsg.h"

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "model/link_modes.h"
#include "nl/fec_stats.h"
#include "nl/link_modes.h"

#define FAM 23	/* any id nlctrl might hand out */
#define NBITS 103	/* __ETHTOOL_LINK_MODE_MASK_NBITS of 6.12 */
#define WORDS ((NBITS + 31) / 32)

static void save(const char *name, const struct msg *m)
{
	corpus_save("RD_LINK_MODES_CORPUS", name, m->b, m->len);
}

static void header(struct msg *m, uint8_t cmd)
{
	begin(m, FAM, cmd);
	nest_begin(m, 1);	/* ETHTOOL_A_*_HEADER */
	u32a(m, ETHTOOL_A_HEADER_DEV_INDEX, 5);
	attr(m, ETHTOOL_A_HEADER_DEV_NAME, "enp24s0np0", 11);
	nest_end(m);
}

static void set(uint32_t *w, unsigned bit)
{
	w[bit / 32] |= 1u << (bit % 32);
}

/* ethnl_put_bitset32, compact: NOMASK when mask is NULL, SIZE, VALUE, MASK */
static void compact(struct msg *m, uint16_t type, const uint32_t *val, const uint32_t *mask,
		    uint32_t nbits)
{
	size_t words = (nbits + 31) / 32;

	nest_begin(m, type);
	if (!mask)
		attr(m, ETHTOOL_A_BITSET_NOMASK, NULL, 0);
	u32a(m, ETHTOOL_A_BITSET_SIZE, nbits);
	attr(m, ETHTOOL_A_BITSET_VALUE, val, words * 4);
	if (mask)
		attr(m, ETHTOOL_A_BITSET_MASK, mask, words * 4);
	nest_end(m);
}

/* ethnl_put_bitset32, verbose: a BIT for every bit of the mask (or of the
 * value for NOMASK), its VALUE flag when set in the value */
static void verbose(struct msg *m, uint16_t type, const uint32_t *val, const uint32_t *mask,
		    uint32_t nbits)
{
	nest_begin(m, type);
	if (!mask)
		attr(m, ETHTOOL_A_BITSET_NOMASK, NULL, 0);
	u32a(m, ETHTOOL_A_BITSET_SIZE, nbits);
	nest_begin(m, ETHTOOL_A_BITSET_BITS);
	for (uint32_t i = 0; i < nbits; i++) {
		const uint32_t *which = mask ? mask : val;
		const char *name = link_mode_name(i);

		if (!((which[i / 32] >> (i % 32)) & 1))
			continue;
		nest_begin(m, ETHTOOL_A_BITSET_BITS_BIT);
		u32a(m, ETHTOOL_A_BITSET_BIT_INDEX, i);
		attr(m, ETHTOOL_A_BITSET_BIT_NAME, name, strlen(name) + 1);
		if (mask && ((val[i / 32] >> (i % 32)) & 1))
			attr(m, ETHTOOL_A_BITSET_BIT_VALUE, NULL, 0);
		nest_end(m);
	}
	nest_end(m);
	nest_end(m);
}

/* A CX-7 400G port: supports 400G SR4/CR4/DR4 and 200G CR4, advertises the
 * 400G ones; the partner advertises 400000baseCR4. */
static void modes(uint32_t *sup, uint32_t *adv, uint32_t *peer)
{
	memset(sup, 0, WORDS * 4);
	memset(adv, 0, WORDS * 4);
	memset(peer, 0, WORDS * 4);
	set(sup, ETHTOOL_LINK_MODE_Autoneg_BIT);
	set(sup, ETHTOOL_LINK_MODE_FIBRE_BIT);
	set(sup, ETHTOOL_LINK_MODE_200000baseCR4_Full_BIT);
	set(sup, ETHTOOL_LINK_MODE_400000baseSR4_Full_BIT);
	set(sup, ETHTOOL_LINK_MODE_400000baseCR4_Full_BIT);
	set(sup, ETHTOOL_LINK_MODE_400000baseDR4_Full_BIT);
	set(adv, ETHTOOL_LINK_MODE_Autoneg_BIT);
	set(adv, ETHTOOL_LINK_MODE_400000baseSR4_Full_BIT);
	set(adv, ETHTOOL_LINK_MODE_400000baseCR4_Full_BIT);
	set(peer, ETHTOOL_LINK_MODE_400000baseCR4_Full_BIT);
}

/* linkmodes_fill_reply: AUTONEG, OURS, PEER, SPEED, DUPLEX, LANES, then
 * master-slave (absent on Ethernet NICs) */
static void linkmodes_reply(struct msg *m, bool verb)
{
	uint32_t sup[WORDS], adv[WORDS], peer[WORDS];

	modes(sup, adv, peer);
	header(m, ETHTOOL_MSG_LINKMODES_GET_REPLY);
	u8a(m, ETHTOOL_A_LINKMODES_AUTONEG, AUTONEG_ENABLE);
	(verb ? verbose : compact)(m, ETHTOOL_A_LINKMODES_OURS, adv, sup, NBITS);
	(verb ? verbose : compact)(m, ETHTOOL_A_LINKMODES_PEER, peer, NULL, NBITS);
	u32a(m, ETHTOOL_A_LINKMODES_SPEED, 400000);
	u8a(m, ETHTOOL_A_LINKMODES_DUPLEX, DUPLEX_FULL);
	u32a(m, ETHTOOL_A_LINKMODES_LANES, 4);
	end(m);
}

static void check_cx7(const struct link_info *l)
{
	assert_int_equal(l->linkmodes, 1);
	assert_int_equal(l->autoneg, 1);
	assert_int_equal(l->speed_mbps, 400000);
	assert_int_equal(l->duplex, 1);
	assert_int_equal(l->lanes, 4);
	assert_true(l->has_modes && l->has_peer);
	assert_true(link_mode_has(l->supported, ETHTOOL_LINK_MODE_200000baseCR4_Full_BIT));
	assert_true(link_mode_has(l->supported, ETHTOOL_LINK_MODE_400000baseDR4_Full_BIT));
	assert_false(link_mode_has(l->supported, ETHTOOL_LINK_MODE_100000baseCR4_Full_BIT));
	assert_true(link_mode_has(l->advertised, ETHTOOL_LINK_MODE_400000baseSR4_Full_BIT));
	assert_false(link_mode_has(l->advertised, ETHTOOL_LINK_MODE_200000baseCR4_Full_BIT));
	assert_true(link_mode_has(l->peer, ETHTOOL_LINK_MODE_400000baseCR4_Full_BIT));
	assert_false(link_mode_has(l->peer, ETHTOOL_LINK_MODE_400000baseSR4_Full_BIT));
	/* FEC untouched by a LINKMODES reply */
	assert_int_equal(l->fec, -1);
}

static void linkmodes_compact(void **state)
{
	struct link_info l;
	struct msg m;
	(void)state;

	linkmodes_reply(&m, false);
	save("linkmodes_compact", &m);
	link_info_init(&l);
	assert_int_equal(ethnl_parse_linkmodes(m.b, m.len, FAM, &l), 0);
	check_cx7(&l);
	/* a snapshot's reply: any family */
	link_info_init(&l);
	assert_int_equal(ethnl_parse_linkmodes(m.b, m.len, 0, &l), 0);
	check_cx7(&l);
	/* another family's message, or the FEC command: not this reply */
	assert_int_equal(ethnl_parse_linkmodes(m.b, m.len, FAM + 1, &l), -EINVAL);
	assert_int_equal(ethnl_parse_fec(m.b, m.len, FAM, &l), -EINVAL);
}

static void linkmodes_verbose(void **state)
{
	struct link_info l;
	struct msg m;
	(void)state;

	linkmodes_reply(&m, true);
	save("linkmodes_verbose", &m);
	link_info_init(&l);
	assert_int_equal(ethnl_parse_linkmodes(m.b, m.len, FAM, &l), 0);
	check_cx7(&l);
}

/* veth: speed 10000, full, autoneg off, no link modes at all; an
 * interface without a speed sends SPEED_UNKNOWN and DUPLEX_UNKNOWN */
static void linkmodes_veth_and_unknown(void **state)
{
	uint32_t none[WORDS] = { 0 };
	struct link_info l;
	struct msg m;
	(void)state;

	header(&m, ETHTOOL_MSG_LINKMODES_GET_REPLY);
	u8a(&m, ETHTOOL_A_LINKMODES_AUTONEG, AUTONEG_DISABLE);
	compact(&m, ETHTOOL_A_LINKMODES_OURS, none, none, NBITS);
	u32a(&m, ETHTOOL_A_LINKMODES_SPEED, 10000);
	u8a(&m, ETHTOOL_A_LINKMODES_DUPLEX, DUPLEX_FULL);
	end(&m);
	save("linkmodes_veth", &m);
	link_info_init(&l);
	assert_int_equal(ethnl_parse_linkmodes(m.b, m.len, FAM, &l), 0);
	assert_int_equal(l.autoneg, 0);
	assert_int_equal(l.speed_mbps, 10000);
	assert_int_equal(l.lanes, INT64_MIN);
	assert_true(l.has_modes);
	assert_false(l.has_peer);
	for (unsigned i = 0; i < LINK_MODE_WORDS; i++)
		assert_int_equal(l.supported[i] | l.advertised[i], 0);

	header(&m, ETHTOOL_MSG_LINKMODES_GET_REPLY);
	u32a(&m, ETHTOOL_A_LINKMODES_SPEED, SPEED_UNKNOWN);
	u8a(&m, ETHTOOL_A_LINKMODES_DUPLEX, DUPLEX_UNKNOWN);
	end(&m);
	link_info_init(&l);
	assert_int_equal(ethnl_parse_linkmodes(m.b, m.len, FAM, &l), 0);
	assert_int_equal(l.speed_mbps, INT64_MIN);
	assert_int_equal(l.duplex, -1);
	assert_int_equal(l.autoneg, -1);
	assert_false(l.has_modes);
}

static void fec_reply(struct msg *m, bool verb, unsigned configured, int fec_auto,
		      unsigned active)
{
	uint32_t cfg[WORDS] = { 0 };

	set(cfg, configured);
	header(m, ETHTOOL_MSG_FEC_GET_REPLY);
	(verb ? verbose : compact)(m, ETHTOOL_A_FEC_MODES, cfg, NULL, NBITS);
	u8a(m, ETHTOOL_A_FEC_AUTO, (uint8_t)fec_auto);
	if (active)
		u32a(m, ETHTOOL_A_FEC_ACTIVE, active);
	end(m);
}

static void fec_rs_and_off(void **state)
{
	struct link_info l;
	struct msg m;
	(void)state;

	/* configured auto + RS, active RS (a 400G PAM4 link) */
	fec_reply(&m, false, ETHTOOL_LINK_MODE_FEC_RS_BIT, 1, ETHTOOL_LINK_MODE_FEC_RS_BIT);
	save("fec_rs", &m);
	link_info_init(&l);
	assert_int_equal(ethnl_parse_fec(m.b, m.len, FAM, &l), 0);
	assert_int_equal(l.fec, 1);
	assert_int_equal(l.fec_auto, 1);
	assert_int_equal(l.fec_active, ETHTOOL_LINK_MODE_FEC_RS_BIT);
	assert_string_equal(link_fec_name(l.fec_active), "RS");
	assert_true(link_mode_has(l.fec_configured, ETHTOOL_LINK_MODE_FEC_RS_BIT));
	assert_false(link_mode_has(l.fec_configured, ETHTOOL_LINK_MODE_FEC_NONE_BIT));
	assert_int_equal(l.linkmodes, -1);

	/* FEC forced off, verbose */
	fec_reply(&m, true, ETHTOOL_LINK_MODE_FEC_NONE_BIT, 0, ETHTOOL_LINK_MODE_FEC_NONE_BIT);
	save("fec_off_verbose", &m);
	link_info_init(&l);
	assert_int_equal(ethnl_parse_fec(m.b, m.len, FAM, &l), 0);
	assert_int_equal(l.fec_auto, 0);
	assert_string_equal(link_fec_name(l.fec_active), "None");
	assert_true(link_mode_has(l.fec_configured, ETHTOOL_LINK_MODE_FEC_NONE_BIT));

	/* no ACTIVE (link down): unknown */
	fec_reply(&m, false, ETHTOOL_LINK_MODE_FEC_BASER_BIT, 0, 0);
	link_info_init(&l);
	assert_int_equal(ethnl_parse_fec(m.b, m.len, FAM, &l), 0);
	assert_int_equal(l.fec_active, -1);
	assert_null(link_fec_name(l.fec_active));

	/* an ACTIVE that is no FEC mode: malformed */
	fec_reply(&m, false, ETHTOOL_LINK_MODE_FEC_RS_BIT, 0, 38);
	assert_int_equal(ethnl_parse_fec(m.b, m.len, FAM, &l), -EINVAL);
}

static void error_msg(struct msg *m, int err)
{
	struct nlmsghdr h = { .nlmsg_type = NLMSG_ERROR, .nlmsg_seq = 7 };
	struct nlmsghdr orig = { .nlmsg_len = 36, .nlmsg_type = FAM, .nlmsg_seq = 7 };

	memset(m, 0, sizeof(*m));
	put(m, &h, sizeof(h));
	put(m, &err, sizeof(err));
	put(m, &orig, sizeof(orig));
	end(m);
}

/* veth, lo, virtio: no get_fecparam, the kernel answers EOPNOTSUPP */
static void kernel_errors(void **state)
{
	struct link_info l;
	struct msg m;
	(void)state;

	error_msg(&m, -EOPNOTSUPP);
	save("eopnotsupp", &m);
	link_info_init(&l);
	assert_int_equal(ethnl_parse_fec(m.b, m.len, FAM, &l), -EOPNOTSUPP);
	assert_int_equal(ethnl_parse_linkmodes(m.b, m.len, 0, &l), -EOPNOTSUPP);
	assert_int_equal(l.fec, -1);
	assert_int_equal(l.linkmodes, -1);
	error_msg(&m, -ENODEV);
	assert_int_equal(ethnl_parse_fec(m.b, m.len, FAM, &l), -ENODEV);
	error_msg(&m, 0);	/* an ACK is no reply */
	assert_int_equal(ethnl_parse_fec(m.b, m.len, FAM, &l), -EINVAL);
}

static void malformed(void **state)
{
	uint32_t sup[WORDS], adv[WORDS], peer[WORDS], big[64] = { 0 };
	struct link_info l, before;
	struct msg m;
	(void)state;

	/* every truncation of a good reply: an error, l untouched */
	linkmodes_reply(&m, true);
	link_info_init(&before);
	for (size_t n = 0; n < m.len; n++) {
		struct msg t = m;
		uint32_t len = (uint32_t)n;

		if (n >= 4)
			memcpy(t.b, &len, 4);
		l = before;
		int rc = ethnl_parse_linkmodes(t.b, n, FAM, &l);

		/* a cut exactly between attributes is a shorter good reply */
		if (rc == 0)
			continue;
		assert_int_equal(rc, -EINVAL);
		assert_memory_equal(&l, &before, sizeof(l));
	}

	/* a VALUE array shorter than SIZE says */
	modes(sup, adv, peer);
	header(&m, ETHTOOL_MSG_LINKMODES_GET_REPLY);
	nest_begin(&m, ETHTOOL_A_LINKMODES_OURS);
	u32a(&m, ETHTOOL_A_BITSET_SIZE, NBITS);
	attr(&m, ETHTOOL_A_BITSET_VALUE, adv, (WORDS - 1) * 4);
	attr(&m, ETHTOOL_A_BITSET_MASK, sup, WORDS * 4);
	nest_end(&m);
	end(&m);
	assert_int_equal(ethnl_parse_linkmodes(m.b, m.len, FAM, &l), -EINVAL);

	/* a compact set without SIZE */
	header(&m, ETHTOOL_MSG_LINKMODES_GET_REPLY);
	nest_begin(&m, ETHTOOL_A_LINKMODES_OURS);
	attr(&m, ETHTOOL_A_BITSET_VALUE, adv, WORDS * 4);
	attr(&m, ETHTOOL_A_BITSET_MASK, sup, WORDS * 4);
	nest_end(&m);
	end(&m);
	assert_int_equal(ethnl_parse_linkmodes(m.b, m.len, FAM, &l), -EINVAL);

	/* a size past any kernel's */
	header(&m, ETHTOOL_MSG_LINKMODES_GET_REPLY);
	nest_begin(&m, ETHTOOL_A_LINKMODES_OURS);
	u32a(&m, ETHTOOL_A_BITSET_SIZE, 1u << 20);
	attr(&m, ETHTOOL_A_BITSET_VALUE, big, sizeof(big));
	attr(&m, ETHTOOL_A_BITSET_MASK, big, sizeof(big));
	nest_end(&m);
	end(&m);
	assert_int_equal(ethnl_parse_linkmodes(m.b, m.len, FAM, &l), -EINVAL);

	/* a verbose bit past SIZE, a bit without an index */
	header(&m, ETHTOOL_MSG_FEC_GET_REPLY);
	nest_begin(&m, ETHTOOL_A_FEC_MODES);
	attr(&m, ETHTOOL_A_BITSET_NOMASK, NULL, 0);
	u32a(&m, ETHTOOL_A_BITSET_SIZE, 40);
	nest_begin(&m, ETHTOOL_A_BITSET_BITS);
	nest_begin(&m, ETHTOOL_A_BITSET_BITS_BIT);
	u32a(&m, ETHTOOL_A_BITSET_BIT_INDEX, ETHTOOL_LINK_MODE_FEC_RS_BIT);
	nest_end(&m);
	nest_end(&m);
	nest_end(&m);
	end(&m);
	assert_int_equal(ethnl_parse_fec(m.b, m.len, FAM, &l), -EINVAL);
	header(&m, ETHTOOL_MSG_FEC_GET_REPLY);
	nest_begin(&m, ETHTOOL_A_FEC_MODES);
	attr(&m, ETHTOOL_A_BITSET_NOMASK, NULL, 0);
	nest_begin(&m, ETHTOOL_A_BITSET_BITS);
	nest_begin(&m, ETHTOOL_A_BITSET_BITS_BIT);
	attr(&m, ETHTOOL_A_BITSET_BIT_NAME, "RS", 3);
	nest_end(&m);
	nest_end(&m);
	nest_end(&m);
	end(&m);
	assert_int_equal(ethnl_parse_fec(m.b, m.len, FAM, &l), -EINVAL);

	/* the same attribute twice; a u8 of two bytes */
	header(&m, ETHTOOL_MSG_LINKMODES_GET_REPLY);
	u32a(&m, ETHTOOL_A_LINKMODES_SPEED, 100000);
	u32a(&m, ETHTOOL_A_LINKMODES_SPEED, 400000);
	end(&m);
	assert_int_equal(ethnl_parse_linkmodes(m.b, m.len, FAM, &l), -EINVAL);
	header(&m, ETHTOOL_MSG_LINKMODES_GET_REPLY);
	attr(&m, ETHTOOL_A_LINKMODES_DUPLEX, "\1\1", 2);
	end(&m);
	assert_int_equal(ethnl_parse_linkmodes(m.b, m.len, FAM, &l), -EINVAL);
}

/* Bits past what the model keeps are dropped, not written past it. */
static void wide_bitset(void **state)
{
	uint32_t val[LINK_MODE_WORDS * 2] = { 0 };
	struct link_info l;
	struct msg m;
	(void)state;

	set(val, ETHTOOL_LINK_MODE_FEC_RS_BIT);
	set(val, LINK_MODE_BITS + 5);
	header(&m, ETHTOOL_MSG_FEC_GET_REPLY);
	compact(&m, ETHTOOL_A_FEC_MODES, val, NULL, LINK_MODE_BITS * 2);
	end(&m);
	link_info_init(&l);
	assert_int_equal(ethnl_parse_fec(m.b, m.len, FAM, &l), 0);
	assert_true(link_mode_has(l.fec_configured, ETHTOOL_LINK_MODE_FEC_RS_BIT));
	assert_false(link_mode_has(l.fec_configured, LINK_MODE_BITS + 5));
}

/* ethnl request: nlmsghdr, genlmsghdr {cmd, version 1}, HEADER nest
 * {DEV_NAME "eth0\0", FLAGS u32} */
static void request_layout(void **state)
{
	uint8_t b[128], want[64] = { 0 };
	uint32_t u;
	uint16_t s;
	int n;
	(void)state;

	n = ethnl_build_get(b, sizeof(b), FAM, ETHTOOL_MSG_FEC_GET, "eth0",
			    ETHTOOL_FLAG_COMPACT_BITSETS, 9);
	assert_int_equal(n, 16 + 4 + 4 + 12 + 8);
	u = 44; memcpy(want, &u, 4);
	s = FAM; memcpy(want + 4, &s, 2);
	s = NLM_F_REQUEST; memcpy(want + 6, &s, 2);
	u = 9; memcpy(want + 8, &u, 4);
	want[16] = ETHTOOL_MSG_FEC_GET;
	want[17] = 1;
	s = 24; memcpy(want + 20, &s, 2);
	s = NLA_F_NESTED | ETHTOOL_A_FEC_HEADER; memcpy(want + 22, &s, 2);
	s = 9; memcpy(want + 24, &s, 2);
	s = ETHTOOL_A_HEADER_DEV_NAME; memcpy(want + 26, &s, 2);
	memcpy(want + 28, "eth0", 5);
	s = 8; memcpy(want + 36, &s, 2);
	s = ETHTOOL_A_HEADER_FLAGS; memcpy(want + 38, &s, 2);
	u = ETHTOOL_FLAG_COMPACT_BITSETS; memcpy(want + 40, &u, 4);
	assert_memory_equal(b, want, 44);
	assert_int_equal(ethnl_build_get(b, 20, FAM, 4, "eth0", 0, 1), -ENOSPC);
	assert_int_equal(ethnl_build_get(b, sizeof(b), FAM, 4, "", 0, 1), -EINVAL);
	assert_int_equal(ethnl_build_get(b, sizeof(b), FAM, 4, "a-name-much-too-long", 0, 1),
			 -EINVAL);
}

static void names(void **state)
{
	(void)state;
	assert_string_equal(link_mode_name(0), "10baseT/Half");
	assert_string_equal(link_mode_name(ETHTOOL_LINK_MODE_Autoneg_BIT), "Autoneg");
	assert_string_equal(link_mode_name(38), "100000baseCR4/Full");
	assert_string_equal(link_mode_name(59), "100000baseCR2/Full");
	assert_string_equal(link_mode_name(66), "200000baseCR4/Full");
	assert_string_equal(link_mode_name(73), "400000baseCR8/Full");
	assert_string_equal(link_mode_name(89), "400000baseCR4/Full");
	assert_string_equal(link_mode_name(93), "800000baseCR8/Full");
	assert_string_equal(link_mode_name(ETHTOOL_LINK_MODE_FEC_RS_BIT), "RS");
	assert_string_equal(link_mode_name(ETHTOOL_LINK_MODE_FEC_LLRS_BIT), "LLRS");
	assert_string_equal(link_mode_name(102), "10baseT1BRR/Full");
	assert_null(link_mode_name(103));
	assert_null(link_fec_name(38));
}


/* 6.18's attribute numbers (ethtool_netlink_generated.h), which older
 * uapi headers lack */
#define STAT_HIST (ETHTOOL_A_FEC_STAT_CORR_BITS + 1)
#define HIST_PAD 1
#define HIST_LOW 2
#define HIST_HIGH 3
#define HIST_VAL 4
#define HIST_VAL_PER_LANE 5

static void u64s(struct msg *m, uint16_t type, const uint64_t *v, size_t n)
{
	attr(m, type, v, n * 8);
}

/* A FEC_GET reply with RS active and the stats nest that fill() writes. */
static void fec_stats_reply(struct msg *m, void (*fill)(struct msg *m))
{
	uint32_t cfg[WORDS] = { 0 };

	header(m, ETHTOOL_MSG_FEC_GET_REPLY);
	compact(m, ETHTOOL_A_FEC_MODES, cfg, NULL, NBITS);
	u8a(m, ETHTOOL_A_FEC_AUTO, 1);
	u32a(m, ETHTOOL_A_FEC_ACTIVE, ETHTOOL_LINK_MODE_FEC_RS_BIT);
	nest_begin(m, ETHTOOL_A_FEC_STATS);
	fill(m);
	nest_end(m);
	end(m);
}

/* The nest's payload, for the fec_stats fuzz corpus. */
static void save_nest(const char *name, const struct msg *m, size_t at)
{
	corpus_save("RD_FEC_STATS_CORPUS", name, m->b + at, m->len - at);
}

/* mlx5 with RS-FEC: totals only (mlx5e_get_fec_stats) */
static void fill_totals(struct msg *m)
{
	const uint64_t corr = 812345, unc = 3, bits = 1034567;

	u64s(m, ETHTOOL_A_FEC_STAT_CORRECTED, &corr, 1);
	u64s(m, ETHTOOL_A_FEC_STAT_UNCORR, &unc, 1);
	u64s(m, ETHTOOL_A_FEC_STAT_CORR_BITS, &bits, 1);
}

/* per lane (as mlx5 gives FC-FEC), the pad an aligning architecture puts
 * before each 64-bit array, and a histogram: a bin whose value needs 64
 * bits with four lanes, one of 32 bits without, a newer kernel's attribute */
static void fill_lanes_hist(struct msg *m)
{
	const uint64_t corr[] = { 10 + 20 + 30 + 40, 10, 20, 30, 40 };
	const uint64_t unc[] = { 1, 0, 0, 1, 0 };
	const uint64_t big = 0x123456789ull, lanes[] = { 1, 2, 3, 0x123456783ull };

	attr(m, ETHTOOL_A_FEC_STAT_PAD, NULL, 0);
	u64s(m, ETHTOOL_A_FEC_STAT_CORRECTED, corr, 5);
	attr(m, ETHTOOL_A_FEC_STAT_PAD, NULL, 0);
	u64s(m, ETHTOOL_A_FEC_STAT_UNCORR, unc, 5);
	nest_begin(m, STAT_HIST);
	u32a(m, HIST_LOW, 0);
	u32a(m, HIST_HIGH, 0);
	attr(m, HIST_PAD, NULL, 0);
	attr(m, HIST_VAL, &big, 8);
	u64s(m, HIST_VAL_PER_LANE, lanes, 4);
	nest_end(m);
	nest_begin(m, STAT_HIST);
	u32a(m, HIST_LOW, 1);
	u32a(m, HIST_HIGH, 3);
	u32a(m, HIST_VAL, 12);
	u32a(m, 9, 77);
	nest_end(m);
	u32a(m, 12, 5);
}

static void fill_none(struct msg *m)
{
	(void)m;
}

/* Where the stats nest's payload starts: after the reply's last other
 * attribute and the nest's own header. */
static size_t nest_at(const struct msg *m)
{
	return m->nest[0] + NLA_HDRLEN;
}

static void fec_stats_parsed(void **state)
{
	struct link_info l;
	struct msg m;
	(void)state;

	fec_stats_reply(&m, fill_totals);
	save("fec_stats_totals", &m);
	link_info_init(&l);
	assert_int_equal(ethnl_parse_fec(m.b, m.len, FAM, &l), 0);
	assert_int_equal(l.fec_stats.have, 1);
	assert_true(fec_stats_any(&l.fec_stats));
	assert_int_equal(l.fec_stats.c[FEC_CORRECTED].n, 1);
	assert_int_equal(l.fec_stats.c[FEC_CORRECTED].v[0], 812345);
	assert_int_equal(l.fec_stats.c[FEC_UNCORR].v[0], 3);
	assert_int_equal(l.fec_stats.c[FEC_CORR_BITS].v[0], 1034567);
	assert_int_equal(l.fec_stats.n_hist, 0);

	fec_stats_reply(&m, fill_lanes_hist);
	save("fec_stats_lanes_hist", &m);
	link_info_init(&l);
	assert_int_equal(ethnl_parse_fec(m.b, m.len, FAM, &l), 0);
	assert_int_equal(l.fec_active, ETHTOOL_LINK_MODE_FEC_RS_BIT);
	assert_int_equal(l.fec_stats.c[FEC_CORRECTED].n, 5);
	assert_int_equal(l.fec_stats.c[FEC_CORRECTED].v[0], 100);
	assert_int_equal(l.fec_stats.c[FEC_CORRECTED].v[4], 40);
	assert_int_equal(l.fec_stats.c[FEC_UNCORR].v[3], 1);
	assert_int_equal(l.fec_stats.c[FEC_CORR_BITS].n, 0);	/* not reported */
	assert_int_equal(l.fec_stats.n_hist, 2);
	assert_int_equal(l.fec_stats.hist[0].val, 0x123456789ull);
	assert_int_equal(l.fec_stats.hist[0].n_lanes, 4);
	assert_int_equal(l.fec_stats.hist[0].lane[3], 0x123456783ull);
	assert_int_equal(l.fec_stats.hist[1].low, 1);
	assert_int_equal(l.fec_stats.hist[1].high, 3);
	assert_int_equal(l.fec_stats.hist[1].val, 12);
	assert_int_equal(l.fec_stats.hist[1].n_lanes, 0);

	/* a driver without get_fec_stats: the kernel still sends the nest */
	fec_stats_reply(&m, fill_none);
	link_info_init(&l);
	assert_int_equal(ethnl_parse_fec(m.b, m.len, FAM, &l), 0);
	assert_int_equal(l.fec_stats.have, 1);
	assert_false(fec_stats_any(&l.fec_stats));

	/* a reply to a request without ETHTOOL_FLAG_STATS: no nest */
	fec_reply(&m, false, ETHTOOL_LINK_MODE_FEC_RS_BIT, 1, ETHTOOL_LINK_MODE_FEC_RS_BIT);
	link_info_init(&l);
	assert_int_equal(ethnl_parse_fec(m.b, m.len, FAM, &l), 0);
	assert_int_equal(l.fec_stats.have, 0);
	assert_int_equal(l.fec_stats.c[FEC_CORRECTED].n, 0);

	/* the nest's payloads alone, for the fuzz corpus */
	fec_stats_reply(&m, fill_totals);
	save_nest("totals", &m, nest_at(&m));
	fec_stats_reply(&m, fill_lanes_hist);
	save_nest("lanes_hist", &m, nest_at(&m));
}

static void fill_odd(struct msg *m)
{
	const uint8_t v[12] = { 0 };

	attr(m, ETHTOOL_A_FEC_STAT_CORRECTED, v, sizeof(v));
}

static void fill_too_many_lanes(struct msg *m)
{
	const uint64_t v[10] = { 0 };

	u64s(m, ETHTOOL_A_FEC_STAT_UNCORR, v, 10);
}

static void fill_twice(struct msg *m)
{
	const uint64_t v = 1;

	u64s(m, ETHTOOL_A_FEC_STAT_CORR_BITS, &v, 1);
	u64s(m, ETHTOOL_A_FEC_STAT_CORR_BITS, &v, 1);
}

static void fill_empty_array(struct msg *m)
{
	attr(m, ETHTOOL_A_FEC_STAT_CORRECTED, NULL, 0);
}

static void fill_bin_no_high(struct msg *m)
{
	nest_begin(m, STAT_HIST);
	u32a(m, HIST_LOW, 0);
	u32a(m, HIST_VAL, 1);
	nest_end(m);
}

static void fill_bin_backwards(struct msg *m)
{
	nest_begin(m, STAT_HIST);
	u32a(m, HIST_LOW, 4);
	u32a(m, HIST_HIGH, 3);
	u32a(m, HIST_VAL, 1);
	nest_end(m);
}

static void fill_bin_short_val(struct msg *m)
{
	const uint16_t v = 1;

	nest_begin(m, STAT_HIST);
	u32a(m, HIST_LOW, 0);
	u32a(m, HIST_HIGH, 0);
	attr(m, HIST_VAL, &v, 2);
	nest_end(m);
}

static void fill_bin_nine_lanes(struct msg *m)
{
	const uint64_t v[9] = { 0 };

	nest_begin(m, STAT_HIST);
	u32a(m, HIST_LOW, 0);
	u32a(m, HIST_HIGH, 0);
	u32a(m, HIST_VAL, 0);
	u64s(m, HIST_VAL_PER_LANE, v, 9);
	nest_end(m);
}

static void fill_too_many_bins(struct msg *m)
{
	for (uint32_t i = 0; i <= FEC_HIST_MAX; i++) {
		nest_begin(m, STAT_HIST);
		u32a(m, HIST_LOW, i);
		u32a(m, HIST_HIGH, i);
		u32a(m, HIST_VAL, i);
		nest_end(m);
	}
}

static void fill_max_bins(struct msg *m)
{
	const uint64_t lanes[FEC_LANES_MAX] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	for (uint32_t i = 0; i < FEC_HIST_MAX; i++) {
		nest_begin(m, STAT_HIST);
		u32a(m, HIST_LOW, i);
		u32a(m, HIST_HIGH, i);
		u32a(m, HIST_VAL, 36);
		u64s(m, HIST_VAL_PER_LANE, lanes, FEC_LANES_MAX);
		nest_end(m);
	}
}

static void fec_stats_malformed(void **state)
{
	void (*const bad[])(struct msg *) = {
		fill_odd, fill_too_many_lanes, fill_twice, fill_empty_array, fill_bin_no_high,
		fill_bin_backwards, fill_bin_short_val, fill_bin_nine_lanes, fill_too_many_bins,
	};
	struct link_info l, before;
	struct msg m;
	(void)state;

	link_info_init(&before);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fec_stats_reply(&m, bad[i]);
		l = before;
		assert_int_equal(ethnl_parse_fec(m.b, m.len, FAM, &l), -EINVAL);
		assert_memory_equal(&l, &before, sizeof(l));
	}
	/* as many bins and lanes as the kernel sends: all kept (about 7 KiB,
	 * under ETHNL_REPLY_MAX) */
	fec_stats_reply(&m, fill_max_bins);
	assert_true(m.len < ETHNL_REPLY_MAX);
	assert_int_equal(ethnl_parse_fec(m.b, m.len, FAM, &l), 0);
	assert_int_equal(l.fec_stats.n_hist, FEC_HIST_MAX);
	assert_int_equal(l.fec_stats.hist[FEC_HIST_MAX - 1].lane[7], 8);
	/* every truncation: an error or a shorter good reply, l untouched
	 * on error */
	fec_stats_reply(&m, fill_lanes_hist);
	for (size_t n = 0; n < m.len; n++) {
		struct msg t = m;
		uint32_t len = (uint32_t)n;
		int rc;

		if (n >= 4)
			memcpy(t.b, &len, 4);
		l = before;
		rc = ethnl_parse_fec(t.b, n, FAM, &l);
		if (rc == 0)
			continue;
		assert_int_equal(rc, -EINVAL);
		assert_memory_equal(&l, &before, sizeof(l));
	}
	/* the parser alone refuses NULL */
	assert_int_equal(ethnl_parse_fec_stats(NULL, 0, &l.fec_stats), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(linkmodes_compact),
		cmocka_unit_test(linkmodes_verbose),
		cmocka_unit_test(linkmodes_veth_and_unknown),
		cmocka_unit_test(fec_rs_and_off),
		cmocka_unit_test(fec_stats_parsed),
		cmocka_unit_test(fec_stats_malformed),
		cmocka_unit_test(kernel_errors),
		cmocka_unit_test(malformed),
		cmocka_unit_test(wide_bitset),
		cmocka_unit_test(request_layout),
		cmocka_unit_test(names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
