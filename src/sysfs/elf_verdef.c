/* .gnu.version_d of a 64-bit little-endian ELF (elf_verdef.h).  The layout
 * is the System V gABI's section header table and the GNU symbol
 * versioning extension (Elf64_Verdef, Elf64_Verdaux); read field by field
 * from the bytes, never through a cast of outside memory. */
#include "elf_verdef.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SHT_GNU_VERDEF 0x6ffffffdu
#define EHDR_SIZE 64
#define SHDR_SIZE 64
#define VERDEF_SIZE 20
#define VERDAUX_SIZE 8
#define NAME_MAX_LEN 256	/* a version name longer than this is not one */

static uint16_t u16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t u64(const unsigned char *p)
{
	return (uint64_t)u32(p) | (uint64_t)u32(p + 4) << 32;
}

/* [off, off+size) inside len, without overflow */
static int span_ok(uint64_t off, uint64_t size, size_t len)
{
	return off <= len && size <= len - off;
}

struct section {
	uint64_t off, size;
	uint32_t type, link, info;
};

static int section_at(const unsigned char *buf, size_t len, uint64_t shoff, uint16_t i,
		      struct section *s)
{
	const unsigned char *h;

	if (!span_ok(shoff + (uint64_t)i * SHDR_SIZE, SHDR_SIZE, len))
		return -EINVAL;
	h = buf + shoff + (uint64_t)i * SHDR_SIZE;
	s->type = u32(h + 4);
	s->off = u64(h + 24);
	s->size = u64(h + 32);
	s->link = u32(h + 40);
	s->info = u32(h + 44);
	return span_ok(s->off, s->size, len) ? 0 : -EINVAL;
}

/* The NUL-terminated string at off in the string table, or NULL. */
static const char *str_at(const unsigned char *buf, const struct section *strtab, uint32_t off)
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

static int walk(const unsigned char *buf, const struct section *vd, const struct section *str,
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
	struct section vd = { 0 }, str;
	uint64_t shoff;
	uint16_t shnum, i;
	char **v;
	size_t got = 0;
	int rc;

	*names = NULL;
	*n = 0;
	if (len < EHDR_SIZE || memcmp(buf, "\177ELF", 4))
		return -EINVAL;
	if (buf[4] != 2 || buf[5] != 1)	/* ELFCLASS64, ELFDATA2LSB */
		return -EOPNOTSUPP;
	shoff = u64(buf + 40);
	shnum = u16(buf + 60);
	if (u16(buf + 58) != SHDR_SIZE || !shnum)
		return -EINVAL;
	for (i = 0; i < shnum; i++) {
		rc = section_at(buf, len, shoff, i, &vd);
		if (rc)
			return rc;
		if (vd.type == SHT_GNU_VERDEF)
			break;
	}
	if (i == shnum)
		return -ENOENT;
	if (vd.link >= shnum || vd.link == i)
		return -EINVAL;
	rc = section_at(buf, len, shoff, (uint16_t)vd.link, &str);
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
