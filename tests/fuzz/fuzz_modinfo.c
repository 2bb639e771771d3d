/* libFuzzer target: any bytes as a kernel module file's .modinfo
 * (src/sysfs/modinfo.c, over the ELF section reader src/sysfs/elf.c), the
 * way a .ko under lib/modules is read from a machine or a snapshot; and
 * the same bytes as a bare .modinfo section.  Every value taken is
 * non-empty and at most MODINFO_VALUE_MAX bytes.  Seeds: two small real .ko files (l2tp_eth: version and srcversion; nhc_ipv6: neither) of
 * this machine's Debian 12 kernel (corpus/modinfo). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sysfs/modinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct modinfo *mi)
{
	const char *v[] = { mi->version, mi->srcversion, mi->vermagic };

	for (size_t i = 0; i < 3; i++)
		if (v[i] && (!v[i][0] || strlen(v[i]) > MODINFO_VALUE_MAX))
			abort();
	if (mi->build_id_len > MODINFO_BUILD_ID_MAX)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct modinfo mi;
	int rc;

	rc = modinfo_read(data, size, &mi);
	if (rc && (mi.version || mi.srcversion || mi.vermagic))
		abort();
	if (rc && rc != -EINVAL && rc != -EOPNOTSUPP && rc != -ENOENT && rc != -ENOMEM)
		abort();
	check(&mi);
	modinfo_free(&mi);
	rc = modinfo_parse(data, size, &mi);
	if (!rc)
		check(&mi);
	modinfo_free(&mi);
	/* the same bytes as /sys/module/M/notes/.note.gnu.build-id */
	{
		unsigned char id[MODINFO_BUILD_ID_MAX];
		size_t idl = 99;

		rc = modinfo_build_id(data, size, id, &idl);
		if ((rc && idl) || (!rc && (!idl || idl > MODINFO_BUILD_ID_MAX)))
			abort();
	}
	return 0;
}
