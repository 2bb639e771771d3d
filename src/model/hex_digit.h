/* The value of one hexadecimal digit, either case; -1 for anything else.
 * One home for what the GID parser, the stored NVML answer and the fleet
 * record's JSON \u escapes each read. */
#ifndef RD_MODEL_HEX_DIGIT_H
#define RD_MODEL_HEX_DIGIT_H

static inline int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
