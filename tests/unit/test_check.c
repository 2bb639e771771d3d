/* Checks against small machines built in C: each check id fires on the
 * shape it is about, with the subject and observed text an engineer reads,
 * and a healthy machine gives no finding at all. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check/check.h"
#include "model/affinity.h"
#include "sysfs/parse.h"
#include "sysfs/access_parse.h"
#include "profiles/site.h"

#define S(x) ((char *)(x))
#define MAXDEV 16

/* ---- building machines the way the readers fill them ------------------ */

static void set_link(struct pci_link *l, double gts, int64_t width)
{
	l->speed_gts = l->max_speed_gts = gts;
	l->width = l->max_width = width;
}

static void func_init(struct pci_func *f, const char *dir)
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
	set_link(&f->link, 16, 16);	/* Gen4 x16 */
}

/* A function and the bridges above it, from its canonical sysfs path. */
static void mkfunc(struct pci_func *f, const char *path, int numa)
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

static void machine_init(struct machine *m)
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

static struct gpu *add_gpu(struct machine *m, const char *path, int numa)
{
	struct gpu *g = &m->inv.gpus[m->inv.n_gpus++];

	mkfunc(&g->pci, path, numa);
	g->pci.vendor = 0x10de;
	g->pci.device = 0x20b2;
	g->model = "A100-SXM4-80GB";
	g->kind = GPU_DATACENTER;
	return g;
}

static void add_counter(struct counter_set *s, const char *name, uint64_t v)
{
	s->v = realloc(s->v, (s->n + 1) * sizeof(*s->v));
	s->v[s->n].name = strdup(name);
	s->v[s->n].value = v;
	s->v[s->n].ok = true;
	s->v[s->n].ext = s->v[s->n].refused_before = false;
	s->n++;
}

static void add_gid(struct port *p, int index, const char *type, const char *ipv4)
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
static void port_init(struct port *p, const char *nic, int num, const char *ll, double rate)
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

static struct nic *add_nic(struct machine *m, const char *name, const char *path, int numa,
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
static void sw_path(char *buf, size_t len, int s, bool nic)
{
	int h = 0x10 * (s + 1);

	snprintf(buf, len,
		 "sys/devices/pci0000:%02x/0000:%02x:01.0/0000:%02x:00.0/0000:%02x:%s.0/0000:%02x:00.0",
		 h, h, h + 1, h + 2, nic ? "0c" : "08", h + (nic ? 4 : 3));
}

/* A DGX A100 in small: 4 GPUs, each with a ConnectX-6 HDR rail NIC under
 * its own PCIe switch (PIX), and a dual-port ConnectX-6 storage card in
 * Ethernet mode on a CPU root port (functions .0 and .1). */
static void healthy(struct machine *m)
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

static void machine_free(struct machine *m)
{
	inventory_free(&m->inv);
}

/* What the DGX A100 profile would say, for the shape above. */
static struct profile a100_profile(void)
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

static struct profile generic_profile(void)
{
	struct profile p = { .name = S("generic") };

	return p;
}

/* ---- looking at findings ----------------------------------------------- */

static size_t count_id(const struct findings *fs, const char *id)
{
	size_t n = 0;

	for (size_t i = 0; i < fs->n; i++)
		n += strcmp(fs->v[i].id, id) == 0;
	return n;
}

static const struct finding *get(const struct findings *fs, const char *id, const char *subject)
{
	for (size_t i = 0; i < fs->n; i++)
		if (strcmp(fs->v[i].id, id) == 0 && strcmp(fs->v[i].subject, subject) == 0)
			return &fs->v[i];
	return NULL;
}

static void dump(const struct findings *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		fprintf(stderr, "  %s %s [%s] observed '%s' expected '%s'\n",
			severity_name(fs->v[i].severity), fs->v[i].id, fs->v[i].subject,
			fs->v[i].observed, fs->v[i].expected);
}

static void run(const struct machine *m, const struct profile *p, struct findings *fs)
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

static const struct finding *expect(const struct findings *fs, const char *id,
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

/* ---- the healthy shape ------------------------------------------------- */

/* A RoCE port whose DCB answered with the usual lossless setup: PFC and
 * DSCP 26 on priority 3, trust dscp (ECN left unknown).  Without a reading
 * a RoCE rail is "not checked". */
static void dcb_read(struct port *pt)
{
	struct qos *q = calloc(1, sizeof(*q));

	assert_non_null(q);
	qos_init(q);
	q->dcb_supported = 1;
	q->trust = strdup("dscp");
	for (int i = 0; i < 8; i++)
		q->pfc_enabled[i] = i == 3;
	q->dscp_to_prio[26] = 3;
	pt->qos = q;
}

static void healthy_is_silent(void **state)
{
	struct machine m;
	struct profile p = a100_profile(), g = generic_profile();
	struct findings fs;
	enum nic_role roles[6];
	(void)state;

	healthy(&m);
	roles_assign(&m.inv, &p, roles);
	for (int i = 0; i < 4; i++)
		assert_int_equal(roles[i], ROLE_RAIL);
	assert_int_equal(roles[4], ROLE_STORAGE);
	assert_int_equal(roles[5], ROLE_STORAGE);

	run(&m, &p, &fs);
	if (fs.n)
		dump(&fs);
	assert_int_equal(fs.n, 0);
	assert_string_equal(check_verdict(&fs), "pass");
	findings_free(&fs);
	/* generic judges the RoCE storage ports as rails: with their DCB read */
	dcb_read(&m.inv.nics[4].ports[0]);
	dcb_read(&m.inv.nics[5].ports[0]);

	run(&m, &g, &fs);
	if (fs.n)
		dump(&fs);
	assert_int_equal(fs.n, 0);
	findings_free(&fs);
	/* no profile at all is the generic one */
	run(&m, NULL, &fs);
	assert_int_equal(fs.n, 0);
	findings_free(&fs);
	machine_free(&m);
}

/* ---- findings, their order and the verdict ----------------------------- */

static void order_and_verdict(void **state)
{
	struct findings fs = { 0 };
	struct finding *f;
	(void)state;

	assert_string_equal(check_verdict(&fs), "pass");
	f = finding_add(&fs, "sys.device_access", SEV_INFO, "why");
	finding_set(&f->subject, "host");
	assert_string_equal(check_verdict(&fs), "pass");
	f = finding_add(&fs, "mtu.roce", SEV_WARN, "why");
	finding_set(&f->subject, "x");
	finding_set(&f->subject, "replaced %d", 2);
	assert_string_equal(f->subject, "replaced 2");
	assert_string_equal(check_verdict(&fs), "warn");
	f = finding_add(&fs, "port.down", SEV_ERROR, "why");
	assert_string_equal(check_verdict(&fs), "fail");
	assert_string_equal(severity_name(SEV_ERROR), "error");
	assert_string_equal(severity_name(SEV_WARN), "warn");
	assert_string_equal(severity_name(SEV_INFO), "info");
	findings_free(&fs);
	assert_int_equal(fs.n, 0);
	assert_null(fs.v);
	findings_free(&fs);
}

static void sorted_errors_id_subject(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	(void)state;

	healthy(&m);
	/* errors on mlx5_3 and mlx5_1, a warning, an info */
	for (int i = 3; i >= 1; i -= 2) {
		m.inv.nics[i].ports[0].state = 1;
		m.inv.nics[i].ports[0].phys_state = 2;
	}
	m.inv.nics[0].ports[0].active_mtu = 2048;
	m.inv.gpus[0].kind = GPU_GEFORCE;
	m.inv.gpus[0].model = "GeForce RTX 4090";
	m.inv.host.memlock_unlimited = 0;
	run(&m, &p, &fs);
	assert_true(fs.n >= 5);
	for (size_t i = 1; i < fs.n; i++) {
		const struct finding *a = &fs.v[i - 1], *b = &fs.v[i];

		assert_true(a->severity >= b->severity);
		if (a->severity == b->severity)
			assert_true(strcmp(a->id, b->id) <= 0);
	}
	assert_string_equal(fs.v[0].id, "port.down");
	assert_string_equal(fs.v[0].subject, "mlx5_1 port 1");
	assert_string_equal(fs.v[1].subject, "mlx5_3 port 1");
	assert_string_equal(fs.v[fs.n - 1].id, "gdr.unsupported");
	assert_string_equal(check_verdict(&fs), "fail");
	findings_free(&fs);
	machine_free(&m);
}

/* ---- roles ------------------------------------------------------------- */

static void roles_generic_and_software(void **state)
{
	struct machine m;
	struct profile p = a100_profile(), g = generic_profile();
	enum nic_role roles[8];
	struct nic *rxe;
	(void)state;

	healthy(&m);
	/* Soft-RoCE on the storage card's netdev: same PCI function */
	rxe = add_nic(&m, "rxe0", "sys/devices/pci0000:e0/0000:e0:01.0/0000:e1:00.0", 1,
		      "Soft-RoCE", "Ethernet", 1, 100);
	free(rxe->driver);
	rxe->driver = strdup("rdma_rxe");
	rxe->netdev_parent = strdup("mlx5_4_p1");
	assert_int_equal(affinity_compute(&m.inv), 0);

	roles_assign(&m.inv, &g, roles);
	for (size_t i = 0; i < m.inv.n_nics; i++)
		assert_int_equal(roles[i], ROLE_RAIL);
	roles_assign(&m.inv, NULL, roles);
	assert_int_equal(roles[6], ROLE_RAIL);
	roles_assign(&m.inv, &p, roles);
	assert_int_equal(roles[6], ROLE_STORAGE);
	for (int i = 0; i < 4; i++)
		assert_int_equal(roles[i], ROLE_RAIL);
	machine_free(&m);
}

/* Rails by placement, a far single-function card promoted to make up the
 * count, a far dual-function card (storage) never. */
static void roles_placement_and_promotion(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	enum nic_role roles[8];
	char path[256];
	(void)state;

	machine_init(&m);
	for (int s = 0; s < 4; s++) {
		sw_path(path, sizeof(path), s, false);
		add_gpu(&m, path, 0);
	}
	for (int s = 0; s < 3; s++) {
		char name[16];

		sw_path(path, sizeof(path), s, true);
		snprintf(name, sizeof(name), "mlx5_%d", s);
		add_nic(&m, name, path, 0, "ConnectX-6", "InfiniBand", 1, 200);
	}
	/* a dual-function IB ConnectX-6 far away: storage even though short */
	add_nic(&m, "mlx5_4", "sys/devices/pci0000:e0/0000:e0:01.0/0000:e1:00.0", 1, "ConnectX-6",
		"InfiniBand", 1, 200);
	add_nic(&m, "mlx5_5", "sys/devices/pci0000:e0/0000:e0:01.0/0000:e1:00.1", 1, "ConnectX-6",
		"InfiniBand", 1, 200);
	/* a single-function one: the mis-slotted fourth rail (after the
	 * storage functions in name order, so those are passed over) */
	add_nic(&m, "mlx5_6", "sys/devices/pci0000:c0/0000:c0:01.0/0000:c1:00.0", 1, "ConnectX-6",
		"InfiniBand", 1, 200);
	assert_int_equal(affinity_compute(&m.inv), 0);
	roles_assign(&m.inv, &p, roles);
	assert_int_equal(roles[0], ROLE_RAIL);
	assert_int_equal(roles[1], ROLE_RAIL);
	assert_int_equal(roles[2], ROLE_RAIL);
	assert_int_equal(roles[3], ROLE_STORAGE);
	assert_int_equal(roles[4], ROLE_STORAGE);
	assert_int_equal(roles[5], ROLE_RAIL);

	/* the wrong model never is a rail */
	free(m.inv.nics[5].model);
	m.inv.nics[5].model = strdup("ConnectX-5");
	roles_assign(&m.inv, &p, roles);
	assert_int_equal(roles[5], ROLE_STORAGE);
	machine_free(&m);
}

/* No placement in the profile: rails in name order up to the count. */
static void roles_name_order(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	enum nic_role roles[8];
	const char *names[] = { "mlx5_10", "mlx5_2", "mlx5_1", "mlx5_9" };
	(void)state;

	machine_init(&m);
	for (int i = 0; i < 4; i++) {
		char path[128];

		snprintf(path, sizeof(path), "sys/devices/pci0000:%02x/0000:%02x:01.0/0000:%02x:00.0",
			 0x20 * (i + 1), 0x20 * (i + 1), 0x20 * (i + 1) + 1);
		add_nic(&m, names[i], path, 0, "ConnectX-6", "Ethernet", 1, 100);
	}
	p.role[ROLE_RAIL].placement = -1;
	p.role[ROLE_RAIL].link_layer = S("Ethernet");
	p.role[ROLE_RAIL].count = 2;
	roles_assign(&m.inv, &p, roles);
	assert_int_equal(roles[0], ROLE_STORAGE);	/* mlx5_10 */
	assert_int_equal(roles[1], ROLE_RAIL);		/* mlx5_2 */
	assert_int_equal(roles[2], ROLE_RAIL);		/* mlx5_1 */
	assert_int_equal(roles[3], ROLE_STORAGE);	/* mlx5_9 */
	p.role[ROLE_RAIL].count = -1;
	roles_assign(&m.inv, &p, roles);
	for (int i = 0; i < 4; i++)
		assert_int_equal(roles[i], ROLE_RAIL);
	/* a link layer that differs keeps a NIC out */
	p.role[ROLE_RAIL].link_layer = S("InfiniBand");
	roles_assign(&m.inv, &p, roles);
	for (int i = 0; i < 4; i++)
		assert_int_equal(roles[i], ROLE_STORAGE);
	machine_free(&m);
}

/* ---- nic.* and fw.* ---------------------------------------------------- */

static void nic_count(void **state)
{
	struct machine m;
	struct profile p = a100_profile(), g = generic_profile();
	struct findings fs;
	(void)state;

	healthy(&m);
	free(m.inv.nics[1].model);
	m.inv.nics[1].model = strdup("ConnectX-5");
	run(&m, &p, &fs);
	expect(&fs, "nic.count", "rail NICs", SEV_ERROR, "3 (mlx5_0 mlx5_2 mlx5_3)",
	       "4 ConnectX-6 InfiniBand NICs, each PXB or closer to a GPU");
	expect(&fs, "nic.count", "storage NICs", SEV_WARN, "3 (mlx5_1 mlx5_4 mlx5_5)", NULL);
	findings_free(&fs);
	/* generic counts nothing */
	run(&m, &g, &fs);
	assert_int_equal(count_id(&fs, "nic.count"), 0);
	findings_free(&fs);
	/* more rails than the profile has */
	free(m.inv.nics[1].model);
	m.inv.nics[1].model = strdup("ConnectX-6");
	p.role[ROLE_RAIL].count = 3;
	run(&m, &p, &fs);
	expect(&fs, "nic.count", "rail NICs", SEV_WARN, "4 (mlx5_0 mlx5_1 mlx5_2 mlx5_3)", NULL);
	findings_free(&fs);
	machine_free(&m);
}

static void fw_mixed(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *f;
	char cmd[200];
	(void)state;

	healthy(&m);
	free(m.inv.nics[2].fw_ver);
	m.inv.nics[2].fw_ver = strdup("20.37.1014");
	free(m.inv.nics[5].fw_ver);
	m.inv.nics[5].fw_ver = NULL;	/* unknown: left out, and not checked */
	run(&m, NULL, &fs);
	f = expect(&fs, "fw.mixed", "ConnectX-6", SEV_WARN,
		   "20.40.1000 (mlx5_0 mlx5_1 mlx5_3 mlx5_4); 20.37.1014 (mlx5_2)",
		   "one firmware version on every ConnectX-6 (most run 20.40.1000)");
	expect(&fs, "fw.mixed", "mlx5_5", SEV_INFO,
	       "not checked: its firmware version (fw_ver) could not be read",
	       "the firmware version of the other ConnectX-6");
	assert_true(get(&fs, "fw.mixed", "mlx5_5")->unchecked);
	assert_int_equal(count_id(&fs, "fw.mixed"), 2);
	/* the one card off the majority, by its real address, and no other */
	snprintf(cmd, sizeof(cmd), "mlx5_2: `flint -d %s -i <image> burn`, then "
		 "`mlxfwreset -d %s reset`", m.inv.nics[2].pci.bdf, m.inv.nics[2].pci.bdf);
	assert_non_null(strstr(f->fix, cmd));
	assert_non_null(strstr(f->fix, "to 20.40.1000"));
	assert_null(strstr(f->fix, "<dev>"));
	assert_null(strstr(f->fix, "flint -d 0000:e1"));
	assert_null(strstr(f->fix, m.inv.nics[0].pci.bdf));
	findings_free(&fs);
	machine_free(&m);
}

/* Three NICs on each of two versions: no majority to name, and every card
 * gets its command, the dual-port card (mlx5_4, mlx5_5) once. */
static void fw_mixed_tie(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *f;
	char cmd[200];
	(void)state;

	healthy(&m);
	for (int i = 2; i < 5; i++) {
		free(m.inv.nics[i].fw_ver);
		m.inv.nics[i].fw_ver = strdup("20.37.1014");
	}
	run(&m, NULL, &fs);
	f = expect(&fs, "fw.mixed", "ConnectX-6", SEV_WARN,
		   "20.40.1000 (mlx5_0 mlx5_1 mlx5_5); 20.37.1014 (mlx5_2 mlx5_3 mlx5_4)",
		   "one firmware version on every ConnectX-6 (no version leads: "
		   "3 run 20.40.1000, 3 run 20.37.1014)");
	assert_null(strstr(f->fix, "most run"));
	for (int i = 0; i < 5; i++) {
		snprintf(cmd, sizeof(cmd), "mlx5_%d: `flint -d %s -i <image> burn`", i,
			 m.inv.nics[i].pci.bdf);
		assert_non_null(strstr(f->fix, cmd));
	}
	assert_null(strstr(f->fix, "mlx5_5:"));
	findings_free(&fs);
	machine_free(&m);
}

/* ---- port.* ------------------------------------------------------------ */

static void port_down_and_no_sm(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	struct port *pt;
	(void)state;

	healthy(&m);
	pt = &m.inv.nics[1].ports[0];
	pt->state = 1;
	free(pt->state_name);
	pt->state_name = strdup("DOWN");
	pt->phys_state = 2;
	free(pt->phys_state_name);
	pt->phys_state_name = strdup("Polling");
	pt->rate_gbps = NAN;
	pt = &m.inv.nics[2].ports[0];
	pt->state = 2;
	free(pt->state_name);
	pt->state_name = strdup("INIT");
	pt = &m.inv.nics[4].ports[0];	/* storage */
	pt->state = 1;
	pt->phys_state = 3;
	free(pt->state_name);
	free(pt->phys_state_name);
	pt->state_name = strdup("DOWN");
	pt->phys_state_name = strdup("Disabled");
	/* unknown state: not checked, and on a rail a warning (issue 29) */
	m.inv.nics[3].ports[0].state = NA;
	m.inv.nics[3].ports[0].phys_state = NA;
	run(&m, &p, &fs);
	expect(&fs, "port.down", "mlx5_1 port 1", SEV_ERROR,
	       "state DOWN, physical state Polling", "ACTIVE, LinkUp");
	expect(&fs, "port.no_sm", "mlx5_2 port 1", SEV_ERROR,
	       "state INIT, physical state LinkUp: no subnet manager", "ACTIVE, LinkUp");
	expect(&fs, "port.down", "mlx5_4 port 1", SEV_WARN,
	       "state DOWN, physical state Disabled, netdev mlx5_4_p1", NULL);
	assert_non_null(strstr(get(&fs, "port.down", "mlx5_1 port 1")->fix, "mlxlink -d mlx5_1"));
	assert_int_equal(count_id(&fs, "port.down"), 3);
	assert_int_equal(count_id(&fs, "port.no_sm"), 1);
	assert_true(expect(&fs, "port.down", "mlx5_3 port 1", SEV_WARN,
			   "not checked: its state could not be read (no state given)",
			   "ACTIVE, LinkUp")->unchecked);
	/* a port that is down has no MTU, GID or rate finding */
	assert_int_equal(count_id(&fs, "mtu.roce"), 0);
	assert_int_equal(count_id(&fs, "port.rate_low"), 0);
	findings_free(&fs);
	machine_free(&m);
}

static void port_rate_low(void **state)
{
	struct machine m;
	struct profile p = a100_profile(), g = generic_profile();
	struct findings fs;
	struct port *pt;
	(void)state;

	healthy(&m);
	pt = &m.inv.nics[1].ports[0];
	pt->rate_gbps = 40;
	free(pt->rate_speed);
	pt->rate_speed = strdup("FDR10");
	/* unreadable: not judged, but said (it was silent before) */
	m.inv.nics[2].ports[0].rate_gbps = NAN;
	run(&m, &p, &fs);
	expect(&fs, "port.rate_low", "mlx5_1 port 1", SEV_ERROR,
	       "40 Gb/s (4X FDR10): cause not found (the module could not be read, the kernel "
	       "shows no InfiniBand link modes)", "200 Gb/s");
	assert_true(expect(&fs, "port.rate_low", "mlx5_2 port 1", SEV_INFO, NULL,
			   "200 Gb/s")->unchecked);
	assert_int_equal(count_id(&fs, "port.rate_low"), 2);
	assert_non_null(strstr(get(&fs, "port.rate_low", "mlx5_1 port 1")->fix, "cable"));
	findings_free(&fs);
	/* the generic profile knows no rate */
	run(&m, &g, &fs);
	assert_int_equal(count_id(&fs, "port.rate_low"), 0);
	findings_free(&fs);
	/* a RoCE port: mlx5 names its lanes in IB terms ("4X QDR"), the
	 * finding in Ethernet's Gb/s */
	pt = &m.inv.nics[4].ports[0];
	pt->rate_gbps = 40;
	free(pt->rate_speed);
	pt->rate_speed = strdup("QDR");
	run(&m, &p, &fs);
	expect(&fs, "port.rate_low", "mlx5_4 port 1", SEV_WARN,
	       "40 Gb/s (4 x 10 Gb/s): cause not found (the module could not be read, the link "
	       "modes (NIC and partner) could not be read)", "100 Gb/s");
	assert_null(strstr(get(&fs, "port.rate_low", "mlx5_4 port 1")->observed, "QDR"));
	assert_null(strstr(get(&fs, "port.rate_low", "mlx5_4 port 1")->fix, "EDR"));
	findings_free(&fs);
	machine_free(&m);
}

static void port_width_low(void **state)
{
	struct machine m;
	struct profile p = a100_profile(), g = generic_profile();
	struct findings fs;
	struct port *pt;
	(void)state;

	healthy(&m);
	pt = &m.inv.nics[0].ports[0];
	pt->lanes = 2;
	pt->rate_gbps = 100;
	/* RoCE ports report lanes too, but width_low is InfiniBand only */
	m.inv.nics[4].ports[0].lanes = 2;
	run(&m, &g, &fs);
	/* with no expected rate, 2X may be the product (HDR100): not judged */
	assert_int_equal(count_id(&fs, "port.width_low"), 0);
	findings_free(&fs);
	pt->lanes = 1;
	pt->rate_gbps = 50;
	run(&m, &g, &fs);
	expect(&fs, "port.width_low", "mlx5_0 port 1", SEV_WARN, "1X (50 Gb/s HDR)", "4X");
	findings_free(&fs);
	pt->lanes = 2;
	pt->rate_gbps = 100;
	run(&m, &p, &fs);
	/* lost lanes: one finding naming width and rate, not a second
	 * port.rate_low for the same cause */
	expect(&fs, "port.width_low", "mlx5_0 port 1", SEV_ERROR, "2X (100 Gb/s HDR)",
	       "4X (200 Gb/s)");
	assert_int_equal(count_id(&fs, "port.rate_low"), 0);
	findings_free(&fs);
	/* HDR100 by design: a profile that expects 100 Gb/s */
	p.role[ROLE_RAIL].rate_gbps = 100;
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "port.width_low"), 0);
	findings_free(&fs);
	machine_free(&m);
}

/* ---- pcie.* ------------------------------------------------------------ */

static void pcie_link_degraded(void **state)
{
	struct machine m;
	struct profile p = a100_profile(), g = generic_profile();
	struct findings fs;
	struct pci_func *f;
	(void)state;

	healthy(&m);
	/* trained x8: the switch downstream port above reads the same link */
	f = &m.inv.nics[2].pci;
	f->link.width = 8;
	f->upstream[f->n_upstream - 1].link.width = 8;
	run(&m, &g, &fs);
	expect(&fs, "pcie.link_degraded", "mlx5_2", SEV_WARN, "Gen4 x8", "Gen4 x16");
	assert_int_equal(count_id(&fs, "pcie.link_degraded"), 1);
	assert_int_equal(count_id(&fs, "pcie.upstream_degraded"), 0);
	assert_non_null(strstr(get(&fs, "pcie.link_degraded", "mlx5_2")->fix, "bifurcation"));
	/* x8 also caps the 200 Gb/s port: one cause, one finding that says so */
	assert_non_null(strstr(get(&fs, "pcie.link_degraded", "mlx5_2")->fix,
			       "carries about 15.75 GB/s where the port needs 25 GB/s"));
	assert_int_equal(count_id(&fs, "pcie.bottleneck"), 0);
	findings_free(&fs);
	/* a slot wired for x8 (its port can do no more): the x16 card trained
	 * all the slot allows, yet gets half its bandwidth.  Judged against the
	 * card: a warning, on a rail too, that names the slot */
	f->upstream[f->n_upstream - 1].link.max_width = 8;
	p.role[ROLE_RAIL].pcie_width = 0;
	run(&m, &p, &fs);
	expect(&fs, "pcie.link_degraded", "mlx5_2", SEV_WARN, "Gen4 x8", "Gen4 x16");
	assert_non_null(strstr(get(&fs, "pcie.link_degraded", "mlx5_2")->fix,
			       "its slot (0000:32:0c.0) no more than x8: move it to a slot wired "
			       "for x16"));
	assert_non_null(strstr(get(&fs, "pcie.link_degraded", "mlx5_2")->fix,
			       "carries about 15.75 GB/s where the port needs 25 GB/s"));
	assert_int_equal(count_id(&fs, "pcie.link_degraded"), 1);
	assert_int_equal(count_id(&fs, "pcie.bottleneck"), 0);
	findings_free(&fs);
	/* ... and an error where the profile wants x16 */
	p.role[ROLE_RAIL].pcie_width = 16;
	run(&m, &p, &fs);
	expect(&fs, "pcie.link_degraded", "mlx5_2", SEV_ERROR, "Gen4 x8", "Gen4 x16");
	findings_free(&fs);
	/* a Gen4 card at full speed where the profile wants Gen5 */
	f->link.width = f->upstream[f->n_upstream - 1].link.width = 16;
	f->upstream[f->n_upstream - 1].link.max_width = 16;
	p.role[ROLE_RAIL].pcie_gen = 5;
	run(&m, &p, &fs);
	expect(&fs, "pcie.link_degraded", "mlx5_0", SEV_ERROR, "Gen4 x16", "Gen5 x16");
	assert_int_equal(count_id(&fs, "pcie.link_degraded"), 4);
	findings_free(&fs);
	/* unknown link: not checked, an info (issue 29) */
	p.role[ROLE_RAIL].pcie_gen = 4;
	f->link.speed_gts = NAN;
	f->link.width = NA;
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "pcie.link_degraded"), 1);
	assert_true(expect(&fs, "pcie.link_degraded", "mlx5_2", SEV_INFO, NULL, NULL)->unchecked);
	findings_free(&fs);
	f->link.speed_gts = 16;
	f->link.width = 16;
	/* the dual-port storage card (mlx5_4, mlx5_5: functions 0 and 1 of
	 * 0000:e1:00) trained x8: one link, one finding naming both */
	for (size_t k = 4; k < 6; k++) {
		f = &m.inv.nics[k].pci;
		f->link.width = 8;
		f->upstream[f->n_upstream - 1].link.width = 8;
	}
	run(&m, &g, &fs);
	expect(&fs, "pcie.link_degraded", "mlx5_4, mlx5_5 (0000:e1:00)", SEV_WARN, "Gen4 x8",
	       "Gen4 x16");
	assert_int_equal(count_id(&fs, "pcie.link_degraded"), 1);
	findings_free(&fs);
	machine_free(&m);
}

static void pcie_upstream_degraded(void **state)
{
	struct machine m;
	struct findings fs;
	struct pci_func *f;
	(void)state;

	healthy(&m);
	/* the root port's link to the switch trained at Gen3: both of its
	 * ends (root port 0000:30:01.0, upstream port 0000:31:00.0) say so */
	f = &m.inv.nics[2].pci;
	f->upstream[0].link.speed_gts = 8;
	f->upstream[1].link.speed_gts = 8;
	run(&m, NULL, &fs);
	expect(&fs, "pcie.upstream_degraded", "mlx5_2 via bridge 0000:30:01.0", SEV_WARN,
	       "Gen3 x16", "Gen4 x16");
	assert_int_equal(count_id(&fs, "pcie.upstream_degraded"), 1);
	assert_int_equal(count_id(&fs, "pcie.link_degraded"), 0);
	findings_free(&fs);
	/* the root port cannot do more: fine */
	f->upstream[0].link.max_speed_gts = 8;
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "pcie.upstream_degraded"), 0);
	findings_free(&fs);
	machine_free(&m);
}

/* The RTX 4090 box: one dual-port 100G CX-6 Dx in a Gen4 x8 slot. */
static void pcie_bottleneck(void **state)
{
	struct machine m;
	struct findings fs;
	struct nic *n;
	(void)state;

	machine_init(&m);
	for (int fn = 0; fn < 2; fn++) {
		char path[128], name[32];

		snprintf(path, sizeof(path), "sys/devices/pci0000:40/0000:40:01.1/0000:41:00.%d", fn);
		snprintf(name, sizeof(name), "rocep65s0f%d", fn);
		n = add_nic(&m, name, path, 0, "ConnectX-6 Dx", "Ethernet", 1, 100);
		n->pci.link.width = 8;		/* the card can do x16 */
		n->pci.upstream[0].link.width = 8;
		n->pci.upstream[0].link.max_width = 8;	/* the slot cannot */
	}
	/* the x16 card at x8 is one cause of both: one finding, that says
	 * what the ports lose */
	run(&m, NULL, &fs);
	expect(&fs, "pcie.link_degraded", "rocep65s0f0, rocep65s0f1 (0000:41:00)", SEV_WARN,
	       "Gen4 x8", "Gen4 x16");
	assert_non_null(strstr(get(&fs, "pcie.link_degraded", "rocep65s0f0, rocep65s0f1 (0000:41:00)")->fix,
			       "the link carries about 15.75 GB/s where the ports need 25 GB/s"));
	assert_int_equal(count_id(&fs, "pcie.bottleneck"), 0);
	assert_int_equal(count_id(&fs, "pcie.link_degraded"), 1);
	findings_free(&fs);
	/* one port down: 12.5 GB/s fits, the card still runs x8 of x16 */
	m.inv.nics[1].ports[0].state = 1;
	m.inv.nics[1].ports[0].rate_gbps = NAN;
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "pcie.bottleneck"), 0);
	assert_null(strstr(get(&fs, "pcie.link_degraded", "rocep65s0f0, rocep65s0f1 (0000:41:00)")->fix,
			   "GB/s"));
	findings_free(&fs);
	/* at its full width, 2 x 200 Gb/s on Gen4 x16 (about 28 GB/s usable):
	 * the link is not degraded, and the ports alone need more */
	for (size_t k = 0; k < 2; k++) {
		m.inv.nics[k].pci.link.width = 16;
		m.inv.nics[k].pci.upstream[0].link.width = 16;
		m.inv.nics[k].pci.upstream[0].link.max_width = 16;
		m.inv.nics[k].ports[0].state = 4;
		m.inv.nics[k].ports[0].rate_gbps = 200;
	}
	run(&m, NULL, &fs);
	expect(&fs, "pcie.bottleneck", "rocep65s0f0, rocep65s0f1 (0000:41:00)", SEV_WARN,
	       "Gen4 x16 carries about 31.51 GB/s", "the ports need 50 GB/s (2 x 200 Gb/s)");
	assert_int_equal(count_id(&fs, "pcie.link_degraded"), 0);
	findings_free(&fs);
	machine_free(&m);
}

/* PCIe carries data, not the line code: a dual-port FDR ConnectX-3
 * (Gen3 x8) needs 2 x 54.5 Gb/s, and 4X QDR ports 32 Gb/s each. */
static void pcie_bottleneck_data_rate(void **state)
{
	struct machine m;
	struct findings fs;
	struct nic *n;
	(void)state;

	machine_init(&m);
	n = add_nic(&m, "mlx4_0", "sys/devices/pci0000:40/0000:40:01.1/0000:41:00.0", 0,
		    "ConnectX-3", "InfiniBand", 2, 56);
	for (size_t k = 0; k < 2; k++) {
		free(n->ports[k].rate_speed);
		n->ports[k].rate_speed = strdup("FDR");
	}
	n->pci.link.speed_gts = n->pci.link.max_speed_gts = 8;
	n->pci.link.width = n->pci.link.max_width = 8;
	n->pci.upstream[0].link.speed_gts = n->pci.upstream[0].link.max_speed_gts = 8;
	n->pci.upstream[0].link.width = n->pci.upstream[0].link.max_width = 8;
	run(&m, NULL, &fs);
	expect(&fs, "pcie.bottleneck", "mlx4_0 (0000:41:00)", SEV_WARN,
	       "Gen3 x8 carries about 7.88 GB/s", "the ports need 13.64 GB/s (2 x 54.55 Gb/s)");
	findings_free(&fs);
	/* QDR: 2 x 32 Gb/s of data, where the signalling would say 2 x 40 */
	for (size_t k = 0; k < 2; k++) {
		n->ports[k].rate_gbps = 40;
		free(n->ports[k].rate_speed);
		n->ports[k].rate_speed = strdup("QDR");
	}
	run(&m, NULL, &fs);
	expect(&fs, "pcie.bottleneck", "mlx4_0 (0000:41:00)", SEV_WARN,
	       "Gen3 x8 carries about 7.88 GB/s", "the ports need 8 GB/s (2 x 32 Gb/s)");
	findings_free(&fs);
	machine_free(&m);
}

/* A link as FEC_GET / LINKMODES_GET describe it. */
static struct link_info *fec_link(int64_t mbps, int64_t lanes, int active)
{
	struct link_info *l = malloc(sizeof(*l));

	assert_non_null(l);
	link_info_init(l);
	l->linkmodes = l->fec = 1;
	l->speed_mbps = mbps;
	l->lanes = lanes;
	l->fec_active = active;
	return l;
}

/* port.fec: FEC None on PAM4 lanes (50G and up per lane), not on NRZ */
static void port_fec(void **state)
{
	struct machine m;
	struct profile g = generic_profile();
	struct findings fs;
	struct port *pt;
	(void)state;

	healthy(&m);
	pt = &m.inv.nics[4].ports[0];
	pt->link = fec_link(200000, 4, 49);	/* 4 x 50G PAM4, FEC None */
	run(&m, &g, &fs);
	expect(&fs, "port.fec", "mlx5_4 port 1", SEV_WARN,
	       "FEC off (None) at 200000 Mb/s, 50 Gb/s per lane", "RS");
	assert_non_null(strstr(get(&fs, "port.fec", "mlx5_4 port 1")->fix,
			       "ethtool --set-fec mlx5_4_p1 encoding auto"));
	findings_free(&fs);
	/* RS active: fine */
	pt->link->fec_active = 50;
	run(&m, &g, &fs);
	assert_int_equal(count_id(&fs, "port.fec"), 0);
	findings_free(&fs);
	/* 100G on 4 x 25G NRZ without FEC: allowed on short copper */
	pt->link->fec_active = 49;
	pt->link->speed_mbps = 100000;
	run(&m, &g, &fs);
	assert_int_equal(count_id(&fs, "port.fec"), 0);
	findings_free(&fs);
	/* lanes unknown to ethtool: the RDMA port's (100G as 2 x 50G) */
	pt->link->lanes = NA;
	pt->lanes = 2;
	run(&m, &g, &fs);
	assert_int_equal(count_id(&fs, "port.fec"), 1);
	findings_free(&fs);
	/* FEC not supported / unknown: not judged */
	pt->link->fec = 0;
	run(&m, &g, &fs);
	assert_int_equal(count_id(&fs, "port.fec"), 0);
	findings_free(&fs);
	/* a RoCE LAG member's own link */
	pt->link->fec = 1;
	pt->link->fec_active = 50;
	pt->slaves = calloc(2, sizeof(*pt->slaves));
	assert_non_null(pt->slaves);
	pt->n_slaves = 2;
	pt->slaves[0].netdev = strdup("ens9f0np0");
	pt->slaves[1].netdev = strdup("ens9f1np1");
	pt->slaves[0].link = fec_link(400000, 4, 50);
	pt->slaves[1].link = fec_link(400000, 4, 49);
	run(&m, &g, &fs);
	expect(&fs, "port.fec", "mlx5_4 port 1 (ens9f1np1)", SEV_WARN,
	       "FEC off (None) at 400000 Mb/s, 100 Gb/s per lane", "RS");
	assert_int_equal(count_id(&fs, "port.fec"), 1);
	findings_free(&fs);
	machine_free(&m);
}

/* A Gen3 card (dual-port 100G ConnectX-5, Gen3 x16 at most) in a Gen3 x8
 * slot: x8 of its x16 (pcie.link_degraded), and even its own Gen3 x16
 * does not carry 25 GB/s: said, never a Gen4 slot the card cannot use. */
static void pcie_bottleneck_gen3_card(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *f;
	struct nic *n;
	(void)state;

	machine_init(&m);
	for (int fn = 0; fn < 2; fn++) {
		char path[128], name[32];

		snprintf(path, sizeof(path), "sys/devices/pci0000:40/0000:40:01.1/0000:41:00.%d", fn);
		snprintf(name, sizeof(name), "mlx5_%d", fn);
		n = add_nic(&m, name, path, 0, "ConnectX-5", "Ethernet", 1, 100);
		n->pci.link.speed_gts = n->pci.link.max_speed_gts = 8;
		n->pci.link.width = 8;
		n->pci.link.max_width = 16;
		n->pci.upstream[0].link.speed_gts = 8;
		n->pci.upstream[0].link.width = 8;
		n->pci.upstream[0].link.max_width = 8;
	}
	run(&m, NULL, &fs);
	f = get(&fs, "pcie.link_degraded", "mlx5_0, mlx5_1 (0000:41:00)");
	assert_non_null(strstr(f->observed, "Gen3 x8"));
	assert_null(strstr(f->fix, "Gen4"));
	assert_null(strstr(f->fix, "Gen5"));
	assert_non_null(strstr(f->fix, "move it to a slot wired for x16"));
	assert_non_null(strstr(f->fix, "even the card's own Gen3 x16 (about 15.75 GB/s) "
				       "does not carry them all"));
	assert_int_equal(count_id(&fs, "pcie.bottleneck"), 0);
	findings_free(&fs);
	/* already at its own maximum: no slot advice at all */
	for (int fn = 0; fn < 2; fn++)
		m.inv.nics[fn].pci.link.width = 16;
	run(&m, NULL, &fs);
	f = get(&fs, "pcie.bottleneck", "mlx5_0, mlx5_1 (0000:41:00)");
	assert_non_null(strstr(f->fix, "tops out at Gen3 x16"));
	assert_null(strstr(f->fix, "slot that trains"));
	findings_free(&fs);
	/* one 100G port on the Gen3 x8 link (~7.9 GB/s) needs 12.5: the
	 * card's Gen3 x16 carries it, and that is what is suggested */
	for (int fn = 0; fn < 2; fn++)
		m.inv.nics[fn].pci.link.width = 8;
	m.inv.nics[1].ports[0].state = 1;
	m.inv.nics[1].ports[0].rate_gbps = NAN;
	run(&m, NULL, &fs);
	f = get(&fs, "pcie.link_degraded", "mlx5_0, mlx5_1 (0000:41:00)");
	assert_non_null(strstr(f->fix, "where the port needs 12.5 GB/s"));
	assert_null(strstr(f->fix, "even the card's own"));
	findings_free(&fs);
	machine_free(&m);
}

/* Every function of the machine reads as root read it: MaxPayload 256
 * (capable 512), MaxReadReq 512, RlxdOrd+. */
static void settings_all(struct machine *m, int mps, int mrrs)
{
	for (size_t i = 0; i < m->inv.n_nics; i++) {
		struct pci_func *f = &m->inv.nics[i].pci;

		for (size_t k = 0; k <= f->n_upstream; k++) {
			struct pcie_settings *s = k < f->n_upstream ? &f->upstream[k].pcie : &f->pcie;

			*s = (struct pcie_settings){ .express = 1, .mps_cap = 512, .ext_tag_cap = 1,
						     .mps = mps, .mrrs = mrrs, .relaxed_ordering = 1,
						     .ext_tag = 1, .ats = 0, .ats_enable = -1,
						     .ats_stu = -1 };
		}
	}
}

static void pcie_settings(void **state)
{
	struct machine m;
	struct findings fs;
	struct profile p = a100_profile();
	const struct finding *f;
	(void)state;

	healthy(&m);
	settings_all(&m, 256, 512);
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "pcie.mps_mismatch"), 0);
	findings_free(&fs);
	/* a bridge above mlx5_1 at 128: the NIC is set above it */
	m.inv.nics[1].pci.upstream[1].pcie.mps = 128;
	run(&m, NULL, &fs);
	f = expect(&fs, "pcie.mps_mismatch", "mlx5_1", SEV_WARN, NULL, NULL);
	assert_non_null(strstr(f->observed, "MaxPayload 256 bytes, bridge "));
	assert_non_null(strstr(f->observed, "MaxPayload 128 bytes"));
	assert_non_null(strstr(f->fix, "the link uses 128 bytes now"));
	assert_int_equal(count_id(&fs, "pcie.mps_mismatch"), 1);
	findings_free(&fs);
	/* a NIC at its own maximum below its bridges loses nothing */
	m.inv.nics[1].pci.upstream[1].pcie.mps = 256;
	m.inv.nics[1].pci.pcie.mps = m.inv.nics[1].pci.pcie.mps_cap = 128;
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "pcie.mps_mismatch"), 0);
	findings_free(&fs);
	/* ... but below what it could do, it does */
	m.inv.nics[1].pci.pcie.mps_cap = 512;
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "pcie.mps_mismatch"), 1);
	findings_free(&fs);
	/* a bridge not read (not root): not judged, not said */
	m.inv.nics[1].pci.pcie.mps = 256;
	m.inv.nics[1].pci.upstream[1].pcie.mps = 128;
	m.inv.nics[1].pci.upstream[1].pcie.express = -1;
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "pcie.mps_mismatch"), 0);
	assert_int_equal(count_id(&fs, "pcie.mrrs_low"), 0);
	findings_free(&fs);

	/* the profile asks for MaxReadReq 4096 and Relaxed Ordering */
	p.role[ROLE_RAIL].pcie_mrrs = 4096;
	p.role[ROLE_RAIL].pcie_relaxed_ordering = true;
	m.inv.nics[0].pci.pcie.mrrs = 4096;
	m.inv.nics[0].pci.pcie.relaxed_ordering = 0;
	m.inv.nics[1].pci.pcie.express = -1;	/* mlx5_1 not readable */
	run(&m, &p, &fs);
	f = expect(&fs, "pcie.mrrs_low", "mlx5_2", SEV_WARN, NULL,
		   "MaxReadReq 4096 bytes or more");
	assert_non_null(strstr(f->observed, "MaxReadReq 512 bytes"));
	assert_non_null(strstr(f->fix, "CAP_EXP+8.w=5000:7000"));
	assert_null(get(&fs, "pcie.mrrs_low", "mlx5_0"));
	f = expect(&fs, "pcie.mrrs_low", "mlx5_1", SEV_INFO, NULL, NULL);
	assert_true(f->unchecked);
	expect(&fs, "pcie.relaxed_ordering", "mlx5_0", SEV_WARN, NULL,
	       "RlxdOrd+ (Relaxed Ordering on)");
	assert_null(get(&fs, "pcie.relaxed_ordering", "mlx5_2"));
	f = expect(&fs, "pcie.relaxed_ordering", "mlx5_1", SEV_INFO, NULL, NULL);
	assert_true(f->unchecked);
	findings_free(&fs);
	machine_free(&m);
}

static void pcie_acs(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *f;
	(void)state;

	healthy(&m);
	/* the switch downstream port above mlx5_1: RR and CR on (0x1d) */
	m.inv.nics[1].pci.upstream[2].acs_ctrl = 0x1d;
	/* the root port above the switch is above the common ancestor */
	m.inv.nics[0].pci.upstream[0].acs_ctrl = 0x1d;
	run(&m, NULL, &fs);
	f = expect(&fs, "pcie.acs", "mlx5_1", SEV_ERROR,
		   "ACS redirect on at a bridge 0000:22:0c.0 (0x001d: Request Redirect and "
		   "Completion Redirect), on the path to GPU 0000:23:00.0",
		   NULL);
	assert_non_null(strstr(f->fix, "`setpci -s 0000:22:0c.0 ECAP_ACS+0x6.w=0000`"));
	assert_int_equal(count_id(&fs, "pcie.acs"), 1);
	findings_free(&fs);
	/* a second bridge on the same path: one finding, both by address */
	m.inv.gpus[1].pci.upstream[2].acs_ctrl = 0x0c;
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "pcie.acs"), 1);
	f = expect(&fs, "pcie.acs", "mlx5_1", SEV_ERROR, NULL, NULL);
	assert_non_null(strstr(f->observed, "its bridges "));
	assert_non_null(strstr(f->fix, "`setpci -s 0000:22:0c.0 ECAP_ACS+0x6.w=0000`"));
	assert_non_null(strstr(f->fix, "`setpci -s 0000:22:08.0 ECAP_ACS+0x6.w=0000`"));
	findings_free(&fs);
	machine_free(&m);

	/* without root: one info for the host, not one per bridge */
	healthy(&m);
	for (size_t i = 0; i < m.inv.n_nics; i++)
		for (size_t k = 0; k < m.inv.nics[i].pci.n_upstream; k++) {
			m.inv.nics[i].pci.upstream[k].config_full = false;
			m.inv.nics[i].pci.upstream[k].acs_ctrl = NA;
		}
	for (size_t i = 0; i < m.inv.n_gpus; i++)
		for (size_t k = 0; k < m.inv.gpus[i].pci.n_upstream; k++) {
			m.inv.gpus[i].pci.upstream[k].config_full = false;
			m.inv.gpus[i].pci.upstream[k].acs_ctrl = NA;
		}
	run(&m, NULL, &fs);
	expect(&fs, "pcie.acs", "host", SEV_INFO,
	       "not checked: the bridges' ACS control is in PCI config space, which only root reads",
	       NULL);
	assert_int_equal(count_id(&fs, "pcie.acs"), 1);
	assert_string_equal(check_verdict(&fs), "pass");
	findings_free(&fs);
	machine_free(&m);
}

/* check_run_site judges under the roles its caller computed (and shows):
 * it does not work them out a second time.  The same machine with one
 * rail labelled storage by the caller is judged short of a rail. */
static void roles_from_caller(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	enum nic_role roles[MAXDEV];
	(void)state;

	healthy(&m);
	check_roles(&m.inv, &p, NULL, roles);
	assert_int_equal(roles[0], ROLE_RAIL);
	memset(&fs, 0, sizeof(fs));
	assert_int_equal(check_run_site(&m.inv, &p, NULL, roles, &fs), 0);
	assert_int_equal(count_id(&fs, "nic.count"), 0);
	findings_free(&fs);
	roles[0] = ROLE_STORAGE;
	memset(&fs, 0, sizeof(fs));
	assert_int_equal(check_run_site(&m.inv, &p, NULL, roles, &fs), 0);
	/* a rail short, and a storage NIC too many */
	assert_int_equal(count_id(&fs, "nic.count"), 2);
	assert_int_equal(get(&fs, "nic.count", "rail NICs")->severity, SEV_ERROR);
	assert_non_null(strstr(get(&fs, "nic.count", "storage NICs")->observed, "mlx5_0"));
	findings_free(&fs);
	machine_free(&m);
}

/* ---- mtu.* ------------------------------------------------------------- */

/* The rails agree on the MTU on either link layer: one InfiniBand rail
 * whose active MTU differs from what most run is named under mtu.ib, with
 * the same texts as a RoCE rail's netdev MTU under mtu.roce. */
static void mtu_rails_agree_ib(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *f;
	(void)state;

	healthy(&m);
	for (size_t i = 0; i < 3; i++)
		m.inv.nics[i].ports[0].active_mtu = 2048;
	run(&m, NULL, &fs);
	/* the three at 2048 are below InfiniBand's 4096 (check/mtu.c) ... */
	expect(&fs, "mtu.ib", "mlx5_0 port 1", SEV_WARN, "active MTU 2048", "4096");
	/* ... and the one at 4096 is not what most rails run */
	f = expect(&fs, "mtu.ib", "mlx5_3 port 1", SEV_WARN,
		   "active MTU 4096 while 3 rails use 2048 (majority of all 4 rails)",
		   "2048, as the other rails");
	assert_non_null(strstr(f->fix, "`ibv_devinfo -d mlx5_3`"));
	assert_int_equal(count_id(&fs, "mtu.ib"), 4);
	findings_free(&fs);
	machine_free(&m);
}

static void mtu_ib_and_roce(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	(void)state;

	healthy(&m);
	m.inv.nics[0].ports[0].active_mtu = 2048;
	m.inv.nics[1].ports[0].active_mtu = NA;	/* unknown: nothing */
	m.inv.nics[4].ports[0].netdev_mtu = 1500;
	m.inv.nics[4].ports[0].active_mtu = 1024;
	m.inv.nics[5].ports[0].netdev_mtu = 4200;	/* enough for 4096 */
	m.inv.nics[5].ports[0].active_mtu = 4096;
	run(&m, NULL, &fs);
	expect(&fs, "mtu.ib", "mlx5_0 port 1", SEV_WARN, "active MTU 2048", "4096");
	expect(&fs, "mtu.roce", "mlx5_4 port 1", SEV_WARN, "netdev MTU 1500 (RDMA MTU 1024)",
	       "netdev MTU 4200 or more (9000 usual) for RDMA MTU 4096");
	assert_int_equal(count_id(&fs, "mtu.ib"), 1);
	assert_int_equal(count_id(&fs, "mtu.roce"), 1);
	findings_free(&fs);
	/* the profile asks 9000 of its storage netdevs */
	run(&m, &p, &fs);
	expect(&fs, "mtu.roce", "mlx5_5 port 1", SEV_WARN, "netdev MTU 4200 (RDMA MTU 4096)",
	       "netdev MTU 9000 or more");
	findings_free(&fs);
	machine_free(&m);
}

/* ---- gid.* ------------------------------------------------------------- */

static void drop_ipv4_gids(struct port *pt)
{
	for (size_t i = 0; i < pt->n_gids; i++)
		pt->gids[i].ipv4[0] = '\0';
}

static void gid_rocev2_missing(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	(void)state;

	healthy(&m);
	drop_ipv4_gids(&m.inv.nics[4].ports[0]);
	run(&m, NULL, &fs);
	expect(&fs, "gid.rocev2_missing", "mlx5_4 port 1", SEV_WARN,
	       "RoCE v2 GIDs only on IPv6 addresses", NULL);
	findings_free(&fs);
	run(&m, &p, &fs);	/* a storage port there */
	expect(&fs, "gid.rocev2_missing", "mlx5_4 port 1", SEV_WARN, NULL, NULL);
	assert_int_equal(count_id(&fs, "gid.rocev2_missing"), 1);
	findings_free(&fs);
	/* GID types unreadable: not judged */
	for (size_t i = 0; i < m.inv.nics[4].ports[0].n_gids; i++) {
		free(m.inv.nics[4].ports[0].gids[i].type);
		m.inv.nics[4].ports[0].gids[i].type = NULL;
	}
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "gid.rocev2_missing"), 0);
	findings_free(&fs);
	machine_free(&m);
}

static void gid_index_mismatch(void **state)
{
	struct machine m;
	struct findings fs;
	struct port *pt;
	(void)state;

	healthy(&m);
	/* mlx5_5's IPv4 came after an IPv6 address: index 5 */
	pt = &m.inv.nics[5].ports[0];
	pt->gids[2].ipv4[0] = '\0';
	pt->gids[3].ipv4[0] = '\0';
	add_gid(pt, 4, "IB/RoCE v1", "10.0.1.1");
	add_gid(pt, 5, "RoCE v2", "10.0.1.1");
	run(&m, NULL, &fs);
	expect(&fs, "gid.index_mismatch", "rail RoCE ports", SEV_WARN, "mlx5_4:3 mlx5_5:5",
	       "one index on every rail");
	findings_free(&fs);
	machine_free(&m);
}

/* ---- counters.* -------------------------------------------------------- */

/* A counter the kernel refused with EINVAL earlier this boot was not read
 * (sysfs/einval_memo.h): not checked, and the reason names the file. */
static void counters_refused_before(void **state)
{
	struct machine m;
	struct findings fs;
	struct port *pt;
	size_t hits = 0;
	(void)state;

	healthy(&m);
	pt = &m.inv.nics[2].ports[0];
	add_counter(&pt->counters, "port_xmit_discards", 0);
	pt->counters.v[pt->counters.n - 1].ok = false;
	pt->counters.v[pt->counters.n - 1].refused_before = true;
	run(&m, NULL, &fs);
	for (size_t i = 0; i < fs.n; i++)
		hits += strcmp(fs.v[i].id, "counters.errors") == 0 &&
			strcmp(fs.v[i].subject, "mlx5_2 port 1") == 0 && fs.v[i].unchecked &&
			fs.v[i].severity == SEV_INFO &&
			strcmp(fs.v[i].observed, "not checked: 1 of its counters could not be read "
			       "(port_xmit_discards; 1 of them the kernel refused with EINVAL "
			       "earlier this boot (/sys/class/infiniband/mlx5_2/ports/1/counters/"
			       "port_xmit_discards); not read again)") == 0;
	assert_int_equal(hits, 1);
	findings_free(&fs);
	machine_free(&m);
}

static void counters_errors_and_saturated(void **state)
{
	struct machine m;
	struct findings fs;
	struct port *pt;
	(void)state;

	healthy(&m);
	pt = &m.inv.nics[0].ports[0];
	pt->counters.v[0].value = 1234;	/* symbol_error */
	pt->counters.v[1].value = 3;	/* link_downed */
	add_counter(&pt->counters, "port_rcv_errors", 17);
	pt = &m.inv.nics[1].ports[0];
	pt->counters.v[0].value = 65535;
	add_counter(&pt->counters, "local_link_integrity_errors", 15);
	add_counter(&pt->counters, "port_xmit_discards", 9);
	pt->counters.v[pt->counters.n - 1].ok = false;	/* unreadable: not checked */
	pt = &m.inv.nics[4].ports[0];
	add_counter(&pt->hw_counters, "out_of_sequence", 42);
	add_counter(&pt->hw_counters, "local_ack_timeout_err", 7);
	add_counter(&pt->hw_counters, "rx_write_requests", 1000);	/* not an error */
	pt = &m.inv.nics[5].ports[0];
	add_counter(&pt->hw_counters, "rx_icrc_encapsulated", 5);
	add_counter(&pt->hw_counters, "packet_seq_err", 1);
	run(&m, NULL, &fs);
	expect(&fs, "counters.errors", "mlx5_0 port 1", SEV_WARN,
	       "symbol_error 1234, link_downed 3, port_rcv_errors 17", NULL);
	expect(&fs, "counters.errors", "mlx5_1 port 1", SEV_WARN,
	       "symbol_error 65535 (saturated), local_link_integrity_errors 15 (saturated)", NULL);
	/* lifetime transport retries alone say nothing in a one-shot check
	 * (mlx5_4 has only those); corrupted packets do */
	expect(&fs, "counters.errors", "mlx5_5 port 1", SEV_WARN,
	       "packet_seq_err 1, rx_icrc_encapsulated 5", NULL);
	expect(&fs, "counters.saturated", "mlx5_1 port 1", SEV_WARN,
	       "symbol_error 65535, local_link_integrity_errors 15",
	       "symbol_error below 65535, local_link_integrity_errors below 15");
	{
		size_t infos = 0;

		for (size_t i = 0; i < fs.n; i++)
			infos += strcmp(fs.v[i].id, "counters.errors") == 0 &&
				 strcmp(fs.v[i].subject, "mlx5_1 port 1") == 0 &&
				 fs.v[i].severity == SEV_INFO && fs.v[i].unchecked &&
				 strcmp(fs.v[i].observed, "not checked: 1 of its counters could "
					"not be read (port_xmit_discards)") == 0;
		assert_int_equal(infos, 1);
	}
	assert_int_equal(count_id(&fs, "counters.errors"), 4);
	assert_int_equal(count_id(&fs, "counters.saturated"), 1);
	/* a one-shot check never fails on lifetime counts */
	assert_string_equal(check_verdict(&fs), "warn");
	findings_free(&fs);
	machine_free(&m);
}

/* The PHY's `ethtool -S` error counts on a RoCE port, judged like the
 * PMA's: a warning as lifetime counts; their per-lane forms too; FEC's
 * corrected bits and other statistics not. */
static void counters_ethernet_phy(void **state)
{
	struct machine m;
	struct findings fs;
	struct port *pt;
	(void)state;

	healthy(&m);
	pt = &m.inv.nics[4].ports[0];
	add_counter(&pt->eth_stats, "rx_crc_errors_phy", 1532);
	add_counter(&pt->eth_stats, "link_down_events_phy", 4);
	add_counter(&pt->eth_stats, "rx_corrected_bits_phy", 99999);	/* FEC at work */
	add_counter(&pt->eth_stats, "rx_err_lane_0_phy", 77);		/* the same, per lane */
	add_counter(&pt->eth_stats, "rx_packets_phy", 123456);
	pt = &m.inv.nics[5].ports[0];
	add_counter(&pt->eth_stats, "rx_symbol_err_lane_2_phy", 3);
	add_counter(&pt->eth_stats, "rx_pcs_symbol_err_phy_lane1", 2);
	add_counter(&pt->eth_stats, "rx_symbol_err_lane_phy", 5);		/* no lane number */
	add_counter(&pt->eth_stats, "rx_symbol_err_phy_total", 6);
	run(&m, NULL, &fs);
	expect(&fs, "counters.errors", "mlx5_4 port 1", SEV_WARN,
	       "ethtool rx_crc_errors_phy 1532, ethtool link_down_events_phy 4", NULL);
	assert_non_null(strstr(get(&fs, "counters.errors", "mlx5_4 port 1")->fix, "--window"));
	expect(&fs, "counters.errors", "mlx5_5 port 1", SEV_WARN,
	       "ethtool rx_symbol_err_lane_2_phy 3, ethtool rx_pcs_symbol_err_phy_lane1 2", NULL);
	assert_int_equal(count_id(&fs, "counters.errors"), 2);
	assert_string_equal(check_verdict(&fs), "warn");
	findings_free(&fs);
	/* which count an error rate per bit sums */
	assert_true(check_counter_is_bit_error("symbol_error", 0));
	assert_true(check_counter_is_bit_error("port_rcv_errors", 0));
	assert_false(check_counter_is_bit_error("link_downed", 0));
	assert_false(check_counter_is_bit_error("port_xmit_discards", 0));
	assert_true(check_counter_is_bit_error("rx_crc_errors_phy", 2));
	assert_true(check_counter_is_bit_error("rx_symbol_err_lane_0_phy", 2));
	assert_false(check_counter_is_bit_error("link_down_events_phy", 2));
	assert_false(check_counter_is_bit_error("rx_corrected_bits_phy", 2));
	machine_free(&m);
}

/* ---- gdr.* ------------------------------------------------------------- */

static void gdr_missing(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	const struct finding *f;
	(void)state;

	healthy(&m);
	m.inv.host.modules[MOD_NVIDIA_PEERMEM].loaded = false;
	run(&m, &p, &fs);
	f = expect(&fs, "gdr.missing", "host", SEV_ERROR, NULL, "nvidia_peermem loaded, or DMA-BUF (NVIDIA's open kernel modules on kernel 5.12 or later)");
	assert_non_null(strstr(f->observed, "4 A100-SXM4-80GB GPUs"));
	assert_non_null(strstr(f->fix, "modprobe nvidia_peermem"));
	findings_free(&fs);
	run(&m, NULL, &fs);
	expect(&fs, "gdr.missing", "host", SEV_WARN, NULL, NULL);
	findings_free(&fs);
	/* a profile that does without it */
	p.role[ROLE_RAIL].gpudirect = 0;
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "gdr.missing"), 0);
	findings_free(&fs);
	/* OFED's memory peer client, or the old module, is a path */
	m.inv.host.peermem_memory_peers = true;
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "gdr.missing"), 0);
	findings_free(&fs);
	m.inv.host.peermem_memory_peers = false;
	m.inv.host.modules[MOD_NV_PEER_MEM].loaded = true;
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "gdr.missing"), 0);
	findings_free(&fs);
	machine_free(&m);
}

static void gdr_unsupported(void **state)
{
	struct machine m;
	struct findings fs;
	(void)state;

	healthy(&m);
	m.inv.host.modules[MOD_NVIDIA_PEERMEM].loaded = false;
	for (size_t g = 0; g < m.inv.n_gpus; g++) {
		m.inv.gpus[g].kind = GPU_GEFORCE;
		m.inv.gpus[g].model = "GeForce RTX 4090";
	}
	run(&m, NULL, &fs);
	expect(&fs, "gdr.unsupported", "host", SEV_INFO, "4 GeForce RTX 4090 GPUs", NULL);
	/* GeForce only: no peer-memory module to miss */
	assert_int_equal(count_id(&fs, "gdr.missing"), 0);
	findings_free(&fs);
	machine_free(&m);
}

/* ---- topo.* ------------------------------------------------------------ */

static void topo_nic_far(void **state)
{
	struct machine m;
	struct profile p = a100_profile(), g = generic_profile();
	struct findings fs;
	struct nic *n;
	(void)state;

	healthy(&m);
	/* the rail NIC of GPU 3 on a socket-1 root port, far from every GPU */
	n = &m.inv.nics[3];
	pci_func_free(&n->pci);
	mkfunc(&n->pci, "sys/devices/pci0000:c0/0000:c0:01.0/0000:c1:00.0", 2);
	assert_int_equal(affinity_compute(&m.inv), 0);
	run(&m, &p, &fs);
	/* every GPU at the nearest distance is named (it named the first only) */
	expect(&fs, "topo.nic_far", "mlx5_3", SEV_ERROR,
	       "SYS to its nearest GPUs (0000:13:00.0 0000:23:00.0 0000:33:00.0 0000:43:00.0)",
	       "PXB or closer to a GPU");
	/* it still counts as a rail: no nic.count */
	assert_int_equal(count_id(&fs, "nic.count"), 0);
	/* GPU 3 now shares mlx5_2, the rail on its NUMA node (NODE): the GPU
	 * without a NIC of its own is the subject, not mlx5_2 */
	expect(&fs, "topo.nic_shared", "GPU 0000:43:00.0", SEV_WARN,
	       "no rail NIC of its own: its nearest rail NIC (mlx5_2, NODE) serves a GPU "
	       "nearer to it",
	       "a rail NIC under its own PCIe switch, at most 1 GPU per NIC");
	assert_int_equal(count_id(&fs, "topo.nic_shared"), 1);
	findings_free(&fs);
	/* grace trays and the generic profile have no placement rule */
	p.grace = true;
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "topo.nic_far"), 0);
	findings_free(&fs);
	run(&m, &g, &fs);
	assert_int_equal(count_id(&fs, "topo.nic_far"), 0);
	assert_int_equal(count_id(&fs, "topo.nic_shared"), 0);
	findings_free(&fs);
	machine_free(&m);
}

/* The budget build: one NIC for four GPUs. */
static void topo_nic_shared(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	(void)state;

	healthy(&m);
	for (size_t i = 1; i < 4; i++)
		nic_free(&m.inv.nics[i]);
	m.inv.nics[1] = m.inv.nics[4];
	m.inv.nics[2] = m.inv.nics[5];
	m.inv.n_nics = 3;
	assert_int_equal(affinity_compute(&m.inv), 0);
	p.role[ROLE_RAIL].count = 1;
	p.role[ROLE_RAIL].gpus_per_nic = 2;
	run(&m, &p, &fs);
	/* two may share it: the nearest two (PIX, NODE); the two across the
	 * sockets (SYS) have no NIC of their own */
	expect(&fs, "topo.nic_shared", "GPU 0000:33:00.0", SEV_WARN,
	       "no rail NIC of its own: its nearest rail NIC (mlx5_0, SYS) serves a GPU "
	       "nearer to it",
	       "a rail NIC under its own PCIe switch, at most 2 GPUs per NIC");
	expect(&fs, "topo.nic_shared", "GPU 0000:43:00.0", SEV_WARN, NULL, NULL);
	assert_int_equal(count_id(&fs, "topo.nic_shared"), 2);
	assert_int_equal(count_id(&fs, "topo.nic_far"), 0);
	findings_free(&fs);
	/* four GPUs alike near one NIC: the NIC is where they meet */
	for (size_t g = 0; g < m.inv.n_affinity; g++)
		m.inv.affinity[g].path = PATH_NODE;
	run(&m, &p, &fs);
	expect(&fs, "topo.nic_shared", "mlx5_0", SEV_WARN,
	       "4 GPUs: 0000:13:00.0 0000:23:00.0 0000:33:00.0 0000:43:00.0",
	       "at most 2 GPUs per NIC");
	assert_int_equal(count_id(&fs, "topo.nic_shared"), 1);
	findings_free(&fs);
	machine_free(&m);
}

/* DGX A100: two GPUs and two NICs under one switch, each GPU as near to
 * either NIC.  They pair up; neither NIC is shared. */
static void topo_pairs_under_one_switch(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	const char *sw = "sys/devices/pci0000:10/0000:10:01.0/0000:11:00.0";
	char path[256];
	(void)state;

	machine_init(&m);
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/0000:12:%02x.0/0000:%02x:00.0", sw, i, 0x13 + i);
		add_gpu(&m, path, 0);
	}
	for (int i = 0; i < 2; i++) {
		char name[16];

		snprintf(path, sizeof(path), "%s/0000:12:%02x.0/0000:%02x:00.0", sw, 8 + i, 0x15 + i);
		snprintf(name, sizeof(name), "mlx5_%d", i);
		add_nic(&m, name, path, 0, "ConnectX-6", "InfiniBand", 1, 200);
	}
	assert_int_equal(affinity_compute(&m.inv), 0);
	p.role[ROLE_RAIL].count = 2;
	p.role[ROLE_STORAGE].count = 0;
	run(&m, &p, &fs);
	if (fs.n)
		dump(&fs);
	assert_int_equal(fs.n, 0);
	findings_free(&fs);
	machine_free(&m);
}

/* ---- sys.* ------------------------------------------------------------- */

static void sys_job_memlock_self(void **state)
{
	struct machine m;
	struct findings fs;
	(void)state;

	healthy(&m);
	m.inv.host.memlock_unlimited = 0;
	m.inv.host.memlock_bytes = 65536;
	run(&m, NULL, &fs);
	expect(&fs, "sys.job_memlock", "host", SEV_WARN, "this process's RLIMIT_MEMLOCK is 65536 bytes", "unlimited");
	assert_non_null(strstr(get(&fs, "sys.job_memlock", "host")->fix, "LimitMEMLOCK=infinity"));
	findings_free(&fs);
	m.inv.host.memlock_unlimited = -1;	/* unknown: not checked (issue 29) */
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "sys.job_memlock"), 1);
	assert_true(expect(&fs, "sys.job_memlock", "host", SEV_INFO, NULL, "unlimited")->unchecked);
	findings_free(&fs);
	machine_free(&m);
}

static void sys_device_access_word(void **state)
{
	struct machine m;
	struct findings fs;
	(void)state;

	healthy(&m);
	free(m.inv.nics[1].uverbs_dev);
	m.inv.nics[1].uverbs_dev = strdup("missing");
	free(m.inv.nics[1].uverbs);
	m.inv.nics[1].uverbs = strdup("uverbs1");
	free(m.inv.nics[2].uverbs_dev);
	m.inv.nics[2].uverbs_dev = strdup("no access");
	free(m.inv.nics[3].uverbs_dev);
	m.inv.nics[3].uverbs_dev = NULL;
	free(m.inv.nics[4].uverbs_dev);
	m.inv.nics[4].uverbs_dev = NULL;
	run(&m, NULL, &fs);
	expect(&fs, "sys.device_access", "mlx5_1", SEV_ERROR, "/dev/infiniband/uverbs1 missing", NULL);
	expect(&fs, "sys.device_access", "mlx5_2", SEV_ERROR, "/dev/infiniband/uverbs0 not accessible to this check",
	       NULL);
	expect(&fs, "sys.device_access", "host", SEV_INFO, "not checked: /dev/infiniband for mlx5_3, mlx5_4",
	       NULL);
	assert_int_equal(count_id(&fs, "sys.device_access"), 3);
	findings_free(&fs);
	machine_free(&m);
}

/* The machine's /dev/infiniband and accounts, from the records and files a
 * snapshot keeps: uverbs0 of mlx5_0 as given, every other NIC's 0666, and
 * rdma_cm. */
static void give_nodes(struct machine *m, const char *uverbs0, const char *acl_rdma_cm)
{
	struct dev_access *a = calloc(1, sizeof(*a));

	assert_non_null(a);
	assert_int_equal(passwd_parse("root:x:0:0::/root:/bin/bash\nalice:x:1000:1000::/h:/bin/sh\n"
				      "bob:x:1001:1001::/h:/bin/sh\n", &a->accounts), 0);
	assert_int_equal(group_parse("root:x:0:\nalice:x:1000:\nbob:x:1001:\nrdma:x:998:alice\n",
				     &a->accounts), 0);
	a->nodes = calloc(m->inv.n_nics + 1, sizeof(*a->nodes));
	assert_non_null(a->nodes);
	for (size_t i = 0; i < m->inv.n_nics; i++) {
		struct dev_node *d = &a->nodes[a->n_nodes++];
		char name[32];

		snprintf(name, sizeof(name), "uverbs%zu", i);
		free(m->inv.nics[i].uverbs);
		m->inv.nics[i].uverbs = strdup(name);
		d->name = strdup(name);
		d->nic = strdup(m->inv.nics[i].name);
		assert_int_equal(devnode_record_parse(i ? "chr 0666 0 0 -" : uverbs0, d), 0);
		d->owner = strdup("root");
		d->group = strdup(d->gid == 998 ? "rdma" : "root");
	}
	a->nodes[a->n_nodes].name = strdup("rdma_cm");
	assert_int_equal(devnode_record_parse(acl_rdma_cm, &a->nodes[a->n_nodes]), 0);
	a->n_nodes++;
	m->inv.host.access = a;
}

static bool has_observed(const struct findings *fs, const char *id, const char *observed)
{
	for (size_t i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i].id, id) && !strcmp(fs->v[i].observed, observed))
			return true;
	dump(fs);
	return false;
}

static void run_site(const struct machine *m, const struct site *site, struct findings *fs)
{
	enum nic_role roles[8];

	memset(fs, 0, sizeof(*fs));
	check_roles(&m->inv, NULL, site, roles);
	assert_int_equal(check_run_site(&m->inv, NULL, site, roles, fs), 0);
}

static void sys_device_access(void **state)
{
	struct machine m;
	struct findings fs;
	struct site site = { 0 };
	(void)state;

	/* a udev rule gave uverbs0 to group rdma: closed to any user */
	healthy(&m);
	give_nodes(&m, "chr 0660 0 998 -", "chr 0666 0 0 -");
	run_site(&m, NULL, &fs);
	expect(&fs, "sys.device_access", "mlx5_0", SEV_ERROR, "/dev/infiniband/uverbs0 is "
	       "crw-rw---- root:rdma: any user cannot open it for reading and writing", NULL);
	assert_int_equal(count_id(&fs, "sys.device_access"), 1);
	findings_free(&fs);
	/* alice is in rdma (etc/group's member list): open to her jobs */
	site.job_user = (char *)"alice";
	run_site(&m, &site, &fs);
	assert_int_equal(count_id(&fs, "sys.device_access"), 0);
	findings_free(&fs);
	/* bob is not */
	site.job_user = (char *)"bob";
	run_site(&m, &site, &fs);
	expect(&fs, "sys.device_access", "mlx5_0", SEV_ERROR, NULL, "/dev/infiniband/uverbs0 "
	       "readable and writable by job user bob");
	findings_free(&fs);
	/* job_group = rdma alone: the group bits decide */
	site.job_user = NULL;
	site.job_group = (char *)"rdma";
	run_site(&m, &site, &fs);
	assert_int_equal(count_id(&fs, "sys.device_access"), 0);
	findings_free(&fs);
	/* a name the accounts lack: not checked, said once */
	site.job_group = NULL;
	site.job_user = (char *)"carol";
	run_site(&m, &site, &fs);
	assert_int_equal(count_id(&fs, "sys.device_access"), 1);
	assert_true(expect(&fs, "sys.device_access", "host", SEV_INFO, NULL, NULL)->unchecked);
	findings_free(&fs);
	/* root opens anything */
	site.job_user = (char *)"root";
	run_site(&m, &site, &fs);
	assert_int_equal(count_id(&fs, "sys.device_access"), 0);
	findings_free(&fs);
	machine_free(&m);

	/* an ACL naming bob (uid 1001) with the mask letting rw- through;
	 * rdma_cm root-only while the rails are open */
	healthy(&m);
	give_nodes(&m, "chr 0660 0 0 1:0:6,2:1001:6,4:0:6,10:0:6,20:0:0", "chr 0600 0 0 -");
	site.job_user = (char *)"bob";
	run_site(&m, &site, &fs);
	assert_null(get(&fs, "sys.device_access", "mlx5_0"));
	expect(&fs, "sys.device_access", "host", SEV_ERROR, "/dev/infiniband/rdma_cm is "
	       "crw------- 0:0: job user bob cannot open it for reading and writing", NULL);
	findings_free(&fs);
	/* the mask takes write away from bob's entry */
	machine_free(&m);
	healthy(&m);
	give_nodes(&m, "chr 0640 0 0 1:0:6,2:1001:6,4:0:6,10:0:4,20:0:0", "missing");
	run_site(&m, &site, &fs);
	expect(&fs, "sys.device_access", "mlx5_0", SEV_ERROR, NULL, NULL);
	assert_non_null(strstr(get(&fs, "sys.device_access", "mlx5_0")->observed, "crw-r-----+"));
	expect(&fs, "sys.device_access", "host", SEV_WARN, "/dev/infiniband/rdma_cm missing", NULL);
	findings_free(&fs);
	machine_free(&m);
}

static void sys_job_memlock(void **state)
{
	struct machine m;
	struct findings fs;
	struct site site = { 0 };
	struct job_memlock *jm;
	size_t cap = 0;
	(void)state;

	healthy(&m);
	give_nodes(&m, "chr 0666 0 0 -", "chr 0666 0 0 -");
	jm = &m.inv.host.access->memlock;
	/* slurmd's drop-in caps it; the later drop-in wins */
	jm->slurmd = 1;
	jm->slurmd_unit = strdup("lib/systemd/system/slurmd.service");
	assert_int_equal(unit_limit_parse("[Service]\nLimitMEMLOCK=infinity\n",
					  "etc/systemd/system/slurmd.service.d/a.conf", "Service",
					  "LimitMEMLOCK", &jm->slurmd_limit, NULL), 0);
	assert_int_equal(unit_limit_parse("[Service]\nLimitMEMLOCK=64K:8M\n",
					  "etc/systemd/system/slurmd.service.d/b.conf", "Service",
					  "LimitMEMLOCK", &jm->slurmd_limit, NULL), 0);
	/* every session 64 KiB, but group rdma unlimited */
	assert_int_equal(limits_conf_parse("*    hard  memlock  64\n*  soft memlock 64\n"
					   "@rdma  -  memlock  unlimited\n", "etc/security/limits.d/x.conf",
					   &jm->lines, &jm->n_lines, &cap), 0);
	run_site(&m, NULL, &fs);
	assert_true(has_observed(&fs, "sys.job_memlock", "slurmd's LimitMEMLOCK is 64 KiB soft, "
				 "8 MiB hard (etc/systemd/system/slurmd.service.d/b.conf:2): its jobs "
				 "get no more"));
	assert_true(has_observed(&fs, "sys.job_memlock",
				 "pam_limits gives any user a soft memlock of 64 KiB "
				 "(etc/security/limits.d/x.conf:2, \"* soft\") and a hard memlock of "
				 "64 KiB (etc/security/limits.d/x.conf:1, \"* hard\")"));
	assert_int_equal(count_id(&fs, "sys.job_memlock"), 2);
	findings_free(&fs);
	/* alice is in rdma: pam_limits gives her unlimited */
	site.job_user = (char *)"alice";
	run_site(&m, &site, &fs);
	assert_int_equal(count_id(&fs, "sys.job_memlock"), 1);
	findings_free(&fs);
	/* a unit that sets nothing: systemd's default */
	free(jm->slurmd_limit.source);
	memset(&jm->slurmd_limit, 0, sizeof(jm->slurmd_limit));
	run_site(&m, &site, &fs);
	assert_non_null(strstr(get(&fs, "sys.job_memlock", "host")->observed,
			       "sets no LimitMEMLOCK"));
	findings_free(&fs);
	/* a file that could not be read: not checked, with the reason */
	jm->slurmd = 0;
	jm->unreadable = strdup("etc/security/limits.d/y.conf: Permission denied");
	run_site(&m, &site, &fs);
	assert_true(expect(&fs, "sys.job_memlock", "host", SEV_INFO,
			   "not checked: etc/security/limits.d/y.conf: Permission denied",
			   NULL)->unchecked);
	findings_free(&fs);
	machine_free(&m);
}

/* ---- roce.* ------------------------------------------------------------ */

static void roce_ecn(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	struct qos *q;
	(void)state;

	healthy(&m);
	for (int i = 4; i < 6; i++) {
		q = calloc(1, sizeof(*q));
		for (int k = 0; k < 8; k++)
			q->pfc_enabled[k] = q->ecn_np[k] = q->ecn_rp[k] = -1;
		q->ecn_np[3] = i == 4 ? 0 : 1;
		q->ecn_rp[3] = 1;
		m.inv.nics[i].ports[0].qos = q;
	}
	run(&m, NULL, &fs);	/* generic: every NIC a rail, priority 3 */
	expect(&fs, "roce.ecn", "mlx5_4 port 1", SEV_WARN,
	       "ECN on priority 3: notification point off, reaction point on",
	       "notification and reaction point on for priority 3");
	assert_int_equal(count_id(&fs, "roce.ecn"), 1);
	findings_free(&fs);
	/* storage ports are not judged */
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "roce.ecn"), 0);
	findings_free(&fs);
	/* a RoCE rail profile on priority 5, which mlx5_5 leaves unknown */
	p.role[ROLE_RAIL].link_layer = S("Ethernet");
	p.role[ROLE_RAIL].model_family = NULL;
	p.role[ROLE_RAIL].placement = -1;
	p.role[ROLE_RAIL].count = -1;
	p.role[ROLE_RAIL].pfc_priority = 5;
	m.inv.nics[4].ports[0].qos->ecn_rp[5] = 0;
	m.inv.nics[4].ports[0].qos->ecn_np[5] = 1;
	run(&m, &p, &fs);
	expect(&fs, "roce.ecn", "mlx5_4 port 1", SEV_WARN,
	       "ECN on priority 5: notification point on, reaction point off", NULL);
	assert_int_equal(count_id(&fs, "roce.ecn"), 1);
	findings_free(&fs);
	/* ecn = 0: the profile does not want it */
	p.role[ROLE_RAIL].ecn = 0;
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "roce.ecn"), 0);
	findings_free(&fs);
	machine_free(&m);
}

/* ---- what the generic profile judges ------------------------------------ */

static void generic_profile_judges_what_needs_no_expectation(void **state)
{
	struct machine m;
	struct profile g = generic_profile();
	struct findings fs;
	struct nic *rxe;
	(void)state;

	healthy(&m);
	/* a Soft-RoCE device on a 1500-byte netdev without an IPv4 address */
	rxe = add_nic(&m, "rxe0", "sys/devices/pci0000:e0/0000:e0:01.0/0000:e1:00.0", 1,
		      "Soft-RoCE", "Ethernet", 1, 100);
	rxe->netdev_parent = strdup("mlx5_4_p1");
	rxe->ports[0].netdev_mtu = 1500;
	drop_ipv4_gids(&rxe->ports[0]);
	assert_int_equal(affinity_compute(&m.inv), 0);
	/* a far NIC and mixed counts: not judged without a profile */
	m.inv.nics[1].ports[0].rate_gbps = 25;
	run(&m, &g, &fs);
	expect(&fs, "mtu.roce", "rxe0 port 1", SEV_WARN, "netdev MTU 1500 (RDMA MTU 4096)", NULL);
	expect(&fs, "gid.rocev2_missing", "rxe0 port 1", SEV_WARN, NULL, NULL);
	assert_int_equal(count_id(&fs, "nic.count"), 0);
	assert_int_equal(count_id(&fs, "port.rate_low"), 0);
	assert_int_equal(count_id(&fs, "topo.nic_far"), 0);
	assert_int_equal(count_id(&fs, "topo.nic_shared"), 0);
	/* software devices share their parent's PCI function: not a second
	 * link to judge, and not a firmware to compare */
	assert_int_equal(count_id(&fs, "pcie.bottleneck"), 0);
	assert_int_equal(count_id(&fs, "fw.mixed"), 0);
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(healthy_is_silent),
		cmocka_unit_test(order_and_verdict),
		cmocka_unit_test(sorted_errors_id_subject),
		cmocka_unit_test(roles_generic_and_software),
		cmocka_unit_test(roles_placement_and_promotion),
		cmocka_unit_test(roles_name_order),
		cmocka_unit_test(nic_count),
		cmocka_unit_test(fw_mixed),
		cmocka_unit_test(fw_mixed_tie),
		cmocka_unit_test(port_down_and_no_sm),
		cmocka_unit_test(port_rate_low),
		cmocka_unit_test(port_width_low),
		cmocka_unit_test(pcie_link_degraded),
		cmocka_unit_test(pcie_upstream_degraded),
		cmocka_unit_test(pcie_bottleneck),
		cmocka_unit_test(pcie_bottleneck_gen3_card),
		cmocka_unit_test(pcie_bottleneck_data_rate),
		cmocka_unit_test(port_fec),
		cmocka_unit_test(pcie_acs),
		cmocka_unit_test(pcie_settings),
		cmocka_unit_test(roles_from_caller),
		cmocka_unit_test(mtu_ib_and_roce),
		cmocka_unit_test(mtu_rails_agree_ib),
		cmocka_unit_test(gid_rocev2_missing),
		cmocka_unit_test(gid_index_mismatch),
		cmocka_unit_test(counters_errors_and_saturated),
		cmocka_unit_test(counters_refused_before),
		cmocka_unit_test(counters_ethernet_phy),
		cmocka_unit_test(gdr_missing),
		cmocka_unit_test(gdr_unsupported),
		cmocka_unit_test(topo_nic_far),
		cmocka_unit_test(topo_nic_shared),
		cmocka_unit_test(topo_pairs_under_one_switch),
		cmocka_unit_test(sys_job_memlock_self),
		cmocka_unit_test(sys_device_access_word),
		cmocka_unit_test(sys_device_access),
		cmocka_unit_test(sys_job_memlock),
		cmocka_unit_test(roce_ecn),
		cmocka_unit_test(generic_profile_judges_what_needs_no_expectation),
	};

	return cmocka_run_group_tests_name("check", tests, NULL, NULL);
}
