/* The error of a line-oriented text rdmadoctor keeps (its memories:
 * state/latch_state.h, state/einval_state.h): "line N: what". */
#ifndef RD_MODEL_LINE_ERROR_H
#define RD_MODEL_LINE_ERROR_H

#include <stddef.h>

/* "line LINE: " and the message into why (cut to why_len); -EINVAL. */
int line_error(char *why, size_t why_len, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
