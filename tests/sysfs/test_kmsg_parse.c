/* The /dev/kmsg record parser and the fault table (src/sysfs/kmsg_parse.c,
 * kmsg_patterns.c), on records shaped as the kernel writes them. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sysfs/kmsg_parse.h"

static int parse(const char *s, struct kmsg_record *r)
{
	return kmsg_parse_record(s, strlen(s), r);
}

static void test_record_fields(void **state)
{
	struct kmsg_record r;
	const char *s = "3,1234,5678901,-;mlx5_core 0000:08:00.0: boom\n"
			" SUBSYSTEM=pci\n DEVICE=+pci:0000:08:00.0\n";

	(void)state;
	assert_int_equal(parse(s, &r), 0);
	assert_int_equal(r.level, 3);
	assert_int_equal(r.seq, 1234);
	assert_int_equal(r.usec, 5678901);
	assert_int_equal(r.msg_len, strlen("mlx5_core 0000:08:00.0: boom"));
	assert_memory_equal(r.msg, "mlx5_core 0000:08:00.0: boom", r.msg_len);
	assert_string_equal(r.device, "0000:08:00.0");
	/* facility bits: PRIO 30 is daemon.info, level 6 */
	assert_int_equal(parse("30,1,2,c;x\n", &r), 0);
	assert_int_equal(r.level, 6);
	assert_int_equal(r.facility, 3);
	/* old kernels: no FLAGS field */
	assert_int_equal(parse("6,5,123;hello\n", &r), 0);
	assert_int_equal(r.usec, 123);
	assert_int_equal(r.msg_len, 5);
	/* a netdev device */
	assert_int_equal(parse("4,9,1,-;x\n DEVICE=+net:ens1np0\n", &r), 0);
	assert_string_equal(r.device, "ens1np0");
}

static void test_record_rejects(void **state)
{
	struct kmsg_record r;

	(void)state;
	assert_int_equal(parse("", &r), -EINVAL);
	assert_int_equal(parse("garbage", &r), -EINVAL);
	assert_int_equal(parse("3,1,2,-", &r), -EINVAL);	/* no ';' */
	assert_int_equal(parse("18446744073709551616,1,1,-;x", &r), -EINVAL);
	assert_int_equal(parse("3,,1,-;x", &r), -EINVAL);
}

static const char *match(const char *m, int *err)
{
	const struct kmsg_pattern *p = kmsg_match(m, strlen(m), err);

	return p ? p->id : NULL;
}

static void test_patterns(void **state)
{
	int e = -1;

	(void)state;
	assert_string_equal(match("mlx5_core 0000:08:00.0: wait_func:1150:(pid 42): "
				  "ACCESS_REG(0x805) timeout. Will cause a leak of a command resource", &e),
			    "kmsg.fw_timeout");
	assert_int_equal(e, 1);
	assert_string_equal(match("mlx5_core 0000:08:00.0: poll_health:800:(pid 0): "
				  "device's health compromised - reached miss count", &e), "kmsg.health");
	assert_string_equal(match("mlx5_core 0000:41:00.0: print_health_info:458:(pid 0): "
				  "synd 0x8: unrecoverable hardware error", &e), "kmsg.health");
	assert_string_equal(match("mlx5_core 0000:08:00.0 ens1np0: NETDEV WATCHDOG: CPU: 3: "
				  "transmit queue 5 timed out 5120 ms", &e), "kmsg.tx_timeout");
	assert_string_equal(match("mlx5_core 0000:08:00.0: cmd[0]: CREATE_MKEY(0x200) Async, "
				  "timeout. Will cause a leak of a command resource", &e), "kmsg.fw_timeout");
	assert_string_equal(match("mlx5_core 0000:08:00.0: mlx5_pcie_event:301:(pid 1): "
				  "Detected insufficient power on the PCIe slot (27W).", &e), "kmsg.pcie_power");
	assert_int_equal(e, 1);	/* slot power: an error */
	assert_string_equal(match("mlx5_core 0000:08:00.0: Port module event[error]: module 0, "
				  "Cable error, High Temperature", &e), "kmsg.module_temp");
	assert_null(match("mlx5_core 0000:08:00.0: Port module event: module 0, Cable plugged", &e));
	assert_string_equal(match("mlx5_core 0000:08:00.0: mlx5_cmd_out_err:838:(pid 1): "
				  "ACCESS_REG(0x805) op_mod(0x1) failed, status bad parameter(0x3), "
				  "syndrome (0x6fe5d), err(-22)", &e), "kmsg.access_reg");
	assert_string_equal(match("NETDEV WATCHDOG: ens1np0 (mlx5_core): transmit queue 3 timed out 5120 ms",
				  &e), "kmsg.tx_timeout");
	assert_string_equal(match("mlx5_core 0000:08:00.0 ens1np0: Link down", &e), "kmsg.link_flap");
	assert_string_equal(match("mlx5_core 0000:08:00.0 ens1np0: Link up", &e), "kmsg.link_flap");
	/* other drivers word it otherwise: not an mlx5e carrier line */
	assert_null(match("igb 0000:03:00.0 eno1: igb: eno1 NIC Link is Down", &e));
	assert_null(match("ice 0000:17:00.0 ens1: NIC Link is up 100 Gbps Full Duplex", &e));
	{
		char nd[KMSG_TOKEN_MAX];
		const char *w = "NETDEV WATCHDOG: enp57s0np0 (mlx5_core): transmit queue 2 timed out";
		const char *c = "mlx5_core 0000:08:00.0 ens1np0: NETDEV WATCHDOG: CPU: 3: transmit queue 5 timed out 5120 ms";

		kmsg_watchdog_netdev(w, strlen(w), nd);
		assert_string_equal(nd, "enp57s0np0");
		kmsg_watchdog_netdev(c, strlen(c), nd);
		assert_string_equal(nd, "");
		kmsg_watchdog_netdev(w, 20, nd);
		assert_string_equal(nd, "");
	}
	assert_string_equal(match("pcieport 0000:00:01.0: PCIe Bus Error: severity=Corrected, "
				  "type=Physical Layer, (Receiver ID)", &e), "kmsg.aer");
	assert_int_equal(e, 0);
	assert_string_equal(match("pcieport 0000:00:01.0: PCIe Bus Error: severity=Uncorrected (Fatal), "
				  "type=Transaction Layer, (Receiver ID)", &e), "kmsg.aer");
	assert_int_equal(e, 1);
	assert_string_equal(match("pcieport 0000:00:01.0: PCIe Bus Error: severity=Uncorrectable (Fatal), "
				  "type=Transaction Layer, (Requester ID)", &e), "kmsg.aer");
	assert_int_equal(e, 1);
	assert_string_equal(match("pcieport 0000:00:01.0: PCIe Bus Error: severity=Uncorrectable (Non-Fatal), "
				  "type=Transaction Layer, (Requester ID)", &e), "kmsg.aer");
	assert_int_equal(e, 0);
	assert_string_equal(match("nvidia_peermem: Unknown symbol ib_register_peer_memory_client (err -2)",
				  &e), "kmsg.peermem");
	/* the GPU's events: the Xid's own address is the subject; an Xid that
	 * cuts no network path (an application's fault) is quiet even when it
	 * names an NVLink Xid */
	assert_string_equal(match("NVRM: Xid (PCI:0000:44:00): 79, GPU has fallen off the bus", &e),
			    "kmsg.gpu_lost");
	assert_string_equal(match("NVRM: Xid (PCI:0018:01:00): 145, RLW_RXPIPE Nonfatal XC0 i0 "
				  "Link 13 (0x0409a0c2)", &e), "kmsg.nvlink_error");
	assert_int_equal(e, 0);
	assert_string_equal(match("NVRM: Xid (PCI:0019:01:00): 149, NETIR Fatal XC0 i0 Link -1 "
				  "(0x000fe406)", &e), "kmsg.nvlink_error");
	assert_int_equal(e, 1);
	assert_null(match("NVRM: Xid (PCI:0000:dc:00): 45, pid=1, name=python3, Ch 00000001 "
			  "caused by previous Xid 149", &e));
	assert_null(match("NVRM: Xid (PCI:0000:9b:00): 74x, Link down", &e));
	{
		char b[KMSG_TOKEN_MAX];
		const char *x = "NVRM: Xid (PCI:0003:00:00): 74, pid='<unknown>', name=<unknown>, "
				"NVLink: fatal error detected on link 14";

		assert_int_equal(kmsg_find_bdf(x, strlen(x), b), 1);
		assert_string_equal(b, "0003:00:00.0");
		assert_int_equal(kmsg_find_bdf("Xid (PCI:0003:00:0", 18, b), 0);
	}
	assert_string_equal(match("mlx5_core: probe of 0000:01:00.0 failed with error -22", &e),
			    "kmsg.nic_probe");
	assert_string_equal(match("nv_peer_mem: Unknown symbol ib_register_peer_memory_client (err 0)",
				  &e), "kmsg.peermem");
	assert_string_equal(match("mlx5_core 0000:08:00.0 ens1np0: TX timeout on queue: 5, SQ: 0x1, "
				  "CQ: 0x2, SQ Cons: 0x10 SQ Prod: 0x20, usecs since last trans: 7236000",
				  &e), "kmsg.tx_timeout");
	assert_null(match("mlx5_core 0004:01:00.0: Rate limit: 127 rates are supported, range: "
			  "0Mbps to 24414Mbps", &e));
	assert_null(match("usb 1-1: new high-speed USB device number 2 using xhci_hcd", &e));
	assert_null(match("", &e));
}

static void test_bdf(void **state)
{
	char b[KMSG_TOKEN_MAX];
	const char *m = "pcieport 0000:00:01.0: AER: device [8086:a110] error";

	(void)state;
	assert_int_equal(kmsg_find_bdf(m, strlen(m), b), 1);
	assert_string_equal(b, "0000:00:01.0");
	assert_int_equal(kmsg_find_bdf("0000:00:01.9", 12, b), 0);	/* function > 7 */
	assert_int_equal(kmsg_find_bdf("0000:00:01.", 11, b), 0);	/* cut short */
	assert_string_equal(b, "");
}

static void test_stored_run(void **state)
{
	const char *s = "3,1,10,-;a\n DEVICE=+pci:0000:08:00.0\n SUBSYSTEM=pci\n"
			"4,2,20,-;b\n"
			"6,3,30,-;c";
	const char *p = s, *end = s + strlen(s), *rec;
	size_t rl, n = 0;
	struct kmsg_record r;
	uint64_t seqs[3];

	(void)state;
	while (kmsg_next_record(&p, end, &rec, &rl)) {
		assert_true(n < 3);
		assert_int_equal(kmsg_parse_record(rec, rl, &r), 0);
		seqs[n++] = r.seq;
		if (r.seq == 1)
			assert_string_equal(r.device, "0000:08:00.0");
		else
			assert_string_equal(r.device, "");
	}
	assert_int_equal(n, 3);
	assert_int_equal(seqs[0], 1);
	assert_int_equal(seqs[2], 3);
	assert_int_equal(kmsg_next_record(&p, end, &rec, &rl), 0);
}

/* The account of a read (.rdmadoctor/kmsg/reading): what format writes,
 * parse reads back; a text cut short, a key twice, a value not decimal,
 * a key missing give no facts. */
static void test_reading(void **state)
{
	struct kmsg_reading a = { 250000, 3, 812, 7, 40, true }, b;
	char buf[KMSG_READING_MAX];
	size_t n = kmsg_reading_format(&a, buf);
	static const char *const bad[] = {
		"records 1\nunparsed 0\nfirst_seq 0\nlost 0\ndropped 0\n",		/* no cut */
		"records 1\nunparsed 0\nfirst_seq 0\nlost 0\ndropped 0\ncut 1",	/* no '\n' */
		"records 1\nrecords 1\nunparsed 0\nfirst_seq 0\nlost 0\ndropped 0\ncut 0\n",
		"records x\nunparsed 0\nfirst_seq 0\nlost 0\ndropped 0\ncut 0\n",
		"records 1\nunparsed 0\nfirst_seq 0\nlost 0\ndropped 0\ncut 2\n",
		"records 1\nunparsed 2\nfirst_seq 0\nlost 0\ndropped 0\ncut 0\n",	/* more unparsed than read */
		"records 1\nunparsed 0\nfirst_seq 0\nlost 0\ndropped -1\ncut 0\n",
		"records 1 \nunparsed 0\nfirst_seq 0\nlost 0\ndropped 0\ncut 0\n",
		"",
	};

	(void)state;
	assert_string_equal(buf, "records 250000\nunparsed 3\nfirst_seq 812\nlost 7\n"
			    "dropped 40\ncut 1\n");
	assert_int_equal(n, strlen(buf));
	assert_int_equal(kmsg_reading_parse(buf, n, &b), 0);
	assert_int_equal(b.records, a.records);
	assert_int_equal(b.unparsed, a.unparsed);
	assert_int_equal(b.first_seq, a.first_seq);
	assert_int_equal(b.lost, a.lost);
	assert_int_equal(b.dropped, a.dropped);
	assert_true(b.cut);
	/* a key of a later version is skipped */
	{
		const char *s = "records 5\nunparsed 0\nnewer 9\nfirst_seq 0\nlost 0\n"
				"dropped 1\ncut 0\n";

		assert_int_equal(kmsg_reading_parse(s, strlen(s), &b), 0);
		assert_int_equal(b.records, 5);
		assert_int_equal(b.dropped, 1);
		assert_false(b.cut);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		b.records = 99;
		assert_int_equal(kmsg_reading_parse(bad[i], strlen(bad[i]), &b), -EINVAL);
		assert_int_equal(b.records, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_fields),
		cmocka_unit_test(test_record_rejects),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_bdf),
		cmocka_unit_test(test_stored_run),
		cmocka_unit_test(test_reading),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
