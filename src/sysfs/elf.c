/* ELF64 LE section headers (elf.h). */
#include "elf.h"

#include <errno.h>
#include <string.h>

#define EHDR_SIZE 64
#define SHDR_SIZE 64

uint16_t elf_u16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

uint32_t elf_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t elf_u64(const unsigned char *p)
{
	return (uint64_t)elf_u32(p) | (uint64_t)elf_u32(p + 4) << 32;
}

int elf_span_ok(uint64_t off, uint64_t size, size_t len)
{
	return off <= len && size <= len - off;
}

int elf_open(struct elf_file *f, const unsigned char *buf, size_t len)
{
	memset(f, 0, sizeof(*f));
	if (len < EHDR_SIZE || memcmp(buf, "\177ELF", 4))
		return -EINVAL;
	if (buf[4] != 2 || buf[5] != 1)	/* ELFCLASS64, ELFDATA2LSB */
		return -EOPNOTSUPP;
	f->buf = buf;
	f->len = len;
	f->shoff = elf_u64(buf + 40);
	f->shnum = elf_u16(buf + 60);
	f->shstrndx = elf_u16(buf + 62);
	if (elf_u16(buf + 58) != SHDR_SIZE || !f->shnum)
		return -EINVAL;
	return 0;
}

int elf_section_at(const struct elf_file *f, uint16_t i, struct elf_section *s)
{
	const unsigned char *h;

	if (i >= f->shnum || f->shoff > f->len ||
	    !elf_span_ok(f->shoff + (uint64_t)i * SHDR_SIZE, SHDR_SIZE, f->len))
		return -EINVAL;
	h = f->buf + f->shoff + (uint64_t)i * SHDR_SIZE;
	s->name = elf_u32(h);
	s->type = elf_u32(h + 4);
	s->off = elf_u64(h + 24);
	s->size = elf_u64(h + 32);
	s->link = elf_u32(h + 40);
	s->info = elf_u32(h + 44);
	if (s->type == 8) {	/* SHT_NOBITS (.bss) occupies no file bytes: */
		s->off = s->size = 0;	/* none to read, whatever it says */
		return 0;
	}
	return elf_span_ok(s->off, s->size, f->len) ? 0 : -EINVAL;
}

int elf_section_named(const struct elf_file *f, const char *name, struct elf_section *s)
{
	struct elf_section strs;
	size_t nl = strlen(name);
	int rc;

	rc = elf_section_at(f, f->shstrndx, &strs);
	if (rc)
		return rc;
	if (strs.type != 3)	/* SHT_STRTAB */
		return -EINVAL;
	for (uint16_t i = 0; i < f->shnum; i++) {
		rc = elf_section_at(f, i, s);
		if (rc)
			return rc;
		if (s->name < strs.size && strs.size - s->name > nl &&
		    !memcmp(f->buf + strs.off + s->name, name, nl + 1))
			return s->type == 8 ? -ENOENT : 0;
	}
	return -ENOENT;
}
