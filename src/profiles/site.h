/* The site file, /etc/rdmadoctor/rdmadoctor.conf: what a fleet says about
 * its own machines where the hardware cannot (docs/profiles.md, "The site
 * file").  INI, like profiles:
 *
 *   [site]
 *   profile = a800-8x100g-roce        a built-in name, or a profile file
 *   ignore = sys.job_memlock, port.fec   check ids waived on this fleet
 *   accept_unchecked = roce.pfc       ids whose required value may stay
 *                                     unread: "not checked" as an info,
 *                                     not a warning (still listed)
 *   rail = mlx5_0, mlx5_1             RDMA devices that are rails
 *   storage = mlx5_8 mlx5_9           ... and storage / in-band NICs
 *   rail_switch = 0 leaf-r0-*         the switch a rail is cabled to
 *   job_user = alice                  whom jobs run as (sys.device_access,
 *   job_group = rdma                  sys.job_memlock); neither: any user
 *   exclude = mlx5_8 0000:c1:00.*     devices not to read beyond their
 *                                     name and PCI address (fnmatch)
 *
 * ignore, accept_unchecked, rail, storage and exclude take names separated by commas or blanks and
 * may be given on several lines; rail_switch takes one rail and one
 * pattern a line, on as many lines as there are rails.
 *
 *   [firmware]                        what each board may run, by PSID
 *   MT_0000000359 = 22.39.1002, 22.41.1000   allowed versions
 *   MT_0000000223 >= 28.39.1002              a floor
 *
 * The [firmware] lines are parsed in site_firmware.c. */
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

/* Append the first n bytes of s as a string; 0 or -ENOMEM. */
int name_list_push(struct name_list *l, const char *s, size_t n);
/* The next item of a list separated by commas or blanks ("a, b c"): its
 * start, *len its length, *cursor moved past it; NULL when none is left. */
const char *site_list_item(const char **cursor, size_t *len);

/* rail_switch = RAIL PATTERN: rail (a rail index as check/rails.h numbers
 * them, or an RDMA device name: all its rail ports) is cabled to a switch
 * whose LLDP system name matches the fnmatch(3) pattern. */
struct rail_switch {
	char *rail;		/* "3" or "mlx5_3" */
	char *pattern;		/* "leaf-r3-*" */
	int line;		/* in the site file, for messages */
};

/* One [firmware] line: the versions a board (by its PSID, sysfs board_id)
 * may run.  Versions are dotted decimal numbers (28.39.1002), compared one
 * component at a time, a missing component as 0. */
struct fw_rule {
	char *psid;		/* "MT_0000000359"; matched ignoring case */
	char *floor;		/* "PSID >= V": V; NULL for an allowed list */
	struct name_list allowed;	/* "PSID = V, W": V and W; empty for a floor */
	int line;		/* in the site file, for messages */
};

#define SITE_HOLDS 3	/* drops, flaps, faults */
/* The keys, in that order. */
extern const char *const site_hold_keys[SITE_HOLDS];

struct site {
	char *profile;		/* NULL: the profile is picked from the machine */
	int profile_line;
	struct name_list ignore, rail, storage;
	/* accept_unchecked =: check ids whose required value, unread, is
	 * left an info (check_weigh_required) */
	struct name_list accept_unchecked;
	struct rail_switch *rail_switch;	/* in file order */
	size_t n_rail_switch, cap_rail_switch;	/* cap: room (growbuf) */
	char *job_user, *job_group;	/* NULL: any user */
	struct fw_rule *fw;		/* [firmware], in file order */
	size_t n_fw, cap_fw;		/* cap: room (growbuf) */
	/* exclude =: fnmatch patterns of RDMA device names or PCI addresses
	 * (model/exclude.h), each with its line */
	struct exclude_list exclude;
	/* hold_drops, hold_flaps, hold_faults: how long the agent's memory
	 * keeps each class of event, in seconds, 0 until cleared (in
	 * check/latch.h's enum latch_class order; docs/state.md); each only
	 * where hold_given */
	int64_t hold_s[SITE_HOLDS];
	bool hold_given[SITE_HOLDS];
};

/* Parse site file text; 0, or a negative errno (-EINVAL bad content,
 * -ENOMEM) with err filled (file = origin, the line, what was expected). */
int site_parse(const char *text, size_t len, const char *origin, struct site *out,
	       struct profile_error *err);
void site_free(struct site *s);

/* Whether the site waives id, under its own name or under the one it had
 * before a rename (site_old_id). */
bool site_ignores(const struct site *s, const char *id);
/* Whether the site accepts id unchecked (accept_unchecked =), under its
 * own name or its old one. */
bool site_accepts_unchecked(const struct site *s, const char *id);
/* The id a renamed check had, which `ignore` still accepts; NULL none. */
const char *site_old_id(const char *id);
/* ROLE_RAIL or ROLE_STORAGE when the site file names the NIC; else -1. */
int site_role(const struct site *s, const char *nic);
/* The pattern the site file gives rail port `rail` of NIC `nic` (by its
 * index or its device name; of several lines the last one wins); NULL:
 * none, or s NULL.  *line set to the entry's line when found. */
const char *site_rail_switch(const struct site *s, size_t rail, const char *nic, int *line);

/* [firmware] (site_firmware.c).  One line of the section, as libinih split
 * it (name "PSID" or "PSID >", value without its comment): 0, or -EINVAL
 * with msg filled, or -ENOMEM. */
int site_fw_line(struct site *s, const char *name, const char *value, int line, char *msg,
		 size_t msg_len);
void site_fw_free(struct site *s);
/* The rule for a PSID (ignoring case); NULL: none, s or psid NULL. */
const struct fw_rule *site_fw_rule(const struct site *s, const char *psid);
/* A firmware version this tool compares: 1 to 8 dotted decimal numbers of
 * up to 9 digits each ("28.39.1002"). */
bool site_fw_version_ok(const char *v);
/* <0, 0, >0 as a is older, the same, newer than b; both site_fw_version_ok. */
int site_fw_version_cmp(const char *a, const char *b);
/* Whether the rule lets a board run v (site_fw_version_ok). */
bool site_fw_allows(const struct fw_rule *r, const char *v);

#endif
