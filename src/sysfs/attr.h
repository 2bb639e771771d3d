/* Typed attribute readers: read one file through the root and parse it.
 * A missing, unreadable or malformed file leaves the value "not available"
 * (NA / NULL / NAN); a malformed one also leaves a note for -v. */
#ifndef RD_SYSFS_ATTR_H
#define RD_SYSFS_ATTR_H

#include <stdint.h>

#include "root.h"

/* The directory is joined with the attribute name: attr_s64(r, dir, "mtu"). */
int64_t attr_s64(struct root *r, const char *dir, const char *name);
int64_t attr_hex(struct root *r, const char *dir, const char *name);
double attr_pcie_speed(struct root *r, const char *dir, const char *name);
/* The text, newline removed; NULL when not readable. */
char *attr_str(struct root *r, const char *dir, const char *name);
/* The same; when NULL, *why says why in words ("no file 'state'",
 * "cannot read 'state': Is a directory"; NULL only without memory), for
 * a "not checked" finding to name. */
char *attr_str_why(struct root *r, const char *dir, const char *name, char **why);
/* Basename of a symlink's target ("driver" -> "mlx5_core"). */
char *attr_link_name(struct root *r, const char *dir, const char *name);

#endif
