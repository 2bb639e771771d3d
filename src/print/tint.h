/* Colour in text for people: what is bad in red, what is doubtful in
 * yellow, what is good in green, notes in cyan (ANSI SGR codes).  Only
 * the tool's own words are coloured, and only when text_opts.color says
 * so (the command layer decides: --color, NO_COLOR, a terminal).  The
 * codes bypass the safe stream that filters the values read from the
 * machine, so that a value can never colour or move anything itself. */
#ifndef RD_OUT_TINT_H
#define RD_OUT_TINT_H

#include <stdio.h>

#include "check_out.h"

enum tint { TINT_BAD, TINT_DOUBT, TINT_GOOD, TINT_NOTE };

/* Start colouring what follows on out; nothing when colour is off. */
void tint_on(FILE *out, const struct text_opts *o, enum tint t);
/* Back to plain text. */
void tint_off(FILE *out, const struct text_opts *o);

#endif
