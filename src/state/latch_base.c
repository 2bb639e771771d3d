/* Counter baselines of one boot (latch_base.h). */
#include "latch_base.h"
#include "../model/window.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Where a base goes: the short bases or the long ones. */
typedef int (*add_fn)(struct latch_state *s, const char *nic, int port, enum latch_set set,
		      const char *name, uint64_t value);

static int take_set(struct latch_state *s, const struct nic *n, int port, enum latch_set set,
		    const struct counter_set *cs, latch_keep_fn keep, add_fn add)
{
	for (size_t i = 0; i < cs->n; i++) {
		const struct counter *ct = &cs->v[i];

		if (!ct->ok || !ct->name || !keep(n->driver, ct->name, (int)set))
			continue;
		if (add(s, n->name, port, set, ct->name, ct->value) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* The totals of the FEC statistics in the baseline, where the reply
 * carried them. */
static int take_fec(struct latch_state *s, const char *nic, int port,
		    const struct port_start *st, add_fn add)
{
	for (int k = 0; k < FEC_COUNTERS; k++)
		if (st->fec[k].n &&
		    add(s, nic, port, LATCH_FEC, fec_counter_name(k), st->fec[k].v[0]) < 0)
			return -ENOMEM;
	return 0;
}

/* The kept counters of one port's baseline. */
static int take_port(struct latch_state *s, const struct nic *n, int port,
		     const struct port_start *st, latch_keep_fn keep, add_fn add)
{
	if (take_set(s, n, port, LATCH_PMA, &st->counters, keep, add) < 0 ||
	    take_set(s, n, port, LATCH_HW, &st->hw_counters, keep, add) < 0 ||
	    take_set(s, n, port, LATCH_ETH, &st->eth_stats, keep, add) < 0 ||
	    take_fec(s, n->name, port, st, add) < 0)
		return -ENOMEM;
	if (!IS_NA(st->carrier_changes) && st->carrier_changes >= 0 &&
	    add(s, n->name, port, LATCH_NET, "carrier_changes", (uint64_t)st->carrier_changes) < 0)
		return -ENOMEM;
	return 0;
}

static int take_all(struct latch_state *s, const struct inventory *inv, latch_keep_fn keep,
		    add_fn add)
{
	for (size_t i = 0; i < inv->n_nics; i++)
		for (size_t k = 0; k < inv->nics[i].n_ports; k++) {
			const struct nic *n = &inv->nics[i];
			const struct port *pt = &n->ports[k];
			/* the port's baseline, taken as every window takes one */
			struct port_start *st = window_baseline(pt);
			int rc = st ? take_port(s, n, pt->num, st, keep, add) : -ENOMEM;

			port_start_free(st);
			if (rc < 0)
				return rc;
		}
	return 0;
}

/* A short base whose counter is below its long base: the counter went
 * down (cleared) since the long baseline was taken, which can then judge
 * nothing more of it. */
static bool went_down(const struct latch_state *s)
{
	for (size_t i = 0; i < s->n_bases; i++) {
		const struct latch_base *b = &s->bases[i];
		const struct latch_base *l =
			latch_state_boot_base(s, b->nic, b->port, b->set, b->name);

		if (l && b->value < l->value)
			return true;
	}
	return false;
}

int latch_base_take(struct latch_state *s, const struct inventory *inv, latch_keep_fn keep,
		    int64_t now)
{
	int rc;

	latch_state_bases_clear(s);
	rc = take_all(s, inv, keep, latch_state_base_add);
	if (rc < 0)
		return rc;
	s->taken = now;
	if (s->boot_taken && s->n_boot_bases && !went_down(s))
		return 0;
	/* the boot's first reading (or its counters were cleared): the long
	 * baseline begins here */
	latch_state_boot_bases_clear(s);
	rc = take_all(s, inv, keep, latch_state_boot_base_add);
	if (rc < 0)
		return rc;
	s->boot_taken = now;
	return 0;
}

static int push(struct counter_set *cs, const struct latch_base *b)
{
	struct counter *v = realloc(cs->v, (cs->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	cs->v = v;
	memset(&v[cs->n], 0, sizeof(*v));
	v[cs->n].name = strdup(b->name);
	if (!v[cs->n].name)
		return -ENOMEM;
	v[cs->n].value = b->value;
	v[cs->n].ok = true;
	cs->n++;
	return 0;
}

/* The start of pt's window from the bases; NULL when none is of it (or
 * no memory: *rc). */
static struct port_start *start_of(const struct latch_base *v, size_t n_v, const char *nic,
				   int port, int *rc)
{
	struct port_start *st = NULL;

	for (size_t i = 0; i < n_v; i++) {
		const struct latch_base *b = &v[i];
		struct counter_set *cs;

		if (b->port != port || strcmp(b->nic, nic) != 0)
			continue;
		if (!st) {
			st = calloc(1, sizeof(*st));
			if (!st)
				goto nomem;
			st->carrier_changes = NA;
			for (int p = 0; p < 8; p++)
				st->pause_tx[p] = st->pause_rx[p] = NA;
		}
		if (b->set == LATCH_FEC) {
			for (int f = 0; f < FEC_COUNTERS; f++)
				if (strcmp(b->name, fec_counter_name(f)) == 0) {
					st->fec[f].n = 1;	/* the total; no lanes kept */
					st->fec[f].v[0] = b->value;
				}
			continue;
		}
		if (b->set == LATCH_NET) {
			if (strcmp(b->name, "carrier_changes") == 0 && b->value <= INT64_MAX)
				st->carrier_changes = (int64_t)b->value;
			continue;
		}
		cs = b->set == LATCH_PMA ? &st->counters
		     : b->set == LATCH_HW ? &st->hw_counters : &st->eth_stats;
		if (push(cs, b) < 0)
			goto nomem;
	}
	return st;
nomem:
	port_start_free(st);
	*rc = -ENOMEM;
	return NULL;
}

int latch_base_start(struct inventory *inv, const struct latch_state *s, int64_t now)
{
	int n = 0, rc = 0;
	bool boot = false;

	if (!s->taken || !s->n_bases)
		return 0;
	for (size_t i = 0; i < inv->n_nics; i++)
		for (size_t k = 0; k < inv->nics[i].n_ports; k++) {
			struct port *pt = &inv->nics[i].ports[k];
			struct port_start *st;

			if (pt->start)
				continue;
			st = start_of(s->bases, s->n_bases, inv->nics[i].name, pt->num, &rc);
			if (rc < 0)
				return rc;
			if (!st)
				continue;
			pt->start = st;
			n++;
			/* the long window, where it is longer than the short one */
			if (!s->boot_taken || s->boot_taken >= s->taken || pt->start_boot)
				continue;
			pt->start_boot = start_of(s->boot_bases, s->n_boot_bases, inv->nics[i].name,
						  pt->num, &rc);
			if (rc < 0)
				return rc;
			boot |= pt->start_boot != NULL;
		}
	if (n && inv->window_s <= 0) {
		inv->window_s = now - s->taken >= 1 ? (double)(now - s->taken) : 1;
		inv->window_latched = true;
		if (boot)
			inv->window_boot_s = now - s->boot_taken >= 1 ? (double)(now - s->boot_taken)
								       : 1;
	}
	return n;
}
