/* The .modinfo section of a kernel module file (.ko): NUL-separated
 * "key=value" strings, as modpost writes them and `modinfo` prints them.
 * Only the fields rdmadoctor judges are kept: version, srcversion, vermagic.
 * The bytes are outside data: 64-bit little-endian ELF only (elf.h); each
 * value is at most MODINFO_VALUE_MAX bytes, longer ones are refused. */
#ifndef RD_SYSFS_MODINFO_H
#define RD_SYSFS_MODINFO_H

#include <stddef.h>

#define MODINFO_VALUE_MAX 256
#define MODINFO_BUILD_ID_MAX 64

struct modinfo {
	char *version;		/* NULL when the module has none (inbox modules often) */
	char *srcversion;
	char *vermagic;
	/* the .note.gnu.build-id's descriptor, as `readelf -n` prints it in
	 * hex; the same note the kernel shows for a loaded module in
	 * /sys/module/M/notes/.note.gnu.build-id (root only).  Inbox modules
	 * of Debian 12's kernel carry no srcversion (modpost adds it only with
	 * MODULE_VERSION), so this is their identity.  0 bytes: none. */
	unsigned char build_id[MODINFO_BUILD_ID_MAX];
	size_t build_id_len;
};

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
void modinfo_free(struct modinfo *mi);

#endif
