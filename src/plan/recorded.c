#include "recorded.h"
#include "../model/pci_ids.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A copy of a JSON string; NULL when absent or not a string.  *nomem is
 * set when the copy failed. */
static char *str(const json_t *v, bool *nomem)
{
	char *s;

	if (!json_is_string(v))
		return NULL;
	s = strdup(json_string_value(v));
	if (!s)
		*nomem = true;
	return s;
}

static int64_t integer(const json_t *v, int64_t min, int64_t max)
{
	json_int_t i;

	if (!json_is_integer(v))
		return NA;
	i = json_integer_value(v);
	return i < min || i > max ? NA : (int64_t)i;
}

static double real(const json_t *v, double max)
{
	double d;

	if (!json_is_number(v))
		return NAN;
	d = json_number_value(v);
	return isfinite(d) && d >= 0 && d <= max ? d : NAN;
}

/* "10de" */
static int64_t hex(const json_t *v)
{
	const char *s = json_string_value(v);
	char *end;
	long n;

	if (!s || !*s || strlen(s) > 8)
		return NA;
	n = strtol(s, &end, 16);
	return *end || n < 0 ? NA : n;
}

static void link_of(const json_t *o, struct pci_link *l)
{
	l->speed_gts = real(json_object_get(o, "speed_gts"), 1000);
	l->max_speed_gts = real(json_object_get(o, "max_speed_gts"), 1000);
	l->width = integer(json_object_get(o, "width"), 0, 64);
	l->max_width = integer(json_object_get(o, "max_width"), 0, 64);
}

static void func_basics(const json_t *o, struct pci_func *f, bool *nomem)
{
	f->bdf = str(json_object_get(o, "bdf"), nomem);
	f->vendor = hex(json_object_get(o, "vendor"));
	f->device = hex(json_object_get(o, "device"));
	f->subsystem_vendor = f->subsystem_device = f->class_code = NA;
	f->numa_node = integer(json_object_get(o, "numa_node"), -1, 4096);
	f->acs_ctrl = NA;
	pcie_settings_unknown(&f->pcie);
}

/* Bus number of "0000:17:01.0"; -1 when it is not one. */
static int bus_of(const char *bdf)
{
	unsigned dom, bus, dev, fn;

	return sscanf(bdf, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) == 4 ? (int)bus : -1;
}

/* The model keeps the root port first.  Records list the nearest bridge
 * first, those written before that the root port first: bus numbers grow
 * down the tree (a bridge's secondary bus is numbered above its own), so the order
 * a record used shows in them. */
static void root_port_first(struct pci_func *f)
{
	if (f->n_upstream < 2 ||
	    bus_of(f->upstream[0].bdf) <= bus_of(f->upstream[f->n_upstream - 1].bdf))
		return;
	for (size_t i = 0, j = f->n_upstream - 1; i < j; i++, j--) {
		struct pci_func t = f->upstream[i];

		f->upstream[i] = f->upstream[j];
		f->upstream[j] = t;
	}
}

/* A device: its link under "link", its bridges under "upstream" with
 * their links inline. */
static void func_of(const json_t *o, struct pci_func *f, bool *nomem)
{
	const json_t *up = json_object_get(o, "upstream"), *b;
	size_t i;

	func_basics(o, f, nomem);
	link_of(json_object_get(o, "link"), &f->link);
	if (!json_is_array(up) || !json_array_size(up))
		return;
	f->upstream = calloc(json_array_size(up), sizeof(*f->upstream));
	if (!f->upstream) {
		*nomem = true;
		return;
	}
	json_array_foreach(up, i, b) {
		struct pci_func *u = &f->upstream[f->n_upstream];

		if (!json_is_object(b))
			continue;
		func_basics(b, u, nomem);
		link_of(b, &u->link);
		if (u->bdf)
			f->n_upstream++;
		else
			pci_func_free(u);
	}
	root_port_first(f);
}

static void port_of(const json_t *o, struct port *p, bool *nomem)
{
	p->num = (int)(IS_NA(integer(json_object_get(o, "port"), 0, 255)) ? 0 :
		       integer(json_object_get(o, "port"), 0, 255));
	p->link_layer = str(json_object_get(o, "link_layer"), nomem);
	p->state = integer(json_object_get(json_object_get(o, "state"), "code"), 0, 16);
	p->phys_state = integer(json_object_get(json_object_get(o, "phys_state"), "code"), 0, 16);
	p->rate_gbps = real(json_object_get(o, "rate_gbps"), 1e6);
	p->active_mtu = integer(json_object_get(o, "active_mtu"), 0, 65536);
	p->lanes = p->lid = p->sm_lid = p->max_mtu = NA;
	p->netdev_mtu = p->netdev_speed_mbps = p->carrier_changes = NA;
}

static void nic_of(const json_t *o, struct nic *n, bool *nomem)
{
	const json_t *pci = json_object_get(o, "pci"), *ports = json_object_get(o, "ports"), *p;
	size_t i;

	n->name = str(json_object_get(o, "name"), nomem);
	n->driver = str(json_object_get(o, "driver"), nomem);
	n->model = str(json_object_get(o, "model"), nomem);
	n->netdev_parent = str(json_object_get(o, "netdev_parent"), nomem);
	if (json_is_object(pci) && json_is_string(json_object_get(pci, "bdf"))) {
		n->has_pci = true;
		func_of(pci, &n->pci, nomem);
	}
	if (!json_is_array(ports) || !json_array_size(ports))
		return;
	n->ports = calloc(json_array_size(ports), sizeof(*n->ports));
	if (!n->ports) {
		*nomem = true;
		return;
	}
	json_array_foreach(ports, i, p)
		if (json_is_object(p))
			port_of(p, &n->ports[n->n_ports++], nomem);
}

static enum gpu_kind kind_of(const json_t *v)
{
	const char *s = json_string_value(v);

	if (!s)
		return GPU_UNKNOWN;
	return strcmp(s, "datacenter") == 0 ? GPU_DATACENTER :
	       strcmp(s, "workstation") == 0 ? GPU_WORKSTATION :
	       strcmp(s, "geforce") == 0 ? GPU_GEFORCE : GPU_UNKNOWN;
}

int plan_inventory_from_check(const json_t *check, struct inventory *inv)
{
	const json_t *in = json_object_get(check, "inventory"), *v;
	const json_t *gpus, *nics, *mods;
	bool nomem = false;
	size_t i;

	memset(inv, 0, sizeof(*inv));
	if (!json_is_object(in))
		return -EINVAL;
	inv->host.hostname = str(json_object_get(json_object_get(in, "host"), "hostname"), &nomem);
	mods = json_object_get(json_object_get(in, "host"), "modules");
	inv->host.modules_known = json_is_boolean(json_object_get(mods, "nvidia_peermem"));
	inv->host.modules[MOD_NVIDIA_PEERMEM].loaded =
		json_is_true(json_object_get(mods, "nvidia_peermem"));
	inv->host.modules[MOD_NV_PEER_MEM].loaded =
		json_is_true(json_object_get(mods, "nv_peer_mem"));
	gpus = json_object_get(in, "gpus");
	if (json_is_array(gpus) && json_array_size(gpus)) {
		inv->gpus = calloc(json_array_size(gpus), sizeof(*inv->gpus));
		if (!inv->gpus)
			return -ENOMEM;
		json_array_foreach(gpus, i, v) {
			struct gpu *g = &inv->gpus[inv->n_gpus];

			if (!json_is_object(v))
				continue;
			func_of(v, &g->pci, &nomem);
			g->kind = kind_of(json_object_get(v, "kind"));
			g->vendor = IS_NA(g->pci.vendor) ? GPU_VENDOR_NVIDIA :
				    gpu_vendor_of((uint64_t)g->pci.vendor);
			inv->n_gpus++;
		}
	}
	nics = json_object_get(in, "nics");
	if (json_is_array(nics) && json_array_size(nics)) {
		inv->nics = calloc(json_array_size(nics), sizeof(*inv->nics));
		if (!inv->nics)
			return -ENOMEM;
		json_array_foreach(nics, i, v)
			if (json_is_object(v))
				nic_of(v, &inv->nics[inv->n_nics++], &nomem);
	}
	return nomem ? -ENOMEM : 0;
}
