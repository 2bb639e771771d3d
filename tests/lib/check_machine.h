/* Small machines built in C the way the readers fill them, and looking at
 * the findings check_run gives on them: what every tests/check/test_check_*.c
 * shares (one cmocka program per check family, src/check/<family>.c).
 * Each check id fires on the shape it is about, with the subject and
 * observed text an engineer reads, and a healthy machine gives no finding
 * at all. */
#ifndef RD_TESTS_CHECK_MACHINE_H
#define RD_TESTS_CHECK_MACHINE_H
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check/run.h"
#include "model/affinity.h"
#include "sysfs/parse.h"
#include "sysfs/access_parse.h"
#include "profiles/site.h"

#define S(x) ((char *)(x))
#define MAXDEV 16

/* ---- building machines the way the readers fill them ------------------ */

static inline void set_link(struct pci_link *l, double gts, int64_t width)
{
	l->speed_gts = l->max_speed_gts = gts;
	l->width = l->max_width = width;
}

static inline void func_init(struct pci_func *f, const char *dir)
{
	const char *base = strrchr(dir, '/');

	memset(f, 0, sizeof(*f));
	f->bdf = strdup(base + 1);
	f->sysfs_path = strdup(dir);
	f->vendor = f->device = f->subsystem_vendor = f->subsystem_device = NA;
	f->class_code = NA;
	f->numa_node = 0;
	f->acs_ctrl = 0;
	f->config_full = true;
	f->acs_known = true;
	set_link(&f->link, 16, 16);	/* Gen4 x16 */
}

/* A function and the bridges above it, from its canonical sysfs path. */
static inline void mkfunc(struct pci_func *f, const char *path, int numa)
{
	char *copy = strdup(path), *save = NULL;
	char *comps[16];
	size_t n = 0;

	for (char *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save))
		if (is_bdf(c) && n < 16)
			comps[n++] = c;
	func_init(f, path);
	f->numa_node = numa;
	f->upstream = calloc(n ? n : 1, sizeof(*f->upstream));
	for (size_t i = 0; i + 1 < n; i++) {
		/* the bridge's directory: path up to its own component */
		const char *at = strstr(path, comps[i]);
		char *dir = strndup(path, (size_t)(at - path) + strlen(comps[i]));

		func_init(&f->upstream[i], dir);
		f->upstream[i].numa_node = numa;
		free(dir);
		f->n_upstream++;
	}
	free(copy);
}

struct machine {
	struct inventory inv;
};

static inline void machine_init(struct machine *m)
{
	memset(m, 0, sizeof(*m));
	m->inv.gpus = calloc(MAXDEV, sizeof(*m->inv.gpus));
	m->inv.nics = calloc(MAXDEV, sizeof(*m->inv.nics));
	m->inv.host.memlock_unlimited = 1;
	m->inv.host.memlock_bytes = NA;
	m->inv.host.modules_known = true;
	m->inv.host.modules[MOD_NVIDIA_PEERMEM].name = "nvidia_peermem";
	m->inv.host.modules[MOD_NVIDIA_PEERMEM].loaded = true;
	m->inv.host.modules[MOD_NV_PEER_MEM].name = "nv_peer_mem";
}

static inline struct gpu *add_gpu(struct machine *m, const char *path, int numa)
{
	struct gpu *g = &m->inv.gpus[m->inv.n_gpus++];

	mkfunc(&g->pci, path, numa);
	g->pci.vendor = 0x10de;
	g->pci.device = 0x20b2;
	g->model = "A100-SXM4-80GB";
	g->kind = GPU_DATACENTER;
	return g;
}

static inline void add_counter(struct counter_set *s, const char *name, uint64_t v)
{
	s->v = realloc(s->v, (s->n + 1) * sizeof(*s->v));
	s->v[s->n].name = strdup(name);
	s->v[s->n].value = v;
	s->v[s->n].ok = true;
	s->v[s->n].ext = s->v[s->n].refused_before = false;
	s->n++;
}

static inline void add_gid(struct port *p, int index, const char *type, const char *ipv4)
{
	struct gid *g;

	p->gids = realloc(p->gids, (p->n_gids + 1) * sizeof(*p->gids));
	g = &p->gids[p->n_gids++];
	memset(g, 0, sizeof(*g));
	g->index = index;
	g->type = strdup(type);
	g->text = strdup(ipv4 ? "0000:0000:0000:0000:0000:ffff:0a00:0001"
			      : "fe80:0000:0000:0000:0000:0000:0000:0001");
	g->netdev = p->netdev ? strdup(p->netdev) : NULL;
	snprintf(g->ipv4, sizeof(g->ipv4), "%s", ipv4 ? ipv4 : "");
}

/* A healthy port: ACTIVE LinkUp at rate, 4X, MTU 4096 (RoCE: netdev 9000,
 * RoCE v2 IPv4 GID at index 3). */
static inline void port_init(struct port *p, const char *nic, int num, const char *ll, double rate)
{
	char nd[64];

	memset(p, 0, sizeof(*p));
	p->num = num;
	p->link_layer = strdup(ll);
	p->state = 4;
	p->state_name = strdup("ACTIVE");
	p->phys_state = 5;
	p->phys_state_name = strdup("LinkUp");
	p->rate_gbps = rate;
	p->lanes = 4;
	p->rate_speed = strdup(rate >= 400 ? "NDR" : rate >= 200 ? "HDR" : "EDR");
	p->lid = p->sm_lid = NA;
	p->active_mtu = p->max_mtu = 4096;
	p->netdev_mtu = p->netdev_speed_mbps = p->carrier_changes = NA;
	snprintf(nd, sizeof(nd), "%s_p%d", nic, num);
	if (strcmp(ll, "Ethernet") == 0) {
		p->netdev = strdup(nd);
		p->netdev_mtu = 9000;
		add_gid(p, 0, "IB/RoCE v1", NULL);
		add_gid(p, 1, "RoCE v2", NULL);
		add_gid(p, 2, "IB/RoCE v1", "10.0.0.1");
		add_gid(p, 3, "RoCE v2", "10.0.0.1");
	} else {
		p->lid = 1;
		p->sm_lid = 1;
		add_gid(p, 0, "IB/RoCE v1", NULL);
		add_counter(&p->counters, "symbol_error", 0);
		add_counter(&p->counters, "link_downed", 0);
		add_counter(&p->counters, "port_xmit_data", 123456789);
	}
}

static inline struct nic *add_nic(struct machine *m, const char *name, const char *path, int numa,
			   const char *model, const char *ll, size_t nports, double rate)
{
	struct nic *n = &m->inv.nics[m->inv.n_nics++];

	memset(n, 0, sizeof(*n));
	n->name = strdup(name);
	n->driver = strdup("mlx5_core");
	n->model = strdup(model);
	n->fw_ver = strdup("20.40.1000");
	n->uverbs = strdup("uverbs0");
	n->uverbs_dev = strdup("ok");
	n->has_pci = true;
	mkfunc(&n->pci, path, numa);
	n->pci.vendor = 0x15b3;
	n->pci.device = 0x101b;
	n->ports = calloc(nports, sizeof(*n->ports));
	n->n_ports = nports;
	for (size_t i = 0; i < nports; i++)
		port_init(&n->ports[i], name, (int)i + 1, ll, rate);
	return n;
}

/* Switch s: root port 0000:H:01.0, upstream port (H+1):00.0, downstream
 * ports (H+2):08.0 (GPU, at (H+3):00.0) and (H+2):0c.0 (NIC, (H+4):00.0),
 * H = 0x10 * (s + 1), host bridge pci0000:H. */
static inline void sw_path(char *buf, size_t len, int s, bool nic)
{
	int h = 0x10 * (s + 1);

	snprintf(buf, len,
		 "sys/devices/pci0000:%02x/0000:%02x:01.0/0000:%02x:00.0/0000:%02x:%s.0/0000:%02x:00.0",
		 h, h, h + 1, h + 2, nic ? "0c" : "08", h + (nic ? 4 : 3));
}

/* A DGX A100 in small: 4 GPUs, each with a ConnectX-6 HDR rail NIC under
 * its own PCIe switch (PIX), and a dual-port ConnectX-6 storage card in
 * Ethernet mode on a CPU root port (functions .0 and .1). */
static inline void healthy(struct machine *m)
{
	char path[256], name[16];

	machine_init(m);
	for (int s = 0; s < 4; s++) {
		sw_path(path, sizeof(path), s, false);
		add_gpu(m, path, s / 2);
	}
	for (int s = 0; s < 4; s++) {
		sw_path(path, sizeof(path), s, true);
		snprintf(name, sizeof(name), "mlx5_%d", s);
		add_nic(m, name, path, s / 2, "ConnectX-6", "InfiniBand", 1, 200);
	}
	add_nic(m, "mlx5_4", "sys/devices/pci0000:e0/0000:e0:01.0/0000:e1:00.0", 1, "ConnectX-6",
		"Ethernet", 1, 100);
	add_nic(m, "mlx5_5", "sys/devices/pci0000:e0/0000:e0:01.0/0000:e1:00.1", 1, "ConnectX-6",
		"Ethernet", 1, 100);
	assert_int_equal(affinity_compute(&m->inv), 0);
}

static inline void machine_free(struct machine *m)
{
	inventory_free(&m->inv);
}

/* What the DGX A100 profile would say, for the shape above. */
static inline struct profile a100_profile(void)
{
	struct profile p = {
		.name = S("test-a100"),
		.role[ROLE_RAIL] = {
			.defined = true, .count = 4, .model_family = S("ConnectX-6"),
			.link_layer = S("InfiniBand"), .rate_gbps = 200, .pcie_gen = 4,
			.pcie_width = 16, .mtu = 4096, .pfc_priority = -1, .ecn = -1,
			.gpudirect = 1, .gpus_per_nic = 1, .placement = PATH_PXB,
		},
		.role[ROLE_STORAGE] = {
			.defined = true, .count = 2, .link_layer = S("Ethernet"),
			.rate_gbps = 100, .mtu = 9000, .pfc_priority = -1, .ecn = -1,
			.gpudirect = -1, .placement = -1,
		},
	};

	return p;
}

static inline struct profile generic_profile(void)
{
	struct profile p = { .name = S("generic") };

	return p;
}

/* ---- looking at findings ----------------------------------------------- */

static inline size_t count_id(const struct findings *fs, const char *id)
{
	size_t n = 0;

	for (size_t i = 0; i < fs->n; i++)
		n += strcmp(fs->v[i].id, id) == 0;
	return n;
}

static inline const struct finding *get(const struct findings *fs, const char *id, const char *subject)
{
	for (size_t i = 0; i < fs->n; i++)
		if (strcmp(fs->v[i].id, id) == 0 && strcmp(fs->v[i].subject, subject) == 0)
			return &fs->v[i];
	return NULL;
}

static inline void dump(const struct findings *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		fprintf(stderr, "  %s %s [%s] observed '%s' expected '%s'\n",
			severity_name(fs->v[i].severity), fs->v[i].id, fs->v[i].subject,
			fs->v[i].observed, fs->v[i].expected);
}

static inline void run(const struct machine *m, const struct profile *p, struct findings *fs)
{
	memset(fs, 0, sizeof(*fs));
	assert_int_equal(check_run(&m->inv, p, fs), 0);
	/* every finding is complete */
	for (size_t i = 0; i < fs->n; i++) {
		assert_non_null(fs->v[i].subject);
		assert_non_null(fs->v[i].observed);
		assert_non_null(fs->v[i].expected);
		assert_non_null(fs->v[i].why);
		assert_non_null(fs->v[i].fix);
		assert_true(strlen(fs->v[i].fix) > 10);
	}
}

static inline const struct finding *expect(const struct findings *fs, const char *id,
					   const char *subject, enum severity sev, const char *observed,
					   const char *expected)
{
	const struct finding *f = get(fs, id, subject);

	if (!f) {
		fprintf(stderr, "no %s about '%s' among:\n", id, subject);
		dump(fs);
	}
	assert_non_null(f);
	assert_int_equal(f->severity, sev);
	if (observed)
		assert_string_equal(f->observed, observed);
	if (expected)
		assert_string_equal(f->expected, expected);
	return f;
}

static inline void drop_ipv4_gids(struct port *pt)
{
	for (size_t i = 0; i < pt->n_gids; i++)
		pt->gids[i].ipv4[0] = '\0';
}

#endif
