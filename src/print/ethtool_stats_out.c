/* `ethtool-stats IFNAME`'s text and document (ethtool_stats_out.h). */
#include "ethtool_stats_out.h"
#include "safe_stream.h"
#include "text_printf.h"

#include <stdint.h>

json_t *ethtool_stats_json(const struct counter_set *set)
{
	json_t *o = json_object();

	for (size_t i = 0; set->v && i < set->n; i++)
		json_object_set_new(o, set->v[i].name,
				    set->v[i].value > INT64_MAX ?
				    json_real((double)set->v[i].value) :
				    json_integer((json_int_t)set->v[i].value));
	return o;
}

void text_ethtool_stats(FILE *out, const struct counter_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		text_printf(out, "%s %llu\n", set->v[i].name, (unsigned long long)set->v[i].value);
}

void ethtool_say_none(const char *prog, const char *note, const char *what, const char *ifname)
{
	FILE *err = safe_stream(stderr);

	if (!err)
		return;
	if (note)
		fprintf(err, "%s ethtool-stats: %s\n", prog, note);
	else
		fprintf(err, "%s ethtool-stats: no %s of '%s'\n", prog, what, ifname);
	fclose(err);
}
