/* fabric --load's counter evidence speaks the classes check, watch and
 * serve speak (issue 45): on each driver fixture (bnxt_re, irdma, efa,
 * ionic), every file of its ports' hw_counters/ has the fabric kind its
 * class (model/driver_counters.h) says, by the fixture's driver; and the
 * counters tests/check/driver_classes.py grows, class by class, are
 * evidence of the kind that class names.
 *
 * The class-to-kind table below is written out here, not taken from
 * load_counters.c, so that a change to either side shows: retransmits,
 * sequence errors, ACK timeouts and retries run out are packets sent
 * again; drops; CNPs and ECN marks; RNR, PHY errors, link downs and byte
 * counts are no load evidence (load_counters.c: row_kind says why). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <cmocka.h>

#include "fabric/load_counters.h"
#include "model/driver_counters.h"

static enum fab_ckind kind_of_class(const struct drv_counter *r)
{
	if (!r || r->flags & CTR_F_BYTES)
		return FAB_CK_NONE;
	switch ((enum ctr_class)r->cls) {
	case CTR_RETRANSMIT: case CTR_SEQ_ERR: case CTR_ACK_TIMEOUT: case CTR_RETRY_EXCEEDED:
		return FAB_CK_RETRANS;
	case CTR_DROP: return FAB_CK_DROP;
	case CTR_CNP_SENT: return FAB_CK_CNP_SENT;
	case CTR_CNP_HANDLED: return FAB_CK_CNP_HANDLED;
	case CTR_ECN_MARKED: return FAB_CK_ECN_MARKED;
	default: return FAB_CK_NONE;
	}
}

/* shape, one device of it, its nic.driver (expected/inventory.json), and
 * the counters driver_classes.py grows with the kind each must be */
struct grown { const char *name; enum fab_ckind kind; };
static const struct {
	const char *shape, *dev, *driver;
	struct grown g[6];
} fixtures[] = {
	{ "bnxt-re-thor2", "bnxt_re0", "bnxt_en",
	  { { "to_retransmits", FAB_CK_RETRANS }, { "seq_err_naks_rcvd", FAB_CK_RETRANS },
	    { "rx_roce_discards", FAB_CK_DROP }, { "tx_cnp_pkts", FAB_CK_CNP_SENT } } },
	{ "irdma-e810", "irdma0", "ice",
	  { { "tcpRetransSegs", FAB_CK_RETRANS }, { "ip4InDiscards", FAB_CK_DROP },
	    { "cnpSent", FAB_CK_CNP_SENT }, { "RxECNMrkd", FAB_CK_ECN_MARKED } } },
	{ "efa-g6e", "efa_0", "efa",
	  { { "retrans_pkts", FAB_CK_RETRANS }, { "retrans_timeout_events", FAB_CK_RETRANS },
	    { "rx_drops", FAB_CK_DROP } } },
	{ "ionic-pollara", "ionic_0", "ionic",
	  { { "tx_rdma_retx_pkts", FAB_CK_RETRANS }, { "req_rx_pkt_seq_err", FAB_CK_RETRANS },
	    { "tx_rdma_ack_timeout", FAB_CK_RETRANS }, { "resp_rx_outof_buf", FAB_CK_DROP },
	    { "rx_rdma_cnp_pkts", FAB_CK_CNP_HANDLED } } },
};
#define N_FIXTURES (sizeof(fixtures) / sizeof(fixtures[0]))

static enum fab_ckind kind(const char *driver, const char *name)
{
	char hw[300];

	snprintf(hw, sizeof(hw), "hw:%s", name);
	return fab_counter_kind_of(driver, hw, NULL);
}

static void every_file_has_its_class_kind(void **state)
{
	const char *root = getenv("RD_FIXTURES");

	(void)state;
	if (!root)
		fail_msg("RD_FIXTURES is not set (ctest sets it to tests/fixtures)");
	for (size_t i = 0; i < N_FIXTURES; i++) {
		char dir[1024];
		struct dirent *de;
		unsigned files = 0, evidence = 0;
		DIR *d;

		snprintf(dir, sizeof(dir), "%s/%s/root/sys/class/infiniband/%s/ports/1/hw_counters",
			 root, fixtures[i].shape, fixtures[i].dev);
		d = opendir(dir);
		if (!d)
			fail_msg("%s: no such directory", dir);
		while ((de = readdir(d))) {
			const struct drv_counter *r;

			if (de->d_name[0] == '.')
				continue;
			r = drv_counter_find(fixtures[i].driver, de->d_name);
			files++;
			evidence += kind_of_class(r) != FAB_CK_NONE;
			if (kind(fixtures[i].driver, de->d_name) != kind_of_class(r))
				fail_msg("%s %s: fabric kind %s, its class %s says %s", fixtures[i].shape,
					 de->d_name, fab_ckind_name(kind(fixtures[i].driver, de->d_name)),
					 ctr_class_name(counter_class(fixtures[i].driver, de->d_name)),
					 fab_ckind_name(kind_of_class(r)));
		}
		closedir(d);
		/* a fixture whose directory the test could not see would pass */
		if (files < 5 || evidence == 0)
			fail_msg("%s: %u files, %u of a kind", fixtures[i].shape, files, evidence);
	}
}

static void grown_counters_are_their_kind(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_FIXTURES; i++)
		for (const struct grown *g = fixtures[i].g; g->name; g++)
			if (kind(fixtures[i].driver, g->name) != g->kind)
				fail_msg("%s %s (%s): fabric kind %s, not %s", fixtures[i].shape, g->name,
					 ctr_class_name(counter_class(fixtures[i].driver, g->name)),
					 fab_ckind_name(kind(fixtures[i].driver, g->name)),
					 fab_ckind_name(g->kind));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_file_has_its_class_kind),
		cmocka_unit_test(grown_counters_are_their_kind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
