/* GPU x NIC classification against the cases `nvidia-smi topo -m` shows
 * (the PCI tree under /sys/devices, as nvidia-smi topo -m reads it). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/affinity.h"
#include "sysfs/parse.h"

/* A device from its sysfs path; every bridge above it gets vendor:device
 * bridge_vendor:bridge_device. */
static struct pci_func dev(const char *path, int numa, int64_t bv, int64_t bd)
{
	struct pci_func f = { 0 };
	char *copy = strdup(path), *save = NULL;
	size_t n = 0;

	f.sysfs_path = strdup(path);
	f.numa_node = numa;
	f.vendor = f.device = NA;
	f.upstream = calloc(16, sizeof(*f.upstream));
	for (char *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (!is_bdf(c))
			continue;
		f.upstream[n].bdf = strdup(c);
		f.upstream[n].vendor = bv;
		f.upstream[n].device = bd;
		n++;
	}
	/* the last one is the device itself */
	f.bdf = f.upstream[n - 1].bdf;
	f.upstream[n - 1].bdf = NULL;
	f.n_upstream = n - 1;
	free(copy);
	return f;
}

static void put_dev(struct pci_func *f)
{
	free(f->bdf);
	for (size_t i = 0; i < 16; i++)
		free(f->upstream[i].bdf);
	free(f->upstream);
	free(f->sysfs_path);
}

#define R "sys/devices/pci0000:17/0000:17:01.0"

static void classify(void **state)
{
	struct pci_func gpu_sw = dev(R "/0000:18:00.0/0000:19:08.0/0000:1a:00.0", 0, 0x10b5, 1);
	struct pci_func nic_sw = dev(R "/0000:18:00.0/0000:19:0c.0/0000:1b:00.0", 0, 0x10b5, 1);
	struct pci_func nic_rp = dev(R "/0000:20:00.0", 0, NA, NA);
	struct pci_func nic_rp1 = dev(R "/0000:20:00.1", 0, NA, NA);
	struct pci_func other_rp = dev("sys/devices/pci0000:17/0000:17:02.0/0000:30:00.0", 0, NA, NA);
	struct pci_func node = dev("sys/devices/pci0000:5d/0000:5d:01.0/0000:5e:00.0", 0, NA, NA);
	struct pci_func sys = dev("sys/devices/pci0000:97/0000:97:01.0/0000:98:00.0", 1, NA, NA);
	struct pci_func deep = dev(R "/0000:18:00.0/0000:19:10.0/0000:40:00.0/0000:41:00.0/0000:42:00.0",
				   0, 0x10b5, 1);
	(void)state;

	/* GPU and NIC on two downstream ports of one switch */
	assert_int_equal(affinity_classify(&gpu_sw, &nic_sw), PATH_PIX);
	/* the two functions of a dual-port card under one root port */
	assert_int_equal(affinity_classify(&nic_rp, &nic_rp1), PATH_PIX);
	/* switch below the root port vs a card on the root port itself */
	assert_int_equal(affinity_classify(&gpu_sw, &nic_rp), PATH_PXB);
	/* a second switch level */
	assert_int_equal(affinity_classify(&gpu_sw, &deep), PATH_PXB);
	/* two root ports of one host bridge */
	assert_int_equal(affinity_classify(&gpu_sw, &other_rp), PATH_PHB);
	/* another host bridge, same NUMA node; then another socket */
	assert_int_equal(affinity_classify(&gpu_sw, &node), PATH_NODE);
	assert_int_equal(affinity_classify(&gpu_sw, &sys), PATH_SYS);
	assert_int_equal(affinity_classify(&gpu_sw, &gpu_sw), PATH_X);
	/* NUMA node unknown on both sides is not "the same node" */
	node.numa_node = NA;
	gpu_sw.numa_node = NA;
	assert_int_equal(affinity_classify(&gpu_sw, &node), PATH_SYS);

	put_dev(&gpu_sw);
	put_dev(&nic_sw);
	put_dev(&nic_rp);
	put_dev(&nic_rp1);
	put_dev(&other_rp);
	put_dev(&node);
	put_dev(&sys);
	put_dev(&deep);
}

/* A Broadcom PEX switch enumerates as two levels (a downstream port
 * leading into an internal upstream port); NCCL and nvidia-smi still call
 * a GPU on the inner level and a NIC on the outer one PIX.  The same shape
 * made of two real switches is PXB. */
static void broadcom_two_level(void **state)
{
	struct pci_func gpu = dev(R "/0000:18:00.0/0000:19:00.0/0000:1a:00.0/0000:1b:01.0/0000:1c:00.0",
				  0, 0x1000, 0xc030);
	struct pci_func nic = dev(R "/0000:18:00.0/0000:19:04.0/0000:1d:00.0", 0, 0x1000, 0xc030);
	struct pci_func gpu_plx = dev(R "/0000:18:00.0/0000:19:00.0/0000:1a:00.0/0000:1b:01.0/0000:1c:00.0",
				      0, 0x10b5, 1);
	struct pci_func nic_plx = dev(R "/0000:18:00.0/0000:19:04.0/0000:1d:00.0", 0, 0x10b5, 1);
	(void)state;

	assert_int_equal(affinity_classify(&gpu, &nic), PATH_PIX);
	assert_int_equal(affinity_classify(&gpu_plx, &nic_plx), PATH_PXB);
	put_dev(&gpu);
	put_dev(&nic);
	put_dev(&gpu_plx);
	put_dev(&nic_plx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(classify),
		cmocka_unit_test(broadcom_two_level),
	};

	return cmocka_run_group_tests_name("affinity", tests, NULL, NULL);
}
