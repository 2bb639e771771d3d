#include "pathcache.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct slot {
	char *key;
	char *value;
	size_t len;	/* of value, which is also NUL-terminated */
	uint64_t hash;	/* compared first: paths share long prefixes, and a
			 * strcmp that runs 100 bytes before it differs is
			 * what a probe would cost otherwise */
	int tag;
};

struct pathcache {
	struct slot *slots;
	size_t cap;	/* power of two */
	size_t used;
};

/* Eight bytes at a time: keys are 100-byte sysfs paths, hashed on every
 * read, and a byte-wise hash showed as a tenth of a run in a profile. */
static uint64_t hash(const char *s)
{
	size_t len = strlen(s);
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 29);
}

struct pathcache *pathcache_new(void)
{
	struct pathcache *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->cap = 256;
	c->slots = calloc(c->cap, sizeof(*c->slots));
	if (!c->slots) {
		free(c);
		return NULL;
	}
	return c;
}

void pathcache_free(struct pathcache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->cap; i++) {
		free(c->slots[i].key);
		free(c->slots[i].value);
	}
	free(c->slots);
	free(c);
}

static struct slot *find(struct slot *slots, size_t cap, const char *key, uint64_t h)
{
	size_t i = h & (cap - 1);

	while (slots[i].key && (slots[i].hash != h || strcmp(slots[i].key, key) != 0))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

const char *pathcache_get(const struct pathcache *c, const char *key, int *tag)
{
	const struct slot *s = find(c->slots, c->cap, key, hash(key));

	if (s->key && tag)
		*tag = s->tag;
	return s->key ? s->value : NULL;
}

static int grow(struct pathcache *c)
{
	size_t cap = c->cap * 2;
	struct slot *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < c->cap; i++)
		if (c->slots[i].key)
			*find(slots, cap, c->slots[i].key, c->slots[i].hash) = c->slots[i];
	free(c->slots);
	c->slots = slots;
	c->cap = cap;
	return 0;
}

int pathcache_put_bytes(struct pathcache *c, const char *key, const void *value,
			size_t len, int tag)
{
	uint64_t h = hash(key);
	struct slot *s;
	char *k, *v;

	if ((c->used + 1) * 2 > c->cap && grow(c) < 0)
		return -ENOMEM;
	s = find(c->slots, c->cap, key, h);
	v = malloc(len + 1);
	if (!v)
		return -ENOMEM;
	memcpy(v, value, len);
	v[len] = '\0';
	if (s->key) {
		free(s->value);
		s->value = v;
		s->len = len;
		s->tag = tag;
		return 0;
	}
	k = strdup(key);
	if (!k) {
		free(v);
		return -ENOMEM;
	}
	s->key = k;
	s->value = v;
	s->len = len;
	s->hash = h;
	s->tag = tag;
	c->used++;
	return 0;
}

int pathcache_put(struct pathcache *c, const char *key, const char *value, int tag)
{
	return pathcache_put_bytes(c, key, value, strlen(value), tag);
}

const char *pathcache_get_bytes(const struct pathcache *c, const char *key, int *tag,
				size_t *len)
{
	const struct slot *s = find(c->slots, c->cap, key, hash(key));

	if (!s->key)
		return NULL;
	if (tag)
		*tag = s->tag;
	*len = s->len;
	return s->value;
}
