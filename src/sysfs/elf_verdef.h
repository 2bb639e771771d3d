/* The version definitions of an ELF shared object (its .gnu.version_d, as
 * `readelf -V` lists them): "libibverbs.so.1", "IBVERBS_1.0", ...,
 * "IBVERBS_PRIVATE_34".  rdma-core states its compatibility there: the
 * public IBVERBS_1.N sets say which verbs a library has (IBVERBS_1.12 brought
 * ibv_reg_dmabuf_mr), IBVERBS_PRIVATE_N the provider ABI it loads.
 *
 * The bytes are outside data (a file on the machine or in a snapshot):
 * 64-bit little-endian ELF only (x86_64, aarch64); every offset is checked
 * against the buffer and at most ELF_VERDEF_MAX names are taken.
 */
#ifndef RD_SYSFS_ELF_VERDEF_H
#define RD_SYSFS_ELF_VERDEF_H

#include <stddef.h>

#define ELF_VERDEF_MAX 1024

/* 0 with *names (malloc'd strings, in the file's order, the BASE entry
 * (the soname) included) and *n; -EINVAL not an ELF object or malformed,
 * -EOPNOTSUPP an ELF this does not read (32-bit, big-endian), -ENOENT no
 * version definitions, -E2BIG more than ELF_VERDEF_MAX, -ENOMEM.  Nothing
 * allocated on failure. */
int elf_verdef_names(const unsigned char *buf, size_t len, char ***names, size_t *n);
void elf_verdef_free(char **names, size_t n);

#endif
