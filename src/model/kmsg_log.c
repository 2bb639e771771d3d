#include "kmsg_log.h"

#include <stdlib.h>

void kmsg_log_free(struct kmsg_log *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].device);
		free(l->v[i].line);
	}
	free(l->v);
	free(l);
}

uint64_t kmsg_log_newest(const struct kmsg_log *l)
{
	uint64_t newest = 0;

	for (size_t i = 0; l && i < l->n; i++)
		if (l->v[i].usec > newest)
			newest = l->v[i].usec;
	return newest;
}

size_t kmsg_log_drop_acked(struct kmsg_log *l, uint64_t (*acked)(const void *arg, const char *id),
			   const void *arg)
{
	size_t kept = 0, n;

	if (!l)
		return 0;
	for (size_t i = 0; i < l->n; i++) {
		uint64_t upto = acked(arg, l->v[i].id);

		if (upto && l->v[i].usec <= upto) {
			free(l->v[i].device);
			free(l->v[i].line);
			continue;
		}
		l->v[kept++] = l->v[i];
	}
	n = l->n - kept;
	l->n = kept;
	return n;
}
