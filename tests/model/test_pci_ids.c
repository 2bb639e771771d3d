/* Which PCI functions are GPUs: NVIDIA's display class, AMD's Instinct
 * accelerators (class 1200, or MI200's display-class IDs), never a Radeon
 * or a BMC's VGA. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/pci_ids.h"

static void gpus(void **state)
{
	(void)state;
	assert_true(pci_is_gpu(0x10de, 0x030200, 0x2330));	/* H100 */
	assert_false(pci_is_gpu(0x10de, 0x068000, 0x22a3));	/* NVSwitch */
	assert_false(pci_is_gpu(0x10de, 0x040300, 0x22ba));	/* HDMI audio */
	assert_true(pci_is_gpu(0x1002, 0x120000, 0x74a1));	/* MI300X */
	assert_true(pci_is_gpu(0x1002, 0x120000, 0x75ff));	/* an Instinct not named yet */
	assert_true(pci_is_gpu(0x1002, 0x038000, 0x740c));	/* MI250X: display class */
	assert_false(pci_is_gpu(0x1002, 0x030000, 0x744c));	/* Radeon RX 7900 */
	assert_false(pci_is_gpu(0x1002, 0x040300, 0xab30));	/* AMD HDMI audio */
	assert_false(pci_is_gpu(0x1a03, 0x030000, 0x2000));	/* ASPEED BMC VGA */
	assert_false(pci_is_gpu(0x1022, 0x120000, 0x1234));	/* AMD's CPU-side vendor */
}

static void names(void **state)
{
	enum gpu_kind kind;

	(void)state;
	assert_string_equal(gpu_model_name(0x1002, 0x74a1, &kind), "Instinct MI300X");
	assert_int_equal(kind, GPU_DATACENTER);
	assert_string_equal(gpu_model_name(0x1002, 0x74a5, &kind), "Instinct MI325X");
	assert_string_equal(gpu_model_name(0x1002, 0x75a3, &kind), "Instinct MI355X");
	assert_string_equal(gpu_model_name(0x10de, 0x2330, &kind), "H100 SXM5 80GB");
	/* an ID is the vendor's: NVIDIA's 74a1 is no MI300X */
	assert_null(gpu_model_name(0x10de, 0x74a1, &kind));
	assert_int_equal(kind, GPU_UNKNOWN);
	assert_int_equal(gpu_vendor_of(0x1002), GPU_VENDOR_AMD);
	assert_string_equal(gpu_vendor_name(GPU_VENDOR_AMD), "AMD");
	assert_string_equal(gpu_vendor_name(GPU_VENDOR_NVIDIA), "NVIDIA");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gpus),
		cmocka_unit_test(names),
	};

	return cmocka_run_group_tests_name("pci_ids", tests, NULL, NULL);
}
