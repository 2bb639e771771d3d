/* The Prometheus text rendering: escaping of what sysfs hands us (quotes,
 * backslashes, newlines, broken UTF-8), numbers read back exactly, one
 * family per name, unknown values left out, findings counted. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "eeprom/module.h"

#include "check/finding.h"
#include "metrics/expo.h"
#include "metrics/metrics.h"

#define S(x) ((char *)(x))

/* ---- the format ------------------------------------------------------- */

static char *label_text(const char *value)
{
	struct expo e;
	size_t len;

	expo_init(&e);
	expo_label_value(&e, value);
	return expo_take(&e, &len);
}

static void expect_label(const char *in, const char *out)
{
	char *got = label_text(in);

	assert_non_null(got);
	assert_string_equal(got, out);
	free(got);
}

static void test_label_escaping(void **state)
{
	(void)state;
	expect_label("mlx5_0", "mlx5_0");
	expect_label("a\"b", "a\\\"b");
	expect_label("a\\b", "a\\\\b");
	expect_label("a\nb", "a\\nb");
	expect_label("\\\"\n", "\\\\\\\"\\n");
	expect_label("", "");
	expect_label(NULL, "");
	/* valid UTF-8 passes as it is */
	expect_label("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
}

static void test_label_broken_utf8(void **state)
{
	(void)state;
	/* each bad byte becomes U+FFFD; what follows is kept */
	expect_label("a\xff" "b", "a\xef\xbf\xbd" "b");
	expect_label("\xc0\x80", "\xef\xbf\xbd\xef\xbf\xbd");		/* overlong NUL */
	expect_label("\xe0\x80\xaf", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");	/* overlong / */
	expect_label("\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");	/* surrogate */
	expect_label("\xf4\x90\x80\x80",
		     "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");	/* past U+10FFFF */
	expect_label("x\xe2\x82", "x\xef\xbf\xbd\xef\xbf\xbd");		/* cut short */
	/* a cut-short sequence does not swallow the quote after it */
	expect_label("\xe2\"", "\xef\xbf\xbd\\\"");
}

/* A terminal that shows a scrape (curl) obeys ESC and C1 controls and
 * reorders text at a bidirectional override (issue 44): each becomes
 * U+FFFD, one a control; a tab stays, a newline is escaped. */
static void test_label_controls(void **state)
{
	(void)state;
	expect_label("a\033[2Jb", "a\xef\xbf\xbd[2Jb");
	expect_label("a\x7f\x01", "a\xef\xbf\xbd\xef\xbf\xbd");
	expect_label("\xc2\x9b" "31m", "\xef\xbf\xbd" "31m");
	expect_label("mlx5_0\xe2\x80\xae" "kaerb", "mlx5_0\xef\xbf\xbd" "kaerb");
	expect_label("\xe2\x81\xa6x\xe2\x81\xa9", "\xef\xbf\xbdx\xef\xbf\xbd");
	expect_label("a\tb", "a\tb");
}

static char *render_sample(const char *name, const struct expo_label *l, size_t n, double v)
{
	struct expo e;
	size_t len;

	expo_init(&e);
	expo_sample(&e, name, l, n, v);
	return expo_take(&e, &len);
}

static void expect_number(double v, const char *text)
{
	char *got = render_sample("m", NULL, 0, v), want[64];

	snprintf(want, sizeof(want), "m %s\n", text);
	assert_string_equal(got, want);
	free(got);
}

static void test_numbers(void **state)
{
	(void)state;
	expect_number(5e10, "50000000000");
	expect_number(32e9, "32000000000");
	expect_number(0.1, "0.1");
	expect_number(-3, "-3");
	expect_number(0, "0");
	expect_number(NAN, "NaN");
	expect_number(INFINITY, "+Inf");
	expect_number(-INFINITY, "-Inf");
	expect_number(1e300, "1e+300");
	/* what needs 17 digits gets them, and reads back the same */
	{
		double v = 1796024009.3121951;
		char *got = render_sample("m", NULL, 0, v);

		assert_true(strtod(got + 2, NULL) == v);
		free(got);
	}
}

static void test_sample_with_labels(void **state)
{
	struct expo_label l[] = { { "device", "mlx5_0" }, { "netdev", "a\"b\\c\nd" },
				  { "pci", NULL } };
	struct expo e;
	size_t len;
	char *text;

	(void)state;
	text = render_sample("rdmadoctor_x", l, 3, 1);
	assert_string_equal(text, "rdmadoctor_x{device=\"mlx5_0\",netdev=\"a\\\"b\\\\c\\nd\","
			    "pci=\"\"} 1\n");
	free(text);
	expo_init(&e);
	expo_sample_u64(&e, "c_total", l, 1, UINT64_MAX);
	text = expo_take(&e, &len);
	assert_string_equal(text, "c_total{device=\"mlx5_0\"} 18446744073709551615\n");
	assert_int_equal(len, strlen(text));
	free(text);
}

static void test_help_escaping(void **state)
{
	struct expo e;
	size_t len;
	char *text;

	(void)state;
	expo_init(&e);
	expo_family(&e, "m", "gauge", "a \"quote\", a \\ and\na newline");
	text = expo_take(&e, &len);
	/* in HELP a quote stays as it is */
	assert_string_equal(text, "# HELP m a \"quote\", a \\\\ and\\na newline\n# TYPE m gauge\n");
	free(text);
}

static void test_metric_names(void **state)
{
	(void)state;
	assert_true(expo_metric_name_ok("rdmadoctor_port_up"));
	assert_true(expo_metric_name_ok("a:b_C9"));
	assert_true(expo_metric_name_ok("_x"));
	assert_false(expo_metric_name_ok("9x"));
	assert_false(expo_metric_name_ok("a-b"));
	assert_false(expo_metric_name_ok("a b"));
	assert_false(expo_metric_name_ok(""));
	assert_false(expo_metric_name_ok(NULL));
}

static void test_empty(void **state)
{
	struct expo e;
	size_t len = 99;
	char *text;

	(void)state;
	expo_init(&e);
	text = expo_take(&e, &len);
	assert_non_null(text);
	assert_string_equal(text, "");
	assert_int_equal(len, 0);
	free(text);
}

/* ---- a machine -------------------------------------------------------- */

static struct counter pma[] = {
	{ S("port_xmit_data"), 4000, true, false, false },
	{ S("port_rcv_data"), 8000, true, true, false },	/* counters_ext/'s, the wider */
	{ S("unicast_rcv_packets"), 123, true, true, false },	/* counters_ext/ only */
	{ S("symbol_error"), 3, true, false, false },
	{ S("link_downed"), 0, false, false, false },		/* unreadable: left out */
	{ S("bad-name"), 1, true, false, false },		/* not a metric name: left out */
	{ S("port_twin"), 1, true, false, false },		/* these two would share a name */
	{ S("twin"), 2, true, false, false },
};
static struct counter hw[] = {
	{ S("out_of_buffer"), 7, true, false, false },
	{ S("rp_cnp_handled"), 18446744073709551615u, true, false, false },
	{ S("np:colon"), 1, true, false, false },		/* a colon: left out */
};

static struct counter eth[] = {
	{ S("rx_prio3_pause"), 5, true, false, false },
	{ S("rx_bytes"), 1000, true, false, false },
	{ S("rx12_packets"), 3, true, false, false },		/* one queue's: left out */
	{ S("ch0_events"), 3, true, false, false },
	{ S("tx_queue_3_bytes"), 3, true, false, false },
	{ S("rx_pcs_symbol_err_phy"), 0, false, false, false },	/* unreadable */
};

static void machine(struct inventory *inv, struct nic *n, struct port *p)
{
	memset(inv, 0, sizeof(*inv));
	memset(n, 0, sizeof(*n));
	memset(p, 0, 2 * sizeof(*p));
	inv->host.hostname = S("node\"1");
	inv->host.kernel = S("6.1.0");
	/* libibverbs known, the kernel's uverbs ABI not (static, as the
	 * strings: nothing here is freed) */
	static struct verbs_user vu = { .library = S("libibverbs.so.1.14.44.0"),
					.release = S("44.0"), .verbs_minor = 14, .pabi = 34,
					.uverbs_abi = -1, .umad_abi = -1 };
	inv->host.verbs_user = &vu;
	inv->nics = n;
	inv->n_nics = 1;
	n->name = S("mlx5_0");
	n->model = S("ConnectX-7");
	n->driver = S("mlx5_core");	/* the vocabulary of its hw_counters' class */
	n->has_pci = true;
	n->pci.bdf = S("0000:18:00.0");
	n->pci.link = (struct pci_link){ 32, 32, 16, 16 };
	/* settings as lspci -vv shows a ConnectX-7 under a BIOS that left
	 * MaxReadReq at 512; ATS present but off; ExtTag unknown */
	n->pci.pcie = (struct pcie_settings){ .express = 1, .mps_cap = 512, .mps = 256,
					      .mrrs = 512, .relaxed_ordering = 1, .ext_tag = -1,
					      .ext_tag_cap = 1, .ats = 1, .ats_enable = 0 };
	/* uverbs0 there (rw for all), rdma_cm missing, umad0 not known;
	 * slurmd's unit sets 64 KiB soft, unlimited hard */
	static struct dev_node nodes[] = {
		{ .name = S("uverbs0"), .nic = S("mlx5_0"), .present = 1, .chr = true,
		  .mode = 0666, .owner = S("root"), .gid = 27 },
		{ .name = S("umad0"), .nic = S("mlx5_0"), .port = 1, .present = -1 },
		{ .name = S("rdma_cm"), .present = 0 },
	};
	static struct dev_access access = {
		.nodes = nodes, .n_nodes = 3,
		.memlock = { .slurmd = 1, .slurmd_limit = { .set = true, .soft = 65536,
							    .hard = MEMLOCK_INFINITY,
							    .source = S("etc/systemd/system/slurmd.service.d/memlock.conf:2") } },
	};
	inv->host.access = &access;
	n->ports = p;
	n->n_ports = 2;
	p[0].num = 1;
	p[0].link_layer = S("Ethernet");
	p[0].state = 4;
	p[0].state_name = S("ACTIVE");
	p[0].phys_state = 5;
	p[0].phys_state_name = S("LinkUp");
	p[0].rate_gbps = 400;
	p[0].lanes = 4;
	p[0].active_mtu = 4096;
	p[0].max_mtu = 4096;
	p[0].netdev = S("eth\\0\n");
	p[0].netdev_mtu = 9000;
	p[0].netdev_speed_mbps = 400000;
	p[0].carrier_changes = 2;
	p[0].counters = (struct counter_set){ pma, sizeof(pma) / sizeof(pma[0]) };
	p[0].hw_counters = (struct counter_set){ hw, sizeof(hw) / sizeof(hw[0]) };
	p[0].eth_stats = (struct counter_set){ eth, sizeof(eth) / sizeof(eth[0]) };
	/* port 2: down, nothing else known */
	p[1].num = 2;
	p[1].state = 1;
	p[1].state_name = S("DOWN");
	p[1].phys_state = NA;
	p[1].rate_gbps = NAN;
	p[1].lanes = NA;
	p[1].active_mtu = p[1].max_mtu = NA;
	p[1].netdev_mtu = p[1].netdev_speed_mbps = p[1].carrier_changes = NA;
}

static char *render(const struct inventory *inv, const struct findings *fs)
{
	struct metrics_report rep = { 0 };
	struct expo e;
	size_t len;

	rep.inv = inv;
	rep.findings = fs;
	rep.profile = "hgx-8x400g";
	rep.check_time = 1700000000.5;
	rep.refresh_seconds = 0.25;
	rep.version = "1.2.3";
	rep.http_version = "0.9.75";
	rep.refreshes = 3;
	rep.refresh_failures = 1;
	expo_init(&e);
	assert_int_equal(metrics_render(&rep, &e), 0);
	return expo_take(&e, &len);
}

/* A line built with printf, in a local buffer named line. */
#define LINE(fmt, ...) (snprintf(line, sizeof(line), fmt, __VA_ARGS__), line)

/* The line of a series, whole, is in the text. */
static void expect_line(const char *text, const char *line)
{
	char *want;
	size_t n = strlen(line);
	const char *at = text;

	want = malloc(n + 2);
	assert_non_null(want);
	snprintf(want, n + 2, "%s\n", line);
	while ((at = strstr(at, want)) && at != text && at[-1] != '\n')
		at++;
	if (!at)
		fail_msg("no line '%s' in:\n%s", line, text);
	free(want);
}

static void expect_no(const char *text, const char *part)
{
	if (strstr(text, part))
		fail_msg("'%s' should not be in:\n%s", part, text);
}

/* Each family's TYPE once, and its samples all between it and the next. */
static void expect_grouped(const char *text)
{
	char seen[200][128];
	size_t n_seen = 0;
	char current[128] = "";

	for (const char *line = text; *line;) {
		const char *end = strchr(line, '\n');
		size_t len = (size_t)(end - line);
		char name[128];

		assert_non_null(end);
		if (strncmp(line, "# TYPE ", 7) == 0) {
			sscanf(line + 7, "%127s", name);
			for (size_t i = 0; i < n_seen; i++)
				if (strcmp(seen[i], name) == 0)
					fail_msg("family %s twice", name);
			assert_true(n_seen < 200);
			snprintf(seen[n_seen++], sizeof(seen[0]), "%s", name);
			snprintf(current, sizeof(current), "%s", name);
		} else if (line[0] != '#') {
			size_t k = strcspn(line, "{ ");

			assert_true(k < len && k < sizeof(name));
			memcpy(name, line, k);
			name[k] = '\0';
			assert_string_equal(name, current);
		}
		line = end + 1;
	}
}

static void test_render_machine(void **state)
{
	struct inventory inv;
	struct nic n;
	struct port p[2];
	char *text;
	const char *lab = "device=\"mlx5_0\",port=\"1\",netdev=\"eth\\\\0\\n\",pci=\"0000:18:00.0\"";
	char line[512];

	(void)state;
	machine(&inv, &n, p);
	text = render(&inv, NULL);
	assert_non_null(text);
	expect_grouped(text);
	expect_line(text, "rdmadoctor_build_info{version=\"1.2.3\",libmicrohttpd=\"0.9.75\"} 1");
	expect_line(text, "rdmadoctor_refresh_success 1");
	expect_line(text, "rdmadoctor_refreshes_total 3");
	expect_line(text, "rdmadoctor_refresh_failures_total 1");
	expect_line(text, "rdmadoctor_refresh_duration_seconds 0.25");
	expect_line(text, "rdmadoctor_last_check_timestamp_seconds 1700000000.5");
	expect_line(text, "rdmadoctor_host_info{hostname=\"node\\\"1\",kernel=\"6.1.0\",dmi_product=\"\"} 1");
	expect_line(text, "rdmadoctor_verbs_info{library=\"libibverbs.so.1.14.44.0\",rdma_core=\"44.0\","
		    "verbs_set=\"1.14\",private_abi=\"34\",uverbs_abi=\"\"} 1");
	expect_line(text, "rdmadoctor_pcie_link_speed_transfers_per_second{device=\"mlx5_0\","
		    "pci=\"0000:18:00.0\"} 32000000000");
	expect_line(text, "rdmadoctor_pcie_link_max_width_lanes{device=\"mlx5_0\",pci=\"0000:18:00.0\"} 16");
	expect_line(text, "rdmadoctor_pcie_max_payload_bytes{device=\"mlx5_0\",pci=\"0000:18:00.0\"} 256");
	expect_line(text, "rdmadoctor_pcie_max_read_request_bytes{device=\"mlx5_0\",pci=\"0000:18:00.0\"} 512");
	expect_line(text, "rdmadoctor_pcie_relaxed_ordering_enabled{device=\"mlx5_0\",pci=\"0000:18:00.0\"} 1");
	expect_line(text, "rdmadoctor_pcie_ats_enabled{device=\"mlx5_0\",pci=\"0000:18:00.0\"} 0");
	assert_null(strstr(text, "rdmadoctor_pcie_ext_tag_enabled{"));	/* unknown: absent */
	expect_line(text, "rdmadoctor_device_node_present{node=\"uverbs0\",device=\"mlx5_0\"} 1");
	expect_line(text, "rdmadoctor_device_node_info{node=\"uverbs0\",device=\"mlx5_0\",mode=\"0666\","
		    "owner=\"root\",group=\"27\"} 1");
	expect_line(text, "rdmadoctor_device_node_present{node=\"rdma_cm\",device=\"\"} 0");
	assert_null(strstr(text, "node=\"umad0\""));	/* not known: absent, never 0 */
	assert_null(strstr(text, "rdmadoctor_device_node_info{node=\"rdma_cm\""));
	expect_line(text, "rdmadoctor_slurmd_memlock_bytes{limit=\"soft\",source=\"etc/systemd/system/"
		    "slurmd.service.d/memlock.conf:2\"} 65536");
	expect_line(text, "rdmadoctor_slurmd_memlock_bytes{limit=\"hard\",source=\"etc/systemd/system/"
		    "slurmd.service.d/memlock.conf:2\"} +Inf");
	expect_line(text, LINE("rdmadoctor_port_up{%s} 1", lab));
	expect_line(text, LINE("rdmadoctor_port_state{%s,state=\"ACTIVE\"} 4", lab));
	expect_line(text, LINE("rdmadoctor_port_info{%s,link_layer=\"Ethernet\",lane_speed=\"\"} 1", lab));
	expect_line(text, LINE("rdmadoctor_port_rate_bytes_per_second{%s} 50000000000", lab));
	expect_line(text, LINE("rdmadoctor_port_active_mtu_bytes{%s} 4096", lab));
	expect_line(text, LINE("rdmadoctor_netdev_mtu_bytes{%s} 9000", lab));
	expect_line(text, LINE("rdmadoctor_port_xmit_data_bytes_total{%s} 4000", lab));
	expect_line(text, LINE("rdmadoctor_port_rcv_data_bytes_total{%s} 8000", lab));
	expect_line(text, LINE("rdmadoctor_port_symbol_error_total{%s} 3", lab));
	expect_line(text, LINE("rdmadoctor_port_unicast_rcv_packets_total{%s} 123", lab));
	/* the HELP says where the value came from */
	expect_line(text, "# HELP rdmadoctor_port_symbol_error_total Port counter symbol_error "
		    "of the port (sysfs counters/symbol_error)");
	expect_line(text, "# HELP rdmadoctor_port_rcv_data_bytes_total Port counter port_rcv_data "
		    "of the port (sysfs counters_ext/, 64 bits), bytes");
	expect_line(text, "# HELP rdmadoctor_port_unicast_rcv_packets_total Port counter "
		    "unicast_rcv_packets of the port (sysfs counters_ext/, 64 bits)");
	/* each hw_counter labelled with its class in mlx5's vocabulary */
	expect_line(text, LINE("rdmadoctor_hw_out_of_buffer_total{%s,class=\"drop\"} 7", lab));
	expect_line(text, LINE("rdmadoctor_hw_rp_cnp_handled_total{%s,class=\"cnp_handled\"} "
			       "18446744073709551615", lab));
	expect_line(text, LINE("rdmadoctor_netdev_carrier_changes_total{%s} 2", lab));
	expect_line(text, LINE("rdmadoctor_ethtool_rx_prio3_pause_total{%s} 5", lab));
	expect_line(text, LINE("rdmadoctor_ethtool_rx_bytes_total{%s} 1000", lab));
	expect_no(text, "rx12_packets");
	expect_no(text, "ch0_events");
	expect_no(text, "tx_queue_3");
	expect_no(text, "pcs_symbol");
	/* the down port: state known, nothing made up for the rest */
	expect_line(text, "rdmadoctor_port_up{device=\"mlx5_0\",port=\"2\",netdev=\"\","
		    "pci=\"0000:18:00.0\"} 0");
	expect_no(text, "port=\"2\",netdev=\"\",pci=\"0000:18:00.0\"} NaN");
	expect_no(text, "rdmadoctor_port_rate_bytes_per_second{device=\"mlx5_0\",port=\"2\"");
	expect_no(text, "rdmadoctor_port_phys_state{device=\"mlx5_0\",port=\"2\"");
	expect_no(text, "rdmadoctor_netdev_mtu_bytes{device=\"mlx5_0\",port=\"2\"");
	/* unreadable, unnamable and ambiguous counters are left out */
	expect_no(text, "link_downed");
	expect_no(text, "bad-name");
	expect_no(text, "bad_name");
	expect_no(text, "colon");
	expect_no(text, "twin");
	/* no check: no verdict, no findings */
	expect_no(text, "rdmadoctor_check_verdict");
	expect_no(text, "rdmadoctor_findings");
	free(text);
}

static void test_render_findings(void **state)
{
	struct inventory inv;
	struct nic n;
	struct port p[2];
	struct findings fs = { 0 };
	char *text;

	(void)state;
	machine(&inv, &n, p);
	assert_non_null(finding_add(&fs, "port.down", SEV_ERROR, "why"));
	assert_non_null(finding_add(&fs, "port.down", SEV_ERROR, "why"));
	assert_non_null(finding_add(&fs, "roce.ecn", SEV_WARN, "why"));
	assert_non_null(finding_add(&fs, "port.down", SEV_WARN, "why"));
	fs.v[3].unchecked = true;	/* a rail whose state could not be read */
	text = render(&inv, &fs);
	expect_grouped(text);
	expect_line(text, "rdmadoctor_check_unchecked 1");
	expect_line(text, "rdmadoctor_check_verdict{profile=\"hgx-8x400g\",verdict=\"fail\"} 1");
	expect_line(text, "rdmadoctor_check_verdict{profile=\"hgx-8x400g\",verdict=\"pass\"} 0");
	expect_line(text, "rdmadoctor_check_verdict{profile=\"hgx-8x400g\",verdict=\"warn\"} 0");
	expect_line(text, "rdmadoctor_findings_by_severity{severity=\"error\"} 2");
	expect_line(text, "rdmadoctor_findings_by_severity{severity=\"warn\"} 2");
	expect_line(text, "rdmadoctor_findings_by_severity{severity=\"info\"} 0");
	expect_line(text, "rdmadoctor_findings{id=\"port.down\",severity=\"error\"} 2");
	expect_line(text, "rdmadoctor_findings{id=\"port.down\",severity=\"warn\"} 1");
	expect_line(text, "rdmadoctor_findings{id=\"roce.ecn\",severity=\"warn\"} 1");
	free(text);
	findings_free(&fs);

	/* nothing found: pass, and every severity still there at 0 */
	text = render(&inv, &fs);
	expect_line(text, "rdmadoctor_check_verdict{profile=\"hgx-8x400g\",verdict=\"pass\"} 1");
	expect_line(text, "rdmadoctor_findings_by_severity{severity=\"error\"} 0");
	expect_line(text, "rdmadoctor_check_unchecked 0");
	expect_no(text, "rdmadoctor_findings{");
	free(text);
}

/* A reading that failed: the server's own families, success 0. */
/* RoCE QoS: PFC and ECN per priority, pause counts exact, unknown absent. */
static void test_render_qos(void **state)
{
	struct inventory inv;
	struct nic n;
	struct port p[2];
	struct qos q;
	char *text, line[512];
	const char *lab = "device=\"mlx5_0\",port=\"1\",netdev=\"eth\\\\0\\n\",pci=\"0000:18:00.0\"";

	(void)state;
	machine(&inv, &n, p);
	qos_init(&q);
	q.trust = S("dscp");
	for (int i = 0; i < 8; i++) {
		q.pfc_enabled[i] = i == 3;
		q.pause_tx[i] = 0;
		q.ecn_np[i] = i == 3;
	}
	q.pause_tx[3] = (int64_t)1 << 60;	/* past 2^53: still exact */
	p[0].qos = &q;
	text = render(&inv, NULL);
	expect_grouped(text);
	expect_line(text, LINE("rdmadoctor_port_qos_info{%s,trust=\"dscp\"} 1", lab));
	expect_line(text, LINE("rdmadoctor_port_pfc_enabled{%s,priority=\"3\"} 1", lab));
	expect_line(text, LINE("rdmadoctor_port_pfc_enabled{%s,priority=\"0\"} 0", lab));
	expect_line(text, LINE("rdmadoctor_port_pfc_pause_frames_sent_total{%s,priority=\"3\"} "
			       "1152921504606846976", lab));
	expect_line(text, LINE("rdmadoctor_port_ecn_np_enabled{%s,priority=\"3\"} 1", lab));
	/* received counts and the reaction point were not read */
	expect_no(text, "rdmadoctor_port_pfc_pause_frames_received_total");
	expect_no(text, "rdmadoctor_port_ecn_rp_enabled");
	free(text);
}

static void test_render_finding_subjects(void **state)
{
	struct inventory inv;
	struct nic n;
	struct port p[2];
	struct findings fs = { 0 };
	struct finding *f;
	char *text;

	(void)state;
	machine(&inv, &n, p);
	assert_non_null(f = finding_add(&fs, "module.dom", SEV_ERROR, "why"));
	finding_set(&f->subject, "mlx5_0 port 2 (eth2) lane 3");
	assert_non_null(f = finding_add(&fs, "pcie.acs", SEV_ERROR, "why"));
	finding_set(&f->subject, "mlx5_0 via bridge 0000:17:01.0");
	assert_non_null(f = finding_add(&fs, "nic.count", SEV_ERROR, "why"));
	finding_set(&f->subject, "rail NICs");
	/* a name that only starts like a NIC's is not that NIC */
	assert_non_null(f = finding_add(&fs, "topo.nic_far", SEV_WARN, "why"));
	finding_set(&f->subject, "mlx5_01 port 1");
	/* waived by the site file: no series, in neither family */
	assert_non_null(f = finding_add(&fs, "sys.memlock", SEV_WARN, "why"));
	finding_set(&f->subject, "host");
	f->waived = true;
	text = render(&inv, &fs);
	expect_no(text, "sys.memlock");
	expect_grouped(text);
	expect_line(text, "rdmadoctor_finding{id=\"module.dom\",severity=\"error\",device=\"mlx5_0\","
			  "port=\"2\",subject=\"mlx5_0 port 2 (eth2) lane 3\"} 1");
	expect_line(text, "rdmadoctor_finding{id=\"pcie.acs\",severity=\"error\",device=\"mlx5_0\","
			  "port=\"\",subject=\"mlx5_0 via bridge 0000:17:01.0\"} 1");
	expect_line(text, "rdmadoctor_finding{id=\"nic.count\",severity=\"error\",device=\"\","
			  "port=\"\",subject=\"rail NICs\"} 1");
	expect_line(text, "rdmadoctor_finding{id=\"topo.nic_far\",severity=\"warn\",device=\"\","
			  "port=\"\",subject=\"mlx5_01 port 1\"} 1");
	free(text);
	findings_free(&fs);
}

static void test_render_modules(void **state)
{
	struct inventory inv;
	struct nic n;
	struct port p[2];
	struct module_info m;
	char *text;

	(void)state;
	machine(&inv, &n, p);
	memset(&m, 0, sizeof(m));
	m.type = "QSFP28";
	m.lanes = 4;
	m.temp_c = 48.5;
	m.vcc_v = NAN;
	for (int i = 0; i < MODULE_MAX_LANES; i++)
		m.tx_bias_ma[i] = m.tx_power_mw[i] = m.rx_power_mw[i] = NAN;
	m.rx_power_mw[0] = 0.5;
	m.rx_power_mw[2] = 0.02;
	m.has_thresholds = true;
	m.temp = (struct module_threshold){ 80, -5, 75, 0 };
	m.vcc = m.tx_bias = m.tx_power = (struct module_threshold){ NAN, NAN, NAN, NAN };
	m.rx_power = (struct module_threshold){ 2, 0.05, 1.5, 0.1 };
	p[0].module = &m;
	text = render(&inv, NULL);
	expect_grouped(text);
	expect_line(text, "rdmadoctor_module_info{device=\"mlx5_0\",port=\"1\",netdev=\"eth\\\\0\\n\","
			  "pci=\"0000:18:00.0\",type=\"QSFP28\",vendor=\"\"} 1");
	expect_line(text, "rdmadoctor_module_temperature_celsius{device=\"mlx5_0\",port=\"1\","
			  "netdev=\"eth\\\\0\\n\",pci=\"0000:18:00.0\"} 48.5");
	/* milliwatts become watts, lanes count from 1, unknown lanes are left out */
	expect_line(text, "rdmadoctor_module_rx_power_watts{device=\"mlx5_0\",port=\"1\","
			  "netdev=\"eth\\\\0\\n\",pci=\"0000:18:00.0\",lane=\"1\"} 0.0005");
	expect_line(text, "rdmadoctor_module_rx_power_watts{device=\"mlx5_0\",port=\"1\","
			  "netdev=\"eth\\\\0\\n\",pci=\"0000:18:00.0\",lane=\"3\"} 2e-05");
	expect_no(text, "lane=\"2\"");
	expect_line(text, "rdmadoctor_module_rx_power_threshold_watts{device=\"mlx5_0\",port=\"1\","
			  "netdev=\"eth\\\\0\\n\",pci=\"0000:18:00.0\",level=\"low_alarm\"} 5e-05");
	expect_line(text, "rdmadoctor_module_temperature_threshold_celsius{device=\"mlx5_0\",port=\"1\","
			  "netdev=\"eth\\\\0\\n\",pci=\"0000:18:00.0\",level=\"high_warn\"} 75");
	/* no reading, no limit: no series */
	expect_no(text, "rdmadoctor_module_voltage");
	expect_no(text, "rdmadoctor_module_tx_bias");
	free(text);
	/* without thresholds, the readings alone */
	m.has_thresholds = false;
	text = render(&inv, NULL);
	expect_no(text, "_threshold_");
	expect_line(text, "rdmadoctor_module_temperature_celsius{device=\"mlx5_0\",port=\"1\","
			  "netdev=\"eth\\\\0\\n\",pci=\"0000:18:00.0\"} 48.5");
	free(text);
}

static void test_render_failed_reading(void **state)
{
	char *text;

	(void)state;
	text = render(NULL, NULL);
	expect_grouped(text);
	expect_line(text, "rdmadoctor_refresh_success 0");
	expect_line(text, "rdmadoctor_refresh_failures_total 1");
	expect_no(text, "rdmadoctor_port");
	expect_no(text, "rdmadoctor_last_check");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label_escaping),
		cmocka_unit_test(test_label_broken_utf8),
		cmocka_unit_test(test_label_controls),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_sample_with_labels),
		cmocka_unit_test(test_help_escaping),
		cmocka_unit_test(test_metric_names),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_render_machine),
		cmocka_unit_test(test_render_findings),
		cmocka_unit_test(test_render_qos),
		cmocka_unit_test(test_render_finding_subjects),
		cmocka_unit_test(test_render_modules),
		cmocka_unit_test(test_render_failed_reading),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
