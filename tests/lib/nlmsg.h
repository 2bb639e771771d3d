/* A netlink message built byte by byte, for the unit tests of the netlink
 * parsers (test_dcb.c, test_link_modes.c, test_module_eeprom.c): each lays a
 * reply out as the kernel does and hands m.b, m.len to the parser.
 *
 *   nlmsg_begin(m, type)      an nlmsghdr (seq 7), the message emptied first
 *   begin(m, type, cmd)       the same and a genlmsghdr {cmd, version 1}
 *   end(m)                    nlmsg_len set to what was built
 *   attr / u8a / u32a         one attribute, padded to NLA_ALIGN
 *   nest_begin / nest_end     a nest with NLA_F_NESTED, its length at the end
 *   nest_begin_plain          one without it (dcbnl's nests have none)
 *   corpus_save(ENV, ...)     bytes written to $ENV/NAME when ENV is set (the
 *                             fuzz corpora were made that way)
 *
 * Include it after <cmocka.h>: a message that would overflow fails the test. */
#ifndef RD_TESTS_NLMSG_H
#define RD_TESTS_NLMSG_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

struct msg {
	uint8_t b[8192];
	size_t len;
	size_t nest[8];	/* open nests' offsets */
	int depth;
};

static inline void put(struct msg *m, const void *p, size_t n)
{
	assert_true(m->len + n <= sizeof(m->b));
	if (n)
		memcpy(m->b + m->len, p, n);
	m->len += n;
}

static inline void pad(struct msg *m)
{
	static const uint8_t zero[4];

	put(m, zero, NLA_ALIGN(m->len) - m->len);
}

static inline void nlmsg_begin(struct msg *m, uint16_t type)
{
	struct nlmsghdr h = { .nlmsg_type = type, .nlmsg_seq = 7, .nlmsg_pid = 0 };

	memset(m, 0, sizeof(*m));
	put(m, &h, sizeof(h));
}

static inline void begin(struct msg *m, uint16_t type, uint8_t cmd)
{
	struct genlmsghdr g = { .cmd = cmd, .version = 1 };

	nlmsg_begin(m, type);
	put(m, &g, sizeof(g));
}

static inline void end(struct msg *m)
{
	uint32_t len = (uint32_t)m->len;

	memcpy(m->b, &len, sizeof(len));
}

static inline void attr(struct msg *m, uint16_t type, const void *p, size_t n)
{
	struct nlattr a = { .nla_len = (uint16_t)(NLA_HDRLEN + n), .nla_type = type };

	put(m, &a, sizeof(a));
	put(m, p, n);
	pad(m);
}

static inline void u8a(struct msg *m, uint16_t type, uint8_t v)
{
	attr(m, type, &v, 1);
}

static inline void u32a(struct msg *m, uint16_t type, uint32_t v)
{
	attr(m, type, &v, 4);
}

static inline void nest_begin_plain(struct msg *m, uint16_t type)
{
	struct nlattr a = { .nla_len = 0, .nla_type = type };

	assert_true(m->depth < (int)(sizeof(m->nest) / sizeof(m->nest[0])));
	m->nest[m->depth++] = m->len;
	put(m, &a, sizeof(a));
}

static inline void nest_begin(struct msg *m, uint16_t type)
{
	nest_begin_plain(m, type | NLA_F_NESTED);
}

static inline void nest_end(struct msg *m)
{
	size_t at = m->nest[--m->depth];
	uint16_t len = (uint16_t)(m->len - at);

	memcpy(m->b + at, &len, sizeof(len));
}

static inline void corpus_save(const char *env, const char *name, const void *b, size_t n)
{
	const char *dir = getenv(env);
	char path[512];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	fclose(f);
}

#endif
