/* libFuzzer target: any bytes as pam_limits' limits.conf and as a systemd
 * unit's [Service] LimitMEMLOCK= (src/sysfs/access_parse.c).  Every line
 * taken must name its file and a line number inside the text, be soft
 * and/or hard (or a "<domain> -" line), and a unit limit that is set has
 * its source and a soft limit no higher than the hard one. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sysfs/access_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct memlock_line *v = NULL;
	struct unit_limit lim = { 0 };
	size_t n = 0, cap = 0, lines = 1;
	int bad = 0;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (size_t i = 0; i < size; i++)
		lines += text[i] == '\n';
	if (limits_conf_parse(text, "limits.conf", &v, &n, &cap) < 0)
		abort();
	for (size_t i = 0; i < n; i++) {
		if (v[i].line < 1 || (size_t)v[i].line > lines || !v[i].domain[0] ||
		    strcmp(v[i].file, "limits.conf"))
			abort();
		if (!v[i].no_limits && !v[i].soft && !v[i].hard)
			abort();
		free(v[i].file);
		free(v[i].domain);
		free(v[i].value);
	}
	free(v);
	if (unit_limit_parse(text, "u.service", "Service", "LimitMEMLOCK", &lim, &bad) < 0)
		abort();
	if (lim.set && (!lim.source || lim.soft > lim.hard))
		abort();
	if (bad < 0 || (size_t)bad > lines)
		abort();
	free(lim.source);
	free(text);
	return 0;
}
