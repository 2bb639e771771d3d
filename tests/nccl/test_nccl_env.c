/* A job script's or prolog's NAME=value lines (src/nccl/env.c): every
 * form sh writes an assignment in, every refusal naming its line, the
 * bounds, and the process environment filtered to NCCL_ and HCCL_. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nccl/env.h"

static void forms(void **state)
{
	static const char text[] =
		"#!/bin/bash\n"
		"# a prolog\n"
		"\n"
		"NCCL_IB_HCA==mlx5_0:1,mlx5_1:1\n"
		"export NCCL_IB_GID_INDEX=3\r\n"
		"  export\tNCCL_IB_TC='106'   # DSCP 26\n"
		"NCCL_SOCKET_IFNAME=\"=eth0\"\n"
		"NCCL_DEBUG=\"a \\\"b\\\" \\$c\"\n"
		"EMPTY=\n"
		"ESC=a\\ b'c d'\"e\"\n"
		"export NCCL_IB_HCA=^mlx5_4\n"
		"export NCCL_ALGO\n"
		"LAST=x";
	struct nccl_env env;
	char err[200];

	(void)state;
	assert_int_equal(nccl_env_parse(text, strlen(text), &env, err, sizeof(err)), 0);
	/* the last assignment wins, with its line */
	assert_string_equal(nccl_env_get(&env, "NCCL_IB_HCA"), "^mlx5_4");
	for (size_t i = 0; i < env.n; i++)
		if (strcmp(env.v[i].name, "NCCL_IB_HCA") == 0)
			assert_int_equal(env.v[i].line, 11);
	assert_string_equal(nccl_env_get(&env, "NCCL_IB_GID_INDEX"), "3");
	assert_string_equal(nccl_env_get(&env, "NCCL_IB_TC"), "106");
	assert_string_equal(nccl_env_get(&env, "NCCL_SOCKET_IFNAME"), "=eth0");
	assert_string_equal(nccl_env_get(&env, "NCCL_DEBUG"), "a \"b\" $c");
	assert_string_equal(nccl_env_get(&env, "EMPTY"), "");
	assert_string_equal(nccl_env_get(&env, "ESC"), "a bc de");
	assert_string_equal(nccl_env_get(&env, "LAST"), "x");
	/* `export NAME` assigns nothing */
	assert_null(nccl_env_get(&env, "NCCL_ALGO"));
	assert_null(nccl_env_get(&env, "NCCL_IB"));
	assert_int_equal(env.n, 8);
	nccl_env_free(&env);
}

static void errors_name_the_line(void **state)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "A=1\nnot an assignment\n", "line 2:" },
		{ "A=1\n\nB = 2\n", "line 3:" },
		{ "1A=2\n", "line 1:" },
		{ "A=1\r\nB='open\r\n", "line 2: B: single quote" },
		{ "A=\"open\n", "line 1: A: double quote" },
		{ "A=$HCAS\n", "line 1: A: a $" },
		{ "A=\"x$Y\"\n", "line 1: A: a $" },
		{ "A=`cmd`\n", "line 1: A: a $" },
		{ "A=1; B=2\n", "line 1: A: a shell operator" },
		{ "A=one two\n", "line 1: A: more than one word" },
		{ "A=x\\\n", "line 1: A: a backslash" },
		{ "export\n", "line 1:" },
		{ "A=1\nB=2\0\n", "line 2: a NUL" },
	};
	struct nccl_env env;
	char err[200];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t len = strlen(bad[i].text);

		if (strstr(bad[i].err, "NUL"))
			len = 8;
		assert_int_equal(nccl_env_parse(bad[i].text, len, &env, err, sizeof(err)), -1);
		if (strncmp(err, bad[i].err, strlen(bad[i].err)) != 0)
			fail_msg("%s: got '%s'", bad[i].text, err);
		assert_int_equal(env.n, 0);
		assert_null(env.v);
	}
}

static void bounds(void **state)
{
	struct nccl_env env;
	char err[200];
	size_t cap = (1u << 20) + 2, n = 0;
	char *t = malloc(cap);

	(void)state;
	assert_non_null(t);
	/* a value of 4096 bytes is kept, 4097 refused */
	memcpy(t, "A=", 2);
	memset(t + 2, 'x', 4096);
	assert_int_equal(nccl_env_parse(t, 4098, &env, err, sizeof(err)), 0);
	assert_int_equal(strlen(nccl_env_get(&env, "A")), 4096);
	nccl_env_free(&env);
	memset(t + 2, 'x', 4097);
	assert_int_equal(nccl_env_parse(t, 4099, &env, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "line 1"));
	/* 4096 variables, then the 4097th refused by its line */
	for (int i = 0; i <= 4096; i++)
		n += (size_t)snprintf(t + n, cap - n, "V%d=1\n", i);
	assert_int_equal(nccl_env_parse(t, n - 8, &env, err, sizeof(err)), 0);
	assert_int_equal(env.n, 4096);
	nccl_env_free(&env);
	assert_int_equal(nccl_env_parse(t, n, &env, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "line 4097: more than 4096"));
	/* over 1 MiB of text is refused whole */
	memset(t, '#', cap);
	assert_int_equal(nccl_env_parse(t, (1u << 20) + 1, &env, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "1 MiB"));
	assert_int_equal(nccl_env_parse(t, 1u << 20, &env, err, sizeof(err)), 0);
	assert_int_equal(env.n, 0);
	nccl_env_free(&env);
	free(t);
}

static void from_environ(void **state)
{
	char e0[] = "PATH=/bin", e1[] = "NCCL_IB_HCA==mlx5_0", e2[] = "HCCL_RDMA_TC=132",
	     e3[] = "NCCLX=1", e4[] = "NCCL_DEBUG=", e5[] = "NOEQ", e6[] = "NCCL_NOEQ";
	char *envp[] = { e0, e1, e2, e3, e4, e5, e6, NULL };
	struct nccl_env env;

	(void)state;
	assert_int_equal(nccl_env_from(envp, &env), 0);
	assert_int_equal(env.n, 3);
	assert_string_equal(nccl_env_get(&env, "NCCL_IB_HCA"), "=mlx5_0");
	assert_string_equal(nccl_env_get(&env, "HCCL_RDMA_TC"), "132");
	assert_string_equal(nccl_env_get(&env, "NCCL_DEBUG"), "");
	assert_null(nccl_env_get(&env, "PATH"));
	assert_int_equal(env.v[0].line, 0);
	nccl_env_free(&env);
}

/* A real job script (issue 44): `check --env job.sh` used to stop at its
 * first srun.  Its assignments and #SBATCH --export's items are read, the
 * rest skipped, counted and noted. */
static void job_script(void **state)
{
	static const char text[] =
		"#!/bin/bash\n"
		"#SBATCH -N 2 --gpus-per-node=8\n"
		"#SBATCH --export=ALL,NCCL_IB_HCA=mlx5_0:1,NCCL_NET_GDR_LEVEL=PIX\n"
		"module load nccl/2.21\n"
		"export NCCL_SOCKET_IFNAME=eth0\n"
		"if [ -n \"$DEBUG\" ]; then\n"
		"  export NCCL_DEBUG=INFO\n"
		"fi\n"
		"export NCCL_IB_GID_INDEX=$GID\n"
		"srun --mpi=pmix ./all_reduce_perf -b 8 -e 1G\n";
	struct nccl_env env;
	char err[200];

	(void)state;
	/* as an environment file: an error at the first command */
	assert_int_equal(nccl_env_parse(text, strlen(text), &env, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "line 4"));
	assert_int_equal(nccl_env_parse_script(text, strlen(text), &env, err, sizeof(err)), 0);
	assert_string_equal(nccl_env_get(&env, "NCCL_IB_HCA"), "mlx5_0:1");
	assert_string_equal(nccl_env_get(&env, "NCCL_NET_GDR_LEVEL"), "PIX");
	assert_string_equal(nccl_env_get(&env, "NCCL_SOCKET_IFNAME"), "eth0");
	assert_string_equal(nccl_env_get(&env, "NCCL_DEBUG"), "INFO");
	/* what the shell would compute is nobody's value: not read, said */
	assert_null(nccl_env_get(&env, "NCCL_IB_GID_INDEX"));
	assert_null(nccl_env_get(&env, "ALL"));
	assert_int_equal(env.skipped, 5);	/* module, if, fi, the $GID line, srun */
	assert_int_equal(env.n_notes, 5);
	assert_non_null(strstr(env.notes[0], "line 4 (module load nccl/2.21): not an assignment"));
	assert_non_null(strstr(env.notes[3], "line 9"));
	assert_non_null(strstr(env.notes[3], "NCCL_IB_GID_INDEX: a $ or `"));
	assert_non_null(strstr(env.notes[3], "not read"));
	assert_non_null(strstr(env.notes[4], "line 10 (srun --mpi=pmix ./all_reduce_perf -b 8 -e 1G)"));
	nccl_env_free(&env);
	/* a NUL byte is still no text */
	assert_int_equal(nccl_env_parse_script("A=1\n\0\n", 5, &env, err, sizeof(err)), -1);
}

/* more skipped lines than notes: all counted, the first noted, each note
 * bounded however long the line */
static void job_script_bounds(void **state)
{
	char text[4096] = "";
	struct nccl_env env;
	char err[200];

	(void)state;
	for (int i = 0; i < 20; i++)
		strcat(text, "echo aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n");
	assert_int_equal(nccl_env_parse_script(text, strlen(text), &env, err, sizeof(err)), 0);
	assert_int_equal(env.skipped, 20);
	assert_int_equal(env.n_notes, NCCL_ENV_NOTES);
	assert_non_null(strstr(env.notes[NCCL_ENV_NOTES - 1], "...): not an assignment"));
	nccl_env_free(&env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(forms),
		cmocka_unit_test(errors_name_the_line),
		cmocka_unit_test(bounds),
		cmocka_unit_test(from_environ),
		cmocka_unit_test(job_script),
		cmocka_unit_test(job_script_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
