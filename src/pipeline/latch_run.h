/* The agent's memory around one reading (docs/state.md), for `check
 * --state DIR` and `serve`:
 *
 *   latch_run_begin  after pipeline_collect: the boot id under the root,
 *                    the memory of DIR locked and read (another boot's is
 *                    forgotten, said on stderr), and the counter baselines
 *                    of this boot made the start of a window, so that the
 *                    counter checks judge what grew since the last reading
 *   latch_run_end    after pipeline_judge: the events of this reading
 *                    remembered, expired ones forgotten, the remembered
 *                    ones put into the findings, the baselines taken
 *                    anew, the memory written and unlocked; what could not
 *                    be read or written is a latch.state finding (not
 *                    checked) and said on stderr
 * Each returns EXIT_OK or EXIT_RUNTIME (said). */
#ifndef RD_PIPELINE_LATCH_RUN_H
#define RD_PIPELINE_LATCH_RUN_H

#include "../state/latch_file.h"
#include "pipeline.h"
#include "../check/latch.h"
#include "../state/boot_id.h"

struct latch_opts {
	const char *dir;	/* --state DIR; NULL: none */
	struct latch_holds holds;	/* --hold; else the site file's; else the defaults */
	bool hold_given[LATCH_CLASSES];
	/* the last problem said on stderr: serve says a lasting one (a
	 * directory it cannot write) once, not at every reading */
	char said[800];
};

struct latch_run {
	struct latch_opts *o;
	struct latch_file f;
	bool opened;
	char problem[700];	/* reading the memory gave nothing: why */
	struct latch_holds holds;	/* those this reading applies */
	int64_t now;
	uint64_t kmsg_newest;	/* the kernel log's newest fault, before the acknowledged went */
};

void latch_opts_init(struct latch_opts *o);

int latch_run_begin(struct ctx *c, struct pipeline *pl, struct latch_opts *o,
		    struct latch_run *lr);
int latch_run_end(struct ctx *c, struct pipeline *pl, struct latch_run *lr);
void latch_run_free(struct latch_run *lr);
/* pipeline_run with the memory between choosing and judging, as check does:
 * collect, choose, latch_run_begin, judge, latch_run_end (o->dir NULL:
 * none).  EXIT_OK or what failed, said. */
int latch_pipeline_run(struct ctx *c, const char *verb, struct pipeline *pl,
		       const struct pipeline_option *option, struct latch_opts *o);

/* The --hold help, shared by check and serve. */
#define LATCH_HOLD_HELP \
	"how long an event is remembered after it was last\n" \
	"seen: drops=S (counters.errors of transport retries\n" \
	"only; default 600), flaps=S (port.down, link.flaps,\n" \
	"kmsg.link_flap), faults=S (error counters grown, the\n" \
	"other kmsg.*); 0: until `rdmadoctor clear` (the default\n" \
	"of flaps and faults); repeatable"

#endif
