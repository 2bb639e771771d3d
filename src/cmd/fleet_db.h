/* Where the fleet database is, and opening it with the error said once
 * (record and fleet). */
#ifndef RD_CMD_FLEET_DB_H
#define RD_CMD_FLEET_DB_H

#include "cmd.h"
#include "../store/store.h"

/* given (--db: a file or a postgresql:// URI), else $XDG_DATA_HOME/rdmadoctor/fleet.db, else
 * ~/.local/share/rdmadoctor/fleet.db.  With create, the default's
 * directory is made (0700) when missing.  malloc'd path, or NULL after
 * printing why. */
char *fleet_db_path(const struct ctx *c, const char *given, bool create);

/* Open (printing the error), waiting for the store at most timeout_ms
 * for each thing asked of it; EXIT_OK, or EXIT_RUNTIME with *s closed. */
int fleet_db_open(const struct ctx *c, const char *path, enum store_mode mode, int timeout_ms,
		  struct store **s);

/* An option's value that is a time (record --time, fleet --since and
 * --before): in the one form the store keeps (fleet_time_valid).
 * CMD_GO_ON with *into set, or EXIT_USAGE after saying "CMD --OPT 'value':
 * give a UTC time like ...". */
int fleet_db_take_time(const struct ctx *c, const char *cmd, const char *opt,
		       const char *value, const char **into);

#endif
