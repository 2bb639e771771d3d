/* Transceiver rates and applications; see apps.h.  The SFF-8636 names
 * are ethtool's (sff-8636.c, sff8636_show_transceiver), the CMIS ids
 * SFF-8024's tables 4-5 (host), 4-6 (MMF media) and 4-7 (SMF media). */
#include "eeprom/apps.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void add(struct module_apps *a, const char *name, const char *kind, double gbps)
{
	struct module_app *e;

	if (a->n >= MODULE_MAX_APPS)
		return;
	e = &a->app[a->n];
	snprintf(e->name, sizeof(e->name), "%s", name);
	if (kind)
		snprintf(e->kind, sizeof(e->kind), "%s", kind);
	else if (gbps > 0)
		snprintf(e->kind, sizeof(e->kind), "%.0fG", gbps);
	else
		e->kind[0] = '\0';
	e->gbps = gbps;
	if (gbps > a->top_gbps) {
		a->top_gbps = gbps;
		a->top = (int)a->n;
	}
	a->n++;
}

static void reset(struct module_apps *a)
{
	memset(a, 0, sizeof(*a));
	a->top = -1;
}

/* ---- SFF-8636 ------------------------------------------------------------ */

struct code {
	uint8_t id;
	double gbps;
	const char *name;
};

/* byte 131 bits 6..0 */
static const struct code eth131[] = {
	{ 0x40, 10, "10G Ethernet: 10G Base-LRM" },
	{ 0x20, 10, "10G Ethernet: 10G Base-LR" },
	{ 0x10, 10, "10G Ethernet: 10G Base-SR" },
	{ 0x08, 40, "40G Ethernet: 40G Base-CR4" },
	{ 0x04, 40, "40G Ethernet: 40G Base-SR4" },
	{ 0x02, 40, "40G Ethernet: 40G Base-LR4" },
	{ 0x01, 40, "40G Ethernet: 40G Active Cable (XLPPI)" },
};

/* byte 192, SFF-8024 table 4-4, when byte 131 bit 7 is set */
static const struct code ext192[] = {
	{ 0x01, 100, "100G Ethernet: 100G AOC or 25GAUI C2M AOC with worst BER of 5x10^(-5)" },
	{ 0x02, 100, "100G Ethernet: 100G Base-SR4 or 25GBase-SR" },
	{ 0x03, 100, "100G Ethernet: 100G Base-LR4" },
	{ 0x04, 100, "100G Ethernet: 100G Base-ER4" },
	{ 0x05, 100, "100G Ethernet: 100G Base-SR10" },
	{ 0x06, 100, "100G Ethernet: 100G CWDM4 MSA with FEC" },
	{ 0x07, 100, "100G Ethernet: 100G PSM4 Parallel SMF" },
	{ 0x08, 100, "100G Ethernet: 100G ACC or 25GAUI C2M ACC with worst BER of 5x10^(-5)" },
	{ 0x09, 100, "100G Ethernet: 100G CWDM4 MSA without FEC" },
	{ 0x0B, 100, "100G Ethernet: 100G Base-CR4 or 25G Base-CR CA-L" },
	{ 0x0C, 25, "25G Ethernet: 25G Base-CR CA-S" },
	{ 0x0D, 25, "25G Ethernet: 25G Base-CR CA-N" },
	{ 0x10, 40, "40G Ethernet: 40G Base-ER4" },
	{ 0x11, 40, "4x10G Ethernet: 10G Base-SR" },
	{ 0x12, 40, "40G Ethernet: 40G PSM4 Parallel SMF" },
	{ 0x13, 10, "Ethernet: G959.1 profile P1I1-2D1 (10709 MBd, 2km, 1310nm SM)" },
	{ 0x14, 10, "Ethernet: G959.1 profile P1S1-2D2 (10709 MBd, 40km, 1550nm SM)" },
	{ 0x15, 10, "Ethernet: G959.1 profile P1L1-2D2 (10709 MBd, 80km, 1550nm SM)" },
	{ 0x16, 10, "10G Ethernet: 10G Base-T with SFI electrical interface" },
	{ 0x17, 100, "100G Ethernet: 100G CLR4" },
	{ 0x18, 100, "100G Ethernet: 100G AOC or 25GAUI C2M AOC with worst BER of 10^(-12)" },
	{ 0x19, 100, "100G Ethernet: 100G ACC or 25GAUI C2M ACC with worst BER of 10^(-12)" },
	/* QSFP56: ethtool names these since its 200G codes (SFF8636_ETHERNET_200G_*) */
	{ 0x40, 200, "50GBASE-CR, 100GBASE-CR2, or 200GBASE-CR4" },
	{ 0x41, 200, "50GBASE-SR, 100GBASE-SR2, or 200GBASE-SR4" },
	{ 0x42, 200, "50GBASE-FR or 200GBASE-DR4" },
	{ 0x43, 200, "200GBASE-FR4" },
	{ 0x44, 200, "200G 1550 nm PSM4" },
	{ 0x45, 50, "50GBASE-LR" },
	{ 0x46, 200, "200GBASE-LR4" },
};

/* byte 164 bits 4..0 (SFF8636_EXT_MOD_INFINIBAND_*), a 4X module */
static const struct code ib164[] = {
	{ 0x10, 100, "EDR" },
	{ 0x08, 56, "FDR" },
	{ 0x04, 40, "QDR" },
	{ 0x02, 20, "DDR" },
	{ 0x01, 10, "SDR" },
};

void module_apps_sff8636(const uint8_t *upper, size_t len, struct module_apps *apps)
{
	char name[MODULE_APP_NAME];
	int b131, b192, b164;

	if (!apps)
		return;
	reset(apps);
	if (!upper || len < 128)
		return;
	apps->known = true;
	b131 = upper[131 - 128];
	b164 = upper[164 - 128];
	b192 = upper[192 - 128];
	for (size_t i = 0; i < sizeof(eth131) / sizeof(eth131[0]); i++)
		if (b131 & eth131[i].id)
			add(apps, eth131[i].name, NULL, eth131[i].gbps);
	if (b131 & 0x80) {
		const struct code *c = NULL;

		for (size_t i = 0; i < sizeof(ext192) / sizeof(ext192[0]); i++)
			if (ext192[i].id == b192)
				c = &ext192[i];
		if (c) {
			add(apps, c->name, NULL, c->gbps);
		} else {
			snprintf(name, sizeof(name), "(reserved or unknown: 0x%02x)", (unsigned)b192);
			add(apps, name, NULL, 0);
		}
	}
	for (size_t i = 0; i < sizeof(ib164) / sizeof(ib164[0]); i++)
		if (b164 & ib164[i].id) {
			snprintf(name, sizeof(name), "InfiniBand %s", ib164[i].name);
			add(apps, name, ib164[i].name, ib164[i].gbps);
		}
}

/* ---- CMIS ------------------------------------------------------------------ */

/* Host electrical interface ids, SFF-8024 table 4-5: name and Gb/s;
 * InfiniBand ones carry their per-lane rate and kind instead. */
struct host_code {
	uint8_t id;
	double gbps;		/* the whole interface; per lane when ib */
	const char *name;
	const char *ib;		/* "HDR": an InfiniBand speed */
};

static const struct host_code hosts[] = {
	{ 0x01, 1, "1000BASE-CX", NULL },
	{ 0x02, 10, "XAUI", NULL },
	{ 0x03, 10, "XFI", NULL },
	{ 0x04, 10, "SFI", NULL },
	{ 0x05, 25, "25GAUI C2M", NULL },
	{ 0x06, 40, "XLAUI C2M", NULL },
	{ 0x07, 40, "XLPPI", NULL },
	{ 0x08, 50, "LAUI-2 C2M", NULL },
	{ 0x09, 50, "50GAUI-2 C2M", NULL },
	{ 0x0A, 50, "50GAUI-1 C2M", NULL },
	{ 0x0B, 100, "CAUI-4 C2M", NULL },
	{ 0x0C, 100, "100GAUI-4 C2M", NULL },
	{ 0x0D, 100, "100GAUI-2 C2M", NULL },
	{ 0x0E, 200, "200GAUI-8 C2M", NULL },
	{ 0x0F, 200, "200GAUI-4 C2M", NULL },
	{ 0x10, 400, "400GAUI-16 C2M", NULL },
	{ 0x11, 400, "400GAUI-8 C2M", NULL },
	{ 0x13, 10, "10GBASE-CX4", NULL },
	{ 0x14, 25, "25GBASE-CR CA-25G-L", NULL },
	{ 0x15, 25, "25GBASE-CR CA-25G-S", NULL },
	{ 0x16, 25, "25GBASE-CR CA-25G-N", NULL },
	{ 0x17, 40, "40GBASE-CR4", NULL },
	{ 0x18, 50, "50GBASE-CR", NULL },
	{ 0x19, 100, "100GBASE-CR10", NULL },
	{ 0x1A, 100, "100GBASE-CR4", NULL },
	{ 0x1B, 100, "100GBASE-CR2", NULL },
	{ 0x1C, 200, "200GBASE-CR4", NULL },
	{ 0x1D, 400, "400G CR8", NULL },
	{ 0x2C, 2.5, "IB SDR", "SDR" },
	{ 0x2D, 5, "IB DDR", "DDR" },
	{ 0x2E, 10, "IB QDR", "QDR" },
	{ 0x2F, 14, "IB FDR", "FDR" },
	{ 0x30, 25, "IB EDR", "EDR" },
	{ 0x31, 50, "IB HDR", "HDR" },
	{ 0x32, 100, "IB NDR", "NDR" },
	{ 0x41, 100, "CAUI-4 C2M without FEC", NULL },
	{ 0x42, 100, "CAUI-4 C2M with RS(528,514) FEC", NULL },
	{ 0x43, 50, "50GBASE-CR2 with RS FEC", NULL },
	{ 0x44, 50, "50GBASE-CR2 with BASE-R FEC", NULL },
	{ 0x45, 50, "50GBASE-CR2 with no FEC", NULL },
	{ 0x46, 100, "100GBASE-CR1", NULL },
	{ 0x47, 200, "200GBASE-CR2", NULL },
	{ 0x48, 400, "400GBASE-CR4", NULL },
	{ 0x49, 800, "800G-ETC-CR8", NULL },
	{ 0x4B, 100, "100GAUI-1-S C2M", NULL },
	{ 0x4C, 100, "100GAUI-1-L C2M", NULL },
	{ 0x4D, 200, "200GAUI-2-S C2M", NULL },
	{ 0x4E, 200, "200GAUI-2-L C2M", NULL },
	{ 0x4F, 400, "400GAUI-4-S C2M", NULL },
	{ 0x50, 400, "400GAUI-4-L C2M", NULL },
	{ 0x51, 800, "800G S C2M", NULL },
	{ 0x52, 800, "800G L C2M", NULL },
};

struct media_code {
	uint8_t id;
	const char *name;
};

/* SFF-8024 table 4-6, multimode fibre (media type 01h) */
static const struct media_code mmf[] = {
	{ 0x01, "10GBASE-SW" }, { 0x02, "10GBASE-SR" }, { 0x03, "25GBASE-SR" },
	{ 0x04, "40GBASE-SR4" }, { 0x05, "40GE SWDM4" }, { 0x06, "40GE BiDi" },
	{ 0x07, "50GBASE-SR" }, { 0x08, "100GBASE-SR10" }, { 0x09, "100GBASE-SR4" },
	{ 0x0A, "100GE SWDM4" }, { 0x0B, "100GE BiDi" }, { 0x0C, "100GBASE-SR2" },
	{ 0x0D, "100GBASE-SR1" }, { 0x0E, "200GBASE-SR4" }, { 0x0F, "400GBASE-SR16" },
	{ 0x10, "400GBASE-SR8" }, { 0x11, "400GBASE-SR4" }, { 0x12, "800GBASE-SR8" },
	{ 0x1A, "400GBASE-SR4.2" }, { 0x1B, "200GBASE-SR2" }, { 0x1D, "100GBASE-VR1" },
	{ 0x1E, "200GBASE-VR2" }, { 0x1F, "400GBASE-VR4" }, { 0x20, "800GBASE-VR8" },
};

/* SFF-8024 table 4-7, single-mode fibre (media type 02h) */
static const struct media_code smf[] = {
	{ 0x04, "10GBASE-LR" }, { 0x05, "10GBASE-ER" }, { 0x07, "25GBASE-LR" },
	{ 0x08, "25GBASE-ER" }, { 0x09, "40GBASE-LR4" }, { 0x0A, "40GBASE-FR" },
	{ 0x0B, "50GBASE-FR" }, { 0x0C, "50GBASE-LR" }, { 0x0D, "100GBASE-LR4" },
	{ 0x0E, "100GBASE-ER4" }, { 0x0F, "100G PSM4" }, { 0x10, "100G CWDM4" },
	{ 0x14, "100GBASE-DR" }, { 0x15, "100GBASE-FR1" }, { 0x16, "100GBASE-LR1" },
	{ 0x17, "200GBASE-DR4" }, { 0x18, "200GBASE-FR4" }, { 0x19, "200GBASE-LR4" },
	{ 0x1A, "400GBASE-FR8" }, { 0x1B, "400GBASE-LR8" }, { 0x1C, "400GBASE-DR4" },
	{ 0x1D, "400GBASE-FR4" }, { 0x1E, "400G-LR4-10" }, { 0x34, "100G CWDM4-OCP" },
	{ 0x43, "400GBASE-LR4-6" }, { 0x56, "800GBASE-DR8" }, { 0x57, "800GBASE-DR8-2" },
};

static const char *media_name(int type, uint8_t id)
{
	const struct media_code *t = type == 1 ? mmf : type == 2 ? smf : NULL;
	size_t n = type == 1 ? sizeof(mmf) / sizeof(mmf[0]) :
		   type == 2 ? sizeof(smf) / sizeof(smf[0]) : 0;

	for (size_t i = 0; t && i < n; i++)
		if (t[i].id == id)
			return t[i].name;
	return NULL;
}

void module_apps_cmis(const uint8_t *lower, size_t len, struct module_apps *apps)
{
	if (!apps)
		return;
	reset(apps);
	if (!lower || len < 118)
		return;
	apps->known = true;
	for (int i = 0; i < 8; i++) {
		const uint8_t *d = lower + 86 + 4 * i;
		const struct host_code *h = NULL;
		char name[MODULE_APP_NAME], host[32];
		const char *media;
		unsigned host_lanes = d[2] >> 4;
		double gbps = 0;

		if (d[0] == 0xFF)	/* end of list */
			break;
		if (d[0] == 0x00)	/* undefined */
			continue;
		for (size_t k = 0; k < sizeof(hosts) / sizeof(hosts[0]); k++)
			if (hosts[k].id == d[0])
				h = &hosts[k];
		if (h) {
			snprintf(host, sizeof(host), "%s", h->name);
			/* an InfiniBand id is a lane speed: the width is the
			 * host lane count (0 or past 8: a 4X port) */
			gbps = h->ib ? h->gbps * (host_lanes >= 1 && host_lanes <= 8 ?
						  host_lanes : 4) : h->gbps;
		} else {
			snprintf(host, sizeof(host), "host interface 0x%02x", (unsigned)d[0]);
		}
		media = media_name(lower[85], d[1]);
		if (media)
			snprintf(name, sizeof(name), "%s / %s", host, media);
		else
			snprintf(name, sizeof(name), "%s", host);
		add(apps, name, h ? h->ib : NULL, gbps);
	}
}
