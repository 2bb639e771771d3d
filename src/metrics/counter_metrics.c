/* Port counters as Prometheus counters: one family per counter name, the
 * series of every port in it (the format wants a family's lines together,
 * and ports of different drivers have different hw_counters).
 *
 *   counters/port_<x>   rdmadoctor_port_<x>_total     (the IB PMA counters;
 *   counters/<x>        rdmadoctor_port_<x>_total      the two data ones in
 *                                   bytes: rdmadoctor_port_xmit_data_bytes_total)
 *   counters_ext/port_<x>[_64]  rdmadoctor_port_<x>_total (the 64-bit
 *                                   PortCountersExtended of older kernels, in
 *                                   the same family as counters/port_<x>; the
 *                                   reader took the wider, its HELP says so;
 *                                   counters_ext/port_unicast_xmit_packets is
 *                                   counters/unicast_xmit_packets' field, the
 *                                   reader names it so: one family)
 *
 * Every series node_exporter's infiniband collector gives has its
 * counterpart here (prometheus/node_exporter collector/infiniband_linux.go,
 * read through prometheus/procfs sysfs/class_infiniband.go): its legacy_*
 * ones (counters_ext/) and the counters/ ones of the same field are one
 * family, of the wider value (tests/metrics/test_serve_node_exporter.py).
 *   hw_counters/<x>     rdmadoctor_hw_<x>_total{...,class} (class: what it
 *                                   counts, model/driver_counters.h)
 *   ethtool -S <x>      rdmadoctor_ethtool_<x>_total (the netdev's; not the
 *                                   per-queue ones, hundreds on a ConnectX)
 *   carrier_changes     rdmadoctor_netdev_carrier_changes_total
 *
 * (promtool will not have "counter" in a counter's name.)
 *
 * A counter the kernel would not give is left out, never 0. */
#include "families.h"

#include "../model/driver_counters.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum set_kind { PMA, HW, ETH };

static const struct counter_set *set_of(const struct port *p, enum set_kind k)
{
	return k == PMA ? &p->counters : k == HW ? &p->hw_counters : &p->eth_stats;
}

static const char *const prefix[] = { "port", "hw", "ethtool" };
static const char *const help_what[] = { "Port counter", "Hardware counter",
					  "Network interface statistic" };
static const char *const help_where[] = { "sysfs counters/", "sysfs hw_counters/",
					  "ethtool -S " };

/* A statistic of one queue or channel ("rx12_packets", "ch3_events",
 * "tx_queue_5_bytes"): a NIC has hundreds, and the port totals say what
 * monitoring needs. */
static bool per_queue(const char *name)
{
	const char *p = name;

	if (strncmp(p, "rx", 2) == 0 || strncmp(p, "tx", 2) == 0 || strncmp(p, "ch", 2) == 0) {
		p += 2;
		if (*p >= '0' && *p <= '9') {
			while (*p >= '0' && *p <= '9')
				p++;
			if (*p == '_')
				return true;
		}
	}
	for (p = strstr(name, "_queue_"); p; p = strstr(p + 1, "_queue_"))
		if (p[7] >= '0' && p[7] <= '9')
			return true;
	return false;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A counter name that may make a metric name as it is: 128 bytes at most
 * and no colon (Prometheus keeps those for recording rules).  The metric
 * name it makes must then pass expo_metric_name_ok (counter_families).
 * Names that do not are left out rather than mangled into a name that
 * could mean another counter. */
static bool name_ok(const char *name)
{
	size_t len = strlen(name);

	return len > 0 && len <= 128 && !strchr(name, ':');
}

/* Every counter name under any port, sorted, each once; *n 0 when none. */
static int distinct_names(const struct inventory *inv, enum set_kind k, const char ***out,
			  size_t *n)
{
	size_t total = 0, kept = 0;
	const char **names;

	for (size_t i = 0; i < inv->n_nics; i++)
		for (size_t j = 0; j < inv->nics[i].n_ports; j++)
			total += set_of(&inv->nics[i].ports[j], k)->n;
	*out = NULL;
	*n = 0;
	if (!total)
		return 0;
	names = calloc(total, sizeof(*names));
	if (!names)
		return -ENOMEM;
	for (size_t i = 0; i < inv->n_nics; i++)
		for (size_t j = 0; j < inv->nics[i].n_ports; j++) {
			const struct counter_set *s = set_of(&inv->nics[i].ports[j], k);

			for (size_t c = 0; c < s->n; c++)
				if (s->v[c].name && name_ok(s->v[c].name) &&
				    !(k == ETH && per_queue(s->v[c].name)))
					names[kept++] = s->v[c].name;
		}
	if (kept)
		qsort(names, kept, sizeof(*names), cmp_names);
	for (size_t i = 0; i < kept; i++)
		if (*n == 0 || strcmp(names[*n - 1], names[i]) != 0)
			names[(*n)++] = names[i];
	*out = names;
	return 0;
}

/* port_xmit_data and port_rcv_data: the reader made them bytes. */
static bool is_data(enum set_kind k, const char *name)
{
	return k == PMA && (strcmp(name, "port_xmit_data") == 0 ||
			    strcmp(name, "port_rcv_data") == 0);
}

/* The metric of a counter; false when its name does not fit. */
static bool metric_name(enum set_kind k, const char *name, char *out, size_t cap)
{
	const char *base = name;
	int len;

	if (k == PMA && strncmp(name, "port_", 5) == 0 && name[5])
		base = name + 5;
	len = snprintf(out, cap, "rdmadoctor_%s_%s%s_total", prefix[k], base,
		       is_data(k, name) ? "_bytes" : "");
	return len > 0 && (size_t)len < cap;
}

struct family_name {
	const char *counter;
	char metric[200];
};

static int cmp_metrics(const void *a, const void *b)
{
	return strcmp(((const struct family_name *)a)->metric,
		      ((const struct family_name *)b)->metric);
}

static const struct counter *find(const struct counter_set *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].name && strcmp(s->v[i].name, name) == 0)
			return &s->v[i];
	return NULL;
}

/* Where the family's values were read, for its HELP: "sysfs counters/X",
 * or counters_ext/ where some port's value came from there (its 64-bit
 * counters, which the reader took where wider). */
static void help_source(char *buf, size_t len, const struct inventory *inv, enum set_kind k,
			const char *name)
{
	bool dir = false, ext = false;

	for (size_t i = 0; i < inv->n_nics; i++)
		for (size_t j = 0; j < inv->nics[i].n_ports; j++) {
			const struct counter *c = find(set_of(&inv->nics[i].ports[j], k), name);

			if (c && c->ok)
				*(c->ext ? &ext : &dir) = true;
		}
	if (ext && !dir)
		snprintf(buf, len, "sysfs counters_ext/, 64 bits");
	else
		snprintf(buf, len, "%s%s%s", help_where[k], name,
			 ext ? ", or counters_ext/ where that is wider" : "");
}

/* A hw_counter's class in its NIC's driver's vocabulary, the one check
 * judges it by and watch --json gives (model/driver_counters.h); "none"
 * for a counter of no class or of a driver no table knows.  A label, not
 * a series of its own: it is a function of the driver and the counter, so
 * it adds no series, and one query sums a class over every driver
 * (sum by (class) (rate({__name__=~"rdmadoctor_hw_.+_total"}[5m]))). */
static struct expo_label class_label(const struct nic *n, const char *name)
{
	return (struct expo_label){ "class", ctr_class_name(counter_class(n->driver, name)) };
}

static void one_family(struct expo *e, const struct inventory *inv, enum set_kind k,
		       const char *name, const char *metric)
{
	char help[400], source[250];
	struct expo_fam f = { metric, "counter", help, false };

	help_source(source, sizeof(source), inv, k, name);
	snprintf(help, sizeof(help), "%s %s of the port (%s)%s", help_what[k], name, source,
		 is_data(k, name) ? ", bytes" : "");
	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		for (size_t j = 0; j < n->n_ports; j++) {
			const struct counter *c = find(set_of(&n->ports[j], k), name);
			struct port_labels pl;

			if (!c || !c->ok)
				continue;
			port_labels_init(&pl, n, &n->ports[j]);
			if (k == HW)	/* the one label more: see class_label */
				pl.l[PORT_LABELS] = class_label(n, name);
			expo_fam_sample_u64(e, &f, pl.l, PORT_LABELS + (k == HW), c->value);
		}
	}
}

/* One family per metric name; two counters that would share one (only a
 * made-up tree has both "port_x" and "x") are both left out, rather than
 * one family written twice or one counter passed off as the other. */
static int counter_families(struct expo *e, const struct inventory *inv, enum set_kind k)
{
	struct family_name *fams;
	const char **names;
	size_t n, m = 0;
	int rc = distinct_names(inv, k, &names, &n);

	if (rc < 0 || n == 0) {
		free(names);
		return rc;
	}
	fams = calloc(n, sizeof(*fams));
	if (!fams) {
		free(names);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		if (metric_name(k, names[i], fams[m].metric, sizeof(fams[m].metric)) &&
		    expo_metric_name_ok(fams[m].metric))
			fams[m++].counter = names[i];
	qsort(fams, m, sizeof(*fams), cmp_metrics);
	for (size_t i = 0; i < m; i++) {
		bool twin = (i > 0 && strcmp(fams[i - 1].metric, fams[i].metric) == 0) ||
			    (i + 1 < m && strcmp(fams[i + 1].metric, fams[i].metric) == 0);

		if (!twin)
			one_family(e, inv, k, fams[i].counter, fams[i].metric);
	}
	free(fams);
	free(names);
	return 0;
}

static void carrier_changes(struct expo *e, const struct inventory *inv)
{
	struct expo_fam f = { "rdmadoctor_netdev_carrier_changes_total", "counter",
			      "Times the port's network interface lost or gained carrier "
			      "(link flaps count two)", false };

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		for (size_t j = 0; j < n->n_ports; j++) {
			const struct port *p = &n->ports[j];
			struct port_labels pl;

			if (!p->netdev || IS_NA(p->carrier_changes) || p->carrier_changes < 0)
				continue;
			port_labels_init(&pl, n, p);
			expo_fam_sample_u64(e, &f, pl.l, PORT_LABELS,
					    (uint64_t)p->carrier_changes);
		}
	}
}

int metrics_counters(struct expo *e, const struct inventory *inv)
{
	int rc = counter_families(e, inv, PMA);

	if (rc == 0)
		rc = counter_families(e, inv, HW);
	if (rc == 0)
		rc = counter_families(e, inv, ETH);
	if (rc == 0)
		carrier_changes(e, inv);
	return rc;
}
