/* The .modinfo section of a kernel module file (.ko): NUL-separated
 * "key=value" strings, as modpost writes them and `modinfo` prints them.
 * Only the fields rdmadoctor judges are kept (struct modinfo, model/modinfo.h).
 * The bytes are outside data: 64-bit little-endian ELF only (elf.h); each
 * value is at most MODINFO_VALUE_MAX bytes, longer ones are refused. */
#ifndef RD_SYSFS_MODINFO_H
#define RD_SYSFS_MODINFO_H

#include <stddef.h>

#include "../model/modinfo.h"

/* The build id out of the bytes of one ELF note (Elf64_Nhdr, name "GNU",
 * type NT_GNU_BUILD_ID 3), as in the section or the sysfs notes file: 0 or
 * -EINVAL. */
int modinfo_build_id(const unsigned char *note, size_t len, unsigned char *id, size_t *id_len);

/* 0 with *mi filled (malloc'd strings, free with modinfo_free); -EINVAL
 * not ELF or malformed, -EOPNOTSUPP 32-bit or big-endian, -ENOENT no
 * .modinfo section, -ENOMEM.  *mi is all NULL on failure. */
int modinfo_read(const unsigned char *buf, size_t len, struct modinfo *mi);
/* The same from the bytes of a .modinfo section alone. */
int modinfo_parse(const unsigned char *sec, size_t len, struct modinfo *mi);

#endif
