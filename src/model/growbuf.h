/* The one growable buffer: room for more elements of an array (a byte
 * array for text).  Every layer uses it (readers, model, check, out,
 * metrics), so it sits with the model and depends on nothing. */
#ifndef RD_MODEL_GROWBUF_H
#define RD_MODEL_GROWBUF_H

#include <stddef.h>

/* Room for need elements of size bytes at v, which has room for *cap:
 * v itself when that is enough, else v moved to a block at least twice as
 * large (*cap updated).  NULL when memory ran out or need * size does not
 * fit a size_t: v is then untouched and still the caller's. */
void *growbuf_reserve(void *v, size_t *cap, size_t need, size_t size);

#endif
