/* Lines and "key : value" pairs of a vendor tool's stdout (hccn_tool,
 * npu-smi, /etc/hccn.conf).  The bytes come from outside: nothing here
 * assumes a NUL terminator, a final newline, or a fixed spacing. */
#ifndef RD_ASCEND_TOOL_TEXT_H
#define RD_ASCEND_TOOL_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct span {
	const char *s;
	size_t n;
};

/* The next line of [*p, end) without its "\n" or "\r\n"; false at the end. */
bool tt_next_line(const char **p, const char *end, struct span *line);
/* Without blanks (space, tab, \r, \v, \f) at either end. */
struct span tt_trim(struct span s);
/* Split at the first c into trimmed key and value; false when c is absent. */
bool tt_split(struct span line, char c, struct span *key, struct span *val);
/* The key reads as name with case, blanks, '_' and '-' ignored
 * ("Tx Power0" is "txpower0", "vendor_name" is "Vendor Name"). */
bool tt_key_is(struct span key, const char *name);
/* The key, squeezed as tt_key_is does, starts with prefix and the rest
 * is a lane number below max: *lane. */
bool tt_key_lane(struct span key, const char *prefix, int max, int *lane);
bool tt_starts(struct span s, const char *prefix);	/* case ignored */
bool tt_contains(struct span s, const char *needle);	/* case ignored */
/* A malloc'd, trimmed, NUL-terminated copy; NULL only without memory.
 * A NUL byte inside becomes '?', so the copy is a whole string. */
char *tt_dup(struct span s);
/* The number at the start of s (after blanks): decimal, or 0x hex for
 * tt_int.  false when s does not start with one. */
bool tt_double(struct span s, double *out);
bool tt_int(struct span s, int64_t *out);
/* Replace *field with a copy of s; 0 or -ENOMEM. */
int tt_set(char **field, struct span s);

/* A field of a struct named by the key that sets it (spelt as tt_key_is
 * compares: "vendor name"). */
struct tt_field {
	const char *key;
	size_t off;
};

/* The index of the field k names, or -1. */
int tt_find_field(const struct tt_field *fields, size_t n, struct span k);
/* When k names one of fields, all char * members of base: set it to v
 * (an empty v leaves it).  1 set, 0 not one of them, -ENOMEM. */
int tt_set_field(const struct tt_field *fields, size_t n, void *base, struct span k,
		 struct span v);

#endif
