/* What rdmadoctor keeps of the .modinfo section of a kernel module file
 * (.ko): version, srcversion, vermagic and the GNU build id.  Read by
 * src/sysfs/modinfo.c; held in struct drv_module (drv_stack.h). */
#ifndef RD_MODEL_MODINFO_H
#define RD_MODEL_MODINFO_H

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

void modinfo_free(struct modinfo *mi);

#endif
