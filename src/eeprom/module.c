/* Transceiver EEPROM decoders; see module.h and reference section 6.4. */
#include "eeprom/module.h"

#include <errno.h>
#include <math.h>
#include <string.h>

void module_pages_init(struct module_pages *p)
{
	if (p)
		memset(p, 0, sizeof(*p));
}

int module_pages_add(struct module_pages *p, uint8_t i2c, uint8_t page, uint8_t bank,
		     uint8_t offset, const uint8_t *data, size_t len)
{
	struct module_page *e;

	if (!p || !data || len > 256 || (size_t)offset + len > 256)
		return -EINVAL;
	if (p->n >= MODULE_MAX_PAGES)
		return -ENOSPC;
	e = &p->page[p->n++];
	e->i2c = i2c;
	e->page = page;
	e->bank = bank;
	e->offset = offset;
	e->data = data;
	e->len = len;
	return 0;
}

/* ---- bounds-checked access ---------------------------------------------- */

struct view {
	const uint8_t *lower;	/* flat buffer, may be NULL */
	size_t lower_len;
	const struct module_pages *pages;
	enum module_spec spec;	/* decides how a flat buffer past 256 maps */
};

/* n bytes at address off (0-255) of (i2c, page, bank), or NULL. */
static const uint8_t *at(const struct view *v, unsigned i2c, unsigned page, unsigned bank,
			 unsigned off, unsigned n)
{
	size_t end = (size_t)off + n, flat;

	if (n == 0 || end > 256)
		return NULL;
	if (end <= MODULE_PAGE_SIZE)	/* lower memory: the same for every page */
		page = bank = 0;
	else if (off < MODULE_PAGE_SIZE)	/* would straddle lower and upper */
		return NULL;

	if (v->pages) {
		size_t cnt = v->pages->n < MODULE_MAX_PAGES ? v->pages->n : MODULE_MAX_PAGES;

		for (size_t i = 0; i < cnt; i++) {
			const struct module_page *e = &v->pages->page[i];
			unsigned epage = e->page, ebank = e->bank;

			if (!e->data || e->i2c != i2c)
				continue;
			/* a read reaching into lower memory is page-independent */
			if ((size_t)e->offset + e->len <= MODULE_PAGE_SIZE)
				epage = ebank = 0;
			if (epage != page || ebank != bank)
				continue;
			if (off >= e->offset && end <= (size_t)e->offset + e->len)
				return e->data + (off - e->offset);
		}
	}

	if (!v->lower)
		return NULL;
	if (i2c == MODULE_I2C_A0 && page == 0 && bank == 0)
		flat = off;
	else if (v->spec == MODULE_SPEC_SFF8472 && i2c == MODULE_I2C_A2 && page == 0 &&
		 bank == 0)
		flat = 256 + (size_t)off;
	else if (v->spec == MODULE_SPEC_SFF8636 && i2c == MODULE_I2C_A0 && bank == 0 &&
		 page >= 1 && page <= 3)
		flat = (size_t)page * MODULE_PAGE_SIZE + off;
	else if (v->spec == MODULE_SPEC_CMIS && i2c == MODULE_I2C_A0 && bank == 0 && page == 1)
		flat = (size_t)page * MODULE_PAGE_SIZE + off;
	else
		return NULL;
	if (flat + n > v->lower_len)
		return NULL;
	return v->lower + flat;
}

static int byte_at(const struct view *v, unsigned i2c, unsigned page, unsigned bank,
		   unsigned off)
{
	const uint8_t *b = at(v, i2c, page, bank, off, 1);

	return b ? b[0] : -1;
}

static unsigned be16(const uint8_t *b)
{
	return ((unsigned)b[0] << 8) | b[1];
}

static int sbe16(const uint8_t *b)
{
	int x = (int)be16(b);

	return x >= 0x8000 ? x - 0x10000 : x;
}

/* ---- units (reference 6.4: big-endian) ---------------------------------- */

static double temp_of(const uint8_t *b)
{
	return b ? sbe16(b) / 256.0 : NAN;
}

static double vcc_of(const uint8_t *b)
{
	return b ? be16(b) * 100e-6 : NAN;	/* 100 uV */
}

static double bias_of(const uint8_t *b, double mult)
{
	return b ? be16(b) * 2e-3 * mult : NAN;	/* 2 uA -> mA */
}

static double power_of(const uint8_t *b)
{
	return b ? be16(b) / 10000.0 : NAN;	/* 0.1 uW -> mW */
}

/* ---- identity ----------------------------------------------------------- */

const char *module_type_name(int id)
{
	switch (id) {
	case 0x03: return "SFP";
	case 0x0C: return "QSFP";
	case 0x0D: return "QSFP+";
	case 0x11: return "QSFP28";
	case 0x18: return "QSFP-DD";
	case 0x19: return "OSFP";
	case 0x1B: return "DSFP";
	case 0x1E: return "QSFP+ CMIS";
	case 0x1F: return "SFP-DD";
	case 0x20: return "SFP+ CMIS";
	default: return "unknown";
	}
}

static enum module_spec spec_of(int id)
{
	switch (id) {
	case 0x03:
		return MODULE_SPEC_SFF8472;
	case 0x0C: case 0x0D: case 0x11:
		return MODULE_SPEC_SFF8636;
	case 0x18: case 0x19: case 0x1B: case 0x1E: case 0x1F: case 0x20:
		return MODULE_SPEC_CMIS;
	default:
		return MODULE_SPEC_UNKNOWN;
	}
}

/* 16 space-padded ASCII bytes: non-printables become '?', padding, NULs
 * and leading blanks go. */
static void text16(const struct view *v, unsigned i2c, unsigned page, unsigned off, char out[17])
{
	const uint8_t *b = at(v, i2c, page, 0, off, 16);
	size_t len = 16, start = 0;

	out[0] = '\0';
	if (!b)
		return;
	while (len > 0 && (b[len - 1] == ' ' || b[len - 1] == '\0'))
		len--;
	while (start < len && b[start] == ' ')
		start++;
	for (size_t i = start; i < len; i++)
		out[i - start] = (b[i] >= 0x20 && b[i] < 0x7f) ? (char)b[i] : '?';
	out[len - start] = '\0';
}

/* HA, LA, HW, LW: four big-endian words at b (8 bytes, known present). */
static void thresholds(struct module_threshold *t, const uint8_t *b, int is_temp, double scale)
{
	double w[4];

	for (int i = 0; i < 4; i++)
		w[i] = (is_temp ? sbe16(b + 2 * i) / 256.0 : be16(b + 2 * i)) * scale;
	t->high_alarm = w[0];
	t->low_alarm = w[1];
	t->high_warn = w[2];
	t->low_warn = w[3];
}

/* ---- SFF-8636 / SFF-8436 ------------------------------------------------ */

static void decode_sff8636(const struct view *v, struct module_info *m)
{
	const uint8_t *t;
	int status = byte_at(v, MODULE_I2C_A0, 0, 0, 2);
	int diag = byte_at(v, MODULE_I2C_A0, 0, 0, 0xDC);	/* upper 00h 220 */
	bool paged = status >= 0 && !(status & 0x04);	/* Flat_mem clear */
	bool ready = status >= 0 && !(status & 0x01);	/* Data_Not_Ready clear */

	m->lanes = 4;
	module_apps_sff8636(at(v, MODULE_I2C_A0, 0, 0, 128, 128), 128, &m->apps);
	text16(v, MODULE_I2C_A0, 0, 148, m->vendor);
	text16(v, MODULE_I2C_A0, 0, 168, m->part);
	text16(v, MODULE_I2C_A0, 0, 196, m->serial);

	/* byte 220: 5 temp, 4 Vcc, 3 RX avg/OMA, 2 TX power monitored */
	m->dom = diag >= 0 && (diag & 0x3C);
	if (m->dom && ready) {
		m->temp_c = temp_of(at(v, MODULE_I2C_A0, 0, 0, 22, 2));
		m->vcc_v = vcc_of(at(v, MODULE_I2C_A0, 0, 0, 26, 2));
		for (int l = 0; l < 4; l++) {
			m->rx_power_mw[l] = power_of(at(v, MODULE_I2C_A0, 0, 0, 34 + 2 * l, 2));
			m->tx_bias_ma[l] = bias_of(at(v, MODULE_I2C_A0, 0, 0, 42 + 2 * l, 2), 1);
			if (diag & 0x04)
				m->tx_power_mw[l] =
					power_of(at(v, MODULE_I2C_A0, 0, 0, 50 + 2 * l, 2));
		}
	}

	/* page 03h exists only on paged modules */
	t = paged ? at(v, MODULE_I2C_A0, 3, 0, 0x80, 0xC8 - 0x80) : NULL;
	if (t) {
		m->has_thresholds = true;
		thresholds(&m->temp, t + 0x00, 1, 1);
		thresholds(&m->vcc, t + 0x10, 0, 100e-6);
		thresholds(&m->rx_power, t + 0x30, 0, 1e-4);
		thresholds(&m->tx_bias, t + 0x38, 0, 2e-3);
		thresholds(&m->tx_power, t + 0x40, 0, 1e-4);
	}
}

/* ---- CMIS ---------------------------------------------------------------- */

static void decode_cmis(const struct view *v, struct module_info *m)
{
	const uint8_t *t;
	int model = byte_at(v, MODULE_I2C_A0, 0, 0, 2);
	int lanes = byte_at(v, MODULE_I2C_A0, 0, 0, 88);	/* AppSel 1 lane counts */
	int app = byte_at(v, MODULE_I2C_A0, 0, 0, 86);
	int adv = byte_at(v, MODULE_I2C_A0, 1, 0, 0xA0);	/* supported monitors */
	bool paged = model >= 0 && !(model & 0x80);
	double mult = NAN;

	m->lanes = 8;
	if (app >= 0 && app != 0xFF && lanes >= 0 && (lanes & 0x0F) >= 1 && (lanes & 0x0F) <= 8)
		m->lanes = lanes & 0x0F;
	module_apps_cmis(at(v, MODULE_I2C_A0, 0, 0, 0, 128), 128, &m->apps);
	text16(v, MODULE_I2C_A0, 0, 0x81, m->vendor);
	text16(v, MODULE_I2C_A0, 0, 0x94, m->part);
	text16(v, MODULE_I2C_A0, 0, 0xA6, m->serial);

	/* flat memory: passive copper, no monitors and no thresholds */
	m->dom = paged;
	if (!paged)
		return;
	m->temp_c = temp_of(at(v, MODULE_I2C_A0, 0, 0, 0x0E, 2));
	m->vcc_v = vcc_of(at(v, MODULE_I2C_A0, 0, 0, 0x10, 2));

	if (adv >= 0) {
		switch ((adv >> 3) & 3) {
		case 0: mult = 1; break;
		case 1: mult = 2; break;
		case 2: mult = 4; break;
		default: break;	/* reserved */
		}
		for (int l = 0; l < m->lanes; l++) {
			if (adv & 0x01)
				m->tx_bias_ma[l] =
					bias_of(at(v, MODULE_I2C_A0, 0x11, 0, 0xAA + 2 * l, 2), mult);
			if (adv & 0x02)
				m->tx_power_mw[l] =
					power_of(at(v, MODULE_I2C_A0, 0x11, 0, 0x9A + 2 * l, 2));
			if (adv & 0x04)
				m->rx_power_mw[l] =
					power_of(at(v, MODULE_I2C_A0, 0x11, 0, 0xBA + 2 * l, 2));
		}
	}

	t = at(v, MODULE_I2C_A0, 2, 0, 0x80, 0xC8 - 0x80);
	if (t) {
		m->has_thresholds = true;
		thresholds(&m->temp, t + 0x00, 1, 1);
		thresholds(&m->vcc, t + 0x08, 0, 100e-6);
		thresholds(&m->tx_power, t + 0x30, 0, 1e-4);
		thresholds(&m->tx_bias, t + 0x38, 0, 2e-3 * mult);	/* NAN if unknown */
		thresholds(&m->rx_power, t + 0x40, 0, 1e-4);
	}
}

/* ---- SFF-8472 ------------------------------------------------------------ */

static double be_float(const uint8_t *b)
{
	uint32_t u = ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/* External calibration, A2h 56-91: slope u16 8.8 fixed point, offset s16
 * in the raw unit; RX power a 4th-degree polynomial of IEEE floats. */
static double ext_linear(double raw, const uint8_t *c)
{
	return raw * (be16(c) / 256.0) + sbe16(c + 2);
}

static double ext_rx(double raw, const uint8_t *c)
{
	double y = 0;

	for (int i = 0; i < 5; i++)	/* Rx_PWR(4) at 56 ... Rx_PWR(0) at 72 */
		y = y * raw + be_float(c + 4 * i);
	return y;
}

static void ext_threshold(struct module_threshold *t, const uint8_t *b, const uint8_t *cal,
			  int kind, double scale)
{
	double w[4];

	for (int i = 0; i < 4; i++) {
		double raw = kind == 0 ? (double)sbe16(b + 2 * i) : (double)be16(b + 2 * i);

		w[i] = (kind == 3 ? ext_rx(raw, cal) : ext_linear(raw, cal)) * scale;
	}
	t->high_alarm = w[0];
	t->low_alarm = w[1];
	t->high_warn = w[2];
	t->low_warn = w[3];
}

static void decode_sff8472(const struct view *v, struct module_info *m)
{
	const uint8_t *d, *t, *cal = NULL;
	int diag = byte_at(v, MODULE_I2C_A0, 0, 0, 92);
	int opts = byte_at(v, MODULE_I2C_A0, 0, 0, 93);
	bool ext;

	m->lanes = 1;
	text16(v, MODULE_I2C_A0, 0, 20, m->vendor);
	text16(v, MODULE_I2C_A0, 0, 40, m->part);
	text16(v, MODULE_I2C_A0, 0, 68, m->serial);

	m->dom = diag >= 0 && (diag & 0x40);
	if (!m->dom)
		return;
	ext = diag & 0x10;
	if (ext) {
		cal = at(v, MODULE_I2C_A2, 0, 0, 56, 36);
		if (!cal)
			return;	/* raw A/D values mean nothing without them */
	}

	d = at(v, MODULE_I2C_A2, 0, 0, 96, 10);
	if (d && !ext) {
		m->temp_c = temp_of(d);
		m->vcc_v = vcc_of(d + 2);
		m->tx_bias_ma[0] = bias_of(d + 4, 1);
		m->tx_power_mw[0] = power_of(d + 6);
		m->rx_power_mw[0] = power_of(d + 8);
	} else if (d) {
		m->temp_c = ext_linear(sbe16(d), cal + 84 - 56) / 256.0;
		m->vcc_v = ext_linear(be16(d + 2), cal + 88 - 56) * 100e-6;
		m->tx_bias_ma[0] = ext_linear(be16(d + 4), cal + 76 - 56) * 2e-3;
		m->tx_power_mw[0] = ext_linear(be16(d + 6), cal + 80 - 56) * 1e-4;
		m->rx_power_mw[0] = ext_rx(be16(d + 8), cal) * 1e-4;
	}

	/* A0h 93 bit 7: alarm/warning flags implemented */
	t = (opts >= 0 && (opts & 0x80)) ? at(v, MODULE_I2C_A2, 0, 0, 0, 40) : NULL;
	if (!t)
		return;
	m->has_thresholds = true;
	if (!ext) {
		thresholds(&m->temp, t + 0, 1, 1);
		thresholds(&m->vcc, t + 8, 0, 100e-6);
		thresholds(&m->tx_bias, t + 16, 0, 2e-3);
		thresholds(&m->tx_power, t + 24, 0, 1e-4);
		thresholds(&m->rx_power, t + 32, 0, 1e-4);
	} else {
		ext_threshold(&m->temp, t + 0, cal + 84 - 56, 0, 1 / 256.0);
		ext_threshold(&m->vcc, t + 8, cal + 88 - 56, 1, 100e-6);
		ext_threshold(&m->tx_bias, t + 16, cal + 76 - 56, 2, 2e-3);
		ext_threshold(&m->tx_power, t + 24, cal + 80 - 56, 2, 1e-4);
		ext_threshold(&m->rx_power, t + 32, cal, 3, 1e-4);
	}
}

/* ---- entry points --------------------------------------------------------- */

static void unknown_threshold(struct module_threshold *t)
{
	t->high_alarm = t->low_alarm = t->high_warn = t->low_warn = NAN;
}

int module_decode(const uint8_t *lower, size_t lower_len, const struct module_pages *pages,
		  struct module_info *out)
{
	struct view v = { .lower = lower, .lower_len = lower ? lower_len : 0, .pages = pages };
	int id;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->id = -1;
	out->type = "unknown";
	out->temp_c = out->vcc_v = NAN;
	for (int l = 0; l < MODULE_MAX_LANES; l++)
		out->tx_bias_ma[l] = out->tx_power_mw[l] = out->rx_power_mw[l] = NAN;
	unknown_threshold(&out->temp);
	unknown_threshold(&out->vcc);
	unknown_threshold(&out->tx_bias);
	unknown_threshold(&out->tx_power);
	unknown_threshold(&out->rx_power);
	out->apps.top = -1;

	id = byte_at(&v, MODULE_I2C_A0, 0, 0, 0);
	if (id < 0)
		return -EINVAL;
	out->id = id;
	out->type = module_type_name(id);
	out->spec = v.spec = spec_of(id);
	/* every layout keeps its identity, lane count and flags in the lower
	 * 128 bytes: a shorter lower page is unusable, never read as zeros
	 * (a 50-byte CMIS page once gave -40 dBm on lanes 5-8) */
	if (v.spec != MODULE_SPEC_UNKNOWN && !at(&v, MODULE_I2C_A0, 0, 0, 0, MODULE_PAGE_SIZE))
		return -EBADMSG;
	switch (v.spec) {
	case MODULE_SPEC_SFF8472:
		decode_sff8472(&v, out);
		return 0;
	case MODULE_SPEC_SFF8636:
		decode_sff8636(&v, out);
		return 0;
	case MODULE_SPEC_CMIS:
		decode_cmis(&v, out);
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}
