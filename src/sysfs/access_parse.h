/* Parsers of the files that say who can use the RDMA devices: pam_limits'
 * limits.conf, systemd units' LimitMEMLOCK=, etc/passwd and etc/group, and
 * the device-node record a snapshot keeps (docs/snapshot.md).  Pure: text
 * in, model (model/access.h) out; each reads as the program that owns the
 * file does, and what that program skips is skipped here too. */
#ifndef RD_SYSFS_ACCESS_PARSE_H
#define RD_SYSFS_ACCESS_PARSE_H

#include <stddef.h>

#include "../model/access.h"

/* The memlock lines of one limits.conf-format file, appended to *v (*n of
 * them, room *cap), as pam_limits' parse_config_file and process_limit
 * read them: '#' starts a comment anywhere, fields split on blanks, the
 * type and value case-insensitive, the value "unlimited", "infinity", "-1"
 * or "-" (unlimited) or KiB as strtoull reads them; a line pam_limits
 * would skip is skipped.  0, or -ENOMEM. */
int limits_conf_parse(const char *text, const char *file, struct memlock_line **v, size_t *n,
		      size_t *cap);

/* Apply every `key=` in [section] of one systemd unit or drop-in (or
 * system.conf) to *lim in order, as systemd does: an empty value resets,
 * "infinity", or SOFT:HARD, each a size with systemd's base-1024 suffixes
 * (K, M, G, T, P, E; B or none for bytes).  A value systemd would refuse
 * leaves *lim as it was and sets *bad_line (the first such line; 0 none).
 * 0, or -ENOMEM. */
int unit_limit_parse(const char *text, const char *file, const char *section, const char *key,
		     struct unit_limit *lim, int *bad_line);

/* One systemd size ("8M", "65536", "infinity"): 0, or -EINVAL. */
int unit_size_parse(const char *s, size_t len, uint64_t *bytes);

/* etc/passwd and etc/group lines ("name:x:uid:gid:..." and
 * "name:x:gid:a,b"), appended to *a; malformed lines skipped, as getpwent
 * skips them.  0, or -ENOMEM. */
int passwd_parse(const char *text, struct accounts *a);
int group_parse(const char *text, struct accounts *a);

/* The device-node record: "missing", or "chr|other MODE UID GID ACL" with
 * MODE octal and ACL "-" (none), "?" (not known) or "TAG:ID:PERM,..." (hex
 * tag, decimal id and perm).  Fills present, chr, mode, uid, gid, has_acl,
 * acl.  0, -EINVAL, -ENOMEM. */
int devnode_record_parse(const char *text, struct dev_node *d);
/* The record of a node: malloc'd text, or NULL (out of memory). */
char *devnode_record_format(const struct dev_node *d);

#endif
