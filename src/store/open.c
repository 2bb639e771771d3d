/* Opening a store: the backend the name says, then the schema brought up
 * to date. */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool store_is_uri(const char *target)
{
	return strncmp(target, "postgresql://", 13) == 0 || strncmp(target, "postgres://", 11) == 0;
}

int store_open_wait(const char *target, enum store_mode mode, int timeout_ms, struct store **out)
{
	struct store *s = calloc(1, sizeof(*s));
	int rc;

	*out = s;
	if (!s)
		return -ENOMEM;
	s->drv = store_is_uri(target) ? &store_pg : &store_sqlite;
	s->timeout_ms = timeout_ms > 0 ? timeout_ms : STORE_WAIT_MS;
	s->path = strdup(target);
	if (!s->path)
		return store_say(s, -ENOMEM, "out of memory");
	rc = s->drv->open(s, target, mode);
	if (rc == 0)
		rc = store_schema_ready(s);
	if (rc == 0 && s->drv->ready)
		rc = s->drv->ready(s);
	return rc;
}

int store_open(const char *target, enum store_mode mode, struct store **out)
{
	return store_open_wait(target, mode, STORE_WAIT_MS, out);
}
