/* libFuzzer target: label values and help text of the exposition
 * (src/metrics/expo.c), which quote whatever sysfs names and a snapshot
 * hold.  Whatever the bytes, the sample line must stay one line that a
 * scraper reads back: valid UTF-8, no raw newline, every quote inside the
 * value escaped, and the value ending where the writer ended it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/expo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The whole text is UTF-8 (no overlong forms, surrogates or past U+10FFFF). */
static int valid_utf8(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		size_t k;
		uint32_t cp;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			k = 2, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			k = 3, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			k = 4, cp = c & 0x07;
		else
			return 0;
		if (i + k > n)
			return 0;
		for (size_t j = 1; j < k; j++) {
			if ((s[i + j] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + j] & 0x3f);
		}
		if ((k == 3 && cp < 0x800) || (k == 4 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += k;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a NUL-terminated copy: labels are C strings */
	char *value = malloc(size + 1);
	struct expo_label l[1] = { { "v", value } };
	struct expo e;
	size_t len, i;
	char *text;

	if (!value)
		return 0;
	memcpy(value, data, size);
	value[size] = '\0';
	expo_init(&e);
	expo_family(&e, "m", "gauge", value);
	expo_sample(&e, "m", l, 1, 1);
	text = expo_take(&e, &len);
	if (!text) {
		free(value);
		return 0;
	}
	if (strlen(text) != len || !valid_utf8((const unsigned char *)text, len))
		abort();
	/* three lines: HELP, TYPE, the sample */
	{
		const char *a = strchr(text, '\n'), *b = a ? strchr(a + 1, '\n') : NULL;
		const char *c = b ? strchr(b + 1, '\n') : NULL;

		if (!c || c[1] != '\0' || strncmp(b + 1, "m{v=\"", 5) != 0)
			abort();
		/* walk the value: it must end at an unescaped quote followed by "} 1" */
		for (i = (size_t)(b + 6 - text); i < len && text[i] != '"'; i++)
			if (text[i] == '\\') {
				if (text[i + 1] != '\\' && text[i + 1] != '"' && text[i + 1] != 'n')
					abort();
				i++;
			}
		if (strcmp(text + i, "\"} 1\n") != 0)
			abort();
	}
	free(text);
	free(value);
	return 0;
}
