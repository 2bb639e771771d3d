/* A set of named counters of one port (the PMA counters, hw_counters,
 * `ethtool -S`, the netdev's statistics/), and the pure helpers over one. */
#ifndef RD_MODEL_COUNTER_SET_H
#define RD_MODEL_COUNTER_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct counter {
	char *name;
	uint64_t value;
	bool ok;	/* false: the file exists but could not be read */
	bool ext;	/* the value is counters_ext/'s (64 bits), not counters/' */
	/* not read: the kernel refused it with EINVAL earlier this boot
	 * (sysfs/einval_memo.h) */
	bool refused_before;
};

struct counter_set {
	struct counter *v;
	size_t n;
};

void counter_set_clear(struct counter_set *s);
int counter_set_copy(struct counter_set *dst, const struct counter_set *src);
/* The counter of that name when it was read (ok); NULL otherwise. */
const struct counter *counter_find(const struct counter_set *s, const char *name);

#endif
