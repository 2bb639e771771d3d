/* The progress line of a running bw test (a terminal's stderr): the
 * session's progress callback, with a struct bw_progress as its argument;
 * end it after each test. */
#ifndef RD_BW_PROGRESS_H
#define RD_BW_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct bw_progress {
	FILE *out;		/* where the line goes (stderr) */
	const char *prog;	/* the program's name, first on the line */
	const char *cmd;	/* after it: "bw", a pair */
	uint64_t size;
	double total;		/* seconds: warm-up and window */
	double last_t;		/* the previous call: the windowed rate */
	uint64_t last_bytes;
	bool shown;
};

void bw_progress_show(void *arg, double elapsed, uint64_t bytes);
void bw_progress_end(struct bw_progress *pg);

#endif
