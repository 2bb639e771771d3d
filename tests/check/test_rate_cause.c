/* Why a port trained low (src/check/rate_cause.c), in the field guide's
 * order: the module, the link partner, the NIC, then the cable; and a
 * piece that cannot be read is named, never taken as fine.  The modules
 * are decoded from SFF-8636 / CMIS bytes (eeprom/module.h), the link
 * modes are the kernel's ETHTOOL_LINK_MODE_* bits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <linux/ethtool.h>

#include "check/rate_cause.h"
#include "eeprom/module.h"
#include "model/inventory.h"

static char IB[] = "InfiniBand", ETH[] = "Ethernet", SLAVE[] = "ens9f0np0";

static void set_bit(uint32_t *set, unsigned b)
{
	set[b / 32] |= 1u << (b % 32);
}

/* An SFF-8636 QSFP with part number and the codes at 131/164/192 */
static void qsfp(struct module_info *m, const char *part, uint8_t b131, uint8_t b192,
		 uint8_t b164)
{
	static uint8_t flat[MODULE_SFF8636_LEN];

	memset(flat, 0, sizeof(flat));
	flat[0] = flat[128] = 0x11;
	flat[2] = 0x04;
	memset(flat + 168, ' ', 16);
	memcpy(flat + 168, part, strlen(part));
	flat[131] = b131;
	flat[192] = b192;
	flat[164] = b164;
	assert_int_equal(module_decode(flat, sizeof(flat), NULL, m), 0);
}

static void eth_link(struct link_info *l, unsigned nic_top, unsigned peer_top)
{
	link_info_init(l);
	l->linkmodes = 1;
	l->has_modes = true;
	set_bit(l->supported, ETHTOOL_LINK_MODE_100000baseCR4_Full_BIT);
	set_bit(l->supported, nic_top);
	memcpy(l->advertised, l->supported, sizeof(l->supported));
	if (peer_top) {
		l->has_peer = true;
		set_bit(l->peer, ETHTOOL_LINK_MODE_25000baseCR_Full_BIT);
		set_bit(l->peer, peer_top);
	}
}

/* An EDR module on an HDR InfiniBand port: the module, first. */
static void module_first(void **state)
{
	struct module_info m;
	struct link_info l;
	struct port pt = { .link_layer = IB, .module = &m, .link = &l };
	char buf[300];

	(void)state;
	qsfp(&m, "MMA1B00-E100", 0x80, 0x02, 0x10);
	/* even with a partner that advertises less, the module is named */
	eth_link(&l, ETHTOOL_LINK_MODE_200000baseCR4_Full_BIT,
		 ETHTOOL_LINK_MODE_50000baseCR_Full_BIT);
	assert_int_equal(rate_cause(&pt, 200, true, buf, sizeof(buf)), RATE_CAUSE_MODULE);
	assert_string_equal(buf, "MMA1B00-E100 is an EDR (100G) module on an HDR (200G) port");

	pt.link_layer = ETH;
	assert_int_equal(rate_cause(&pt, 200, false, buf, sizeof(buf)), RATE_CAUSE_MODULE);
	assert_string_equal(buf, "MMA1B00-E100 is a 100G module on a 200G port");
}

/* A 200G module, a 200G NIC, a switch port that offers 100G at most. */
static void partner_second(void **state)
{
	struct module_info m;
	struct link_info l;
	struct port pt = { .link_layer = ETH, .module = &m, .link = &l };
	char buf[300];

	(void)state;
	qsfp(&m, "MMA1T00-VS", 0x80, 0x41, 0);
	eth_link(&l, ETHTOOL_LINK_MODE_200000baseCR4_Full_BIT,
		 ETHTOOL_LINK_MODE_100000baseCR4_Full_BIT);
	assert_int_equal(rate_cause(&pt, 200, false, buf, sizeof(buf)), RATE_CAUSE_PARTNER);
	assert_string_equal(buf, "the switch port advertises 100G only");

	/* the partner reaches 200G, the NIC does not */
	eth_link(&l, ETHTOOL_LINK_MODE_100000baseKR4_Full_BIT,
		 ETHTOOL_LINK_MODE_200000baseCR4_Full_BIT);
	assert_int_equal(rate_cause(&pt, 200, false, buf, sizeof(buf)), RATE_CAUSE_NIC);
	assert_string_equal(buf, "the NIC supports 100G at most");
}

/* Everything reaches 200G: the cable. */
static void cable_last(void **state)
{
	struct module_info m;
	struct link_info l;
	struct port pt = { .link_layer = ETH, .module = &m, .link = &l };
	char buf[300];

	(void)state;
	qsfp(&m, "MMA1T00-VS", 0x80, 0x41, 0);
	eth_link(&l, ETHTOOL_LINK_MODE_200000baseCR4_Full_BIT,
		 ETHTOOL_LINK_MODE_200000baseCR4_Full_BIT);
	assert_int_equal(rate_cause(&pt, 200, false, buf, sizeof(buf)), RATE_CAUSE_CABLE);
	assert_string_equal(buf, "the module and both ends support 200G: suspect the cable");
}

/* What cannot be read is said, and no cable is blamed. */
static void unread_pieces(void **state)
{
	struct module_info m;
	struct link_info l;
	struct port pt = { .link_layer = IB };
	char buf[400];

	(void)state;
	assert_int_equal(rate_cause(&pt, 400, true, buf, sizeof(buf)), RATE_CAUSE_UNKNOWN);
	assert_string_equal(buf, "cause not found (the module could not be read, the kernel "
			    "shows no InfiniBand link modes)");

	/* a good module, no partner modes (autoneg off on the switch) */
	qsfp(&m, "MMA1T00-VS", 0x80, 0x41, 0);
	eth_link(&l, ETHTOOL_LINK_MODE_200000baseCR4_Full_BIT, 0);
	pt.link_layer = ETH;
	pt.module = &m;
	pt.link = &l;
	assert_int_equal(rate_cause(&pt, 200, false, buf, sizeof(buf)), RATE_CAUSE_UNKNOWN);
	assert_string_equal(buf, "cause not found (MMA1T00-VS supports 200G, the link "
			    "partner's modes could not be read)");

	/* a module with no codes set: no rate claimed for it */
	qsfp(&m, "XYZ", 0, 0, 0);
	eth_link(&l, ETHTOOL_LINK_MODE_200000baseCR4_Full_BIT,
		 ETHTOOL_LINK_MODE_200000baseCR4_Full_BIT);
	assert_int_equal(rate_cause(&pt, 200, false, buf, sizeof(buf)), RATE_CAUSE_UNKNOWN);
	assert_string_equal(buf, "cause not found (XYZ states no rate it is built for)");
}

/* A RoCE LAG port: the slaves' module and link. */
static void lag_slave(void **state)
{
	struct module_info m;
	struct link_info l;
	struct lag_slave s = { .netdev = SLAVE, .module = &m, .link = &l };
	struct port pt = { .link_layer = ETH, .slaves = &s, .n_slaves = 1 };
	char buf[300];

	(void)state;
	qsfp(&m, "MCP1600-C003", 0x80, 0x0B, 0);
	eth_link(&l, ETHTOOL_LINK_MODE_200000baseCR4_Full_BIT,
		 ETHTOOL_LINK_MODE_200000baseCR4_Full_BIT);
	assert_int_equal(rate_cause(&pt, 200, false, buf, sizeof(buf)), RATE_CAUSE_MODULE);
	assert_string_equal(buf, "MCP1600-C003 is a 100G module on a 200G port");
	/* `ethtool -m` of the slave, not of the bond */
	assert_string_equal(rate_cause_module_netdev(&pt), "ens9f0np0");
}

static void top_mode(void **state)
{
	uint32_t set[LINK_MODE_WORDS] = { 0 };

	(void)state;
	assert_true(rate_cause_top_mode(set) == 0);
	set_bit(set, ETHTOOL_LINK_MODE_Autoneg_BIT);
	set_bit(set, ETHTOOL_LINK_MODE_FEC_RS_BIT);
	assert_true(rate_cause_top_mode(set) == 0);
	set_bit(set, ETHTOOL_LINK_MODE_10000baseT_Full_BIT);
	set_bit(set, ETHTOOL_LINK_MODE_400000baseCR4_Full_BIT);
	assert_true(rate_cause_top_mode(set) == 400);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(module_first),
		cmocka_unit_test(partner_second),
		cmocka_unit_test(cable_last),
		cmocka_unit_test(unread_pieces),
		cmocka_unit_test(lag_slave),
		cmocka_unit_test(top_mode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
