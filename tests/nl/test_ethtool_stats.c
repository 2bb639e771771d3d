/* ethtool statistics payloads (include/uapi/linux/ethtool.h), built
 * byte by byte as the kernel's ETHTOOL_GSTRINGS / ETHTOOL_GSTATS answers
 * lay them out: struct ethtool_gstrings {cmd, string_set, len} + 32-byte
 * names, struct ethtool_stats {cmd, n_stats} + u64 values.  Also the
 * replay path: a snapshot tree with .rdmadoctor/ethtool/<if>/{strings,stats}
 * read through the root.
 *
 * With RD_ETHTOOL_STATS_CORPUS=DIR set, the well-formed payload pairs are
 * also written there in the fuzz target's format (tests/fuzz/corpus/
 * ethtool_stats/ was made that way). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <linux/ethtool.h>

#include "nl/ethtool_stats.h"
#include "sysfs/ethtool.h"
#include "sysfs/root.h"

struct payload {
	uint8_t s[4096], v[1024];
	size_t slen, vlen;
};

static void put32(uint8_t *p, uint32_t x)
{
	memcpy(p, &x, 4);
}

/* names[i] = values[i]; header counts say count (may differ from n) */
static void build(struct payload *p, const char *const *names, const uint64_t *values, size_t n,
		  uint32_t count)
{
	memset(p, 0, sizeof(*p));
	put32(p->s, ETHTOOL_GSTRINGS);	/* cmd @0 */
	put32(p->s + 4, ETH_SS_STATS);	/* string_set @4 */
	put32(p->s + 8, count);		/* len @8 */
	for (size_t i = 0; i < n; i++)
		strncpy((char *)p->s + 12 + 32 * i, names[i], 32);
	p->slen = 12 + 32 * n;
	put32(p->v, ETHTOOL_GSTATS);	/* cmd @0 */
	put32(p->v + 4, count);		/* n_stats @4 */
	for (size_t i = 0; i < n; i++)
		memcpy(p->v + 8 + 8 * i, &values[i], 8);
	p->vlen = 8 + 8 * n;
	assert_int_equal(offsetof(struct ethtool_gstrings, data), 12);
	assert_int_equal(offsetof(struct ethtool_stats, data), 8);
}

static void corpus(const struct payload *p, const char *name)
{
	const char *dir = getenv("RD_ETHTOOL_STATS_CORPUS");
	char path[512];
	uint32_t slen = (uint32_t)p->slen;
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(&slen, 1, 4, f), 4);
	assert_int_equal(fwrite(p->s, 1, p->slen, f), p->slen);
	assert_int_equal(fwrite(p->v, 1, p->vlen, f), p->vlen);
	fclose(f);
}

static void set_free(struct counter_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

static const char *const mlx5[] = {
	"rx_crc_errors_phy", "rx_symbol_err_phy", "link_down_events_phy",
	"rx_prio3_pause", "tx_prio3_pause", "rx_discards_phy",
};
static const uint64_t mlx5_values[] = { 7, 0, 3, 123456789012ULL, 42, UINT64_MAX };

static void test_mlx5(void **state)
{
	struct payload p;
	struct counter_set out = { 0 };

	(void)state;
	build(&p, mlx5, mlx5_values, 6, 6);
	corpus(&p, "mlx5_pfc3");
	assert_int_equal(ethtool_stats_count_of(p.s, p.slen), 6);
	assert_int_equal(ethtool_stats_parse(p.s, p.slen, p.v, p.vlen, 6, &out), 0);
	assert_int_equal(out.n, 6);
	for (size_t i = 0; i < 6; i++) {
		assert_string_equal(out.v[i].name, mlx5[i]);
		assert_true(out.v[i].value == mlx5_values[i]);
		assert_true(out.v[i].ok);
	}
	set_free(&out);
}

static void test_veth_and_empty(void **state)
{
	static const char *const veth[] = { "peer_ifindex", "rx_queue_0_xdp_packets" };
	static const uint64_t vv[] = { 5, 0 };
	struct payload p;
	struct counter_set out = { 0 };

	(void)state;
	build(&p, veth, vv, 2, 2);
	corpus(&p, "veth");
	assert_int_equal(ethtool_stats_parse(p.s, p.slen, p.v, p.vlen, 2, &out), 0);
	assert_string_equal(out.v[0].name, "peer_ifindex");
	assert_int_equal(out.v[0].value, 5);
	set_free(&out);
	/* count 0: known and empty, v still set */
	build(&p, NULL, NULL, 0, 0);
	corpus(&p, "empty");
	assert_int_equal(ethtool_stats_parse(p.s, p.slen, p.v, p.vlen, 0, &out), 0);
	assert_non_null(out.v);
	assert_int_equal(out.n, 0);
	set_free(&out);
}

static void refused(struct payload *p, uint32_t count, int want)
{
	struct counter_set out = { 0 };

	assert_int_equal(ethtool_stats_parse(p->s, p->slen, p->v, p->vlen, count, &out), want);
	assert_null(out.v);
	assert_int_equal(out.n, 0);
}

static void test_malformed(void **state)
{
	/* 31 characters: the longest name that leaves room for the NUL */
	static const char *const ok31[] = { "abcdefghijklmnopqrstuvwxyz01234" };
	static const uint64_t one[] = { 1 };
	struct payload p;
	struct counter_set out = { 0 };

	(void)state;
	build(&p, ok31, one, 1, 1);
	assert_int_equal(ethtool_stats_parse(p.s, p.slen, p.v, p.vlen, 1, &out), 0);
	assert_int_equal(strlen(out.v[0].name), 31);
	set_free(&out);

	/* 32 bytes without a NUL */
	memset(p.s + 12, 'a', 32);
	refused(&p, 1, -EINVAL);
	/* empty name */
	build(&p, ok31, one, 1, 1);
	p.s[12] = 0;
	refused(&p, 1, -EINVAL);
	/* a control character, a non-ASCII byte */
	build(&p, ok31, one, 1, 1);
	p.s[13] = '\n';
	refused(&p, 1, -EINVAL);
	p.s[13] = 0xc3;
	refused(&p, 1, -EINVAL);
	/* the count asked differs from the headers (6.12 answers len 0) */
	build(&p, mlx5, mlx5_values, 6, 6);
	refused(&p, 5, -EINVAL);
	build(&p, mlx5, mlx5_values, 6, 0);
	refused(&p, 6, -EINVAL);
	/* strings and stats disagree */
	build(&p, mlx5, mlx5_values, 6, 6);
	put32(p.v + 4, 5);
	refused(&p, 6, -EINVAL);
	/* wrong cmd, wrong string set */
	build(&p, mlx5, mlx5_values, 6, 6);
	put32(p.s, ETHTOOL_GSTATS);
	refused(&p, 6, -EINVAL);
	build(&p, mlx5, mlx5_values, 6, 6);
	put32(p.s + 4, ETH_SS_TEST);
	refused(&p, 6, -EINVAL);
	build(&p, mlx5, mlx5_values, 6, 6);
	put32(p.v, ETHTOOL_GSTRINGS);
	refused(&p, 6, -EINVAL);
	/* truncated, too long */
	build(&p, mlx5, mlx5_values, 6, 6);
	p.slen--;
	refused(&p, 6, -EINVAL);
	build(&p, mlx5, mlx5_values, 6, 6);
	p.vlen -= 8;
	refused(&p, 6, -EINVAL);
	build(&p, mlx5, mlx5_values, 6, 6);
	p.vlen++;
	refused(&p, 6, -EINVAL);
	/* headers cut */
	build(&p, mlx5, mlx5_values, 6, 6);
	p.slen = 11;
	refused(&p, 6, -EINVAL);
	assert_int_equal(ethtool_stats_count_of(p.s, 11), -EINVAL);
	build(&p, mlx5, mlx5_values, 6, 6);
	p.vlen = 7;
	refused(&p, 6, -EINVAL);
	/* past the cap */
	build(&p, mlx5, mlx5_values, 6, ETHTOOL_STATS_MAX + 1);
	refused(&p, ETHTOOL_STATS_MAX + 1, -E2BIG);
	/* NULL buffers */
	assert_int_equal(ethtool_stats_parse(NULL, 0, NULL, 0, 0, &out), -EINVAL);
}

static void write_file(const char *path, const void *b, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	fclose(f);
}

/* replay: the files under .rdmadoctor/ethtool/<if>/ through the root */
static void test_replay(void **state)
{
	char dir[] = "/tmp/rd_ethtool_XXXXXX", path[256];
	struct payload p;
	struct counter_set out = { 0 };
	struct root r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/.rdmadoctor", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/.rdmadoctor/ethtool", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/.rdmadoctor/ethtool/eth9", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	build(&p, mlx5, mlx5_values, 6, 6);
	snprintf(path, sizeof(path), "%s/.rdmadoctor/ethtool/eth9/strings", dir);
	write_file(path, p.s, p.slen);
	snprintf(path, sizeof(path), "%s/.rdmadoctor/ethtool/eth9/stats", dir);
	write_file(path, p.v, p.vlen);

	assert_int_equal(root_open(&r, dir), 0);
	assert_false(r.live);
	assert_int_equal(ethtool_read_stats(&r, "eth9", &out), 0);
	assert_int_equal(out.n, 6);
	assert_string_equal(out.v[3].name, "rx_prio3_pause");
	assert_true(out.v[3].value == 123456789012ULL);
	set_free(&out);
	/* not captured, a name that cannot be a directory: not available */
	assert_int_equal(ethtool_read_stats(&r, "eth8", &out), 1);
	assert_null(out.v);
	assert_int_equal(ethtool_read_stats(&r, "..", &out), 1);
	assert_null(out.v);
	root_close(&r);

	/* a stats file cut short: not available, a note */
	snprintf(path, sizeof(path), "%s/.rdmadoctor/ethtool/eth9/stats", dir);
	write_file(path, p.v, p.vlen - 1);
	assert_int_equal(root_open(&r, dir), 0);
	assert_int_equal(ethtool_read_stats(&r, "eth9", &out), 1);
	assert_null(out.v);
	assert_true(r.n_notes > 0);
	root_close(&r);

	unlink(path);
	snprintf(path, sizeof(path), "%s/.rdmadoctor/ethtool/eth9/strings", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/.rdmadoctor/ethtool/eth9", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/.rdmadoctor/ethtool", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/.rdmadoctor", dir);
	rmdir(path);
	rmdir(dir);
}

/* live: lo has no ETH_SS_STATS; a name that cannot exist */
static void test_live_refusals(void **state)
{
	uint8_t *s, *v;
	size_t slen, vlen;
	uint32_t count;
	int rc;

	(void)state;
	rc = ethtool_stats_query("lo", &s, &slen, &v, &vlen, &count);
	assert_true(rc < 0);
	assert_null(s);
	assert_null(v);
	assert_int_equal(ethtool_stats_query("", &s, &slen, &v, &vlen, &count), -EINVAL);
	assert_int_equal(ethtool_stats_query("0123456789abcdefg", &s, &slen, &v, &vlen, &count),
			 -EINVAL);
	rc = ethtool_stats_query("rdnosuch0", &s, &slen, &v, &vlen, &count);
	/* ENOSYS: qemu-user, which runs the aarch64 build's tests
	 * (tests/run.sh), does not translate the SIOCETHTOOL ioctl */
	assert_true(rc == -ENODEV || rc == -EPERM || rc == -EACCES || rc == -ENOSYS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mlx5),
		cmocka_unit_test(test_veth_and_empty),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_live_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
