/* Checks against small machines built in C (check_machine.h):
 * sys.job_memlock and sys.device_access (src/check/sys.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check_machine.h"

static void sys_job_memlock_self(void **state)
{
	struct machine m;
	struct findings fs;
	(void)state;

	healthy(&m);
	m.inv.host.memlock_unlimited = 0;
	m.inv.host.memlock_bytes = 65536;
	run(&m, NULL, &fs);
	expect(&fs, "sys.job_memlock", "host", SEV_WARN, "this process's RLIMIT_MEMLOCK is 65536 bytes", "unlimited");
	assert_non_null(strstr(get(&fs, "sys.job_memlock", "host")->fix, "LimitMEMLOCK=infinity"));
	findings_free(&fs);
	m.inv.host.memlock_unlimited = -1;	/* unknown: not checked (issue 29) */
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "sys.job_memlock"), 1);
	assert_true(expect(&fs, "sys.job_memlock", "host", SEV_INFO, NULL, "unlimited")->unchecked);
	findings_free(&fs);
	machine_free(&m);
}

static void sys_device_access_word(void **state)
{
	struct machine m;
	struct findings fs;
	(void)state;

	healthy(&m);
	free(m.inv.nics[1].uverbs_dev);
	m.inv.nics[1].uverbs_dev = strdup("missing");
	free(m.inv.nics[1].uverbs);
	m.inv.nics[1].uverbs = strdup("uverbs1");
	free(m.inv.nics[2].uverbs_dev);
	m.inv.nics[2].uverbs_dev = strdup("no access");
	free(m.inv.nics[3].uverbs_dev);
	m.inv.nics[3].uverbs_dev = NULL;
	free(m.inv.nics[4].uverbs_dev);
	m.inv.nics[4].uverbs_dev = NULL;
	run(&m, NULL, &fs);
	expect(&fs, "sys.device_access", "mlx5_1", SEV_ERROR, "/dev/infiniband/uverbs1 missing", NULL);
	expect(&fs, "sys.device_access", "mlx5_2", SEV_ERROR, "/dev/infiniband/uverbs0 not accessible to this check",
	       NULL);
	expect(&fs, "sys.device_access", "host", SEV_INFO, "not checked: /dev/infiniband for mlx5_3, mlx5_4",
	       NULL);
	assert_int_equal(count_id(&fs, "sys.device_access"), 3);
	findings_free(&fs);
	machine_free(&m);
}

/* The machine's /dev/infiniband and accounts, from the records and files a
 * snapshot keeps: uverbs0 of mlx5_0 as given, every other NIC's 0666, and
 * rdma_cm. */
static void give_nodes(struct machine *m, const char *uverbs0, const char *acl_rdma_cm)
{
	struct dev_access *a = calloc(1, sizeof(*a));

	assert_non_null(a);
	assert_int_equal(passwd_parse("root:x:0:0::/root:/bin/bash\nalice:x:1000:1000::/h:/bin/sh\n"
				      "bob:x:1001:1001::/h:/bin/sh\n", &a->accounts), 0);
	assert_int_equal(group_parse("root:x:0:\nalice:x:1000:\nbob:x:1001:\nrdma:x:998:alice\n",
				     &a->accounts), 0);
	a->nodes = calloc(m->inv.n_nics + 1, sizeof(*a->nodes));
	assert_non_null(a->nodes);
	for (size_t i = 0; i < m->inv.n_nics; i++) {
		struct dev_node *d = &a->nodes[a->n_nodes++];
		char name[32];

		snprintf(name, sizeof(name), "uverbs%zu", i);
		free(m->inv.nics[i].uverbs);
		m->inv.nics[i].uverbs = strdup(name);
		d->name = strdup(name);
		d->nic = strdup(m->inv.nics[i].name);
		assert_int_equal(devnode_record_parse(i ? "chr 0666 0 0 -" : uverbs0, d), 0);
		d->owner = strdup("root");
		d->group = strdup(d->gid == 998 ? "rdma" : "root");
	}
	a->nodes[a->n_nodes].name = strdup("rdma_cm");
	assert_int_equal(devnode_record_parse(acl_rdma_cm, &a->nodes[a->n_nodes]), 0);
	a->n_nodes++;
	m->inv.host.access = a;
}

static bool has_observed(const struct findings *fs, const char *id, const char *observed)
{
	for (size_t i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i].id, id) && !strcmp(fs->v[i].observed, observed))
			return true;
	dump(fs);
	return false;
}

static void run_site(const struct machine *m, const struct site *site, struct findings *fs)
{
	enum nic_role roles[8];

	memset(fs, 0, sizeof(*fs));
	check_roles(&m->inv, NULL, site, roles);
	assert_int_equal(check_run_site(&m->inv, NULL, site, roles, fs), 0);
}

static void sys_device_access(void **state)
{
	struct machine m;
	struct findings fs;
	struct site site = { 0 };
	(void)state;

	/* a udev rule gave uverbs0 to group rdma: closed to any user */
	healthy(&m);
	give_nodes(&m, "chr 0660 0 998 -", "chr 0666 0 0 -");
	run_site(&m, NULL, &fs);
	expect(&fs, "sys.device_access", "mlx5_0", SEV_ERROR, "/dev/infiniband/uverbs0 is "
	       "crw-rw---- root:rdma: any user cannot open it for reading and writing", NULL);
	assert_int_equal(count_id(&fs, "sys.device_access"), 1);
	findings_free(&fs);
	/* alice is in rdma (etc/group's member list): open to her jobs */
	site.job_user = (char *)"alice";
	run_site(&m, &site, &fs);
	assert_int_equal(count_id(&fs, "sys.device_access"), 0);
	findings_free(&fs);
	/* bob is not */
	site.job_user = (char *)"bob";
	run_site(&m, &site, &fs);
	expect(&fs, "sys.device_access", "mlx5_0", SEV_ERROR, NULL, "/dev/infiniband/uverbs0 "
	       "readable and writable by job user bob");
	findings_free(&fs);
	/* job_group = rdma alone: the group bits decide */
	site.job_user = NULL;
	site.job_group = (char *)"rdma";
	run_site(&m, &site, &fs);
	assert_int_equal(count_id(&fs, "sys.device_access"), 0);
	findings_free(&fs);
	/* a name the accounts lack: not checked, said once */
	site.job_group = NULL;
	site.job_user = (char *)"carol";
	run_site(&m, &site, &fs);
	assert_int_equal(count_id(&fs, "sys.device_access"), 1);
	assert_true(expect(&fs, "sys.device_access", "host", SEV_INFO, NULL, NULL)->unchecked);
	findings_free(&fs);
	/* root opens anything */
	site.job_user = (char *)"root";
	run_site(&m, &site, &fs);
	assert_int_equal(count_id(&fs, "sys.device_access"), 0);
	findings_free(&fs);
	machine_free(&m);

	/* an ACL naming bob (uid 1001) with the mask letting rw- through;
	 * rdma_cm root-only while the rails are open */
	healthy(&m);
	give_nodes(&m, "chr 0660 0 0 1:0:6,2:1001:6,4:0:6,10:0:6,20:0:0", "chr 0600 0 0 -");
	site.job_user = (char *)"bob";
	run_site(&m, &site, &fs);
	assert_null(get(&fs, "sys.device_access", "mlx5_0"));
	expect(&fs, "sys.device_access", "host", SEV_ERROR, "/dev/infiniband/rdma_cm is "
	       "crw------- 0:0: job user bob cannot open it for reading and writing", NULL);
	findings_free(&fs);
	/* the mask takes write away from bob's entry */
	machine_free(&m);
	healthy(&m);
	give_nodes(&m, "chr 0640 0 0 1:0:6,2:1001:6,4:0:6,10:0:4,20:0:0", "missing");
	run_site(&m, &site, &fs);
	expect(&fs, "sys.device_access", "mlx5_0", SEV_ERROR, NULL, NULL);
	assert_non_null(strstr(get(&fs, "sys.device_access", "mlx5_0")->observed, "crw-r-----+"));
	expect(&fs, "sys.device_access", "host", SEV_WARN, "/dev/infiniband/rdma_cm missing", NULL);
	findings_free(&fs);
	machine_free(&m);
}

static void sys_job_memlock(void **state)
{
	struct machine m;
	struct findings fs;
	struct site site = { 0 };
	struct job_memlock *jm;
	size_t cap = 0;
	(void)state;

	healthy(&m);
	give_nodes(&m, "chr 0666 0 0 -", "chr 0666 0 0 -");
	jm = &m.inv.host.access->memlock;
	/* slurmd's drop-in caps it; the later drop-in wins */
	jm->slurmd = 1;
	jm->slurmd_unit = strdup("lib/systemd/system/slurmd.service");
	assert_int_equal(unit_limit_parse("[Service]\nLimitMEMLOCK=infinity\n",
					  "etc/systemd/system/slurmd.service.d/a.conf", "Service",
					  "LimitMEMLOCK", &jm->slurmd_limit, NULL), 0);
	assert_int_equal(unit_limit_parse("[Service]\nLimitMEMLOCK=64K:8M\n",
					  "etc/systemd/system/slurmd.service.d/b.conf", "Service",
					  "LimitMEMLOCK", &jm->slurmd_limit, NULL), 0);
	/* every session 64 KiB, but group rdma unlimited */
	assert_int_equal(limits_conf_parse("*    hard  memlock  64\n*  soft memlock 64\n"
					   "@rdma  -  memlock  unlimited\n", "etc/security/limits.d/x.conf",
					   &jm->lines, &jm->n_lines, &cap), 0);
	run_site(&m, NULL, &fs);
	assert_true(has_observed(&fs, "sys.job_memlock", "slurmd's LimitMEMLOCK is 64 KiB soft, "
				 "8 MiB hard (etc/systemd/system/slurmd.service.d/b.conf:2): its jobs "
				 "get no more"));
	assert_true(has_observed(&fs, "sys.job_memlock",
				 "pam_limits gives any user a soft memlock of 64 KiB "
				 "(etc/security/limits.d/x.conf:2, \"* soft\") and a hard memlock of "
				 "64 KiB (etc/security/limits.d/x.conf:1, \"* hard\")"));
	assert_int_equal(count_id(&fs, "sys.job_memlock"), 2);
	findings_free(&fs);
	/* alice is in rdma: pam_limits gives her unlimited */
	site.job_user = (char *)"alice";
	run_site(&m, &site, &fs);
	assert_int_equal(count_id(&fs, "sys.job_memlock"), 1);
	findings_free(&fs);
	/* a unit that sets nothing: systemd's default */
	free(jm->slurmd_limit.source);
	memset(&jm->slurmd_limit, 0, sizeof(jm->slurmd_limit));
	run_site(&m, &site, &fs);
	assert_non_null(strstr(get(&fs, "sys.job_memlock", "host")->observed,
			       "sets no LimitMEMLOCK"));
	findings_free(&fs);
	/* a file that could not be read: not checked, with the reason */
	jm->slurmd = 0;
	jm->unreadable = strdup("etc/security/limits.d/y.conf: Permission denied");
	run_site(&m, &site, &fs);
	assert_true(expect(&fs, "sys.job_memlock", "host", SEV_INFO,
			   "not checked: etc/security/limits.d/y.conf: Permission denied",
			   NULL)->unchecked);
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sys_job_memlock_self),
		cmocka_unit_test(sys_device_access_word),
		cmocka_unit_test(sys_device_access),
		cmocka_unit_test(sys_job_memlock),
	};

	return cmocka_run_group_tests_name("check_sys", tests, NULL, NULL);
}
