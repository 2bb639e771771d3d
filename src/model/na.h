/* "Not available": the value of an integer of the model that could not be
 * read (NULL for strings, NAN for rates; never a made-up default). */
#ifndef RD_MODEL_NA_H
#define RD_MODEL_NA_H

#include <stdint.h>

#define NA INT64_MIN
#define IS_NA(v) ((v) == NA)

#endif
