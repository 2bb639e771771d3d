/* Parsers of the values the kernel writes in sysfs and procfs.
 *
 * Pure functions from text to numbers: no I/O, so unit tests and the fuzz
 * target feed them any bytes.  Each returns 0 or -EINVAL for text the kernel
 * would not write; the formats are the kernel's own (drivers/infiniband/core/sysfs.c,
 * drivers/pci/pci-sysfs.c, fs/proc).
 */
#ifndef RD_SYSFS_PARSE_H
#define RD_SYSFS_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/* "400 Gb/sec (4X NDR)", "2.5 Gb/sec (1X SDR)", old kernels' "10 Gb/sec (4X)". */
struct ib_rate {
	double gbps;
	int lanes;		/* 1, 2, 4, 8, 12 */
	char speed[8];		/* "NDR", "FDR10", "" when the kernel left it out */
};
int parse_ib_rate(const char *s, struct ib_rate *out);

/* Per-lane data rate of an IB speed name ("HDR" -> 50), 0 if unknown. */
double ib_speed_lane_gbps(const char *speed);

/* "4: ACTIVE", "5: LinkUp", "7: Phy Test": number and the name after ": ". */
int parse_code_name(const char *s, int *code, const char **name);

/* "32.0 GT/s PCIe", "8 GT/s", "2.5 GT/s PCIe"; "Unknown" is -EINVAL. */
int parse_pcie_speed(const char *s, double *gts);

/* "fe80:0000:0000:0000:0002:c903:00f9:bfa1" (the only form the kernel
 * prints); also tolerates the compressed form some captures use. */
int parse_gid(const char *s, uint8_t gid[16]);
bool gid_is_zero(const uint8_t gid[16]);
/* Unused entry: all zero, or an IB entry with a zero interface id. */
bool gid_is_unused(const uint8_t gid[16]);
/* ::ffff:a.b.c.d -> "a.b.c.d" into buf[16]; false if not IPv4-mapped. */
bool gid_ipv4(const uint8_t gid[16], char buf[16]);

/* "b8ce:f603:006b:5a5e" */
int parse_guid(const char *s, uint64_t *guid);

/* The marker of a read the kernel refused, kept in a snapshot or fixture
 * (a directory at the file's path holding ".errno"): an errno name sysfs
 * answers with ("EINVAL\n", "EOPNOTSUPP\n") or a decimal errno; *err is
 * positive.  errno_marker_name is the name it reads back, NULL for an
 * errno without one (written in decimal then). */
int parse_errno_marker(const char *s, int *err);
const char *errno_marker_name(int err);

/* Decimal integers with range checks; leading/trailing blanks allowed. */
int parse_u64(const char *s, uint64_t *v);
int parse_s64(const char *s, int64_t *v);
/* "0x15b3" (the 0x is optional) */
int parse_hex(const char *s, uint64_t *v);

/* "0000:1b:00.0" */
bool is_bdf(const char *s);

/* The "Max locked memory" line of /proc/<pid>/limits: soft limit in bytes,
 * *unlimited set when the kernel printed "unlimited". */
int parse_limits_memlock(const char *text, uint64_t *bytes, bool *unlimited);

/* Find module name in /proc/modules text; *state points into text at the
 * state word ("Live", "Loading", "Unloading"), *state_len its length. */
bool modules_find(const char *text, const char *name, const char **state,
		  int *state_len);

/* First line of /proc/driver/nvidia/version: 1 for "NVIDIA UNIX Open Kernel
 * Module for x86_64  580.95.05 ...", 0 for the proprietary "NVIDIA UNIX
 * x86_64 Kernel Module  550.135 ...", -EINVAL for anything else. */
int parse_nvidia_version_open(const char *text);

#endif
