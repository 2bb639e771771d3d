/* libFuzzer target: any bytes as a shared object's ELF version definitions
 * (src/sysfs/elf_verdef.c), the way libibverbs.so is read from a machine
 * or a snapshot; and the same bytes as a provider file name and a
 * libibverbs file name (src/model/verbs_user.c).  Every name taken is
 * non-empty and shorter than 256 bytes, never more than ELF_VERDEF_MAX.
 * Seed: a shared object gcc and ld made here from three functions and a
 * version script (IBVERBS_1.0, IBVERBS_1.12, IBVERBS_PRIVATE_34). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/verbs_user.h"
#include "sysfs/elf_verdef.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char **names = NULL, *text, *name = NULL, *rel;
	size_t n = 0;
	int minor, pabi, rc;

	rc = elf_verdef_names(data, size, &names, &n);
	if (rc && (names || n))
		abort();
	if (rc && rc != -EINVAL && rc != -EOPNOTSUPP && rc != -ENOENT && rc != -E2BIG &&
	    rc != -ENOMEM)
		abort();
	if (n > ELF_VERDEF_MAX)
		abort();
	for (size_t i = 0; i < n; i++)
		if (!names[i][0] || strlen(names[i]) >= 256)
			abort();
	verbs_sets_scan(names, n, &minor, &pabi);
	if (minor < -1 || pabi < -1)
		abort();
	elf_verdef_free(names, n);

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (verbs_provider_file(text, &name, &pabi) == 0 && (!name || !name[0] || pabi < 0))
		abort();
	free(name);
	rel = verbs_release_of(text);
	free(rel);
	free(text);
	return 0;
}
