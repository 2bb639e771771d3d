/* Section headers of a 64-bit little-endian ELF object (System V gABI),
 * read field by field from outside bytes, every offset checked against the
 * buffer.  Shared by elf_verdef.c (shared objects) and modinfo.c (.ko). */
#ifndef RD_SYSFS_ELF_H
#define RD_SYSFS_ELF_H

#include <stddef.h>
#include <stdint.h>

struct elf_section {
	uint64_t off, size;
	uint32_t name, type, link, info;
};

struct elf_file {
	const unsigned char *buf;
	size_t len;
	uint64_t shoff;
	uint16_t shnum, shstrndx;
};

uint16_t elf_u16(const unsigned char *p);
uint32_t elf_u32(const unsigned char *p);
uint64_t elf_u64(const unsigned char *p);
/* [off, off+size) inside len, without overflow */
int elf_span_ok(uint64_t off, uint64_t size, size_t len);

/* 0, -EINVAL not ELF or malformed header, -EOPNOTSUPP not 64-bit LE. */
int elf_open(struct elf_file *f, const unsigned char *buf, size_t len);
/* Section i, its bytes inside the buffer: 0 or -EINVAL. */
int elf_section_at(const struct elf_file *f, uint16_t i, struct elf_section *s);
/* The section named name (via e_shstrndx): 0, -ENOENT, -EINVAL. */
int elf_section_named(const struct elf_file *f, const char *name, struct elf_section *s);

#endif
