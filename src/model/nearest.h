/* "Did you mean": the name closest to a word among candidates (a typo or
 * two, or a prefix of three letters or more), for every message that
 * refuses a name (options, check ids, profiles, site file entries). */
#ifndef RD_MODEL_NEAREST_H
#define RD_MODEL_NEAREST_H

#include <stddef.h>

/* The candidate closest to word, or NULL when none is close. */
const char *nearest_name(const char *word, const char *const *candidates, size_t n);

#endif
