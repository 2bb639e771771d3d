/* A stdio stream that passes text through to another one with control
 * characters (other than newline and tab) replaced by '?', and C1 controls in
 * UTF-8 (C2 80..C2 9F) by "??", as check's output does: values read from
 * a captured machine must not be able to drive the user's terminal. */
#ifndef RD_OUT_SAFE_STREAM_H
#define RD_OUT_SAFE_STREAM_H

#include <stdio.h>

#include <stdbool.h>

/* NULL when out of memory; fclose() it to flush (under stays open). */
FILE *safe_stream(FILE *under);

/* The one filter rule, for this stream and for printers that cannot use
 * it (check's coloured text): how many bytes from c on to replace by '?'.
 * 1: c is a C0 control (but tab, and newline when keep_newline) or DEL;
 * 2: c and next are a C1 control in UTF-8 (C2 80..C2 9F); 0: neither. */
int safe_control(unsigned char c, unsigned char next, bool keep_newline);

#endif
