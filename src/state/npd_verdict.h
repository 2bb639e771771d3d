/* The verdict file Node Problem Detector's plugin reads (docs/kubernetes.md):
 * the agent (`labels --every S --npd FILE`) writes what `check --npd` would
 * say, with when; `rdmadoctor-npd` (src/npd_main.c), a program with no
 * library but the C library's, linked statically, prints it to NPD from
 * inside NPD's own pod, where rdmadoctor itself cannot run.
 *
 * The format, ours (text, at most NPD_VERDICT_FILE_MAX bytes):
 *   rdmadoctor-npd 1 STATUS UNIX-SECONDS\n
 *   LINE\n
 * STATUS is NPD's: 0 OK, 1 a problem, 3 unknown; LINE is check --npd's
 * message, printable, at most NPD_VERDICT_LINE_MAX bytes.  Pure, and the
 * C library alone, so that the static program links nothing else. */
#ifndef RD_STATE_NPD_VERDICT_H
#define RD_STATE_NPD_VERDICT_H

#include <stddef.h>

#define NPD_VERDICT_LINE_MAX 80		/* NPD's default max_output_length */
#define NPD_VERDICT_FILE_MAX 256
#define NPD_VERDICT_MAGIC "rdmadoctor-npd 1"

struct npd_verdict {
	int status;		/* 0, 1 or 3 */
	long long when;		/* Unix seconds it was judged */
	char line[NPD_VERDICT_LINE_MAX + 1];
};

/* The file's bytes into buf (size n): their length, or -1 when v is not
 * one (a status or a line the format does not take). */
int npd_verdict_format(char *buf, size_t n, const struct npd_verdict *v);
/* n bytes of a file into *v: 0, or -1 when they are not the format (short,
 * long, another magic, a status but 0/1/3, a line with control bytes). */
int npd_verdict_parse(const char *buf, size_t n, struct npd_verdict *v);

#endif
