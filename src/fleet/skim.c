/* A validating JSON scanner that copies as it goes.  The grammar and the
 * limits are jansson's (load.c of jansson 2.14), so a text passes here
 * exactly when json_loadb(text, 0) would take it: tests/fuzz/fuzz_skim.c
 * holds the two against each other. */
#include "skim.h"
#include "../model/hex_digit.h"
#include "../model/growbuf.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SKIM_MAX_DEPTH 2048	/* jansson's JSON_PARSER_MAX_DEPTH */
#define SKIM_MAX_DROP 128	/* drop keys looked at; more are ignored */

const char *const fleet_skim_bulk[] = {
	"counters", "hw_counters", "ethtool_stats", "module", "dscp_map", "pfc_pause_tx",
	"pfc_pause_rx", "gids", "upstream", "gpus", "affinity",
	/* a link's FEC statistics (link.fec.stats) */
	"stats",
	/* an Ascend NPU port's counters, transceiver readings, link-change log */
	"stat", "optical", "link_changes", NULL,
};

/* Dropped by key at any depth: a transceiver's thresholds named like its
 * readings (thresholds.temp_c) go with them, and thresholds are fixed by
 * its part number, which stays. */
const char *const fleet_skim_volatile[] = {
	/* a NIC port's counters and link-change count */
	"counters", "hw_counters", "ethtool_stats", "pfc_pause_tx", "pfc_pause_rx",
	"carrier_changes",
	/* a link's FEC statistics (link.fec.stats): counters too */
	"stats",
	/* a transceiver's readings (NIC module, NPU optical): not its vendor,
	 * part, serial or loss-of-signal flags */
	"temp_c", "vcc_v", "temperature_c", "vcc_mv", "tx_bias_ma", "tx_power_mw",
	"rx_power_mw", "snr_db",
	/* an Ascend NPU port's counters (hccn_tool -stat) and link-change
	 * count, log and 24-hour window */
	"stat", "link_up_count", "link_changes", "link_downs_24h",
	/* what a finding observed quotes readings ("lane 3 Rx power 0.02
	 * mW"); the finding stays content by id, subject and severity */
	"observed",
	"time", NULL,
};

/* The counters fleet/counters.c keeps as deltas: a NIC port's, and an
 * Ascend NPU port's (hccn_tool -stat).  Ingest needs them; the history
 * and the facts do not. */
#define SKIM_COUNTERS "counters", "hw_counters", "ethtool_stats", "carrier_changes", "stat", \
	"stats"

/* Every key no fleet fact, check or history reads (fleet/fields.c,
 * facts.c, record.c, history.c; "gpus" is read by fleet_machine), but the
 * counters.  A key read there must not be here: the record fuzz target
 * compares the facts of the slim and the whole text. */
#define SKIM_DROP_BUT_COUNTERS \
	/* the bulk: transceiver pages, PCIe path, GPUs, placement */ \
	"module", "dscp_map", "upstream", "affinity", "pfc_pause_tx", "pfc_pause_rx", \
	/* NIC and port details */ \
	/* (board_id stays: fleet/firmware.c reads each board's PSID) */ \
	"node_guid", "sys_image_guid", "port_guid", "node_desc", "hca_type", \
	"uverbs", "uverbs_dev", \
	"netdev_parent", "phys_state", "lanes", "lane_speed", "lid", "sm_lid", "max_mtu", \
	"netdev_operstate", "netdev_speed_mbps", "bond_slaves", "gid", \
	"subsystem_vendor", "subsystem_device", "class", "max_speed_gts", "max_width", \
	"numa_node", "bdf", \
	/* findings: only id and subject are compared */ \
	"observed", "expected", "why", "fix", \
	/* host ("modules" stays: driver_stack.modules is the rdma_modules \
	 * fact) */ \
	"iommu", "profile_reason", \
	/* an Ascend NPU port: transceiver readings, link-change log (the \
	 * fleet reads its firmware, software, link, speed and PFC) */ \
	"optical", "link_changes"

const char *const fleet_skim_drop[] = { SKIM_COUNTERS, SKIM_DROP_BUT_COUNTERS, NULL };

const char *const fleet_skim_ingest[] = { SKIM_DROP_BUT_COUNTERS, NULL };

struct skim {
	const unsigned char *p, *start, *end;
	const char *const *drop;
	size_t n_drop, drop_len[SKIM_MAX_DROP];
	const unsigned char *copy_from;	/* input not yet copied out starts here */
	char *out;
	size_t used, cap;
	int depth;
	int dropping;		/* > 0: inside a dropped value (no drops within) */
	int whole;		/* > 0: inside a record's fabric, kept whole */
	const char *error;
	const unsigned char *error_at;
	bool oom;
};

static bool fail(struct skim *s, const char *what)
{
	if (!s->error) {
		s->error = what;
		s->error_at = s->p;
	}
	return false;
}

static bool emit(struct skim *s, const void *bytes, size_t n)
{
	char *grown = growbuf_reserve(s->out, &s->cap, s->used + n + 1, 1);

	if (!grown) {
		s->oom = true;
		return fail(s, "out of memory");
	}
	s->out = grown;
	memcpy(s->out + s->used, bytes, n);
	s->used += n;
	return true;
}

static void skip_ws(struct skim *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

/* Four hex digits after "\u" at p; -1 if not. */
static int32_t hex4(const unsigned char *p, const unsigned char *end)
{
	int32_t v = 0;

	if (end - p < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		int h = hex_digit(p[i]);

		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/* The length of a valid UTF-8 sequence at p (2..4), 0 if invalid: no
 * overlong forms, no surrogates, nothing past U+10FFFF. */
static int utf8_len(const unsigned char *p, const unsigned char *end)
{
	unsigned char c = p[0];
	int n;
	uint32_t v;

	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		v = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		v = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		v = c & 0x07;
	} else {
		return 0;
	}
	if (end - p < n)
		return 0;
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && v < 0x800) || (n == 4 && v < 0x10000) || v > 0x10ffff ||
	    (v >= 0xd800 && v <= 0xdfff))
		return 0;
	return n;
}

/* Bytes that need a closer look inside a string: quote, backslash,
 * control characters, and the start of every multi-byte sequence. */
static bool special(unsigned char c)
{
	return c == '"' || c == '\\' || c < 0x20 || c >= 0x80;
}

/* A string at s->p (on its opening quote).  is_drop: when set, whether
 * the string is one of the drop keys. */
static bool scan_string(struct skim *s, bool *is_drop)
{
	const unsigned char *begin = s->p;

	s->p++;
	for (;;) {
		while (s->p < s->end && !special(*s->p))
			s->p++;
		if (s->p >= s->end)
			return fail(s, "premature end of input in a string");
		unsigned char c = *s->p;

		if (c == '"')
			break;
		if (c < 0x20)
			return fail(s, "control character in a string");
		if (c == '\\') {
			int32_t u;

			if (s->p + 1 >= s->end)
				return fail(s, "premature end of input in a string");
			switch (s->p[1]) {
			case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
				s->p += 2;
				continue;
			case 'u':
				break;
			default:
				return fail(s, "invalid escape in a string");
			}
			u = hex4(s->p + 2, s->end);
			if (u < 0)
				return fail(s, "invalid \\u escape in a string");
			s->p += 6;
			if (u == 0)
				return fail(s, "\\u0000 is not allowed in a string");
			if (u >= 0xdc00 && u <= 0xdfff)
				return fail(s, "invalid Unicode escape (a lone low surrogate)");
			if (u >= 0xd800 && u <= 0xdbff) {
				int32_t low = s->end - s->p >= 2 && s->p[0] == '\\' && s->p[1] == 'u' ?
					      hex4(s->p + 2, s->end) : -1;

				if (low < 0xdc00 || low > 0xdfff)
					return fail(s, "invalid Unicode escape (a lone high surrogate)");
				s->p += 6;
			}
			continue;
		}
		if (c < 0x80) {
			s->p++;
			continue;
		}
		int n = utf8_len(s->p, s->end);

		if (!n)
			return fail(s, "invalid UTF-8 in a string");
		s->p += n;
	}
	s->p++;
	if (is_drop) {
		size_t n = (size_t)(s->p - begin) - 2;

		/* first byte and length first: most keys are no drop key */
		*is_drop = false;
		for (size_t i = 0; i < s->n_drop && !*is_drop; i++)
			*is_drop = s->drop_len[i] == n && s->drop[i][0] == (char)begin[1] &&
				   memcmp(s->drop[i], begin + 1, n) == 0;
	}
	return true;
}

static bool scan_number(struct skim *s)
{
	const unsigned char *begin = s->p;
	bool real = false;
	char small[64], *copy = small;
	size_t n;

	if (s->p < s->end && *s->p == '-')
		s->p++;
	if (s->p >= s->end)
		return fail(s, "premature end of input in a number");
	if (*s->p == '0') {
		s->p++;
		if (s->p < s->end && *s->p >= '0' && *s->p <= '9')
			return fail(s, "a number with a leading zero");
	} else if (*s->p >= '1' && *s->p <= '9') {
		while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
			s->p++;
	} else {
		return fail(s, "invalid token");
	}
	if (s->p < s->end && *s->p == '.') {
		real = true;
		s->p++;
		if (s->p >= s->end || *s->p < '0' || *s->p > '9')
			return fail(s, "a number without digits after its point");
		while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
			s->p++;
	}
	if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
		real = true;
		s->p++;
		if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
			s->p++;
		if (s->p >= s->end || *s->p < '0' || *s->p > '9')
			return fail(s, "a number without digits in its exponent");
		while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
			s->p++;
	}
	/* jansson refuses what does not fit: integers beyond 64 bits, reals
	 * beyond a double.  Up to 18 digits always fit; a real without an
	 * exponent overflows only past 308 digits. */
	n = (size_t)(s->p - begin);
	if ((!real && n <= 18) || (real && n < 300 && !memchr(begin, 'e', n) &&
				   !memchr(begin, 'E', n)))
		return true;
	if (n >= sizeof(small)) {
		copy = malloc(n + 1);
		if (!copy) {
			s->oom = true;
			return fail(s, "out of memory");
		}
	}
	memcpy(copy, begin, n);
	copy[n] = '\0';
	errno = 0;
	if (real) {
		double d = strtod(copy, NULL);

		if ((d == HUGE_VAL || d == -HUGE_VAL) && errno == ERANGE) {
			if (copy != small)
				free(copy);
			s->p = begin;
			return fail(s, "real number overflow");
		}
	} else {
		(void)strtoll(copy, NULL, 10);
		if (errno == ERANGE) {
			if (copy != small)
				free(copy);
			s->p = begin;
			return fail(s, "too big integer");
		}
	}
	if (copy != small)
		free(copy);
	return true;
}

static bool scan_value(struct skim *s);

static bool scan_literal(struct skim *s, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
		return fail(s, "invalid token");
	s->p += n;
	return true;
}

/* An object; a member whose key is to be dropped leaves the copy whole:
 * key, value and the comma that joined it to the members kept. */
static bool scan_object(struct skim *s)
{
	bool first = true, kept_any = false;

	s->p++;
	for (;;) {
		const unsigned char *member;	/* its comma, or its key when first */
		const unsigned char *key;
		bool drop = false, fabric;

		skip_ws(s);
		if (s->p >= s->end)
			return fail(s, "premature end of input in an object");
		member = s->p;
		if (*s->p == '}' && first)
			break;
		if (!first) {
			if (*s->p == '}')
				break;
			if (*s->p != ',')
				return fail(s, "',' or '}' expected");
			s->p++;
			skip_ws(s);
			if (s->p >= s->end)
				return fail(s, "premature end of input in an object");
		}
		if (*s->p != '"')
			return fail(s, "string or '}' expected");
		key = s->p;
		if (!scan_string(s, s->n_drop && !s->dropping && !s->whole ? &drop : NULL))
			return false;
		/* a record's fabric reports are its own documents, stored as
		 * they came: no key of the check's is dropped inside them */
		fabric = s->depth == 1 && s->p - key == 8 && memcmp(key, "\"fabric\"", 8) == 0;
		skip_ws(s);
		if (s->p >= s->end)
			return fail(s, "premature end of input in an object");
		if (*s->p != ':')
			return fail(s, "':' expected");
		s->p++;
		skip_ws(s);
		if (drop) {
			/* out goes what came before the member; the member is
			 * checked all the same */
			if (!emit(s, s->copy_from, (size_t)(member - s->copy_from)))
				return false;
			s->dropping++;
			if (!scan_value(s))
				return false;
			s->dropping--;
			s->copy_from = s->p;
		} else {
			/* the first member kept after dropped ones loses its comma */
			if (!first && !kept_any && !s->dropping) {
				if (!emit(s, s->copy_from, (size_t)(member - s->copy_from)))
					return false;
				s->copy_from = member + 1;
			}
			kept_any = true;
			s->whole += fabric;
			if (!scan_value(s))
				return false;
			s->whole -= fabric;
		}
		first = false;
	}
	s->p++;
	return true;
}

static bool scan_array(struct skim *s)
{
	bool first = true;

	s->p++;
	for (;;) {
		skip_ws(s);
		if (s->p >= s->end)
			return fail(s, "premature end of input in an array");
		if (*s->p == ']')
			break;
		if (!first) {
			if (*s->p != ',')
				return fail(s, "',' or ']' expected");
			s->p++;
			skip_ws(s);
		}
		first = false;
		if (!scan_value(s))
			return false;
	}
	s->p++;
	return true;
}

static bool scan_value(struct skim *s)
{
	bool ok;

	skip_ws(s);
	if (s->p >= s->end)
		return fail(s, "premature end of input");
	switch (*s->p) {
	case '{':
	case '[':
		if (++s->depth > SKIM_MAX_DEPTH)
			return fail(s, "maximum parsing depth reached");
		ok = *s->p == '{' ? scan_object(s) : scan_array(s);
		s->depth--;
		return ok;
	case '"':
		return scan_string(s, NULL);
	case 't':
		return scan_literal(s, "true");
	case 'f':
		return scan_literal(s, "false");
	case 'n':
		return scan_literal(s, "null");
	default:
		return scan_number(s);
	}
}

/* Line and column (1-based, in bytes) of a position, for the message. */
static void where(const struct skim *s, const unsigned char *at, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (const unsigned char *p = s->start; p < at && p < s->end; p++) {
		if (*p == '\n') {
			++*line;
			*col = 1;
		} else {
			++*col;
		}
	}
}

int fleet_skim(const char *text, size_t len, const char *const *drop, char **slim,
	       size_t *slim_len, char *why, size_t why_len)
{
	struct skim s = {
		.p = (const unsigned char *)text, .start = (const unsigned char *)text,
		.end = (const unsigned char *)text + len, .drop = drop,
		.copy_from = (const unsigned char *)text,
	};
	int line, col;

	*slim = NULL;
	*slim_len = 0;
	for (; drop && s.n_drop < SKIM_MAX_DROP && drop[s.n_drop]; s.n_drop++)
		s.drop_len[s.n_drop] = strlen(drop[s.n_drop]);
	s.cap = len / 2 + 64;
	s.out = malloc(s.cap);
	if (!s.out)
		return -ENOMEM;
	skip_ws(&s);
	/* RFC 8259 has no place for a NUL byte; jansson takes some (it ends
	 * its input at one after a number), and a stored text must not hold
	 * one: refused, so here is stricter than jansson */
	if (memchr(text, '\0', len)) {
		s.p = memchr(text, '\0', len);
		fail(&s, "a NUL byte");
	} else if (s.p < s.end && *s.p != '{' && *s.p != '[')
		fail(&s, "'[' or '{' expected");
	else if (scan_value(&s)) {
		skip_ws(&s);
		if (s.p != s.end)
			fail(&s, "end of file expected");
	}
	if (!s.error && emit(&s, s.copy_from, (size_t)(s.end - s.copy_from))) {
		s.out[s.used] = '\0';
		*slim = s.out;
		*slim_len = s.used;
		return 0;
	}
	free(s.out);
	if (s.oom)
		return -ENOMEM;
	where(&s, s.error_at, &line, &col);
	snprintf(why, why_len, "line %d column %d: %s", line, col, s.error);
	return -1;
}
