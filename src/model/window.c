/* Counters over a window (window.h). */
#include "window.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct port_start *window_baseline(const struct port *pt)
{
	struct port_start *s = calloc(1, sizeof(*s));

	if (!s || counter_set_copy(&s->counters, &pt->counters) < 0 ||
	    counter_set_copy(&s->hw_counters, &pt->hw_counters) < 0 ||
	    (pt->eth_stats.v && counter_set_copy(&s->eth_stats, &pt->eth_stats) < 0) ||
	    (pt->net_stats.v && counter_set_copy(&s->net_stats, &pt->net_stats) < 0)) {
		port_start_free(s);
		return NULL;
	}
	s->carrier_changes = pt->carrier_changes;
	if (pt->link && pt->link->fec_stats.have == 1)
		memcpy(s->fec, pt->link->fec_stats.c, sizeof(s->fec));
	for (int p = 0; p < 8; p++) {
		s->pause_tx[p] = pt->qos ? pt->qos->pause_tx[p] : NA;
		s->pause_rx[p] = pt->qos ? pt->qos->pause_rx[p] : NA;
	}
	return s;
}

int window_start(struct inventory *inv)
{
	for (size_t i = 0; i < inv->n_nics; i++)
		for (size_t k = 0; k < inv->nics[i].n_ports; k++) {
			struct port *pt = &inv->nics[i].ports[k];
			struct port_start *s = window_baseline(pt);

			if (!s)
				return -ENOMEM;
			port_start_free(pt->start);
			pt->start = s;
		}
	return 0;
}

static void change(uint64_t a, uint64_t b, struct counter_change *out)
{
	out->start = a;
	out->end = b;
	out->reset = b < a;
	out->delta = out->reset ? 0 : b - a;
}

const struct counter_set *window_set_of(const struct port *pt, int set)
{
	switch (set) {
	case WIN_HW:
		return &pt->hw_counters;
	case WIN_ETH:
		return &pt->eth_stats;
	case WIN_NET:
		return &pt->net_stats;
	default:
		return &pt->counters;
	}
}

static const struct counter_set *start_set(const struct port_start *s, int set)
{
	switch (set) {
	case WIN_HW:
		return &s->hw_counters;
	case WIN_ETH:
		return &s->eth_stats;
	case WIN_NET:
		return &s->net_stats;
	default:
		return &s->counters;
	}
}

bool window_change(const struct port *pt, int set, const char *name,
		   struct counter_change *out)
{
	const struct counter *a, *b;

	if (!pt->start)
		return false;
	a = counter_find(start_set(pt->start, set), name);
	b = counter_find(window_set_of(pt, set), name);
	if (!a || !b)
		return false;
	change(a->value, b->value, out);
	return true;
}

bool window_carrier(const struct port *pt, struct counter_change *out)
{
	if (!pt->start || IS_NA(pt->start->carrier_changes) || IS_NA(pt->carrier_changes) ||
	    pt->start->carrier_changes < 0 || pt->carrier_changes < 0)
		return false;
	change((uint64_t)pt->start->carrier_changes, (uint64_t)pt->carrier_changes, out);
	return true;
}

bool window_pause(const struct port *pt, int prio, bool tx, struct counter_change *out)
{
	int64_t a, b;

	if (!pt->start || !pt->qos || prio < 0 || prio > 7)
		return false;
	a = tx ? pt->start->pause_tx[prio] : pt->start->pause_rx[prio];
	b = tx ? pt->qos->pause_tx[prio] : pt->qos->pause_rx[prio];
	if (IS_NA(a) || IS_NA(b) || a < 0 || b < 0)
		return false;
	change((uint64_t)a, (uint64_t)b, out);
	return true;
}

bool window_fec(const struct port *pt, enum fec_counter k, struct counter_change *out)
{
	if (!pt->start || k >= FEC_COUNTERS || !pt->start->fec[k].n || !pt->link ||
	    pt->link->fec_stats.have != 1 || !pt->link->fec_stats.c[k].n)
		return false;
	change(pt->start->fec[k].v[0], pt->link->fec_stats.c[k].v[0], out);
	return true;
}
