/* A stdio stream that passes text through to another one with control
 * characters (other than newline and tab) replaced by '?', and C1 controls in
 * UTF-8 (C2 80..C2 9F) by "??", as check's output does: values read from
 * a captured machine must not be able to drive the user's terminal. */
#ifndef RD_OUT_SAFE_STREAM_H
#define RD_OUT_SAFE_STREAM_H

#include <stdio.h>

/* NULL when out of memory; fclose() it to flush (under stays open). */
FILE *safe_stream(FILE *under);

#endif
