/* One rank's fabric run: its messages (run_state.h). */
#include "run_state.h"

void fab_say(struct fab_run *r, const char *msg)
{
	fprintf(r->cf->log, "%s fabric: rank %u: %s\n", r->cf->prog, r->rank, msg);
	if (!r->error_buf[0])
		snprintf(r->error_buf, sizeof(r->error_buf), "rank %u: %s", r->rank, msg);
}

const char *fab_mode_name(enum fab_mode m)
{
	return m == FAB_MODE_QUICK ? "quick" : m == FAB_MODE_PAIRS ? "pairs" : "full";
}
