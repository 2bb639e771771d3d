#include "npu_smi_parse.h"
#include "tool_text.h"
#include "../model/inventory.h"
#include "../model/growbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The next blank-separated word of *s. */
static bool next_word(struct span *s, struct span *w)
{
	*s = tt_trim(*s);
	if (!s->n)
		return false;
	w->s = s->s;
	w->n = 0;
	while (w->n < s->n && s->s[w->n] != ' ' && s->s[w->n] != '\t')
		w->n++;
	s->s += w->n;
	s->n -= w->n;
	return true;
}

static bool whole_int(struct span w, int64_t *v)
{
	for (size_t i = 0; i < w.n; i++)
		if (!isdigit((unsigned char)w.s[i]))
			return false;
	return w.n > 0 && w.n < 10 && tt_int(w, v);
}

void npu_smi_chips_free(struct npu_smi_chip *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(rows[i].name);
	free(rows);
}

/* The columns of `npu-smi info -m`, each named by one to three words. */
enum list_col { L_NPU, L_SLOT, L_CHIP, L_LOGIC, L_PHY, L_NAME };

static const struct {
	const char *words[3];
	enum list_col col;
} list_names[] = {
	{ { "Chip", "Logic", "ID" }, L_LOGIC }, { { "Chip", "Phy-ID" }, L_PHY },
	{ { "Chip", "Name" }, L_NAME }, { { "Chip", "ID" }, L_CHIP },
	{ { "NPU", "ID" }, L_NPU }, { { "Slot", "ID" }, L_SLOT },
};

#define LIST_MAX_COLS 6

struct list_layout {
	enum list_col col[LIST_MAX_COLS];
	size_t n;
};

/* The column whose words start rest (case ignored), taking them off rest. */
static bool take_name(struct span *rest, enum list_col *col)
{
	for (size_t i = 0; i < sizeof(list_names) / sizeof(list_names[0]); i++) {
		struct span r = *rest, w;
		size_t k = 0;

		while (k < 3 && list_names[i].words[k] && next_word(&r, &w) &&
		       w.n == strlen(list_names[i].words[k]) &&
		       strncasecmp(w.s, list_names[i].words[k], w.n) == 0)
			k++;
		if (k < 3 && list_names[i].words[k])
			continue;
		*rest = r;
		*col = list_names[i].col;
		return true;
	}
	return false;
}

/* The header line: it starts "NPU ID"; 1 read, 0 not a header, -EPROTO
 * for a header naming what this parser does not know (why says it). */
static int list_header(struct span line, struct list_layout *l, char *why, size_t why_len)
{
	struct span rest = line, w;
	bool has[L_NAME + 1] = { false };

	if (!next_word(&rest, &w) || w.n != 3 || strncasecmp(w.s, "NPU", 3) != 0)
		return 0;
	rest = line;
	l->n = 0;
	while (tt_trim(rest).n) {
		struct span at = tt_trim(rest);
		enum list_col col;

		if (l->n == LIST_MAX_COLS || !take_name(&rest, &col) || has[col]) {
			snprintf(why, why_len, "a column this reader does not know in the header: "
				 "\"%.*s\"", (int)(at.n > 40 ? 40 : at.n), at.s);
			for (char *c = why; *c; c++)
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					*c = '?';
			return -EPROTO;
		}
		has[col] = true;
		l->col[l->n++] = col;
	}
	if (!has[L_NPU] || !has[L_CHIP] || !has[L_NAME] || l->col[l->n - 1] != L_NAME) {
		snprintf(why, why_len, "a header without NPU ID, Chip ID and, last, Chip Name");
		return -EPROTO;
	}
	return 1;
}

/* One row under the header, *name the rest of the line; false when its
 * NPU ID or Chip ID is no number. */
static bool list_row(struct span line, const struct list_layout *l, struct npu_smi_chip *c,
		     struct span *name)
{
	struct span rest = line, w;

	for (size_t k = 0; k + 1 < l->n; k++) {
		int64_t v;

		if (!next_word(&rest, &w))
			return false;
		if (!whole_int(w, &v))
			v = NA;	/* "-": a chip without that id (the MCU) */
		switch (l->col[k]) {
		case L_NPU:
			c->npu_id = v;
			break;
		case L_CHIP:
			c->chip_id = v;
			break;
		case L_LOGIC:
			c->logic_id = v;
			break;
		case L_PHY:
			c->phy_id = v;
			break;
		case L_SLOT:
			c->slot_id = v;
			break;
		case L_NAME:
			break;
		}
	}
	*name = rest;
	return !IS_NA(c->npu_id) && !IS_NA(c->chip_id);
}

int npu_smi_parse_list(const char *buf, size_t len, struct npu_smi_chip **rows, size_t *n,
		       struct npu_smi_list_cols *cols, char *why, size_t why_len)
{
	struct list_layout l = { .n = 0 };
	struct span line;
	size_t cap = 0;

	*rows = NULL;
	*n = 0;
	*cols = (struct npu_smi_list_cols){ false, false, false };
	for (const char *p = buf, *end = buf + len; tt_next_line(&p, end, &line);) {
		struct npu_smi_chip c = { NA, NA, NA, NA, NA, NULL }, *g;
		struct span name;
		int h;

		if (!l.n) {
			h = list_header(line, &l, why, why_len);
			if (h < 0)
				return h;
			for (size_t k = 0; h && k < l.n; k++) {
				cols->logic |= l.col[k] == L_LOGIC;
				cols->phy |= l.col[k] == L_PHY;
				cols->slot |= l.col[k] == L_SLOT;
			}
			continue;
		}
		if (!list_row(line, &l, &c, &name))
			continue;
		g = growbuf_reserve(*rows, &cap, *n + 1, sizeof(*g));
		if (g)
			*rows = g;
		if (!g || !(c.name = tt_dup(name))) {
			npu_smi_chips_free(*rows, *n);
			*rows = NULL;
			*n = 0;
			return -ENOMEM;
		}
		g[(*n)++] = c;
	}
	if (!l.n) {
		snprintf(why, why_len, "no header line (\"NPU ID  Chip ID ...\")");
		return -EPROTO;
	}
	return 0;
}

void npu_smi_board_free(struct npu_smi_board *b)
{
	free(b->bus_info);
	free(b->fw_version);
	free(b->sw_version);
	free(b->pci_device_id);
	memset(b, 0, sizeof(*b));
}

int npu_smi_parse_board(const char *buf, size_t len, struct npu_smi_board *b)
{
	static const struct tt_field keys[] = {
		{ "PCIe Bus Info", offsetof(struct npu_smi_board, bus_info) },
		{ "Firmware Version", offsetof(struct npu_smi_board, fw_version) },
		{ "Software Version", offsetof(struct npu_smi_board, sw_version) },
		{ "PCI Device ID", offsetof(struct npu_smi_board, pci_device_id) },
	};
	struct span line, k, v;
	int rc = -ENODATA, set;

	for (const char *p = buf, *end = buf + len; tt_next_line(&p, end, &line);) {
		if (!tt_split(line, ':', &k, &v) || !v.n)
			continue;
		set = tt_set_field(keys, sizeof(keys) / sizeof(keys[0]), b, k, v);
		if (set < 0)
			return set;
		if (set)
			rc = 0;
	}
	return rc;
}
