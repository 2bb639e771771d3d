/* Running a vendor tool (hccn_tool, npu-smi) with a time limit.
 *
 * A hung NPU driver makes these tools block, so every call has a limit:
 * at the limit the child's process group is killed and the call is
 * "timed out"; a child that does not die (stuck in the driver) is left
 * behind rather than waited for.  Calls in different lanes (one lane per
 * NPU) run at the same time; calls in one lane run one after another, and
 * once one of them timed out the rest of that lane is not run.
 *
 * Only the live path calls this (src/ascend/npu_read.c, through
 * root_fetch); a replay never runs a tool. */
#ifndef RD_ASCEND_TOOL_RUN_H
#define RD_ASCEND_TOOL_RUN_H

#include <stdbool.h>
#include <stddef.h>

#define TOOL_MAX_ARGS 10
#define TOOL_MAX_OUTPUT (1u << 20)	/* more stdout than this is not tool output */
#define TOOL_TIMEOUT_MS 5000		/* default limit per call */

struct tool_job {
	const char *tool;		/* "hccn_tool", looked up with tool_path */
	const char *args[TOOL_MAX_ARGS];	/* after argv[0], NULL-terminated */
	size_t lane;
	/* the result: err 0 the tool ran and exited with status (128 + signal
	 * when killed by one); -ETIMEDOUT, -ENOPKG (not installed), -ECANCELED
	 * (not run: the lane timed out before), -EFBIG, or another errno */
	int err, status;
	char *out;			/* stdout, malloc'd; NULL when err */
	size_t len;
};

/* The tool's path: the first executable of that name in $PATH, then in
 * /usr/local/Ascend/driver/tools and /usr/local/bin (the driver package's
 * places, often not in root's PATH under sudo).  Malloc'd, or NULL. */
char *tool_find(const char *name);

/* tool_find's answer, searched once per run and kept (NULL: not found);
 * thread-safe.  What tool_run_all and the reader use. */
const char *tool_path(const char *name);

/* The limit per call in milliseconds: RDMADOCTOR_TOOL_TIMEOUT_MS when it
 * is a number from 1 to 600000, else TOOL_TIMEOUT_MS. */
int tool_timeout_ms(void);

/* Run every job; 0, or -ENOMEM (each job then says its own result). */
int tool_run_all(struct tool_job *jobs, size_t n, int timeout_ms);
void tool_jobs_free(struct tool_job *jobs, size_t n);

/* "hccn_tool -i 3 -optical -g": the call as a user would type it. */
char *tool_job_text(const struct tool_job *j);

#endif
