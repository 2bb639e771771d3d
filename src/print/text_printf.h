/* printf for text output, whose every %s is a value: a string read from
 * the examined machine (a fw_ver, a hostname, a netdev name), from a
 * record or from a peer.  Such a string may hold a newline, and the line
 * after it would look like the tool's own ("PASS ..."); text_printf
 * writes each %s argument cleaned as text_put_clean does (newline, CR and
 * every other control as '?'), while the format's own newlines stay.
 * The safe stream (safe_stream.h) catches the rest of the controls but
 * must keep newlines, so it cannot tell a value's from the format's.
 * The tool's own control text (check's colour codes) goes through plain
 * fprintf, which leaves it whole. */
#ifndef RD_OUT_TEXT_PRINTF_H
#define RD_OUT_TEXT_PRINTF_H

#include <stdio.h>

/* As fprintf, with %s cleaned.  Conversions: d i u o x X e E f F g G a A
 * c s p and %% with the usual flags, width, precision (also '*') and
 * length modifiers; %n is refused.  The count of bytes written, or -1. */
int text_printf(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
