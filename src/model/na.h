/* "Not available": an integer of the model that could not be read
 * (inventory.h: NULL for strings, NA for integers, NAN for rates). */
#ifndef RD_MODEL_NA_H
#define RD_MODEL_NA_H

#include <stdint.h>

#define NA INT64_MIN
#define IS_NA(v) ((v) == NA)

#endif
