/* The rails section of the fleet report: per rail a small table of the
 * switches its ports reach (hosts, and whose switch each is), the hosts
 * whose rails reach another rail's switch (swapped pairs named as one),
 * and the switches no rail owns (fleet/rails.h). */
#ifndef RD_OUT_FLEET_HTML_RAILS_H
#define RD_OUT_FLEET_HTML_RAILS_H

#include <jansson.h>

#include "fleet_html_stream.h"

/* diff: `fleet diff --json`'s document; nothing when its rails are null
 * (no record lists its rails). */
void fleet_html_rails(struct html_out *o, const json_t *diff);

#endif
