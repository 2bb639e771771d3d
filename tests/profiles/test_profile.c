/* Machine profiles: every built-in parses and survives a write and a read
 * back unchanged; broken files are refused at the right line with a message
 * that says what was expected; based_on copies a built-in wherever it
 * stands; and the committed fixture machines get the profile they are. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "profiles/ini_text.h"
#include "profiles/profile.h"
#include "profiles/site.h"
#include "collect/collect.h"
#include "sysfs/root.h"

/* ---- helpers ------------------------------------------------------------ */

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void assert_same_role(const struct role_spec *a, const struct role_spec *b)
{
	assert_int_equal(a->defined, b->defined);
	assert_int_equal(a->count, b->count);
	assert_true(same_str(a->model_family, b->model_family));
	assert_true(same_str(a->link_layer, b->link_layer));
	assert_true(a->rate_gbps == b->rate_gbps);
	assert_int_equal(a->pcie_gen, b->pcie_gen);
	assert_int_equal(a->pcie_width, b->pcie_width);
	assert_int_equal(a->mtu, b->mtu);
	assert_int_equal(a->pfc_priority, b->pfc_priority);
	assert_true(same_str(a->trust, b->trust));
	assert_int_equal(a->ecn, b->ecn);
	assert_int_equal(a->gpudirect, b->gpudirect);
	assert_int_equal(a->gpus_per_nic, b->gpus_per_nic);
	assert_int_equal(a->placement, b->placement);
	assert_true(a->bw_floor_gbps == b->bw_floor_gbps);
	assert_int_equal(a->distinct_switches, b->distinct_switches);
}

static void assert_same_profile(const struct profile *a, const struct profile *b)
{
	assert_true(same_str(a->name, b->name));
	assert_true(same_str(a->description, b->description));
	assert_true(same_str(a->based_on, b->based_on));
	assert_true(same_str(a->match_dmi, b->match_dmi));
	assert_true(same_str(a->match_gpu, b->match_gpu));
	assert_int_equal(a->match_gpu_count, b->match_gpu_count);
	assert_true(same_str(a->match_nic, b->match_nic));
	assert_int_equal(a->grace, b->grace);
	assert_memory_equal(&a->ber, &b->ber, sizeof(a->ber));
	for (int r = 0; r < ROLE_COUNT; r++)
		assert_same_role(&a->role[r], &b->role[r]);
}

/* profile_write into a malloc'd string */
static char *written(const struct profile *p, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	assert_int_equal(profile_write(f, p), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static int parse(const char *text, struct profile *p, struct profile_error *err)
{
	return profile_parse(text, strlen(text), "test.ini", p, err);
}

/* ---- built-ins ------------------------------------------------------------ */

static void builtins_round_trip(void **state)
{
	(void)state;
	assert_true(profile_builtin_count() >= 9);
	for (size_t i = 0; i < profile_builtin_count(); i++) {
		const struct profile *b = profile_builtin_at(i);
		struct profile_error err;
		struct profile p;
		size_t n1, n2;
		char *t1, *t2;

		assert_non_null(b);
		assert_ptr_equal(profile_builtin(b->name), b);
		assert_null(b->based_on);
		t1 = written(b, &n1);
		if (profile_parse(t1, n1, b->name, &p, &err) != 0)
			fail_msg("%s does not read back: line %d: %s", b->name, err.line,
				 err.message);
		assert_same_profile(b, &p);
		/* and the text is a fixed point */
		t2 = written(&p, &n2);
		assert_int_equal(n1, n2);
		assert_memory_equal(t1, t2, n1);
		profile_free(&p);
		free(t1);
		free(t2);
	}
	assert_null(profile_builtin_at(profile_builtin_count()));
	assert_null(profile_builtin("dgx-z100"));
	assert_null(profile_builtin(NULL));
}

static void builtin_values(void **state)
{
	const struct profile *g = profile_builtin("generic");
	const struct profile *h = profile_builtin("dgx-h100");
	const struct profile *a = profile_builtin("dgx-a100");
	const struct profile *r = profile_builtin("a800-8x100g-roce");
	const struct profile *x = profile_builtin("rtx-1x100g-roce");
	const struct profile *bud = profile_builtin("budget-2x100g-roce");
	const struct role_spec *rail;

	(void)state;
	assert_ptr_equal(profile_builtin_at(0), g);
	assert_false(g->role[ROLE_RAIL].defined);
	assert_false(g->role[ROLE_STORAGE].defined);
	assert_null(g->match_dmi);

	rail = &h->role[ROLE_RAIL];
	assert_int_equal(rail->count, 8);
	assert_string_equal(rail->model_family, "ConnectX-7");
	assert_string_equal(rail->link_layer, "InfiniBand");
	assert_true(rail->rate_gbps == 400 && rail->bw_floor_gbps == 360);
	assert_int_equal(rail->pcie_gen, 5);
	assert_int_equal(rail->pcie_width, 16);
	assert_int_equal(rail->mtu, 4096);
	assert_int_equal(rail->placement, PATH_PIX);
	assert_int_equal(rail->gpus_per_nic, 1);
	assert_int_equal(rail->gpudirect, 1);
	assert_int_equal(rail->pfc_priority, -1);
	assert_null(rail->trust);
	assert_int_equal(rail->ecn, -1);
	assert_int_equal(h->role[ROLE_STORAGE].count, 4);

	assert_int_equal(a->role[ROLE_RAIL].placement, PATH_PXB);
	assert_int_equal(a->role[ROLE_RAIL].pcie_gen, 4);
	assert_int_equal(a->role[ROLE_STORAGE].count, -1);

	rail = &r->role[ROLE_RAIL];
	assert_string_equal(rail->link_layer, "Ethernet");
	assert_int_equal(rail->mtu, 4200);
	assert_int_equal(rail->pfc_priority, 3);
	assert_string_equal(rail->trust, "dscp");
	assert_int_equal(rail->ecn, 1);
	assert_true(rail->bw_floor_gbps == 90);

	assert_int_equal(x->role[ROLE_RAIL].gpudirect, 0);
	assert_int_equal(x->role[ROLE_RAIL].placement, -1);
	assert_int_equal(bud->role[ROLE_RAIL].gpus_per_nic, 4);
	assert_int_equal(bud->role[ROLE_RAIL].count, 2);

	/* every profile that defines a rate has its 90 % floor */
	for (size_t i = 0; i < profile_builtin_count(); i++) {
		const struct profile *p = profile_builtin_at(i);

		for (int k = 0; k < ROLE_COUNT; k++) {
			const struct role_spec *s = &p->role[k];

			if (s->defined && s->rate_gbps > 0)
				assert_true(s->bw_floor_gbps == s->rate_gbps * 0.9);
		}
	}
}

/* ---- errors --------------------------------------------------------------- */

static const struct bad {
	const char *text;
	int line;
	const char *says;
} bad[] = {
	{ "[profile]\nname = x\n\n[rail]\ncount = 8\n# NDR\nrate_gbps = fast\n", 7,
	  "rate_gbps: expected a number of Gb/s like 400 (or any), got 'fast'" },
	{ "[profile]\nname = x\nfoo = 1\n", 3, "unknown key 'foo' in [profile]" },
	{ "[profile]\nname = x\n[gpu]\ncount = 8\n", 3,
	  "unknown section [gpu]: expected [profile], [rail] or [storage]" },
	{ "[profile]\nname = x\n[rail]\npfc_priority = 9\n", 4,
	  "pfc_priority: 9 is out of range (0 to 7, or any)" },
	{ "[profile]\nname = x\n[rail]\npcie_width = 12\n", 4, "not a PCIe link width" },
	{ "[profile]\nname = x\n[rail]\nrate_gbps = 0\n", 4, "out of range (1 to 3200" },
	{ "[profile]\nname = x\n[rail]\nrate_gbps = 1e3\n", 4, "expected a number of Gb/s" },
	{ "[profile]\nname = x\n[storage]\ncount = -1\n", 4, "count: expected a number" },
	{ "[profile]\nname = x\nbased_on = dgx-z100\n", 3,
	  "based_on: no built-in profile 'dgx-z100' (there are: generic, dgx-a100" },
	{ "[profile]\ndescription = no name\n", 0, "missing 'name = ...' in [profile]" },
	{ "", 0, "missing 'name" },
	{ "[profile]\nname = a\n\nname = b\n", 4, "'name' given twice in [profile] (first on line 2)" },
	{ "name = x\n[profile]\n", 1, "'name' comes before any section: put it under [profile]" },
	{ "[profile]\nname = x\n[rail]\nmatch_gpu = H100\n", 4, "'match_gpu' belongs in [profile]" },
	{ "[profile]\nname = x\nmtu = 4096\n", 3, "'mtu' belongs in [rail] or [storage]" },
	{ "[profile]\nname = x\njust some words\n", 3,
	  "expected 'key = value', a [section] or a comment, got 'just some words'" },
	{ "[profile]\nname = x\n[rail\n", 3, "closing ']'" },
	{ "[profile]\nname = x\n[rail] count = 8\n", 3, "unexpected text after ']'" },
	{ "[profile]\nname = x\n[rail]\nlink_layer = roce\n", 4,
	  "link_layer: expected InfiniBand or Ethernet (or any), got 'roce'" },
	{ "[profile]\nname = x\n[rail]\necn = maybe\n", 4, "ecn: expected yes, no or any" },
	{ "[profile]\nname = x\n[rail]\ndistinct_switches = 2\n", 4,
	  "distinct_switches: expected yes, no or any, got '2'" },
	{ "[profile]\nname = x\n[storage]\ndistinct_switches = yes\n", 4,
	  "'distinct_switches' belongs in [rail], not in [storage]" },
	{ "[profile]\nname = x\ndistinct_switches = yes\n", 3,
	  "'distinct_switches' belongs in [rail], not in [profile]" },
	{ "distinct_switches = yes\n", 1, "put it under [rail]" },
	{ "[profile]\nname = x\ngrace = any\n", 3, "grace: expected yes or no" },
	{ "[profile]\nname = x\n[rail]\nmodel =\n", 4, "model: expected a NIC model like ConnectX-7, got nothing" },
	{ "[profile]\nname = x\n[rail]\nplacement = near\n", 4,
	  "placement: expected PIX, PXB, PHB, NODE or SYS (or any)" },
	{ "[profile]\nname = -x\n", 2, "name: expected a name like my-h100" },
	{ "[profile]\nname = a b\n", 2, "name: expected a name" },
	{ "[profile]\nname = x\ndescription = red \033[31m\n", 3, "control character 0x1b" },
	{ "[profile]\nname = x\nmatch_gpu = H100,,H200\n", 3, "an empty alternative in 'H100,,H200'" },
	{ "[profile]\nname = x\nmatch_gpu_count = 0\n", 3, "out of range (1 to 64, or any)" },
	{ "[profile]\nname = x\n[rail]\nrate_gbps = 400\nbw_floor_gbps = 450\n", 5,
	  "bw_floor_gbps: 450 Gb/s is above rate_gbps 400 in [rail]" },
	{ "[profile]\nname = x\n[rail]\nmtu = 9000\nlink_layer = InfiniBand\n", 5,
	  "mtu: 9000 is more than InfiniBand's largest MTU, 4096" },
	{ "[profile]\nname = x\nbased_on = dgx-h100\n[rail]\nbw_floor_gbps = 401\n", 5,
	  "above rate_gbps 400" },
	{ "[profile]\nname = x\ndescription = a;b\n", 3, "';' and '#' start comments" },
	{ "[profile]\nname = x\nber_max = 1\n", 3, "ber_max: 1 is out of range (above 0 and below 1" },
	{ "[profile]\nname = x\nber_max = -1e-12\n", 3, "ber_max: expected a ratio like 1e-12" },
	{ "[profile]\nname = x\nber_near = nan\n", 3, "ber_near: expected a fraction like 0.5" },
	{ "[profile]\nname = x\nber_pre_fec_kp4 = 2.4e-4x\n", 3, "ber_pre_fec_kp4: expected" },
	{ "[profile]\nname = x\nber_max = 1e-999\n", 3, "ber_max: expected" },
	{ "[profile]\nname = x\nib_link_recoveries_per_hour = 0\n", 3,
	  "ib_link_recoveries_per_hour: 0 is out of range (above 0, at most 1e9" },
	{ "[profile]\nname = x\n[rail]\nber_max = 1e-12\n", 4, "'ber_max' belongs in [profile]" },
	/* the first broken line wins, whatever comes after it */
	{ "[profile]\nname = x\n[rail]\ncount = many\n[profile]\nbased_on = nope\n", 4,
	  "count: expected" },
	{ "[profile]\nname = x\nbased_on = nope\n[rail]\ncount = many\n", 3, "no built-in profile 'nope'" },
	{ "[profile]\nname = x\n[rail]\ncount = many\njunk\n", 4, "count: expected" },
	{ "[profile]\nname = x\njunk\n[rail]\ncount = many\n", 3, "expected 'key = value'" },
};

static void broken_profiles(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct profile_error err;
		struct profile p;
		int rc = parse(bad[i].text, &p, &err);

		if (rc != -EINVAL || err.line != bad[i].line || !strstr(err.message, bad[i].says))
			fail_msg("case %zu: rc %d, line %d: '%s'; wanted line %d: '%s'", i, rc,
				 err.line, err.message, bad[i].line, bad[i].says);
		assert_string_equal(err.file, "test.ini");
		/* nothing is left behind in a refused profile */
		assert_null(p.name);
		assert_false(p.role[ROLE_RAIL].defined);
	}
}

static void bytes_that_are_not_text(void **state)
{
	static const char nul[] = "[profile]\nname = x\ndescr\0iption = y\n";
	struct profile_error err;
	struct profile p;
	char *big, *long_line;

	(void)state;
	assert_int_equal(profile_parse(nul, sizeof(nul) - 1, "nul.ini", &p, &err), -EINVAL);
	assert_int_equal(err.line, 3);
	assert_non_null(strstr(err.message, "NUL byte"));

	long_line = calloc(1, 400);
	assert_non_null(long_line);
	strcpy(long_line, "[profile]\nname = x\ndescription = ");
	memset(long_line + strlen(long_line), 'a', 250);
	assert_int_equal(parse(long_line, &p, &err), -EINVAL);
	assert_int_equal(err.line, 3);
	assert_non_null(strstr(err.message, "longer than"));
	free(long_line);

	big = malloc(70000);
	assert_non_null(big);
	memset(big, '#', 70000);
	assert_int_equal(profile_parse(big, 70000, "big.ini", &p, &err), -EINVAL);
	assert_int_equal(err.line, 0);
	assert_non_null(strstr(err.message, "larger than 64 KiB"));
	free(big);

	/* the quoted value is cut short, and so says */
	assert_int_equal(parse("[profile]\nname = x\n[rail]\ncount = "
			       "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn\n",
			       &p, &err), -EINVAL);
	assert_non_null(strstr(err.message, "nnn...'"));
}

/* ---- what parses ---------------------------------------------------------- */

static void based_on_anywhere(void **state)
{
	/* based_on last, after [rail] keys and in a second [profile]: the
	 * built-in is still copied first and the file's values win */
	static const char text[] =
		"; our HGX boxes run RoCE\n"
		"[profile]\n"
		"name = site-h100\n"
		"[rail]\n"
		"link_layer = Ethernet   # RoCE\n"
		"mtu = 9000\n"
		"pfc_priority = 3\n"
		"placement = any\n"
		"[profile]\n"
		"based_on = hgx-8x400g\n";
	const struct profile *base = profile_builtin("hgx-8x400g");
	struct profile_error err;
	struct profile p, q;
	size_t n;
	char *t;

	(void)state;
	assert_int_equal(parse(text, &p, &err), 0);
	assert_string_equal(p.name, "site-h100");
	assert_string_equal(p.based_on, "hgx-8x400g");
	assert_string_equal(p.description, base->description);
	assert_string_equal(p.match_gpu, base->match_gpu);
	assert_int_equal(p.role[ROLE_RAIL].count, 8);
	assert_string_equal(p.role[ROLE_RAIL].model_family, "ConnectX-7");
	assert_true(p.role[ROLE_RAIL].rate_gbps == 400);
	assert_string_equal(p.role[ROLE_RAIL].link_layer, "Ethernet");
	assert_int_equal(p.role[ROLE_RAIL].mtu, 9000);
	assert_int_equal(p.role[ROLE_RAIL].pfc_priority, 3);
	assert_int_equal(p.role[ROLE_RAIL].placement, -1);
	assert_true(p.role[ROLE_STORAGE].defined);
	/* the built-in itself is untouched */
	assert_null(base->role[ROLE_RAIL].link_layer);
	assert_int_equal(base->role[ROLE_RAIL].placement, PATH_PXB);

	/* written resolved, it reads back the same */
	t = written(&p, &n);
	assert_non_null(strstr(t, "based_on = hgx-8x400g\n"));
	assert_int_equal(profile_parse(t, n, "again", &q, &err), 0);
	assert_same_profile(&p, &q);
	free(t);
	profile_free(&q);
	profile_free(&p);
	profile_free(&p);	/* twice is harmless */
	profile_free(NULL);
}

static void forms_people_write(void **state)
{
	/* a byte order mark, CRLF, indentation, both comment styles, case in
	 * the words, an empty role section, a value with '=' and ':' in it */
	static const char text[] =
		"\xef\xbb\xbf# site profile\r\n"
		"[profile]\r\n"
		"   name = lab-1\r\n"
		"\tdescription = lab: rack 3 = the old one ; comment\r\n"
		"match_dmi = PowerEdge XE9680, SYS-821GE-TNHR\r\n"
		"grace = NO\r\n"
		"[ rail ]\n"
		"link_layer = infiniband\n"
		"trust = DSCP\n"
		"placement = pxb\n"
		"ecn = Any\n"
		"rate_gbps = 12.5\n"
		"[storage]\n";
	struct profile_error err;
	struct profile p, q;
	size_t n;
	char *t;

	(void)state;
	assert_int_equal(parse(text, &p, &err), 0);
	assert_string_equal(p.name, "lab-1");
	assert_string_equal(p.description, "lab: rack 3 = the old one");
	assert_string_equal(p.match_dmi, "PowerEdge XE9680, SYS-821GE-TNHR");
	assert_false(p.grace);
	assert_string_equal(p.role[ROLE_RAIL].link_layer, "InfiniBand");
	assert_string_equal(p.role[ROLE_RAIL].trust, "dscp");
	assert_int_equal(p.role[ROLE_RAIL].placement, PATH_PXB);
	assert_int_equal(p.role[ROLE_RAIL].ecn, -1);
	assert_int_equal(p.role[ROLE_RAIL].count, -1);
	assert_true(p.role[ROLE_RAIL].rate_gbps == 12.5);
	assert_true(p.role[ROLE_STORAGE].defined);
	assert_int_equal(p.role[ROLE_STORAGE].count, -1);
	assert_int_equal(p.role[ROLE_STORAGE].placement, -1);

	t = written(&p, &n);
	assert_int_equal(profile_parse(t, n, "again", &q, &err), 0);
	assert_same_profile(&p, &q);
	free(t);
	profile_free(&q);
	profile_free(&p);
}

static void load_file(void **state)
{
	char path[] = "/tmp/rd-profile-XXXXXX";
	struct profile_error err;
	struct profile p;
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs("[profile]\nname = mine\nbased_on = dgx-a100\n[rail]\nrate_gbps = slow\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(profile_load_file(path, &p, &err), -EINVAL);
	assert_string_equal(err.file, path);
	assert_int_equal(err.line, 5);

	f = fopen(path, "w");
	assert_non_null(f);
	fputs("[profile]\nname = mine\nbased_on = dgx-a100\n[rail]\nrate_gbps = 100\n"
	      "bw_floor_gbps = 90\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(profile_load_file(path, &p, &err), 0);
	assert_true(p.role[ROLE_RAIL].rate_gbps == 100);
	assert_int_equal(p.role[ROLE_RAIL].count, 8);
	profile_free(&p);
	assert_int_equal(unlink(path), 0);

	assert_int_equal(profile_load_file(path, &p, &err), -ENOENT);
	assert_string_equal(err.file, path);
	assert_int_equal(err.line, 0);
	assert_non_null(strstr(err.message, "cannot open"));
	assert_int_equal(profile_load_file("/", &p, &err), -EISDIR);
}

/* ---- selection ------------------------------------------------------------ */

static void select_fixtures(void **state)
{
	static const struct {
		const char *shape, *profile, *reason;
	} want[] = {
		{ "dgx-h100", "dgx-h100", "DMI product 'DGXH100' matches dgx-h100" },
		{ "dgx-a100", "dgx-a100",
		  "DMI product 'DGXA100 920-23687-2530-000' matches dgx-a100" },
		{ "hgx-roce-lag", "hgx-8x400g",
		  "DMI product 'SYS-821GE-TNHR' with 8 x H100 SXM5 80GB: hgx-8x400g" },
		/* the budget build is judged as the board it is: 2 rails of 8 fail */
		{ "a800-2x100g-roce", "a800-8x100g-roce",
		  "DMI product 'NF5688M6' with 8 x A800 SXM4 80GB: a800-8x100g-roce" },
		{ "rtx4090-cx6dx-x8", "rtx-1x100g-roce", "GPUs 8 x GeForce RTX 4090: rtx-1x100g-roce" },
		{ "broken", "hgx-8x400g",
		  "DMI product 'PowerEdge XE9680' with 8 x H100 SXM5 80GB: hgx-8x400g" },
		{ "roce-broken", "hgx-8x400g",
		  "DMI product 'ESC N8-E11' with 8 x H100 SXM5 80GB: hgx-8x400g" },
		{ "dgx-b200", "dgx-b200", "DMI product 'DGXB200' matches dgx-b200" },
		{ "hgx-a100-8x200g", "a100-8x200g",
		  "DMI product 'SYS-420GP-TNAR' with 8 x A100 SXM4 80GB: a100-8x200g" },
		{ "a800-8x100g-roce", "a800-8x100g-roce",
		  "DMI product 'UniServer R5500 G5' with 8 x A800 SXM4 80GB and 10 ConnectX-6 Dx "
		  "(Ethernet): a800-8x100g-roce" },
		{ "rtx3090-x16", "rtx-1x100g-roce", "GPUs 8 x GeForce RTX 3090: rtx-1x100g-roce" },
	};
	const char *dir = getenv("RD_FIXTURES");

	(void)state;
	if (!dir)
		fail_msg("RD_FIXTURES is not set: run it through ctest, which points it at tests/fixtures");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct profile *p;
		struct inventory inv;
		char path[4096], reason[256];
		struct root r;

		snprintf(path, sizeof(path), "%s/%s/root", dir, want[i].shape);
		assert_int_equal(root_open(&r, path), 0);
		assert_int_equal(inventory_collect(&r, &inv), 0);
		p = profile_select(&inv, reason, sizeof(reason));
		assert_non_null(p);
		if (strcmp(p->name, want[i].profile) != 0 || strcmp(reason, want[i].reason) != 0)
			fail_msg("%s: got %s ('%s'), wanted %s ('%s')", want[i].shape, p->name,
				 reason, want[i].profile, want[i].reason);
		inventory_free(&inv);
		root_close(&r);
	}
}

static struct gpu gpus[8];
static struct nic nics[12];
static struct port ports[12];

static struct inventory machine(const char *dmi, const char *gpu, size_t n_gpus,
				const char *nic, const char *link, size_t n_nics)
{
	struct inventory inv = { 0 };

	inv.host.dmi_product = (char *)dmi;
	for (size_t i = 0; i < n_gpus; i++) {
		memset(&gpus[i], 0, sizeof(gpus[i]));
		gpus[i].model = gpu;
		gpus[i].kind = GPU_DATACENTER;
	}
	for (size_t i = 0; i < n_nics; i++) {
		memset(&nics[i], 0, sizeof(nics[i]));
		memset(&ports[i], 0, sizeof(ports[i]));
		ports[i].num = 1;
		ports[i].link_layer = (char *)link;
		nics[i].model = (char *)nic;
		nics[i].ports = &ports[i];
		nics[i].n_ports = 1;
	}
	inv.gpus = gpus;
	inv.n_gpus = n_gpus;
	inv.nics = nics;
	inv.n_nics = n_nics;
	return inv;
}

static const char *pick(struct inventory inv, char *reason, size_t len)
{
	const struct profile *p = profile_select(&inv, reason, len);

	assert_non_null(p);
	return p->name;
}

static void select_rules(void **state)
{
	char why[256];

	(void)state;
	/* DMI first, blanks and case ignored, even on other hardware */
	assert_string_equal(pick(machine("DGX H100", "A100 SXM4 80GB", 8, "ConnectX-6", "InfiniBand", 8),
				 why, sizeof(why)), "dgx-h100");
	assert_string_equal(why, "DMI product 'DGX H100' matches dgx-h100");
	assert_string_equal(pick(machine("dgxh200", NULL, 0, NULL, NULL, 0), why, sizeof(why)),
			    "dgx-h100");
	assert_string_equal(pick(machine("NVIDIA DGX B200", NULL, 0, NULL, NULL, 0), why,
				 sizeof(why)), "dgx-b200");
	assert_string_equal(pick(machine("DGXA100", NULL, 0, NULL, NULL, 0), why, sizeof(why)),
			    "dgx-a100");

	/* then hardware */
	assert_string_equal(pick(machine(NULL, "H20", 8, "ConnectX-7", "Ethernet", 10), why,
				 sizeof(why)), "hgx-8x400g");
	assert_string_equal(pick(machine("X", "H200 SXM 141GB", 8, "ConnectX-7", "InfiniBand", 8),
				 why, sizeof(why)), "hgx-8x400g");
	assert_string_equal(pick(machine(NULL, "A800 SXM4 80GB", 8, "ConnectX-6", "InfiniBand", 8),
				 why, sizeof(why)), "a100-8x200g");
	assert_string_equal(why, "GPUs 8 x A800 SXM4 80GB and 8 ConnectX-6: a100-8x200g");
	/* the NICs never lower what is expected: 100G rails do not make an A100
	 * board (built for 200G) a 100G build, nor 2 rails a budget one (these
	 * two asserted the opposite before: the profile came from what it
	 * judged) */
	assert_string_equal(pick(machine(NULL, "A100 SXM4 80GB", 8, "ConnectX-6 Dx", "Ethernet", 8),
				 why, sizeof(why)), "a100-8x200g");
	assert_string_equal(why, "GPUs 8 x A100 SXM4 80GB: a100-8x200g");
	assert_string_equal(pick(machine(NULL, "H100 SXM5 80GB", 8, "ConnectX-6 Dx", "Ethernet", 2),
				 why, sizeof(why)), "hgx-8x400g");
	assert_string_equal(pick(machine(NULL, "A800 SXM4 80GB", 8, "ConnectX-6 Dx", "Ethernet", 8),
				 why, sizeof(why)), "a800-8x100g-roce");
	assert_string_equal(why, "GPUs 8 x A800 SXM4 80GB and 8 ConnectX-6 Dx (Ethernet): a800-8x100g-roce");
	/* an OEM chassis is narrowed by its GPUs; GPUs it does not list fall
	 * through to the GPU step */
	assert_string_equal(pick(machine("PowerEdge XE9680", "A100 SXM4 80GB", 8, "ConnectX-6",
					 "InfiniBand", 8), why, sizeof(why)), "a100-8x200g");
	assert_string_equal(why, "DMI product 'PowerEdge XE9680' with 8 x A100 SXM4 80GB: "
			    "a100-8x200g");
	assert_string_equal(pick(machine("SYS-821GE-TNHR", "A800 SXM4 80GB", 8, "ConnectX-6 Dx",
					 "Ethernet", 8), why, sizeof(why)), "a800-8x100g-roce");
	assert_string_equal(why, "GPUs 8 x A800 SXM4 80GB and 8 ConnectX-6 Dx (Ethernet): a800-8x100g-roce");

	/* the GPUs say what the machine is, however many rails are left
	 * (nic.count says what is missing; 4 NICs gave generic before) */
	assert_string_equal(pick(machine(NULL, "H100 SXM5 80GB", 8, "ConnectX-7", "InfiniBand", 7),
				 why, sizeof(why)), "hgx-8x400g");
	assert_string_equal(why, "GPUs 8 x H100 SXM5 80GB: hgx-8x400g");
	assert_string_equal(pick(machine(NULL, "H100 SXM5 80GB", 8, "ConnectX-7", "InfiniBand", 4),
				 why, sizeof(why)), "hgx-8x400g");
	assert_string_equal(why, "GPUs 8 x H100 SXM5 80GB: hgx-8x400g");
	/* known GPUs and no RDMA device at all: the NIC driver did not load;
	 * judged as the machine its GPUs say, so nic.count fails it */
	assert_string_equal(pick(machine(NULL, "H100 SXM5 80GB", 8, "ConnectX-7", "InfiniBand", 0),
				 why, sizeof(why)), "hgx-8x400g");
	assert_string_equal(why, "GPUs 8 x H100 SXM5 80GB and no RDMA device: hgx-8x400g");
	assert_string_equal(pick(machine(NULL, "A800 SXM4 80GB", 8, "ConnectX-6 Dx", "Ethernet", 4),
				 why, sizeof(why)), "a800-8x100g-roce");
	assert_string_equal(pick(machine(NULL, "A800 SXM4 80GB", 8, "ConnectX-6", "InfiniBand", 2),
				 why, sizeof(why)), "a800-8x100g-roce");
	assert_string_equal(why, "GPUs 8 x A800 SXM4 80GB: a800-8x100g-roce");
	/* H20 is a word: an H200 box does not become an H20 one, nor 4 GPUs 8 */
	assert_string_equal(pick(machine(NULL, "H100 SXM5 80GB", 4, "ConnectX-7", "InfiniBand", 1),
				 why, sizeof(why)), "generic");
	assert_string_equal(why, "no profile matches (4 GPUs, 1 NIC): generic");
	assert_string_equal(pick(machine(NULL, NULL, 8, "ConnectX-7", "InfiniBand", 8), why,
				 sizeof(why)), "generic");
	assert_string_equal(pick(machine(NULL, NULL, 0, NULL, NULL, 0), why, sizeof(why)),
			    "generic");
	assert_string_equal(why, "no profile matches (0 GPUs, 0 NICs): generic");

	/* a short buffer is cut and says so; none at all is fine */
	assert_string_equal(pick(machine("DGXH100", NULL, 0, NULL, NULL, 0), why, 12), "dgx-h100");
	assert_string_equal(why, "DMI prod...");
	assert_string_equal(pick(machine("DGXH100", NULL, 0, NULL, NULL, 0), NULL, 0), "dgx-h100");
}

/* The line source both INI parsers share: lines counted, LF and CRLF
 * ends and leading blanks gone, the first control character found. */
static void ini_lines(void **state)
{
	static const char text[] = "[site]\r\n  \tprofile = x\n\nbad\x01 \x02\nlast";
	struct ini_text t = { .text = text, .len = sizeof(text) - 1 };
	const char *line;
	size_t n;
	int ctl;
	(void)state;

	assert_true(ini_text_next(&t, &line, &n, &ctl));
	assert_int_equal(t.line, 1);
	assert_int_equal(n, 6);
	assert_memory_equal(line, "[site]", 6);
	assert_int_equal(ctl, -1);
	assert_true(ini_text_next(&t, &line, &n, &ctl));
	assert_int_equal(n, strlen("profile = x"));
	assert_memory_equal(line, "profile = x", n);
	assert_int_equal(ctl, -1);
	assert_true(ini_text_next(&t, &line, &n, &ctl));
	assert_int_equal(n, 0);
	assert_true(ini_text_next(&t, &line, &n, &ctl));
	assert_int_equal(t.line, 4);
	assert_int_equal(ctl, 1);
	assert_true(ini_text_next(&t, &line, &n, &ctl));
	assert_int_equal(n, 4);
	assert_int_equal(t.line, 5);
	assert_false(ini_text_next(&t, &line, &n, &ctl));
	assert_int_equal(t.line, 5);
}

/* Both parsers, through that source, name the same line for the same
 * byte that is no text: a NUL or a control character on line 3. */
static void ini_lines_both_parsers(void **state)
{
	static const char site[] = "[site]\r\nignore = sys.memlock\r\nrail = mlx5_0\x1b\n";
	static const char prof[] = "[profile]\r\nname = x\r\nvendor = a\x1b\n";
	static const char nul[] = "[profile]\nname = x\nvendor\0 = a\n";
	struct profile_error err;
	struct site st;
	struct profile p;
	(void)state;

	assert_int_equal(site_parse(site, sizeof(site) - 1, "s.conf", &st, &err), -EINVAL);
	assert_int_equal(err.line, 3);
	assert_non_null(strstr(err.message, "control character 0x1b: a site file is text"));
	assert_int_equal(profile_parse(prof, sizeof(prof) - 1, "p.ini", &p, &err), -EINVAL);
	assert_int_equal(err.line, 3);
	assert_non_null(strstr(err.message, "control character 0x1b: a profile is text"));
	assert_int_equal(profile_parse(nul, sizeof(nul) - 1, "p.ini", &p, &err), -EINVAL);
	assert_int_equal(err.line, 3);
	assert_non_null(strstr(err.message, "a NUL byte"));
	/* the same file less the bad byte parses */
	assert_int_equal(site_parse(site, sizeof(site) - 3, "s.conf", &st, &err), 0);
	assert_int_equal(st.rail.n, 1);
	assert_string_equal(st.rail.v[0], "mlx5_0");
	site_free(&st);
}

/* [rail] distinct_switches: not judged unless said, written back as it
 * was, and never in [storage] (a storage NIC has no rail switch). */
static void distinct_switches(void **state)
{
	static const char yes[] = "[profile]\nname = x\n[rail]\ndistinct_switches = YES\n"
				  "[storage]\ncount = 2\n";
	static const char none[] = "[profile]\nname = x\n[rail]\ncount = 8\n";
	struct profile_error err;
	struct profile p, q;
	size_t n;
	char *t;

	(void)state;
	assert_int_equal(parse(yes, &p, &err), 0);
	assert_int_equal(p.role[ROLE_RAIL].distinct_switches, 1);
	t = written(&p, &n);
	assert_non_null(strstr(t, "\ndistinct_switches = yes\n"));
	/* once: in [rail], not in [storage] */
	assert_null(strstr(strstr(t, "distinct_switches = yes") + 1, "distinct_switches ="));
	assert_int_equal(profile_parse(t, n, "again", &q, &err), 0);
	assert_same_profile(&p, &q);
	free(t);
	profile_free(&q);
	profile_free(&p);

	assert_int_equal(parse(none, &p, &err), 0);
	assert_int_equal(p.role[ROLE_RAIL].distinct_switches, -1);
	t = written(&p, &n);
	assert_non_null(strstr(t, "\ndistinct_switches = any\n"));
	free(t);
	profile_free(&p);
	/* the built-ins judge no cabling */
	for (size_t i = 0; i < profile_builtin_count(); i++)
		assert_true(profile_builtin_at(i)->role[ROLE_RAIL].distinct_switches < 1);
}

/* link.ber's keys: every profile has the standards' defaults; a file may
 * set them, or turn one off with any, and they read back the same */
static void ber_keys(void **state)
{
	static const char set[] = "[profile]\nname = x\nber_max = 1e-9\nber_pre_fec_kp4 = .0002\n"
				  "ber_near = any\nib_symbol_errors_per_hour = 120\n";
	struct profile_error err;
	struct profile p, q;
	size_t n;
	char *t;

	(void)state;
	for (size_t i = 0; i < profile_builtin_count(); i++) {
		const struct ber_spec *b = &profile_builtin_at(i)->ber;

		assert_true(b->max == 1e-12 && b->pre_fec_kr4 == 5e-5 && b->pre_fec_kp4 == 2.4e-4 &&
			    b->near == 0.5 && b->ib_symbol_per_hour == 0 &&
			    b->ib_recovery_per_hour == 0);
	}
	assert_int_equal(parse(set, &p, &err), 0);
	assert_true(p.ber.max == 1e-9 && p.ber.pre_fec_kp4 == 2e-4 && p.ber.near == 0 &&
		    p.ber.pre_fec_kr4 == 5e-5 && p.ber.ib_symbol_per_hour == 120);
	t = written(&p, &n);
	assert_non_null(strstr(t, "\nber_max = 1e-09\n"));
	assert_non_null(strstr(t, "\nber_near = any\n"));
	assert_non_null(strstr(t, "\nib_link_recoveries_per_hour = any\n"));
	assert_int_equal(profile_parse(t, n, "again", &q, &err), 0);
	assert_same_profile(&p, &q);
	free(t);
	profile_free(&q);
	profile_free(&p);
}

static int site_text(const char *text, struct site *s, struct profile_error *err)
{
	return site_parse(text, strlen(text), "s.conf", s, err);
}

/* rail_switch = RAIL PATTERN: by index or device name, looked up as the
 * check does; malformed lines refused with their line. */
static void site_rail_switch_lines(void **state)
{
	static const struct {
		const char *text;
		int line;
		const char *says;
	} broken[] = {
		{ "[site]\nrail_switch = 0\n", 2, "rail_switch: '0' has no pattern: expected "
		  "'RAIL PATTERN' like '0 leaf-r0-*'" },
		{ "[site]\nrail_switch = 0 leaf-a leaf-b\n", 2, "'leaf-b' after the pattern" },
		{ "[site]\nrail_switch = mlx5/0 leaf-*\n", 2, "rail_switch: '/' in rail 'mlx5/'" },
		{ "[site]\nrail_switch = 99999 leaf-*\n", 2, "a rail index is below 4096" },
		{ "[site]\n\nrail_switch = 1 a*\nrail_switch = 01 b*\n", 4,
		  "rail_switch: rail 01 given twice (first on line 3)" },
		{ "[site]\nrail_switch = mlx5_0 a*\nrail_switch = mlx5_0 b*\n", 3,
		  "rail mlx5_0 given twice (first on line 2)" },
		{ "[site]\nrail_switches = 0 a*\n", 2, "unknown key 'rail_switches' in [site]: "
		  "expected profile, ignore, accept_unchecked, rail, storage, rail_switch, job_user, "
		  "job_group, exclude, "
		  "hold_drops, hold_flaps or hold_faults" },
		{ "[site]\nrail_switch =\n", 2, "rail_switch: expected a value" },
		{ "[site]\nhold_drops = 10m\n", 2, "hold_drops: expected whole seconds up to a "
		  "year (0: until cleared), got '10m'" },
		{ "[site]\nhold_faults = 99999999999\n", 2, "hold_faults: expected whole seconds" },
		{ "[site]\nhold_flaps = 0\nhold_flaps = 60\n", 3, "'hold_flaps' given twice" },
	};
	struct profile_error err;
	struct site s;
	int line = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		int rc = site_text(broken[i].text, &s, &err);

		if (rc != -EINVAL || err.line != broken[i].line || !strstr(err.message, broken[i].says))
			fail_msg("case %zu: rc %d, line %d: '%s'; wanted line %d: '%s'", i, rc,
				 err.line, err.message, broken[i].line, broken[i].says);
		assert_int_equal(s.n_rail_switch, 0);
	}
	assert_int_equal(site_text("[site]\nrail_switch = 0   leaf-r0-*   # rail 0\n"
				   "rail_switch = mlx5_3\tleaf-r[34]-?\n"
				   "rail_switch = 3 leaf-three\n", &s, &err), 0);
	assert_int_equal(s.n_rail_switch, 3);
	assert_string_equal(site_rail_switch(&s, 0, "mlx5_0", &line), "leaf-r0-*");
	assert_int_equal(line, 2);
	assert_null(site_rail_switch(&s, 1, "mlx5_1", NULL));
	assert_string_equal(site_rail_switch(&s, 2, "mlx5_3", &line), "leaf-r[34]-?");
	/* an index line after a device line for the same rail: the later wins */
	assert_string_equal(site_rail_switch(&s, 3, "mlx5_3", &line), "leaf-three");
	assert_int_equal(line, 4);
	assert_null(site_rail_switch(NULL, 0, "mlx5_0", NULL));
	site_free(&s);
}

/* exclude = PATTERNS: device names or PCI addresses, fnmatch, several a
 * line and several lines, each with its line; malformed ones refused. */
static void site_exclude_lines(void **state)
{
	static const struct {
		const char *text;
		int line;
		const char *says;
	} broken[] = {
		{ "[site]\nexclude = mlx5/0\n", 2, "exclude: '/' in 'mlx5/0': expected RDMA device "
		  "names like mlx5_8 or PCI addresses like 0000:c1:00.0" },
		{ "[site]\n\nexclude = a b $c\n", 3, "exclude: '$' in '$c'" },
		{ "[site]\nexclude =\n", 2, "exclude: expected a value" },
		{ "[site]\nexclude = mlx5_0\nexcludes = mlx5_1\n", 3, "unknown key 'excludes'" },
	};
	char long_line[200];
	const struct exclude_rule *hit;
	struct profile_error err;
	struct site s;

	(void)state;
	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		int rc = site_text(broken[i].text, &s, &err);

		if (rc != -EINVAL || err.line != broken[i].line || !strstr(err.message, broken[i].says))
			fail_msg("case %zu: rc %d, line %d: '%s'; wanted line %d: '%s'", i, rc,
				 err.line, err.message, broken[i].line, broken[i].says);
		assert_int_equal(s.exclude.n, 0);
	}
	snprintf(long_line, sizeof(long_line), "[site]\nexclude = %0130d\n", 0);
	assert_int_equal(site_text(long_line, &s, &err), -EINVAL);
	assert_non_null(strstr(err.message, "a pattern longer than 128 characters"));

	assert_int_equal(site_text("[site]\nexclude = mlx5_8, mlx5_1[01]  # internal\n"
				   "rail = mlx5_0\nexclude = 0000:c1:00.*\n", &s, &err), 0);
	assert_int_equal(s.exclude.n, 3);
	hit = exclude_match(&s.exclude, "mlx5_8", "0000:0a:00.0");
	assert_non_null(hit);
	assert_string_equal(hit->pattern, "mlx5_8");
	assert_int_equal(hit->line, 2);
	hit = exclude_match(&s.exclude, "mlx5_11", NULL);
	assert_non_null(hit);
	assert_string_equal(hit->pattern, "mlx5_1[01]");
	assert_null(exclude_match(&s.exclude, "mlx5_1", "0000:c2:00.0"));
	/* by PCI address, whatever the name */
	hit = exclude_match(&s.exclude, "rocep193s0f1", "0000:c1:00.1");
	assert_non_null(hit);
	assert_int_equal(hit->line, 4);
	assert_null(exclude_match(NULL, "mlx5_8", NULL));
	site_free(&s);
	assert_int_equal(s.exclude.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(site_exclude_lines),
		cmocka_unit_test(builtins_round_trip),
		cmocka_unit_test(ini_lines),
		cmocka_unit_test(ini_lines_both_parsers),
		cmocka_unit_test(builtin_values),
		cmocka_unit_test(broken_profiles),
		cmocka_unit_test(bytes_that_are_not_text),
		cmocka_unit_test(based_on_anywhere),
		cmocka_unit_test(forms_people_write),
		cmocka_unit_test(load_file),
		cmocka_unit_test(select_fixtures),
		cmocka_unit_test(select_rules),
		cmocka_unit_test(distinct_switches),
		cmocka_unit_test(ber_keys),
		cmocka_unit_test(site_rail_switch_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
