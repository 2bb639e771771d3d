/* The control-character filter of text output (src/print/safe_stream.c):
 * C0 controls and DEL become '?', UTF-8 C1 controls (C2 80..C2 9F, which
 * some terminals obey like ESC sequences) "??", bidirectional controls one
 * '?' a byte, as check's own filter; other UTF-8 passes, also when stdio
 * splits a sequence across writes. */
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

/* Unicode bidirectional controls (issue 44): a right-to-left override in
 * a value makes a terminal show the rest of the line reversed.  U+202E,
 * U+202A..U+202D, U+2066..U+2069, U+200E/U+200F, U+061C: one '?' a byte. */
static void bidi_controls(void **state)
{
	const char *p[] = { "a\xe2\x80\xae" "b \xe2\x80\xaa\xe2\x80\xad \xe2\x81\xa6\xe2\x81\xa9"
			    " \xe2\x80\x8e\xe2\x80\x8f \xd8\x9c." };
	char *out = through(p, 1);
	(void)state;

	assert_string_equal(out, "a???b ?????? ?????? ?????? ??.");
	free(out);
}

/* their neighbours pass: U+2026 (E2 80 A6), U+2022 (E2 80 A2), U+2070
 * (E2 81 B0), U+2065 (E2 81 A5, unassigned), U+0628 (D8 A8) */
static void bidi_neighbours_pass(void **state)
{
	const char *p[] = { "\xe2\x80\xa6\xe2\x80\xa2\xe2\x81\xb0\xe2\x81\xa5\xd8\xa8 \xe2\x82\xac" };
	char *out = through(p, 1);
	(void)state;

	assert_string_equal(out, p[0]);
	free(out);
}

/* a three-byte control split across writes at each place; a lead cut
 * short at the end is passed on */
static void bidi_split(void **state)
{
	const char *a[] = { "x\xe2", "\x80\xaey" };
	const char *b[] = { "x\xe2\x80", "\xaey" };
	const char *c[] = { "x\xe2\x80", "\xa6y\xe2\x80" };
	char *out;
	(void)state;

	out = through(a, 2);
	assert_string_equal(out, "x???y");
	free(out);
	out = through(b, 2);
	assert_string_equal(out, "x???y");
	free(out);
	out = through(c, 2);
	assert_string_equal(out, "x\xe2\x80\xa6y\xe2\x80");
	free(out);
}

/* the rule itself, as the printers that cannot use the stream call it */
static void seq_rule(void **state)
{
	(void)state;
	assert_int_equal(safe_seq((const unsigned char *)"\n", 1, true), 0);
	assert_int_equal(safe_seq((const unsigned char *)"\n", 1, false), 1);
	assert_int_equal(safe_seq((const unsigned char *)"\xe2\x80\xae", 3, false), 3);
	assert_int_equal(safe_seq((const unsigned char *)"\xe2\x80\xae", 2, false), -1);
	assert_int_equal(safe_seq((const unsigned char *)"\xe2\x82\xac", 2, false), 0);
	assert_int_equal(safe_seq((const unsigned char *)"\xc2", 1, false), -1);
	assert_int_equal(safe_seq((const unsigned char *)"\xd8\x9c", 2, false), 2);
	assert_int_equal(safe_seq((const unsigned char *)"", 0, false), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(c0_and_del),
		cmocka_unit_test(c1_controls),
		cmocka_unit_test(other_utf8_passes),
		cmocka_unit_test(split_across_writes),
		cmocka_unit_test(bidi_controls),
		cmocka_unit_test(bidi_neighbours_pass),
		cmocka_unit_test(bidi_split),
		cmocka_unit_test(seq_rule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
