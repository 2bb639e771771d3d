/* The documents `record` keeps with this host's check: --bw results and a
 * --fabric report, read and checked before anything is stored. */
#ifndef RD_STORE_RECORD_DOCS_H
#define RD_STORE_RECORD_DOCS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The bw documents files[0..n), each a `bw --json` result of host: an
 * array of them.  NULL when one is refused (*bad: its file, why: the
 * reason and advice) or out of memory (*bad NULL). */
json_t *record_read_bw(const char *const *files, size_t n, const char *host,
		       const char **bad, char *why, size_t len);

/* The fabric report file (NULL: none), naming host among its nodes: [doc],
 * or [] without one.  NULL when it is refused (*refused true, why: the
 * reason) or out of memory (*refused false). */
json_t *record_read_fabric(const char *file, const char *host, bool *refused, char *why,
			   size_t len);

#endif
