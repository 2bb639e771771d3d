/* A stdio stream that passes text through to another one with control
 * characters (other than newline and tab) replaced by '?', one per byte:
 * C0 controls and DEL, C1 controls in UTF-8 (C2 80..C2 9F), and the
 * Unicode bidirectional controls (U+061C, U+200E, U+200F, U+202A..U+202E,
 * U+2066..U+2069), as check's output does: values read from a captured
 * machine must not be able to drive the user's terminal, nor reorder what
 * it shows (a right-to-left override makes "mlx5_0 ok" read otherwise). */
#ifndef RD_OUT_SAFE_STREAM_H
#define RD_OUT_SAFE_STREAM_H

#include <stdio.h>

#include <stdbool.h>
#include <stddef.h>

/* NULL when out of memory; fclose() it to flush (under stays open). */
FILE *safe_stream(FILE *under);

/* The one filter rule, for this stream, for printers that cannot use it
 * (check's coloured text) and for the exposition's label values: how many
 * of the n bytes at p, from p on, form one control to replace.  0: none;
 * 1: a C0 control (but tab, and newline when keep_newline) or DEL; 2: a C1
 * control or U+061C; 3: a bidirectional control of the U+2000 block; -1:
 * p[0] may begin a control, but the n bytes are too few to tell (a string
 * that ends there holds none; a stream waits for the next bytes). */
int safe_seq(const unsigned char *p, size_t n, bool keep_newline);

#endif
