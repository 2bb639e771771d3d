/* The recorded bytes of one GPU's NVLink fabric (src/nvml/fabric_text.c):
 * what the live reader writes parses back the same; malformed bytes are
 * -EINVAL with nothing half-filled. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "nvml/fabric_text.h"

static void round_trip(void **state)
{
	struct gpu_fabric f = { .state = 3, .status = 23, .clique = 32766,
				.answered = 0x3ffff, .active = 0x3ff9f, .n_links = 18 };
	struct gpu_fabric g;
	char buf[NVML_FABRIC_TEXT_MAX];
	size_t n;

	(void)state;
	for (int i = 0; i < NVLINK_UUID_LEN; i++)
		f.cluster[i] = (uint8_t)(0x10 + i);
	n = nvml_fabric_format(&f, buf, sizeof(buf));
	assert_true(n > 0 && n < sizeof(buf));
	assert_non_null(strstr(buf, "links 111110011111111111\n"));
	assert_int_equal(nvml_fabric_parse(buf, n, &g), 0);
	assert_int_equal(g.state, 3);
	assert_int_equal(g.status, 23);
	assert_int_equal(g.clique, 32766);
	assert_memory_equal(g.cluster, f.cluster, NVLINK_UUID_LEN);
	assert_int_equal(g.answered, f.answered);
	assert_int_equal(g.active, f.active);
	assert_int_equal(g.n_links, 18);
}

static void state_alone(void **state)
{
	struct gpu_fabric g;
	const char *s = "state 0\n";

	(void)state;
	assert_int_equal(nvml_fabric_parse(s, strlen(s), &g), 0);
	assert_int_equal(g.state, 0);
	assert_int_equal(g.n_links, 0);
	assert_true(nvlink_uuid_zero(g.cluster));
}

static void some_links_unanswered(void **state)
{
	struct gpu_fabric g;
	const char *s = "state 3\nlinks 1-0\n";

	(void)state;
	assert_int_equal(nvml_fabric_parse(s, strlen(s), &g), 0);
	assert_int_equal(g.answered, 0x5);
	assert_int_equal(g.active, 0x1);
	assert_int_equal(g.n_links, 2);
}

static void malformed(void **state)
{
	static const char *const bad[] = {
		"", "status 0\n", "state\n", "state x\n", "state 3\ncluster 00\n",
		"state 3\ncluster 0123456789abcdef0123456789abcdeg\n",
		"state 3\nlinks 1111111111111111111\n", "state 3\nlinks 12\n",
		"state 3\nbogus 1\n", "state 99999999999\n", "state 3\nstate 3\n",
		"state 3\nlinks 1\nlinks 1\n",
	};
	struct gpu_fabric g;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&g, 0x55, sizeof(g));
		assert_int_equal(nvml_fabric_parse(bad[i], strlen(bad[i]), &g), -EINVAL);
		assert_int_equal(g.state, 0);
		assert_int_equal(g.active, 0);
	}
}

static void names(void **state)
{
	(void)state;
	assert_string_equal(nvml_return_name(23), "NVML_ERROR_INSUFFICIENT_RESOURCES");
	assert_string_equal(nvml_return_name(0), "NVML_SUCCESS");
	assert_string_equal(nvml_return_name(999), "NVML_ERROR_UNKNOWN");
	assert_null(nvml_return_name(500));
	assert_string_equal(nvlink_fabric_state_name(3), "COMPLETED");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(state_alone),
		cmocka_unit_test(some_links_unanswered),
		cmocka_unit_test(malformed),
		cmocka_unit_test(names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
