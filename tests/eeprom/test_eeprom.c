/* Transceiver EEPROM decoders, against test vectors built here from the
 * SFF-8636, CMIS and SFF-8472 memory maps:
 * the legacy flat ioctl layouts, netlink page reads, thresholds and
 * out-of-threshold checks, modules without DOM or thresholds, and every
 * truncation of every buffer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "eeprom/module.h"

#define assert_near(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-9)

static void put16(uint8_t *b, size_t off, unsigned v)
{
	b[off] = (uint8_t)(v >> 8);
	b[off + 1] = (uint8_t)v;
}

static void put_s16(uint8_t *b, size_t off, int v)
{
	put16(b, off, (unsigned)(v < 0 ? v + 0x10000 : v));
}

static void put_text(uint8_t *b, size_t off, const char *s)
{
	memset(b + off, ' ', 16);
	memcpy(b + off, s, strlen(s));
}

static void put_float(uint8_t *b, size_t off, float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	b[off] = (uint8_t)(u >> 24);
	b[off + 1] = (uint8_t)(u >> 16);
	b[off + 2] = (uint8_t)(u >> 8);
	b[off + 3] = (uint8_t)u;
}

/* HA, LA, HW, LW raw words */
static void put_thr(uint8_t *b, size_t off, int ha, int la, int hw, int lw)
{
	put_s16(b, off, ha);
	put_s16(b, off + 2, la);
	put_s16(b, off + 4, hw);
	put_s16(b, off + 6, lw);
}

/* ---- SFF-8636 QSFP28, legacy flat 640-byte layout --------------------------- */

/* A 100G-SR4: 35.5 C, 3.3 V, 4 lanes, page 03h thresholds. */
static void build_qsfp28(uint8_t f[MODULE_SFF8636_LEN])
{
	memset(f, 0, MODULE_SFF8636_LEN);
	f[0] = 0x11;			/* QSFP28 */
	f[1] = 0x07;			/* SFF-8636 rev 2.8 */
	f[2] = 0x00;			/* paged, data ready */
	put_s16(f, 22, 35 * 256 + 128);	/* 35.5 C */
	put16(f, 26, 33000);		/* 3.3 V */
	for (int l = 0; l < 4; l++) {
		put16(f, 34 + 2 * l, 8000 + 100 * (unsigned)l);	/* RX 0.80.. mW */
		put16(f, 42 + 2 * l, 3750);			/* 7.5 mA */
		put16(f, 50 + 2 * l, 9000);			/* TX 0.9 mW */
	}
	f[128] = 0x11;
	put_text(f, 148, "MELLANOX");
	put_text(f, 168, "MMA1B00-C100D");
	put_text(f, 196, "MT2012FT00123");
	f[220] = 0x3C;			/* temp, Vcc, avg RX, TX power */
	/* page 03h at 512 (its offset 0x80) */
	put_thr(f, 512 + 0x00, 75 * 256, -5 * 256, 70 * 256, 0);
	put_thr(f, 512 + 0x10, 36300, 29700, 34650, 31350);
	put_thr(f, 512 + 0x30, 20000, 500, 15000, 1000);	/* RX power */
	put_thr(f, 512 + 0x38, 7500, 1000, 6500, 1500);	/* TX bias */
	put_thr(f, 512 + 0x40, 20000, 1000, 15000, 2000);	/* TX power */
}

static void check_qsfp28(const struct module_info *m)
{
	assert_int_equal(m->id, 0x11);
	assert_string_equal(m->type, "QSFP28");
	assert_int_equal(m->spec, MODULE_SPEC_SFF8636);
	assert_string_equal(m->vendor, "MELLANOX");
	assert_string_equal(m->part, "MMA1B00-C100D");
	assert_string_equal(m->serial, "MT2012FT00123");
	assert_true(m->dom);
	assert_int_equal(m->lanes, 4);
	assert_near(m->temp_c, 35.5);
	assert_near(m->vcc_v, 3.3);
	for (int l = 0; l < 4; l++) {
		assert_near(m->rx_power_mw[l], 0.8 + 0.01 * l);
		assert_near(m->tx_bias_ma[l], 7.5);
		assert_near(m->tx_power_mw[l], 0.9);
	}
	for (int l = 4; l < MODULE_MAX_LANES; l++)
		assert_true(isnan(m->rx_power_mw[l]) && isnan(m->tx_bias_ma[l]) &&
			    isnan(m->tx_power_mw[l]));
	assert_true(m->has_thresholds);
	assert_near(m->temp.high_alarm, 75);
	assert_near(m->temp.low_alarm, -5);
	assert_near(m->temp.high_warn, 70);
	assert_near(m->temp.low_warn, 0);
	assert_near(m->vcc.high_alarm, 3.63);
	assert_near(m->vcc.low_warn, 3.135);
	assert_near(m->rx_power.high_alarm, 2.0);
	assert_near(m->rx_power.low_alarm, 0.05);
	assert_near(m->rx_power.low_warn, 0.1);
	assert_near(m->tx_bias.high_alarm, 15);
	assert_near(m->tx_bias.low_alarm, 2);
	assert_near(m->tx_power.high_warn, 1.5);
	assert_near(m->tx_power.low_alarm, 0.1);
}

static void qsfp28_flat(void **state)
{
	uint8_t f[MODULE_SFF8636_LEN];
	struct module_info m;
	struct module_dom_status st;
	(void)state;

	build_qsfp28(f);
	assert_int_equal(module_decode(f, sizeof(f), NULL, &m), 0);
	check_qsfp28(&m);
	assert_int_equal(module_dom_check(&m, &st), 0);
	assert_int_equal(st.flags, 0);
}

/* The same module read page by page over netlink. */
static void qsfp28_netlink(void **state)
{
	uint8_t f[MODULE_SFF8636_LEN];
	struct module_pages p;
	struct module_info m;
	(void)state;

	build_qsfp28(f);
	module_pages_init(&p);
	assert_int_equal(module_pages_add(&p, MODULE_I2C_A0, 0, 0, 128, f + 128, 128), 0);
	assert_int_equal(module_pages_add(&p, MODULE_I2C_A0, 3, 0, 128, f + 512, 128), 0);
	assert_int_equal(module_decode(f, 128, &p, &m), 0);
	check_qsfp28(&m);

	/* the lower page as a read too, no flat buffer at all */
	assert_int_equal(module_pages_add(&p, MODULE_I2C_A0, 0, 0, 0, f, 128), 0);
	assert_int_equal(module_decode(NULL, 0, &p, &m), 0);
	check_qsfp28(&m);

	/* page 03h missing: values, no thresholds */
	p.n = 1;
	assert_int_equal(module_decode(f, 128, &p, &m), 0);
	assert_near(m.temp_c, 35.5);
	assert_false(m.has_thresholds);
	assert_true(isnan(m.temp.high_alarm));
}

static void qsfp28_over_temperature(void **state)
{
	uint8_t f[MODULE_SFF8636_LEN];
	struct module_info m;
	struct module_dom_status st;
	(void)state;

	build_qsfp28(f);
	put_s16(f, 22, 81 * 256);	/* 81 C > 75 alarm */
	assert_int_equal(module_decode(f, sizeof(f), NULL, &m), 0);
	assert_near(m.temp_c, 81);
	assert_int_equal(module_dom_check(&m, &st), 1);
	assert_int_equal(st.flags, MODULE_DOM_TEMP_HIGH_ALARM);

	put_s16(f, 22, 72 * 256);	/* 72 C: warning only */
	assert_int_equal(module_decode(f, sizeof(f), NULL, &m), 0);
	assert_int_equal(module_dom_check(&m, &st), 1);
	assert_int_equal(st.flags, MODULE_DOM_TEMP_HIGH_WARN);

	put_s16(f, 22, -10 * 256);	/* negative: s16 */
	put16(f, 34 + 2, 400);		/* lane 2 RX 0.04 mW < 0.05 alarm */
	put16(f, 50 + 6, 1500);	/* lane 4 TX 0.15 mW < 0.2 warning */
	assert_int_equal(module_decode(f, sizeof(f), NULL, &m), 0);
	assert_near(m.temp_c, -10);
	assert_int_equal(module_dom_check(&m, &st), 3);
	assert_int_equal(st.flags, MODULE_DOM_TEMP_LOW_ALARM | MODULE_DOM_RX_POWER_LOW_ALARM |
					   MODULE_DOM_TX_POWER_LOW_WARN);
	assert_int_equal(st.lane[0], 0);
	assert_int_equal(st.lane[1], MODULE_DOM_RX_POWER_LOW_ALARM);
	assert_int_equal(st.lane[3], MODULE_DOM_TX_POWER_LOW_WARN);
}

/* A DAC: no DOM (byte 220 = 0), flat memory (no page 03h). */
static void qsfp_without_dom_or_thresholds(void **state)
{
	uint8_t f[MODULE_SFF8636_LEN];
	struct module_info m;
	struct module_dom_status st;
	(void)state;

	build_qsfp28(f);
	f[2] = 0x04;	/* Flat_mem: page 03h bytes are not thresholds */
	assert_int_equal(module_decode(f, sizeof(f), NULL, &m), 0);
	assert_true(m.dom);
	assert_false(m.has_thresholds);
	assert_true(isnan(m.rx_power.low_alarm));
	assert_int_equal(module_dom_check(&m, &st), 0);

	f[220] = 0x00;	/* and no monitoring */
	put16(f, 34, 0);
	assert_int_equal(module_decode(f, sizeof(f), NULL, &m), 0);
	assert_false(m.dom);
	assert_true(isnan(m.temp_c) && isnan(m.vcc_v));
	for (int l = 0; l < MODULE_MAX_LANES; l++)
		assert_true(isnan(m.rx_power_mw[l]) && isnan(m.tx_bias_ma[l]) &&
			    isnan(m.tx_power_mw[l]));
	assert_string_equal(m.vendor, "MELLANOX");
	assert_int_equal(module_dom_check(&m, &st), 0);

	/* DOM but no TX power monitor, and Data_Not_Ready */
	build_qsfp28(f);
	f[220] = 0x38;
	assert_int_equal(module_decode(f, sizeof(f), NULL, &m), 0);
	assert_true(isnan(m.tx_power_mw[0]));
	assert_near(m.rx_power_mw[0], 0.8);
	f[2] = 0x01;
	assert_int_equal(module_decode(f, sizeof(f), NULL, &m), 0);
	assert_true(isnan(m.temp_c) && isnan(m.rx_power_mw[0]));
	assert_true(m.has_thresholds);
}

/* ---- CMIS OSFP, 8 lanes, netlink pages --------------------------------------- */

struct cmis_vec {
	uint8_t lower[128], p00[128], p01[128], p02[128], p11[128];
};

static void build_osfp(struct cmis_vec *v)
{
	memset(v, 0, sizeof(*v));
	v->lower[0] = 0x19;		/* OSFP */
	v->lower[1] = 0x50;		/* CMIS 5.0 */
	v->lower[2] = 0x00;		/* paged */
	v->lower[3] = 3 << 1;		/* ModuleReady */
	put_s16(v->lower, 14, 45 * 256 + 64);	/* 45.25 C */
	put16(v->lower, 16, 32500);		/* 3.25 V */
	v->lower[86] = 0x11;		/* AppSel 1 */
	v->lower[87] = 0x1C;
	v->lower[88] = 0x88;		/* 8 host, 8 media lanes */
	v->p00[0] = 0x19;
	put_text(v->p00, 0x81 - 0x80, "NVIDIA");
	put_text(v->p00, 0x94 - 0x80, "MMS4X00-NS");
	put_text(v->p00, 0xA6 - 0x80, "MT2330FT01234");
	v->p01[0xA0 - 0x80] = 0x07 | (1 << 3);	/* bias, TX, RX monitors; bias x2 */
	put_thr(v->p02, 0x80 - 0x80, 80 * 256, -5 * 256, 75 * 256, 0);
	put_thr(v->p02, 0x88 - 0x80, 34650, 29700, 34000, 31350);
	put_thr(v->p02, 0xB0 - 0x80, 50000, 1000, 40000, 2000);	/* TX power */
	put_thr(v->p02, 0xB8 - 0x80, 5000, 500, 4500, 750);	/* bias x2 x2uA */
	put_thr(v->p02, 0xC0 - 0x80, 50000, 500, 40000, 1000);	/* RX power */
	for (int l = 0; l < 8; l++) {
		put16(v->p11, 0x9A - 0x80 + 2 * l, 20000);		/* TX 2 mW */
		put16(v->p11, 0xAA - 0x80 + 2 * l, 3000);		/* 12 mA */
		put16(v->p11, 0xBA - 0x80 + 2 * l, 15000 + (unsigned)l);	/* RX 1.5 mW */
	}
	put16(v->p11, 0xBA - 0x80 + 2 * 5, 200);	/* lane 6: 0.02 mW */
}

static void osfp_pages(const struct cmis_vec *v, struct module_pages *p)
{
	module_pages_init(p);
	assert_int_equal(module_pages_add(p, MODULE_I2C_A0, 0, 0, 128, v->p00, 128), 0);
	assert_int_equal(module_pages_add(p, MODULE_I2C_A0, 1, 0, 128, v->p01, 128), 0);
	assert_int_equal(module_pages_add(p, MODULE_I2C_A0, 2, 0, 128, v->p02, 128), 0);
	assert_int_equal(module_pages_add(p, MODULE_I2C_A0, 0x11, 0, 128, v->p11, 128), 0);
}

static void cmis_osfp_low_rx(void **state)
{
	struct cmis_vec v;
	struct module_pages p;
	struct module_info m;
	struct module_dom_status st;
	(void)state;

	build_osfp(&v);
	osfp_pages(&v, &p);
	assert_int_equal(module_decode(v.lower, sizeof(v.lower), &p, &m), 0);
	assert_int_equal(m.id, 0x19);
	assert_string_equal(m.type, "OSFP");
	assert_int_equal(m.spec, MODULE_SPEC_CMIS);
	assert_string_equal(m.vendor, "NVIDIA");
	assert_string_equal(m.part, "MMS4X00-NS");
	assert_string_equal(m.serial, "MT2330FT01234");
	assert_true(m.dom);
	assert_int_equal(m.lanes, 8);
	assert_near(m.temp_c, 45.25);
	assert_near(m.vcc_v, 3.25);
	for (int l = 0; l < 8; l++) {
		assert_near(m.tx_power_mw[l], 2.0);
		assert_near(m.tx_bias_ma[l], 12.0);
		if (l != 5)
			assert_near(m.rx_power_mw[l], 1.5 + l / 10000.0);
	}
	assert_near(m.rx_power_mw[5], 0.02);
	assert_true(m.has_thresholds);
	assert_near(m.temp.high_alarm, 80);
	assert_near(m.vcc.high_alarm, 3.465);
	assert_near(m.tx_power.low_alarm, 0.1);
	assert_near(m.tx_bias.high_alarm, 20);
	assert_near(m.tx_bias.low_warn, 3);
	assert_near(m.rx_power.low_alarm, 0.05);
	assert_near(m.rx_power.high_warn, 4.0);

	assert_int_equal(module_dom_check(&m, &st), 1);
	assert_int_equal(st.flags, MODULE_DOM_RX_POWER_LOW_ALARM);
	for (int l = 0; l < 8; l++)
		assert_int_equal(st.lane[l], l == 5 ? MODULE_DOM_RX_POWER_LOW_ALARM : 0);

	/* TX bias multiplier x1 and x4; 3 is reserved */
	v.p01[0x20] = 0x07;
	assert_int_equal(module_decode(v.lower, sizeof(v.lower), &p, &m), 0);
	assert_near(m.tx_bias_ma[0], 6.0);
	assert_near(m.tx_bias.high_alarm, 10);
	v.p01[0x20] = 0x07 | (2 << 3);
	assert_int_equal(module_decode(v.lower, sizeof(v.lower), &p, &m), 0);
	assert_near(m.tx_bias_ma[7], 24.0);
	v.p01[0x20] = 0x07 | (3 << 3);
	assert_int_equal(module_decode(v.lower, sizeof(v.lower), &p, &m), 0);
	assert_true(isnan(m.tx_bias_ma[0]) && isnan(m.tx_bias.high_alarm));
	assert_near(m.rx_power_mw[0], 1.5);

	/* only RX power advertised */
	v.p01[0x20] = 0x04;
	assert_int_equal(module_decode(v.lower, sizeof(v.lower), &p, &m), 0);
	assert_true(isnan(m.tx_bias_ma[0]) && isnan(m.tx_power_mw[0]));
	assert_near(m.rx_power_mw[0], 1.5);

	/* bank 1 page 11h is lanes 9-16: not ours */
	v.p01[0x20] = 0x07;
	p.page[3].bank = 1;
	assert_int_equal(module_decode(v.lower, sizeof(v.lower), &p, &m), 0);
	assert_true(isnan(m.rx_power_mw[0]));
	assert_near(m.temp_c, 45.25);
}

/* A 4-lane QSFP-DD, a passive CMIS cable, the 384-byte flat layout. */
static void cmis_other_shapes(void **state)
{
	struct cmis_vec v;
	struct module_pages p;
	struct module_info m;
	struct module_dom_status st;
	uint8_t flat[384];
	(void)state;

	build_osfp(&v);
	v.lower[0] = 0x18;
	v.lower[88] = 0x84;	/* 8 host lanes, 4 media lanes */
	osfp_pages(&v, &p);
	assert_int_equal(module_decode(v.lower, sizeof(v.lower), &p, &m), 0);
	assert_string_equal(m.type, "QSFP-DD");
	assert_int_equal(m.lanes, 4);
	assert_near(m.rx_power_mw[3], 1.5003);
	assert_true(isnan(m.rx_power_mw[4]) && isnan(m.rx_power_mw[5]));
	assert_int_equal(module_dom_check(&m, &st), 0);	/* lane 6 is not a lane */

	/* passive copper: flat memory, no monitors or thresholds */
	v.lower[2] = 0x80;
	assert_int_equal(module_decode(v.lower, sizeof(v.lower), &p, &m), 0);
	assert_false(m.dom);
	assert_false(m.has_thresholds);
	assert_true(isnan(m.temp_c) && isnan(m.rx_power_mw[0]));
	assert_string_equal(m.vendor, "NVIDIA");

	/* legacy flat: lower, upper 00h, page 01h; no 02h or 11h there */
	build_osfp(&v);
	memcpy(flat, v.lower, 128);
	memcpy(flat + 128, v.p00, 128);
	memcpy(flat + 256, v.p01, 128);
	assert_int_equal(module_decode(flat, sizeof(flat), NULL, &m), 0);
	assert_string_equal(m.part, "MMS4X00-NS");
	assert_near(m.temp_c, 45.25);
	assert_true(isnan(m.rx_power_mw[0]));
	assert_false(m.has_thresholds);
}

/* ---- SFF-8472 SFP, 512-byte flat layout --------------------------------------- */

static void build_sfp(uint8_t f[MODULE_SFF8472_LEN])
{
	uint8_t *a2 = f + 256;

	memset(f, 0, MODULE_SFF8472_LEN);
	f[0] = 0x03;
	put_text(f, 20, "FINISAR CORP.");
	put_text(f, 40, "FTLX8574D3BCL");
	put_text(f, 68, "ABC1234");
	f[92] = 0x68;	/* DDM, internally calibrated, average RX */
	f[93] = 0xF0;	/* alarm/warning flags implemented */
	f[94] = 0x08;
	put_thr(a2, 0, 78 * 256, -13 * 256, 73 * 256, -8 * 256);
	put_thr(a2, 8, 37000, 29000, 36000, 30000);
	put_thr(a2, 16, 6000, 1000, 5500, 1500);	/* 12 mA .. */
	put_thr(a2, 24, 15000, 1000, 12000, 1500);	/* TX power */
	put_thr(a2, 32, 15000, 300, 12000, 500);	/* RX power */
	put_s16(a2, 96, 40 * 256);
	put16(a2, 98, 33000);
	put16(a2, 100, 3000);	/* 6 mA */
	put16(a2, 102, 6000);	/* 0.6 mW */
	put16(a2, 104, 5000);	/* 0.5 mW */
}

static void sfp_internal(void **state)
{
	uint8_t f[MODULE_SFF8472_LEN];
	struct module_pages p;
	struct module_info m, n;
	struct module_dom_status st;
	(void)state;

	build_sfp(f);
	assert_int_equal(module_decode(f, sizeof(f), NULL, &m), 0);
	assert_string_equal(m.type, "SFP");
	assert_int_equal(m.spec, MODULE_SPEC_SFF8472);
	assert_string_equal(m.vendor, "FINISAR CORP.");
	assert_string_equal(m.part, "FTLX8574D3BCL");
	assert_string_equal(m.serial, "ABC1234");
	assert_true(m.dom);
	assert_int_equal(m.lanes, 1);
	assert_near(m.temp_c, 40);
	assert_near(m.vcc_v, 3.3);
	assert_near(m.tx_bias_ma[0], 6);
	assert_near(m.tx_power_mw[0], 0.6);
	assert_near(m.rx_power_mw[0], 0.5);
	assert_true(isnan(m.rx_power_mw[1]));
	assert_true(m.has_thresholds);
	assert_near(m.temp.low_alarm, -13);
	assert_near(m.temp.low_warn, -8);
	assert_near(m.vcc.high_alarm, 3.7);
	assert_near(m.tx_bias.high_alarm, 12);
	assert_near(m.tx_power.low_warn, 0.15);
	assert_near(m.rx_power.low_alarm, 0.03);
	assert_int_equal(module_dom_check(&m, &st), 0);

	/* over netlink: A0h 0-255 and A2h lower half as separate reads */
	module_pages_init(&p);
	assert_int_equal(module_pages_add(&p, MODULE_I2C_A0, 0, 0, 128, f + 128, 128), 0);
	assert_int_equal(module_pages_add(&p, MODULE_I2C_A2, 0, 0, 0, f + 256, 128), 0);
	assert_int_equal(module_decode(f, 128, &p, &n), 0);
	assert_near(n.rx_power_mw[0], 0.5);
	assert_near(n.rx_power.low_alarm, 0.03);
	assert_string_equal(n.serial, "ABC1234");

	/* low RX power, over-voltage */
	put16(f + 256, 104, 250);
	put16(f + 256, 98, 36500);
	assert_int_equal(module_decode(f, sizeof(f), NULL, &m), 0);
	assert_int_equal(module_dom_check(&m, &st), 2);
	assert_int_equal(st.flags, MODULE_DOM_RX_POWER_LOW_ALARM | MODULE_DOM_VCC_HIGH_WARN);
	assert_int_equal(st.lane[0], MODULE_DOM_RX_POWER_LOW_ALARM);

	/* no alarm flags implemented; no DDM at all; A2h not read */
	f[93] = 0x00;
	assert_int_equal(module_decode(f, sizeof(f), NULL, &m), 0);
	assert_false(m.has_thresholds);
	assert_near(m.temp_c, 40);
	f[92] = 0x00;
	assert_int_equal(module_decode(f, sizeof(f), NULL, &m), 0);
	assert_false(m.dom);
	assert_true(isnan(m.temp_c));
	build_sfp(f);
	assert_int_equal(module_decode(f, 256, NULL, &m), 0);
	assert_true(m.dom);
	assert_true(isnan(m.temp_c) && isnan(m.rx_power_mw[0]));
	assert_false(m.has_thresholds);
	assert_string_equal(m.part, "FTLX8574D3BCL");
}

static void sfp_external(void **state)
{
	uint8_t f[MODULE_SFF8472_LEN];
	uint8_t *a2 = f + 256;
	struct module_info m;
	(void)state;

	build_sfp(f);
	f[92] = 0x58;			/* DDM, externally calibrated */
	put_float(a2, 56, 0.0f);	/* Rx_PWR(4) */
	put_float(a2, 60, 0.0f);
	put_float(a2, 64, 0.0f);
	put_float(a2, 68, 2.0f);	/* Rx_PWR(1): rx = 2 * raw */
	put_float(a2, 72, 10.0f);	/* Rx_PWR(0) */
	put16(a2, 76, 0x0200);		/* TX_I slope 2.0 */
	put_s16(a2, 78, 100);		/* offset */
	put16(a2, 80, 0x0080);		/* TX_PWR slope 0.5 */
	put_s16(a2, 82, 0);
	put16(a2, 84, 0x0100);		/* T slope 1.0 */
	put_s16(a2, 86, 256);		/* +1 C */
	put16(a2, 88, 0x0100);
	put_s16(a2, 90, -1000);		/* -0.1 V */
	assert_int_equal(module_decode(f, sizeof(f), NULL, &m), 0);
	assert_near(m.temp_c, 41);
	assert_near(m.vcc_v, 3.2);
	assert_near(m.tx_bias_ma[0], (3000 * 2 + 100) * 2e-3);
	assert_near(m.tx_power_mw[0], 0.3);
	assert_near(m.rx_power_mw[0], (5000 * 2 + 10) / 10000.0);
	assert_near(m.temp.high_alarm, 79);
	assert_near(m.rx_power.low_alarm, (300 * 2 + 10) / 10000.0);

	/* calibration constants not read: nothing to trust */
	assert_int_equal(module_decode(f, 256 + 60, NULL, &m), 0);
	assert_true(m.dom);
	assert_true(isnan(m.temp_c));
	assert_false(m.has_thresholds);
}

/* ---- API edges ------------------------------------------------------------------ */

static void api_edges(void **state)
{
	uint8_t b[256] = { 0 }, junk[128];
	struct module_pages p;
	struct module_info m;
	struct module_dom_status st;
	(void)state;

	assert_int_equal(module_decode(b, sizeof(b), NULL, NULL), -EINVAL);
	assert_int_equal(module_decode(NULL, 0, NULL, &m), -EINVAL);
	assert_int_equal(m.id, -1);
	assert_true(isnan(m.temp_c));
	assert_int_equal(module_decode(b, 0, NULL, &m), -EINVAL);
	assert_int_equal(module_decode(b, sizeof(b), NULL, &m), -EOPNOTSUPP);
	assert_int_equal(m.id, 0);
	assert_string_equal(m.type, "unknown");
	b[0] = 0x42;
	assert_int_equal(module_decode(b, 1, NULL, &m), -EOPNOTSUPP);
	assert_int_equal(m.id, 0x42);

	/* an identifier byte alone: type, everything else unknown, and the
	 * page said unusable */
	b[0] = 0x11;
	assert_int_equal(module_decode(b, 1, NULL, &m), -EBADMSG);
	assert_string_equal(m.type, "QSFP28");
	assert_string_equal(m.vendor, "");
	assert_false(m.dom);

	/* vendor strings: padding and control bytes */
	memset(b, 0, sizeof(b));
	b[0] = 0x0D;
	memcpy(b + 148, "  AB\001C\377         ", 16);
	assert_int_equal(module_decode(b, sizeof(b), NULL, &m), 0);
	assert_string_equal(m.type, "QSFP+");
	assert_string_equal(m.vendor, "AB?C?");
	assert_string_equal(m.part, "");

	module_pages_init(&p);
	assert_int_equal(module_pages_add(&p, 0x50, 0, 0, 128, NULL, 128), -EINVAL);
	assert_int_equal(module_pages_add(&p, 0x50, 0, 0, 200, junk, 128), -EINVAL);
	assert_int_equal(module_pages_add(NULL, 0x50, 0, 0, 0, junk, 128), -EINVAL);
	for (int i = 0; i < MODULE_MAX_PAGES; i++)
		assert_int_equal(module_pages_add(&p, 0x50, (uint8_t)i, 0, 128, junk, 128), 0);
	assert_int_equal(module_pages_add(&p, 0x50, 0x20, 0, 128, junk, 128), -ENOSPC);

	assert_int_equal(module_dom_check(NULL, &st), -EINVAL);
	assert_int_equal(module_dom_check(&m, NULL), -EINVAL);
	assert_int_equal(module_type_name(0x1E)[0], 'Q');
}

/* ---- truncation: every length of every buffer ----------------------------------- */

static bool same_or_nan(double got, double full)
{
	return isnan(got) || got == full;
}

static void assert_subset(const struct module_info *got, const struct module_info *full)
{
	const struct module_threshold *tg[] = { &got->temp, &got->vcc, &got->tx_bias,
						&got->tx_power, &got->rx_power };
	const struct module_threshold *tf[] = { &full->temp, &full->vcc, &full->tx_bias,
						&full->tx_power, &full->rx_power };

	assert_int_equal(got->id, full->id);
	assert_true(got->vendor[0] == '\0' || !strcmp(got->vendor, full->vendor));
	assert_true(got->part[0] == '\0' || !strcmp(got->part, full->part));
	assert_true(got->serial[0] == '\0' || !strcmp(got->serial, full->serial));
	assert_true(same_or_nan(got->temp_c, full->temp_c));
	assert_true(same_or_nan(got->vcc_v, full->vcc_v));
	for (int l = 0; l < MODULE_MAX_LANES; l++) {
		assert_true(same_or_nan(got->tx_bias_ma[l], full->tx_bias_ma[l]));
		assert_true(same_or_nan(got->tx_power_mw[l], full->tx_power_mw[l]));
		assert_true(same_or_nan(got->rx_power_mw[l], full->rx_power_mw[l]));
	}
	assert_true(!got->has_thresholds || full->has_thresholds);
	for (int i = 0; i < 5; i++) {
		assert_true(same_or_nan(tg[i]->high_alarm, tf[i]->high_alarm));
		assert_true(same_or_nan(tg[i]->low_alarm, tf[i]->low_alarm));
		assert_true(same_or_nan(tg[i]->high_warn, tf[i]->high_warn));
		assert_true(same_or_nan(tg[i]->low_warn, tf[i]->low_warn));
	}
}

/* Each prefix in a heap block of exactly its size, so that ASan and
 * valgrind see any read past the end. */
static void truncate_flat(const uint8_t *full_buf, size_t full_len)
{
	struct module_info full, m;
	struct module_dom_status st;

	assert_int_equal(module_decode(full_buf, full_len, NULL, &full), 0);
	for (size_t len = 0; len <= full_len; len++) {
		uint8_t *b = malloc(len ? len : 1);

		assert_non_null(b);
		memcpy(b, full_buf, len);
		/* short of the 128-byte lower page: unusable, never zeros */
		assert_int_equal(module_decode(b, len, NULL, &m),
				 !len ? -EINVAL : len < MODULE_PAGE_SIZE ? -EBADMSG : 0);
		if (len) {
			assert_subset(&m, &full);
			assert_true(module_dom_check(&m, &st) >= 0);
		}
		free(b);
	}
}

static void truncated_flat(void **state)
{
	uint8_t q[MODULE_SFF8636_LEN], s[MODULE_SFF8472_LEN], c[384];
	struct cmis_vec v;
	(void)state;

	build_qsfp28(q);
	truncate_flat(q, sizeof(q));
	build_sfp(s);
	truncate_flat(s, sizeof(s));
	s[92] = 0x58;	/* externally calibrated, constants all zero */
	truncate_flat(s, sizeof(s));
	build_osfp(&v);
	memcpy(c, v.lower, 128);
	memcpy(c + 128, v.p00, 128);
	memcpy(c + 256, v.p01, 128);
	truncate_flat(c, sizeof(c));
}

/* Every page read cut to every length, one at a time. */
static void truncated_pages(void **state)
{
	struct cmis_vec v;
	struct module_pages p;
	struct module_info full, m;
	struct module_dom_status st;
	uint8_t q[MODULE_SFF8636_LEN];
	(void)state;

	build_osfp(&v);
	osfp_pages(&v, &p);
	assert_int_equal(module_pages_add(&p, MODULE_I2C_A0, 0, 0, 0, v.lower, 128), 0);
	assert_int_equal(module_decode(NULL, 0, &p, &full), 0);
	for (size_t i = 0; i < p.n; i++) {
		const uint8_t *keep = p.page[i].data;

		for (size_t len = 0; len <= 128; len++) {
			uint8_t *b = malloc(len ? len : 1);

			assert_non_null(b);
			memcpy(b, keep, len);
			p.page[i].data = b;
			p.page[i].len = len;
			assert_int_equal(module_decode(NULL, 0, &p, &m),
					 i != 4 ? 0 : !len ? -EINVAL :
					 len < MODULE_PAGE_SIZE ? -EBADMSG : 0);
			if (!(i == 4 && len == 0))
				assert_subset(&m, &full);
			assert_true(module_dom_check(&m, &st) >= 0);
			free(b);
		}
		p.page[i].data = keep;
		p.page[i].len = 128;
	}

	/* a QSFP28 lower page cut short, pages intact */
	build_qsfp28(q);
	module_pages_init(&p);
	assert_int_equal(module_pages_add(&p, MODULE_I2C_A0, 0, 0, 128, q + 128, 128), 0);
	assert_int_equal(module_pages_add(&p, MODULE_I2C_A0, 3, 0, 128, q + 512, 128), 0);
	assert_int_equal(module_decode(q, 128, &p, &full), 0);
	for (size_t len = 0; len <= 128; len++) {
		uint8_t *b = malloc(len ? len : 1);

		assert_non_null(b);
		memcpy(b, q, len);
		assert_int_equal(module_decode(b, len, &p, &m),
				 !len ? -EINVAL : len < MODULE_PAGE_SIZE ? -EBADMSG : 0);
		if (len)
			assert_subset(&m, &full);
		free(b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(qsfp28_flat),
		cmocka_unit_test(qsfp28_netlink),
		cmocka_unit_test(qsfp28_over_temperature),
		cmocka_unit_test(qsfp_without_dom_or_thresholds),
		cmocka_unit_test(cmis_osfp_low_rx),
		cmocka_unit_test(cmis_other_shapes),
		cmocka_unit_test(sfp_internal),
		cmocka_unit_test(sfp_external),
		cmocka_unit_test(api_edges),
		cmocka_unit_test(truncated_flat),
		cmocka_unit_test(truncated_pages),
	};

	return cmocka_run_group_tests_name("eeprom", tests, NULL, NULL);
}
