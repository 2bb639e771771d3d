/* The .modinfo section of a kernel module file (.ko): NUL-separated
 * "key=value" strings, as modpost writes them and `modinfo` prints them.
 * Only the fields rdmadoctor judges are kept: version, srcversion, vermagic.
 * The bytes are outside data: 64-bit little-endian ELF only (elf.h); each
 * value is at most MODINFO_VALUE_MAX bytes, longer ones are refused. */
#ifndef RD_SYSFS_MODINFO_H
#define RD_SYSFS_MODINFO_H

#include <stddef.h>

#define MODINFO_VALUE_MAX 256

struct modinfo {
	char *version;		/* NULL when the module has none (inbox modules often) */
	char *srcversion;
	char *vermagic;
};

/* 0 with *mi filled (malloc'd strings, free with modinfo_free); -EINVAL
 * not ELF or malformed, -EOPNOTSUPP 32-bit or big-endian, -ENOENT no
 * .modinfo section, -ENOMEM.  *mi is all NULL on failure. */
int modinfo_read(const unsigned char *buf, size_t len, struct modinfo *mi);
/* The same from the bytes of a .modinfo section alone. */
int modinfo_parse(const unsigned char *sec, size_t len, struct modinfo *mi);
void modinfo_free(struct modinfo *mi);

#endif
