/* A set of named counters (counter_set.h). */
#include "counter_set.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void counter_set_clear(struct counter_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

int counter_set_copy(struct counter_set *dst, const struct counter_set *src)
{
	dst->n = 0;
	dst->v = calloc(src->n ? src->n : 1, sizeof(*dst->v));
	if (!dst->v)
		return -ENOMEM;
	for (size_t i = 0; i < src->n; i++) {
		struct counter *c = &dst->v[dst->n];

		if (!src->v[i].name)
			continue;
		c->name = strdup(src->v[i].name);
		if (!c->name) {
			counter_set_clear(dst);
			return -ENOMEM;
		}
		c->value = src->v[i].value;
		c->ok = src->v[i].ok;
		c->refused_before = src->v[i].refused_before;
		dst->n++;
	}
	return 0;
}

const struct counter *counter_find(const struct counter_set *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].ok && s->v[i].name && strcmp(s->v[i].name, name) == 0)
			return &s->v[i];
	return NULL;
}
