/* libFuzzer target: transceiver EEPROM decoders.  Built with clang
 * -fsanitize=fuzzer (RD_FUZZ=ON); replay_main.c runs the saved corpus
 * under gcc as an ordinary test.
 *
 * Input: byte 0 picks the layout.
 *   bit 0 set:   the rest is a legacy flat ioctl dump (lower page first).
 *   bit 0 clear: byte 1 = length of the lower page that follows, then reads
 *                of 5-byte header {i2c (bit 0: 0x50/0x51), page, bank,
 *                offset, len} + len bytes, until the input ends.
 * Every buffer is copied to a heap block of exactly its size, so a read
 * past any end is caught by ASan even when replayed from a larger buffer. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eeprom/module.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t *dup_exact(const uint8_t *p, size_t n)
{
	uint8_t *b = malloc(n ? n : 1);

	if (b && n)
		memcpy(b, p, n);
	return b;
}

static void check_text(const char s[17])
{
	size_t n = strnlen(s, 17);

	if (n > 16)
		abort();
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			abort();
	if (n && (s[0] == ' ' || s[n - 1] == ' '))
		abort();
}

static void check(int rc, const struct module_info *m)
{
	struct module_dom_status st;
	unsigned lanes_or = 0;
	int n;

	if (rc != 0 && rc != -EINVAL && rc != -EOPNOTSUPP && rc != -EBADMSG)
		abort();
	if (!m->type || m->id < -1 || m->id > 255 || (rc == -EINVAL && m->id != -1))
		abort();
	check_text(m->vendor);
	check_text(m->part);
	check_text(m->serial);
	if (m->lanes < 0 || m->lanes > MODULE_MAX_LANES)
		abort();
	n = module_dom_check(m, &st);
	if (n < 0 || n > 2 + 3 * MODULE_MAX_LANES)
		abort();
	/* a lower page shorter than its layout is unusable: no DOM facts */
	if (rc == -EBADMSG && (n != 0 || m->lanes != 0))
		abort();
	for (int l = 0; l < MODULE_MAX_LANES; l++)
		lanes_or |= st.lane[l];
	if ((st.flags & ~0xffu) != lanes_or || (n == 0) != (st.flags == 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct module_pages pages;
	uint8_t *bufs[MODULE_MAX_PAGES + 1] = { 0 };
	struct module_info m;
	size_t pos, lower_len, nb = 0;

	if (size < 1)
		return 0;

	if (data[0] & 1) {
		uint8_t *flat = dup_exact(data + 1, size - 1);

		if (!flat)
			return 0;
		check(module_decode(flat, size - 1, NULL, &m), &m);
		free(flat);
		return 0;
	}

	if (size < 2)
		return 0;
	lower_len = data[1];
	pos = 2;
	if (lower_len > size - pos)
		lower_len = size - pos;
	bufs[nb] = dup_exact(data + pos, lower_len);
	if (!bufs[nb])
		return 0;
	nb++;
	pos += lower_len;

	module_pages_init(&pages);
	while (pos + 5 <= size && pages.n < MODULE_MAX_PAGES) {
		const uint8_t *h = data + pos;
		size_t len = h[4];
		uint8_t *b;

		pos += 5;
		if (len > size - pos)
			len = size - pos;
		b = dup_exact(data + pos, len);
		if (!b)
			break;
		bufs[nb++] = b;
		pos += len;
		if (module_pages_add(&pages, (h[0] & 1) ? MODULE_I2C_A2 : MODULE_I2C_A0, h[1],
				     h[2], h[3], b, len) < 0) {
			/* what the API refuses, a caller could still fill in by hand */
			struct module_page *e = &pages.page[pages.n++];

			e->i2c = (h[0] & 1) ? MODULE_I2C_A2 : MODULE_I2C_A0;
			e->page = h[1];
			e->bank = h[2];
			e->offset = h[3];
			e->data = b;
			e->len = len;
		}
	}

	check(module_decode(bufs[0], lower_len, &pages, &m), &m);
	check(module_decode(NULL, 0, &pages, &m), &m);
	for (size_t i = 0; i < nb; i++)
		free(bufs[i]);
	return 0;
}
