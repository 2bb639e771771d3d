/* Directed-route SMP replies (sysfs/ib_smp_parse.c) on ibsim's real bytes
 * (tests/fixtures/ibsmp/README.md: smpquery's answer for the same port is
 * the oracle), and on those bytes changed the ways a fabric or a damaged
 * snapshot can change them: an error status, the wrong attribute, a
 * description that fills all 64 bytes or holds control bytes, a node that
 * makes no sense, a length that is not two MADs. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/neighbor.h"
#include "sysfs/ib_smp_parse.h"

static uint8_t rec[IB_SMP_ANSWER_SIZE];

static int load(void **state)
{
	const char *dir = getenv("RD_FIXTURES");
	char path[4096];
	FILE *f;

	(void)state;
	if (!dir)
		return -1;
	snprintf(path, sizeof(path), "%s/ibsmp/leaf17.raw", dir);
	if (!(f = fopen(path, "rb")))
		return -1;
	if (fread(rec, 1, sizeof(rec), f) != sizeof(rec) || fgetc(f) != EOF) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

static char *refused(const uint8_t *b, size_t len)
{
	struct neighbor *nb = (void *)1;
	char *why = NULL;

	assert_int_equal(ib_smp_parse(b, len, &nb, &why), -EINVAL);
	assert_null(nb);
	assert_non_null(why);
	return why;
}

static struct neighbor *parsed(const uint8_t *b)
{
	struct neighbor *nb = NULL;
	char *why = NULL;
	int rc = ib_smp_parse(b, IB_SMP_ANSWER_SIZE, &nb, &why);

	if (rc)
		fail_msg("refused: %s", why ? why : "?");
	assert_null(why);
	return nb;
}

/* What smpquery said of the same port under the same simulator. */
static void recorded(void **state)
{
	struct neighbor *nb = parsed(rec);

	(void)state;
	assert_string_equal(nb->system, "MF0;leaf-r0-a:MQM9700/U1");
	assert_string_equal(nb->port, "17");
	assert_string_equal(nb->chassis_id, "0x0000000000200000");
	assert_string_equal(nb->source, "smp");
	neighbor_free(nb);
}

static void error_status(void **state)
{
	uint8_t b[IB_SMP_ANSWER_SIZE];
	char *why;

	(void)state;
	memcpy(b, rec, sizeof(b));
	b[IB_MAD_SIZE + 5] = 0x1c;	/* NodeDescription: unsupported attribute */
	why = refused(b, sizeof(b));
	assert_string_equal(why, "the node at the other end of the cable answered "
			    "NodeDescription with MAD status 0x001c");
	free(why);
	/* the D bit alone (every DR reply has it) is no error: see recorded */
	assert_int_equal(rec[4] & 0x80, 0x80);
}

static void wrong_attribute(void **state)
{
	uint8_t b[IB_SMP_ANSWER_SIZE];
	char *why;

	(void)state;
	memcpy(b, rec, sizeof(b));
	b[17] = 0x15;	/* PortInfo where NodeInfo belongs */
	why = refused(b, sizeof(b));
	assert_non_null(strstr(why, "not a GetResp(NodeInfo)"));
	free(why);
	memcpy(b, rec, sizeof(b));
	b[IB_MAD_SIZE + 3] = 0x01;	/* a Get, not its response */
	free(refused(b, sizeof(b)));
	memcpy(b, rec, sizeof(b));
	b[1] = 0x01;	/* LID-routed class */
	free(refused(b, sizeof(b)));
}

static void long_and_odd_description(void **state)
{
	uint8_t b[IB_SMP_ANSWER_SIZE];
	struct neighbor *nb;
	char want[65];

	(void)state;
	memcpy(b, rec, sizeof(b));
	memset(b + IB_MAD_SIZE + 64, 'x', 64);	/* no NUL in all 64 bytes */
	nb = parsed(b);
	memset(want, 'x', 64);
	want[64] = '\0';
	assert_string_equal(nb->system, want);
	neighbor_free(nb);
	memcpy(b, rec, sizeof(b));
	memcpy(b + IB_MAD_SIZE + 64, "sw\nx  \0junk", 11);
	nb = parsed(b);
	assert_string_equal(nb->system, "sw?x");
	neighbor_free(nb);
	memset(b + IB_MAD_SIZE + 64, 0, 64);	/* none: the GUID still names it */
	nb = parsed(b);
	assert_null(nb->system);
	assert_string_equal(nb->chassis_id, "0x0000000000200000");
	neighbor_free(nb);
}

static void nonsense_node(void **state)
{
	uint8_t b[IB_SMP_ANSWER_SIZE];

	(void)state;
	memcpy(b, rec, sizeof(b));
	b[64 + 36] = 0;	/* LocalPortNum 0: the switch's management port */
	free(refused(b, sizeof(b)));
	memcpy(b, rec, sizeof(b));
	b[64 + 2] = 7;	/* no such node type */
	free(refused(b, sizeof(b)));
	memcpy(b, rec, sizeof(b));
	b[64 + 2] = 1;	/* a CA (a back-to-back cable) answering on its port 17 */
	b[64 + 3] = 2;	/* of 2: no such port */
	free(refused(b, sizeof(b)));
}

static void lengths(void **state)
{
	char *why;

	(void)state;
	why = refused(rec, IB_SMP_ANSWER_SIZE - 1);
	assert_string_equal(why, "511 bytes where two 256-byte SMP replies belong");
	free(why);
	free(refused(rec, IB_MAD_SIZE));
	free(refused(rec, 0));
}

/* What ib_smp.c sends: the bytes of a Get, as libibmad builds one. */
static void request(void **state)
{
	uint8_t m[IB_MAD_SIZE];

	(void)state;
	ib_smp_build_get(m, IB_ATTR_NODE_INFO, 17, 0x12345678);
	assert_int_equal(m[0], 1);
	assert_int_equal(m[1], 0x81);
	assert_int_equal(m[2], 1);
	assert_int_equal(m[3], 0x01);
	assert_int_equal(m[6], 0);	/* hop pointer */
	assert_int_equal(m[7], 1);	/* hop count */
	assert_int_equal(m[15], 0x78);
	assert_int_equal(m[16] << 8 | m[17], 0x0011);
	assert_int_equal(m[32] << 8 | m[33], 0xffff);
	assert_int_equal(m[34] << 8 | m[35], 0xffff);
	assert_int_equal(m[128], 0);
	assert_int_equal(m[129], 17);
	/* the recorded reply's initial path is the one we sent */
	assert_int_equal(rec[129], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(recorded),
		cmocka_unit_test(error_status),
		cmocka_unit_test(wrong_attribute),
		cmocka_unit_test(long_and_odd_description),
		cmocka_unit_test(nonsense_node),
		cmocka_unit_test(lengths),
		cmocka_unit_test(request),
	};

	return cmocka_run_group_tests(tests, load, NULL);
}
