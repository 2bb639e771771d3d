/* Readers of what a check needs beyond the inventory basics: the ACS walk
 * over PCI config bytes, binary reads through the root (and their tape),
 * config space as a non-root reader sees it, MLNX_OFED ECN files, the
 * uverbs device map and the NVIDIA driver flavour. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/inventory.h"
#include "sysfs/ib.h"
#include "sysfs/net.h"
#include "sysfs/parse.h"
#include "sysfs/pci.h"
#include "sysfs/pci_config.h"
#include "sysfs/root.h"
#include "sysfs/tape.h"

/* ---- config space bytes ------------------------------------------------ */

static void put32(uint8_t *cfg, size_t off, uint32_t v)
{
	cfg[off] = (uint8_t)v;
	cfg[off + 1] = (uint8_t)(v >> 8);
	cfg[off + 2] = (uint8_t)(v >> 16);
	cfg[off + 3] = (uint8_t)(v >> 24);
}

static void ext(uint8_t *cfg, size_t off, uint16_t id, uint32_t next)
{
	put32(cfg, off, (uint32_t)id | 1u << 16 | next << 20);
}

/* AER at 0x100 -> ACS at 0x148 (control ctl) -> Secondary PCIe at 0x150 */
static void bridge_cfg(uint8_t cfg[4096], uint16_t ctl)
{
	memset(cfg, 0, 4096);
	cfg[0] = 0xb5;
	cfg[1] = 0x10;
	ext(cfg, 0x100, 0x0001, 0x148);
	ext(cfg, 0x148, PCI_EXT_CAP_ID_ACS, 0x150);
	cfg[0x14c] = 0x1f;
	cfg[0x14e] = (uint8_t)ctl;
	cfg[0x14f] = (uint8_t)(ctl >> 8);
	ext(cfg, 0x150, 0x0019, 0);
}

static void acs_found(void **state)
{
	uint8_t cfg[4096];
	uint16_t ctl = 0;
	(void)state;

	bridge_cfg(cfg, 0x001d);
	assert_int_equal(pci_config_ext_cap(cfg, sizeof(cfg), PCI_EXT_CAP_ID_ACS), 0x148);
	assert_int_equal(pci_config_acs_ctrl(cfg, sizeof(cfg), &ctl), 0);
	assert_int_equal(ctl, 0x001d);
	bridge_cfg(cfg, 0x0000);
	assert_int_equal(pci_config_acs_ctrl(cfg, sizeof(cfg), &ctl), 0);
	assert_int_equal(ctl, 0);
	/* high byte too: little-endian */
	bridge_cfg(cfg, 0x0140);
	assert_int_equal(pci_config_acs_ctrl(cfg, sizeof(cfg), &ctl), 0);
	assert_int_equal(ctl, 0x0140);
	/* ACS first in the chain */
	memset(cfg, 0, sizeof(cfg));
	ext(cfg, 0x100, PCI_EXT_CAP_ID_ACS, 0);
	cfg[0x106] = 0x0c;
	assert_int_equal(pci_config_acs_ctrl(cfg, sizeof(cfg), &ctl), 0);
	assert_int_equal(ctl, 0x000c);
}

static void acs_short_buffers(void **state)
{
	uint8_t cfg[4096];
	uint16_t ctl = 0xabcd;
	(void)state;

	bridge_cfg(cfg, 0x001d);
	/* what a read without CAP_SYS_ADMIN gets, and conventional PCI */
	assert_int_equal(pci_config_acs_ctrl(cfg, 0, &ctl), -ENODATA);
	assert_int_equal(pci_config_acs_ctrl(cfg, 64, &ctl), -ENODATA);
	assert_int_equal(pci_config_acs_ctrl(cfg, 256, &ctl), -ENODATA);
	assert_int_equal(pci_config_acs_ctrl(cfg, 0x103, &ctl), -ENODATA);
	/* the chain leaves the buffer before ACS */
	assert_int_equal(pci_config_acs_ctrl(cfg, 0x148, &ctl), -ENODATA);
	/* the ACS header is there but its control register is not */
	assert_int_equal(pci_config_acs_ctrl(cfg, 0x14e, &ctl), -ENODATA);
	assert_int_equal(pci_config_acs_ctrl(cfg, 0x14f, &ctl), -ENODATA);
	assert_int_equal(pci_config_acs_ctrl(cfg, 0x150, &ctl), 0);
	assert_int_equal(ctl, 0x001d);
	/* ACS in the last dword of the 4 KiB: control would be past the end */
	memset(cfg, 0, sizeof(cfg));
	ext(cfg, 0x100, 0x0001, 0xffc);
	ext(cfg, 0xffc, PCI_EXT_CAP_ID_ACS, 0);
	ctl = 0xabcd;
	assert_int_equal(pci_config_acs_ctrl(cfg, sizeof(cfg), &ctl), -ENODATA);
	assert_int_equal(ctl, 0xabcd);
}

/* An endpoint: status has the capability list; PM at 0x40 -> PCIe at 0x60
 * (DevCap 0x8022: MPS 512 supported, ExtTag+; DevCtl devctl); AER at 0x100
 * -> ATS at 0x140 (control atsctl). */
static void endpoint_cfg(uint8_t cfg[4096], uint16_t devctl, uint16_t atsctl)
{
	memset(cfg, 0, 4096);
	cfg[0x06] = 0x10;
	cfg[0x34] = 0x40;
	cfg[0x40] = 0x01;
	cfg[0x41] = 0x60;
	cfg[0x60] = 0x10;
	cfg[0x61] = 0x00;
	cfg[0x62] = 0x02;		/* v2, endpoint */
	put32(cfg, 0x64, 0x00008022);
	cfg[0x68] = (uint8_t)devctl;
	cfg[0x69] = (uint8_t)(devctl >> 8);
	ext(cfg, 0x100, 0x0001, 0x140);
	ext(cfg, 0x140, PCI_EXT_CAP_ID_ATS, 0);
	cfg[0x146] = (uint8_t)atsctl;
	cfg[0x147] = (uint8_t)(atsctl >> 8);
}

static void exp_dev_decoded(void **state)
{
	uint8_t cfg[4096];
	struct pcie_settings d;
	(void)state;

	/* RlxdOrd+ ExtTag+ MaxPayload 256, MaxReadReq 4096; ATS Enable+ STU 0x0c */
	endpoint_cfg(cfg, 0x5130, 0x800c);
	assert_int_equal(pci_config_exp_cap(cfg, sizeof(cfg)), 0x60);
	assert_int_equal(pci_config_exp_dev(cfg, sizeof(cfg), &d), 0);
	assert_int_equal(d.express, 1);
	assert_int_equal(d.mps_cap, 512);
	assert_int_equal(d.ext_tag_cap, 1);
	assert_int_equal(d.mps, 256);
	assert_int_equal(d.mrrs, 4096);
	assert_int_equal(d.relaxed_ordering, 1);
	assert_int_equal(d.ext_tag, 1);
	assert_int_equal(d.ats, 1);
	assert_int_equal(d.ats_enable, 1);
	assert_int_equal(d.ats_stu, 0x0c);
	/* everything off; reserved encodings print as lspci does (128 << 7) */
	endpoint_cfg(cfg, 0x70e0, 0x0000);
	assert_int_equal(pci_config_exp_dev(cfg, sizeof(cfg), &d), 0);
	assert_int_equal(d.mps, 16384);
	assert_int_equal(d.mrrs, 16384);
	assert_int_equal(d.relaxed_ordering, 0);
	assert_int_equal(d.ext_tag, 0);
	assert_int_equal(d.ats_enable, 0);
	assert_int_equal(d.ats_stu, 0);
	/* no ATS in the chain */
	endpoint_cfg(cfg, 0x2000, 0);
	ext(cfg, 0x100, 0x0001, 0);
	assert_int_equal(pci_config_exp_dev(cfg, sizeof(cfg), &d), 0);
	assert_int_equal(d.mrrs, 512);
	assert_int_equal(d.ats, 0);
	assert_int_equal(d.ats_enable, -1);
}

static void exp_dev_short(void **state)
{
	uint8_t cfg[4096];
	struct pcie_settings d;
	(void)state;

	endpoint_cfg(cfg, 0x5130, 0x800c);
	/* without root: 64 bytes, everything unknown, never zeros */
	assert_int_equal(pci_config_exp_dev(cfg, 64, &d), -ENODATA);
	assert_int_equal(d.express, -1);
	assert_int_equal(d.mps, -1);
	assert_int_equal(d.mrrs, -1);
	assert_int_equal(d.relaxed_ordering, -1);
	assert_int_equal(d.ats, -1);
	assert_int_equal(pci_config_exp_dev(cfg, 0, &d), -ENODATA);
	/* the list reaches the PCIe capability but lspci's 16 bytes after
	 * its header are not all there */
	assert_int_equal(pci_config_exp_dev(cfg, 0x73, &d), -ENODATA);
	assert_int_equal(d.express, 1);
	assert_int_equal(d.mps, -1);
	assert_int_equal(pci_config_exp_dev(cfg, 0x74, &d), 0);
	assert_int_equal(d.mps, 256);
	/* conventional 256 bytes: DevCtl known, ATS not */
	assert_int_equal(pci_config_exp_dev(cfg, 256, &d), 0);
	assert_int_equal(d.mrrs, 4096);
	assert_int_equal(d.ats, -1);
	/* the ATS header there, its control word not */
	assert_int_equal(pci_config_exp_dev(cfg, 0x147, &d), 0);
	assert_int_equal(d.ats, -1);
	assert_int_equal(pci_config_exp_dev(cfg, 0x148, &d), 0);
	assert_int_equal(d.ats, 1);
}

static void exp_dev_malformed(void **state)
{
	uint8_t cfg[4096];
	struct pcie_settings d;
	(void)state;

	/* no capability list bit: conventional, nothing to decode */
	endpoint_cfg(cfg, 0x5130, 0);
	cfg[0x06] = 0;
	assert_int_equal(pci_config_exp_dev(cfg, sizeof(cfg), &d), -ENOENT);
	assert_int_equal(d.express, 0);
	assert_int_equal(d.ats, 0);
	assert_int_equal(d.mps, -1);
	/* a loop: PM points to itself */
	endpoint_cfg(cfg, 0x5130, 0);
	cfg[0x41] = 0x40;
	assert_int_equal(pci_config_exp_cap(cfg, sizeof(cfg)), -ENOENT);
	/* a loop through two capabilities, pointer low bits ignored */
	cfg[0x41] = 0x63;
	cfg[0x60] = 0x05;
	cfg[0x61] = 0x40;
	assert_int_equal(pci_config_exp_cap(cfg, sizeof(cfg)), -ENOENT);
	/* id 0xff breaks the list */
	endpoint_cfg(cfg, 0x5130, 0);
	cfg[0x40] = 0xff;
	assert_int_equal(pci_config_exp_cap(cfg, sizeof(cfg)), -ENOENT);
	/* a pointer past the end of what was read */
	endpoint_cfg(cfg, 0x5130, 0);
	cfg[0x41] = 0xfc;
	assert_int_equal(pci_config_exp_cap(cfg, 0xfe), -ENODATA);
	assert_int_equal(pci_config_exp_cap(cfg, sizeof(cfg)), -ENOENT);
	/* PCIe capability in the last dword of conventional space: DevCap
	 * would be past it */
	endpoint_cfg(cfg, 0x5130, 0);
	cfg[0x41] = 0xfc;
	cfg[0xfc] = 0x10;
	assert_int_equal(pci_config_exp_dev(cfg, 256, &d), -ENODATA);
	assert_int_equal(d.mps, -1);
	/* extended chain loops before ATS: absent, as lspci's <chain looped> */
	endpoint_cfg(cfg, 0x5130, 0x8000);
	ext(cfg, 0x100, 0x0001, 0x100);
	assert_int_equal(pci_config_exp_dev(cfg, sizeof(cfg), &d), 0);
	assert_int_equal(d.ats, 0);
	/* an all-ones header (a device gone) points to 0xffc, whose zero header ends it */
	put32(cfg, 0x100, 0xffffffffu);
	assert_int_equal(pci_config_exp_dev(cfg, sizeof(cfg), &d), 0);
	assert_int_equal(d.ats, 0);
	/* ATS in the last dword: its control word is past the end */
	endpoint_cfg(cfg, 0x5130, 0);
	ext(cfg, 0x100, 0x0001, 0xffc);
	ext(cfg, 0xffc, PCI_EXT_CAP_ID_ATS, 0);
	assert_int_equal(pci_config_exp_dev(cfg, sizeof(cfg), &d), 0);
	assert_int_equal(d.ats, -1);
}

static void acs_absent(void **state)
{
	uint8_t cfg[4096];
	uint16_t ctl;
	(void)state;

	/* no extended capabilities at all */
	memset(cfg, 0, sizeof(cfg));
	assert_int_equal(pci_config_acs_ctrl(cfg, sizeof(cfg), &ctl), -ENOENT);
	/* a device that went away reads all ones */
	memset(cfg, 0xff, sizeof(cfg));
	assert_int_equal(pci_config_acs_ctrl(cfg, sizeof(cfg), &ctl), -ENOENT);
	/* a chain without ACS (a switch upstream port) */
	memset(cfg, 0, sizeof(cfg));
	ext(cfg, 0x100, 0x0001, 0x150);
	ext(cfg, 0x150, 0x0019, 0x180);
	ext(cfg, 0x180, 0x0026, 0);
	assert_int_equal(pci_config_acs_ctrl(cfg, sizeof(cfg), &ctl), -ENOENT);
	/* a next pointer back into conventional space ends the chain */
	ext(cfg, 0x100, 0x0001, 0x040);
	cfg[0x40] = 0x0d;	/* looks like an ACS id, but not in extended space */
	assert_int_equal(pci_config_acs_ctrl(cfg, sizeof(cfg), &ctl), -ENOENT);
	/* a zero header in the middle */
	memset(cfg, 0, sizeof(cfg));
	ext(cfg, 0x100, 0x0001, 0x200);
	assert_int_equal(pci_config_acs_ctrl(cfg, sizeof(cfg), &ctl), -ENOENT);
}

static void acs_loops(void **state)
{
	uint8_t cfg[4096];
	uint16_t ctl;
	(void)state;

	/* a capability pointing at itself */
	memset(cfg, 0, sizeof(cfg));
	ext(cfg, 0x100, 0x0001, 0x100);
	assert_int_equal(pci_config_acs_ctrl(cfg, sizeof(cfg), &ctl), -ENOENT);
	/* two pointing at each other */
	ext(cfg, 0x100, 0x0001, 0x200);
	ext(cfg, 0x200, 0x0019, 0x100);
	assert_int_equal(pci_config_acs_ctrl(cfg, sizeof(cfg), &ctl), -ENOENT);
	/* a chain of 70 distinct capabilities: the walk gives up at 64 hops,
	 * so an ACS at the end is not reached */
	memset(cfg, 0, sizeof(cfg));
	for (int i = 0; i < 70; i++)
		ext(cfg, 0x100 + (size_t)i * 8, 0x0001, 0x100 + (uint32_t)(i + 1) * 8);
	ext(cfg, 0x100 + 70 * 8, PCI_EXT_CAP_ID_ACS, 0);
	assert_int_equal(pci_config_acs_ctrl(cfg, sizeof(cfg), &ctl), -ENOENT);
	/* ... and one within 64 is */
	ext(cfg, 0x100 + 10 * 8, PCI_EXT_CAP_ID_ACS, 0);
	assert_int_equal(pci_config_ext_cap(cfg, sizeof(cfg), PCI_EXT_CAP_ID_ACS),
			 0x100 + 10 * 8);
}

static void acs_misaligned(void **state)
{
	uint8_t cfg[4096];
	uint16_t ctl = 0;
	(void)state;

	/* the kernel drops the low two bits of a next pointer: 0x14b is 0x148 */
	bridge_cfg(cfg, 0x001d);
	ext(cfg, 0x100, 0x0001, 0x14b);
	assert_int_equal(pci_config_acs_ctrl(cfg, sizeof(cfg), &ctl), 0);
	assert_int_equal(ctl, 0x001d);
	/* the largest pointer (0xfff -> 0xffc) stays inside 4 KiB */
	memset(cfg, 0, sizeof(cfg));
	ext(cfg, 0x100, 0x0001, 0xfff);
	ext(cfg, 0xffc, 0x0019, 0);
	assert_int_equal(pci_config_acs_ctrl(cfg, sizeof(cfg), &ctl), -ENOENT);
}

static void acs_long_buffer(void **state)
{
	static uint8_t big[8192];
	uint16_t ctl;
	(void)state;

	/* bytes past 4 KiB are never config space */
	memset(big, 0, sizeof(big));
	ext(big, 0x100, 0x0001, 0xffc);
	ext(big, 0xffc, PCI_EXT_CAP_ID_ACS, 0);
	big[0x1002] = 0x1d;
	assert_int_equal(pci_config_acs_ctrl(big, sizeof(big), &ctl), -ENODATA);
}

/* ---- NVIDIA driver flavour ---------------------------------------------- */

static void nvidia_flavour(void **state)
{
	(void)state;
	assert_int_equal(parse_nvidia_version_open(
		"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  "
		"Release Build  (dvs-builder@U16-I3-B03-4-3)  Thu Sep 25 22:47:19 UTC 2025\n"
		"GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n"), 1);
	assert_int_equal(parse_nvidia_version_open(
		"NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.135  "
		"Tue Nov 12 23:03:34 UTC 2024\nGCC version:  gcc version 11.4.0\n"), 0);
	/* aarch64 spells its architecture first too */
	assert_int_equal(parse_nvidia_version_open(
		"NVRM version: NVIDIA UNIX aarch64 Kernel Module  535.183.06  Wed Jun 26\n"), 0);
	assert_int_equal(parse_nvidia_version_open(""), -EINVAL);
	assert_int_equal(parse_nvidia_version_open("NVRM version: something else\n"), -EINVAL);
	/* only the first line counts */
	assert_int_equal(parse_nvidia_version_open(
		"NVRM version: ?\nGCC: Open Kernel Module \n"), -EINVAL);
	assert_int_equal(parse_nvidia_version_open(
		"GCC version: NVIDIA UNIX x86_64 Kernel Module  1\n"), -EINVAL);
}

/* ---- through a root ------------------------------------------------------ */

static char tmpl[64];

#define BRIDGE "sys/devices/pci0000:00/0000:00:01.0"
#define DSP BRIDGE "/0000:01:00.0/0000:02:00.0"
#define NIC DSP "/0000:03:00.0"

static void put_bytes(const char *path, const void *data, size_t len)
{
	char full[512];
	FILE *f;

	snprintf(full, sizeof(full), "%s/%s", tmpl, path);
	for (char *s = full + strlen(tmpl) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(full, 0755);
		*s = '/';
	}
	f = fopen(full, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void put(const char *path, const char *text)
{
	put_bytes(path, text, strlen(text));
}

static void mkdirs(const char *path)
{
	char full[512];

	snprintf(full, sizeof(full), "%s/%s/x", tmpl, path);
	for (char *s = full + strlen(tmpl) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(full, 0755);
		*s = '/';
	}
}

static int setup(void **state)
{
	uint8_t cfg[4096];
	(void)state;

	strcpy(tmpl, "/tmp/rdreaders-XXXXXX");
	if (!mkdtemp(tmpl))
		return -1;
	/* a root port as root reads it, a switch upstream port without ACS,
	 * a downstream port as a non-root reader sees it (64 bytes) */
	bridge_cfg(cfg, 0x001d);
	put_bytes(BRIDGE "/config", cfg, sizeof(cfg));
	memset(cfg, 0, sizeof(cfg));
	ext(cfg, 0x100, 0x0001, 0);
	put_bytes(BRIDGE "/0000:01:00.0/config", cfg, sizeof(cfg));
	bridge_cfg(cfg, 0x001d);
	put_bytes(DSP "/config", cfg, 64);
	put(NIC "/vendor", "0x15b3\n");
	put(NIC "/config", "\x10\xde");

	/* ECN: np with every case, rp absent */
	put("sys/class/net/eth0/ecn/roce_np/enable/0", "0\n");
	put("sys/class/net/eth0/ecn/roce_np/enable/1", "");	/* query failed */
	put("sys/class/net/eth0/ecn/roce_np/enable/2", "2\n");	/* malformed */
	put("sys/class/net/eth0/ecn/roce_np/enable/3", "1\n");
	put("sys/class/net/eth0/ecn/roce_np/enable/4", "0\n");
	put("sys/class/net/eth0/ecn/roce_np/enable/5", "0\n");
	put("sys/class/net/eth0/ecn/roce_np/enable/6", "0\n");
	/* 7 absent */
	mkdirs("sys/class/net/eth1");

	/* uverbs: numbering unrelated to names, one device without an entry */
	mkdirs("sys/class/infiniband/mlx5_0");
	mkdirs("sys/class/infiniband/mlx5_1");
	mkdirs("sys/class/infiniband/rxe0");
	put("sys/class/infiniband_verbs/abi_version", "6\n");
	put("sys/class/infiniband_verbs/uverbs3/ibdev", "mlx5_0\n");
	put("sys/class/infiniband_verbs/uverbs0/ibdev", "rxe0\n");
	put(".rdmadoctor/dev/infiniband/uverbs3", "no access\n");
	put(".rdmadoctor/dev/infiniband/uverbs0", "bogus\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	return system(cmd) == 0 ? 0 : -1;
}

static void read_bin(void **state)
{
	uint8_t buf[4096], small[16];
	struct root r;
	size_t len;
	(void)state;

	assert_int_equal(root_open(&r, tmpl), 0);
	assert_int_equal(root_read_bin(&r, BRIDGE "/config", buf, sizeof(buf), &len), 0);
	assert_int_equal(len, 4096);
	assert_int_equal(buf[0], 0xb5);
	assert_int_equal(buf[0x14e], 0x1d);
	assert_int_equal(root_read_bin(&r, DSP "/config", buf, sizeof(buf), &len), 0);
	assert_int_equal(len, 64);
	/* a longer file gives its first cap bytes */
	assert_int_equal(root_read_bin(&r, BRIDGE "/config", small, sizeof(small), &len), 0);
	assert_int_equal(len, sizeof(small));
	assert_int_equal(small[0], 0xb5);
	assert_int_equal(root_read_bin(&r, BRIDGE "/nope", buf, sizeof(buf), &len), -ENOENT);
	assert_int_equal(len, 0);
	assert_int_equal(root_read_bin(&r, BRIDGE, buf, sizeof(buf), &len), -EISDIR);
	/* read whole once, a second read comes from the run's cache */
	r.opens = 0;
	assert_int_equal(root_read_bin(&r, NIC "/config", buf, sizeof(buf), &len), 0);
	assert_int_equal(root_read_bin(&r, NIC "/config", buf, sizeof(buf), &len), 0);
	assert_int_equal(r.opens, 1);
	assert_int_equal(len, 2);
	/* cut short by a small buffer: not cached, so a larger read gets it all */
	assert_int_equal(root_forget_files(&r), 0);
	assert_int_equal(root_read_bin(&r, BRIDGE "/config", small, sizeof(small), &len), 0);
	assert_int_equal(root_read_bin(&r, BRIDGE "/config", buf, sizeof(buf), &len), 0);
	assert_int_equal(len, 4096);
	root_close(&r);
}

static void read_bin_tape(void **state)
{
	char out[64] = "/tmp/rdreaders-tape-XXXXXX", cmd[160];
	uint8_t want[4096], got[4096];
	struct root r, replay;
	size_t len;
	int fd;
	(void)state;

	assert_non_null(mkdtemp(out));
	assert_int_equal(root_open(&r, tmpl), 0);
	assert_int_equal(root_record(&r), 0);
	assert_int_equal(root_read_bin(&r, BRIDGE "/config", want, sizeof(want), &len), 0);
	assert_int_equal(root_read_bin(&r, DSP "/config", got, sizeof(got), &len), 0);
	assert_int_equal(root_read_bin(&r, BRIDGE, got, sizeof(got), &len), -EISDIR);
	fd = open(out, O_PATH | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(tape_write(r.tape, fd, NULL, NULL), 0);
	close(fd);
	root_close(&r);

	/* the bytes come back exactly, NULs and all, and so does the refusal */
	assert_int_equal(root_open(&replay, out), 0);
	assert_int_equal(root_read_bin(&replay, BRIDGE "/config", got, sizeof(got), &len), 0);
	assert_int_equal(len, 4096);
	assert_memory_equal(got, want, 4096);
	assert_int_equal(root_read_bin(&replay, DSP "/config", got, sizeof(got), &len), 0);
	assert_int_equal(len, 64);
	assert_memory_equal(got, want, 64);
	assert_int_equal(root_read_bin(&replay, BRIDGE, got, sizeof(got), &len), -EISDIR);
	root_close(&replay);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", out);
	assert_int_equal(system(cmd), 0);
}

static void bridges_acs(void **state)
{
	struct pci_func f;
	struct root r;
	(void)state;

	assert_int_equal(root_open(&r, tmpl), 0);
	assert_int_equal(pci_read_func(&r, NIC, &f, true), 0);
	/* the device itself: not read */
	assert_true(IS_NA(f.acs_ctrl));
	assert_false(f.config_full);
	assert_int_equal(f.n_upstream, 3);
	/* root port: full config, ACS on */
	assert_true(f.upstream[0].config_full);
	assert_true(f.upstream[0].acs_known);
	assert_int_equal(f.upstream[0].acs_ctrl, 0x001d);
	/* upstream port: full config, no ACS capability (known absent) */
	assert_true(f.upstream[1].config_full);
	assert_true(f.upstream[1].acs_known);
	assert_true(IS_NA(f.upstream[1].acs_ctrl));
	/* downstream port read without root: 64 bytes, not known */
	assert_false(f.upstream[2].config_full);
	assert_false(f.upstream[2].acs_known);
	assert_true(IS_NA(f.upstream[2].acs_ctrl));
	pci_func_free(&f);
	root_close(&r);
}

/* A config file between 65 and 4095 bytes (no extended config space, or
 * cut short): ACS unknown, and a note that says why. */
static void bridge_short_config(void **state)
{
	uint8_t cfg[4096];
	struct pci_func f;
	struct root r;
	bool noted = false;
	(void)state;

	bridge_cfg(cfg, 0x001d);	/* ACS at 0x148: past the 256 bytes */
	put_bytes("sys/devices/pci0000:20/0000:20:01.0/config", cfg, 256);
	put("sys/devices/pci0000:20/0000:20:01.0/0000:21:00.0/vendor", "0x15b3\n");
	assert_int_equal(root_open(&r, tmpl), 0);
	assert_int_equal(pci_read_func(&r, "sys/devices/pci0000:20/0000:20:01.0/0000:21:00.0",
				       &f, true), 0);
	assert_int_equal(f.n_upstream, 1);
	assert_true(f.upstream[0].config_full);
	assert_false(f.upstream[0].acs_known);	/* not "no ACS": unread */
	assert_true(IS_NA(f.upstream[0].acs_ctrl));
	for (size_t i = 0; i < r.n_notes; i++)
		noted |= strstr(r.notes[i].what, "only 256 of 4096 bytes") != NULL &&
			 strstr(r.notes[i].what, "ACS not known") != NULL;
	assert_true(noted);
	pci_func_free(&f);
	root_close(&r);
}

static void ecn(void **state)
{
	char eth0[] = "eth0", eth1[] = "eth1", ether[] = "Ethernet", ib[] = "InfiniBand";
	struct port p;
	struct root r;
	(void)state;

	assert_int_equal(root_open(&r, tmpl), 0);
	memset(&p, 0, sizeof(p));
	p.netdev = eth0;
	p.link_layer = ether;
	assert_int_equal(net_read_ecn(&r, &p), 0);
	assert_non_null(p.qos);
	assert_null(p.qos->trust);
	assert_int_equal(p.qos->ecn_np[0], 0);
	assert_int_equal(p.qos->ecn_np[1], -1);	/* 0 bytes: firmware query failed */
	assert_int_equal(p.qos->ecn_np[2], -1);	/* malformed */
	assert_int_equal(p.qos->ecn_np[3], 1);
	assert_int_equal(p.qos->ecn_np[7], -1);	/* absent */
	for (int i = 0; i < 8; i++) {
		assert_int_equal(p.qos->ecn_rp[i], -1);	/* no roce_rp */
		assert_int_equal(p.qos->pfc_enabled[i], -1);
	}
	free(p.qos);

	/* no ecn directory (inbox mlx5, a bond master): nothing known */
	memset(&p, 0, sizeof(p));
	p.netdev = eth1;
	p.link_layer = ether;
	assert_int_equal(net_read_ecn(&r, &p), 0);
	assert_null(p.qos);
	/* InfiniBand ports have no RoCE ECN */
	p.netdev = eth0;
	p.link_layer = ib;
	assert_int_equal(net_read_ecn(&r, &p), 0);
	assert_null(p.qos);
	root_close(&r);
}

static void uverbs_map(void **state)
{
	struct nic *nics;
	struct root r;
	size_t n;
	(void)state;

	assert_int_equal(root_open(&r, tmpl), 0);
	assert_int_equal(ib_read_nics(&r, &nics, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(nics[0].name, "mlx5_0");
	assert_string_equal(nics[0].uverbs, "uverbs3");
	assert_string_equal(nics[0].uverbs_dev, "no access");
	/* no infiniband_verbs entry: neither is known */
	assert_string_equal(nics[1].name, "mlx5_1");
	assert_null(nics[1].uverbs);
	assert_null(nics[1].uverbs_dev);
	/* a snapshot word that is none of the three: not known */
	assert_string_equal(nics[2].name, "rxe0");
	assert_string_equal(nics[2].uverbs, "uverbs0");
	assert_null(nics[2].uverbs_dev);
	for (size_t i = 0; i < n; i++)
		nic_free(&nics[i]);
	free(nics);
	root_close(&r);
}

/* Live device nodes: the root is "/" and /dev/null is a character device
 * everyone may read and write. */
static void device_access(void **state)
{
	struct root r;
	(void)state;

	assert_int_equal(root_open(&r, "/"), 0);
	assert_true(r.live);
	assert_int_equal(root_access(&r, "dev/null", true, R_OK | W_OK), 0);
	assert_int_equal(root_access(&r, "dev/rdmadoctor-no-such-node", true, R_OK), -ENOENT);
	/* a directory is not a device node */
	assert_int_equal(root_access(&r, "dev", true, R_OK), -ENODEV);
	assert_int_equal(root_access(&r, "dev", false, R_OK), 0);
	root_close(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exp_dev_decoded),
		cmocka_unit_test(exp_dev_short),
		cmocka_unit_test(exp_dev_malformed),
		cmocka_unit_test(acs_found),
		cmocka_unit_test(acs_short_buffers),
		cmocka_unit_test(acs_absent),
		cmocka_unit_test(acs_loops),
		cmocka_unit_test(acs_misaligned),
		cmocka_unit_test(acs_long_buffer),
		cmocka_unit_test(nvidia_flavour),
		cmocka_unit_test(read_bin),
		cmocka_unit_test(read_bin_tape),
		cmocka_unit_test(bridges_acs),
		cmocka_unit_test(bridge_short_config),
		cmocka_unit_test(ecn),
		cmocka_unit_test(uverbs_map),
		cmocka_unit_test(device_access),
	};

	return cmocka_run_group_tests_name("readers", tests, setup, teardown);
}
