/* The parsers and evaluators of who can use the devices: pam_limits'
 * files read as pam_limits reads them, systemd's LimitMEMLOCK= sizes and
 * drop-in order, passwd/group, the device-node record, and open(2)'s
 * permission check with groups and ACLs. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sysfs/access_parse.h"

static void lines_free(struct memlock_line *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].file);
		free(v[i].domain);
		free(v[i].value);
	}
	free(v);
}

static void limits_conf(void **state)
{
	struct memlock_line *v = NULL;
	size_t n = 0, cap = 0;
	(void)state;

	assert_int_equal(limits_conf_parse(
		"# comment\n"
		"*   soft  memlock  64 # 64 KiB\n"		/* 1: KiB */
		"  @rdma  HARD  MEMLOCK  Unlimited\n"		/* 2: case-blind type, item, value */
		"alice - memlock infinity\n"			/* 3: both */
		"bob - memlock -1\n"				/* 4: -1 is unlimited */
		"* hard nofile 4096\n"				/* not memlock */
		"* hard memlock\n"				/* three fields: pam skips it */
		"* bogus memlock 5\n"				/* unknown type: skipped */
		"* soft memlock abc\n"				/* no number: skipped */
		"* soft memlock 12x\n"				/* strtoull: 12 */
		"carol -\n"					/* no limits for carol */
		"1000:2000 hard memlock 18446744073709551615\n",	/* ULLONG_MAX: infinity */
		"l.conf", &v, &n, &cap), 0);
	assert_int_equal(n, 7);
	assert_string_equal(v[0].domain, "*");
	assert_true(v[0].soft && !v[0].hard);
	assert_int_equal(v[0].bytes, 65536);
	assert_int_equal(v[0].line, 2);
	assert_string_equal(v[1].domain, "@rdma");
	assert_true(!v[1].soft && v[1].hard && v[1].bytes == MEMLOCK_INFINITY);
	assert_true(v[2].soft && v[2].hard && v[2].bytes == MEMLOCK_INFINITY);
	assert_true(v[3].bytes == MEMLOCK_INFINITY);
	assert_int_equal(v[4].bytes, 12 * 1024);
	assert_true(v[5].no_limits);
	assert_string_equal(v[5].domain, "carol");
	assert_true(v[6].bytes == MEMLOCK_INFINITY);
	assert_string_equal(v[6].file, "l.conf");
	lines_free(v, n);
}

static void unit_sizes(void **state)
{
	uint64_t b;
	(void)state;

	assert_int_equal(unit_size_parse("65536", 5, &b), 0);
	assert_int_equal(b, 65536);
	assert_int_equal(unit_size_parse("64K", 3, &b), 0);
	assert_int_equal(b, 65536);
	assert_int_equal(unit_size_parse("8M", 2, &b), 0);
	assert_int_equal(b, 8u << 20);
	assert_int_equal(unit_size_parse("1.5G", 4, &b), 0);
	assert_int_equal(b, 3ull << 29);
	assert_int_equal(unit_size_parse("infinity", 8, &b), 0);
	assert_true(b == MEMLOCK_INFINITY);
	assert_int_equal(unit_size_parse("64k", 3, &b), -EINVAL);	/* systemd: upper case only */
	assert_int_equal(unit_size_parse("-1", 2, &b), -EINVAL);
	assert_int_equal(unit_size_parse("unlimited", 9, &b), -EINVAL);
	assert_int_equal(unit_size_parse("99999999999E", 12, &b), -EINVAL);
}

static void unit_assignments(void **state)
{
	struct unit_limit l = { 0 };
	int bad = 0;
	(void)state;

	assert_int_equal(unit_limit_parse("[Service]\nLimitMEMLOCK=infinity\n[Install]\n"
					  "LimitMEMLOCK=64K\n", "a", "Service", "LimitMEMLOCK", &l,
					  &bad), 0);
	assert_true(l.set && l.soft == MEMLOCK_INFINITY && l.hard == MEMLOCK_INFINITY);
	assert_string_equal(l.source, "a:2");
	/* a drop-in: a refused value changes nothing, an empty one resets */
	assert_int_equal(unit_limit_parse("[Service]\nLimitMEMLOCK=8M:1M\n", "b", "Service",
					  "LimitMEMLOCK", &l, &bad), 0);
	assert_int_equal(bad, 2);
	assert_true(l.soft == MEMLOCK_INFINITY);
	assert_int_equal(unit_limit_parse(" [Service]\n# x\n LimitMEMLOCK = \n", "c", "Service",
					  "LimitMEMLOCK", &l, NULL), 0);
	assert_false(l.set);
	assert_int_equal(unit_limit_parse("[Service]\nLimitMEMLOCK=64K:8M\n", "d", "Service",
					  "LimitMEMLOCK", &l, NULL), 0);
	assert_true(l.set && l.soft == 65536 && l.hard == 8u << 20);
	free(l.source);
}

static void accounts_and_verdicts(void **state)
{
	struct accounts a = { 0 };
	struct dev_node d = { 0 };
	struct job_identity who;
	char *back;
	(void)state;

	assert_int_equal(passwd_parse("root:x:0:0::/:/bin/sh\nalice:x:1000:1000::/:/bin/sh\n"
				      "bob:x:1001:1001::/:/bin/sh\n+nis::::::\nbad:x:z:1\n", &a), 0);
	assert_int_equal(a.n_users, 3);
	assert_int_equal(group_parse("root:x:0:\nrdma:x:998:alice, bob\nvideo:x:44:\n", &a), 0);
	assert_int_equal(a.groups[1].n_members, 2);
	assert_string_equal(a.groups[1].members[1], "bob");

	assert_int_equal(devnode_record_parse("chr 0660 0 998 -\n", &d), 0);
	assert_int_equal(job_identity_resolve(&a, NULL, NULL, &who), 0);
	assert_int_equal(dev_node_rw(&d, &who), ACCESS_NO);	/* any user: other bits */
	assert_int_equal(job_identity_resolve(&a, "alice", NULL, &who), 0);
	assert_int_equal(dev_node_rw(&d, &who), ACCESS_YES);
	assert_int_equal(job_identity_resolve(&a, "root", NULL, &who), 0);
	assert_int_equal(dev_node_rw(&d, &who), ACCESS_YES);
	assert_int_equal(job_identity_resolve(&a, "nobody", NULL, &who), -ENOENT);
	assert_int_equal(dev_node_rw(&d, &who), ACCESS_UNKNOWN);
	/* the owner gets the owner's bits only, even when the group's are wider */
	assert_int_equal(devnode_record_parse("chr 0460 1000 998 -", &d), 0);
	assert_int_equal(job_identity_resolve(&a, "alice", NULL, &who), 0);
	assert_int_equal(dev_node_rw(&d, &who), ACCESS_NO);

	/* ACL: bob's entry masked to r--; group video named rw- */
	assert_int_equal(devnode_record_parse("chr 0640 0 0 1:0:6,2:1001:6,4:0:4,8:44:6,10:0:4,"
					      "20:0:0", &d), 0);
	assert_int_equal(d.n_acl, 6);
	back = devnode_record_format(&d);
	assert_string_equal(back, "chr 0640 0 0 1:0:6,2:1001:6,4:0:4,8:44:6,10:0:4,20:0:0\n");
	free(back);
	assert_int_equal(job_identity_resolve(&a, "bob", NULL, &who), 0);
	assert_int_equal(dev_node_rw(&d, &who), ACCESS_NO);
	assert_int_equal(job_identity_resolve(&a, "alice", "video", &who), 0);
	assert_int_equal(dev_node_rw(&d, &who), ACCESS_NO);	/* the mask is r-- */
	assert_int_equal(devnode_record_parse("chr 0660 0 0 1:0:6,4:0:0,8:44:6,10:0:6,20:0:0", &d),
			 0);
	assert_int_equal(dev_node_rw(&d, &who), ACCESS_YES);	/* one group entry grants */
	assert_int_equal(devnode_record_parse("chr 0666 0 0 ?", &d), 0);
	assert_int_equal(dev_node_rw(&d, &who), ACCESS_UNKNOWN);
	assert_int_equal(devnode_record_parse("missing", &d), 0);
	assert_int_equal(d.present, 0);
	assert_int_equal(devnode_record_parse("chr 0666 0 0 - extra", &d), -EINVAL);
	assert_int_equal(devnode_record_parse("chr 0666 0 0 3:0:6", &d), -EINVAL);
	dev_node_free(&d);
	accounts_free(&a);
}

/* pam_limits: a user's own line over a group's over "*", the later among
 * equals; a worse-source "-" line stops at its soft half. */
static void pam_precedence(void **state)
{
	struct accounts a = { 0 };
	struct memlock_line *v = NULL;
	size_t n = 0, cap = 0;
	struct job_identity who;
	struct pam_memlock pm;
	(void)state;

	assert_int_equal(passwd_parse("alice:x:1000:1000::/:/bin/sh\nbob:x:1001:1001::/:/bin/sh\n"
				      "carol:x:1002:1002::/:/bin/sh\n", &a), 0);
	assert_int_equal(group_parse("rdma:x:998:alice\n", &a), 0);
	assert_int_equal(limits_conf_parse("alice soft memlock 128\n@rdma - memlock unlimited\n"
					   "* - memlock 64\n* hard memlock 256\ncarol -\n",
					   "l", &v, &n, &cap), 0);
	assert_int_equal(job_identity_resolve(&a, "alice", NULL, &who), 0);
	pam_memlock_eval(v, n, &a, &who, &pm);
	assert_int_equal(pm.soft_bytes, 128 * 1024);	/* her own line */
	/* @rdma's "-" line returned at its soft half (worse than her own), so
	 * its hard half never applied: the "*" hard line did */
	assert_int_equal(pm.hard_bytes, 256 * 1024);
	assert_int_equal(pm.hard->line, 4);
	assert_int_equal(job_identity_resolve(&a, "bob", NULL, &who), 0);
	pam_memlock_eval(v, n, &a, &who, &pm);
	assert_int_equal(pm.soft_bytes, 64 * 1024);
	assert_int_equal(pm.hard_bytes, 256 * 1024);	/* the later "*" line */
	assert_int_equal(pm.hard->line, 4);
	assert_int_equal(job_identity_resolve(&a, "carol", NULL, &who), 0);
	pam_memlock_eval(v, n, &a, &who, &pm);
	assert_non_null(pm.no_limits);
	assert_null(pm.soft);
	lines_free(v, n);
	accounts_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(limits_conf),
		cmocka_unit_test(unit_sizes),
		cmocka_unit_test(unit_assignments),
		cmocka_unit_test(accounts_and_verdicts),
		cmocka_unit_test(pam_precedence),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
