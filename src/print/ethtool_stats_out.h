/* `ethtool-stats IFNAME`: a netdev's ethtool statistics, one 'name value'
 * line each in the driver's order, or as one {name: value} document. */
#ifndef RD_PRINT_ETHTOOL_STATS_OUT_H
#define RD_PRINT_ETHTOOL_STATS_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "../model/counter_set.h"

/* {name: value}; values past INT64_MAX as reals.  NULL when out of memory. */
json_t *ethtool_stats_json(const struct counter_set *set);
void text_ethtool_stats(FILE *out, const struct counter_set *set);
/* On standard error, filtered like any text output (a note quotes file
 * contents): why nothing was read, the reader's note (it names the
 * interface) or, NULL, that there is no what of ifname. */
void ethtool_say_none(const char *prog, const char *note, const char *what, const char *ifname);

#endif
