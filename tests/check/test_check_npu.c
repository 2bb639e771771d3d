/* The NPU RoCE ports of an Ascend machine (src/check/npu.c), on NPU
 * inventories built the way model/npu.h holds them: a port down, a port
 * below the profile's rate (at it is no finding), hccn_tool's net health
 * (Init counts as healthy, as Huawei's exporter counts it), the address
 * against /etc/hccn.conf's plan, and NPUs whose ports nobody read, which
 * fail rather than pass as a machine without RDMA. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check/families.h"

#define N 4

struct box {
	struct inventory inv;
	struct npu npus[N];
	struct profile p;
};

/* N healthy NPUs: port up at 200G, net health Success, the address the
 * plan names; a profile of 200 Gb/s a port, no PFC priority. */
static void box_init(struct box *b)
{
	static const char *const ips[N] = { "192.168.1.10", "192.168.1.11", "192.168.1.12",
					    "192.168.1.13" };

	memset(b, 0, sizeof(*b));
	for (size_t i = 0; i < N; i++) {
		struct npu *u = &b->npus[i];

		u->id = (int64_t)i;
		u->card = u->die = NA;
		npu_port_init(&u->port);
		u->port_read = true;
		u->port.link_up = 1;
		u->port.speed_mbps = 200000;
		u->port.net_health = (char *)"Success";
		u->port.ipaddr = u->plan.address = (char *)ips[i];
		u->port.netmask = u->plan.netmask = (char *)"255.255.255.0";
	}
	b->inv.npu.v = b->npus;
	b->inv.npu.n = b->inv.npu.n_pci = N;
	b->p.npu.rate_gbps = 200;
	b->p.npu.pfc_priority = -1;
}

static void judge(struct box *b, struct findings *fs)
{
	struct check_ctx c = { .inv = &b->inv, .p = &b->p };

	memset(fs, 0, sizeof(*fs));
	assert_int_equal(check_npu(&c, fs), 0);
}

static const struct finding *one(const struct findings *fs, const char *id, const char *subject)
{
	const struct finding *hit = NULL;

	for (size_t i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i].id, id) && !strcmp(fs->v[i].subject, subject)) {
			assert_null(hit);
			hit = &fs->v[i];
		}
	if (!hit)
		fail_msg("no %s about %s among %zu findings", id, subject, fs->n);
	return hit;
}

static void healthy_is_silent(void **state)
{
	struct box b;
	struct findings fs;
	(void)state;

	box_init(&b);
	judge(&b, &fs);
	assert_int_equal(fs.n, 0);
	findings_free(&fs);
}

static void down_and_slow(void **state)
{
	struct box b;
	struct findings fs;
	const struct finding *f;
	(void)state;

	box_init(&b);
	b.npus[0].port.link_up = 0;
	b.npus[1].port.speed_mbps = 100000;
	b.npus[2].port.speed_mbps = 199999;
	b.npus[3].port.speed_mbps = NA;		/* unknown: not judged */
	judge(&b, &fs);
	f = one(&fs, "port.down", "npu0");
	assert_int_equal(f->severity, SEV_ERROR);
	assert_string_equal(f->observed, "link status DOWN");
	f = one(&fs, "port.rate_low", "npu1");
	assert_string_equal(f->observed, "100000 Mb/s");
	assert_string_equal(f->expected, "200 Gb/s (200000 Mb/s)");
	one(&fs, "port.rate_low", "npu2");
	assert_int_equal(fs.n, 3);
	findings_free(&fs);

	/* no rate in the profile: nothing to judge a speed by */
	b.p.npu.rate_gbps = 0;
	judge(&b, &fs);
	assert_int_equal(fs.n, 1);
	findings_free(&fs);
}

static void net_health(void **state)
{
	struct box b;
	struct findings fs;
	const struct finding *f;
	(void)state;

	box_init(&b);
	b.npus[1].port.net_health = (char *)"Init";
	b.npus[2].port.net_health = (char *)"Fault";
	b.npus[2].plan.netdetect = (char *)"192.168.1.1";
	judge(&b, &fs);
	f = one(&fs, "npu.net_health", "npu2");
	assert_int_equal(f->severity, SEV_ERROR);
	assert_string_equal(f->observed, "net health status: Fault (detect address 192.168.1.1)");
	assert_int_equal(fs.n, 1);
	findings_free(&fs);
}

/* No address; another than the plan's; the plan's address under another
 * mask; nothing planned: any address will do. */
static void addresses(void **state)
{
	struct box b;
	struct findings fs;
	const struct finding *f;
	(void)state;

	box_init(&b);
	b.npus[0].port.ipaddr = NULL;
	b.npus[0].port.ip_unset = true;
	b.npus[1].port.ipaddr = (char *)"192.168.1.99";
	b.npus[2].port.netmask = (char *)"255.255.0.0";
	b.npus[3].plan.address = b.npus[3].plan.netmask = NULL;
	b.npus[3].port.ipaddr = (char *)"10.9.9.9";
	judge(&b, &fs);
	f = one(&fs, "npu.ip_missing", "npu0");
	assert_string_equal(f->observed, "no IP address on the NPU port");
	assert_string_equal(f->expected, "192.168.1.10/255.255.255.0 (/etc/hccn.conf)");
	f = one(&fs, "npu.ip_missing", "npu1");
	assert_string_equal(f->observed, "192.168.1.99/255.255.255.0");
	f = one(&fs, "npu.ip_missing", "npu2");
	assert_string_equal(f->observed, "192.168.1.12/255.255.0.0");
	assert_int_equal(fs.n, 3);
	findings_free(&fs);
}

/* NPUs listed, none of their ports read: npu.unreadable fails the node. */
static void none_readable(void **state)
{
	struct box b;
	struct findings fs;
	const struct finding *f;
	(void)state;

	box_init(&b);
	for (size_t i = 0; i < N; i++)
		b.npus[i].port_read = false;
	b.inv.npu.n_pci = 8;
	judge(&b, &fs);
	f = one(&fs, "npu.unreadable", "NPUs");
	assert_int_equal(f->severity, SEV_ERROR);
	assert_string_equal(f->observed, "8 Ascend NPU PCI functions, 4 NPUs listed by npu-smi, "
			    "no NPU port read");
	assert_int_equal(fs.n, 1);
	findings_free(&fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(healthy_is_silent),
		cmocka_unit_test(down_and_slow),
		cmocka_unit_test(net_health),
		cmocka_unit_test(addresses),
		cmocka_unit_test(none_readable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
