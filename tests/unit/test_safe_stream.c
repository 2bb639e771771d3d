/* The control-character filter of text output (src/print/safe_stream.c):
 * C0 controls and DEL become '?', UTF-8 C1 controls (C2 80..C2 9F, which
 * some terminals obey like ESC sequences) "??", as check's own filter;
 * other UTF-8 passes, also when stdio splits a pair across writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "print/safe_stream.h"

/* Write the pieces (each flushed: one write call apiece), close, and give
 * what reached the stream under it. */
static char *through(const char *const *pieces, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *under = open_memstream(&buf, &len);
	FILE *s;

	assert_non_null(under);
	s = safe_stream(under);
	assert_non_null(s);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(fputs(pieces[i], s) >= 0, 1);
		assert_int_equal(fflush(s), 0);
	}
	assert_int_equal(fclose(s), 0);
	assert_int_equal(fclose(under), 0);
	return buf;
}

static void c0_and_del(void **state)
{
	const char *p[] = { "a\033[31mb\tc\x7f\n" };
	char *out = through(p, 1);
	(void)state;

	assert_string_equal(out, "a?[31mb\tc?\n");
	free(out);
}

static void c1_controls(void **state)
{
	/* U+009B (CSI) and U+0085 (NEL), U+0080 and U+009F the bounds */
	const char *p[] = { "x\xc2\x9b" "31my \xc2\x85 \xc2\x80\xc2\x9f" };
	char *out = through(p, 1);
	(void)state;

	assert_string_equal(out, "x??31my ?? ????");
	free(out);
}

static void other_utf8_passes(void **state)
{
	/* U+00A0, U+00E9, U+00C2 itself (C3 82), and a C2 before ASCII */
	const char *p[] = { "\xc2\xa0 \xc3\xa9 \xc3\x82 \xc2z" };
	char *out = through(p, 1);
	(void)state;

	assert_string_equal(out, "\xc2\xa0 \xc3\xa9 \xc3\x82 \xc2z");
	free(out);
}

static void split_across_writes(void **state)
{
	const char *p[] = { "mlx5_\xc2", ("\x9b" "0 ok \xc2"), "\xa9 end \xc2" };
	char *out = through(p, 3);
	(void)state;

	/* the lone C2 at the very end is passed on at close */
	assert_string_equal(out, "mlx5_??0 ok \xc2\xa9 end \xc2");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(c0_and_del),
		cmocka_unit_test(c1_controls),
		cmocka_unit_test(other_utf8_passes),
		cmocka_unit_test(split_across_writes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
