/* text_printf: fprintf whose %s values are cleaned (a newline, CR, escape
 * or C1 control as '?'), the format's own text and every other conversion
 * as fprintf writes them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "print/text_printf.h"

/* What text_printf wrote, as a string (freed by the caller), and its count. */
#define PRINTED(count, ...)						\
	({								\
		char *buf_ = NULL;					\
		size_t len_ = 0;					\
		FILE *f_ = open_memstream(&buf_, &len_);		\
		assert_non_null(f_);					\
		*(count) = text_printf(f_, __VA_ARGS__);		\
		fclose(f_);						\
		buf_;							\
	})

static void values_cleaned_format_kept(void **state)
{
	int n;
	char *s;
	(void)state;

	s = PRINTED(&n, "fw %s  board %s\n", "28.39\nPASS all", "MT_1\r\x1b[2J");
	assert_string_equal(s, "fw 28.39?PASS all  board MT_1??[2J\n");
	assert_int_equal(n, (int)strlen(s));
	free(s);
	/* C1 in UTF-8 (C2 9B, the CSI) is two bytes, two '?' */
	s = PRINTED(&n, "[%s]", "a\xc2\x9b" "b\xc3\xa9");
	assert_string_equal(s, "[a??b\xc3\xa9]");
	free(s);
}

static void conversions_as_fprintf(void **state)
{
	char want[200];
	int n;
	char *s;
	(void)state;

	s = PRINTED(&n, "%-6s|%6s|%.3s|%*s|%-*.*s|%%|%c", "ab", "cd", "efghij", 4, "x", 5, 2,
		    "y\nz", 'q');
	assert_string_equal(s, "ab    |    cd|efg|   x|y?   |%|q");
	free(s);
	s = PRINTED(&n, "%d %5.2f %lld %zu %llu %x %08.3g %ld %u %hhd %jd", -3, 2.5, -9LL,
		    (size_t)7, 18446744073709551615ULL, 255u, 1234.5, -4L, 9u, (signed char)12,
		    (intmax_t)-1);
	snprintf(want, sizeof(want), "%d %5.2f %lld %zu %llu %x %08.3g %ld %u %hhd %jd", -3, 2.5,
		 -9LL, (size_t)7, 18446744073709551615ULL, 255u, 1234.5, -4L, 9u, (signed char)12,
		 (intmax_t)-1);
	assert_string_equal(s, want);
	assert_int_equal(n, (int)strlen(want));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(values_cleaned_format_kept),
		cmocka_unit_test(conversions_as_fprintf),
	};

	return cmocka_run_group_tests_name("text_printf", tests, NULL, NULL);
}
