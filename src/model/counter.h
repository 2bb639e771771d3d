/* A named counter as the kernel shows it, and a set of them. */
#ifndef RD_MODEL_COUNTER_H
#define RD_MODEL_COUNTER_H

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

#endif
