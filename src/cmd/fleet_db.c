/* The fleet database's place and opening, for record and fleet. */
#include "fleet_db.h"
#include "../fleet/record.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* mkdir -p for the directories of path (not its last part). */
static int make_parents(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			int err = errno;

			*p = '/';
			return -err;
		}
		*p = '/';
	}
	return 0;
}

char *fleet_db_path(const struct ctx *c, const char *given, bool create)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	char *path;
	int rc;

	if (given) {
		path = strdup(given);
		if (!path)
			fprintf(stderr, "%s: out of memory\n", c->prog);
		return path;
	}
	/* the XDG base directory rule: a relative value is to be ignored */
	if (xdg && xdg[0] == '/')
		rc = asprintf(&path, "%s/rdmadoctor/fleet.db", xdg);
	else if (home && home[0] == '/')
		rc = asprintf(&path, "%s/.local/share/rdmadoctor/fleet.db", home);
	else {
		fprintf(stderr, "%s: neither $XDG_DATA_HOME nor $HOME is set: give the "
			"database with --db PATH\n", c->prog);
		return NULL;
	}
	if (rc < 0) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return NULL;
	}
	if (create && (rc = make_parents(path)) < 0) {
		fprintf(stderr, "%s: cannot make the directory of '%s': %s (give another "
			"database with --db PATH)\n", c->prog, path, strerror(-rc));
		free(path);
		return NULL;
	}
	return path;
}

int fleet_db_open(const struct ctx *c, const char *path, enum store_mode mode, int timeout_ms,
		  struct store **s)
{
	int rc = store_open_wait(path, mode, timeout_ms, s);

	if (rc == 0)
		return EXIT_OK;
	fprintf(stderr, "%s: %s\n", c->prog, store_error(*s));
	store_close(s);
	return EXIT_RUNTIME;
}

int fleet_db_take_time(const struct ctx *c, const char *cmd, const char *opt,
		       const char *value, const char **into)
{
	if (!fleet_time_valid(value)) {
		fprintf(stderr, "%s %s: --%s '%s': give a UTC time like 2026-11-30T07:00:00Z\n",
			c->prog, cmd, opt, value);
		return EXIT_USAGE;
	}
	*into = value;
	return CMD_GO_ON;
}
