/* libFuzzer target: any bytes as the site file.  The parser must refuse
 * them with a line and a message, or accept them as names and ids of the
 * allowed characters.  Built with clang -fsanitize=fuzzer (RD_FUZZ=ON);
 * replay_main.c runs the saved corpus under gcc as an ordinary test. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profiles/site.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void names_ok(const struct name_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		if (!l->v[i][0] || strlen(l->v[i]) > 64)
			abort();
		for (const char *c = l->v[i]; *c; c++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
				    *c))
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile_error err;
	struct site s;
	int rc = site_parse((const char *)data, size, "fuzz.conf", &s, &err);

	if (rc < 0) {
		if (err.line < 0 || !memchr(err.message, '\0', sizeof(err.message)) ||
		    !err.message[0] || s.profile || s.ignore.n || s.rail.n || s.storage.n ||
		    s.n_rail_switch || s.rail_switch || s.n_fw || s.fw || s.exclude.n ||
		    s.exclude.v)
			abort();
		return 0;
	}
	names_ok(&s.ignore);
	names_ok(&s.rail);
	names_ok(&s.storage);
	for (size_t i = 0; i < s.rail.n; i++)
		if (site_role(&s, s.rail.v[i]) != ROLE_RAIL)
			abort();
	if (s.profile && (!s.profile[0] || s.profile_line < 1))
		abort();
	/* rail_switch: a rail and a pattern, neither empty nor blank inside */
	for (size_t i = 0; i < s.n_rail_switch; i++) {
		const struct rail_switch *e = &s.rail_switch[i];

		if (!e->rail[0] || !e->pattern[0] || e->line < 1 || strpbrk(e->rail, " \t") ||
		    strpbrk(e->pattern, " \t") || strlen(e->rail) > 64 || strlen(e->pattern) > 128)
			abort();
		/* it answers for the rail it names */
		if (!site_rail_switch(&s, strtoul(e->rail, NULL, 10), e->rail, NULL))
			abort();
	}
	/* [firmware]: a PSID of name characters, a floor or a list of versions
	 * that compare, each rule found by its PSID and allowing its own */
	for (size_t i = 0; i < s.n_fw; i++) {
		const struct fw_rule *r = &s.fw[i];
		char *one = r->psid;
		struct name_list psid = { .v = &one, .n = 1 };

		names_ok(&psid);
		if (r->line < 1 || !r->floor == !r->allowed.n || site_fw_rule(&s, r->psid) != r)
			abort();
		if (r->floor && (!site_fw_version_ok(r->floor) || !site_fw_allows(r, r->floor)))
			abort();
		for (size_t k = 0; k < r->allowed.n; k++)
			if (!site_fw_version_ok(r->allowed.v[k]) || !site_fw_allows(r, r->allowed.v[k]) ||
			    site_fw_version_cmp(r->allowed.v[k], r->allowed.v[k]) != 0)
				abort();
	}
	/* exclude: patterns neither empty nor blank inside, each matching
	 * itself where it holds no wildcard */
	for (size_t i = 0; i < s.exclude.n; i++) {
		const struct exclude_rule *e = &s.exclude.v[i];

		if (!e->pattern[0] || e->line < 1 || strpbrk(e->pattern, " \t,") ||
		    strlen(e->pattern) > 128)
			abort();
		if (!strpbrk(e->pattern, "*?[]!") && !exclude_match(&s.exclude, e->pattern, NULL))
			abort();
	}
	site_free(&s);
	return 0;
}
