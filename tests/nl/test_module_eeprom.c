/* ethtool netlink MODULE_EEPROM_GET (src/nl/module_eeprom.c): replies built
 * byte by byte as net/ethtool/netlink.c + eeprom.c lay them out (nlmsghdr,
 * genlmsghdr with ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY, the reply header
 * nest with NLA_F_NESTED, then ETHTOOL_A_MODULE_EEPROM_DATA), the
 * nlctrl family reply, the request layout and the page plan.
 *
 * With RD_MODULE_EEPROM_CORPUS=DIR set, the well-formed replies are also
 * written there (tests/fuzz/corpus/module_eeprom/ was made that way). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nlmsg.h"

#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "nl/module_eeprom.h"

#define FAM 23	/* any id nlctrl might hand out */

static void save(const char *name, const struct msg *m)
{
	corpus_save("RD_MODULE_EEPROM_CORPUS", name, m->b, m->len);
}

/* The reply of ethnl_default_doit: header nest {DEV_INDEX, DEV_NAME},
 * then DATA. */
static void reply(struct msg *m, const uint8_t *data, size_t n)
{
	uint32_t ifindex = 5;

	begin(m, FAM, ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY);
	nest_begin(m, ETHTOOL_A_MODULE_EEPROM_HEADER);
	attr(m, ETHTOOL_A_HEADER_DEV_INDEX, &ifindex, 4);
	attr(m, ETHTOOL_A_HEADER_DEV_NAME, "enp24s0np0", 11);
	nest_end(m);
	if (data)
		attr(m, ETHTOOL_A_MODULE_EEPROM_DATA, data, n);
	end(m);
}

static void error_msg(struct msg *m, int err)
{
	struct nlmsghdr h = { .nlmsg_type = NLMSG_ERROR, .nlmsg_seq = 7 };
	struct nlmsghdr orig = { .nlmsg_len = 64, .nlmsg_type = FAM, .nlmsg_seq = 7 };

	memset(m, 0, sizeof(*m));
	put(m, &h, sizeof(h));
	put(m, &err, sizeof(err));
	put(m, &orig, sizeof(orig));
	end(m);
}

static void page_reply(void **state)
{
	uint8_t page[128], out[128];
	struct msg m;
	size_t n = 99;
	(void)state;

	for (int i = 0; i < 128; i++)
		page[i] = (uint8_t)(i * 7 + 1);
	page[0] = 0x19;
	reply(&m, page, sizeof(page));
	/* 16 nlmsghdr + 4 genl + (4 + 8 + 16) header nest + 4 + 128 DATA */
	assert_int_equal(m.len, 180);
	assert_int_equal(m.b[20], 28);	/* nest length */
	assert_int_equal(m.b[22], ETHTOOL_A_MODULE_EEPROM_HEADER);
	assert_int_equal(m.b[23], NLA_F_NESTED >> 8);
	save("osfp_lower", &m);
	assert_int_equal(module_eeprom_parse_reply(m.b, m.len, FAM, out, sizeof(out), &n), 0);
	assert_int_equal(n, 128);
	assert_memory_equal(out, page, 128);

	/* a short read: 2 bytes, the last attribute's padding cut off */
	reply(&m, page, 2);
	m.len -= 2;
	end(&m);
	save("short_read", &m);
	assert_int_equal(module_eeprom_parse_reply(m.b, m.len, FAM, out, sizeof(out), &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(out[0], 0x19);

	/* a longer buffer than the message: only nlmsg_len counts */
	reply(&m, page, 8);
	assert_int_equal(module_eeprom_parse_reply(m.b, m.len + 40, FAM, out, sizeof(out), &n), 0);
	assert_int_equal(n, 8);
}

static void errors(void **state)
{
	uint8_t page[128] = { 0x11 }, out[128];
	struct msg m;
	size_t n = 5;
	(void)state;

	error_msg(&m, -EPERM);
	save("eperm", &m);
	assert_int_equal(module_eeprom_parse_reply(m.b, m.len, FAM, out, sizeof(out), &n), -EPERM);
	assert_int_equal(n, 0);
	error_msg(&m, -EOPNOTSUPP);
	save("eopnotsupp", &m);
	assert_int_equal(module_eeprom_parse_reply(m.b, m.len, FAM, out, sizeof(out), &n),
			 -EOPNOTSUPP);
	error_msg(&m, 0);	/* an ACK is no data */
	assert_int_equal(module_eeprom_parse_reply(m.b, m.len, FAM, out, sizeof(out), &n), -EINVAL);
	error_msg(&m, -5000);
	assert_int_equal(module_eeprom_parse_reply(m.b, m.len, FAM, out, sizeof(out), &n), -EINVAL);
	m.len = 18;	/* error code cut */
	end(&m);
	assert_int_equal(module_eeprom_parse_reply(m.b, m.len, FAM, out, sizeof(out), &n), -EINVAL);

	/* another family, another command */
	reply(&m, page, 16);
	assert_int_equal(module_eeprom_parse_reply(m.b, m.len, FAM + 1, out, sizeof(out), &n),
			 -EINVAL);
	m.b[16] = ETHTOOL_MSG_MODULE_EEPROM_GET;
	assert_int_equal(module_eeprom_parse_reply(m.b, m.len, FAM, out, sizeof(out), &n), -EINVAL);

	/* no DATA; DATA twice; DATA of nothing; DATA past cap */
	reply(&m, NULL, 0);
	assert_int_equal(module_eeprom_parse_reply(m.b, m.len, FAM, out, sizeof(out), &n), -EINVAL);
	reply(&m, page, 16);
	/* a second DATA after the first */
	attr(&m, ETHTOOL_A_MODULE_EEPROM_DATA, page, 16);
	end(&m);
	assert_int_equal(module_eeprom_parse_reply(m.b, m.len, FAM, out, sizeof(out), &n), -EINVAL);
	reply(&m, page, 0);
	assert_int_equal(module_eeprom_parse_reply(m.b, m.len, FAM, out, sizeof(out), &n), -EINVAL);
	reply(&m, page, 128);
	assert_int_equal(module_eeprom_parse_reply(m.b, m.len, FAM, out, 64, &n), -EMSGSIZE);
	assert_int_equal(n, 0);

	/* truncated: nlmsg_len beyond the bytes; an attribute beyond nlmsg_len */
	reply(&m, page, 128);
	assert_int_equal(module_eeprom_parse_reply(m.b, m.len - 1, FAM, out, sizeof(out), &n),
			 -EINVAL);
	m.len -= 4;
	end(&m);
	assert_int_equal(module_eeprom_parse_reply(m.b, m.len, FAM, out, sizeof(out), &n), -EINVAL);
	/* too short for a header; NULLs */
	assert_int_equal(module_eeprom_parse_reply(m.b, 10, FAM, out, sizeof(out), &n), -EINVAL);
	assert_int_equal(module_eeprom_parse_reply(NULL, 100, FAM, out, sizeof(out), &n), -EINVAL);
	assert_int_equal(module_eeprom_parse_reply(m.b, m.len, FAM, out, sizeof(out), NULL),
			 -EINVAL);
}

static void family(void **state)
{
	struct msg m;
	uint16_t id = 1, fam = 31;
	uint32_t ver = 1;
	(void)state;

	/* ctrl_fill_info: FAMILY_ID u16 (padded), FAMILY_NAME, VERSION ... */
	begin(&m, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY);
	attr(&m, CTRL_ATTR_FAMILY_NAME, "ethtool", 8);
	attr(&m, CTRL_ATTR_FAMILY_ID, &fam, 2);
	attr(&m, CTRL_ATTR_VERSION, &ver, 4);
	end(&m);
	assert_int_equal(m.len, 20 + 12 + 8 + 8);
	save("family", &m);
	assert_int_equal(module_eeprom_parse_family(m.b, m.len, &id), 0);
	assert_int_equal(id, 31);

	error_msg(&m, -ENOENT);	/* no ethtool netlink in this kernel */
	assert_int_equal(module_eeprom_parse_family(m.b, m.len, &id), -ENOENT);
	begin(&m, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY);
	attr(&m, CTRL_ATTR_FAMILY_NAME, "ethtool", 8);
	end(&m);
	assert_int_equal(module_eeprom_parse_family(m.b, m.len, &id), -EINVAL);
	begin(&m, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY);
	attr(&m, CTRL_ATTR_FAMILY_ID, &fam, 1);
	end(&m);
	assert_int_equal(module_eeprom_parse_family(m.b, m.len, &id), -EINVAL);
	begin(&m, FAM, CTRL_CMD_NEWFAMILY);
	attr(&m, CTRL_ATTR_FAMILY_ID, &fam, 2);
	end(&m);
	assert_int_equal(module_eeprom_parse_family(m.b, m.len, &id), -EINVAL);
}

static uint32_t u32_at(const uint8_t *b, size_t off)
{
	uint32_t v;

	memcpy(&v, b + off, 4);
	return v;
}

static void request(void **state)
{
	struct module_eeprom_req q = { .i2c = 0x50, .page = 0x11, .bank = 0, .offset = 128,
				       .len = 128 };
	uint8_t b[128];
	int n;
	(void)state;

	n = module_eeprom_build_request(b, sizeof(b), FAM, "enp24s0np0", &q, 42);
	/* 16 + 4 + nest (4 + 4 + 12) + 2 * 8 + 3 * 8 */
	assert_int_equal(n, 80);
	assert_int_equal(u32_at(b, 0), 80);
	assert_int_equal(b[4], FAM);
	assert_int_equal(u32_at(b, 8), 42);
	assert_int_equal(b[16], ETHTOOL_MSG_MODULE_EEPROM_GET);
	assert_int_equal(b[17], 1);
	/* header nest: len 20, type 1 | NESTED; DEV_NAME len 15 type 2 */
	assert_int_equal(b[20], 20);
	assert_int_equal(b[22], 1);
	assert_int_equal(b[23], NLA_F_NESTED >> 8);
	assert_int_equal(b[24], 15);
	assert_int_equal(b[26], ETHTOOL_A_HEADER_DEV_NAME);
	assert_string_equal((const char *)b + 28, "enp24s0np0");
	assert_int_equal(b[42], ETHTOOL_A_MODULE_EEPROM_OFFSET);
	assert_int_equal(u32_at(b, 44), 128);
	assert_int_equal(b[50], ETHTOOL_A_MODULE_EEPROM_LENGTH);
	assert_int_equal(u32_at(b, 52), 128);
	assert_int_equal(b[58], ETHTOOL_A_MODULE_EEPROM_PAGE);
	assert_int_equal(b[60], 0x11);
	assert_int_equal(b[66], ETHTOOL_A_MODULE_EEPROM_BANK);
	assert_int_equal(b[74], ETHTOOL_A_MODULE_EEPROM_I2C_ADDRESS);
	assert_int_equal(b[76], 0x50);

	/* what eeprom_parse_request refuses, refused here first */
	q.len = 0;
	assert_int_equal(module_eeprom_build_request(b, sizeof(b), FAM, "x", &q, 1), -EINVAL);
	q.len = 129;
	assert_int_equal(module_eeprom_build_request(b, sizeof(b), FAM, "x", &q, 1), -EINVAL);
	q = (struct module_eeprom_req){ .i2c = 0x50, .offset = 100, .len = 64 };
	assert_int_equal(module_eeprom_build_request(b, sizeof(b), FAM, "x", &q, 1), -EINVAL);
	q = (struct module_eeprom_req){ .i2c = 0x50, .page = 3, .offset = 0, .len = 128 };
	assert_int_equal(module_eeprom_build_request(b, sizeof(b), FAM, "x", &q, 1), -EINVAL);
	q = (struct module_eeprom_req){ .i2c = 0x50, .offset = 200, .len = 64 };
	assert_int_equal(module_eeprom_build_request(b, sizeof(b), FAM, "x", &q, 1), -EINVAL);
	q = (struct module_eeprom_req){ .i2c = 0x50, .offset = 0, .len = 128 };
	assert_int_equal(module_eeprom_build_request(b, sizeof(b), FAM, "", &q, 1), -EINVAL);
	assert_int_equal(module_eeprom_build_request(b, sizeof(b), FAM, "sixteen-chars-xx", &q, 1),
			 -EINVAL);
	assert_int_equal(module_eeprom_build_request(b, 40, FAM, "x", &q, 1), -ENOSPC);
	assert_true(module_eeprom_build_request(b, sizeof(b), FAM, "x", &q, 1) > 0);
}

static void plan(void **state)
{
	struct module_eeprom_req r[MODULE_EEPROM_PLAN_MAX];
	uint8_t lower[128] = { 0 };
	(void)state;

	lower[0] = 0x11;	/* QSFP28: upper 00h and 03h */
	assert_int_equal(module_eeprom_plan(lower, 128, r, MODULE_EEPROM_PLAN_MAX), 2);
	assert_int_equal(r[0].page, 0);
	assert_int_equal(r[0].offset, 128);
	assert_int_equal(r[1].page, 3);
	assert_int_equal(r[1].len, 128);
	lower[2] = 0x04;	/* flat memory */
	assert_int_equal(module_eeprom_plan(lower, 128, r, MODULE_EEPROM_PLAN_MAX), 1);

	lower[0] = 0x19;	/* OSFP, paged */
	lower[2] = 0;
	assert_int_equal(module_eeprom_plan(lower, 128, r, MODULE_EEPROM_PLAN_MAX), 4);
	assert_int_equal(r[1].page, 0x01);
	assert_int_equal(r[2].page, 0x02);
	assert_int_equal(r[3].page, 0x11);
	assert_int_equal(r[3].bank, 0);
	assert_int_equal(r[3].offset, 128);
	assert_int_equal(module_eeprom_plan(lower, 128, r, 2), 2);
	lower[2] = 0x80;	/* flat (passive copper) */
	assert_int_equal(module_eeprom_plan(lower, 128, r, MODULE_EEPROM_PLAN_MAX), 1);

	lower[0] = 0x03;	/* SFP: A0h upper, A2h both halves */
	assert_int_equal(module_eeprom_plan(lower, 128, r, MODULE_EEPROM_PLAN_MAX), 3);
	assert_int_equal(r[0].i2c, 0x50);
	assert_int_equal(r[1].i2c, 0x51);
	assert_int_equal(r[1].offset, 0);
	assert_int_equal(r[2].i2c, 0x51);
	assert_int_equal(r[2].offset, 128);

	lower[0] = 0x42;
	assert_int_equal(module_eeprom_plan(lower, 128, r, MODULE_EEPROM_PLAN_MAX), 0);
	assert_int_equal(module_eeprom_plan(lower, 2, r, MODULE_EEPROM_PLAN_MAX), 0);
	assert_int_equal(module_eeprom_plan(NULL, 128, r, MODULE_EEPROM_PLAN_MAX), 0);

	assert_true(module_eeprom_unavailable(-EPERM));
	assert_true(module_eeprom_unavailable(-EOPNOTSUPP));
	assert_true(module_eeprom_unavailable(ENODEV));
	assert_false(module_eeprom_unavailable(-ENOMEM));
	assert_false(module_eeprom_unavailable(-EAGAIN));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(page_reply),
		cmocka_unit_test(errors),
		cmocka_unit_test(family),
		cmocka_unit_test(request),
		cmocka_unit_test(plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
