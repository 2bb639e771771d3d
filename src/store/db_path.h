/* Where the fleet database is, for record, fleet and plan. */
#ifndef RD_STORE_DB_PATH_H
#define RD_STORE_DB_PATH_H

#include <stdbool.h>
#include <stddef.h>

/* given (--db: a file or a postgresql:// URI), else
 * $XDG_DATA_HOME/rdmadoctor/fleet.db, else
 * ~/.local/share/rdmadoctor/fleet.db.  With create, the default's
 * directory is made (0700) when missing.  malloc'd path, or NULL with
 * why ("out of memory", "neither $XDG_DATA_HOME nor $HOME is set: ..."). */
char *store_db_path(const char *given, bool create, char *why, size_t len);

#endif
