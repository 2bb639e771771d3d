/* kmsg.* (src/check/kmsg.c) against small machines built in C
 * (check_machine.h) and kernel logs built the way model/kmsg_log.h holds
 * them: one finding per (id, subject) with the count and the last line,
 * the subject the NIC a line names (its address or netdev, a bridge above
 * it for AER), the address itself or the host; a first "Link up" is no
 * flap; a log that could not be read, or held no record, is not checked. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check_machine.h"
#include "model/kmsg_log.h"

static struct kmsg_log *log_new(void)
{
	struct kmsg_log *l = calloc(1, sizeof(*l));

	assert_non_null(l);
	l->boot_wall = -1;
	l->v = calloc(16, sizeof(*l->v));
	assert_non_null(l->v);
	return l;
}

static void line(struct kmsg_log *l, const char *id, bool error, bool up, uint64_t usec,
		 const char *device, const char *text)
{
	struct kmsg_fault *f = &l->v[l->n++];

	assert_true(l->n <= 16);
	f->id = id;
	f->error = error;
	f->link_up = up;
	f->usec = usec;
	f->device = device ? strdup(device) : NULL;
	f->line = strdup(text);
}

static void judged(struct machine *m, struct findings *fs)
{
	struct profile p = a100_profile();

	run(m, &p, fs);
}

/* The parent directory's name of a NIC's canonical path: the switch
 * port above it. */
static char *bridge_above(const struct nic *n)
{
	char *path = strdup(n->pci.sysfs_path), *slash;

	assert_non_null(path);
	slash = strrchr(path, '/');
	*slash = '\0';
	slash = strrchr(path, '/');
	memmove(path, slash + 1, strlen(slash + 1) + 1);
	return path;
}

static void subjects_and_counts(void **state)
{
	struct machine m;
	struct findings fs;
	struct kmsg_log *l;
	char *bridge;
	(void)state;

	healthy(&m);
	l = m.inv.host.kmsg = log_new();
	bridge = bridge_above(&m.inv.nics[0]);
	line(l, "kmsg.fw_timeout", true, false, 1500000, m.inv.nics[1].pci.bdf,
	     "mlx5_core 0000:x: wait_func:1152: cmd[0]: ACCESS_REG(0x805) timeout");
	line(l, "kmsg.fw_timeout", true, false, 12500000, m.inv.nics[1].pci.bdf,
	     "mlx5_core 0000:x: wait_func:1152: cmd[0]: QUERY_VPORT(0x750) timeout");
	line(l, "kmsg.aer", false, false, 2000000, bridge, "pcieport: AER: Corrected error");
	line(l, "kmsg.aer", false, false, 2100000, "0000:99:00.0", "AER on another device");
	line(l, "kmsg.pcie_power", false, false, 3000000, "0000:77:00.0", "insufficient power");
	line(l, "kmsg.peermem", false, false, 4000000, NULL, "nvidia_peermem: module unloaded");
	judged(&m, &fs);
	expect(&fs, "kmsg.fw_timeout", "mlx5_1", SEV_ERROR,
	       "2 lines since boot; last at 12.500000 s after boot: mlx5_core 0000:x: "
	       "wait_func:1152: cmd[0]: QUERY_VPORT(0x750) timeout",
	       "no such kernel message since boot");
	expect(&fs, "kmsg.aer", "mlx5_0", SEV_WARN,
	       "1 line since boot; last at 2.000000 s after boot: pcieport: AER: Corrected error",
	       NULL);
	assert_int_equal(count_id(&fs, "kmsg.aer"), 1);	/* not the other device's */
	expect(&fs, "kmsg.pcie_power", "0000:77:00.0", SEV_WARN, NULL, NULL);
	expect(&fs, "kmsg.peermem", "host", SEV_WARN, NULL, NULL);
	findings_free(&fs);
	free(bridge);
	machine_free(&m);
}

/* The first "Link up" of a boot is the link coming up, no flap; a second
 * up is one, with or without a "Link down" logged between; a down is one;
 * the netdev names the NIC.  With the wall clock known, the time too. */
static void link_flaps(void **state)
{
	struct machine m;
	struct findings fs;
	struct kmsg_log *l;
	const char *nd;
	(void)state;

	healthy(&m);
	nd = m.inv.nics[4].ports[0].netdev;
	l = m.inv.host.kmsg = log_new();
	line(l, "kmsg.link_flap", false, true, 9000000, nd, "mlx5_core: Link up");
	judged(&m, &fs);
	assert_int_equal(count_id(&fs, "kmsg.link_flap"), 0);
	findings_free(&fs);

	line(l, "kmsg.link_flap", false, true, 60000000, nd, "mlx5_core: Link up");
	l->boot_wall = 1700000000;
	judged(&m, &fs);
	expect(&fs, "kmsg.link_flap", "mlx5_4", SEV_WARN,
	       "0 link down and 2 link up since boot; last at 60.000000 s after boot "
	       "(2023-11-14T22:14:20Z): mlx5_core: Link up", NULL);
	findings_free(&fs);
	machine_free(&m);
}

/* A log that could not be read, or that holds records of which none is in
 * /dev/kmsg's form, is one "not checked" finding and nothing else; an
 * empty log read whole is no finding. */
static void unreadable(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *f;
	struct kmsg_log *l;
	(void)state;

	healthy(&m);
	l = m.inv.host.kmsg = log_new();
	judged(&m, &fs);
	assert_int_equal(count_id(&fs, "kmsg.unreadable"), 0);
	findings_free(&fs);

	l->err = -EPERM;
	line(l, "kmsg.health", true, false, 1, NULL, "never looked at");
	judged(&m, &fs);
	f = expect(&fs, "kmsg.unreadable", "host", SEV_INFO,
		   "not checked: /dev/kmsg: Operation not permitted (kernel.dmesg_restrict: "
		   "run as root or with CAP_SYSLOG)", "the kernel log read");
	assert_true(f->unchecked);
	assert_int_equal(count_id(&fs, "kmsg.health"), 0);
	findings_free(&fs);

	l->err = 0;
	l->none_parsed = true;
	l->unparsed = 3;
	judged(&m, &fs);
	expect(&fs, "kmsg.unreadable", "host", SEV_INFO,
	       "not checked: the kernel log holds 3 records and none in /dev/kmsg's form "
	       "(PRIO,SEQ,USEC,FLAGS;MESSAGE): it is damaged or not a kernel log", NULL);
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(subjects_and_counts),
		cmocka_unit_test(link_flaps),
		cmocka_unit_test(unreadable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
