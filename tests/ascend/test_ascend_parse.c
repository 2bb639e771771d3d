/* The hccn_tool, npu-smi and /etc/hccn.conf parsers over the formats of
 * docs/ascend.md: values read, unconfirmed ones kept raw, nothing guessed
 * from output they do not know. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ascend/hccn_conf.h"
#include "ascend/hccn_parse.h"
#include "ascend/npu_smi_health.h"
#include "ascend/npu_smi_parse.h"
#include "ascend/npu_smi_table.h"

#define S(lit) lit, sizeof(lit) - 1

static void port_clear(struct npu_port *p)
{
	struct npu_inventory ni = { 0 };
	struct npu one;

	memset(&one, 0, sizeof(one));
	one.port = *p;
	ni.v = malloc(sizeof(one));
	assert_non_null(ni.v);
	ni.v[0] = one;
	ni.n = 1;
	npu_inventory_free(&ni);
	npu_port_init(p);
}

static void link_speed_ip_health(void **state)
{
	struct npu_port p;
	(void)state;

	npu_port_init(&p);
	assert_int_equal(hccn_parse_link(S("link status: UP\n"), &p), 0);
	assert_int_equal(p.link_up, 1);
	assert_int_equal(hccn_parse_link(S("link status: DOWN\n"), &p), 0);
	assert_int_equal(p.link_up, 0);
	assert_int_equal(hccn_parse_link(S("Get link status failed\n"), &p), -ENODATA);
	assert_int_equal(hccn_parse_speed(S("Speed: 100000 Mb/s\n"), &p), 0);
	assert_int_equal(p.speed_mbps, 100000);
	/* an unknown speed is unknown, not a number */
	assert_int_equal(hccn_parse_speed(S("Speed: unknown\n"), &p), 0);
	assert_true(IS_NA(p.speed_mbps));
	assert_int_equal(hccn_parse_ip(S("ipaddr:192.161.200.10\nnetmask:255.255.255.0\n"), &p), 0);
	assert_string_equal(p.ipaddr, "192.161.200.10");
	assert_string_equal(p.netmask, "255.255.255.0");
	assert_false(p.ip_unset);
	port_clear(&p);
	assert_int_equal(hccn_parse_ip(S("Get ipconf failed, because no ip was preset there!\n"),
				       &p), 0);
	assert_true(p.ip_unset);
	assert_null(p.ipaddr);
	assert_int_equal(hccn_parse_net_health(S("net health status: Socket failed\n"), &p), 0);
	assert_string_equal(p.net_health, "Socket failed");
	assert_int_equal(hccn_parse_fec(S("fec mode: rs FEC mode\n"), &p), 0);
	assert_string_equal(p.fec_mode, "rs FEC mode");
	port_clear(&p);
	port_clear(&p);
}

static void link_stat(void **state)
{
	static const char out[] =
		"[devid 0]current time        : Tue Aug  1 14:50:02 2022\n"
		"[devid 0]link up count       : 4\n"
		"[devid 0]link change records :\n"
		"[devid 0]    Mon Jul 25 09:00:00 2022    LINK DOWN\n"
		"[devid 0]    Tue Aug  1 14:40:00 2022    LINK DOWN\n"
		"[devid 0]    Tue Aug  1 14:41:00 2022    LINK UP\n"
		"[devid 0]    Tue Aug  1 14:43:00 2022    LINK DOWN\n"
		"[devid 0]    Tue Aug  1 14:43:40 2022    LINK UP\n";
	struct npu_port p;
	(void)state;

	npu_port_init(&p);
	assert_int_equal(hccn_parse_link_stat(out, sizeof(out) - 1, &p), 0);
	assert_int_equal(p.link_up_count, 4);
	assert_int_equal(p.n_link_changes, 5);
	assert_string_equal(p.link_changes[4], "Tue Aug  1 14:43:40 2022    LINK UP");
	/* the July down is older than a day */
	assert_int_equal(p.link_downs_24h, 2);
	/* newer drivers say [device 0]; without a current time nothing is counted */
	assert_int_equal(hccn_parse_link_stat(S("[device 0]link up count : 1\n"
						"[device 0]    Tue Aug  1 14:43:00 2022    LINK DOWN\n"),
					      &p), 0);
	assert_int_equal(p.link_up_count, 1);
	assert_int_equal(p.n_link_changes, 1);
	assert_true(IS_NA(p.link_downs_24h));
	port_clear(&p);
}

static void optical(void **state)
{
	static const char out[] =
		"optical info:\n"
		"present              : present\n"
		"temperature          : 47 C\n"
		"vendor name          : HUAWEI\n"
		"vendor part number   : 02311YWM\n"
		"Vcc                  : 3262.90 mV\n"
		"Tx Power0            : 4.4035 mW\n"
		"Tx Power3            : 1.0000 mW\n"
		"Rx Power0            : 0.0100 mW\n"
		"Tx Bias2             : 7.9360 mA\n"
		"RxPower Low Thres    : 0.0407 mW\n"
		"Temp High Thres      : 75 C\n"
		"Tx Los Flag          : 0x0\n"
		"Rx Los Flag          : 0xff\n"
		"Media SNR Lane0      : not supported\n";
	struct npu_port p;
	(void)state;

	npu_port_init(&p);
	assert_int_equal(hccn_parse_optical(out, sizeof(out) - 1, &p), 0);
	assert_non_null(p.optical);
	assert_string_equal(p.optical->present, "present");
	assert_string_equal(p.optical->vendor, "HUAWEI");
	assert_string_equal(p.optical->part, "02311YWM");
	assert_true(fabs(p.optical->temp_c - 47) < 1e-9);
	assert_true(fabs(p.optical->vcc_mv - 3262.9) < 1e-9);
	assert_true(fabs(p.optical->tx_mw[0] - 4.4035) < 1e-9);
	assert_true(fabs(p.optical->rx_mw[0] - 0.01) < 1e-9);
	assert_true(isnan(p.optical->rx_mw[1]));
	assert_true(fabs(p.optical->bias_ma[2] - 7.936) < 1e-9);
	assert_int_equal(p.optical->n_lanes, 4);
	assert_true(fabs(p.optical->rx_power.low - 0.0407) < 1e-9);
	assert_true(isnan(p.optical->rx_power.high));
	assert_true(fabs(p.optical->temp.high - 75) < 1e-9);
	assert_int_equal(p.optical->tx_los, 0);
	assert_int_equal(p.optical->rx_los, 0xff);
	assert_true(IS_NA(p.optical->rx_lol));
	assert_true(isnan(p.optical->snr_db[0]));
	assert_int_equal(hccn_parse_optical(S("get optical info failed\n"), &p), -ENODATA);
	assert_null(p.optical);
	port_clear(&p);
}

static void stat_pfc_lldp_mtu(void **state)
{
	struct npu_port p;
	(void)state;

	npu_port_init(&p);
	assert_int_equal(hccn_parse_stat(S("packet statistics:\nroce_rx_err_pkt_num:3\n"
					   "mac_rx_pfc_pri4_pkt_num:120\nnot a counter\n"), &p), 0);
	assert_int_equal(p.stat->n, 2);
	assert_string_equal(p.stat->v[0].name, "roce_rx_err_pkt_num");
	assert_int_equal(p.stat->v[0].value, 3);
	assert_int_equal(p.stat->v[1].value, 120);
	assert_int_equal(hccn_parse_pfc(S("PFC configuration:\npriority   0 1 2 3 4 5 6 7\n"
					  "enabled    0 0 0 0 1 0 0 0\n"), &p), 0);
	assert_int_equal(p.pfc_enabled[4], 1);
	assert_int_equal(p.pfc_enabled[3], 0);
	/* without a priority row the columns mean nothing: not taken */
	port_clear(&p);
	assert_int_equal(hccn_parse_pfc(S("enabled 0 0 0 1 0 0 0 0\n"), &p), -ENODATA);
	assert_int_equal(p.pfc_enabled[3], -1);
	assert_int_equal(hccn_parse_lldp(S("Chassis ID TLV\n\tMAC: 00:11:22:33:44:55\n"
					   "Port ID TLV\n\tIfname: 100GE1/0/3\n"
					   "System Name TLV\n\tleaf-07\n"), &p), 0);
	assert_string_equal(p.lldp_port, "100GE1/0/3");
	assert_string_equal(p.lldp_system, "leaf-07");
	assert_int_equal(hccn_parse_mtu(S("mtu:9000\n"), &p), 0);
	assert_int_equal(p.mtu, 9000);
	assert_int_equal(hccn_parse_mtu(S("MTU 1500\n"), &p), 0);
	assert_int_equal(p.mtu, 1500);
	assert_string_equal(p.mtu_raw, "MTU 1500");
	/* a word where the number should be: kept raw, no number */
	assert_int_equal(hccn_parse_mtu(S("mtu: default\n"), &p), 0);
	assert_true(IS_NA(p.mtu));
	assert_string_equal(p.mtu_raw, "mtu: default");
	port_clear(&p);
}

/* Item: a tab, or several blanks, after the row's word is a column
 * separator like a space ("priority\t0 1 ..." lost its first column). */
static void pfc_tabs(void **state)
{
	struct npu_port p;
	(void)state;

	npu_port_init(&p);
	assert_int_equal(hccn_parse_pfc(S("PFC configuration:\npriority\t0 1 2 3 4 5 6 7\n"
					  "enabled\t \t0 0 0 0 1 0 0 0\n"), &p), 0);
	assert_int_equal(p.pfc_enabled[0], 0);
	assert_int_equal(p.pfc_enabled[4], 1);
	assert_int_equal(p.pfc_enabled[7], 0);
	port_clear(&p);
}

/* Newer hccn_tool prints one block per bond member ("[dev_name:eth0]" then
 * its rows): every member is kept, none overwrites another. */
static void pfc_members(void **state)
{
	static const char out[] =
		"PFC configuration:\n"
		"[dev_name:eth0]\n"
		"priority   0 1 2 3 4 5 6 7\n"
		"enabled    0 0 0 0 1 0 0 0\n"
		"[dev_name:eth1]\n"
		"priority   0 1 2 3 4 5 6 7\n"
		"enabled    0 0 0 1 0 0 0 0\n";
	struct npu_port p;
	(void)state;

	npu_port_init(&p);
	assert_int_equal(hccn_parse_pfc(out, sizeof(out) - 1, &p), 0);
	assert_int_equal(p.n_pfc_members, 2);
	assert_string_equal(p.pfc_members[0].dev, "eth0");
	assert_int_equal(p.pfc_members[0].enabled[4], 1);
	assert_int_equal(p.pfc_members[0].enabled[3], 0);
	assert_string_equal(p.pfc_members[1].dev, "eth1");
	assert_int_equal(p.pfc_members[1].enabled[4], 0);
	assert_int_equal(p.pfc_members[1].enabled[3], 1);
	/* the port's own row: where the members disagree it is not one value */
	assert_int_equal(p.pfc_enabled[4], -1);
	assert_int_equal(p.pfc_enabled[3], -1);
	assert_int_equal(p.pfc_enabled[0], 0);
	/* a run again on an answer of one block replaces the members */
	assert_int_equal(hccn_parse_pfc(S("priority 0 1 2 3 4 5 6 7\nenabled 0 0 0 0 1 0 0 0\n"),
					&p), 0);
	assert_int_equal(p.n_pfc_members, 0);
	assert_int_equal(p.pfc_enabled[4], 1);
	/* a member without its rows is not taken as all off */
	assert_int_equal(hccn_parse_pfc(S("[dev_name:eth0]\npriority 0 1 2 3 4 5 6 7\n"
					  "enabled 0 0 0 0 1 0 0 0\n[dev_name:eth1]\n"), &p), 0);
	assert_int_equal(p.n_pfc_members, 1);
	assert_string_equal(p.pfc_members[0].dev, "eth0");
	port_clear(&p);
}

/* An empty System Name (the name line blank, or the next TLV's header at
 * once) is no name: never the next header. */
static void lldp_empty_name(void **state)
{
	struct npu_port p;
	(void)state;

	npu_port_init(&p);
	assert_int_equal(hccn_parse_lldp(S("Port ID TLV\n\tIfname: 100GE1/0/3\n"
					   "System Name TLV\n"
					   "System Description TLV\n\tHuawei VRP\n"), &p), 0);
	assert_string_equal(p.lldp_port, "100GE1/0/3");
	assert_null(p.lldp_system);
	port_clear(&p);
	assert_int_equal(hccn_parse_lldp(S("System Name TLV\n\t\n"
					   "System Description TLV\n\tHuawei VRP\n"
					   "Port ID TLV\n\tIfname: 100GE1/0/4\n"), &p), 0);
	assert_null(p.lldp_system);
	assert_string_equal(p.lldp_port, "100GE1/0/4");
	port_clear(&p);
}

/* A port without optical commands (hccn_tool refuses -optical on some
 * boards) answered: not supported, not a failed read. */
static void optical_unsupported(void **state)
{
	struct npu_port p;
	(void)state;

	npu_port_init(&p);
	assert_int_equal(hccn_parse_optical(S("This device does not support optical cmd.\n"), &p),
			 0);
	assert_true(p.optical_unsupported);
	assert_null(p.optical);
	port_clear(&p);
}

/* The IPv6 form of -ip, and values that are not addresses: no fact, and
 * the line kept to say why it was not checked. */
static void ip_v6_and_malformed(void **state)
{
	struct npu_port p;
	(void)state;

	npu_port_init(&p);
	assert_int_equal(hccn_parse_ip(S("ipv6_address:fd00:1::10\nprefix_length:64\n"), &p), 0);
	assert_string_equal(p.ipv6addr, "fd00:1::10");
	assert_int_equal(p.ipv6_prefix, 64);
	assert_null(p.ipaddr);
	assert_null(p.ip_malformed);
	port_clear(&p);
	assert_int_equal(hccn_parse_ip(S("ipaddr:192.161.200.10\nnetmask:255.255.255.0\n"
					 "ipv6_address:fd00:1::10\nprefix_length:64\n"), &p), 0);
	assert_string_equal(p.ipaddr, "192.161.200.10");
	assert_string_equal(p.ipv6addr, "fd00:1::10");
	port_clear(&p);
	/* not an address: neither value taken, the line named */
	assert_int_equal(hccn_parse_ip(S("ipaddr:192.161.200\nnetmask:255.255.255.0\n"), &p), 0);
	assert_null(p.ipaddr);
	assert_null(p.netmask);
	assert_string_equal(p.ip_malformed, "ipaddr:192.161.200");
	port_clear(&p);
	assert_int_equal(hccn_parse_ip(S("ipaddr:10.0.0.1\nnetmask:255.255.0.255\n"), &p), 0);
	assert_null(p.ipaddr);
	assert_string_equal(p.ip_malformed, "netmask:255.255.0.255");
	port_clear(&p);
	assert_int_equal(hccn_parse_ip(S("ipv6_address:fd00::zz\nprefix_length:200\n"), &p), 0);
	assert_null(p.ipv6addr);
	assert_true(IS_NA(p.ipv6_prefix));
	assert_string_equal(p.ip6_malformed, "ipv6_address:fd00::zz");
	assert_null(p.ip_malformed);
	/* a run again replaces what the last one found */
	assert_int_equal(hccn_parse_ip(S("ipv6_address:fd00:1::10\nprefix_length:64\n"), &p), 0);
	assert_string_equal(p.ipv6addr, "fd00:1::10");
	assert_null(p.ip6_malformed);
	port_clear(&p);
}

static void npu_smi(void **state)
{
	static const char list[] =
		"        NPU ID                         Chip ID                        Chip Logic ID                  Chip Name\n"
		"        0                              0                              0                              Ascend 910A\n"
		"        1                              0                              1                              Ascend 910A\n"
		"        1                              1                              -                              Mcu\n";
	static const char board[] =
		"        NPU ID                         : 1\n"
		"        Software Version               : 23.0.rc2\n"
		"        Firmware Version               : 6.4.12.1.241\n"
		"        PCIe Bus Info                  : 0000:61:00.0\n"
		"        PCI Device ID                  : 0xD801\n";
	/* two dies per NPU (Atlas A3): a Chip Phy-ID column, one row per die */
	static const char dies[] =
		"    NPU ID                         Chip ID                        Chip Logic ID                  Chip Phy-ID                    Chip Name\n"
		"    0                              0                              0                              0                              Ascend910\n"
		"    0                              1                              1                              1                              Ascend910\n"
		"    0                              2                              -                              -                              Mcu\n"
		"    1                              0                              2                              2                              Ascend910\n";
	struct npu_smi_chip *rows;
	struct npu_smi_board b = { 0 };
	struct npu_smi_list_cols cols;
	char why[160];
	size_t n;
	(void)state;

	assert_int_equal(npu_smi_parse_list(dies, sizeof(dies) - 1, &rows, &n, &cols, why,
					    sizeof(why)), 0);
	assert_true(cols.phy && cols.logic && !cols.slot);
	assert_int_equal(n, 4);
	assert_int_equal(rows[1].npu_id, 0);
	assert_int_equal(rows[1].chip_id, 1);
	assert_int_equal(rows[1].logic_id, 1);
	assert_int_equal(rows[1].phy_id, 1);
	assert_string_equal(rows[1].name, "Ascend910");
	assert_true(IS_NA(rows[2].logic_id) && IS_NA(rows[2].phy_id));
	assert_string_equal(rows[2].name, "Mcu");
	assert_int_equal(rows[3].phy_id, 2);
	npu_smi_chips_free(rows, n);

	assert_int_equal(npu_smi_parse_list(list, sizeof(list) - 1, &rows, &n, &cols, why,
					    sizeof(why)), 0);
	assert_false(cols.phy);
	assert_true(IS_NA(rows[0].phy_id));
	assert_int_equal(n, 3);
	assert_int_equal(rows[1].npu_id, 1);
	assert_int_equal(rows[1].logic_id, 1);
	assert_string_equal(rows[1].name, "Ascend 910A");
	assert_true(IS_NA(rows[2].logic_id));
	npu_smi_chips_free(rows, n);
	assert_int_equal(npu_smi_parse_board(board, sizeof(board) - 1, &b), 0);
	assert_string_equal(b.bus_info, "0000:61:00.0");
	assert_string_equal(b.fw_version, "6.4.12.1.241");
	assert_string_equal(b.sw_version, "23.0.rc2");
	assert_string_equal(b.pci_device_id, "0xD801");
	npu_smi_board_free(&b);
	assert_int_equal(npu_smi_parse_board(S("Error: device not found\n"), &b), -ENODATA);
}

/* `npu-smi info -m` read by its header's names.  The Ascend 950 listing's
 * columns are those of SwanLab's test input for it (SwanHubX/SwanLab,
 * tests/unit/sdk/internal/probe_python/hardware_vendor/test_hardware_huawei.py,
 * from their 950PR with npu-smi 25.7.rc1): a test input, not a capture. */
static void npu_smi_list_by_header(void **state)
{
	static const char a5[] =
		"NPU ID  Slot ID  Chip ID  Chip Phy-ID  Chip Name\n"
		"0       1        0        0            Ascend950PR\n"
		"1       2        0        1            Ascend950PR\n";
	/* the columns in another order are still read by name */
	static const char moved[] =
		"NPU ID   Chip Logic ID   Chip ID   Chip Name\n"
		"3        7               0         Ascend 910B3\n";
	struct npu_smi_chip *rows;
	struct npu_smi_list_cols cols;
	char why[160];
	size_t n;
	(void)state;

	assert_int_equal(npu_smi_parse_list(S(a5), &rows, &n, &cols, why, sizeof(why)), 0);
	assert_true(cols.slot && cols.phy && !cols.logic);
	assert_int_equal(n, 2);
	/* the Slot ID (1, 2) is not taken for the Chip ID (0) */
	assert_int_equal(rows[1].npu_id, 1);
	assert_int_equal(rows[1].slot_id, 2);
	assert_int_equal(rows[1].chip_id, 0);
	assert_int_equal(rows[1].phy_id, 1);
	assert_true(IS_NA(rows[1].logic_id));
	assert_string_equal(rows[1].name, "Ascend950PR");
	npu_smi_chips_free(rows, n);

	assert_int_equal(npu_smi_parse_list(S(moved), &rows, &n, &cols, why, sizeof(why)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(rows[0].npu_id, 3);
	assert_int_equal(rows[0].logic_id, 7);
	assert_int_equal(rows[0].chip_id, 0);
	assert_string_equal(rows[0].name, "Ascend 910B3");
	npu_smi_chips_free(rows, n);

	/* a column not known, or no header at all: not read, and said why */
	assert_int_equal(npu_smi_parse_list(S("NPU ID  Board ID  Chip ID  Chip Name\n"
					      "0       5         0        Ascend910\n"),
					    &rows, &n, &cols, why, sizeof(why)), -EPROTO);
	assert_null(rows);
	assert_non_null(strstr(why, "Board ID"));
	assert_int_equal(npu_smi_parse_list(S("0  0  0  Ascend 910A\n"), &rows, &n, &cols, why,
					    sizeof(why)), -EPROTO);
	assert_non_null(strstr(why, "no header"));
}

/* A capture of tests/fixtures/ascend-captures (README there names its
 * source), read whole. */
static char *capture(const char *name, size_t *len)
{
	const char *dir = getenv("RD_FIXTURES");
	char path[512], *buf;
	FILE *f;
	long n;

	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/ascend-captures/%s", dir, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* `npu-smi info` of an Atlas 800T A2 (8 x 910B3), a real capture */
static void table_910b(void **state)
{
	struct npu_smi_row *rows;
	char why[160];
	size_t n, len;
	char *buf = capture("npu-smi-info-910b3.txt", &len);
	(void)state;

	assert_int_equal(npu_smi_parse_table(buf, len, &rows, &n, why, sizeof(why)), 0);
	assert_int_equal(n, 8);
	assert_int_equal(rows[0].npu_id, 0);
	assert_int_equal(rows[0].chip_id, 0);
	assert_true(IS_NA(rows[0].phy_id));
	assert_string_equal(rows[0].name, "910B3");
	assert_string_equal(rows[0].health, "OK");
	assert_string_equal(rows[0].bus_id, "0000:C1:00.0");
	assert_true(fabs(rows[0].power_w - 98.1) < 1e-9);
	assert_true(fabs(rows[0].temp_c - 41) < 1e-9);
	assert_int_equal(rows[6].npu_id, 6);
	assert_true(fabs(rows[6].power_w - 100.0) < 1e-9);
	assert_int_equal(rows[7].npu_id, 7);
	assert_string_equal(rows[7].bus_id, "0000:42:00.0");
	assert_true(fabs(rows[7].temp_c - 45) < 1e-9);
	npu_smi_rows_free(rows, n);

	/* cut off inside a chip's second line, or between its two lines, the
	 * table is not taken (each line of the capture is 99 bytes) */
	assert_int_equal(npu_smi_parse_table(buf, 6 * 99 + 99 + 50, &rows, &n, why, sizeof(why)),
			 -EPROTO);
	assert_null(rows);
	assert_non_null(strstr(why, "cut short"));
	assert_int_equal(npu_smi_parse_table(buf, 6 * 99 + 99, &rows, &n, why, sizeof(why)),
			 -EPROTO);
	assert_non_null(strstr(why, "between the two lines"));
	free(buf);
}

/* `npu-smi info` of an Atlas A3 (8 NPUs of two dies), a real capture: the
 * Phy-ID column, power on die 0 only ("-" on die 1), "62308/ 65536" */
static void table_a3(void **state)
{
	struct npu_smi_row *rows;
	char why[160];
	size_t n, len;
	char *buf = capture("npu-smi-info-a3.txt", &len);
	(void)state;

	assert_int_equal(npu_smi_parse_table(buf, len, &rows, &n, why, sizeof(why)), 0);
	assert_int_equal(n, 16);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(rows[i].npu_id, (int64_t)i / 2);
		assert_int_equal(rows[i].chip_id, (int64_t)i % 2);
		assert_int_equal(rows[i].phy_id, (int64_t)i);
		assert_string_equal(rows[i].health, "OK");
		assert_true(i % 2 ? isnan(rows[i].power_w) : rows[i].power_w > 150);
	}
	assert_true(fabs(rows[0].power_w - 164.0) < 1e-9);
	assert_true(fabs(rows[1].temp_c - 30) < 1e-9);
	assert_string_equal(rows[4].bus_id, "0000:95:00.0");
	assert_string_equal(rows[15].bus_id, "0000:83:00.0");
	assert_true(fabs(rows[15].temp_c - 28) < 1e-9);
	npu_smi_rows_free(rows, n);
	free(buf);
}

/* Header layouts not known are not read, never guessed at.  Test inputs
 * cut from the 910B3 capture, edited as each case says. */
static void table_unknown(void **state)
{
	static const char slot[] =
		"| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|\n"
		"| Chip  Slot ID             | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |\n"
		"+===========================+===============+====================================================+\n"
		"| 0     910B3               | OK            | 98.1        41                0    / 0             |\n"
		"| 0     1                   | 0000:C1:00.0  | 0           0    / 0          3389 / 65536         |\n";
	/* a third-column cell with one value fewer than its header names */
	static const char short_row[] =
		"| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|\n"
		"| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |\n"
		"| 0     910B3               | Alarm         | 98.1        41                                     |\n"
		"| 0                         | 0000:C1:00.0  | 0           0    / 0          3389 / 65536         |\n";
	/* the inference cards' layout (Device column, no HBM), as Huawei's
	 * npu-smi reference prints it for the Atlas 200I A2 */
	static const char device[] =
		"| NPU     Name                  | Health          | Power(W)     Temp(C)           Hugepages-Usage(page) |\n"
		"| Chip    Device                | Bus-Id          | AICore(%)    Memory-Usage(MB)                        |\n"
		"+===============================+=================+======================================================+\n"
		"| 0       xxx                   | Warning         | 10.4          66                15    / 15           |\n"
		"| 0       0                     | NA              | 0            957   / 10810                           |\n"
		"+===============================+=================+======================================================+\n";
	static const char wide_procs[] =
		"| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|\n"
		"| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |\n"
		"| 0     910B3               | OK            | 98.1        41                0    / 0             |\n"
		"| 0                         | 0000:C1:00.0  | 0           0    / 0          3389 / 65536         |\n"
		"+===========================+===============+====================================================+\n"
		"| NPU     Chip              | Process id    | Process name       | Process memory(MB)    | Process id in container |\n"
		"| 0       0                 | 692318        | python3            | 12417                 | NA                      |\n";
	struct npu_smi_row *rows;
	char why[160];
	size_t n;
	(void)state;

	assert_int_equal(npu_smi_parse_table(S(slot), &rows, &n, why, sizeof(why)), -EPROTO);
	assert_non_null(strstr(why, "\"Slot\""));
	assert_int_equal(npu_smi_parse_table(S(short_row), &rows, &n, why, sizeof(why)), -EPROTO);
	assert_non_null(strstr(why, "does not fit"));
	assert_int_equal(npu_smi_parse_table(S("Error: no device\n"), &rows, &n, why, sizeof(why)),
			 -EPROTO);
	assert_non_null(strstr(why, "no table header"));
	/* a newer npu-smi's process table has a fifth cell (Process id in
	 * container, as the output in nyaterm issue 268 shows): the chips end */
	assert_int_equal(npu_smi_parse_table(S(wide_procs), &rows, &n, why, sizeof(why)), 0);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].health, "OK");
	npu_smi_rows_free(rows, n);
	assert_int_equal(npu_smi_parse_table(S(device), &rows, &n, why, sizeof(why)), 0);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].health, "Warning");
	assert_true(fabs(rows[0].temp_c - 66) < 1e-9);
	assert_string_equal(rows[0].bus_id, "NA");
	npu_smi_rows_free(rows, n);
}

/* `npu-smi info -t health`: the one-chip form of Huawei's npu-smi
 * reference (Health Status, Error Code, Error Information; "NA" for
 * none), and the per-NPU form (a "Health" line per chip, the NPU's first).
 * Formats from the reference, not captures; the alarm's code and text are
 * made up in that form. */
static void health(void **state)
{
	static const char ok[] =
		"        Health Status                  : OK\n"
		"        Error Code                     : NA\n"
		"        Error Information              : NA\n";
	static const char alarm[] =
		"        Health Status                  : Alarm\n"
		"        Error Code                     : 80E18008 80CB8009\n"
		"        Error Information              : node type=HBM, sensor type=ECC\n";
	static const char per_npu[] =
		"        NPU ID                         : 0\n"
		"        Chip Count                     : 1\n"
		"  \n"
		"        Chip ID                        : 0\n"
		"        Health                         : Critical\n"
		"\n"
		"        Health                         : OK\n"
		"        Chip Name                      : MCU\n";
	struct npu_smi_health h = { 0 };
	(void)state;

	assert_int_equal(npu_smi_parse_health(S(ok), &h), 0);
	assert_string_equal(h.status, "OK");
	assert_null(h.code);
	assert_null(h.info);
	npu_smi_health_free(&h);
	assert_int_equal(npu_smi_parse_health(S(alarm), &h), 0);
	assert_string_equal(h.status, "Alarm");
	assert_string_equal(h.code, "80E18008 80CB8009");
	assert_string_equal(h.info, "node type=HBM, sensor type=ECC");
	npu_smi_health_free(&h);
	/* the NPU's chip, not the MCU after it */
	assert_int_equal(npu_smi_parse_health(S(per_npu), &h), 0);
	assert_string_equal(h.status, "Critical");
	npu_smi_health_free(&h);
	assert_int_equal(npu_smi_parse_health(S("Error: device 9 does not exist\n"), &h),
			 -ENODATA);
	assert_null(h.status);
}

static void conf(void **state)
{
	static const char text[] =
		"# hccn.conf\n"
		"address_0=192.168.100.101\n"
		"netmask_0=255.255.255.0\n"
		"netdetect_0=192.168.100.1\n"
		"address_10=10.0.0.10\n"
		"send_arp_status_0=1\n";
	struct npu_plan plan = { 0 };
	(void)state;

	assert_int_equal(hccn_conf_plan(text, sizeof(text) - 1, 0, &plan), 0);
	assert_string_equal(plan.address, "192.168.100.101");
	assert_string_equal(plan.netmask, "255.255.255.0");
	assert_string_equal(plan.netdetect, "192.168.100.1");
	assert_null(plan.gateway);
	npu_plan_free(&plan);
	/* id 1 is not id 10 */
	assert_int_equal(hccn_conf_plan(text, sizeof(text) - 1, 1, &plan), -ENODATA);
	assert_int_equal(hccn_conf_plan(text, sizeof(text) - 1, 10, &plan), 0);
	assert_string_equal(plan.address, "10.0.0.10");
	npu_plan_free(&plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(link_speed_ip_health),
		cmocka_unit_test(link_stat),
		cmocka_unit_test(optical),
		cmocka_unit_test(stat_pfc_lldp_mtu),
		cmocka_unit_test(pfc_tabs),
		cmocka_unit_test(pfc_members),
		cmocka_unit_test(lldp_empty_name),
		cmocka_unit_test(optical_unsupported),
		cmocka_unit_test(ip_v6_and_malformed),
		cmocka_unit_test(npu_smi),
		cmocka_unit_test(npu_smi_list_by_header),
		cmocka_unit_test(table_910b),
		cmocka_unit_test(table_a3),
		cmocka_unit_test(table_unknown),
		cmocka_unit_test(health),
		cmocka_unit_test(conf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
