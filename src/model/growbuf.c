#include "growbuf.h"

#include <stdint.h>
#include <stdlib.h>

void *growbuf_reserve(void *v, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 8;
	void *p;

	if (need <= *cap && v)
		return v;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return NULL;
		ncap *= 2;
	}
	if (size && ncap > SIZE_MAX / size)
		return NULL;
	p = realloc(v, ncap * size);
	if (p)
		*cap = ncap;
	return p;
}
