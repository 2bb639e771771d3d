/* The values of options, as the commands' handlers (opt/opts.h) read
 * them: whole numbers, byte counts, decimal numbers, each within a range.
 * They only say yes or no; the handler says what its option takes. */
#ifndef RD_OPT_OPT_PARSE_H
#define RD_OPT_OPT_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/* A whole number in [min, max] in decimal ("8"); no sign, nothing after. */
bool opt_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* A byte count from 1 to max: "65536", or with a binary multiple "64K",
 * "8M", "1G" (k, m, g too), as perftest's sizes. */
bool opt_parse_bytes(const char *s, uint64_t max, uint64_t *out);
/* A network interface name as the kernel's dev_valid_name takes one: 1
 * to 15 bytes, not "." or "..", no '/', ':' or white space. */
bool opt_parse_ifname(const char *s);
/* A finite decimal number in [min, max] ("0.93", "1e3"). */
bool opt_parse_number(const char *s, double min, double max, double *out);

#endif
