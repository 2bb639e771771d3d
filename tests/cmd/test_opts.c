/* The option tables (src/opt/opts.h): both spellings of a value, the
 * global options among a command's, operands in their order, refusals
 * with exit code 2, and "did you mean". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cmd/cmd.h"

struct t_args {
	const char *name;
	bool flag;
	double secs, whole;
	int calls;
};

static int count_call(struct ctx *c, void *args, const char *v)
{
	(void)c;
	((struct t_args *)args)->calls += strcmp(v, "x") == 0;
	return -1;
}

static const struct cmd_opt t_opts[] = {
	{ "name", 'n', "NAME", OPT_STRING_AT(struct t_args, name), .flags = OPT_NONEMPTY },
	{ "flag", 0, NULL, OPT_FLAG_AT(struct t_args, flag) },
	{ "secs", 0, "S", OPT_SECONDS_AT(struct t_args, secs, 0.5, 10) },
	{ "whole", 0, "S", OPT_SECONDS_AT(struct t_args, whole, 1, 5), .flags = OPT_WHOLE },
	{ "call", 0, "X", OPT_CALL_AT(count_call) },
	{ 0 }
};

static const struct cmd_spec t_spec = {
	.name = "t", .opts = t_opts, .operands = "A [B]", .min_operands = 1, .max_operands = 2,
};

/* Parse a NULL-ended list of words after "t"; the exit code or -1. */
static int parse(struct ctx *c, struct t_args *a, int *n, const char *const *words)
{
	static char store[32][64];
	static char *argv[32];
	int argc = 0;

	snprintf(store[0], sizeof(store[0]), "t");
	argv[argc++] = store[0];
	for (; *words; words++, argc++) {
		snprintf(store[argc], sizeof(store[argc]), "%s", *words);
		argv[argc] = store[argc];
	}
	memset(a, 0, sizeof(*a));
	*c = (struct ctx){ .root_dir = "/", .prog = "rdmadoctor" };
	return opts_parse(c, &t_spec, argc, argv, a, n);
}

#define WORDS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void test_both_spellings(void **state)
{
	struct ctx c;
	struct t_args a;
	int n;

	(void)state;
	assert_int_equal(parse(&c, &a, &n, WORDS("--name=x", "op", "--secs", "2.5")), -1);
	assert_string_equal(a.name, "x");
	assert_true(a.secs == 2.5);
	assert_int_equal(parse(&c, &a, &n, WORDS("--name", "y", "-n", "z", "op")), -1);
	assert_string_equal(a.name, "z");	/* the last one wins */
	assert_int_equal(parse(&c, &a, &n, WORDS("--call", "x", "--call=x", "op")), -1);
	assert_int_equal(a.calls, 2);
}

static void test_globals_and_operands(void **state)
{
	struct ctx c;
	struct t_args a;
	int n;
	const char *const w[] = { "first", "--json", "--root", "/tmp", "-q", "--flag", "second",
				  NULL };

	(void)state;
	assert_int_equal(parse(&c, &a, &n, w), -1);
	assert_true(c.json && c.quiet && a.flag);
	assert_string_equal(c.root_dir, "/tmp");
	assert_int_equal(n, 2);
	assert_int_equal(parse(&c, &a, &n, WORDS("--", "--flag")), -1);
	assert_false(a.flag);		/* after "--" a word is an operand */
	assert_int_equal(n, 1);
	assert_int_equal(parse(&c, &a, &n, WORDS("--color=never", "op")), -1);
	assert_int_equal(c.color, COLOR_NEVER);
}

static void test_refusals(void **state)
{
	struct ctx c;
	struct t_args a;
	int n;

	(void)state;
	assert_int_equal(parse(&c, &a, &n, WORDS("--flag")), EXIT_USAGE);	/* no operand */
	assert_int_equal(parse(&c, &a, &n, WORDS("a", "b", "c")), EXIT_USAGE);
	assert_int_equal(parse(&c, &a, &n, WORDS("a", "--nope")), EXIT_USAGE);
	assert_int_equal(parse(&c, &a, &n, WORDS("a", "--flag=1")), EXIT_USAGE);
	assert_int_equal(parse(&c, &a, &n, WORDS("a", "--name")), EXIT_USAGE);
	assert_int_equal(parse(&c, &a, &n, WORDS("a", "--name=")), EXIT_USAGE);
	assert_int_equal(parse(&c, &a, &n, WORDS("a", "--secs", "11")), EXIT_USAGE);
	assert_int_equal(parse(&c, &a, &n, WORDS("a", "--secs", "nan")), EXIT_USAGE);
	assert_int_equal(parse(&c, &a, &n, WORDS("a", "--whole", "1.5")), EXIT_USAGE);
	assert_int_equal(parse(&c, &a, &n, WORDS("a", "--whole", "3")), -1);
	assert_int_equal(parse(&c, &a, &n, WORDS("a", "--color", "pink")), EXIT_USAGE);
	assert_int_equal(parse(&c, &a, &n, WORDS("a", "--root=")), EXIT_USAGE);
}

static void test_nearest(void **state)
{
	const char *const cmds[] = { "check", "inventory", "gids", "topo", "watch" };

	(void)state;
	assert_string_equal(opts_nearest("chekc", cmds, 5), "check");
	assert_string_equal(opts_nearest("chek", cmds, 5), "check");
	assert_string_equal(opts_nearest("inv", cmds, 5), "inventory");
	assert_string_equal(opts_nearest("inventroy", cmds, 5), "inventory");
	assert_null(opts_nearest("frobnicate", cmds, 5));
	assert_null(opts_nearest("", cmds, 5));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_both_spellings),
		cmocka_unit_test(test_globals_and_operands),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_nearest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
