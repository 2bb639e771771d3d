/* Checks against small machines built in C (check_machine.h): pcie.*
 * (src/check/pcie.c). */
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

static void pcie_link_degraded(void **state)
{
	struct machine m;
	struct profile p = a100_profile(), g = generic_profile();
	struct findings fs;
	struct pci_func *f;
	(void)state;

	healthy(&m);
	/* trained x8: the switch downstream port above reads the same link */
	f = &m.inv.nics[2].pci;
	f->link.width = 8;
	f->upstream[f->n_upstream - 1].link.width = 8;
	run(&m, &g, &fs);
	expect(&fs, "pcie.link_degraded", "mlx5_2", SEV_WARN, "Gen4 x8", "Gen4 x16");
	assert_int_equal(count_id(&fs, "pcie.link_degraded"), 1);
	assert_int_equal(count_id(&fs, "pcie.upstream_degraded"), 0);
	assert_non_null(strstr(get(&fs, "pcie.link_degraded", "mlx5_2")->fix, "bifurcation"));
	/* x8 also caps the 200 Gb/s port: one cause, one finding that says so */
	assert_non_null(strstr(get(&fs, "pcie.link_degraded", "mlx5_2")->fix,
			       "carries about 15.75 GB/s where the port needs 25 GB/s"));
	assert_int_equal(count_id(&fs, "pcie.bottleneck"), 0);
	findings_free(&fs);
	/* a slot wired for x8 (its port can do no more): the x16 card trained
	 * all the slot allows, yet gets half its bandwidth.  Judged against the
	 * card: a warning, on a rail too, that names the slot */
	f->upstream[f->n_upstream - 1].link.max_width = 8;
	p.role[ROLE_RAIL].pcie_width = 0;
	run(&m, &p, &fs);
	expect(&fs, "pcie.link_degraded", "mlx5_2", SEV_WARN, "Gen4 x8", "Gen4 x16");
	assert_non_null(strstr(get(&fs, "pcie.link_degraded", "mlx5_2")->fix,
			       "its slot (0000:32:0c.0) no more than x8: move it to a slot wired "
			       "for x16"));
	assert_non_null(strstr(get(&fs, "pcie.link_degraded", "mlx5_2")->fix,
			       "carries about 15.75 GB/s where the port needs 25 GB/s"));
	assert_int_equal(count_id(&fs, "pcie.link_degraded"), 1);
	assert_int_equal(count_id(&fs, "pcie.bottleneck"), 0);
	findings_free(&fs);
	/* ... and an error where the profile wants x16 */
	p.role[ROLE_RAIL].pcie_width = 16;
	run(&m, &p, &fs);
	expect(&fs, "pcie.link_degraded", "mlx5_2", SEV_ERROR, "Gen4 x8", "Gen4 x16");
	findings_free(&fs);
	/* a Gen4 card at full speed where the profile wants Gen5 */
	f->link.width = f->upstream[f->n_upstream - 1].link.width = 16;
	f->upstream[f->n_upstream - 1].link.max_width = 16;
	p.role[ROLE_RAIL].pcie_gen = 5;
	run(&m, &p, &fs);
	expect(&fs, "pcie.link_degraded", "mlx5_0", SEV_ERROR, "Gen4 x16", "Gen5 x16");
	assert_int_equal(count_id(&fs, "pcie.link_degraded"), 4);
	findings_free(&fs);
	/* unknown link: not checked, an info (issue 29) */
	p.role[ROLE_RAIL].pcie_gen = 4;
	f->link.speed_gts = NAN;
	f->link.width = NA;
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "pcie.link_degraded"), 1);
	/* the profile names gen and width: unseen weighs as a warning (issue 43) */
	assert_true(expect(&fs, "pcie.link_degraded", "mlx5_2", SEV_WARN, NULL, NULL)->unchecked);
	assert_true(get(&fs, "pcie.link_degraded", "mlx5_2")->required);
	findings_free(&fs);
	f->link.speed_gts = 16;
	f->link.width = 16;
	/* the dual-port storage card (mlx5_4, mlx5_5: functions 0 and 1 of
	 * 0000:e1:00) trained x8: one link, one finding naming both */
	for (size_t k = 4; k < 6; k++) {
		f = &m.inv.nics[k].pci;
		f->link.width = 8;
		f->upstream[f->n_upstream - 1].link.width = 8;
	}
	run(&m, &g, &fs);
	expect(&fs, "pcie.link_degraded", "mlx5_4, mlx5_5 (0000:e1:00)", SEV_WARN, "Gen4 x8",
	       "Gen4 x16");
	assert_int_equal(count_id(&fs, "pcie.link_degraded"), 1);
	findings_free(&fs);
	machine_free(&m);
}

static void pcie_upstream_degraded(void **state)
{
	struct machine m;
	struct findings fs;
	struct pci_func *f;
	(void)state;

	healthy(&m);
	/* the root port's link to the switch trained at Gen3: both of its
	 * ends (root port 0000:30:01.0, upstream port 0000:31:00.0) say so */
	f = &m.inv.nics[2].pci;
	f->upstream[0].link.speed_gts = 8;
	f->upstream[1].link.speed_gts = 8;
	run(&m, NULL, &fs);
	expect(&fs, "pcie.upstream_degraded", "mlx5_2 via bridge 0000:30:01.0", SEV_WARN,
	       "Gen3 x16", "Gen4 x16");
	assert_int_equal(count_id(&fs, "pcie.upstream_degraded"), 1);
	assert_int_equal(count_id(&fs, "pcie.link_degraded"), 0);
	findings_free(&fs);
	/* the root port cannot do more: fine */
	f->upstream[0].link.max_speed_gts = 8;
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "pcie.upstream_degraded"), 0);
	findings_free(&fs);
	machine_free(&m);
}

/* The RTX 4090 box: one dual-port 100G CX-6 Dx in a Gen4 x8 slot. */
static void pcie_bottleneck(void **state)
{
	struct machine m;
	struct findings fs;
	struct nic *n;
	(void)state;

	machine_init(&m);
	for (int fn = 0; fn < 2; fn++) {
		char path[128], name[32];

		snprintf(path, sizeof(path), "sys/devices/pci0000:40/0000:40:01.1/0000:41:00.%d", fn);
		snprintf(name, sizeof(name), "rocep65s0f%d", fn);
		n = add_nic(&m, name, path, 0, "ConnectX-6 Dx", "Ethernet", 1, 100);
		n->pci.link.width = 8;		/* the card can do x16 */
		n->pci.upstream[0].link.width = 8;
		n->pci.upstream[0].link.max_width = 8;	/* the slot cannot */
	}
	/* the x16 card at x8 is one cause of both: one finding, that says
	 * what the ports lose */
	run(&m, NULL, &fs);
	expect(&fs, "pcie.link_degraded", "rocep65s0f0, rocep65s0f1 (0000:41:00)", SEV_WARN,
	       "Gen4 x8", "Gen4 x16");
	assert_non_null(strstr(get(&fs, "pcie.link_degraded", "rocep65s0f0, rocep65s0f1 (0000:41:00)")->fix,
			       "the link carries about 15.75 GB/s where the ports need 25 GB/s"));
	assert_int_equal(count_id(&fs, "pcie.bottleneck"), 0);
	assert_int_equal(count_id(&fs, "pcie.link_degraded"), 1);
	findings_free(&fs);
	/* one port down: 12.5 GB/s fits, the card still runs x8 of x16 */
	m.inv.nics[1].ports[0].state = 1;
	m.inv.nics[1].ports[0].rate_gbps = NAN;
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "pcie.bottleneck"), 0);
	assert_null(strstr(get(&fs, "pcie.link_degraded", "rocep65s0f0, rocep65s0f1 (0000:41:00)")->fix,
			   "GB/s"));
	findings_free(&fs);
	/* at its full width, 2 x 200 Gb/s on Gen4 x16 (about 28 GB/s usable):
	 * the link is not degraded, and the ports alone need more */
	for (size_t k = 0; k < 2; k++) {
		m.inv.nics[k].pci.link.width = 16;
		m.inv.nics[k].pci.upstream[0].link.width = 16;
		m.inv.nics[k].pci.upstream[0].link.max_width = 16;
		m.inv.nics[k].ports[0].state = 4;
		m.inv.nics[k].ports[0].rate_gbps = 200;
	}
	run(&m, NULL, &fs);
	expect(&fs, "pcie.bottleneck", "rocep65s0f0, rocep65s0f1 (0000:41:00)", SEV_WARN,
	       "Gen4 x16 carries about 31.51 GB/s", "the ports need 50 GB/s (2 x 200 Gb/s)");
	assert_int_equal(count_id(&fs, "pcie.link_degraded"), 0);
	findings_free(&fs);
	machine_free(&m);
}

/* PCIe carries data, not the line code: a dual-port FDR ConnectX-3
 * (Gen3 x8) needs 2 x 54.5 Gb/s, and 4X QDR ports 32 Gb/s each. */
static void pcie_bottleneck_data_rate(void **state)
{
	struct machine m;
	struct findings fs;
	struct nic *n;
	(void)state;

	machine_init(&m);
	n = add_nic(&m, "mlx4_0", "sys/devices/pci0000:40/0000:40:01.1/0000:41:00.0", 0,
		    "ConnectX-3", "InfiniBand", 2, 56);
	for (size_t k = 0; k < 2; k++) {
		free(n->ports[k].rate_speed);
		n->ports[k].rate_speed = strdup("FDR");
	}
	n->pci.link.speed_gts = n->pci.link.max_speed_gts = 8;
	n->pci.link.width = n->pci.link.max_width = 8;
	n->pci.upstream[0].link.speed_gts = n->pci.upstream[0].link.max_speed_gts = 8;
	n->pci.upstream[0].link.width = n->pci.upstream[0].link.max_width = 8;
	run(&m, NULL, &fs);
	expect(&fs, "pcie.bottleneck", "mlx4_0 (0000:41:00)", SEV_WARN,
	       "Gen3 x8 carries about 7.88 GB/s", "the ports need 13.64 GB/s (2 x 54.55 Gb/s)");
	findings_free(&fs);
	/* QDR: 2 x 32 Gb/s of data, where the signalling would say 2 x 40 */
	for (size_t k = 0; k < 2; k++) {
		n->ports[k].rate_gbps = 40;
		free(n->ports[k].rate_speed);
		n->ports[k].rate_speed = strdup("QDR");
	}
	run(&m, NULL, &fs);
	expect(&fs, "pcie.bottleneck", "mlx4_0 (0000:41:00)", SEV_WARN,
	       "Gen3 x8 carries about 7.88 GB/s", "the ports need 8 GB/s (2 x 32 Gb/s)");
	findings_free(&fs);
	machine_free(&m);
}

/* A Gen3 card (dual-port 100G ConnectX-5, Gen3 x16 at most) in a Gen3 x8
 * slot: x8 of its x16 (pcie.link_degraded), and even its own Gen3 x16
 * does not carry 25 GB/s: said, never a Gen4 slot the card cannot use. */
static void pcie_bottleneck_gen3_card(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *f;
	struct nic *n;
	(void)state;

	machine_init(&m);
	for (int fn = 0; fn < 2; fn++) {
		char path[128], name[32];

		snprintf(path, sizeof(path), "sys/devices/pci0000:40/0000:40:01.1/0000:41:00.%d", fn);
		snprintf(name, sizeof(name), "mlx5_%d", fn);
		n = add_nic(&m, name, path, 0, "ConnectX-5", "Ethernet", 1, 100);
		n->pci.link.speed_gts = n->pci.link.max_speed_gts = 8;
		n->pci.link.width = 8;
		n->pci.link.max_width = 16;
		n->pci.upstream[0].link.speed_gts = 8;
		n->pci.upstream[0].link.width = 8;
		n->pci.upstream[0].link.max_width = 8;
	}
	run(&m, NULL, &fs);
	f = get(&fs, "pcie.link_degraded", "mlx5_0, mlx5_1 (0000:41:00)");
	assert_non_null(strstr(f->observed, "Gen3 x8"));
	assert_null(strstr(f->fix, "Gen4"));
	assert_null(strstr(f->fix, "Gen5"));
	assert_non_null(strstr(f->fix, "move it to a slot wired for x16"));
	assert_non_null(strstr(f->fix, "even the card's own Gen3 x16 (about 15.75 GB/s) "
				       "does not carry them all"));
	assert_int_equal(count_id(&fs, "pcie.bottleneck"), 0);
	findings_free(&fs);
	/* already at its own maximum: no slot advice at all */
	for (int fn = 0; fn < 2; fn++)
		m.inv.nics[fn].pci.link.width = 16;
	run(&m, NULL, &fs);
	f = get(&fs, "pcie.bottleneck", "mlx5_0, mlx5_1 (0000:41:00)");
	assert_non_null(strstr(f->fix, "tops out at Gen3 x16"));
	assert_null(strstr(f->fix, "slot that trains"));
	findings_free(&fs);
	/* one 100G port on the Gen3 x8 link (~7.9 GB/s) needs 12.5: the
	 * card's Gen3 x16 carries it, and that is what is suggested */
	for (int fn = 0; fn < 2; fn++)
		m.inv.nics[fn].pci.link.width = 8;
	m.inv.nics[1].ports[0].state = 1;
	m.inv.nics[1].ports[0].rate_gbps = NAN;
	run(&m, NULL, &fs);
	f = get(&fs, "pcie.link_degraded", "mlx5_0, mlx5_1 (0000:41:00)");
	assert_non_null(strstr(f->fix, "where the port needs 12.5 GB/s"));
	assert_null(strstr(f->fix, "even the card's own"));
	findings_free(&fs);
	machine_free(&m);
}

/* Every function of the machine reads as root read it: MaxPayload 256
 * (capable 512), MaxReadReq 512, RlxdOrd+. */
static void settings_all(struct machine *m, int mps, int mrrs)
{
	for (size_t i = 0; i < m->inv.n_nics; i++) {
		struct pci_func *f = &m->inv.nics[i].pci;

		for (size_t k = 0; k <= f->n_upstream; k++) {
			struct pcie_settings *s = k < f->n_upstream ? &f->upstream[k].pcie : &f->pcie;

			*s = (struct pcie_settings){ .express = 1, .mps_cap = 512, .ext_tag_cap = 1,
						     .mps = mps, .mrrs = mrrs, .relaxed_ordering = 1,
						     .ext_tag = 1, .ats = 0, .ats_enable = -1,
						     .ats_stu = -1 };
		}
	}
}

static void pcie_settings(void **state)
{
	struct machine m;
	struct findings fs;
	struct profile p = a100_profile();
	const struct finding *f;
	(void)state;

	healthy(&m);
	settings_all(&m, 256, 512);
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "pcie.mps_mismatch"), 0);
	findings_free(&fs);
	/* a bridge above mlx5_1 at 128: the NIC is set above it */
	m.inv.nics[1].pci.upstream[1].pcie.mps = 128;
	run(&m, NULL, &fs);
	f = expect(&fs, "pcie.mps_mismatch", "mlx5_1", SEV_WARN, NULL, NULL);
	assert_non_null(strstr(f->observed, "MaxPayload 256 bytes, bridge "));
	assert_non_null(strstr(f->observed, "MaxPayload 128 bytes"));
	assert_non_null(strstr(f->fix, "the link uses 128 bytes now"));
	assert_int_equal(count_id(&fs, "pcie.mps_mismatch"), 1);
	findings_free(&fs);
	/* a NIC at its own maximum below its bridges loses nothing */
	m.inv.nics[1].pci.upstream[1].pcie.mps = 256;
	m.inv.nics[1].pci.pcie.mps = m.inv.nics[1].pci.pcie.mps_cap = 128;
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "pcie.mps_mismatch"), 0);
	findings_free(&fs);
	/* ... but below what it could do, it does */
	m.inv.nics[1].pci.pcie.mps_cap = 512;
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "pcie.mps_mismatch"), 1);
	findings_free(&fs);
	/* a bridge not read (not root): not judged, but said and counted
	 * (issue 43: it was silent) */
	m.inv.nics[1].pci.pcie.mps = 256;
	m.inv.nics[1].pci.upstream[1].pcie.mps = 128;
	m.inv.nics[1].pci.upstream[1].pcie.express = -1;
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "pcie.mps_mismatch"), 1);
	f = expect(&fs, "pcie.mps_mismatch", "mlx5_1", SEV_INFO, NULL, NULL);
	assert_true(f->unchecked);
	assert_false(f->required);
	assert_non_null(strstr(f->observed, "not checked: the Device Control of bridge "));
	assert_non_null(strstr(f->observed, m.inv.nics[1].pci.upstream[1].bdf));
	assert_int_equal(count_id(&fs, "pcie.mrrs_low"), 0);
	findings_free(&fs);
	/* the NIC's own config space not read: not checked, counted */
	m.inv.nics[1].pci.upstream[1].pcie.express = 1;
	m.inv.nics[1].pci.pcie.express = -1;
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "pcie.mps_mismatch"), 1);
	f = expect(&fs, "pcie.mps_mismatch", "mlx5_1", SEV_INFO, NULL, NULL);
	assert_true(f->unchecked);
	assert_non_null(strstr(f->observed, "not checked: the NIC's Device Control is in PCI "
				"config space"));
	findings_free(&fs);
	/* no PCI Express capability at all: nothing to match, nothing said */
	m.inv.nics[1].pci.pcie.express = 0;
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "pcie.mps_mismatch"), 0);
	findings_free(&fs);
	m.inv.nics[1].pci.pcie.express = 1;

	/* the profile asks for MaxReadReq 4096 and Relaxed Ordering */
	p.role[ROLE_RAIL].pcie_mrrs = 4096;
	p.role[ROLE_RAIL].pcie_relaxed_ordering = true;
	m.inv.nics[0].pci.pcie.mrrs = 4096;
	m.inv.nics[0].pci.pcie.relaxed_ordering = 0;
	m.inv.nics[1].pci.pcie.express = -1;	/* mlx5_1 not readable */
	run(&m, &p, &fs);
	f = expect(&fs, "pcie.mrrs_low", "mlx5_2", SEV_WARN, NULL,
		   "MaxReadReq 4096 bytes or more");
	assert_non_null(strstr(f->observed, "MaxReadReq 512 bytes"));
	assert_non_null(strstr(f->fix, "CAP_EXP+8.w=5000:7000"));
	assert_null(get(&fs, "pcie.mrrs_low", "mlx5_0"));
	/* the profile names pcie_mrrs: unseen weighs as a warning (issue 43) */
	f = expect(&fs, "pcie.mrrs_low", "mlx5_1", SEV_WARN, NULL, NULL);
	assert_true(f->required);
	assert_true(f->unchecked);
	expect(&fs, "pcie.relaxed_ordering", "mlx5_0", SEV_WARN, NULL,
	       "RlxdOrd+ (Relaxed Ordering on)");
	assert_null(get(&fs, "pcie.relaxed_ordering", "mlx5_2"));
	f = expect(&fs, "pcie.relaxed_ordering", "mlx5_1", SEV_INFO, NULL, NULL);
	assert_true(f->unchecked);
	findings_free(&fs);
	machine_free(&m);
}

static void pcie_acs(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *f;
	(void)state;

	healthy(&m);
	/* the switch downstream port above mlx5_1: RR and CR on (0x1d) */
	m.inv.nics[1].pci.upstream[2].acs_ctrl = 0x1d;
	/* the root port above the switch is above the common ancestor */
	m.inv.nics[0].pci.upstream[0].acs_ctrl = 0x1d;
	run(&m, NULL, &fs);
	f = expect(&fs, "pcie.acs", "mlx5_1", SEV_ERROR,
		   "ACS redirect on at a bridge 0000:22:0c.0 (0x001d: Request Redirect and "
		   "Completion Redirect), on the path to GPU 0000:23:00.0",
		   NULL);
	assert_non_null(strstr(f->fix, "`setpci -s 0000:22:0c.0 ECAP_ACS+0x6.w=0000`"));
	assert_int_equal(count_id(&fs, "pcie.acs"), 1);
	findings_free(&fs);
	/* a second bridge on the same path: one finding, both by address */
	m.inv.gpus[1].pci.upstream[2].acs_ctrl = 0x0c;
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "pcie.acs"), 1);
	f = expect(&fs, "pcie.acs", "mlx5_1", SEV_ERROR, NULL, NULL);
	assert_non_null(strstr(f->observed, "its bridges "));
	assert_non_null(strstr(f->fix, "`setpci -s 0000:22:0c.0 ECAP_ACS+0x6.w=0000`"));
	assert_non_null(strstr(f->fix, "`setpci -s 0000:22:08.0 ECAP_ACS+0x6.w=0000`"));
	findings_free(&fs);
	machine_free(&m);

	/* without root: one info for the host, not one per bridge */
	healthy(&m);
	for (size_t i = 0; i < m.inv.n_nics; i++)
		for (size_t k = 0; k < m.inv.nics[i].pci.n_upstream; k++) {
			m.inv.nics[i].pci.upstream[k].config_full = false;
			m.inv.nics[i].pci.upstream[k].acs_known = false;
			m.inv.nics[i].pci.upstream[k].acs_ctrl = NA;
		}
	for (size_t i = 0; i < m.inv.n_gpus; i++)
		for (size_t k = 0; k < m.inv.gpus[i].pci.n_upstream; k++) {
			m.inv.gpus[i].pci.upstream[k].config_full = false;
			m.inv.gpus[i].pci.upstream[k].acs_known = false;
			m.inv.gpus[i].pci.upstream[k].acs_ctrl = NA;
		}
	run(&m, NULL, &fs);
	expect(&fs, "pcie.acs", "host", SEV_INFO,
	       "not checked: the bridges' ACS control is in extended PCI config space, which only "
	       "root reads, and only where the kernel reaches it", NULL);
	assert_int_equal(count_id(&fs, "pcie.acs"), 1);
	assert_string_equal(check_verdict(&fs), "pass");
	findings_free(&fs);
	machine_free(&m);

	/* root, but one bridge's config ends at 256 bytes (no extended config
	 * space reached): its ACS is unread, not absent */
	healthy(&m);
	m.inv.nics[0].pci.upstream[m.inv.nics[0].pci.n_upstream - 1].acs_known = false;
	run(&m, NULL, &fs);
	f = expect(&fs, "pcie.acs", "host", SEV_INFO, NULL, NULL);
	assert_true(f->unchecked);
	assert_int_equal(count_id(&fs, "pcie.acs"), 1);
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pcie_link_degraded),
		cmocka_unit_test(pcie_upstream_degraded),
		cmocka_unit_test(pcie_bottleneck),
		cmocka_unit_test(pcie_bottleneck_gen3_card),
		cmocka_unit_test(pcie_bottleneck_data_rate),
		cmocka_unit_test(pcie_acs),
		cmocka_unit_test(pcie_settings),
	};

	return cmocka_run_group_tests_name("check_pcie", tests, NULL, NULL);
}
