/* DCB netlink replies (net/dcb/dcbnl.c), built byte by byte
 * as net/dcb/dcbnl.c dcbnl_ieee_fill lays them out: the DCB_ATTR_IEEE nest
 * without NLA_F_NESTED, the 59-byte ieee_ets padded to 60, the DCBX byte
 * after the nest.
 *
 * With RD_DCB_CORPUS=DIR set, the well-formed replies are also written
 * there (tests/fuzz/corpus/dcb/ was made that way). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nlmsg.h"

#include <sys/socket.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "nl/dcb.h"

static void dcbmsg(struct msg *m, uint8_t cmd)
{
	struct dcbmsg d = { .dcb_family = AF_UNSPEC, .cmd = cmd };

	put(m, &d, sizeof(d));
}

static void app(struct msg *m, uint16_t type, uint8_t sel, uint8_t prio, uint16_t proto)
{
	struct dcb_app a = { .selector = sel, .priority = prio, .protocol = proto };

	attr(m, type, &a, sizeof(a));
}

/* A ConnectX reply: PFC on priority 3 only, ETS, and (dscp) the 64 DSCP
 * APP entries mlx5 pre-populates in DSCP trust, DSCP d -> priority d / 8. */
static void mlx5_reply(struct msg *m, bool dscp)
{
	struct ieee_ets ets;
	struct ieee_maxrate maxrate;
	struct ieee_pfc pfc;
	struct dcbnl_buffer buffer;
	uint8_t dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;

	assert_int_equal(sizeof(ets), 59);
	assert_int_equal(sizeof(pfc), 136);
	assert_int_equal(sizeof(buffer), 44);
	memset(&ets, 0, sizeof(ets));
	memset(&maxrate, 0, sizeof(maxrate));
	memset(&pfc, 0, sizeof(pfc));
	memset(&buffer, 0, sizeof(buffer));
	ets.ets_cap = 8;
	for (int i = 0; i < 8; i++) {
		ets.prio_tc[i] = (uint8_t)i;
		ets.tc_tsa[i] = IEEE_8021QAZ_TSA_ETS;
		ets.tc_tx_bw[i] = i < 4 ? 13 : 12;
	}
	pfc.pfc_cap = 8;
	pfc.pfc_en = 1u << 3;
	pfc.requests[3] = 1234;
	pfc.indications[3] = 5678;
	pfc.indications[0] = 1;

	nlmsg_begin(m, RTM_GETDCB);
	dcbmsg(m, DCB_CMD_IEEE_GET);
	attr(m, DCB_ATTR_IFNAME, "enp65s0f0np0", sizeof("enp65s0f0np0"));
	nest_begin_plain(m, DCB_ATTR_IEEE);	/* no NLA_F_NESTED, as the kernel */
	attr(m, DCB_ATTR_IEEE_ETS, &ets, sizeof(ets));
	attr(m, DCB_ATTR_IEEE_MAXRATE, &maxrate, sizeof(maxrate));
	attr(m, DCB_ATTR_IEEE_PFC, &pfc, sizeof(pfc));
	attr(m, DCB_ATTR_DCB_BUFFER, &buffer, sizeof(buffer));
	nest_begin_plain(m, DCB_ATTR_IEEE_APP_TABLE);
	if (dscp)
		for (int d = 0; d < 64; d++)
			app(m, DCB_ATTR_IEEE_APP, IEEE_8021QAZ_APP_SEL_DSCP, (uint8_t)(d / 8),
			    (uint16_t)d);
	nest_end(m);
	nest_begin_plain(m, NLA_F_NESTED | 12);	/* DCB_ATTR_DCB_REWR_TABLE, 6.3+ */
	nest_end(m);
	nest_end(m);
	attr(m, DCB_ATTR_DCBX, &dcbx, 1);
	end(m);
}

static void eopnotsupp_reply(struct msg *m)
{
	struct nlmsgerr e = { .error = -EOPNOTSUPP };

	nlmsg_begin(m, NLMSG_ERROR);
	e.msg.nlmsg_len = 40;
	e.msg.nlmsg_type = RTM_GETDCB;
	e.msg.nlmsg_flags = NLM_F_REQUEST;
	put(m, &e, sizeof(e));
	end(m);
}

static void save(const struct msg *m, const char *name)
{
	corpus_save("RD_DCB_CORPUS", name, m->b, m->len);
}

static void pfc3_dscp(void **state)
{
	struct msg m;
	struct dcb_info d;
	(void)state;

	mlx5_reply(&m, true);
	save(&m, "mlx5_dscp_pfc3");
	assert_int_equal(dcb_parse_ieee(m.b, m.len, &d), 0);
	assert_true(d.has_pfc);
	assert_int_equal(d.pfc_cap, 8);
	assert_int_equal(d.pfc_en, 0x08);
	assert_int_equal(d.requests[3], 1234);
	assert_int_equal(d.indications[3], 5678);
	assert_int_equal(d.indications[0], 1);
	assert_int_equal(d.requests[0], 0);
	assert_true(d.has_app_table);
	assert_int_equal(d.n_app, 64);
	assert_int_equal(d.trust_dscp, 1);
	assert_int_equal(d.dscp_to_prio[26], 3);
	assert_int_equal(d.dscp_to_prio[48], 6);
	assert_int_equal(d.dscp_to_prio[0], 0);
	assert_int_equal(d.dscp_to_prio[63], 7);
	assert_true(d.has_ets);
	assert_int_equal(d.prio_tc[5], 5);
	assert_int_equal(d.tc_tsa[0], IEEE_8021QAZ_TSA_ETS);
	assert_int_equal(d.dcbx, DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE);
	/* trailing bytes past nlmsg_len are not part of the message */
	assert_int_equal(dcb_parse_ieee(m.b, m.len + 16, &d), 0);
	assert_int_equal(d.dscp_to_prio[26], 3);
}

static void pcp_no_app(void **state)
{
	struct msg m;
	struct dcb_info d;
	(void)state;

	mlx5_reply(&m, false);
	save(&m, "mlx5_pcp");
	assert_int_equal(dcb_parse_ieee(m.b, m.len, &d), 0);
	assert_true(d.has_app_table);
	assert_int_equal(d.n_app, 0);
	assert_int_equal(d.trust_dscp, 0);
	for (int i = 0; i < 64; i++)
		assert_int_equal(d.dscp_to_prio[i], -1);
	assert_int_equal(d.pfc_en, 0x08);
}

/* Only PCP-selector entries (6.3+ DCB_ATTR_DCB_APP) and a stray IEEE one
 * with another selector: still pcp. */
static void pcp_entries(void **state)
{
	struct msg m;
	struct dcb_info d;
	(void)state;

	nlmsg_begin(&m, RTM_GETDCB);
	dcbmsg(&m, DCB_CMD_IEEE_GET);
	nest_begin_plain(&m, DCB_ATTR_IEEE);
	nest_begin_plain(&m, DCB_ATTR_IEEE_APP_TABLE);
	app(&m, 2, 255, 3, 3);
	app(&m, DCB_ATTR_IEEE_APP, IEEE_8021QAZ_APP_SEL_ETHERTYPE, 4, 0x8915);
	nest_end(&m);
	nest_end(&m);
	end(&m);
	save(&m, "pcp_entries");
	assert_int_equal(dcb_parse_ieee(m.b, m.len, &d), 0);
	assert_int_equal(d.n_app, 2);
	assert_int_equal(d.trust_dscp, 0);
	assert_false(d.has_pfc);
	assert_int_equal(d.dcbx, -1);
}

static void truncated(void **state)
{
	struct msg m;
	struct dcb_info d;
	(void)state;

	mlx5_reply(&m, true);
	/* every prefix: the header says more than there is */
	for (size_t n = 0; n < m.len; n++)
		assert_int_equal(dcb_parse_ieee(m.b, n, &d), -EINVAL);
	/* cut in the middle of the PFC attribute, header made to agree */
	for (size_t n = 24; n < m.len - 8; n += 3) {
		struct msg t = m;
		uint32_t len = (uint32_t)n;
		int rc;

		memcpy(t.b, &len, sizeof(len));
		rc = dcb_parse_ieee(t.b, n, &d);
		assert_true(rc == -EINVAL || rc == 0);
	}
	{
		uint32_t len = 80;	/* inside the ETS attribute */

		memcpy(m.b, &len, sizeof(len));
		assert_int_equal(dcb_parse_ieee(m.b, len, &d), -EINVAL);
		assert_int_equal(d.trust_dscp, 0);
		assert_int_equal(d.dscp_to_prio[26], -1);
	}
	assert_int_equal(dcb_parse_ieee(NULL, 0, &d), -EINVAL);
}

static void nest_past_end(void **state)
{
	struct msg m;
	struct dcb_info d;
	uint16_t big;
	size_t ieee_at = NLMSG_HDRLEN + 4 + NLA_ALIGN(NLA_HDRLEN + sizeof("enp65s0f0np0"));
	(void)state;

	mlx5_reply(&m, true);
	/* the nest claims 4 bytes more than the message has left */
	big = (uint16_t)(m.len - ieee_at + 4);
	memcpy(m.b + ieee_at, &big, sizeof(big));
	assert_int_equal(m.b[ieee_at + 2], DCB_ATTR_IEEE);
	assert_int_equal(dcb_parse_ieee(m.b, m.len, &d), -EINVAL);

	/* an APP entry shorter than struct dcb_app */
	nlmsg_begin(&m, RTM_GETDCB);
	dcbmsg(&m, DCB_CMD_IEEE_GET);
	nest_begin_plain(&m, DCB_ATTR_IEEE);
	nest_begin_plain(&m, DCB_ATTR_IEEE_APP_TABLE);
	attr(&m, DCB_ATTR_IEEE_APP, "\x05\x03", 2);
	nest_end(&m);
	nest_end(&m);
	end(&m);
	assert_int_equal(dcb_parse_ieee(m.b, m.len, &d), -EINVAL);

	/* a 58-byte ETS */
	nlmsg_begin(&m, RTM_GETDCB);
	dcbmsg(&m, DCB_CMD_IEEE_GET);
	nest_begin_plain(&m, DCB_ATTR_IEEE);
	{
		uint8_t ets[58] = { 0 };

		attr(&m, DCB_ATTR_IEEE_ETS, ets, sizeof(ets));
	}
	nest_end(&m);
	end(&m);
	assert_int_equal(dcb_parse_ieee(m.b, m.len, &d), -EINVAL);

	/* no IEEE nest at all; another command; an attribute of length 2 */
	nlmsg_begin(&m, RTM_GETDCB);
	dcbmsg(&m, DCB_CMD_IEEE_GET);
	end(&m);
	assert_int_equal(dcb_parse_ieee(m.b, m.len, &d), -EINVAL);
	nlmsg_begin(&m, RTM_GETDCB);
	dcbmsg(&m, DCB_CMD_GSTATE);
	nest_begin_plain(&m, DCB_ATTR_IEEE);
	nest_end(&m);
	end(&m);
	assert_int_equal(dcb_parse_ieee(m.b, m.len, &d), -EINVAL);
	nlmsg_begin(&m, RTM_GETDCB);
	dcbmsg(&m, DCB_CMD_IEEE_GET);
	{
		struct nlattr a = { .nla_len = 2, .nla_type = DCB_ATTR_IEEE };

		put(&m, &a, sizeof(a));
	}
	end(&m);
	assert_int_equal(dcb_parse_ieee(m.b, m.len, &d), -EINVAL);
}

static void not_supported(void **state)
{
	struct msg m;
	struct dcb_info d;
	struct nlmsgerr ack = { .error = 0 };
	(void)state;

	eopnotsupp_reply(&m);
	save(&m, "eopnotsupp");
	assert_int_equal(m.len, 36);
	assert_int_equal(dcb_parse_ieee(m.b, m.len, &d), -EOPNOTSUPP);
	/* an error reply too short for its error code */
	assert_int_equal(dcb_parse_ieee(m.b, 18, &d), -EINVAL);
	/* an ACK carries no DCB data */
	nlmsg_begin(&m, NLMSG_ERROR);
	put(&m, &ack, sizeof(ack));
	end(&m);
	assert_int_equal(dcb_parse_ieee(m.b, m.len, &d), -EINVAL);
}

static void request(void **state)
{
	uint8_t buf[64];
	struct nlmsghdr h;
	struct dcbmsg dm;
	struct nlattr a;
	int n;
	(void)state;

	n = dcb_build_request(buf, sizeof(buf), "eth0", 9);
	/* 16 header + 4 dcbmsg + 4 attr header + "eth0\0" padded to 8 */
	assert_int_equal(n, 16 + 4 + 4 + 8);
	memcpy(&h, buf, sizeof(h));
	assert_int_equal(h.nlmsg_len, n);
	assert_int_equal(h.nlmsg_type, RTM_GETDCB);
	assert_int_equal(h.nlmsg_type, 78);
	assert_int_equal(h.nlmsg_flags, NLM_F_REQUEST);
	assert_int_equal(h.nlmsg_seq, 9);
	memcpy(&dm, buf + 16, sizeof(dm));
	assert_int_equal(dm.dcb_family, AF_UNSPEC);
	assert_int_equal(dm.cmd, DCB_CMD_IEEE_GET);
	memcpy(&a, buf + 20, sizeof(a));
	assert_int_equal(a.nla_type, DCB_ATTR_IFNAME);
	assert_int_equal(a.nla_len, 4 + 5);
	assert_memory_equal(buf + 24, "eth0", 5);
	assert_int_equal(dcb_build_request(buf, sizeof(buf), "", 1), -EINVAL);
	assert_int_equal(dcb_build_request(buf, sizeof(buf), "sixteen-chars-xx", 1), -EINVAL);
	assert_int_equal(dcb_build_request(buf, 20, "eth0", 1), -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pfc3_dscp),
		cmocka_unit_test(pcp_no_app),
		cmocka_unit_test(pcp_entries),
		cmocka_unit_test(truncated),
		cmocka_unit_test(nest_past_end),
		cmocka_unit_test(not_supported),
		cmocka_unit_test(request),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
