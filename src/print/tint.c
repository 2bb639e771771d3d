#include "tint.h"

static void put_code(FILE *out, const struct text_opts *o, const char *code)
{
	if (!o || !o->color)
		return;
	if (o->raw && o->raw != out) {
		/* what out holds first, so the code lands where it belongs */
		fflush(out);
		fputs(code, o->raw);
	} else {
		fputs(code, out);
	}
}

void tint_on(FILE *out, const struct text_opts *o, enum tint t)
{
	static const char *const code[] = {
		[TINT_BAD] = "\033[1;31m", [TINT_DOUBT] = "\033[1;33m",
		[TINT_GOOD] = "\033[1;32m", [TINT_NOTE] = "\033[36m",
	};

	put_code(out, o, code[t]);
}

void tint_off(FILE *out, const struct text_opts *o)
{
	put_code(out, o, "\033[0m");
}
