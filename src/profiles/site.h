/* The site file, /etc/rdmadoctor/rdmadoctor.conf: what a fleet says about
 * its own machines where the hardware cannot (docs/profiles.md, "The site
 * file").  INI, like profiles:
 *
 *   [site]
 *   profile = a800-8x100g-roce        a built-in name, or a profile file
 *   ignore = sys.job_memlock, port.fec   check ids waived on this fleet
 *   rail = mlx5_0, mlx5_1             RDMA devices that are rails
 *   storage = mlx5_8 mlx5_9           ... and storage / in-band NICs
 *   rail_switch = 0 leaf-r0-*         the switch a rail is cabled to
 *   job_user = alice                  whom jobs run as (sys.device_access,
 *   job_group = rdma                  sys.job_memlock); neither: any user
 *   exclude = mlx5_8 0000:c1:00.*     devices not to read beyond their
 *                                     name and PCI address (fnmatch)
 *
 * ignore, rail, storage and exclude take names separated by commas or blanks and
 * may be given on several lines; rail_switch takes one rail and one
 * pattern a line, on as many lines as there are rails. */
#ifndef RD_PROFILES_SITE_H
#define RD_PROFILES_SITE_H

#include <stdbool.h>
#include <stddef.h>

#include "profile.h"
#include "../model/exclude.h"

/* Where the site file is, relative to the root. */
#define SITE_FILE "etc/rdmadoctor/rdmadoctor.conf"

struct name_list {
	char **v;
	size_t n, cap;	/* cap: room at v (growbuf) */
};

/* rail_switch = RAIL PATTERN: rail (a rail index as check/rails.h numbers
 * them, or an RDMA device name: all its rail ports) is cabled to a switch
 * whose LLDP system name matches the fnmatch(3) pattern. */
struct rail_switch {
	char *rail;		/* "3" or "mlx5_3" */
	char *pattern;		/* "leaf-r3-*" */
	int line;		/* in the site file, for messages */
};

struct site {
	char *profile;		/* NULL: the profile is picked from the machine */
	int profile_line;
	struct name_list ignore, rail, storage;
	struct rail_switch *rail_switch;	/* in file order */
	size_t n_rail_switch, cap_rail_switch;	/* cap: room (growbuf) */
	char *job_user, *job_group;	/* NULL: any user */
	/* exclude =: fnmatch patterns of RDMA device names or PCI addresses
	 * (model/exclude.h), each with its line */
	struct exclude_list exclude;
};

/* Parse site file text; 0, or a negative errno (-EINVAL bad content,
 * -ENOMEM) with err filled (file = origin, the line, what was expected). */
int site_parse(const char *text, size_t len, const char *origin, struct site *out,
	       struct profile_error *err);
void site_free(struct site *s);

/* Whether the site waives id, under its own name or under the one it had
 * before a rename (site_old_id). */
bool site_ignores(const struct site *s, const char *id);
/* The id a renamed check had, which `ignore` still accepts; NULL none. */
const char *site_old_id(const char *id);
/* ROLE_RAIL or ROLE_STORAGE when the site file names the NIC; else -1. */
int site_role(const struct site *s, const char *nic);
/* The pattern the site file gives rail port `rail` of NIC `nic` (by its
 * index or its device name; of several lines the last one wins); NULL:
 * none, or s NULL.  *line set to the entry's line when found. */
const char *site_rail_switch(const struct site *s, size_t rail, const char *nic, int *line);

#endif
