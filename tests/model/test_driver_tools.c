/* The tools a fix may name per driver (src/model/driver_tools.h): mlx5
 * and mlx4 keep the Mellanox tools; the drivers whose kernel source has
 * devlink flash_update are flashed with devlink; the cloud and software
 * devices name what updates them instead; an unknown driver falls back to
 * the generic row, never to mlx5's; and a NIC whose driver was not read is
 * known by its mlx name or ConnectX/BlueField model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/driver_tools.h"
#include "model/inventory.h"

static void rows(void **unused)
{
	(void)unused;
	assert_true(drv_tools_of("mlx5_core")->mlx);
	assert_int_equal(drv_tools_of("mlx5_core")->fw, DRV_FW_MLX);
	assert_true(drv_tools_of("mlx4_core")->mlx);
	static const char *const flash[] = { "bnxt_en", "ice", "ionic" };
	for (size_t i = 0; i < sizeof(flash) / sizeof(flash[0]); i++) {
		const struct drv_tools *t = drv_tools_of(flash[i]);

		assert_string_equal(t->driver, flash[i]);
		assert_false(t->mlx);
		assert_int_equal(t->fw, DRV_FW_DEVLINK);
		assert_null(t->fw_how);
	}
	static const char *const other[] = { "hns3", "efa", "erdma", "rdma_rxe" };
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
		const struct drv_tools *t = drv_tools_of(other[i]);

		assert_string_equal(t->driver, other[i]);
		assert_false(t->mlx);
		assert_true(t->fw == DRV_FW_VENDOR || t->fw == DRV_FW_NONE);
		assert_non_null(t->fw_how);
		assert_null(strstr(t->fw_how, "mlx"));
	}
}

static void fallback(void **unused)
{
	(void)unused;
	const struct drv_tools *g = drv_tools_of("some_new_nic");

	assert_non_null(g);
	assert_null(g->driver);
	assert_false(g->mlx);
	assert_ptr_equal(drv_tools_of(NULL), g);
	assert_ptr_equal(drv_tools_of(""), g);
}

static void by_nic(void **unused)
{
	(void)unused;
	struct nic n;

	memset(&n, 0, sizeof(n));
	n.name = (char *)"bnxt_re0";
	n.driver = (char *)"bnxt_en";
	assert_string_equal(drv_tools_of_nic(&n)->driver, "bnxt_en");
	/* driver unread: the mlx name, or the ConnectX model, still tells */
	n.driver = NULL;
	assert_false(drv_tools_of_nic(&n)->mlx);
	n.name = (char *)"mlx5_3";
	assert_true(drv_tools_of_nic(&n)->mlx);
	n.name = (char *)"rocep65s0f0";
	assert_false(drv_tools_of_nic(&n)->mlx);
	n.model = (char *)"ConnectX-7";
	assert_true(drv_tools_of_nic(&n)->mlx);
	/* a known driver wins over the model */
	n.driver = (char *)"ionic";
	n.model = (char *)"Pollara 400";
	assert_string_equal(drv_tools_of_nic(&n)->driver, "ionic");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows),
		cmocka_unit_test(fallback),
		cmocka_unit_test(by_nic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
