/* --hold CLASS=S (hold.h). */
#include "hold.h"
#include "opts.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int opt_hold(struct ctx *c, const char *verb, struct latch_opts *o, const char *value)
{
	const char *eq = strchr(value, '=');
	char name[16];
	double s;
	enum latch_class k = LATCH_NONE;

	if (eq && (size_t)(eq - value) < sizeof(name)) {
		memcpy(name, value, (size_t)(eq - value));
		name[eq - value] = '\0';
		k = latch_class_named(name);
	}
	if (k == LATCH_NONE || !ctx_parse_seconds(eq + 1, 0, 366 * 86400.0, &s) ||
	    s != (double)(int64_t)s) {
		fprintf(stderr, "%s %s: --hold needs drops=S, flaps=S or faults=S (whole seconds, "
			"0: until cleared), not '%s'\n", c->prog, verb, value);
		return EXIT_USAGE;
	}
	o->holds.s[k] = (int64_t)s;
	o->hold_given[k] = true;
	return CMD_GO_ON;
}
