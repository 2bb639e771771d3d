/* The progress line (bw/progress.h). */
#include "progress.h"

/* Once a second: the last second's rate and the average so far, fixed
 * width, as git and curl do. */
void bw_progress_show(void *arg, double elapsed, uint64_t bytes)
{
	struct bw_progress *pg = arg;
	double now_gbps = elapsed > pg->last_t ?
		(double)(bytes - pg->last_bytes) * 8 / 1e9 / (elapsed - pg->last_t) : 0;
	double avg_gbps = elapsed > 0 ? (double)bytes * 8 / 1e9 / elapsed : 0;

	fprintf(pg->out, "\r%s %s: %10llu bytes %4.0f/%-4.0f s %9.2f Gb/s now %9.2f Gb/s avg ",
		pg->prog, pg->cmd, (unsigned long long)pg->size, elapsed, pg->total, now_gbps,
		avg_gbps);
	pg->last_t = elapsed;
	pg->last_bytes = bytes;
	pg->shown = true;
}

void bw_progress_end(struct bw_progress *pg)
{
	if (pg->shown)
		fputc('\n', pg->out);
	pg->shown = false;
	pg->last_t = 0;
	pg->last_bytes = 0;
}
