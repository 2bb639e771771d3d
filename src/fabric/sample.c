/* A rank's rails' counters around a load round (sample.h). */
#include "sample.h"
#include "../collect/counter_window.h"
#include "../model/window.h"
#include "../sysfs/ethtool.h"
#include "../sysfs/netdev_port.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct port *rail_port(const struct fab_sampler *s, uint32_t i)
{
	if (s->nic[i] == SIZE_MAX || s->nic[i] >= s->inv->n_nics ||
	    s->port[i] >= s->inv->nics[s->nic[i]].n_ports)
		return NULL;
	return &s->inv->nics[s->nic[i]].ports[s->port[i]];
}

/* nic/port index of pt in inv */
static void locate(const struct inventory *inv, const struct port *pt, size_t *nic, size_t *port)
{
	for (size_t i = 0; i < inv->n_nics; i++)
		if (pt >= inv->nics[i].ports && pt < inv->nics[i].ports + inv->nics[i].n_ports) {
			*nic = i;
			*port = (size_t)(pt - inv->nics[i].ports);
			return;
		}
}

int fab_sampler_init(struct fab_sampler *s, const struct fab_machine *m,
		     enum bw_transport transport)
{
	memset(s, 0, sizeof(*s));
	s->n = m->n;
	for (uint32_t i = 0; i < BW_RAILS_MAX; i++) {
		s->nic[i] = SIZE_MAX;
		s->rate_gbps[i] = i < m->n ? m->rail[i].rate_gbps : NAN;
	}
	if (!m->inv) {
		for (uint32_t i = 0; i < s->n; i++)
			s->why[i] = "this machine's devices could not be read (see above)";
		return 0;
	}
	s->r = m->r;
	s->inv = m->inv;
	for (uint32_t i = 0; i < s->n; i++) {
		const struct bw_report_rail *rl = &m->rail[i];
		struct port *pt = NULL;

		if (transport == BW_TRANSPORT_VERBS) {
			const struct nic *n = &s->inv->nics[m->nic[i]];

			for (size_t k = 0; k < n->n_ports; k++)
				if (n->ports[k].num == rl->port)
					pt = &n->ports[k];
			if (!pt)
				s->why[i] = "its port is not in the inventory";
		} else if (!rl->device) {
			s->why[i] = "the tcp rail names no interface (give --rails IFACE)";
		} else {
			int rc = netdev_port(s->r, s->inv, rl->device, &pt);

			if (rc < 0)
				return -1;
			if (rc == 1)
				s->why[i] = "its interface is gone";
		}
		if (pt) {
			/* ethtool -S is read for the load test, once, if the
			 * collection did not */
			if (pt->netdev && !pt->eth_stats.v && ethtool_read_port_stats(s->r, pt) < 0)
				return -1;
			locate(s->inv, pt, &s->nic[i], &s->port[i]);
		}
	}
	return 0;
}

void fab_sampler_start(struct fab_sampler *s)
{
	int rc;

	s->started = false;
	s->error[0] = 0;
	if (!s->inv)
		return;
	rc = counter_window_open(s->r, s->inv);
	if (rc < 0)
		snprintf(s->error, sizeof(s->error), "its counters could not be read: %s",
			 strerror(-rc));
	else
		s->started = true;
}

struct deltas {
	struct fab_cdelta *v;
	size_t n, cap;
};

/* Keep one counter's change if the judge weighs it. */
static int keep(struct deltas *d, const char *driver, const char *prefix, const char *name,
		const struct counter_change *ch)
{
	char full[96];
	int prio;
	struct fab_cdelta *n;

	/* a name the wire would refuse (fabric/load_wire.h) is none the judge knows */
	if (snprintf(full, sizeof(full), "%s%s", prefix, name) > FAB_LOAD_NAME_MAX ||
	    fab_counter_kind_of(driver, full, &prio) == FAB_CK_NONE)
		return 0;
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 16;
		n = realloc(d->v, d->cap * sizeof(*n));
		if (!n)
			return -1;
		d->v = n;
	}
	d->v[d->n] = (struct fab_cdelta){ strdup(full), ch->delta, ch->reset };
	if (!d->v[d->n].name)
		return -1;
	d->n++;
	return 0;
}

/* driver: the NIC's, which says what its hw_counters count */
static int keep_set(struct deltas *d, const char *driver, const struct port *pt, int set,
		    const char *prefix)
{
	const struct counter_set *end = window_set_of(pt, set);

	for (size_t i = 0; end && i < end->n; i++) {
		struct counter_change ch;

		if (end->v[i].name && window_change(pt, set, end->v[i].name, &ch) &&
		    keep(d, driver, prefix, end->v[i].name, &ch) < 0)
			return -1;
	}
	return 0;
}

static int pfc_mask(const struct port *pt)
{
	int m = 0;

	if (!pt->qos)
		return -1;
	for (int p = 0; p < 8; p++) {
		if (pt->qos->pfc_enabled[p] < 0)
			return -1;
		m |= pt->qos->pfc_enabled[p] == 1 ? 1 << p : 0;
	}
	return m;
}

int fab_sampler_end(struct fab_sampler *s, uint32_t round, uint32_t rank,
		    struct fab_port_load *out)
{
	int rc = s->started ? counter_window_sample(s->r, s->inv) : 0;

	if (s->started && rc < 0)
		snprintf(s->error, sizeof(s->error), "its counters could not be read again: %s",
			 strerror(-rc));
	for (uint32_t i = 0; i < s->n; i++) {
		struct port *pt = rail_port(s, i);
		struct deltas d = { 0 };
		struct fab_port_load *l = &out[i];
		const char *drv;

		memset(l, 0, sizeof(*l));
		l->rank = rank;
		l->rail = i;
		l->round = round;
		l->rate_gbps = s->rate_gbps[i];
		l->pfc_mask = pt ? pfc_mask(pt) : -1;
		l->unread = !pt ? s->why[i] : s->error[0] ? s->error : NULL;
		if (l->unread || !s->started)
			continue;
		drv = s->inv->nics[s->nic[i]].driver;
		if (keep_set(&d, drv, pt, WIN_HW, "hw:") < 0 ||
		    keep_set(&d, drv, pt, WIN_ETH, "eth:") < 0 ||
		    keep_set(&d, drv, pt, WIN_NET, "net:") < 0)
			goto nomem;
		for (int p = 0; p < 8; p++)
			for (int tx = 0; tx < 2; tx++) {
				struct counter_change ch;
				char name[32];

				snprintf(name, sizeof(name), "%s_pause_prio%d", tx ? "tx" : "rx", p);
				if (window_pause(pt, p, tx, &ch) && keep(&d, drv, "dcb:", name, &ch) < 0)
					goto nomem;
			}
		l->c = d.v;
		l->n = d.n;
		continue;
nomem:
		l->c = d.v;
		l->n = d.n;
		return -1;
	}
	return 0;
}

void fab_sampler_load_free(struct fab_port_load *l)
{
	for (size_t i = 0; i < l->n; i++)
		free((char *)l->c[i].name);
	free((void *)l->c);
	l->c = NULL;
	l->n = 0;
}

int fab_sampler_priority(const struct fab_sampler *s, int traffic_class)
{
	struct port *pt = s->n && s->inv ? rail_port(s, 0) : NULL;
	int dscp = traffic_class >> 2;

	if (!traffic_class)
		return -1;	/* the device's own default class, not known here */
	if (pt && pt->qos && pt->qos->trust && strcmp(pt->qos->trust, "dscp") == 0 &&
	    pt->qos->dscp_to_prio[dscp] >= 0)
		return pt->qos->dscp_to_prio[dscp];
	if (pt && pt->qos && pt->qos->trust && strcmp(pt->qos->trust, "pcp") == 0)
		return -1;	/* the VLAN's PCP decides, not the traffic class */
	return dscp >> 3;
}
