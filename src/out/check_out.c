#include "check_out.h"
#include "json.h"

#include <string.h>

json_t *findings_to_json(const struct findings *fs)
{
	json_t *list = json_array();

	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->v[i];

		json_t *o = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o}",
			"id", f->id, "severity", severity_name(f->severity),
			"subject", json_string_or_null(f->subject),
			"observed", json_string_or_null(f->observed),
			"expected", json_string_or_null(f->expected),
			"why", json_string_or_null(f->why),
			"fix", json_string_or_null(f->fix));

		/* only when set, so the common finding stays as it was */
		if (o && f->unchecked)
			json_object_set_new(o, "unchecked", json_true());
		if (o && f->waived)
			json_object_set_new(o, "waived", json_true());
		json_array_append_new(list, o);
	}
	return list;
}

static const char *const role_names[ROLE_COUNT] = { "rail", "storage" };

/* {"mlx5_0": "rail", "mlx5_8": "storage"}: what each NIC was judged as */
static json_t *roles_to_json(const struct check_report *rep)
{
	json_t *o = json_object();

	for (size_t i = 0; o && rep->roles && i < rep->inv->n_nics; i++)
		if (rep->inv->nics[i].name)
			json_object_set_new(o, rep->inv->nics[i].name,
					    json_string(role_names[rep->roles[i]]));
	return o;
}

static void put_clean(FILE *out, const char *s);

/* "  rail: mlx5_0 mlx5_1" and "  storage: mlx5_8", a line each */
static void text_roles(FILE *out, const struct check_report *rep)
{
	for (int r = 0; rep->roles && r < ROLE_COUNT; r++) {
		bool any = false;

		for (size_t i = 0; i < rep->inv->n_nics; i++) {
			if (rep->roles[i] != (enum nic_role)r)
				continue;
			fputs(any ? " " : r == ROLE_RAIL ? "  rail: " : "  storage: ", out);
			put_clean(out, rep->inv->nics[i].name);
			any = true;
		}
		if (any)
			fputc('\n', out);
	}
}

json_t *check_to_json(const struct check_report *rep)
{
	json_t *list = findings_to_json(rep->findings);

	return json_pack("{s:i, s:o, s:o, s:o, s:s, s:I, s:o, s:o, s:o}", "schema",
			 INVENTORY_SCHEMA,
			 "profile", json_string_or_null(rep->profile->name),
			 "profile_reason", json_string_or_null(rep->reason),
			 "profile_source", json_string_or_null(rep->source),
			 "verdict", check_verdict(rep->findings),
			 "unchecked", (json_int_t)check_unchecked(rep->findings),
			 "roles", roles_to_json(rep),
			 "findings", list, "inventory", inventory_to_json(rep->inv));
}

static const char *sev_color(enum severity s, bool color)
{
	if (!color)
		return "";
	switch (s) {
	case SEV_ERROR: return "\033[1;31m";
	case SEV_WARN: return "\033[1;33m";
	default: return "\033[36m";
	}
}

/* Values come from the examined machine (names, DMI strings, firmware):
 * this output writes colour codes itself, so it cannot go through the
 * control-character filter and filters the values instead. */
static void put_clean(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		/* C1 controls written as UTF-8 (U+0080..U+009F: C2 80..C2 9F)
		 * are escape sequences to some terminals too */
		if (c == 0xc2 && (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] <= 0x9f) {
			fputs("??", out);
			s++;
			continue;
		}
		fputc((c < 0x20 && c != '\t') || c == 0x7f ? '?' : (char)c, out);
	}
}

static void print_field(FILE *out, const char *label, const char *value)
{
	if (!value || !*value)
		return;
	fprintf(out, "      %-9s ", label);
	put_clean(out, value);
	fputc('\n', out);
}

void text_check(FILE *out, const struct check_report *rep, bool color)
{
	const char *verdict = check_verdict(rep->findings);
	const char *reset = color ? "\033[0m" : "";
	size_t count[3] = { 0 }, waived = 0, unchecked = check_unchecked(rep->findings);

	for (size_t i = 0; i < rep->findings->n; i++) {
		if (rep->findings->v[i].waived)
			waived++;
		else if (!rep->findings->v[i].unchecked)
			count[rep->findings->v[i].severity]++;
	}
	fprintf(out, "%s%s%s  profile ",
		color ? (strcmp(verdict, "fail") == 0 ? "\033[1;31m" :
			 strcmp(verdict, "warn") == 0 ? "\033[1;33m" : "\033[1;32m") : "",
		strcmp(verdict, "fail") == 0 ? "FAIL" : strcmp(verdict, "warn") == 0 ? "WARN" : "PASS",
		reset);
	put_clean(out, rep->profile->name);
	fputs(" (", out);
	put_clean(out, rep->reason ? rep->reason : "chosen by --profile");
	fputs(")\n", out);
	fprintf(out, "  %zu RDMA devices, %zu GPUs: %zu errors, %zu warnings, %zu notes, "
		"%zu unchecked", rep->inv->n_nics, rep->inv->n_gpus, count[SEV_ERROR],
		count[SEV_WARN], count[SEV_INFO], unchecked);
	if (waived)
		fprintf(out, ", %zu waived", waived);
	fputc('\n', out);
	text_roles(out, rep);
	text_findings(out, rep->findings, color);
}

void text_findings(FILE *out, const struct findings *fs, bool color)
{
	const char *reset = color ? "\033[0m" : "";

	for (int sev = SEV_ERROR; sev >= SEV_INFO; sev--) {
		for (size_t i = 0; i < fs->n; i++) {
			const struct finding *f = &fs->v[i];

			if ((int)f->severity != sev)
				continue;
			fprintf(out, "\n  %s%-5s%s %s  ", sev_color(f->severity, color),
				sev == SEV_ERROR ? "ERROR" : sev == SEV_WARN ? "WARN" : "INFO",
				reset, f->id);
			put_clean(out, f->subject);
			fputs(f->waived ? "  (waived by the site file)\n" : "\n", out);
			print_field(out, "observed", f->observed);
			print_field(out, "expected", f->expected);
			print_field(out, "why", f->why);
			print_field(out, "fix", f->fix);
		}
	}
}

void nhc_check(FILE *out, const struct check_report *rep)
{
	const struct finding *first = NULL;
	size_t errors = 0;

	/* The drain reason names the error that explains the most: a NIC or
	 * port that is missing or down before what follows from it. */
	static const char *const rank[] = {
		"nic.count", "port.down", "port.no_sm", "sys.uverbs", "link.flaps",
		"port.rate_low", "port.width_low", "pcie.link_degraded",
		"pcie.upstream_degraded", "gid.rocev2_missing", "counters.errors",
	};
	size_t best = sizeof(rank) / sizeof(rank[0]);

	for (size_t i = 0; i < rep->findings->n; i++) {
		const struct finding *f = &rep->findings->v[i];
		size_t r = 0;

		if (f->severity != SEV_ERROR || f->waived)
			continue;
		errors++;
		while (r < sizeof(rank) / sizeof(rank[0]) && strcmp(rank[r], f->id) != 0)
			r++;
		if (!first || r < best) {
			first = f;
			best = r;
		}
	}
	if (!first)
		return;
	/* NHC's own form, so that node-mark-offline and drain reasons work */
	fprintf(out, "ERROR: rdmadoctor: Health check failed: %s ", first->id);
	put_clean(out, first->subject);
	fputs(": ", out);
	put_clean(out, first->observed ? first->observed : "?");
	fputs(" (expected ", out);
	put_clean(out, first->expected ? first->expected : "?");
	fputc(')', out);
	if (errors > 1)
		fprintf(out, " and %zu more errors", errors - 1);
	fputc('\n', out);
}
