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
