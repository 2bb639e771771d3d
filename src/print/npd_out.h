/* `check --npd`: Kubernetes Node Problem Detector's custom plugin protocol
 * (node-problem-detector, pkg/custompluginmonitor/plugin/plugin.go): one
 * line on stdout, which NPD trims and cuts at the monitor's
 * max_output_length (80 by default), and the exit status 0 OK, 1 a
 * problem, anything else unknown.  contrib/kubernetes/ has the monitor
 * configuration that turns it into a NodeCondition (docs/kubernetes.md). */
#ifndef RD_OUT_NPD_OUT_H
#define RD_OUT_NPD_OUT_H

#include <stdio.h>

#include "check_out.h"
#include "../state/npd_verdict.h"

#define NPD_MAX_MESSAGE 80	/* NPD's default max_output_length */

enum npd_status { NPD_OK = 0, NPD_PROBLEM = 1, NPD_UNKNOWN = 3 };

/* The verdict as NPD reads it: a problem when an error is found (the one
 * NHC's line would name), unknown when no error but a rail or other
 * warning was not checked (what was not seen cannot pass), else OK.  The
 * message is written whole, at most NPD_MAX_MESSAGE bytes and a newline. */
enum npd_status npd_check(FILE *out, const struct check_report *rep);
/* The line of a run that could not judge: unknown. */
void npd_error(FILE *out, const char *why);

/* The same verdicts for the file rdmadoctor-npd reads in NPD's pod
 * (state/npd_verdict.h), judged at now: 0, or -ENOMEM. */
int npd_verdict_of(const struct check_report *rep, long long now, struct npd_verdict *v);
int npd_verdict_of_error(const char *why, long long now, struct npd_verdict *v);

#endif
