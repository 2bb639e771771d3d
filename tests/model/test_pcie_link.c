/* A link is degraded only against what both of its ends can do. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/pcie_link.h"

static struct pci_link link(double s, int64_t w, double ms, int64_t mw)
{
	struct pci_link l = { .speed_gts = s, .width = w, .max_speed_gts = ms, .max_width = mw };

	return l;
}

static void partner_and_degraded(void **state)
{
	/* root port, switch upstream port, switch downstream port, device */
	struct pci_func up[3] = {
		{ .link = link(32, 16, 32, 16) },
		{ .link = link(32, 16, 32, 16) },
		{ .link = link(16, 16, 32, 16) },
	};
	struct pci_func dev = { .upstream = up, .n_upstream = 3,
				.link = link(16, 16, 32, 16) };
	struct pci_func gen4_card = { .link = link(16, 16, 16, 16) };
	struct pci_func rp = { .link = link(16, 16, 32, 16) };
	(void)state;

	assert_ptr_equal(pcie_link_partner(&dev, 0), &up[1]);
	assert_ptr_equal(pcie_link_partner(&dev, 1), &up[0]);
	assert_ptr_equal(pcie_link_partner(&dev, 2), &dev);
	assert_null(pcie_link_partner(&dev, 3));
	/* a Gen5 downstream port and a Gen5 device meeting at Gen4 */
	assert_true(pcie_link_degraded(&up[2], &dev));
	assert_false(pcie_link_degraded(&up[1], &up[0]));
	/* a Gen5 root port with a Gen4 card in it: that is all it can do */
	assert_false(pcie_link_degraded(&rp, &gen4_card));
	/* a partner that could not be read: judge by one end */
	assert_true(pcie_link_degraded(&rp, NULL));
	gen4_card.link.max_width = NA;
	gen4_card.link.max_speed_gts = NAN;
	assert_true(pcie_link_degraded(&rp, &gen4_card));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(partner_and_degraded),
	};

	return cmocka_run_group_tests_name("pcie_link", tests, NULL, NULL);
}
