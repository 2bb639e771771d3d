#include "kmsg_log.h"

#include <inttypes.h>
#include <stdio.h>
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

int kmsg_log_note(const struct kmsg_log *l, char *buf, size_t len)
{
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	if (!l || !l->reading_known || !len)
		return 0;
#define ADD(...)                                                                \
	do {                                                                    \
		int w_ = snprintf(buf + n, len - n, "%s", n ? "; " : "");       \
		if (w_ > 0 && (size_t)w_ < len - n)                              \
			n += (size_t)w_;                                         \
		w_ = snprintf(buf + n, len - n, __VA_ARGS__);                    \
		if (w_ > 0)                                                      \
			n = (size_t)w_ < len - n ? n + (size_t)w_ : len - 1;     \
	} while (0)
	if (l->overwritten)
		ADD("the kernel's ring had overwritten the %" PRIu64 " oldest record%s of this "
		    "boot before the read", l->overwritten, l->overwritten == 1 ? "" : "s");
	if (l->lost)
		ADD("%" PRIu64 " record%s overwritten while read", l->lost,
		    l->lost == 1 ? "" : "s");
	if (l->dropped)
		ADD("%" PRIu64 " older matching record%s dropped, the newest %" PRIu64 " kept",
		    l->dropped, l->dropped == 1 ? "" : "s", l->kept);
	if (l->cut)
		ADD("the read stopped at its time bound after %" PRIu64 " record%s, short of the "
		    "ring's end", l->read, l->read == 1 ? "" : "s");
#undef ADD
	return n > 0;
}
