/* The site file, /etc/rdmadoctor/rdmadoctor.conf: what a fleet says about
 * its own machines where the hardware cannot (docs/profiles.md, "The site
 * file").  INI, like profiles:
 *
 *   [site]
 *   profile = a800-8x100g-roce        a built-in name, or a profile file
 *   ignore = sys.job_memlock, port.fec   check ids waived on this fleet
 *   rail = mlx5_0, mlx5_1             RDMA devices that are rails
 *   storage = mlx5_8 mlx5_9           ... and storage / in-band NICs
 *   job_user = alice                  whom jobs run as (sys.device_access,
 *   job_group = rdma                  sys.job_memlock); neither: any user
 *
 * ignore, rail and storage take names separated by commas or blanks and
 * may be given on several lines. */
#ifndef RD_PROFILES_SITE_H
#define RD_PROFILES_SITE_H

#include <stdbool.h>
#include <stddef.h>

#include "profile.h"

/* Where the site file is, relative to the root. */
#define SITE_FILE "etc/rdmadoctor/rdmadoctor.conf"

struct name_list {
	char **v;
	size_t n, cap;	/* cap: room at v (growbuf) */
};

struct site {
	char *profile;		/* NULL: the profile is picked from the machine */
	int profile_line;
	struct name_list ignore, rail, storage;
	char *job_user, *job_group;	/* NULL: any user */
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

#endif
