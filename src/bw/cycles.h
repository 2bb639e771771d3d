/* The CPU's cycle counter, for the latency ping-pong's per-round stamps.
 * perftest stamps each post with the raw counter (rdtsc, cntvct_el0) and
 * converts once; a clock_gettime per stamp is a system call and a device
 * read wherever the kernel's clock source has no user-space reader (HPET,
 * a TSC the kernel marked unstable: virtual machines), and it sits inside
 * the round trip being measured.  The loop converts cycles to seconds with
 * the ratio of bw_now() to the counter over the whole run. */
#ifndef RD_BW_CYCLES_H
#define RD_BW_CYCLES_H

#include <stdint.h>

#include "engine.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static inline uint64_t bw_cycles(void)
{
	return __rdtsc();
}
#elif defined(__aarch64__)
static inline uint64_t bw_cycles(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
}
#else
/* no counter known here: nanoseconds of the monotonic clock */
static inline uint64_t bw_cycles(void)
{
	return (uint64_t)(bw_now() * 1e9);
}
#endif

#endif
