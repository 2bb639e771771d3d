/* src/model/drv_stack.c: modules.dep lines as depmod writes them (the
 * lines below are verbatim from Debian 12's 6.1.0-57-amd64 modules.dep,
 * plus MLNX_OFED's updates/ and a DKMS build's updates/dkms/ layout), the
 * source a path tells, compressed names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/drv_stack.h"

static const char DEP[] =
	"kernel/drivers/nvme/host/nvme-rdma.ko: kernel/drivers/infiniband/core/rdma_cm.ko "
	"kernel/drivers/infiniband/core/ib_core.ko\n"
	"kernel/drivers/net/ethernet/mellanox/mlx5/core/mlx5_core.ko: "
	"kernel/drivers/net/ethernet/mellanox/mlxfw/mlxfw.ko kernel/net/psample/psample.ko\n"
	"kernel/drivers/infiniband/core/ib_core.ko:\n"
	"kernel/drivers/infiniband/core/ib_uverbs.ko: kernel/drivers/infiniband/core/ib_core.ko\n"
	"updates/dkms/nvidia-peermem.ko.xz: updates/dkms/nvidia.ko.xz\n";

static void find_lines(void **state)
{
	char *p;

	(void)state;
	/* ib_core appears first as a dependency of nvme-rdma: only the
	 * module's own line (before the colon) counts */
	assert_int_equal(drv_dep_find(DEP, sizeof(DEP) - 1, "ib_core", &p), 0);
	assert_string_equal(p, "kernel/drivers/infiniband/core/ib_core.ko");
	free(p);
	/* '-' in the file name is '_' in the module name */
	assert_int_equal(drv_dep_find(DEP, sizeof(DEP) - 1, "nvidia_peermem", &p), 0);
	assert_string_equal(p, "updates/dkms/nvidia-peermem.ko.xz");
	assert_string_equal(drv_compression(p), "xz");
	free(p);
	assert_int_equal(drv_dep_find(DEP, sizeof(DEP) - 1, "nvme_rdma", &p), 0);
	assert_non_null(p);
	free(p);
	/* mlxfw only as a dependency, mlx5_ib not at all */
	assert_int_equal(drv_dep_find(DEP, sizeof(DEP) - 1, "mlxfw", &p), 0);
	assert_null(p);
	assert_int_equal(drv_dep_find(DEP, sizeof(DEP) - 1, "mlx5_ib", &p), 0);
	assert_null(p);
	/* a prefix is not the module: "ib_c" is no "ib_core" */
	assert_int_equal(drv_dep_find(DEP, sizeof(DEP) - 1, "ib_c", &p), 0);
	assert_null(p);
	/* a last line without its newline */
	assert_int_equal(drv_dep_find("extra/mlx5_ib.ko: x", 19, "mlx5_ib", &p), 0);
	assert_string_equal(p, "extra/mlx5_ib.ko");
	free(p);
}

static void sources(void **state)
{
	(void)state;
	assert_int_equal(drv_source_of("kernel/drivers/infiniband/core/ib_core.ko"),
			 DRV_SRC_INBOX);
	assert_int_equal(drv_source_of("updates/drivers/net/ethernet/mellanox/mlx5/core/"
				       "mlx5_core.ko"), DRV_SRC_OUT_OF_TREE);
	assert_int_equal(drv_source_of("extra/mlnx-ofa_kernel/mlx5_ib.ko"), DRV_SRC_OUT_OF_TREE);
	assert_int_equal(drv_source_of("updates/dkms/mlx5_core.ko"), DRV_SRC_DKMS);
	assert_int_equal(drv_source_of(NULL), DRV_SRC_UNKNOWN);
	assert_null(drv_compression("kernel/a/ib_core.ko"));
	assert_string_equal(drv_compression("kernel/a/ib_core.ko.zst"), "zst");
	assert_string_equal(drv_compression("kernel/a/ib_core.ko.gz"), "gz");
	assert_false(drv_path_names("kernel/a/ib_core.o", 18, "ib_core"));
}

static void ids(void **state)
{
	const unsigned char a[] = { 0x36, 0xc6, 0x4d }, b[] = { 0x36, 0xc6, 0x4e };
	char hex[7];

	(void)state;
	assert_true(drv_id_equal(a, 3, a, 3));
	assert_false(drv_id_equal(a, 3, b, 3));
	assert_false(drv_id_equal(a, 3, a, 2));
	drv_id_hex(a, 3, hex);
	assert_string_equal(hex, "36c64d");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(find_lines),
		cmocka_unit_test(sources),
		cmocka_unit_test(ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
