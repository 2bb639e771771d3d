/* .modinfo of a .ko (modinfo.h).  The kernel's modpost emits each field as
 * "key=value\0" (MODULE_INFO in include/linux/moduleparam.h); padding NULs
 * may sit between entries.  A repeated key keeps its first value, as
 * kmod's modinfo prints the first for version/srcversion/vermagic. */
#include "modinfo.h"
#include "elf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void modinfo_free(struct modinfo *mi)
{
	free(mi->version);
	free(mi->srcversion);
	free(mi->vermagic);
	mi->version = mi->srcversion = mi->vermagic = NULL;
}

static int take(char **slot, const char *v, size_t vl)
{
	if (*slot || vl == 0 || vl > MODINFO_VALUE_MAX)
		return 0;
	*slot = strndup(v, vl);
	return *slot ? 0 : -ENOMEM;
}

int modinfo_parse(const unsigned char *sec, size_t len, struct modinfo *mi)
{
	size_t at = 0;

	memset(mi, 0, sizeof(*mi));
	while (at < len) {
		const char *e = (const char *)sec + at;
		const unsigned char *nul = memchr(sec + at, '\0', len - at);
		size_t el = nul ? (size_t)(nul - (sec + at)) : len - at;
		const char *eq = memchr(e, '=', el);
		int rc = 0;

		if (eq) {
			size_t kl = (size_t)(eq - e), vl = el - kl - 1;

			if (kl == 7 && !memcmp(e, "version", 7))
				rc = take(&mi->version, eq + 1, vl);
			else if (kl == 10 && !memcmp(e, "srcversion", 10))
				rc = take(&mi->srcversion, eq + 1, vl);
			else if (kl == 8 && !memcmp(e, "vermagic", 8))
				rc = take(&mi->vermagic, eq + 1, vl);
		}
		if (rc) {
			modinfo_free(mi);
			return rc;
		}
		at += el + 1;
	}
	return 0;
}

int modinfo_read(const unsigned char *buf, size_t len, struct modinfo *mi)
{
	struct elf_file f;
	struct elf_section s;
	int rc;

	memset(mi, 0, sizeof(*mi));
	rc = elf_open(&f, buf, len);
	if (rc)
		return rc;
	rc = elf_section_named(&f, ".modinfo", &s);
	if (rc)
		return rc;
	return modinfo_parse(buf + s.off, (size_t)s.size, mi);
}
