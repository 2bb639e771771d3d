/* The vendor-tool runner: output and exit status kept, a call that hangs
 * cut at the limit and the rest of its lane not run, other lanes go on,
 * too much output refused, a missing tool said, a killed one told apart. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "ascend/tool_run.h"

static char dir[] = "/tmp/rdtoolrun-XXXXXX";

static int setup(void **state)
{
	char path[128], *env;
	FILE *f;
	(void)state;

	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/rd-standin", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs("#!/bin/sh\n"
	      "case $1 in\n"
	      "ok) echo \"hello $2\" ;;\n"
	      "fail) echo bad; exit 3 ;;\n"
	      "hang) exec sleep 30 ;;\n"
	      "big) head -c 1100000 /dev/zero ;;\n"
	      "killed) kill -9 $$ ;;\n"
	      "esac\n", f);
	fclose(f);
	if (chmod(path, 0755) < 0)
		return -1;
	if (asprintf(&env, "%s:%s", dir, getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin") < 0)
		return -1;
	setenv("PATH", env, 1);
	free(env);
	return 0;
}

static int teardown(void **state)
{
	char cmd[64];
	(void)state;

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void lanes_and_limits(void **state)
{
	struct tool_job *j = calloc(7, sizeof(*j));
	char *text;
	(void)state;

	assert_non_null(j);
	j[0] = (struct tool_job){ .tool = "rd-standin", .args = { "hang" }, .lane = 0 };
	j[1] = (struct tool_job){ .tool = "rd-standin", .args = { "ok", "after" }, .lane = 0 };
	j[2] = (struct tool_job){ .tool = "rd-standin", .args = { "ok", "1" }, .lane = 1 };
	j[3] = (struct tool_job){ .tool = "rd-standin", .args = { "fail" }, .lane = 1 };
	j[4] = (struct tool_job){ .tool = "rd-standin", .args = { "big" }, .lane = 1 };
	j[5] = (struct tool_job){ .tool = "rd-standin", .args = { "killed" }, .lane = 1 };
	j[6] = (struct tool_job){ .tool = "rd-no-such-tool", .args = { "ok" }, .lane = 2 };
	assert_int_equal(tool_run_all(j, 7, 800), 0);
	assert_int_equal(j[0].err, -ETIMEDOUT);
	assert_null(j[0].out);
	/* the lane of a hung call is not run further */
	assert_int_equal(j[1].err, -ECANCELED);
	/* the other lane went on while lane 0 hung */
	assert_int_equal(j[2].err, 0);
	assert_int_equal(j[2].status, 0);
	assert_int_equal(j[2].len, 8);
	assert_memory_equal(j[2].out, "hello 1\n", 8);
	assert_int_equal(j[3].err, 0);
	assert_int_equal(j[3].status, 3);
	assert_memory_equal(j[3].out, "bad\n", 4);
	assert_int_equal(j[4].err, -EFBIG);
	assert_int_equal(j[5].err, 0);
	assert_int_equal(j[5].status, 128 + 9);
	assert_int_equal(j[6].err, -ENOPKG);
	text = tool_job_text(&j[2]);
	assert_string_equal(text, "rd-standin ok 1");
	free(text);
	tool_jobs_free(j, 7);
}

static void finds_and_limit_setting(void **state)
{
	char *p = tool_find("rd-standin");
	(void)state;

	assert_non_null(p);
	assert_true(strncmp(p, dir, strlen(dir)) == 0);
	free(p);
	assert_null(tool_find("rd-no-such-tool"));
	/* tool_path searches once per run: a PATH changed later is not searched */
	{
		const char *once = tool_path("rd-standin");
		char *saved = strdup(getenv("PATH"));

		assert_non_null(once);
		assert_true(strncmp(once, dir, strlen(dir)) == 0);
		assert_null(tool_path("rd-no-such-tool"));
		setenv("PATH", "/nonexistent", 1);
		assert_null(tool_find("rd-standin"));
		assert_ptr_equal(tool_path("rd-standin"), once);
		setenv("PATH", saved, 1);
		free(saved);
	}
	setenv("RDMADOCTOR_TOOL_TIMEOUT_MS", "250", 1);
	assert_int_equal(tool_timeout_ms(), 250);
	setenv("RDMADOCTOR_TOOL_TIMEOUT_MS", "soon", 1);
	assert_int_equal(tool_timeout_ms(), TOOL_TIMEOUT_MS);
	setenv("RDMADOCTOR_TOOL_TIMEOUT_MS", "0", 1);
	assert_int_equal(tool_timeout_ms(), TOOL_TIMEOUT_MS);
	unsetenv("RDMADOCTOR_TOOL_TIMEOUT_MS");
	assert_int_equal(tool_timeout_ms(), TOOL_TIMEOUT_MS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lanes_and_limits),
		cmocka_unit_test(finds_and_limit_setting),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
