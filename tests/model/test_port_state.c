/* The one rule for "is the port up" (src/model/port_state.h): ACTIVE and
 * LinkUp is up; any state read that says otherwise is down; what could
 * not be read is neither. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/inventory.h"
#include "model/port_state.h"

static enum port_link link_of(int64_t state, int64_t phys)
{
	struct port p = { .state = state, .phys_state = phys };

	return port_link(&p);
}

static void states(void **unused)
{
	(void)unused;
	assert_int_equal(link_of(PORT_STATE_ACTIVE, PORT_PHYS_LINKUP), PORT_LINK_UP);
	assert_int_equal(link_of(PORT_STATE_ACTIVE, NA), PORT_LINK_UP);
	assert_int_equal(link_of(PORT_STATE_DOWN, PORT_PHYS_DISABLED), PORT_LINK_DOWN);
	assert_int_equal(link_of(PORT_STATE_INIT, PORT_PHYS_LINKUP), PORT_LINK_DOWN);
	assert_int_equal(link_of(PORT_STATE_ACTIVE, PORT_PHYS_POLLING), PORT_LINK_DOWN);
	assert_int_equal(link_of(NA, PORT_PHYS_DISABLED), PORT_LINK_DOWN);
	assert_int_equal(link_of(NA, PORT_PHYS_LINKUP), PORT_LINK_UNKNOWN);
	assert_int_equal(link_of(NA, NA), PORT_LINK_UNKNOWN);
	{
		struct port up = { .state = PORT_STATE_ACTIVE, .phys_state = PORT_PHYS_LINKUP };
		struct port unknown = { .state = NA, .phys_state = NA };

		assert_true(port_is_up(&up));
		assert_false(port_is_up(&unknown));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(states) };

	return cmocka_run_group_tests(tests, NULL, NULL);
}
