/* Messages, SQL through the backend, batches: beneath the other files of
 * src/store/ but the backends. */
#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int store_say(struct store *s, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->msg, sizeof(s->msg), fmt, ap);
	va_end(ap);
	return err;
}

int store_exec(struct store *s, const char *sql, const char *doing)
{
	return s->drv->exec(s, sql, doing);
}

int store_run(struct store *s, const char *sql, const char *const *params, int n,
	      store_row_fn fn, void *arg, long long *changes, const char *doing)
{
	if (changes)
		*changes = 0;
	return s->drv->run(s, sql, params, n, fn, arg, changes, doing);
}

const char *store_error(const struct store *s)
{
	return s ? s->msg : "out of memory";
}

int store_found_version(const struct store *s)
{
	return s->found_version;
}

void store_close(struct store **sp)
{
	struct store *s = *sp;

	if (!s)
		return;
	if (s->drv)
		s->drv->close(s);
	free(s->path);
	free(s);
	*sp = NULL;
}

int store_begin(struct store *s)
{
	return s->drv->begin(s);
}

int store_commit(struct store *s)
{
	return s->drv->commit(s);
}

void store_rollback(struct store *s)
{
	if (s && s->conn)
		s->drv->rollback(s);
}

int store_ints_row(struct store *s, const char *const *cols, const size_t *lens, int n, void *arg)
{
	int *out = arg;

	(void)s;
	(void)lens;
	for (int i = 0; i < n; i++)
		out[i] = !cols[i] ? 0 : cols[i][0] == 't' ? 1 : cols[i][0] == 'f' ? 0 : atoi(cols[i]);
	return 0;
}
