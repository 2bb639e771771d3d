#include "npu_smi_table.h"
#include "tool_text.h"
#include "../model/inventory.h"
#include "../model/growbuf.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The columns this parser knows, by the header word that names them. */
enum col { C_NPU, C_NAME, C_HEALTH, C_POWER, C_TEMP, C_HUGEPAGES, C_CHIP, C_PHY, C_DEVICE,
	   C_BUS, C_AICORE, C_MEMORY, C_HBM };

static const struct {
	const char *name;
	enum col col;
} known[] = {
	{ "NPU", C_NPU }, { "Name", C_NAME }, { "Health", C_HEALTH }, { "Power(W)", C_POWER },
	{ "Temp(C)", C_TEMP }, { "Hugepages-Usage(page)", C_HUGEPAGES }, { "Chip", C_CHIP },
	{ "Phy-ID", C_PHY }, { "Device", C_DEVICE }, { "Bus-Id", C_BUS },
	{ "AICore(%)", C_AICORE }, { "Memory-Usage(MB)", C_MEMORY }, { "HBM-Usage(MB)", C_HBM },
};

/* Bounds of the layouts printed (3 cells of at most 3 columns): anything
 * wider is not a layout this parser knows. */
#define MAX_CELLS 4
#define MAX_COLS 6
#define MAX_WORDS 24

/* The columns of one line's cells ("| NPU  Name | Health | Power(W) ... |"). */
struct line_layout {
	size_t n_cells;
	size_t n_cols[MAX_CELLS];
	enum col col[MAX_CELLS][MAX_COLS];
};

static void say(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	for (char *c = why; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
}

/* The cells between the '|' of a table line; false for any other line.
 * *n is the count of cells, of which the first MAX_CELLS are stored: a
 * wider line (a newer process table) is a table line that fits no header. */
static bool cells_of(struct span line, struct span *cells, size_t *n)
{
	const char *p, *end;

	line = tt_trim(line);
	if (line.n < 2 || line.s[0] != '|' || line.s[line.n - 1] != '|')
		return false;
	*n = 0;
	p = line.s + 1;
	end = line.s + line.n - 1;
	while (p <= end) {
		const char *bar = memchr(p, '|', (size_t)(end - p) + 1);

		if (*n < MAX_CELLS)
			cells[*n] = tt_trim((struct span){ p, (size_t)(bar - p) });
		(*n)++;
		p = bar + 1;
	}
	return true;
}

/* The blank-separated words of a cell, "3389 / 65536" and "62308/ 65536"
 * taken as one ("3389/65536"): a used / total pair is one value. */
static bool words_of(struct span cell, struct span *w, size_t *n)
{
	size_t i = 0;

	*n = 0;
	while (i < cell.n) {
		size_t start;

		while (i < cell.n && (cell.s[i] == ' ' || cell.s[i] == '\t'))
			i++;
		if (i >= cell.n)
			break;
		start = i;
		while (i < cell.n && cell.s[i] != ' ' && cell.s[i] != '\t')
			i++;
		if (*n && (cell.s[start] == '/' || w[*n - 1].s[w[*n - 1].n - 1] == '/')) {
			w[*n - 1].n = (size_t)(cell.s + i - w[*n - 1].s);
			continue;
		}
		if (*n == MAX_WORDS)
			return false;
		w[(*n)++] = (struct span){ cell.s + start, i - start };
	}
	return true;
}

static bool span_is(struct span s, const char *name)
{
	return s.n == strlen(name) && strncasecmp(s.s, name, s.n) == 0;
}

static bool first_word_is(struct span cell, const char *name)
{
	struct span w[MAX_WORDS];
	size_t n;

	return words_of(cell, w, &n) && n && span_is(w[0], name);
}

/* A header line's columns; false (why says which) for a word that names
 * no column this parser knows, or a layout wider than any printed. */
static bool layout_of(struct span line, struct line_layout *l, char *why, size_t why_len)
{
	struct span cells[MAX_CELLS], w[MAX_WORDS];
	size_t nw;

	if (!cells_of(line, cells, &l->n_cells) || l->n_cells > MAX_CELLS) {
		say(why, why_len, "a header line of more than %d cells", MAX_CELLS);
		return false;
	}
	for (size_t c = 0; c < l->n_cells; c++) {
		if (!words_of(cells[c], w, &nw) || nw > MAX_COLS) {
			say(why, why_len, "a header cell of more than %d columns", MAX_COLS);
			return false;
		}
		l->n_cols[c] = nw;
		for (size_t k = 0; k < nw; k++) {
			size_t i = 0;

			while (i < sizeof(known) / sizeof(known[0]) && !span_is(w[k], known[i].name))
				i++;
			if (i == sizeof(known) / sizeof(known[0])) {
				say(why, why_len, "a column this reader does not know: \"%.*s\"",
				    (int)(w[k].n > 40 ? 40 : w[k].n), w[k].s);
				return false;
			}
			l->col[c][k] = known[i].col;
		}
	}
	return true;
}

static bool has_col(const struct line_layout *l, enum col col)
{
	for (size_t c = 0; c < l->n_cells; c++)
		for (size_t k = 0; k < l->n_cols[c]; k++)
			if (l->col[c][k] == col)
				return true;
	return false;
}

static bool whole_int(struct span w, int64_t *v)
{
	for (size_t i = 0; i < w.n; i++)
		if (!isdigit((unsigned char)w.s[i]))
			return false;
	return w.n > 0 && w.n < 10 && tt_int(w, v);
}

/* A number and nothing else ("98.1"); NAN for "-", "NA" or anything else. */
static double whole_double(struct span w)
{
	char buf[32], *end;
	double v;

	if (!w.n || w.n >= sizeof(buf))
		return NAN;
	memcpy(buf, w.s, w.n);
	buf[w.n] = '\0';
	v = strtod(buf, &end);
	return end == buf + w.n && isfinite(v) ? v : NAN;
}

/* Set the value of one column; false when a number column is no number. */
static bool set_col(struct npu_smi_row *r, enum col col, struct span v, bool *nomem)
{
	char **text = NULL;

	switch (col) {
	case C_NPU:
		return whole_int(v, &r->npu_id);
	case C_CHIP:
		return whole_int(v, &r->chip_id);
	case C_PHY:
		return whole_int(v, &r->phy_id);
	case C_POWER:
		r->power_w = whole_double(v);
		return true;
	case C_TEMP:
		r->temp_c = whole_double(v);
		return true;
	case C_NAME:
		text = &r->name;
		break;
	case C_HEALTH:
		text = &r->health;
		break;
	case C_BUS:
		text = &r->bus_id;
		break;
	default:
		return true;	/* known, not kept */
	}
	if (tt_set(text, v) < 0)
		*nomem = true;
	return !*nomem;
}

/* One line of a chip against its header line; false when it does not fit
 * (why says so), with *nomem when out of memory. */
static bool read_line(struct span line, const struct line_layout *l, struct npu_smi_row *r,
		      bool *nomem, char *why, size_t why_len)
{
	struct span cells[MAX_CELLS], w[MAX_WORDS];
	size_t n_cells, nw;

	if (!cells_of(line, cells, &n_cells) || n_cells != l->n_cells)
		goto bad;
	for (size_t c = 0; c < n_cells; c++) {
		size_t cols = l->n_cols[c];

		if (!words_of(cells[c], w, &nw))
			goto bad;
		/* a name of several words: the rest of its cell when last */
		if (nw > cols && cols && l->col[c][cols - 1] == C_NAME) {
			w[cols - 1].n = (size_t)(w[nw - 1].s + w[nw - 1].n - w[cols - 1].s);
			nw = cols;
		}
		if (nw != cols)
			goto bad;
		for (size_t k = 0; k < cols; k++)
			if (!set_col(r, l->col[c][k], w[k], nomem))
				goto bad;
	}
	return true;
bad:
	if (!*nomem)
		say(why, why_len, "a line that does not fit the header: \"%.*s\"",
		    (int)(tt_trim(line).n > 100 ? 100 : tt_trim(line).n), tt_trim(line).s);
	return false;
}

static void row_clear(struct npu_smi_row *r)
{
	free(r->name);
	free(r->health);
	free(r->bus_id);
}

void npu_smi_rows_free(struct npu_smi_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		row_clear(&rows[i]);
	free(rows);
}

static int fail(struct npu_smi_row **rows, size_t *n, int rc)
{
	npu_smi_rows_free(*rows, *n);
	*rows = NULL;
	*n = 0;
	return rc;
}

int npu_smi_parse_table(const char *buf, size_t len, struct npu_smi_row **rows, size_t *n,
			char *why, size_t why_len)
{
	struct line_layout head[2];
	struct npu_smi_row cur = { NA, NA, NA, NULL, NULL, NULL, NAN, NAN };
	struct span line, cells[MAX_CELLS];
	size_t cap = 0, n_cells;
	int state = 0;	/* 0, 1: header lines seen; 2: a chip's first line next; 3: its second */
	bool nomem = false;

	*rows = NULL;
	*n = 0;
	for (const char *p = buf, *end = buf + len; tt_next_line(&p, end, &line);) {
		struct npu_smi_row *g;

		if (!cells_of(line, cells, &n_cells)) {
			struct span t = tt_trim(line);

			/* a chip's line cut short (output cut off) is no border */
			if (state >= 2 && t.n && t.s[0] == '|') {
				say(why, why_len, "a table line cut short: \"%.*s\"",
				    (int)(t.n > 100 ? 100 : t.n), t.s);
				if (state == 3)
					row_clear(&cur);
				return fail(rows, n, -EPROTO);
			}
			continue;	/* a border (+---+) or text around the table */
		}
		if (state < 2) {
			if (state == 0 && !first_word_is(cells[0], "NPU"))
				continue;	/* the version line above the header */
			if (!layout_of(line, &head[state], why, why_len))
				return fail(rows, n, -EPROTO);
			if (++state == 2 && (!has_col(&head[0], C_NPU) || !has_col(&head[1], C_CHIP))) {
				say(why, why_len, "a header without an NPU or a Chip column");
				return fail(rows, n, -EPROTO);
			}
			continue;
		}
		if (state == 2) {
			struct span w[MAX_WORDS];
			size_t nw;
			int64_t id;

			/* the table ends where a line starts with no NPU id (the
			 * process table's header, "No running processes ...") */
			if (!words_of(cells[0], w, &nw) || !nw || !whole_int(w[0], &id))
				break;
			cur = (struct npu_smi_row){ NA, NA, NA, NULL, NULL, NULL, NAN, NAN };
			if (!read_line(line, &head[0], &cur, &nomem, why, why_len))
				goto bad_row;
			state = 3;
			continue;
		}
		if (!read_line(line, &head[1], &cur, &nomem, why, why_len))
			goto bad_row;
		g = growbuf_reserve(*rows, &cap, *n + 1, sizeof(*g));
		if (!g) {
			nomem = true;
			goto bad_row;
		}
		*rows = g;
		g[(*n)++] = cur;
		state = 2;
	}
	if (state < 2) {
		if (state == 0)
			say(why, why_len, "no table header (a line \"| NPU  Name | Health | ...\")");
		else
			say(why, why_len, "the header's second line is missing");
		return fail(rows, n, -EPROTO);
	}
	if (state == 3) {
		row_clear(&cur);
		say(why, why_len, "the table ends between the two lines of a chip");
		return fail(rows, n, -EPROTO);
	}
	return 0;
bad_row:
	row_clear(&cur);
	return fail(rows, n, nomem ? -ENOMEM : -EPROTO);
}
