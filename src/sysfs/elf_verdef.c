/* .gnu.version_d of a 64-bit little-endian ELF (elf_verdef.h).  The layout
 * is the System V gABI's section header table and the GNU symbol
 * versioning extension (Elf64_Verdef, Elf64_Verdaux); read field by field
 * from the bytes, never through a cast of outside memory. */
#include "elf_verdef.h"
#include "elf.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SHT_GNU_VERDEF 0x6ffffffdu
#define VERDEF_SIZE 20
#define VERDAUX_SIZE 8
#define NAME_MAX_LEN 256	/* a version name longer than this is not one */

#define u16 elf_u16
#define u32 elf_u32
#define span_ok elf_span_ok

/* The NUL-terminated string at off in the string table, or NULL. */
static const char *str_at(const unsigned char *buf, const struct elf_section *strtab, uint32_t off)
{
	const unsigned char *s, *end;

	if (off >= strtab->size)
		return NULL;
	s = buf + strtab->off + off;
	end = memchr(s, '\0', strtab->size - off < NAME_MAX_LEN ? strtab->size - off
								 : NAME_MAX_LEN);
	return end && end > s ? (const char *)s : NULL;
}

void elf_verdef_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int walk(const unsigned char *buf, const struct elf_section *vd, const struct elf_section *str,
		char **v, size_t *n)
{
	uint64_t at = 0;

	/* sh_info is the number of entries; vd_next 0 ends the chain early */
	for (uint32_t k = 0; k < vd->info; k++) {
		const unsigned char *d;
		const char *name;
		uint32_t aux, next;

		if (*n >= ELF_VERDEF_MAX)
			return -E2BIG;
		if (!span_ok(at, VERDEF_SIZE, vd->size))
			return -EINVAL;
		d = buf + vd->off + at;
		if (u16(d) != 1)	/* vd_version: only revision 1 exists */
			return -EINVAL;
		aux = u32(d + 12);
		next = u32(d + 16);
		if (!span_ok(at + aux, VERDAUX_SIZE, vd->size))
			return -EINVAL;
		name = str_at(buf, str, u32(buf + vd->off + at + aux));
		if (!name)
			return -EINVAL;
		v[*n] = strdup(name);
		if (!v[*n])
			return -ENOMEM;
		(*n)++;
		if (!next)
			break;
		at += next;
	}
	return 0;
}

int elf_verdef_names(const unsigned char *buf, size_t len, char ***names, size_t *n)
{
	struct elf_section vd = { 0 }, str;
	struct elf_file f;
	uint16_t i;
	char **v;
	size_t got = 0;
	int rc;

	*names = NULL;
	*n = 0;
	rc = elf_open(&f, buf, len);
	if (rc)
		return rc;
	for (i = 0; i < f.shnum; i++) {
		rc = elf_section_at(&f, i, &vd);
		if (rc)
			return rc;
		if (vd.type == SHT_GNU_VERDEF)
			break;
	}
	if (i == f.shnum)
		return -ENOENT;
	if (vd.link >= f.shnum || vd.link == i)
		return -EINVAL;
	rc = elf_section_at(&f, (uint16_t)vd.link, &str);
	if (rc)
		return rc;
	if (!vd.info)
		return -ENOENT;
	v = calloc(vd.info < ELF_VERDEF_MAX ? vd.info : ELF_VERDEF_MAX, sizeof(*v));
	if (!v)
		return -ENOMEM;
	rc = walk(buf, &vd, &str, v, &got);
	if (rc) {
		elf_verdef_free(v, got);
		return rc;
	}
	*names = v;
	*n = got;
	return 0;
}
