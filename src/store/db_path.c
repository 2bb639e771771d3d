/* Where the fleet database is (db_path.h). */
#include "db_path.h"

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

char *store_db_path(const char *given, bool create, char *why, size_t len)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	char *path;
	int rc;

	if (given) {
		path = strdup(given);
		if (!path)
			snprintf(why, len, "out of memory");
		return path;
	}
	/* the XDG base directory rule: a relative value is to be ignored */
	if (xdg && xdg[0] == '/')
		rc = asprintf(&path, "%s/rdmadoctor/fleet.db", xdg);
	else if (home && home[0] == '/')
		rc = asprintf(&path, "%s/.local/share/rdmadoctor/fleet.db", home);
	else {
		snprintf(why, len, "neither $XDG_DATA_HOME nor $HOME is set: give the database "
			 "with --db PATH");
		return NULL;
	}
	if (rc < 0) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	if (create && (rc = make_parents(path)) < 0) {
		snprintf(why, len, "cannot make the directory of '%s': %s (give another "
			 "database with --db PATH)", path, strerror(-rc));
		free(path);
		return NULL;
	}
	return path;
}
