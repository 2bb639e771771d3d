#include "npu_smi_parse.h"
#include "tool_text.h"
#include "../model/inventory.h"
#include "../model/growbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

/* The header of a listing with one row per die: "... Chip Logic ID  Chip
 * Phy-ID  Chip Name" (matched with case and blanks ignored). */
static bool names_phy_column(struct span line)
{
	static const char want[] = "chipphy-id";
	size_t k = 0;

	for (size_t i = 0; i < line.n; i++) {
		char ch = (char)tolower((unsigned char)line.s[i]);

		if (ch == ' ' || ch == '\t')
			continue;
		k = ch == want[k] ? k + 1 : (ch == want[0] ? 1 : 0);
		if (!want[k])
			return true;
	}
	return false;
}

int npu_smi_parse_list(const char *buf, size_t len, struct npu_smi_chip **rows, size_t *n,
		       bool *phy_column)
{
	struct span line;
	size_t cap = 0;

	*rows = NULL;
	*n = 0;
	*phy_column = false;
	for (const char *p = buf, *end = buf + len; tt_next_line(&p, end, &line);) {
		struct span rest = line, w;
		struct npu_smi_chip c = { NA, NA, NA, NA, NULL }, *g;

		if (!*n && !*phy_column && names_phy_column(line)) {
			*phy_column = true;
			continue;
		}
		if (!next_word(&rest, &w) || !whole_int(w, &c.npu_id) ||
		    !next_word(&rest, &w) || !whole_int(w, &c.chip_id) || !next_word(&rest, &w))
			continue;
		if (!whole_int(w, &c.logic_id))
			c.logic_id = NA;	/* "-": a chip without a logic id (MCU) */
		if (*phy_column) {
			if (!next_word(&rest, &w))
				continue;
			if (!whole_int(w, &c.phy_id))
				c.phy_id = NA;	/* "-" (MCU) */
		}
		g = growbuf_reserve(*rows, &cap, *n + 1, sizeof(*g));
		if (!g || !(c.name = tt_dup(rest))) {
			if (g)
				*rows = g;
			npu_smi_chips_free(*rows, *n);
			*rows = NULL;
			*n = 0;
			return -ENOMEM;
		}
		*rows = g;
		g[(*n)++] = c;
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
