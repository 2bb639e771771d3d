/* counters.errors, not checked (families.h: check_counter_avail): what
 * the driver's vocabulary (model/driver_counters.h) cannot judge on a NIC.
 * A class counters.errors judges that the driver keeps no counter of is
 * "not available on DRIVER" (hns has no retransmit counter at all): never
 * zero, never a pass.  The hw_counters of a driver no table knows are
 * shown, not judged, and said so with their names.  One info per NIC,
 * marked unchecked (unchecked.c says why not an error). */
#include "families.h"
#include "../model/driver_counters.h"

#include <string.h>

/* The classes counters.errors judges, in the order they are named. */
static const enum ctr_class judged[] = {
	CTR_RETRANSMIT, CTR_SEQ_ERR, CTR_ACK_TIMEOUT, CTR_PHY_ERR,
};

#define N_JUDGED (sizeof(judged) / sizeof(judged[0]))

/* The judged classes the NIC has a judged counter of (echoes and byte
 * counts are not judged, so they make no class available): those of the
 * hw_counters its ports have, where any were read (a table holds every
 * spelling and kernel of its driver: bnxt_re's ICRC counter is only the
 * out-of-tree driver's, irdma's sequence errors only its GEN3's); else
 * those of its driver's table. */
static unsigned available(const struct drv_table *t, const struct nic *n)
{
	unsigned m = 0;
	bool retry, read = false;

	for (size_t p = 0; p < n->n_ports; p++)
		for (size_t i = 0; i < n->ports[p].hw_counters.n; i++) {
			const struct counter *ct = &n->ports[p].hw_counters.v[i];
			const struct drv_counter *r;

			if (!ct->ok || !ct->name)
				continue;
			read = true;
			r = drv_counter_find(n->driver, ct->name);
			if (check_hw_judged(r, &retry))
				m |= CTR_BIT(r->cls);
		}
	if (read)
		return m;
	for (unsigned i = 0; i < t->n; i++)
		if (check_hw_judged(&t->rows[i], &retry))
			m |= CTR_BIT(t->rows[i].cls);
	return m;
}

static struct finding *add(const struct check_ctx *c, struct findings *out, const struct nic *n)
{
	struct finding *f = check_add(c, out, "counters.errors", SEV_INFO,
				      "Error counters a driver does not keep, or keeps under "
				      "names this tool does not know, cannot be judged; what was "
				      "not counted was not found right.");

	if (f) {
		f->unchecked = true;
		finding_set(&f->subject, "%s", n->name);
	}
	return f;
}

static int missing_classes(const struct check_ctx *c, struct findings *out,
			   const struct nic *n, const struct drv_table *t)
{
	unsigned have = available(t, n);
	struct check_buf miss = { 0 };
	size_t k = 0;
	struct finding *f;

	for (size_t i = 0; i < N_JUDGED; i++)
		if (!(have & CTR_BIT(judged[i])))
			check_buf_printf(&miss, "%s%s", k++ ? ", " : "", ctr_class_name(judged[i]));
	if (!k)
		return 0;
	if (!(f = add(c, out, n))) {
		check_buf_free(&miss);
		return -ENOMEM;
	}
	finding_set(&f->observed, "not checked: %s not available on %s (%s keeps no such "
		    "hw_counters)", check_buf_str(&miss), t->name, n->driver);
	check_buf_free(&miss);
	finding_set(&f->expected, "retransmit, seq_err, ack_timeout and phy_err counters to judge");
	finding_set(&f->fix, "judge what the driver does not count another way: the netdev's "
		    "`ethtool -S`, `rdma statistic show link %s`, or a bandwidth test "
		    "(`rdmadoctor bw`)", n->name);
	return 0;
}

/* The NIC's hw_counters read, over its ports; the first few names. */
static size_t hw_read(const struct nic *n, struct check_buf *names)
{
	size_t k = 0;

	for (size_t p = 0; p < n->n_ports; p++)
		for (size_t i = 0; i < n->ports[p].hw_counters.n; i++) {
			const struct counter *ct = &n->ports[p].hw_counters.v[i];

			if (!ct->ok || !ct->name)
				continue;
			if (k < 4)
				check_buf_printf(names, "%s%s", k ? ", " : "", ct->name);
			k++;
		}
	return k;
}

static int unknown_driver(const struct check_ctx *c, struct findings *out, const struct nic *n)
{
	struct check_buf names = { 0 };
	size_t k = hw_read(n, &names);
	struct finding *f;

	if (!k) {
		check_buf_free(&names);
		return 0;
	}
	if (!(f = add(c, out, n))) {
		check_buf_free(&names);
		return -ENOMEM;
	}
	if (n->driver)
		finding_set(&f->observed, "not checked: %zu hw_counters (%s%s) of driver %s, "
			    "which this tool has no table of: shown, not judged", k,
			    check_buf_str(&names), k > 4 ? ", ..." : "", n->driver);
	else
		finding_set(&f->observed, "not checked: %zu hw_counters (%s%s) of a driver "
			    "that could not be named: shown, not judged", k,
			    check_buf_str(&names), k > 4 ? ", ..." : "");
	check_buf_free(&names);
	finding_set(&f->expected, "a driver whose counters this tool knows");
	finding_set(&f->fix, "read them by hand (`rdma statistic show link %s`) and tell "
		    "rdmadoctor's authors what the driver's counters count", n->name);
	return 0;
}

int check_counter_avail(const struct check_ctx *c, struct findings *out)
{
	for (size_t i = 0; i < c->inv->n_nics; i++) {
		const struct nic *n = &c->inv->nics[i];
		const struct drv_table *t = drv_table_of(n->driver);

		if (n->excluded || !n->n_ports)
			continue;
		CHECK_TRY(t ? missing_classes(c, out, n, t) : unknown_driver(c, out, n));
	}
	return 0;
}
