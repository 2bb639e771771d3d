/* The fleet database for a command (db.h). */
#include "db.h"
#include "../store/db_path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *pipeline_db_path(const struct ctx *c, const char *given, bool create)
{
	/* the path from the environment, and a line of words around it */
	size_t len = 256 + strlen(getenv("XDG_DATA_HOME") ? getenv("XDG_DATA_HOME") : "") +
		     strlen(getenv("HOME") ? getenv("HOME") : "");
	char *why = malloc(len), *path;

	if (!why) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return NULL;
	}
	path = store_db_path(given, create, why, len);
	if (!path)
		fprintf(stderr, "%s: %s\n", c->prog, why);
	free(why);
	return path;
}

int pipeline_db_open(const struct ctx *c, const char *path, enum store_mode mode,
		     int timeout_ms, struct store **s)
{
	int rc = store_open_wait(path, mode, timeout_ms, s);

	if (rc == 0)
		return EXIT_OK;
	fprintf(stderr, "%s: %s\n", c->prog, store_error(*s));
	store_close(s);
	return EXIT_RUNTIME;
}
