/* .modinfo of a .ko (modinfo.h).  The kernel's modpost emits each field as
 * "key=value\0" (MODULE_INFO in include/linux/moduleparam.h); padding NULs
 * may sit between entries.  A repeated key keeps its first value, as
 * kmod's modinfo prints the first for version/srcversion/vermagic. */
#include "modinfo.h"
#include "elf.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

int modinfo_build_id(const unsigned char *note, size_t len, unsigned char *id, size_t *id_len)
{
	uint32_t namesz, descsz;
	uint64_t desc_at;

	*id_len = 0;
	if (len < 16)
		return -EINVAL;
	namesz = elf_u32(note);
	descsz = elf_u32(note + 4);
	if (elf_u32(note + 8) != 3 || namesz != 4 || memcmp(note + 12, "GNU", 4))
		return -EINVAL;
	desc_at = 12 + 4;	/* "GNU\0" is already 4-aligned */
	if (!descsz || descsz > MODINFO_BUILD_ID_MAX || !elf_span_ok(desc_at, descsz, len))
		return -EINVAL;
	memcpy(id, note + desc_at, descsz);
	*id_len = descsz;
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
	rc = modinfo_parse(buf + s.off, (size_t)s.size, mi);
	if (rc)
		return rc;
	/* a missing or odd build-id note leaves build_id_len 0 */
	if (elf_section_named(&f, ".note.gnu.build-id", &s) == 0)
		(void)modinfo_build_id(buf + s.off, (size_t)s.size, mi->build_id, &mi->build_id_len);
	return 0;
}
