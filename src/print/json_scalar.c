/* The nullable scalars every JSON document here writes: NA, NAN and NULL
 * become JSON null.  A leaf: the document builders call it. */
#include "json_scalar.h"
#include "../model/inventory.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

json_t *json_int_or_null(int64_t v)
{
	return IS_NA(v) ? json_null() : json_integer(v);
}

json_t *json_number_or_null(double v)
{
	if (isnan(v))
		return json_null();
	/* 400 Gb/s prints as 400, 2.5 GT/s as 2.5 */
	if (v == floor(v) && fabs(v) < 1e15)
		return json_integer((json_int_t)v);
	return json_real(v);
}

json_t *json_string_or_null(const char *s)
{
	json_t *j;
	char *clean;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	/* Not UTF-8 (a hostile or corrupt file): keep the ASCII, mark the
	 * rest, and still emit a valid document. */
	clean = strdup(s);
	if (!clean)
		return json_null();
	for (char *c = clean; *c; c++)
		if ((unsigned char)*c >= 0x80)
			*c = '?';
	j = json_string(clean);
	free(clean);
	return j ? j : json_null();
}

json_t *json_hex_or_null(int64_t v, int digits)
{
	char buf[24];

	if (IS_NA(v))
		return json_null();
	snprintf(buf, sizeof(buf), "%0*llx", digits, (unsigned long long)v);
	return json_string(buf);
}
