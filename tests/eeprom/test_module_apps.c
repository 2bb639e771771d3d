/* What a transceiver is built for (src/eeprom/apps.c).
 *
 * The oracle: `ethtool -m` cannot be pointed at a file, and the project has
 * no captured module pages of real parts (its fixtures' pages are built by
 * tests/fixtures/gen_fixtures.py), so the expected SFF-8636 strings are
 * ethtool's own, copied from its source (sff-8636.c,
 * sff8636_show_transceiver: the text after "Transceiver type :"), and the
 * CMIS ids are SFF-8024 rev 4.x's tables 4-5, 4-6 and 4-7.  The bytes are
 * laid out at the offsets SFF-8636 rev 2.10a and CMIS 5.0 give. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "eeprom/apps.h"
#include "eeprom/module.h"

/* SFF-8636 upper page 00h of a 100GBASE-SR4 QSFP28: byte 131 bit 7
 * (extended compliance), byte 192 = 02h. */
static void sff8636_sr4(void **state)
{
	uint8_t up[128] = { 0 };
	struct module_apps a;

	(void)state;
	up[131 - 128] = 0x80;
	up[192 - 128] = 0x02;
	module_apps_sff8636(up, sizeof(up), &a);
	assert_true(a.known);
	assert_int_equal(a.n, 1);
	assert_string_equal(a.app[0].name, "100G Ethernet: 100G Base-SR4 or 25GBase-SR");
	assert_string_equal(a.app[0].kind, "100G");
	assert_true(a.top_gbps == 100);
	assert_int_equal(a.top, 0);
}

/* A 40G QSFP+ SR4 that also does 10G SR (byte 131 = 0x14), no extended code. */
static void sff8636_40g(void **state)
{
	uint8_t up[128] = { 0 };
	struct module_apps a;

	(void)state;
	up[131 - 128] = 0x14;
	up[192 - 128] = 0x02;	/* ignored: bit 7 of 131 is clear */
	module_apps_sff8636(up, sizeof(up), &a);
	assert_int_equal(a.n, 2);
	assert_string_equal(a.app[0].name, "10G Ethernet: 10G Base-SR");
	assert_string_equal(a.app[1].name, "40G Ethernet: 40G Base-SR4");
	assert_true(a.top_gbps == 40);
	assert_int_equal(a.top, 1);
}

/* An EDR DAC (MCP1600-E class): 100GBASE-CR4 and InfiniBand SDR..EDR. */
static void sff8636_edr(void **state)
{
	uint8_t up[128] = { 0 };
	struct module_apps a;

	(void)state;
	up[131 - 128] = 0x80;
	up[192 - 128] = 0x0B;
	up[164 - 128] = 0x1F;
	module_apps_sff8636(up, sizeof(up), &a);
	assert_int_equal(a.n, 6);
	assert_string_equal(a.app[0].name, "100G Ethernet: 100G Base-CR4 or 25G Base-CR CA-L");
	assert_string_equal(a.app[1].name, "InfiniBand EDR");
	assert_string_equal(a.app[1].kind, "EDR");
	assert_true(a.app[1].gbps == 100);
	assert_string_equal(a.app[2].name, "InfiniBand FDR");
	assert_true(a.app[2].gbps == 56);
	assert_string_equal(a.app[5].name, "InfiniBand SDR");
	assert_true(a.top_gbps == 100);
}

/* QSFP56 200G (later ethtool's SFF8636_ETHERNET_200G_SR4), and a code no
 * table has. */
static void sff8636_200g_and_unknown(void **state)
{
	uint8_t up[128] = { 0 };
	struct module_apps a;

	(void)state;
	up[131 - 128] = 0x80;
	up[192 - 128] = 0x41;
	module_apps_sff8636(up, sizeof(up), &a);
	assert_int_equal(a.n, 1);
	assert_string_equal(a.app[0].name, "50GBASE-SR, 100GBASE-SR2, or 200GBASE-SR4");
	assert_true(a.top_gbps == 200);

	up[192 - 128] = 0x7E;
	module_apps_sff8636(up, sizeof(up), &a);
	assert_int_equal(a.n, 1);
	assert_string_equal(a.app[0].name, "(reserved or unknown: 0x7e)");
	assert_true(a.app[0].gbps == 0);
	assert_true(a.top_gbps == 0);
	assert_int_equal(a.top, -1);

	/* nothing set: read, and none */
	memset(up, 0, sizeof(up));
	module_apps_sff8636(up, sizeof(up), &a);
	assert_true(a.known);
	assert_int_equal(a.n, 0);
}

static void put_app(uint8_t *lower, int i, uint8_t host, uint8_t media, uint8_t lanes,
		    uint8_t assign)
{
	lower[86 + 4 * i] = host;
	lower[87 + 4 * i] = media;
	lower[88 + 4 * i] = lanes;
	lower[89 + 4 * i] = assign;
}

/* A 400G DR4 OSFP (SMF): 400GAUI-8 over DR4, and 100GAUI-2 / 100GBASE-DR
 * breakout; then the end of the list (FFh), after which nothing counts. */
static void cmis_dr4(void **state)
{
	uint8_t lower[128];
	struct module_apps a;

	(void)state;
	memset(lower, 0xFF, sizeof(lower));
	lower[0] = 0x19;
	lower[85] = 0x02;
	put_app(lower, 0, 0x11, 0x1C, 0x84, 0x01);
	put_app(lower, 1, 0x0D, 0x14, 0x21, 0x55);
	put_app(lower, 2, 0xFF, 0x00, 0x00, 0x00);
	put_app(lower, 3, 0x11, 0x1C, 0x84, 0x01);	/* past the end */
	module_apps_cmis(lower, sizeof(lower), &a);
	assert_true(a.known);
	assert_int_equal(a.n, 2);
	assert_string_equal(a.app[0].name, "400GAUI-8 C2M / 400GBASE-DR4");
	assert_true(a.app[0].gbps == 400);
	assert_string_equal(a.app[0].kind, "400G");
	assert_string_equal(a.app[1].name, "100GAUI-2 C2M / 100GBASE-DR");
	assert_true(a.top_gbps == 400);
	assert_int_equal(a.top, 0);
}

/* InfiniBand on CMIS: an HDR 4X and an HDR 2X (HDR100) application on
 * multimode fibre; an unknown host id and an undefined (00h) one. */
static void cmis_ib(void **state)
{
	uint8_t lower[128];
	struct module_apps a;

	(void)state;
	memset(lower, 0xFF, sizeof(lower));
	lower[0] = 0x18;
	lower[85] = 0x01;
	put_app(lower, 0, 0x31, 0x0E, 0x44, 0x01);
	put_app(lower, 1, 0x31, 0x0E, 0x22, 0x05);
	put_app(lower, 2, 0x00, 0x00, 0x00, 0x00);
	put_app(lower, 3, 0xC7, 0x33, 0x11, 0x01);
	module_apps_cmis(lower, sizeof(lower), &a);
	assert_int_equal(a.n, 3);
	assert_string_equal(a.app[0].name, "IB HDR / 200GBASE-SR4");
	assert_string_equal(a.app[0].kind, "HDR");
	assert_true(a.app[0].gbps == 200);
	assert_true(a.app[1].gbps == 100);
	assert_string_equal(a.app[2].name, "host interface 0xc7");
	assert_true(a.app[2].gbps == 0);
	assert_true(a.top_gbps == 200);
}

/* Short or missing bytes are unknown, never "no applications". */
static void short_reads(void **state)
{
	uint8_t b[128] = { 0 };
	struct module_apps a;

	(void)state;
	module_apps_cmis(b, 117, &a);
	assert_false(a.known);
	assert_int_equal(a.n, 0);
	module_apps_cmis(NULL, 128, &a);
	assert_false(a.known);
	module_apps_sff8636(b, 127, &a);
	assert_false(a.known);
	module_apps_sff8636(NULL, 0, &a);
	assert_false(a.known);
	module_apps_sff8636(b, 128, NULL);	/* no crash */
}

/* Through module_decode: netlink pages of an SFF-8636 module, with and
 * without upper page 00h. */
static void through_decode(void **state)
{
	uint8_t lower[128] = { 0 }, up[128] = { 0 };
	struct module_pages p;
	struct module_info m;

	(void)state;
	lower[0] = 0x11;
	lower[2] = 0x04;	/* flat memory */
	up[0] = 0x11;
	up[131 - 128] = 0x80;
	up[192 - 128] = 0x02;
	module_pages_init(&p);
	assert_int_equal(module_pages_add(&p, 0x50, 0, 0, 0, lower, 128), 0);
	assert_int_equal(module_decode(NULL, 0, &p, &m), 0);
	assert_false(m.apps.known);
	assert_int_equal(m.apps.top, -1);
	assert_int_equal(module_pages_add(&p, 0x50, 0, 0, 128, up, 128), 0);
	assert_int_equal(module_decode(NULL, 0, &p, &m), 0);
	assert_true(m.apps.known);
	assert_int_equal(m.apps.n, 1);
	assert_true(m.apps.top_gbps == 100);
}

static void rate_kind(void **state)
{
	char b[24];

	(void)state;
	module_rate_kind(b, sizeof(b), 100, true);
	assert_string_equal(b, "EDR (100G)");
	module_rate_kind(b, sizeof(b), 200, true);
	assert_string_equal(b, "HDR (200G)");
	module_rate_kind(b, sizeof(b), 200, false);
	assert_string_equal(b, "200G");
	module_rate_kind(b, sizeof(b), 25, true);
	assert_string_equal(b, "25G");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sff8636_sr4),
		cmocka_unit_test(sff8636_40g),
		cmocka_unit_test(sff8636_edr),
		cmocka_unit_test(sff8636_200g_and_unknown),
		cmocka_unit_test(cmis_dr4),
		cmocka_unit_test(cmis_ib),
		cmocka_unit_test(short_reads),
		cmocka_unit_test(through_decode),
		cmocka_unit_test(rate_kind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
