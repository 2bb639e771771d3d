/* The one live-or-replay path for data that is not a file.
 *
 * Some values have no file under /sys or /proc: a netlink reply (DCB, link
 * modes, module EEPROM pages), an ioctl's answer (ethtool statistics), a
 * verbs query, a device-node probe, a vendor tool's stdout (hccn_tool).
 * Each is fetched live through root_fetch, which on a live root calls the
 * caller's fetch function, and while `snapshot` records, puts the bytes
 * (or the failure) on the tape at .rdmadoctor/<kind>/<key>.  On a replay
 * root the same call reads that file instead, so a reader is written once
 * and never asks whether it is live.
 *
 * The layout under .rdmadoctor/ is written down in docs/snapshot.md.
 *   .rdmadoctor/<kind>/<key>        the bytes, exactly as fetched
 *   .rdmadoctor/<kind>/<key>.errno  a fetch that failed: its errno, decimal
 *
 * Returns 0 with *data (malloc'd, *len bytes, plus a NUL not counted) or a
 * negative errno: the fetch's own, -ENOENT when a replay root has neither
 * file, -EINVAL for a key that is not a plain relative name, -EFBIG for
 * more than cap bytes.  Never both a result and an error.
 */
#ifndef RD_SYSFS_FETCH_H
#define RD_SYSFS_FETCH_H

#include <stdbool.h>
#include <stddef.h>

struct root;

#define FETCH_DIR ".rdmadoctor"

/* Produce the live bytes: 0 with *data malloc'd (*len bytes), or a negative
 * errno.  Called only on a live root. */
typedef int (*root_fetch_fn)(void *arg, void **data, size_t *len);

int root_fetch(struct root *r, const char *kind, const char *key, size_t cap,
	       root_fetch_fn fetch, void *arg, void **data, size_t *len);

/* A name usable as one path component under .rdmadoctor/<kind>/: not
 * empty, at most 255 bytes, no '/', not "." or "..".  Netdev names, device
 * names and NPU ids are checked with it before they become keys. */
bool fetch_name_ok(const char *s);

/* Whether a failed root_fetch is worth a note for -v: any failure but
 * -ENOMEM (the caller fails on it) and -ENOENT on a replay root (the
 * snapshot holds nothing for the key: it was not taken there). */
bool fetch_failure_noted(const struct root *r, int rc);

/* A key: one or more such components joined by '/' ("eth0/linkmodes"). */
bool fetch_key_ok(const char *key);

#endif
