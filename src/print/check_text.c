/* `check` for people: the verdict, then the findings, errors first, each
 * with observed, expected, why and fix, wrapped to the terminal.  The same
 * finding on several subjects (link_downed 1 on every rail) prints once
 * with the subjects listed: two findings are the same when their id,
 * severity, why and texts agree once the one word their subjects differ
 * in (mlx5_0 / mlx5_3) is set aside.  JSON keeps one entry per subject. */
#include "check_out.h"
#include "text_wrap.h"
#include "tint.h"
#include "../check/catalog.h"
#include "../check/rank.h"
#include "text_printf.h"
#include "plural.h"
#include "../model/inventory.h"
#include "../profiles/profile.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FIELD_INDENT 16	/* "      observed  " */

static enum tint sev_tint(enum severity s)
{
	return s == SEV_ERROR ? TINT_BAD : s == SEV_WARN ? TINT_DOUBT : TINT_NOTE;
}

static const char *sev_word(enum severity s)
{
	return s == SEV_ERROR ? "ERROR" : s == SEV_WARN ? "WARN" : "INFO";
}

/* ---- which findings are the same ---------------------------------------- */

/* The subject's words: where a and b differ in exactly one word, and
 * that word is a name (not a bare number: "port 1" / "port 2" are two
 * ports of one NIC, whose texts differ in more than a name), set the
 * span of that word in each and return true. */
static bool one_word_apart(const char *a, const char *b, size_t *ao, size_t *al, size_t *bo,
			   size_t *bl)
{
	size_t i = 0, j = 0, diffs = 0;

	if (!a || !b)
		return false;
	for (;;) {
		size_t n = strcspn(a + i, " "), m = strcspn(b + j, " ");

		if (n != m || strncmp(a + i, b + j, n) != 0) {
			bool digits = true;

			for (size_t k = 0; k < n; k++)
				digits &= a[i + k] >= '0' && a[i + k] <= '9';
			if (++diffs > 1 || digits || !n || !m)
				return false;
			*ao = i;
			*al = n;
			*bo = j;
			*bl = m;
		}
		i += n;
		j += m;
		if (!a[i] || !b[j])
			return !a[i] && !b[j] && diffs == 1;
		i++;
		j++;
	}
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* name (n bytes) stands at s[i] as a whole word. */
static bool name_at(const char *s, size_t i, const char *name, size_t n)
{
	return strncmp(s + i, name, n) == 0 && (i == 0 || !name_char(s[i - 1])) &&
	       !name_char(s[i + n]);
}

/* Where the leader of a group varies with its members: the span of its
 * subject's name, and for observed, expected and fix the times that name
 * stands as a word in the leader's text where each member has its own
 * name (bit k: the k-th time; a placeholder prints there).  Where a member
 * has the leader's name too, the text is common to all (the value of a
 * variable the user wrote, which names every device) and prints as it is:
 * a value to be typed never carries a placeholder. */
enum { VARY_OBSERVED, VARY_EXPECTED, VARY_FIX, N_VARY };

struct vary {
	size_t off, len;
	uint64_t at[N_VARY];
};

/* x and y are the same text once the name of each is set aside where
 * both stand together; *at: which times x's name was set aside. */
static bool same_text(const char *x, const char *xn, size_t xl, const char *y, const char *yn,
		      size_t yl, uint64_t *at)
{
	size_t i = 0, j = 0, k = 0;

	*at = 0;
	if (!x || !y)
		return x == y;
	while (x[i] || y[j]) {
		bool mine = name_at(x, i, xn, xl);

		if (mine && name_at(y, j, yn, yl)) {
			if (k >= 64)
				return false;	/* too many to say which: not grouped */
			*at |= (uint64_t)1 << k++;
			i += xl;
			j += yl;
		} else if (x[i] != y[j]) {
			return false;
		} else {
			k += mine;
			i++;
			j++;
		}
	}
	return true;
}

static bool same_finding(const struct finding *a, const struct finding *b, struct vary *v)
{
	size_t bo = 0, bl = 0;
	const char *an, *bn;

	if (a->severity != b->severity || strcmp(a->id, b->id) != 0 || a->waived != b->waived ||
	    a->accepted != b->accepted ||
	    (a->why != b->why && (!a->why || !b->why || strcmp(a->why, b->why) != 0)) ||
	    !one_word_apart(a->subject, b->subject, &v->off, &v->len, &bo, &bl))
		return false;
	an = a->subject + v->off;
	bn = b->subject + bo;
	return same_text(a->observed, an, v->len, b->observed, bn, bl, &v->at[VARY_OBSERVED]) &&
	       same_text(a->expected, an, v->len, b->expected, bn, bl, &v->at[VARY_EXPECTED]) &&
	       same_text(a->fix, an, v->len, b->fix, bn, bl, &v->at[VARY_FIX]);
}

/* leader[i]: the first finding i is the same as (i itself if none), where
 * i varies with it as its first member does; vary[j]: how the members of
 * leader j's group vary with it. */
static size_t *group(const struct findings *fs, struct vary **vary)
{
	size_t *leader = malloc((fs->n ? fs->n : 1) * sizeof(*leader));
	struct vary *v = calloc(fs->n ? fs->n : 1, sizeof(*v));

	if (!leader || !v) {
		free(leader);
		free(v);
		return NULL;
	}
	for (size_t i = 0; i < fs->n; i++) {
		leader[i] = i;
		for (size_t j = 0; j < i; j++) {
			struct vary here;

			if (leader[j] != j || !same_finding(&fs->v[j], &fs->v[i], &here))
				continue;
			if (v[j].len && memcmp(&v[j], &here, sizeof(here)) != 0)
				continue;	/* varies otherwise than the rest */
			v[j] = here;
			leader[i] = j;
			break;
		}
	}
	*vary = v;
	return leader;
}

/* ---- printing ------------------------------------------------------------ */

/* Text of a group's leader with its name, where it stands as a word and
 * varies with the members (bit k of at: the k-th time), as a placeholder;
 * the text itself when that fails. */
static void put_group_text(FILE *out, const char *s, const char *name, size_t nl, uint64_t at,
			   size_t col, size_t width)
{
	const char *ph = memchr(name, ':', nl) ? "<bdf>" : "<dev>";
	size_t len = strlen(s), n = 0, k = 0;
	char *t = malloc(len * 5 + 1);

	if (!t) {
		text_wrap(out, s, col, FIELD_INDENT, width);
		return;
	}
	/* the walk of same_text, so that the k-th time is the same one */
	for (size_t i = 0; s[i];) {
		bool mine = name_at(s, i, name, nl);

		if (mine && k < 64 && ((at >> k) & 1)) {
			memcpy(t + n, ph, 5);
			n += 5;
			i += nl;
		} else {
			t[n++] = s[i++];
		}
		k += mine;
	}
	t[n] = '\0';
	text_wrap(out, t, col, FIELD_INDENT, width);
	free(t);
}

static void field(FILE *out, const char *label, const char *value, const char *name,
		  size_t nl, uint64_t at, size_t width)
{
	if (!value || !*value)
		return;
	text_printf(out, "      %-9s ", label);
	if (name && at)
		put_group_text(out, value, name, nl, at, FIELD_INDENT, width);
	else
		text_wrap(out, value, FIELD_INDENT, FIELD_INDENT, width);
	fputc('\n', out);
}

/* "8 ports: mlx5_0 port 1, mlx5_1 port 1, ..." for a group of count */
static size_t put_subjects(FILE *out, const struct findings *fs, const size_t *leader,
			   size_t i, size_t count, size_t col, size_t indent, size_t width)
{
	const struct finding *f = &fs->v[i];
	const char *noun = f->subject && strstr(f->subject, " port ") ? "ports" :
			   f->subject && strncmp(f->subject, "GPU ", 4) == 0 ? "GPUs" :
			   "subjects";
	char head[48];

	if (count == 1)
		return text_wrap(out, f->subject, col, indent, width);
	snprintf(head, sizeof(head), "%zu %s:", count, noun);
	col = text_wrap(out, head, col, indent, width);
	for (size_t j = i, k = 0; j < fs->n; j++) {
		char *s;

		if (leader[j] != i)
			continue;
		/* "mlx5_0 port 1," as one piece to wrap, the comma included */
		if (asprintf(&s, "%s%s", fs->v[j].subject, ++k < count ? "," : "") < 0) {
			col = text_wrap(out, fs->v[j].subject, col + 1, indent, width);
			continue;
		}
		if (col + 1 + strlen(s) > width) {
			text_printf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else {
			fputc(' ', out);
			col++;
		}
		text_put_clean(out, s);
		col += strlen(s);
		free(s);
	}
	return col;
}

static size_t group_size(const size_t *leader, size_t n, size_t i)
{
	size_t count = 0;

	for (size_t j = i; j < n; j++)
		count += leader[j] == i;
	return count;
}

void text_findings(FILE *out, const struct findings *fs, const struct text_opts *o)
{
	struct vary *vary = NULL, none = { 0 };
	size_t *leader = group(fs, &vary);

	for (int sev = SEV_ERROR; sev >= SEV_INFO; sev--) {
		for (size_t i = 0; i < fs->n; i++) {
			const struct finding *f = &fs->v[i];
			const struct vary *v = &none;
			size_t count = 1, col;
			const char *name = NULL;

			if ((int)f->severity != sev || (leader && leader[i] != i))
				continue;
			if (leader) {
				count = group_size(leader, fs->n, i);
				v = &vary[i];
				/* the name the subjects differ in (the leader's),
				 * for placeholders; none in a group of one */
				if (count > 1)
					name = f->subject + v->off;
			}
			fputs("\n  ", out);
			tint_on(out, o, sev_tint(f->severity));
			fprintf(out, "%-5s", sev_word(f->severity));
			tint_off(out, o);
			fputc(' ', out);
			col = text_wrap(out, f->id, 8, 8, o->width) + 2;
			fputs("  ", out);
			if (leader)
				put_subjects(out, fs, leader, i, count, col, 8, o->width);
			else
				text_wrap(out, f->subject, col, 8, o->width);
			fputs(f->waived ? "  (waived by the site file)\n" :
			      f->accepted ? "  (accepted unchecked by the site file)\n" : "\n", out);
			field(out, "observed", f->observed, name, v->len, v->at[VARY_OBSERVED],
			      o->width);
			field(out, "expected", f->expected, name, v->len, v->at[VARY_EXPECTED],
			      o->width);
			field(out, "why", f->why, NULL, 0, 0, o->width);
			field(out, "fix", f->fix, name, v->len, v->at[VARY_FIX], o->width);
		}
	}
	free(leader);
	free(vary);
}

/* One line of the NICs of a kind: "  rail: mlx5_0 mlx5_1" */
static void text_role_line(FILE *out, const struct check_report *rep, const char *label,
			   int role, bool wrong_link)
{
	bool any = false;

	for (size_t i = 0; i < rep->inv->n_nics; i++) {
		bool wrong = rep->wrong_link && rep->wrong_link[i];

		if (wrong != wrong_link || (!wrong && rep->roles[i] != (enum nic_role)role))
			continue;
		fputs(any ? " " : label, out);
		text_put_clean(out, rep->inv->nics[i].name);
		any = true;
	}
	if (any)
		fputc('\n', out);
}

/* "  rail: mlx5_0 mlx5_1", "  storage: mlx5_8" and the cards that are
 * neither for their link layer (port.link_layer names them), a line each */
static void text_roles(FILE *out, const struct check_report *rep)
{
	if (!rep->roles)
		return;
	text_role_line(out, rep, "  rail: ", ROLE_RAIL, false);
	text_role_line(out, rep, "  storage: ", ROLE_STORAGE, false);
	text_role_line(out, rep, "  wrong link layer: ", 0, true);
}

/* " (1 counted as an error, 2 as warnings)": the unchecked that make the
 * verdict, so that "WARN ... 0 warnings" does not read as a contradiction */
static void unchecked_weight(FILE *out, const size_t unread[3])
{
	if (!unread[SEV_ERROR] && !unread[SEV_WARN])
		return;
	fputs(" (", out);
	if (unread[SEV_ERROR])
		fprintf(out, "%zu counted as %s", unread[SEV_ERROR],
			unread[SEV_ERROR] == 1 ? "an error" : "errors");
	if (unread[SEV_ERROR] && unread[SEV_WARN])
		fputs(", ", out);
	if (unread[SEV_WARN])
		fprintf(out, "%zu %s %s", unread[SEV_WARN], unread[SEV_ERROR] ? "as" : "counted as",
			unread[SEV_WARN] == 1 ? "a warning" : "warnings");
	fputc(')', out);
}

/* "10 RDMA devices, 8 GPUs: 0 errors, ... 9 unchecked (8 counted as warnings)" */
static void counts_line(FILE *out, const struct check_report *rep, const size_t count[3],
			const size_t unread[3], size_t unchecked, size_t waived)
{
	text_printf(out, "%zu %s, %zu %s", rep->inv->n_nics,
		plural(rep->inv->n_nics, "RDMA device", "RDMA devices"), rep->inv->n_gpus,
		plural(rep->inv->n_gpus, "GPU", "GPUs"));
	if (rep->inv->npu.n_pci || rep->inv->npu.n) {	/* docs/ascend.md */
		size_t npus = rep->inv->npu.n ? rep->inv->npu.n : rep->inv->npu.n_pci;

		text_printf(out, ", %zu %s", npus, plural(npus, "NPU", "NPUs"));
	}
	text_printf(out, ": %zu %s, %zu %s, %zu %s, %zu unchecked", count[SEV_ERROR],
		plural(count[SEV_ERROR], "error", "errors"), count[SEV_WARN],
		plural(count[SEV_WARN], "warning", "warnings"), count[SEV_INFO],
		plural(count[SEV_INFO], "note", "notes"), unchecked);
	unchecked_weight(out, unread);
	if (waived)
		text_printf(out, ", %zu waived", waived);
}

static void headline(FILE *out, const struct check_report *rep, const struct text_opts *o)
{
	const char *verdict = check_verdict(rep->findings);
	size_t count[3] = { 0 }, unread[3] = { 0 }, col, waived = 0;
	size_t unchecked = check_unchecked(rep->findings), counts_len = 0;
	char *why, *counts = NULL;
	FILE *line;

	/* notes are the infos that say something; the unchecked ones and the
	 * waived are counted apart, but an unchecked one still weighs in the
	 * verdict at its severity, and the line says so */
	for (size_t i = 0; i < rep->findings->n; i++) {
		const struct finding *f = &rep->findings->v[i];

		if (f->waived)
			waived++;
		else if (f->unchecked)
			unread[f->severity]++;
		else
			count[f->severity]++;
	}
	tint_on(out, o, strcmp(verdict, "fail") == 0 ? TINT_BAD :
			strcmp(verdict, "warn") == 0 ? TINT_DOUBT : TINT_GOOD);
	fputs(strcmp(verdict, "fail") == 0 ? "FAIL" : strcmp(verdict, "warn") == 0 ? "WARN" : "PASS",
	      out);
	tint_off(out, o);
	fputs("  profile ", out);
	col = text_wrap(out, rep->profile->name, 14, 2, o->width);
	if (asprintf(&why, "(%s)", rep->reason ? rep->reason : "chosen by --profile") >= 0) {
		fputc(' ', out);
		text_wrap(out, why, col + 1, 2, o->width);
		free(why);
	}
	fputc('\n', out);
	/* the counts, wrapped: "(8 counted as warnings)" may pass 80 columns */
	line = open_memstream(&counts, &counts_len);
	if (!line) {
		fputs("  ", out);
		counts_line(out, rep, count, unread, unchecked, waived);
	} else {
		counts_line(line, rep, count, unread, unchecked, waived);
		if (fclose(line) == 0 && counts) {
			fputs("  ", out);
			text_wrap(out, counts, 2, 4, o->width);
		}
		free(counts);
	}
	fputc('\n', out);
	text_roles(out, rep);
}

void text_check(FILE *out, const struct check_report *rep, const struct text_opts *o)
{
	headline(out, rep, o);
	text_findings(out, rep->findings, o);
}

/* One line per finding, each subject its own (for grep and scripts). */
void text_check_brief(FILE *out, const struct check_report *rep, const struct text_opts *o)
{
	const struct findings *fs = rep->findings;

	headline(out, rep, o);
	for (int sev = SEV_ERROR; sev >= SEV_INFO; sev--)
		for (size_t i = 0; i < fs->n; i++) {
			const struct finding *f = &fs->v[i];

			if ((int)f->severity != sev)
				continue;
			text_printf(out, "%-5s %s ", sev_word(f->severity), f->id);
			text_put_clean(out, f->subject);
			if (f->waived)
				fputs(" (waived)", out);
			else if (f->accepted)
				fputs(" (accepted unchecked)", out);
			fputs(": ", out);
			text_put_clean(out, f->observed);
			if (f->expected && *f->expected) {
				fputs(" (expected ", out);
				text_put_clean(out, f->expected);
				fputc(')', out);
			}
			fputc('\n', out);
		}
}

void text_check_list(FILE *out, size_t width)
{
	size_t n;
	const struct check_entry *e = check_catalog(&n);

	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s%s\n", i ? "\n" : "", e[i].id);	/* the catalog's own */
		field(out, "severity", e[i].severity, NULL, 0, 0, width);
		field(out, "fires", e[i].fires, NULL, 0, 0, width);
		field(out, "fix", e[i].fix, NULL, 0, 0, width);
	}
}

/* The order findings come in (check/rank.h): each cost with its basis and
 * the ids it ranks, in order (those with a row of their own; an id
 * without one comes after them). */
static json_t *order_to_json(void)
{
	size_t n;
	const struct check_rank_row *r = check_rank_rows(&n);
	json_t *order = json_array();

	for (int c = 0; order && c < N_COSTS; c++) {
		json_t *ids = json_array();

		for (size_t i = 0; ids && i < n; i++)
			if (r[i].cost == (enum check_cost)c)
				json_array_append_new(ids, json_string(r[i].id));
		json_array_append_new(order, json_pack("{s:s, s:s, s:o}", "cost",
						       check_cost_name((enum check_cost)c),
						       "basis",
						       check_cost_basis((enum check_cost)c),
						       "ids", ids));
	}
	return order;
}

json_t *check_list_to_json(void)
{
	size_t n;
	const struct check_entry *e = check_catalog(&n);
	json_t *list = json_array();

	for (size_t i = 0; list && i < n; i++)
		json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:s, s:s}", "id", e[i].id,
						      "severity", e[i].severity, "fires",
						      e[i].fires, "fix", e[i].fix, "cost",
						      check_cost_name(check_cost(e[i].id))));
	return json_pack("{s:i, s:o, s:o}", "schema", 1, "checks", list, "order",
			 order_to_json());
}
