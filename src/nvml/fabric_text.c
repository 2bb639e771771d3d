/* The text of one GPU's fabric reading (fabric_text.h). */
#include "fabric_text.h"
#include "../model/hex_digit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_uint(const char *s, size_t n, unsigned *out)
{
	unsigned long v = 0;

	if (n == 0 || n > 10)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (v > 0xffffffffUL)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

/* Each key once: *seen has a bit per key (state 1, status 2, clique 4,
 * cluster 8, links 16). */
static int once(unsigned *seen, unsigned bit)
{
	if (*seen & bit)
		return -EINVAL;
	*seen |= bit;
	return 0;
}

static int parse_line(const char *s, size_t n, struct gpu_fabric *f, unsigned *seen)
{
	const char *sp = memchr(s, ' ', n);
	size_t kl, vl;
	const char *v;

	if (!sp)
		return -EINVAL;
	kl = (size_t)(sp - s);
	v = sp + 1;
	vl = n - kl - 1;
	if (kl == 5 && !memcmp(s, "state", 5))
		return once(seen, 1) ? -EINVAL : parse_uint(v, vl, &f->state);
	if (kl == 6 && !memcmp(s, "status", 6))
		return once(seen, 2) ? -EINVAL : parse_uint(v, vl, &f->status);
	if (kl == 6 && !memcmp(s, "clique", 6))
		return once(seen, 4) ? -EINVAL : parse_uint(v, vl, &f->clique);
	if (kl == 7 && !memcmp(s, "cluster", 7)) {
		if (once(seen, 8) || vl != 2 * NVLINK_UUID_LEN)
			return -EINVAL;
		for (size_t i = 0; i < NVLINK_UUID_LEN; i++) {
			int hi = hex_digit(v[2 * i]), lo = hex_digit(v[2 * i + 1]);

			if (hi < 0 || lo < 0)
				return -EINVAL;
			f->cluster[i] = (uint8_t)(hi << 4 | lo);
		}
		return 0;
	}
	if (kl == 5 && !memcmp(s, "links", 5)) {
		if (once(seen, 16) || vl > NVLINK_MAX_LINKS)
			return -EINVAL;
		for (size_t i = 0; i < vl; i++) {
			if (v[i] == '1')
				f->active |= 1u << i;
			else if (v[i] != '0' && v[i] != '-')
				return -EINVAL;
			if (v[i] != '-') {
				f->answered |= 1u << i;
				f->n_links++;
			}
		}
		return 0;
	}
	return -EINVAL;
}

int nvml_fabric_parse(const void *buf, size_t len, struct gpu_fabric *out)
{
	const char *p = buf, *end = p + len;
	unsigned seen = 0;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n && parse_line(p, n, out, &seen) != 0) {
			memset(out, 0, sizeof(*out));
			return -EINVAL;
		}
		p += n + (nl ? 1 : 0);
	}
	if (!(seen & 1)) {
		memset(out, 0, sizeof(*out));
		return -EINVAL;
	}
	return 0;
}

size_t nvml_fabric_format(const struct gpu_fabric *f, char *buf, size_t cap)
{
	char links[NVLINK_MAX_LINKS + 1];
	size_t nl = 0;
	int n;

	for (size_t i = 0; i < NVLINK_MAX_LINKS; i++) {
		links[i] = !(f->answered >> i & 1) ? '-' : (f->active >> i & 1) ? '1' : '0';
		if (f->answered >> i & 1)
			nl = i + 1;
	}
	links[nl] = '\0';
	n = snprintf(buf, cap, "state %u\nstatus %u\nclique %u\ncluster ", f->state, f->status,
		     f->clique);
	for (size_t i = 0; i < NVLINK_UUID_LEN && n > 0 && (size_t)n + 3 < cap; i++)
		n += snprintf(buf + n, cap - (size_t)n, "%02x", f->cluster[i]);
	if (n > 0 && (size_t)n < cap)
		n += snprintf(buf + n, cap - (size_t)n, "\nlinks %s\n", links);
	if (n < 0)
		return 0;
	return (size_t)n < cap ? (size_t)n : cap - 1;
}
