/* The nullable scalars every JSON document here writes (json_scalar.c):
 * NA (model/inventory.h), NAN and NULL become JSON null. */
#ifndef RD_OUT_JSON_SCALAR_H
#define RD_OUT_JSON_SCALAR_H

#include <stdint.h>

#include <jansson.h>

json_t *json_int_or_null(int64_t v);
json_t *json_number_or_null(double v);
json_t *json_string_or_null(const char *s);
/* v as `digits` lower-case hex digits ("15b3"). */
json_t *json_hex_or_null(int64_t v, int digits);

#endif
