/* Why a port trained low; see rate_cause.h. */
#include "rate_cause.h"
#include "../model/module_info.h"
#include "../model/link_modes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double rate_cause_top_mode(const uint32_t *set)
{
	double top = 0;

	for (unsigned b = 0; b < LINK_MODE_BITS; b++) {
		const char *name = link_mode_name(b);
		char *end;
		unsigned long mbps;

		if (!link_mode_has(set, b) || !name || !strstr(name, "base"))
			continue;
		mbps = strtoul(name, &end, 10);	/* "200000baseCR4/Full" */
		if (end != name && strncmp(end, "base", 4) == 0 && mbps / 1000.0 > top)
			top = mbps / 1000.0;
	}
	return top;
}

/* "an" before a word said with a vowel sound: EDR, HDR, NDR, FDR, SDR,
 * XDR, 800G; "a" before DDR, QDR, 100G, 200G, 400G */
static const char *article(const char *w)
{
	return w[0] && strchr("AEFHILMNORSX8", w[0]) ? "an" : "a";
}

/* The port's, or on a RoCE LAG the first slave's, module and link. */
static const struct module_info *module_of(const struct port *pt)
{
	if (pt->module)
		return pt->module;
	for (size_t i = 0; pt->slaves && i < pt->n_slaves; i++)
		if (pt->slaves[i].module)
			return pt->slaves[i].module;
	return NULL;
}

const char *rate_cause_module_netdev(const struct port *pt)
{
	if (pt->module)
		return pt->netdev;
	for (size_t i = 0; pt->slaves && i < pt->n_slaves; i++)
		if (pt->slaves[i].module)
			return pt->slaves[i].netdev;
	return pt->netdev;
}

static const struct link_info *link_of(const struct port *pt)
{
	if (pt->link)
		return pt->link;
	for (size_t i = 0; pt->slaves && i < pt->n_slaves; i++)
		if (pt->slaves[i].link)
			return pt->slaves[i].link;
	return NULL;
}

enum rate_cause rate_cause(const struct port *pt, double want, bool ib, char *buf, size_t len)
{
	const struct module_info *m = module_of(pt);
	const struct link_info *l = link_of(pt);
	char port_kind[24], mod_kind[24], part[40], unread[200] = "";
	double peer = 0, nic = 0;
	bool module_ok = false;
	size_t u = 0;

	module_rate_kind(port_kind, sizeof(port_kind), want, ib);
	if (m)
		snprintf(part, sizeof(part), "%s", m->part[0] ? m->part : "the module");

	/* 1. the module's rate set */
	if (m && m->apps.known && m->apps.top_gbps > 0) {
		if (m->apps.top_gbps + 0.5 < want) {
			module_rate_kind(mod_kind, sizeof(mod_kind), m->apps.top_gbps, ib);
			snprintf(buf, len, "%s is %s %s module on %s %s port", part,
				 article(mod_kind), mod_kind, article(port_kind), port_kind);
			return RATE_CAUSE_MODULE;
		}
		module_ok = true;
		u += (size_t)snprintf(unread + u, sizeof(unread) - u, "%s supports %gG", part,
				      m->apps.top_gbps);
	} else if (!m) {
		u += (size_t)snprintf(unread + u, sizeof(unread) - u, "the module could not be read");
	} else if (!m->apps.known) {
		u += (size_t)snprintf(unread + u, sizeof(unread) - u,
				      "%s's compliance codes could not be read", part);
	} else {
		u += (size_t)snprintf(unread + u, sizeof(unread) - u,
				      "%s states no rate it is built for", part);
	}

	/* 2. the link partner's advertised modes, 3. the NIC's own */
	if (l && l->has_peer)
		peer = rate_cause_top_mode(l->peer);
	if (l && l->has_modes)
		nic = rate_cause_top_mode(l->supported);
	if (peer > 0 && peer + 0.5 < want) {
		snprintf(buf, len, "the switch port advertises %gG only", peer);
		return RATE_CAUSE_PARTNER;
	}
	if (nic > 0 && nic + 0.5 < want) {
		snprintf(buf, len, "the NIC supports %gG at most", nic);
		return RATE_CAUSE_NIC;
	}
	if (!l && u < sizeof(unread))
		/* InfiniBand netdevs have no ethtool link modes: neither end's */
		u += (size_t)snprintf(unread + u, sizeof(unread) - u, "%s%s", u ? ", " : "",
				      ib ? "the kernel shows no InfiniBand link modes" :
				      "the link modes (NIC and partner) could not be read");
	if (l && peer <= 0 && u < sizeof(unread))
		u += (size_t)snprintf(unread + u, sizeof(unread) - u, "%s%s", u ? ", " : "",
				      l->has_peer ? "the link partner advertises no speed" :
				      "the link partner's modes could not be read");
	if (l && nic <= 0 && u < sizeof(unread))
		u += (size_t)snprintf(unread + u, sizeof(unread) - u, "%s%s", u ? ", " : "",
				      "the NIC's link modes could not be read");
	if (module_ok && peer > 0 && nic > 0) {
		snprintf(buf, len, "the module and both ends support %gG: suspect the cable", want);
		return RATE_CAUSE_CABLE;
	}
	snprintf(buf, len, "cause not found (%s)", unread);
	return RATE_CAUSE_UNKNOWN;
}
