/* --pairs FILE: read before the launcher's rendezvous and its form
 * checked (fabric/schedule.h's format), so that a missing or malformed
 * file stops every rank at once; the names are the job's, matched after
 * the rendezvous. */
#ifndef RD_FABRIC_PAIRS_FILE_H
#define RD_FABRIC_PAIRS_FILE_H

#include <stddef.h>

/* The file's text in *text (malloc'd, also on failure where it was
 * allocated: the caller frees it) and *len.  0, or -1 with why in err. */
int fab_pairs_read(const char *path, char **text, size_t *len, char *err, size_t errsz);

#endif
