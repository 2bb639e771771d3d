/* Machine profiles as a small INI file (docs/profiles.md): the parser,
 * the writer and the memory rules.
 *
 * libinih splits lines into sections and key = value pairs.  It does not
 * hand the handler a line number (Debian builds it without
 * INI_HANDLER_LINENO), so the text goes through our own line reader, which
 * counts lines, and inih calls the handler for a line before it asks for
 * the next one.  The reader also strips leading blanks (so inih never sees
 * an indented "continuation" line), spots [section] headers (inih says
 * nothing about a section without keys) and refuses NUL bytes, control
 * characters and lines too long for inih's buffer.
 *
 * Everything is collected first and applied afterwards, so that based_on
 * may stand anywhere in [profile]: the built-in profile is copied before
 * any other key is applied, whatever the order in the file.  Errors are
 * reported for the first offending line. */
#include "profile.h"
#include "ini_text.h"
#include "../model/growbuf.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

/* A profile is a page of text: anything bigger is not one. */
#define MAX_TEXT PROFILE_MAX_TEXT
/* Longest line we accept; inih's default buffer takes 200 bytes with the
 * newline and NUL, and profile_write stays well below it. */
#define MAX_LINE 190
#define MAX_WORD 64		/* name, model, one match alternative */
#define MAX_PHRASE 150		/* description, a match list */
#define QUOTE_MAX 40		/* of a bad value, in a message */

enum section { SEC_NONE = -1, SEC_PROFILE, SEC_RAIL, SEC_STORAGE, SEC_BAD, SEC_COUNT };

static const char *const section_names[] = { "profile", "rail", "storage" };

enum kind {
	K_NAME,		/* letters, digits, '.', '_', '-' */
	K_TEXT,		/* one line of free text */
	K_BASE,		/* a built-in profile's name */
	K_ALTS,		/* alternatives separated by commas, or any */
	K_MODEL,	/* a NIC model name, or any */
	K_INT,		/* a whole number in [min, max], or any */
	K_WIDTH,	/* a PCIe link width, or any */
	K_PCIE_SIZE,	/* a PCIe MaxPayload / MaxReadReq size, 128 to 4096, or any */
	K_GBPS,		/* Gb/s in [1, 3200], or any */
	K_BOOL,		/* yes / no */
	K_TRI,		/* yes / no / any */
	K_WORD,		/* one of words[], kept in its canonical spelling, or any */
	K_PATH,		/* PIX ... SYS as enum path_type, or any */
	K_RATIO,	/* a ratio above 0 and below 1 like 1e-12, or any (0) */
	K_PER_HOUR,	/* a count per hour above 0, or any (0) */
};

struct key {
	const char *name;
	int role;		/* in [rail] / [storage]; else in [profile] */
	enum kind kind;
	size_t off;		/* in struct profile or struct role_spec */
	int min, max, any;	/* K_INT: range, and the value that means any */
	const char *const *words;
	const char *expected;	/* "a number of Gb/s like 400" */
	const char *doc;	/* the comment profile_write puts above it */
};

/* key.role: 0 [profile], true [rail] and [storage], or this: [rail] only */
#define RAIL_ONLY 2
#define rail_only(k) ((k)->role == RAIL_ONLY)

static const char *const link_words[] = { "InfiniBand", "Ethernet", NULL };
static const char *const trust_words[] = { "dscp", "pcp", NULL };
/* in enum path_type order, from PATH_PIX */
static const char *const subnet_words[] = { "pairs", "one", "dies", NULL };
static const char *const path_words[] = { "PIX", "PXB", "PHB", "NODE", "SYS", NULL };

#define P(f) offsetof(struct profile, f)
#define R(f) offsetof(struct role_spec, f)

/* Keys of each section, in the order profile_write writes them. */
static const struct key keys[] = {
	{ "name", false, K_NAME, P(name), 0, 0, 0, NULL,
	  "a name like my-h100 (letters, digits, '.', '_', '-')",
	  "short name, shown in reports" },
	{ "description", false, K_TEXT, P(description), 0, 0, 0, NULL,
	  "one line of text", "one line for `rdmadoctor profiles`" },
	{ "based_on", false, K_BASE, P(based_on), 0, 0, 0, NULL,
	  "the name of a built-in profile",
	  "copy this built-in profile first; every key in this file overrides it" },
	{ "match_dmi", false, K_ALTS, P(match_dmi), 0, 0, 0, NULL,
	  "DMI product names separated by commas, or any",
	  "recognised by the DMI product name holding one of these (case and blanks ignored)" },
	{ "match_gpu", false, K_ALTS, P(match_gpu), 0, 0, 0, NULL,
	  "GPU models separated by commas, like H100, H200; or any",
	  "or by hardware: every GPU's model starts with one of these words" },
	{ "match_gpu_count", false, K_INT, P(match_gpu_count), 1, 64, 0, NULL,
	  "a number of GPUs like 8",
	  "... there are exactly this many GPUs" },
	{ "match_nic", false, K_ALTS, P(match_nic), 0, 0, 0, NULL,
	  "NIC models separated by commas, like ConnectX-7; or any",
	  "... and more than half the [rail] count of RDMA devices are one of these models "
	  "(any: exactly [rail] count of the [rail] link_layer)" },
	{ "grace", false, K_BOOL, P(grace), 0, 0, 0, NULL, "yes or no",
	  "Grace tray: GPUs reach the NICs over C2C, so PCIe placement is not judged" },
	{ "match_npu", false, K_ALTS, P(match_npu), 0, 0, 0, NULL,
	  "NPU models separated by commas, like Ascend 910; or any",
	  "or by its Ascend NPUs: every NPU's model is one of these (docs/ascend.md)" },
	{ "match_npu_count", false, K_INT, P(match_npu_count), 1, 64, 0, NULL,
	  "a number of NPUs like 8", "... there are exactly this many NPUs" },
	{ "npu_rate_gbps", false, K_GBPS, P(npu.rate_gbps), 0, 0, 0, NULL,
	  "a number of Gb/s like 100", "NPU RoCE port speed in Gb/s (hccn_tool -speed)" },
	{ "npu_pfc_priority", false, K_INT, P(npu.pfc_priority), 0, 7, -1, NULL,
	  "a priority from 0 to 7", "the priority that must have PFC on, on every NPU port" },
	{ "npu_subnets", false, K_WORD, P(npu.subnets), 0, 0, 0, subnet_words,
	  "pairs, one or dies",
	  "NPU port subnet plan: pairs (NPU 0&4, 1&5, 2&6, 3&7 share one), one, or dies "
	  "(the two dies of an NPU in different subnets; also checked unset)" },
	{ "fewer_rails", false, K_BOOL, P(fewer_rails), 0, 0, 0, NULL, "yes or no",
	  "fewer rails than GPUs on purpose: picked for datacenter GPUs only when named, "
	  "and a short network per GPU warns instead of failing" },
	{ "ber_max", false, K_RATIO, P(ber.max), 0, 0, 0, NULL, "a ratio like 1e-12",
	  "link.ber: bit error ratio after FEC (Ethernet) or on the link (InfiniBand) "
	  "a window may show; also sets how long a window must be" },
	{ "ber_pre_fec_kr4", false, K_RATIO, P(ber.pre_fec_kr4), 0, 0, 0, NULL,
	  "a ratio like 5e-5", "link.ber: pre-FEC bit error ratio RS(528,514) FEC is built for "
	  "(25 Gb/s lanes)" },
	{ "ber_pre_fec_kp4", false, K_RATIO, P(ber.pre_fec_kp4), 0, 0, 0, NULL,
	  "a ratio like 2.4e-4", "link.ber: pre-FEC bit error ratio RS(544,514) FEC is built "
	  "for (50 and 100 Gb/s PAM4 lanes)" },
	{ "ber_near", false, K_RATIO, P(ber.near), 0, 0, 0, NULL, "a fraction like 0.5",
	  "link.ber: warn when the pre-FEC ratio reaches this fraction of the FEC's limit" },
	{ "ib_symbol_errors_per_hour", false, K_PER_HOUR, P(ber.ib_symbol_per_hour), 0, 0, 0,
	  NULL, "a number like 10", "link.ber: InfiniBand symbol errors per hour a window may "
	  "show (any: only ber_max judges them)" },
	{ "ib_link_recoveries_per_hour", false, K_PER_HOUR, P(ber.ib_recovery_per_hour), 0, 0,
	  0, NULL, "a number like 1", "link.ber: InfiniBand link error recoveries per hour a "
	  "window may show (any: counters.errors judges each one)" },

	{ "count", true, K_INT, R(count), 0, 1024, -1, NULL,
	  "a number of RDMA devices like 8",
	  "RDMA devices (PCI functions, not cards or cages) of this role" },
	{ "model", true, K_MODEL, R(model_family), 0, 0, 0, NULL,
	  "a NIC model like ConnectX-7",
	  "NIC model family: the start of the model name" },
	{ "link_layer", true, K_WORD, R(link_layer), 0, 0, 0, link_words,
	  "InfiniBand or Ethernet",
	  "InfiniBand or Ethernet (RoCE); a firmware setting on VPI cards" },
	{ "rate_gbps", true, K_GBPS, R(rate_gbps), 0, 0, 0, NULL,
	  "a number of Gb/s like 400", "port rate in Gb/s, per port and direction" },
	{ "pcie_gen", true, K_INT, R(pcie_gen), 1, 6, 0, NULL,
	  "a PCIe generation like 5", "PCIe generation the NIC should train at" },
	{ "pcie_width", true, K_WIDTH, R(pcie_width), 0, 0, 0, NULL,
	  "a PCIe width like 16", "PCIe lanes the NIC should train at" },
	{ "pcie_max_read_request", true, K_PCIE_SIZE, R(pcie_mrrs), 0, 0, 0, NULL,
	  "a number of bytes like 4096",
	  "smallest PCIe MaxReadReq (bytes) each NIC function should have (no built-in "
	  "value: a site's or vendor's tuning figure)" },
	{ "pcie_relaxed_ordering", true, K_BOOL, R(pcie_relaxed_ordering), 0, 0, 0, NULL,
	  "yes or no", "yes: PCIe Relaxed Ordering (DevCtl RlxdOrd) must be on on each NIC "
	  "function; no: not judged" },
	{ "mtu", true, K_INT, R(mtu), 256, 65535, 0, NULL, "a number of bytes like 4096",
	  "InfiniBand: active MTU; Ethernet: the smallest netdev MTU (4200 carries "
	  "4096-byte RoCE packets)" },
	{ "pfc_priority", true, K_INT, R(pfc_priority), 0, 7, -1, NULL,
	  "a priority from 0 to 7", "the priority that must have PFC on (RoCE)" },
	{ "trust", true, K_WORD, R(trust), 0, 0, 0, trust_words, "dscp or pcp",
	  "QoS trust mode (RoCE)" },
	{ "ecn", true, K_TRI, R(ecn), 0, 0, 0, NULL, "yes, no or any",
	  "ECN on the RoCE priority, notification and reaction point" },
	{ "gpudirect", true, K_TRI, R(gpudirect), 0, 0, 0, NULL, "yes, no or any",
	  "GPUDirect RDMA (nvidia_peermem or dma-buf) required" },
	{ "gpus_per_nic", true, K_INT, R(gpus_per_nic), 1, 64, 0, NULL,
	  "a number of GPUs like 1", "most GPUs that may share one NIC" },
	{ "placement", true, K_PATH, R(placement), 0, 0, 0, path_words,
	  "PIX, PXB, PHB, NODE or SYS",
	  "worst acceptable path to its GPU: PIX, PXB, PHB, NODE or SYS" },
	{ "bw_floor_gbps", true, K_GBPS, R(bw_floor_gbps), 0, 0, 0, NULL,
	  "a number of Gb/s like 360", "bandwidth test floor in Gb/s, per port" },
	{ "gpu_gbps", true, K_GBPS, R(gpu_gbps), 0, 0, 0, NULL,
	  "a number of Gb/s like 400",
	  "network per GPU the machine is built for ([rail]; any: the GPU class's figure)" },
	{ "distinct_switches", RAIL_ONLY, K_TRI, R(distinct_switches), 0, 0, 0, NULL,
	  "yes, no or any",
	  "each rail reaches a different switch (rail-optimised cabling; [rail] only)" },
};

#define N_KEYS (sizeof(keys) / sizeof(keys[0]))

#undef P
#undef R

struct entry {
	int line;
	int sec;		/* enum section */
	char *key;		/* NULL: the [section] header itself */
	char *value;		/* the section name when sec is SEC_BAD */
};

struct pstate {
	struct ini_text src;	/* the text, and the line the reader handed out last */
	size_t pos0;		/* where line 1 starts (after a byte order mark) */
	int sec;		/* section of the lines that follow */
	struct entry *v;
	size_t n, cap;
	bool nomem;
	int bad_line;		/* the reader stopped here; 0 when it did not */
	char bad_msg[sizeof(((struct profile_error *)0)->message)];
	struct profile *out;
	struct profile_error *err;
	const struct profile_bases *bases;	/* where based_on looks; NULL: nowhere */
	int seen[SEC_COUNT][N_KEYS];	/* line a key was given on, 0 not */
};

static void set_msg(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static void set_msg(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, size, fmt, ap);

	/* a cut message still has to read as one */
	if (n < 0)
		snprintf(buf, size, "malformed profile");
	else if ((size_t)n >= size && size > 4)
		memcpy(buf + size - 4, "...", 4);
}

static int fail(struct profile_error *err, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct profile_error *err, int line, const char *fmt, ...)
{
	va_list ap;

	err->line = line;
	va_start(ap, fmt);
	set_msg(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void reader_fail(struct pstate *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void reader_fail(struct pstate *st, const char *fmt, ...)
{
	va_list ap;

	st->bad_line = st->src.line;
	va_start(ap, fmt);
	set_msg(st->bad_msg, sizeof(st->bad_msg), fmt, ap);
	va_end(ap);
}

/* A value as a message quotes it: short, so the message stays readable. */
static const char *quote(const char *s, char *buf, size_t size)
{
	size_t n = strlen(s);

	if (n < size && n <= QUOTE_MAX)
		return s;
	snprintf(buf, size, "%.*s...", QUOTE_MAX, s);
	return buf;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool push(struct pstate *st, int sec, const char *key, const char *value)
{
	struct entry *e;

	e = growbuf_reserve(st->v, &st->cap, st->n + 1, sizeof(*st->v));
	if (!e)
		return false;
	st->v = e;
	e = &st->v[st->n];
	e->line = st->src.line;
	e->sec = sec;
	e->key = key ? strdup(key) : NULL;
	e->value = strdup(value);
	if ((key && !e->key) || !e->value) {
		free(e->key);
		free(e->value);
		return false;
	}
	st->n++;
	return true;
}

/* A "[name]" line: which section follows.  Without a ']' inih reports the
 * line itself, and the section does not change. */
static void reader_section(struct pstate *st, const char *line, size_t n)
{
	const char *close = memchr(line, ']', n);
	const char *name = line + 1, *rest;
	size_t len;
	int sec = SEC_BAD;

	if (!close)
		return;
	for (rest = close + 1; rest < line + n && is_blank(*rest); rest++)
		;
	if (rest < line + n && *rest != ';' && *rest != '#') {
		reader_fail(st, "unexpected text after ']' in a section header");
		return;
	}
	while (name < close && is_blank(*name))
		name++;
	len = (size_t)(close - name);
	while (len && is_blank(name[len - 1]))
		len--;
	for (int i = SEC_PROFILE; i < SEC_BAD; i++)
		if (strlen(section_names[i]) == len && !memcmp(section_names[i], name, len))
			sec = i;
	st->sec = sec;
	if (sec == SEC_BAD) {
		char buf[MAX_LINE + 1];

		snprintf(buf, sizeof(buf), "%.*s", (int)len, name);
		if (!push(st, sec, NULL, buf))
			st->nomem = true;
	} else if (!push(st, sec, NULL, "")) {
		st->nomem = true;
	}
}

/* inih's line source: one line per call, counted, checked and with its
 * leading blanks gone. */
static char *reader(char *str, int num, void *stream)
{
	struct pstate *st = stream;
	const char *line;
	size_t n, max;
	int bad;

	if (st->bad_line || st->nomem || num < 3 || !ini_text_next(&st->src, &line, &n, &bad))
		return NULL;
	if (bad == 0) {
		reader_fail(st, "a NUL byte: a profile is text");
		return NULL;
	}
	if (bad > 0) {
		reader_fail(st, "control character 0x%02x: a profile is text", bad);
		return NULL;
	}
	max = num > 3 ? (size_t)num - 3 : 0;
	if (max > MAX_LINE)
		max = MAX_LINE;
	if (n > max) {
		reader_fail(st, "line longer than %zu characters", max);
		return NULL;
	}
	if (n && *line == '[')
		reader_section(st, line, n);
	if (st->bad_line || st->nomem)
		return NULL;
	memcpy(str, line, n);
	str[n] = '\n';
	str[n + 1] = '\0';
	return str;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct pstate *st = user;
	char buf[MAX_LINE + 1];
	size_t n;

	(void)section;	/* ours, from the reader, also knows the bad ones */
	/* '#' starts a comment after a blank too, not only ';' (inih's own) */
	for (n = 0; value[n]; n++)
		if (value[n] == '#' && (n == 0 || is_blank(value[n - 1])))
			break;
	while (n && is_blank(value[n - 1]))
		n--;
	snprintf(buf, sizeof(buf), "%.*s", (int)n, value);
	if (!push(st, st->sec, name, buf)) {
		st->nomem = true;
		return 0;
	}
	return 1;
}

static const struct key *find_key(const char *name)
{
	for (size_t i = 0; i < N_KEYS; i++)
		if (strcmp(keys[i].name, name) == 0)
			return &keys[i];
	return NULL;
}

static bool is_any(const char *v)
{
	return strcasecmp(v, "any") == 0;
}

static bool all_digits(const char *v)
{
	if (!*v)
		return false;
	for (; *v; v++)
		if (!isdigit((unsigned char)*v))
			return false;
	return true;
}

static int set_string(char **field, const char *v)
{
	char *copy = NULL;

	if (v) {
		copy = strdup(v);
		if (!copy)
			return -ENOMEM;
	}
	free(*field);
	*field = copy;
	return 0;
}

/* Checks shared by every text value. */
static int check_text(struct pstate *st, const struct entry *e, const struct key *k,
		      size_t max)
{
	char q[QUOTE_MAX + 4];

	if (strchr(e->value, ';') || strchr(e->value, '#'))
		return fail(st->err, e->line,
			    "%s: ';' and '#' start comments; leave them out of values", k->name);
	if (strlen(e->value) > max)
		return fail(st->err, e->line, "%s: '%s' is longer than %zu characters", k->name,
			    quote(e->value, q, sizeof(q)), max);
	return 0;
}

static int parse_name(struct pstate *st, const struct entry *e, const struct key *k)
{
	const char *v = e->value;
	char q[QUOTE_MAX + 4];
	int rc = check_text(st, e, k, MAX_WORD);

	if (rc)
		return rc;
	if (!isalnum((unsigned char)v[0]))
		return fail(st->err, e->line, "%s: expected %s, got '%s'", k->name, k->expected,
			    quote(v, q, sizeof(q)));
	for (const char *c = v; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("._-", *c))
			return fail(st->err, e->line, "%s: expected %s, got '%s'", k->name,
				    k->expected, quote(v, q, sizeof(q)));
	return 0;
}

/* Comma-separated alternatives: none may be empty or too long. */
static int parse_alts(struct pstate *st, const struct entry *e, const struct key *k)
{
	const char *v = e->value;
	char q[QUOTE_MAX + 4];
	int rc = check_text(st, e, k, MAX_PHRASE);

	if (rc)
		return rc;
	while (*v) {
		const char *comma = strchr(v, ',');
		size_t len = comma ? (size_t)(comma - v) : strlen(v);
		size_t a = 0, b = len;

		while (a < b && is_blank(v[a]))
			a++;
		while (b > a && is_blank(v[b - 1]))
			b--;
		if (a == b)
			return fail(st->err, e->line,
				    "%s: an empty alternative in '%s': expected %s", k->name,
				    quote(e->value, q, sizeof(q)), k->expected);
		if (b - a > MAX_WORD)
			return fail(st->err, e->line, "%s: an alternative longer than %d characters",
				    k->name, MAX_WORD);
		if (!comma)
			break;
		v = comma + 1;
		if (!*v)
			return fail(st->err, e->line,
				    "%s: an empty alternative in '%s': expected %s", k->name,
				    quote(e->value, q, sizeof(q)), k->expected);
	}
	return 0;
}

static int parse_int(struct pstate *st, const struct entry *e, const struct key *k, int *out)
{
	char q[QUOTE_MAX + 4];
	long n;

	if (!all_digits(e->value) || strlen(e->value) > 9)
		return fail(st->err, e->line, "%s: expected %s (or any), got '%s'", k->name,
			    k->expected, quote(e->value, q, sizeof(q)));
	n = strtol(e->value, NULL, 10);
	if (k->kind == K_PCIE_SIZE) {
		if (n < 128 || n > 4096 || (n & (n - 1)))
			return fail(st->err, e->line,
				    "%s: %ld is not a PCIe size (128, 256, 512, 1024, 2048 or 4096)",
				    k->name, n);
	} else if (k->kind == K_WIDTH) {
		if (n != 1 && n != 2 && n != 4 && n != 8 && n != 16 && n != 32)
			return fail(st->err, e->line,
				    "%s: %ld is not a PCIe link width (1, 2, 4, 8, 16 or 32)",
				    k->name, n);
	} else if (n < k->min || n > k->max) {
		return fail(st->err, e->line, "%s: %ld is out of range (%d to %d, or any)", k->name,
			    n, k->min, k->max);
	}
	*out = (int)n;
	return 0;
}

/* Gb/s: digits with at most one decimal point; no sign, no exponent, no
 * "inf" (strtod alone would take them). */
static int parse_gbps(struct pstate *st, const struct entry *e, const struct key *k,
		      double *out)
{
	const char *v = e->value;
	char q[QUOTE_MAX + 4];
	size_t digits = 0, dots = 0;
	bool ok = isdigit((unsigned char)v[0]) && strlen(v) <= 20;
	double d;

	for (const char *c = v; ok && *c; c++) {
		if (*c == '.')
			dots++;
		else if (isdigit((unsigned char)*c))
			digits++;
		else
			ok = false;
	}
	if (!ok || dots > 1 || v[strlen(v) - 1] == '.')
		return fail(st->err, e->line, "%s: expected %s (or any), got '%s'", k->name,
			    k->expected, quote(v, q, sizeof(q)));
	d = strtod(v, NULL);
	if (!(d >= 1 && d <= 3200))
		return fail(st->err, e->line, "%s: %s is out of range (1 to 3200 Gb/s, or any)",
			    k->name, quote(v, q, sizeof(q)));
	*out = d;
	return 0;
}

/* A plain or scientific number ("1e-12", "2.4e-4", "0.5", "10"): ratios
 * above 0 and below 1, counts per hour above 0 and at most 1e9. */
static int parse_real(struct pstate *st, const struct entry *e, const struct key *k,
		      double *out)
{
	const char *v = e->value;
	char q[QUOTE_MAX + 4], *end = NULL;
	double d = 0;
	bool ok = strlen(v) <= 24 && (isdigit((unsigned char)v[0]) || v[0] == '.');

	if (ok) {
		errno = 0;
		d = strtod(v, &end);
		ok = errno == 0 && end && !*end && isfinite(d);
	}
	if (!ok)
		return fail(st->err, e->line, "%s: expected %s (or any), got '%s'", k->name,
			    k->expected, quote(v, q, sizeof(q)));
	if (k->kind == K_RATIO ? !(d > 0 && d < 1) : !(d > 0 && d <= 1e9))
		return fail(st->err, e->line, "%s: %s is out of range (%s, or any)", k->name,
			    quote(v, q, sizeof(q)),
			    k->kind == K_RATIO ? "above 0 and below 1" : "above 0, at most 1e9");
	*out = d;
	return 0;
}

static int parse_yesno(struct pstate *st, const struct entry *e, const struct key *k,
		       int *out)
{
	char q[QUOTE_MAX + 4];

	if (strcasecmp(e->value, "yes") == 0)
		*out = 1;
	else if (strcasecmp(e->value, "no") == 0)
		*out = 0;
	else if (k->kind == K_TRI && is_any(e->value))
		*out = -1;
	else
		return fail(st->err, e->line, "%s: expected %s, got '%s'", k->name, k->expected,
			    quote(e->value, q, sizeof(q)));
	return 0;
}

static int parse_word(struct pstate *st, const struct entry *e, const struct key *k)
{
	char q[QUOTE_MAX + 4];

	for (int i = 0; k->words[i]; i++)
		if (strcasecmp(e->value, k->words[i]) == 0)
			return i;
	return fail(st->err, e->line, "%s: expected %s (or any), got '%s'", k->name, k->expected,
		    quote(e->value, q, sizeof(q)));
}

static int list_builtins(const struct profile_bases *bases, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; bases && i < bases->count(); i++) {
		const struct profile *b = bases->at(i);
		int n;

		if (!b)
			return -ENOMEM;
		n = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", b->name);
		if (n < 0 || (size_t)n >= size - used)
			return -ENAMETOOLONG;
		used += (size_t)n;
	}
	return 0;
}

static int parse_based_on(struct pstate *st, const struct entry *e, const struct key *k)
{
	char q[QUOTE_MAX + 4], names[256];	/* the 13 built-ins take 174 */

	if (!st->bases || !st->bases->find(e->value)) {
		if (list_builtins(st->bases, names, sizeof(names)) < 0)
			snprintf(names, sizeof(names), "see `rdmadoctor profiles`");
		return fail(st->err, e->line, "%s: no built-in profile '%s' (there are: %s)",
			    k->name, quote(e->value, q, sizeof(q)), names);
	}
	return 0;
}

/* Check one value and store it in the profile or role base points at. */
static int apply_value(struct pstate *st, const struct entry *e, const struct key *k,
		       void *base)
{
	void *field = (char *)base + k->off;
	char q[QUOTE_MAX + 4];
	int rc = 0, i;

	if (!*e->value)
		return fail(st->err, e->line, "%s: expected %s, got nothing", k->name,
			    k->expected);
	switch (k->kind) {
	case K_NAME:
		rc = parse_name(st, e, k);
		return rc ? rc : set_string(field, e->value);
	case K_TEXT:
		rc = check_text(st, e, k, MAX_PHRASE);
		return rc ? rc : set_string(field, e->value);
	case K_BASE:
		/* copied by resolve_base() before any other key: only check it */
		rc = parse_based_on(st, e, k);
		return rc ? rc : set_string(field, e->value);
	case K_ALTS:
		if (is_any(e->value))
			return set_string(field, NULL);
		rc = parse_alts(st, e, k);
		return rc ? rc : set_string(field, e->value);
	case K_MODEL:
		if (is_any(e->value))
			return set_string(field, NULL);
		rc = check_text(st, e, k, MAX_WORD);
		if (!rc && strchr(e->value, ','))
			rc = fail(st->err, e->line, "%s: expected %s (one model), got '%s'",
				  k->name, k->expected, quote(e->value, q, sizeof(q)));
		return rc ? rc : set_string(field, e->value);
	case K_INT:
	case K_WIDTH:
	case K_PCIE_SIZE:
		if (is_any(e->value)) {
			*(int *)field = k->any;
			return 0;
		}
		return parse_int(st, e, k, field);
	case K_GBPS:
		if (is_any(e->value)) {
			*(double *)field = 0;
			return 0;
		}
		return parse_gbps(st, e, k, field);
	case K_RATIO:
	case K_PER_HOUR:
		if (is_any(e->value)) {
			*(double *)field = 0;
			return 0;
		}
		return parse_real(st, e, k, field);
	case K_BOOL:
		rc = parse_yesno(st, e, k, &i);
		if (!rc)
			*(bool *)field = i == 1;
		return rc;
	case K_TRI:
		return parse_yesno(st, e, k, field);
	case K_WORD:
		if (is_any(e->value))
			return set_string(field, NULL);
		i = parse_word(st, e, k);
		return i < 0 ? i : set_string(field, k->words[i]);
	case K_PATH:
		if (is_any(e->value)) {
			*(int *)field = -1;
			return 0;
		}
		i = parse_word(st, e, k);
		if (i >= 0)
			*(int *)field = PATH_PIX + i;
		return i < 0 ? i : 0;
	}
	return fail(st->err, e->line, "%s: cannot be set", k->name);
}

/* What a role has before the file says anything: nothing judged. */
static void role_init(struct role_spec *r)
{
	memset(r, 0, sizeof(*r));
	r->count = -1;
	r->pfc_priority = -1;
	r->ecn = -1;
	r->gpudirect = -1;
	r->placement = -1;
	r->distinct_switches = -1;
}

static int apply_entry(struct pstate *st, const struct entry *e)
{
	const char *where = e->sec >= SEC_PROFILE && e->sec < SEC_BAD ?
			    section_names[e->sec] : "";
	const struct key *k;
	void *base;

	if (!e->key) {
		if (e->sec == SEC_BAD)
			return fail(st->err, e->line,
				    "unknown section [%s]: expected [profile], [rail] or [storage]",
				    e->value);
		/* an empty [rail] still says the machine has rails */
		if (e->sec != SEC_PROFILE)
			st->out->role[e->sec - SEC_RAIL].defined = true;
		return 0;
	}
	k = find_key(e->key);
	if (e->sec == SEC_NONE)
		return fail(st->err, e->line, "'%s' comes before any section: put it under [%s]",
			    e->key, k && rail_only(k) ? "rail" :
			    k && k->role ? "rail] or [storage" : "profile");
	if (!k)
		return fail(st->err, e->line,
			    "unknown key '%s' in [%s] (`rdmadoctor profiles --help` lists the keys)",
			    e->key, where);
	if (!!k->role != (e->sec != SEC_PROFILE))
		return fail(st->err, e->line, "'%s' belongs in [%s], not in [%s]", k->name,
			    rail_only(k) ? "rail" : k->role ? "rail] or [storage" : "profile",
			    where);
	if (rail_only(k) && e->sec != SEC_RAIL)
		return fail(st->err, e->line, "'%s' belongs in [rail], not in [%s]", k->name,
			    where);
	if (st->seen[e->sec][k - keys])
		return fail(st->err, e->line, "'%s' given twice in [%s] (first on line %d)",
			    k->name, where, st->seen[e->sec][k - keys]);
	st->seen[e->sec][k - keys] = e->line;
	base = e->sec == SEC_PROFILE ? (void *)st->out :
	       (void *)&st->out->role[e->sec - SEC_RAIL];
	return apply_value(st, e, k, base);
}

static int seen_line(const struct pstate *st, int sec, const char *name)
{
	return st->seen[sec][find_key(name) - keys];
}

/* What no single line says wrong but the whole does. */
static int check_whole(struct pstate *st)
{
	const struct profile *p = st->out;

	if (!seen_line(st, SEC_PROFILE, "name"))
		return fail(st->err, 0, "missing 'name = ...' in [profile]: every profile needs a name");
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct role_spec *s = &p->role[r];
		int sec = SEC_RAIL + r;
		int a = seen_line(st, sec, "rate_gbps"), b = seen_line(st, sec, "bw_floor_gbps");
		int c = seen_line(st, sec, "link_layer"), d = seen_line(st, sec, "mtu");

		if (!s->defined)
			continue;
		if (s->rate_gbps > 0 && s->bw_floor_gbps > s->rate_gbps)
			return fail(st->err, a > b ? a : b,
				    "bw_floor_gbps: %g Gb/s is above rate_gbps %g in [%s]",
				    s->bw_floor_gbps, s->rate_gbps, section_names[sec]);
		if (s->link_layer && strcmp(s->link_layer, "InfiniBand") == 0 && s->mtu > 4096)
			return fail(st->err, c > d ? c : d,
				    "mtu: %d is more than InfiniBand's largest MTU, 4096, in [%s]",
				    s->mtu, section_names[sec]);
	}
	return 0;
}

static int profile_copy(struct profile *dst, const struct profile *src)
{
	char **const s_dst[] = { &dst->name, &dst->description, &dst->based_on,
				 &dst->match_dmi, &dst->match_gpu, &dst->match_nic,
				 &dst->match_npu, &dst->npu.subnets };
	char *const s_src[] = { src->name, src->description, src->based_on,
				src->match_dmi, src->match_gpu, src->match_nic,
				src->match_npu, src->npu.subnets };

	*dst = *src;
	for (size_t i = 0; i < sizeof(s_dst) / sizeof(s_dst[0]); i++)
		*s_dst[i] = NULL;
	for (int r = 0; r < ROLE_COUNT; r++)
		dst->role[r].model_family = dst->role[r].link_layer = dst->role[r].trust = NULL;
	for (size_t i = 0; i < sizeof(s_dst) / sizeof(s_dst[0]); i++)
		if (set_string(s_dst[i], s_src[i]) < 0)
			return -ENOMEM;
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct role_spec *a = &src->role[r];
		struct role_spec *b = &dst->role[r];

		if (set_string(&b->model_family, a->model_family) < 0 ||
		    set_string(&b->link_layer, a->link_layer) < 0 ||
		    set_string(&b->trust, a->trust) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* Copy the built-in named by based_on (wherever it stands in [profile])
 * into out before anything else is applied.  A name that is no built-in
 * is reported at its own line when the entries get there. */
static int resolve_base(struct pstate *st, int limit)
{
	const struct profile *base = NULL;

	for (size_t i = 0; i < st->n && st->v[i].line < limit; i++) {
		const struct entry *e = &st->v[i];

		if (e->key && e->sec == SEC_PROFILE && strcmp(e->key, "based_on") == 0) {
			base = st->bases ? st->bases->find(e->value) : NULL;
			break;
		}
	}
	return base ? profile_copy(st->out, base) : 0;
}

/* inih stopped at a line it could not split: say what it should be. */
static int syntax_error(struct pstate *st, int line)
{
	const char *s = st->src.text + st->pos0, *end = st->src.text + st->src.len, *nl;
	char q[QUOTE_MAX + 4], buf[MAX_LINE + 1];
	size_t n;

	for (int i = 1; i < line && s < end; i++) {
		nl = memchr(s, '\n', (size_t)(end - s));
		s = nl ? nl + 1 : end;
	}
	while (s < end && is_blank(*s))
		s++;
	if (s < end && *s == '[')
		return fail(st->err, line, "expected a section header like [rail], with a closing ']'");
	nl = memchr(s, '\n', (size_t)(end - s));
	n = (size_t)((nl ? nl : end) - s);
	if (n && s[n - 1] == '\r')
		n--;
	snprintf(buf, sizeof(buf), "%.*s", n > MAX_LINE ? MAX_LINE : (int)n, s);
	return fail(st->err, line, "expected 'key = value', a [section] or a comment, got '%s'",
		    quote(buf, q, sizeof(q)));
}

static void entries_free(struct pstate *st)
{
	for (size_t i = 0; i < st->n; i++) {
		free(st->v[i].key);
		free(st->v[i].value);
	}
	free(st->v);
}

static int run_parse(struct pstate *st)
{
	int syntax, limit = INT_MAX, rc;

	syntax = ini_parse_stream(reader, st, handler, st);
	if (st->nomem || syntax == -2)
		return -ENOMEM;
	if (syntax > 0)
		limit = syntax;
	if (st->bad_line && st->bad_line < limit)
		limit = st->bad_line;
	rc = resolve_base(st, limit);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < st->n && st->v[i].line < limit; i++) {
		rc = apply_entry(st, &st->v[i]);
		if (rc)
			return rc;
	}
	if (limit != INT_MAX) {
		if (syntax > 0 && syntax == limit)
			return syntax_error(st, syntax);
		return fail(st->err, st->bad_line, "%s", st->bad_msg);
	}
	return check_whole(st);
}

int profile_parse_bases(const char *text, size_t len, const char *origin,
			const struct profile_bases *bases, struct profile *out,
			struct profile_error *err)
{
	struct profile_error spare;
	struct pstate st = { .src = { .text = text, .len = len }, .sec = SEC_NONE, .out = out,
			     .bases = bases };
	int rc;

	if (!err)
		err = &spare;
	memset(err, 0, sizeof(*err));
	if (snprintf(err->file, sizeof(err->file), "%s", origin ? origin : "profile") >=
	    (int)sizeof(err->file))
		memcpy(err->file + sizeof(err->file) - 4, "...", 4);
	memset(out, 0, sizeof(*out));
	for (int r = 0; r < ROLE_COUNT; r++)
		role_init(&out->role[r]);
	out->npu.pfc_priority = -1;
	out->ber.max = BER_MAX_DEFAULT;
	out->ber.pre_fec_kr4 = BER_PRE_FEC_KR4_DEFAULT;
	out->ber.pre_fec_kp4 = BER_PRE_FEC_KP4_DEFAULT;
	out->ber.near = BER_NEAR_DEFAULT;
	st.err = err;
	if (!text)
		len = st.src.len = 0;
	if (len > MAX_TEXT)
		return fail(err, 0, "larger than %u KiB: not a profile", MAX_TEXT >> 10);
	/* a UTF-8 byte order mark, as some editors write */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		st.src.pos = st.pos0 = 3;
	rc = run_parse(&st);
	entries_free(&st);
	if (rc == -ENOMEM)
		fail(err, 0, "out of memory");
	if (rc)
		profile_free(out);
	return rc;
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	free(p->name);
	free(p->description);
	free(p->based_on);
	free(p->match_dmi);
	free(p->match_gpu);
	free(p->match_nic);
	free(p->match_npu);
	free(p->npu.subnets);
	for (int r = 0; r < ROLE_COUNT; r++) {
		free(p->role[r].model_family);
		free(p->role[r].link_layer);
		free(p->role[r].trust);
	}
	memset(p, 0, sizeof(*p));
}

/* The shortest text that reads back as the same double. */
static void format_gbps(char *buf, size_t size, double v)
{
	snprintf(buf, size, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, size, "%.17g", v);
}

static void write_value(FILE *out, const struct key *k, const void *base)
{
	const void *field = (const char *)base + k->off;
	char buf[40];
	int i;

	switch (k->kind) {
	case K_NAME:
	case K_TEXT:
	case K_BASE:
	case K_ALTS:
	case K_MODEL:
	case K_WORD:
		fputs(*(char *const *)field ? *(char *const *)field : "any", out);
		return;
	case K_INT:
	case K_WIDTH:
	case K_PCIE_SIZE:
		i = *(const int *)field;
		if (i == k->any)
			fputs("any", out);
		else
			fprintf(out, "%d", i);
		return;
	case K_GBPS:
	case K_RATIO:
	case K_PER_HOUR:
		if (*(const double *)field > 0) {
			format_gbps(buf, sizeof(buf), *(const double *)field);
			fputs(buf, out);
		} else {
			fputs("any", out);
		}
		return;
	case K_BOOL:
		fputs(*(const bool *)field ? "yes" : "no", out);
		return;
	case K_TRI:
		i = *(const int *)field;
		fputs(i < 0 ? "any" : i ? "yes" : "no", out);
		return;
	case K_PATH:
		i = *(const int *)field;
		fputs(i >= PATH_PIX && i <= PATH_SYS ? path_words[i - PATH_PIX] : "any", out);
		return;
	}
}

static void write_key(FILE *out, const struct key *k, const void *base, bool doc)
{
	if (doc)
		fprintf(out, "# %s\n", k->doc);
	fprintf(out, "%s = ", k->name);
	write_value(out, k, base);
	fputc('\n', out);
}

/* Every key is written, "any" included, so that the file says all that is
 * judged and reads back as the same profile even when based_on brings in
 * values of its own.  The keys are explained in the first role section. */
int profile_write(FILE *out, const struct profile *p)
{
	static const char *const role_doc[ROLE_COUNT] = {
		"compute-fabric (\"rail\") NICs: the ones NCCL uses, one per GPU or GPU group",
		"storage and in-band management NICs: not counted as rails",
	};
	static const char *const placeholder[] = {
		[K_NAME] = "NAME", [K_TEXT] = "TEXT", [K_BASE] = "NAME",
	};
	bool explained = false;

	fputs("# rdmadoctor machine profile ('any' = not judged; `rdmadoctor profiles --help`)\n\n"
	      "[profile]\n", out);
	for (size_t i = 0; i < N_KEYS && !keys[i].role; i++) {
		const struct key *k = &keys[i];

		/* an unset text key stays out: "any" would read back as text */
		if ((k->kind == K_TEXT || k->kind == K_BASE || k->kind == K_NAME) &&
		    !*(char *const *)((const char *)p + k->off)) {
			fprintf(out, "# %s\n# %s = %s\n", k->doc, k->name, placeholder[k->kind]);
			continue;
		}
		write_key(out, k, p, true);
	}
	for (int r = 0; r < ROLE_COUNT; r++) {
		const char *name = section_names[SEC_RAIL + r];

		if (!p->role[r].defined) {
			fprintf(out, "\n# no [%s] section: %s NICs are not judged\n", name, name);
			continue;
		}
		fprintf(out, "\n# %s\n[%s]\n", role_doc[r], name);
		for (size_t i = 0; i < N_KEYS; i++)
			if (keys[i].role && (!rail_only(&keys[i]) || r == ROLE_RAIL))
				write_key(out, &keys[i], &p->role[r], !explained);
		explained = true;
	}
	if (ferror(out))
		return -(errno ? errno : EIO);
	return 0;
}
