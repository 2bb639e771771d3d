/* `check` output: the verdict and findings for people (text, colour only on
 * a terminal), for machines (JSON, docs/json/check.md) and for Slurm
 * (one NHC line). */
#ifndef RD_OUT_CHECK_OUT_H
#define RD_OUT_CHECK_OUT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "../check/finding.h"

struct check_report {
	const struct inventory *inv;
	const struct profile *profile;
	const char *reason;		/* why this profile */
	const struct findings *findings;
	const char *source;		/* where it came from: "DMI", "--profile"... */
	const enum nic_role *roles;	/* one per NIC; NULL: not shown */
	const bool *wrong_link;		/* one per NIC: neither rail nor storage,
					 * for its link layer (NULL: none) */
};

json_t *check_to_json(const struct check_report *rep);
/* The findings list alone (`watch` uses the same shape). */
json_t *findings_to_json(const struct findings *fs);
/* How text is written: colour codes or none, and the width lines wrap
 * at (the terminal's; 80 when not a terminal).  raw: where colour codes
 * go when the text goes through a safe stream (safe_stream.h, which would
 * turn their ESC into '?'): the stream under it; NULL: the text's own. */
struct text_opts {
	bool color;
	size_t width;
	FILE *raw;
};

/* Each finding with observed, expected, why and fix, errors first; the
 * same finding on several subjects once, naming them (check_text.c). */
void text_findings(FILE *out, const struct findings *fs, const struct text_opts *o);
void text_check(FILE *out, const struct check_report *rep, const struct text_opts *o);
/* The verdict, then one line per finding (`check --brief`). */
void text_check_brief(FILE *out, const struct check_report *rep, const struct text_opts *o);
/* Every check id: severity, what fires it, the fix (`check --list`). */
void text_check_list(FILE *out, size_t width);
json_t *check_list_to_json(void);
/* Nothing when healthy; one "ERROR: rdmadoctor: ..." line in NHC's form
 * when an error was found; else, when a warning is a value not checked
 * (a rail whose state could not be read), one "UNCHECKED: rdmadoctor:
 * ..." line. */
void nhc_check(FILE *out, const struct check_report *rep);
/* The error a one-line report names (the one that costs the most
 * bandwidth, as check/rank.h ranks them: a NIC or port missing or down
 * first), *errors the unwaived errors; NULL when none. */
const struct finding *check_lead_error(const struct findings *fs, size_t *errors);
/* The unwaived warning (or error) that says what was not checked (a rail
 * not seen) and ranks first, *n how many; NULL when none. */
const struct finding *check_lead_unchecked(const struct findings *fs, size_t *n);

#endif
