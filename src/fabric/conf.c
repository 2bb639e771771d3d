/* What a fabric run asks: defaults and rules (conf.h). */
#include "conf.h"
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void fab_conf_defaults(struct fab_conf *cf)
{
	memset(cf, 0, sizeof(*cf));
	cf->expect_gbps = NAN;
	cf->tolerance = 0.93;
	cf->timeout_s = 120;
	cf->guard_s = NAN;	/* FAB_GUARD_S, or FAB_LOAD_GUARD_S with --load */
	cf->retest = 1;
	cf->traffic_class = -1;
}

static int no(char *why, size_t whysz, const char *msg)
{
	snprintf(why, whysz, "%s", msg);
	return -1;
}

int fab_conf_finish(struct fab_conf *cf, struct bw_params *p, bool one_way, bool gpu,
		    char *why, size_t whysz)
{
	p->bidir = !one_way;
	if (isnan(cf->guard_s))
		cf->guard_s = cf->load ? FAB_LOAD_GUARD_S : FAB_GUARD_S;
	if (cf->load) {
		if (cf->pairs_file || cf->mode != FAB_MODE_DEFAULT)
			return no(why, whysz, "--load makes its own rounds: no --pairs or --mode");
		if (cf->lat || one_way)
			return no(why, whysz, "--load runs bandwidth only: no --lat or --one-way");
		/* incast: the senders send; alltoall: both ways, every pair */
		p->bidir = cf->load == FAB_LOAD_ALLTOALL;
		cf->retest = 0;
	} else if (cf->fan_in) {
		return no(why, whysz, "--fan-in goes with --load incast");
	}
	if (cf->fan_in && cf->load == FAB_LOAD_ALLTOALL)
		return no(why, whysz, "--fan-in goes with --load incast");
	if (cf->pairs_file && cf->mode != FAB_MODE_DEFAULT)
		return no(why, whysz, "--pairs and --mode are either-or");
	if (cf->pairs_file)
		cf->mode = FAB_MODE_PAIRS;
	if (gpu && p->transport == BW_TRANSPORT_TCP && cf->transport_set)
		return no(why, whysz, "--gpu needs the verbs transport");
	return 0;
}
