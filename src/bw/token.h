/* The shared secret of a bw/lat server and its clients (--token,
 * --token-file, RDMADOCTOR_TOKEN): what it may be, reading it from a file,
 * and comparing it without telling by the time taken how much matched. */
#ifndef RD_BW_TOKEN_H
#define RD_BW_TOKEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

/* A token from n bytes of text (one trailing newline dropped, as a file
 * written by echo has): BW_TOKEN_MIN..BW_TOKEN_MAX printable ASCII
 * characters, into
 * out (outsz > BW_TOKEN_MAX).  0, or -1 with e saying what is wrong
 * (never quoting the secret). */
int bw_token_take(const char *text, size_t n, char *out, size_t outsz, struct bw_err *e);
/* The same from a file's contents.  0, or -1 with e set; warn->msg says
 * (else "") that the file is readable by others than its owner. */
int bw_token_read_file(const char *path, char *out, size_t outsz, struct bw_err *e,
		       struct bw_err *warn);
/* Whether got is want, in a time that depends on neither (both at most
 * BW_TOKEN_MAX long; a longer got never matches). */
bool bw_token_equal(const char *want, const char *got);
/* A client's AUTH (its payload, len bytes) against want (NULL: anyone may
 * come in).  0: in; -BW_E_REFUSED with e saying why, never quoting either
 * token (*wrong: it presented one, a guess, rather than none); -1 with e
 * set when the payload is malformed. */
int bw_token_judge(const char *want, const uint8_t *pl, size_t len, bool *wrong,
		   struct bw_err *e);

#endif
