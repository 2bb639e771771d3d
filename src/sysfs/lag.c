#include "lag.h"
#include "fetch.h"
#include "link.h"
#include "module.h"
#include "net.h"
#include "qos.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ask one slave through the readers of a plain port: a port of its own
 * whose netdev is the slave. */
static int read_slave(struct root *r, struct lag_slave *s)
{
	struct port t;
	int rc;

	memset(&t, 0, sizeof(t));
	t.netdev = s->netdev;
	t.link_layer = (char *)"Ethernet";
	rc = net_read_ecn(r, &t);
	if (rc == 0)
		rc = qos_read_dcb(r, &t);
	if (rc == 0)
		rc = module_read_port(r, &t);
	if (rc == 0)
		rc = link_read_port(r, &t);
	s->qos = t.qos;
	s->module = t.module;
	s->link = t.link;
	return rc;
}

/* Sum one priority's pause counters over the slaves with DCB; NA unless
 * every one of them knows it. */
static void sum_pause(const struct port *p, struct qos *m)
{
	for (int prio = 0; prio < 8; prio++) {
		int64_t tx = 0, rx = 0;
		bool any = false;

		for (size_t i = 0; i < p->n_slaves; i++) {
			const struct qos *q = p->slaves[i].qos;

			if (!q || q->dcb_supported != 1)
				continue;
			any = true;
			if (IS_NA(q->pause_tx[prio]) || IS_NA(tx) ||
			    q->pause_tx[prio] > INT64_MAX - tx)
				tx = NA;
			else
				tx += q->pause_tx[prio];
			if (IS_NA(q->pause_rx[prio]) || IS_NA(rx) ||
			    q->pause_rx[prio] > INT64_MAX - rx)
				rx = NA;
			else
				rx += q->pause_rx[prio];
		}
		m->pause_tx[prio] = any ? tx : NA;
		m->pause_rx[prio] = any ? rx : NA;
	}
}

/* A flag per priority that holds only where every slave says so: 0 wins
 * over 1, unknown (-1) over both. */
static void and_flags(int *m, const int *s)
{
	for (int prio = 0; prio < 8; prio++) {
		if (m[prio] < 0 || s[prio] < 0)
			m[prio] = -1;
		else
			m[prio] = m[prio] && s[prio];
	}
}

static int merge(struct root *r, struct port *p, struct qos *m)
{
	const struct lag_slave *first = NULL;

	for (size_t i = 0; i < p->n_slaves; i++) {
		const struct lag_slave *s = &p->slaves[i];
		const struct qos *q = s->qos;

		if (!q)
			continue;
		if (!first) {
			first = s;
			continue;
		}
		if (memcmp(q->pfc_enabled, m->pfc_enabled, sizeof(q->pfc_enabled)) != 0 ||
		    memcmp(q->ecn_np, m->ecn_np, sizeof(q->ecn_np)) != 0 ||
		    memcmp(q->ecn_rp, m->ecn_rp, sizeof(q->ecn_rp)) != 0 ||
		    (q->trust && m->trust && strcmp(q->trust, m->trust) != 0) ||
		    memcmp(q->dscp_to_prio, m->dscp_to_prio, sizeof(q->dscp_to_prio)) != 0)
			root_note(r, p->netdev, "bond slaves %s and %s differ in PFC, ECN, trust or "
				  "the DSCP map: the stricter of the two is judged", first->netdev,
				  s->netdev);
		and_flags(m->pfc_enabled, q->pfc_enabled);
		and_flags(m->ecn_np, q->ecn_np);
		and_flags(m->ecn_rp, q->ecn_rp);
		/* trust DSCP only where every slave trusts it */
		if (m->trust && q->trust && strcmp(q->trust, "dscp") != 0 &&
		    strcmp(m->trust, "dscp") == 0) {
			free(m->trust);
			m->trust = strdup(q->trust);
			if (!m->trust)
				return -ENOMEM;
		}
		if (q->dcb_supported == 1 && m->dcb_supported != 1)
			m->dcb_supported = 1;
	}
	sum_pause(p, m);
	return 0;
}

int lag_read_port(struct root *r, struct port *p)
{
	const char *w;
	int rc = 0;

	if (!p->bond_slaves || p->slaves || !p->link_layer ||
	    strcmp(p->link_layer, "Ethernet") != 0)
		return 0;
	p->slaves = calloc(LAG_MAX_SLAVES, sizeof(*p->slaves));
	if (!p->slaves)
		return -ENOMEM;
	for (w = p->bond_slaves; *w && p->n_slaves < LAG_MAX_SLAVES && rc == 0;) {
		struct lag_slave *s = &p->slaves[p->n_slaves];
		size_t n;

		w += strspn(w, " \t\n");
		n = strcspn(w, " \t\n");
		if (n == 0)
			break;
		s->netdev = strndup(w, n);
		if (!s->netdev)
			return -ENOMEM;
		/* a slave name as bonding/slaves lists it: one path component */
		if (!fetch_name_ok(s->netdev)) {
			root_note(r, p->netdev, "bond slave name unusable: not asked");
			free(s->netdev);
			s->netdev = NULL;
		} else {
			p->n_slaves++;
			rc = read_slave(r, s);
		}
		w += n;
	}
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < p->n_slaves && !p->qos; i++)
		if (p->slaves[i].qos) {
			p->qos = qos_dup(p->slaves[i].qos);
			if (!p->qos)
				return -ENOMEM;
		}
	return p->qos ? merge(r, p, p->qos) : 0;
}

int lag_sample_pause(struct root *r, struct port *p)
{
	for (size_t i = 0; i < p->n_slaves; i++) {
		struct lag_slave *s = &p->slaves[i];
		struct port t;
		int rc;

		if (!s->qos || s->qos->dcb_supported != 1)
			continue;
		for (int prio = 0; prio < 8; prio++)
			s->qos->pause_tx[prio] = s->qos->pause_rx[prio] = NA;
		memset(&t, 0, sizeof(t));
		t.netdev = s->netdev;
		t.link_layer = (char *)"Ethernet";
		t.qos = s->qos;
		rc = qos_read_dcb(r, &t);
		s->qos = t.qos;
		if (rc < 0)
			return rc;
	}
	if (p->qos)
		sum_pause(p, p->qos);
	return 0;
}
