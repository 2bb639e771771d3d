#include "ib.h"
#include "attr.h"
#include "net.h"
#include "parse.h"
#include "pci.h"
#include "module.h"
#include "lag.h"
#include "link.h"
#include "qos.h"
#include "ethtool.h"
#include "fetch.h"
#include "../model/growbuf.h"
#include "../model/pci_ids.h"
#include "../model/port_state.h"
#include "../model/driver_link.h"
#include "fixed_link.h"
#include "../verbs/port_attr.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* PMA data counters count 4-byte words ("divided by 4 (lanes)"). */
static bool is_pma_data_counter(const char *name)
{
	return strcmp(name, "port_xmit_data") == 0 || strcmp(name, "port_rcv_data") == 0;
}

/* The counters/ files that read "N/A (no PMA)" (a driver without the
 * PMA's port counters, or without some of them): how many, the first's
 * name and the driver's words. */
struct na_seen {
	size_t n;
	char first[64];
	char text[48];
};

static int read_counter_dir(struct root *r, const char *dir, struct counter_set *set,
			    bool pma, struct na_seen *na);

/* counters_ext/ (older kernels, mlx4): PortCountersExtended, 64 bits wide.
 * "<name>_64" stands for counters/<name>, whose 32 bits stop at their
 * maximum; "port_unicast_xmit_packets" and the other three unicast and
 * multicast ones are the fields that newer kernels show as
 * counters/unicast_xmit_packets ... (drivers/infiniband/core/sysfs.c:
 * PORT_PMA_ATTR_EXT(unicast_xmit_packets, 64, 320): PortCountersExtended's
 * PortUnicastXmitPkts), and are taken as those: one counter, one name,
 * whichever the kernel wrote (prometheus/procfs sysfs/class_infiniband.go
 * reads both spellings, node_exporter's collector/infiniband_linux.go
 * shows them as legacy_unicast_packets_transmitted_total and
 * unicast_packets_transmitted_total).  Yet where the driver reads the
 * extended counters into counters/ and leaves counters_ext/ at 0 (a
 * published mlx4 capture: port_rcv_packets 6825908347 beside
 * port_rcv_packets_64 0), counters/ is the wider: both count up from the
 * same reset, so the larger value is the one that did not stop, and -v
 * says which was taken when they differ.  Those counters/ lacks (older
 * kernels have no counters/unicast_*) join the set.  0 or -ENOMEM. */
static int merge_ext(struct root *r, const char *dir, struct counter_set *set)
{
	struct counter_set ext = { 0 };
	char *edir;
	size_t cap = set->n;
	int rc;

	if (asprintf(&edir, "%s_ext", dir) < 0)
		return -ENOMEM;
	rc = read_counter_dir(r, edir, &ext, false, NULL);
	for (size_t i = 0; rc == 0 && i < ext.n; i++) {
		struct counter *e = &ext.v[i], *c = NULL, *grown;
		size_t len = strlen(e->name);

		if (len > 3 && strcmp(e->name + len - 3, "_64") == 0)
			e->name[len - 3] = '\0';
		else if (strncmp(e->name, "port_unicast_", 13) == 0 ||
			 strncmp(e->name, "port_multicast_", 15) == 0)
			memmove(e->name, e->name + 5, len - 5 + 1);
		if (e->ok && is_pma_data_counter(e->name)) {
			if (e->value > UINT64_MAX / 4) {
				root_note(r, edir, "'%s_64' too large to count in bytes", e->name);
				e->ok = false;
			}
			e->value *= 4;
		}
		for (size_t k = 0; k < set->n && !c; k++)
			if (strcmp(set->v[k].name, e->name) == 0)
				c = &set->v[k];
		if (c && !e->ok)
			continue;	/* keep the 32-bit one */
		if (c && c->ok && c->value != e->value)
			root_note(r, edir, "'%s': counters/ %llu, counters_ext/ %llu: took %s, the wider",
				  e->name, (unsigned long long)c->value,
				  (unsigned long long)e->value,
				  c->value > e->value ? "counters/" : "counters_ext/");
		if (c && c->ok && c->value >= e->value)
			continue;
		if (c) {
			c->value = e->value;
			c->ok = c->ext = true;
			continue;
		}
		e->ext = true;
		grown = growbuf_reserve(set->v, &cap, set->n + 1, sizeof(*set->v));
		if (!grown) {
			rc = -ENOMEM;
			break;
		}
		set->v = grown;
		set->v[set->n++] = *e;
		e->name = NULL;
	}
	for (size_t i = 0; i < ext.n; i++)
		free(ext.v[i].name);
	free(ext.v);
	free(edir);
	return rc;
}

int ib_read_counter_dir(struct root *r, const char *dir, struct counter_set *set)
{
	return read_counter_dir(r, dir, set, false, NULL);
}

static size_t count_read(const struct counter_set *set)
{
	size_t k = 0;

	for (size_t i = 0; i < set->n; i++)
		k += set->v[i].ok;
	return k;
}

/* Said once for counters/, precisely: which PMA port counters the driver
 * does not give, and what is still read beside them (the other PMA port
 * counters, hw_counters/), never "no counters" for a port whose others
 * are read. */
static void note_no_pma(struct root *r, const char *dir, const struct na_seen *na,
			const struct port *p)
{
	size_t pma = count_read(&p->counters), hw = count_read(&p->hw_counters);
	char still[96];

	if (pma && hw)
		snprintf(still, sizeof(still), "still read: %zu PMA port counter%s, %zu hw_counters",
			 pma, pma == 1 ? "" : "s", hw);
	else if (pma)
		snprintf(still, sizeof(still), "still read: %zu PMA port counter%s, no hw_counters",
			 pma, pma == 1 ? "" : "s");
	else if (hw)
		snprintf(still, sizeof(still), "still read: %zu hw_counters", hw);
	else
		snprintf(still, sizeof(still), "no hw_counters either");
	if (!pma)
		root_note(r, dir, "no PMA port counters: the driver answers \"%s\" for %s%zu in "
			  "counters/; %s", na->text, na->n == 1 ? "the " : "all ", na->n, still);
	else if (na->n == 1)
		root_note(r, dir, "the driver does not give the PMA port counter '%s' (\"%s\"); %s",
			  na->first, na->text, still);
	else
		root_note(r, dir, "the driver does not give %zu PMA port counters ('%s' and %zu "
			  "more: \"%s\"); %s", na->n, na->first, na->n - 1, na->text, still);
}

int ib_read_port_counters(struct root *r, const char *portdir, struct port *p)
{
	struct na_seen na = { 0 };
	char *dir, *hdir;
	int rc;

	if (asprintf(&dir, "%s/counters", portdir) < 0)
		return -ENOMEM;
	if (asprintf(&hdir, "%s/hw_counters", portdir) < 0) {
		free(dir);
		return -ENOMEM;
	}
	rc = read_counter_dir(r, dir, &p->counters, true, &na);
	if (rc == 0)
		rc = merge_ext(r, dir, &p->counters);
	if (rc == 0)
		rc = read_counter_dir(r, hdir, &p->hw_counters, false, NULL);
	/* after both: the note says what is still read */
	if (rc == 0 && na.n)
		note_no_pma(r, dir, &na, p);
	free(hdir);
	free(dir);
	return rc;
}

static int read_counter_dir(struct root *r, const char *dir, struct counter_set *set,
			    bool pma, struct na_seen *na)
{
	char **names;
	size_t n;
	int rc = root_list(r, dir, &names, &n);

	set->v = NULL;
	set->n = 0;
	if (rc < 0)
		return rc == -ENOMEM ? rc : 0;	/* no PMA / no hw counters */
	set->v = calloc(n ? n : 1, sizeof(*set->v));
	if (!set->v) {
		root_free_list(names, n);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		struct counter *c = &set->v[set->n];
		char *text;

		/* lifespan is the cache lifetime in ms, a setting, not a count */
		if (!pma && strcmp(names[i], "lifespan") == 0)
			continue;
		c->name = names[i];
		names[i] = NULL;
		set->n++;
		text = attr_str(r, dir, c->name);
		if (!text) {
			c->refused_before = root_refused_before(r, dir, c->name);
			continue;
		}
		if (strncmp(text, "N/A", 3) == 0) {
			/* "N/A (no PMA)" (drivers/infiniband/core/sysfs.c
			 * show_pma_counter: a driver without the PMA's port
			 * counters, iWARP, some RoCE drivers): counted, said
			 * once for counters/ with what is still read */
			if (na) {
				if (!na->n++) {
					snprintf(na->first, sizeof(na->first), "%.60s", c->name);
					snprintf(na->text, sizeof(na->text), "%.40s", text);
				}
			} else {
				root_note(r, dir, "'%s' not given (\"%.40s\")", c->name, text);
			}
		} else if (parse_u64(text, &c->value) < 0) {
			root_note(r, dir, "malformed '%s': \"%.40s\" (expected a count)",
				  c->name, text);
		} else {
			c->ok = true;
			if (pma && is_pma_data_counter(c->name)) {
				if (c->value > UINT64_MAX / 4) {
					root_note(r, dir, "'%s' too large to count in bytes", c->name);
					c->ok = false;
				}
				c->value *= 4;
			}
		}
		free(text);
	}
	root_free_list(names, n);
	return 0;
}

static int read_gids(struct root *r, const char *portdir, struct port *p)
{
	bool ib = p->link_layer && strcmp(p->link_layer, "InfiniBand") == 0;
	char *gdir, **names;
	size_t n;
	int rc;

	if (asprintf(&gdir, "%s/gids", portdir) < 0)
		return -ENOMEM;
	rc = root_list(r, gdir, &names, &n);
	if (rc < 0) {
		free(gdir);
		return rc == -ENOMEM ? rc : 0;
	}
	p->gids = calloc(n ? n : 1, sizeof(*p->gids));
	if (!p->gids)
		rc = -ENOMEM;
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct gid *g = &p->gids[p->n_gids];
		int64_t index;
		char *text, *attrs;

		/* the kernel names them 0, 1, ... 255: "03" is not one of them */
		if (parse_s64(names[i], &index) < 0 || index < 0 || index > 65535 ||
		    (names[i][0] == '0' && names[i][1]))
			continue;
		text = attr_str(r, gdir, names[i]);
		if (!text)
			continue;
		if (parse_gid(text, g->raw) < 0) {
			root_note(r, gdir, "malformed '%s': \"%.40s\" (expected a GID)",
				  names[i], text);
			free(text);
			continue;
		}
		/* Unused entries: their gid_attrs fail with EINVAL anyway,
		 * and show_gids and hwloc skip them too. */
		if (gid_is_unused(g->raw)) {
			free(text);
			continue;
		}
		g->index = (int)index;
		g->text = text;
		gid_ipv4(g->raw, g->ipv4);
		p->n_gids++;	/* counted now, so that it is freed on any path */
		if (asprintf(&attrs, "%s/gid_attrs", portdir) < 0) {
			rc = -ENOMEM;
			break;
		}
		{
			char *tdir, *ndir;

			if (asprintf(&tdir, "%s/types", attrs) >= 0) {
				g->type = attr_str(r, tdir, names[i]);
				free(tdir);
			}
			/* an InfiniBand port's GIDs have no netdev: the kernel
			 * answers ndevs/N with EINVAL by design, which is no
			 * error to note (-v said "cannot read" on every IB port) */
			if (!ib && asprintf(&ndir, "%s/ndevs", attrs) >= 0) {
				g->netdev = attr_str(r, ndir, names[i]);
				free(ndir);
			}
		}
		free(attrs);
	}
	root_free_list(names, n);
	free(gdir);
	return rc;
}

static void read_rate(struct root *r, const char *portdir, struct port *p)
{
	char *text = attr_str(r, portdir, "rate");
	struct ib_rate rate;

	p->rate_gbps = NAN;
	p->lanes = NA;
	if (!text)
		return;
	if (parse_ib_rate(text, &rate) < 0) {
		root_note(r, portdir, "malformed 'rate': \"%.40s\" (expected like \"400 Gb/sec (4X NDR)\")",
			  text);
	} else {
		p->rate_gbps = rate.gbps;
		p->lanes = rate.lanes;
		if (rate.speed[0])
			p->rate_speed = strdup(rate.speed);
	}
	free(text);
}

/* One of the two state files; what could not be read is said in
 * p->state_why (the first reason kept), since a rail whose state is
 * unknown is "not checked", never taken for up or down. */
static void read_state(struct root *r, const char *portdir, const char *file,
		       int64_t *code, char **name, char **why)
{
	char *reason = NULL, *text = attr_str_why(r, portdir, file, &reason);
	const char *n;
	int c;

	*code = NA;
	if (text && parse_code_name(text, &c, &n) < 0) {
		root_note(r, portdir, "malformed '%s': \"%.40s\" (expected like \"4: ACTIVE\")",
			  file, text);
		if (asprintf(&reason, "malformed '%s': \"%.40s\"", file, text) < 0)
			reason = NULL;
	} else if (text) {
		*code = c;
		*name = strdup(n);
	}
	free(text);
	if (reason && !*why)
		*why = reason;
	else
		free(reason);
}

/* The verbs session, opened at the first live port query: replay never
 * opens one. */
struct verbs_lazy {
	struct verbs_session *s;
	bool tried;
};

/* One port's verbs attributes, queried once for both values. */
struct verbs_asker {
	struct verbs_lazy *vs;
	const char *dev;
	int port;
	const char *which;	/* "active_mtu" or "max_mtu" */
	bool asked;
	int rc;
	struct verbs_port vp;
};

static int fetch_verbs(void *arg, void **data, size_t *len)
{
	struct verbs_asker *a = arg;
	int64_t v;
	char *text;

	if (!a->vs->tried) {
		a->vs->s = verbs_open();
		a->vs->tried = true;
	}
	if (!a->asked) {
		a->rc = a->vs->s ? verbs_query_port(a->vs->s, a->dev, a->port, &a->vp) : -ENODEV;
		a->asked = true;
	}
	if (a->rc < 0)
		return a->rc;
	v = strcmp(a->which, "active_mtu") == 0 ? a->vp.active_mtu : a->vp.max_mtu;
	if (IS_NA(v))
		return -ENODATA;
	if (asprintf(&text, "%lld\n", (long long)v) < 0)
		return -ENOMEM;
	*data = text;
	*len = strlen(text);
	return 0;
}

/* One value: fetched as .rdmadoctor/verbs/<dev>/<port>/<which>, a decimal
 * number and a newline.  NA when not known; -ENOMEM. */
static int verbs_value(struct root *r, struct verbs_asker *a, const char *which, int64_t *out)
{
	char *key, *text;
	void *buf = NULL;
	size_t len;
	int rc;

	*out = NA;
	a->which = which;
	if (asprintf(&key, "%s/%d/%s", a->dev, a->port, which) < 0)
		return -ENOMEM;
	rc = root_fetch(r, VERBS_FETCH_KIND, key, 32, fetch_verbs, a, &buf, &len);
	free(key);
	text = buf;
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0) {
		/* once per port: the same failure answers both values */
		if (rc != -ENODATA && fetch_failure_noted(r, rc) && strcmp(which, "active_mtu") == 0)
			root_note(r, a->dev, "cannot query port %d through verbs: %s", a->port,
				  strerror(-rc));
		return 0;
	}
	text[strcspn(text, "\n")] = '\0';
	if (parse_s64(text, out) < 0 || *out == NA) {
		root_note(r, a->dev, "malformed verbs %s of port %d: \"%.40s\"", which, a->port,
			  text);
		*out = NA;
	}
	free(text);
	return 0;
}

static int read_verbs(struct root *r, struct verbs_lazy *vs, const char *dev, struct port *p)
{
	struct verbs_asker a = { .vs = vs, .dev = dev, .port = p->num };
	int rc;

	p->active_mtu = p->max_mtu = NA;
	rc = verbs_value(r, &a, "active_mtu", &p->active_mtu);

	if (rc == 0)
		rc = verbs_value(r, &a, "max_mtu", &p->max_mtu);
	return rc;
}

static int read_port(struct root *r, struct verbs_lazy *vs, const struct nic *nic,
		     const char *devdir, const char *pci_dir, struct port *p)
{
	char *portdir;
	bool lag;
	int rc;

	if (asprintf(&portdir, "%s/ports/%d", devdir, p->num) < 0)
		return -ENOMEM;
	p->link_layer = attr_str(r, portdir, "link_layer");
	read_state(r, portdir, "state", &p->state, &p->state_name, &p->state_why);
	read_state(r, portdir, "phys_state", &p->phys_state, &p->phys_state_name,
		   &p->state_why);
	read_rate(r, portdir, p);
	/* mlx5 prints a made-up "40 Gb/sec (4X QDR)" for a RoCE port whose
	 * link is down: not a rate (nor is it one where the state is unknown). */
	if (p->link_layer && strcmp(p->link_layer, "Ethernet") == 0 &&
	    !port_is_up(p) && !isnan(p->rate_gbps)) {
		root_note(r, portdir, port_link(p) == PORT_LINK_DOWN ?
			  "rate of a RoCE port that is not up is a placeholder: ignored" :
			  "rate of a RoCE port whose state is unknown may be a placeholder: "
			  "ignored");
		p->rate_gbps = NAN;
		p->lanes = NA;
		free(p->rate_speed);
		p->rate_speed = NULL;
	}
	p->lid = attr_hex(r, portdir, "lid");
	p->sm_lid = attr_hex(r, portdir, "sm_lid");
	rc = read_gids(r, portdir, p);
	/* a driver whose port state is a constant (efa): the link is its
	 * interface's, or unknown */
	if (rc == 0 && drv_link_of(nic->driver))
		rc = fixed_link_read(r, drv_link_of(nic->driver), pci_dir, portdir, p);

	/* The port's netdev: RoCE names it in the GID table (for a LAG the
	 * bond master); IPoIB sits on the PCI function with dev_port, and so
	 * does a RoCE port's own netdev where the GID table could not be read
	 * (then a LAG's slave is found, not its master: the slave's settings
	 * are judged, which is still what the port runs with). */
	for (size_t i = 0; rc == 0 && i < p->n_gids && !p->netdev; i++)
		if (p->gids[i].netdev)
			p->netdev = strdup(p->gids[i].netdev);
	if (rc == 0 && !p->netdev && pci_dir && p->link_layer &&
	    (strcmp(p->link_layer, "InfiniBand") == 0 || strcmp(p->link_layer, "Ethernet") == 0))
		p->netdev = net_find_port_netdev(r, pci_dir, p->num,
						 strcmp(p->link_layer, "InfiniBand") == 0);
	net_read_port_netdev(r, p);
	/* RoCE LAG: ECN, DCB and the transceiver are the slaves' */
	lag = p->bond_slaves && p->link_layer && strcmp(p->link_layer, "Ethernet") == 0;
	if (rc == 0 && lag)
		rc = lag_read_port(r, p);
	if (rc == 0 && !lag)
		rc = net_read_ecn(r, p);
	if (rc == 0 && !lag)
		rc = qos_read_dcb(r, p);
	if (rc == 0)
		rc = ethtool_read_port_stats(r, p);
	if (rc == 0 && !lag)
		rc = module_read_port(r, p);
	if (rc == 0)
		rc = link_read_port(r, p);
	if (rc == 0)
		rc = read_verbs(r, vs, nic->name, p);

	if (rc == 0)
		rc = ib_read_port_counters(r, portdir, p);
	free(portdir);
	return rc;
}

static int read_ports(struct root *r, struct verbs_lazy *vs, struct nic *nic,
		      const char *devdir, const char *pci_dir)
{
	char *pdir, **names;
	size_t n;
	int rc;

	if (asprintf(&pdir, "%s/ports", devdir) < 0)
		return -ENOMEM;
	rc = root_list(r, pdir, &names, &n);
	free(pdir);
	if (rc < 0)
		return rc == -ENOMEM ? rc : 0;
	nic->ports = calloc(n ? n : 1, sizeof(*nic->ports));
	if (!nic->ports)
		rc = -ENOMEM;
	for (size_t i = 0; i < n && rc == 0; i++) {
		int64_t num;

		if (parse_s64(names[i], &num) < 0 || num < 1 || num > 255)
			continue;
		nic->ports[nic->n_ports].num = (int)num;
		rc = read_port(r, vs, nic, devdir, pci_dir, &nic->ports[nic->n_ports]);
		nic->n_ports++;
	}
	root_free_list(names, n);
	return rc;
}

/* Software devices (rxe, siw) have no PCI parent: they sit on a netdev,
 * and take the PCI function that netdev sits on. */
static char *software_pci_dir(struct root *r, struct nic *nic, const char *devdir)
{
	char *link, *canon, *pci_dir = NULL;

	nic->netdev_parent = attr_str(r, devdir, "parent");
	if (!nic->netdev_parent)
		return NULL;
	if (asprintf(&link, "sys/class/net/%s/device", nic->netdev_parent) < 0)
		return NULL;
	if (root_exists(r, link) && root_resolve(r, link, &canon) == 0) {
		pci_dir = pci_function_dir(canon);
		free(canon);
	}
	free(link);
	return pci_dir;
}

static const char *software_model(const char *name)
{
	if (strncmp(name, "rxe", 3) == 0)
		return "Soft-RoCE";
	if (strncmp(name, "siw", 3) == 0)
		return "Soft-iWARP";
	return NULL;
}

/* node_guid, sys_image_guid: "9803:9b03:00a3:c3a6" (kernel %04x groups),
 * kept as written once it is one, so printers may rewrite it as ibstat's
 * 0x98039b0300a3c3a6. */
static char *read_guid(struct root *r, const char *devdir, const char *name)
{
	char *text = attr_str(r, devdir, name);
	uint64_t v;

	if (text && parse_guid(text, &v) < 0) {
		root_note(r, devdir, "malformed '%s': \"%.40s\" (expected like "
			  "\"9803:9b03:00a3:c3a6\")", name, text);
		free(text);
		return NULL;
	}
	return text;
}

/* The site file's exclude =: a device it matches by name or PCI address
 * is left at both (the device link is resolved, no file is read), and -v
 * says so.  0: excluded, read; 1: not excluded, read on; -ENOMEM. */
static int read_excluded(struct root *r, struct nic *nic, const char *devdir)
{
	const struct exclude_rule *rule;
	char *link, *canon, *pci_dir = NULL;
	int rc = 0;

	if (asprintf(&link, "%s/device", devdir) < 0)
		return -ENOMEM;
	if (root_exists(r, link) && root_resolve(r, link, &canon) == 0) {
		pci_dir = pci_function_dir(canon);
		free(canon);
	}
	free(link);
	{
		const char *slash = pci_dir ? strrchr(pci_dir, '/') : NULL;

		rule = exclude_match(&r->exclude, nic->name, slash ? slash + 1 : pci_dir);
	}
	if (!rule) {
		free(pci_dir);
		return 1;
	}
	nic->excluded = true;
	nic->exclude_line = rule->line;
	nic->exclude_pattern = strdup(rule->pattern);
	if (!nic->exclude_pattern)
		rc = -ENOMEM;
	if (rc == 0 && pci_dir) {
		rc = pci_func_identity(r, pci_dir, &nic->pci);
		nic->has_pci = true;
	}
	if (rc == 0)
		root_note(r, devdir, "excluded by the site file (line %d, '%s'): not read beyond "
			  "its name and PCI address", rule->line, rule->pattern);
	free(pci_dir);
	return rc;
}

static int read_nic(struct root *r, struct verbs_lazy *vs, const char *name,
		    struct nic *nic)
{
	char *link, *devdir, *pci_dir = NULL;
	int rc;

	nic->name = strdup(name);
	if (!nic->name || asprintf(&link, "sys/class/infiniband/%s", name) < 0)
		return -ENOMEM;
	rc = root_resolve(r, link, &devdir);
	free(link);
	if (rc < 0)
		return rc;
	if (!root_is_dir(r, devdir)) {
		free(devdir);
		return -ENOENT;	/* a dangling link, or one out of the root */
	}
	if (r->exclude.n) {
		rc = read_excluded(r, nic, devdir);
		if (rc != 1) {
			free(devdir);
			return rc;
		}
		rc = 0;
	}
	nic->fw_ver = attr_str(r, devdir, "fw_ver");
	nic->hca_type = attr_str(r, devdir, "hca_type");
	nic->board_id = attr_str(r, devdir, "board_id");
	nic->node_guid = read_guid(r, devdir, "node_guid");
	nic->sys_image_guid = read_guid(r, devdir, "sys_image_guid");
	nic->node_desc = attr_str(r, devdir, "node_desc");
	if (nic->fw_ver && !*nic->fw_ver) {
		free(nic->fw_ver);	/* drivers without firmware print "" */
		nic->fw_ver = NULL;
	}

	if (asprintf(&link, "%s/device", devdir) < 0) {
		free(devdir);
		return -ENOMEM;
	}
	if (root_exists(r, link)) {
		char *canon;

		if (root_resolve(r, link, &canon) == 0) {
			/* mlx5 sub-functions hang below an auxiliary device */
			pci_dir = pci_function_dir(canon);
			free(canon);
		}
	} else {
		pci_dir = software_pci_dir(r, nic, devdir);
	}
	free(link);

	if (pci_dir) {
		rc = pci_read_func(r, pci_dir, &nic->pci, true);
		nic->has_pci = true;
	}
	if (nic->netdev_parent) {
		const char *m = software_model(name);

		nic->driver = strdup(strncmp(name, "siw", 3) == 0 ? "siw" : "rdma_rxe");
		nic->model = m ? strdup(m) : NULL;
	} else if (nic->has_pci) {
		const char *m = IS_NA(nic->pci.vendor) || IS_NA(nic->pci.device) ? NULL :
			nic_model_name((uint64_t)nic->pci.vendor, (uint64_t)nic->pci.device);

		nic->driver = nic->pci.driver ? strdup(nic->pci.driver) : NULL;
		nic->model = m ? strdup(m) : NULL;
	}
	if (rc == 0)
		rc = read_ports(r, vs, nic, devdir, pci_dir);
	free(pci_dir);
	free(devdir);
	return rc;
}

/* What stat and access say of /dev/infiniband/<uverbs>, as one word and a
 * newline. */
struct uverbs_asker {
	struct root *r;
	const char *path;
};

static int fetch_uverbs_dev(void *arg, void **data, size_t *len)
{
	struct uverbs_asker *a = arg;
	int rc = root_access(a->r, a->path, true, R_OK | W_OK);
	const char *word;
	char *text;

	if (rc == 0)
		word = UVERBS_DEV_OK;
	else if (rc == -ENOENT || rc == -ENODEV)
		word = UVERBS_DEV_MISSING;	/* libibverbs skips the device */
	else if (rc == -EACCES || rc == -EPERM)
		word = UVERBS_DEV_NO_ACCESS;
	else
		return rc;
	if (asprintf(&text, "%s\n", word) < 0)
		return -ENOMEM;
	*data = text;
	*len = strlen(text);
	return 0;
}

/* /dev/infiniband/<uverbs> through root_fetch, as
 * .rdmadoctor/dev/infiniband/<uverbs>.  NULL when not known. */
static char *uverbs_dev_state(struct root *r, const char *uverbs)
{
	static const char *const words[] = {
		UVERBS_DEV_OK, UVERBS_DEV_MISSING, UVERBS_DEV_NO_ACCESS,
	};
	char *path = NULL, *text;
	struct uverbs_asker a = { r, NULL };
	const char *word = NULL;
	void *buf = NULL;
	size_t len;
	int rc;

	if (asprintf(&path, "dev/infiniband/%s", uverbs) < 0)
		return NULL;
	a.path = path;
	rc = root_fetch(r, UVERBS_DEV_FETCH_KIND, path + strlen("dev/"), 64, fetch_uverbs_dev, &a,
			&buf, &len);
	if (fetch_failure_noted(r, rc))
		root_note(r, path, "cannot check: %s", strerror(-rc));
	free(path);
	if (rc < 0)
		return NULL;
	text = buf;
	text[strcspn(text, "\n")] = '\0';
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(text, words[i]) == 0)
			word = words[i];
	if (!word)
		root_note(r, FETCH_DIR "/" UVERBS_DEV_FETCH_KIND "/infiniband", "malformed '%s': "
			  "\"%.40s\" (expected \"ok\", \"missing\" or \"no access\")", uverbs, text);
	free(text);
	return word ? strdup(word) : NULL;
}

/* uverbsN numbering is independent of device names: map each entry of
 * /sys/class/infiniband_verbs to its device through its ibdev file. */
static int read_uverbs(struct root *r, struct nic *nics, size_t n)
{
	static const char class[] = "sys/class/infiniband_verbs";
	char **names;
	size_t count;
	int rc;

	if (!n)
		return 0;
	rc = root_list(r, class, &names, &count);
	if (rc < 0)
		return rc == -ENOMEM ? rc : 0;
	for (size_t i = 0; i < count && rc == 0; i++) {
		char dir[PATH_MAX], *ibdev;

		/* abi_version sits beside the uverbsN entries */
		if (strncmp(names[i], "uverbs", 6) != 0)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", class, names[i]);
		ibdev = attr_str(r, dir, "ibdev");
		if (!ibdev)
			continue;
		for (size_t k = 0; k < n; k++) {
			struct nic *nic = &nics[k];

			if (nic->uverbs || strcmp(nic->name, ibdev) != 0)
				continue;
			if (nic->excluded)
				break;	/* not even its /dev/infiniband node */
			nic->uverbs = strdup(names[i]);
			if (!nic->uverbs) {
				rc = -ENOMEM;
				break;
			}
			nic->uverbs_dev = uverbs_dev_state(r, nic->uverbs);
			break;
		}
		free(ibdev);
	}
	root_free_list(names, count);
	return rc;
}

int ib_read_nics(struct root *r, struct nic **nics, size_t *n)
{
	struct verbs_lazy vs = { 0 };
	char **names;
	size_t count;
	int rc;

	*nics = NULL;
	*n = 0;
	rc = root_list(r, "sys/class/infiniband", &names, &count);
	if (rc < 0)
		return rc == -ENOENT ? 0 : rc;
	*nics = calloc(count ? count : 1, sizeof(**nics));
	if (!*nics)
		rc = -ENOMEM;
	for (size_t i = 0; i < count && rc == 0; i++) {
		struct nic *nic = &(*nics)[*n];

		rc = read_nic(r, &vs, names[i], nic);
		if (rc == -ENOMEM) {
			nic_free(nic);
			break;
		}
		if (rc < 0) {
			/* a link loop or a vanished device: skip it, say why */
			root_note(r, "sys/class/infiniband", "skipped '%s': %s", names[i],
				  strerror(-rc));
			nic_free(nic);
			memset(nic, 0, sizeof(*nic));
			rc = 0;
			continue;
		}
		(*n)++;
	}
	verbs_close(vs.s);
	root_free_list(names, count);
	if (rc == 0)
		rc = read_uverbs(r, *nics, *n);
	return rc;
}
