#include "hccn_parse.h"
#include "tool_text.h"
#include "../model/growbuf.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const struct hccn_option hccn_options[] = {
	{ "link", "-link", hccn_parse_link },
	{ "speed", "-speed", hccn_parse_speed },
	{ "ip", "-ip", hccn_parse_ip },
	{ "net_health", "-net_health", hccn_parse_net_health },
	{ "link_stat", "-link_stat", hccn_parse_link_stat },
	{ "optical", "-optical", hccn_parse_optical },
	{ "stat", "-stat", hccn_parse_stat },
	{ "fec", "-fec", hccn_parse_fec },
	{ "pfc", "-pfc", hccn_parse_pfc },
	{ "lldp", "-lldp", hccn_parse_lldp },
	{ "mtu", "-mtu", hccn_parse_mtu },
};
const size_t hccn_n_options = sizeof(hccn_options) / sizeof(hccn_options[0]);

#define LINES(buf, len, line) \
	for (const char *p_ = (buf), *e_ = (buf) + (len); tt_next_line(&p_, e_, &(line));)

/* "link status: UP" / "link status: DOWN" */
int hccn_parse_link(const char *buf, size_t len, struct npu_port *p)
{
	struct span line, k, v;

	LINES(buf, len, line) {
		if (!tt_split(line, ':', &k, &v) || !tt_key_is(k, "link status"))
			continue;
		p->link_up = tt_key_is(v, "UP") ? 1 : tt_key_is(v, "DOWN") ? 0 : -1;
		return p->link_up < 0 ? -ENODATA : 0;
	}
	return -ENODATA;
}

/* "Speed: 100000 Mb/s"; a speed the driver does not know prints "unknown" */
int hccn_parse_speed(const char *buf, size_t len, struct npu_port *p)
{
	struct span line, k, v;
	int64_t mbps;

	LINES(buf, len, line) {
		if (!tt_split(line, ':', &k, &v) || !tt_key_is(k, "speed"))
			continue;
		if (tt_int(v, &mbps) && mbps >= 0) {
			p->speed_mbps = mbps;
			return 0;
		}
		p->speed_mbps = NA;
		return tt_contains(v, "unknown") ? 0 : -ENODATA;
	}
	return -ENODATA;
}

/* A netmask is an IPv4 address whose ones come first. */
static bool netmask_ok(const char *s)
{
	struct in_addr a;
	uint32_t m;

	if (inet_pton(AF_INET, s, &a) != 1)
		return false;
	m = ntohl(a.s_addr);
	return (m & (~m >> 1)) == 0;
}

static bool v4_ok(const char *s)
{
	struct in_addr a;

	return inet_pton(AF_INET, s, &a) == 1;
}

static bool v6_ok(const char *s)
{
	struct in6_addr a;

	return inet_pton(AF_INET6, s, &a) == 1;
}

static bool prefix_ok(const char *s)
{
	struct span v = { s, strlen(s) };
	int64_t n;

	return tt_int(v, &n) && n >= 0 && n <= 128 && strspn(s, "0123456789") == v.n;
}

/* One address family of -ip: its keys, the fields they set, and how a
 * value is told to be one. */
struct ip_key {
	const char *key;
	size_t off;		/* its char * in struct npu_port; 0 (link_up's place,
				 * never a text): the number ipv6_prefix */
	bool (*ok)(const char *);
};

static const struct ip_key v4_keys[] = {
	{ "ipaddr", offsetof(struct npu_port, ipaddr), v4_ok },
	{ "netmask", offsetof(struct npu_port, netmask), netmask_ok },
};

static const struct ip_key v6_keys[] = {
	{ "ipv6_address", offsetof(struct npu_port, ipv6addr), v6_ok },
	{ "prefix_length", 0, prefix_ok },
};

/* The lines of one family into p, replacing what it held.  A value that
 * is not an address takes the whole family out (an address without its
 * mask, or the mask of another address, would be a wrong fact) and its
 * line is kept in *bad to say why.  1 when a line was the family's. */
static int ip_family(const char *buf, size_t len, struct npu_port *p, const struct ip_key *keys,
		     char **bad)
{
	char *text[2] = { NULL, NULL };
	struct span line, k, v;
	int rc = 0;

	free(*bad);
	*bad = NULL;
	LINES(buf, len, line) {
		int i = -1;

		if (!tt_split(line, ':', &k, &v))
			continue;
		for (int j = 0; j < 2 && i < 0; j++)
			if (tt_key_is(k, keys[j].key))
				i = j;
		if (i < 0)
			continue;
		rc = 1;
		if (tt_set(&text[i], v) < 0)
			goto nomem;
		if (!*bad && !keys[i].ok(text[i]) && !(*bad = tt_dup(line)))
			goto nomem;
	}
	for (int j = 0; j < 2; j++) {
		char **field = keys[j].off ? (char **)((char *)p + keys[j].off) : NULL;

		if (*bad) {
			free(text[j]);
			text[j] = NULL;
		}
		if (field) {
			free(*field);
			*field = text[j];
		} else {
			struct span t = { text[j], text[j] ? strlen(text[j]) : 0 };
			int64_t n;

			p->ipv6_prefix = text[j] && tt_int(t, &n) ? n : NA;
			free(text[j]);
		}
	}
	return rc;
nomem:
	free(text[0]);
	free(text[1]);
	return -ENOMEM;
}

/* "ipaddr:192.161.200.10" and "netmask:255.255.255.0", and on a port with
 * IPv6 also "ipv6_address:" and "prefix_length:"; when none is set, "Get
 * ipconf failed, because no ip was preset there!" */
int hccn_parse_ip(const char *buf, size_t len, struct npu_port *p)
{
	struct span line;
	int v4, v6;

	p->ip_unset = false;
	LINES(buf, len, line)
		if (tt_contains(line, "no ip was preset"))
			p->ip_unset = true;
	v4 = ip_family(buf, len, p, v4_keys, &p->ip_malformed);
	if (v4 < 0)
		return v4;
	v6 = ip_family(buf, len, p, v6_keys, &p->ip6_malformed);
	if (v6 < 0)
		return v6;
	return p->ip_unset || v4 || v6 ? 0 : -ENODATA;
}

/* "net health status: Success" (or Fault, Init, Socket failed, ...) */
int hccn_parse_net_health(const char *buf, size_t len, struct npu_port *p)
{
	struct span line, k, v;

	LINES(buf, len, line) {
		if (tt_split(line, ':', &k, &v) && tt_key_is(k, "net health status") && v.n)
			return tt_set(&p->net_health, v);
	}
	return -ENODATA;
}

/* "[devid 0]" or "[device 0]" in front of every -link_stat line */
static struct span drop_device_tag(struct span line)
{
	line = tt_trim(line);
	if (line.n && line.s[0] == '[') {
		const char *close = memchr(line.s, ']', line.n);

		if (close) {
			line.n -= (size_t)(close + 1 - line.s);
			line.s = close + 1;
		}
	}
	return tt_trim(line);
}

/* "Tue Aug  1 14:43:40 2022" at the start of s: seconds as if UTC (the
 * tool prints local time; only differences are used). */
static bool parse_stamp(struct span s, time_t *t)
{
	char buf[64], *end;
	struct tm tm;
	size_t n = s.n < sizeof(buf) - 1 ? s.n : sizeof(buf) - 1;

	memcpy(buf, s.s, n);
	buf[n] = '\0';
	memset(&tm, 0, sizeof(tm));
	end = strptime(buf, "%a %b %d %H:%M:%S %Y", &tm);
	if (!end)
		return false;
	*t = timegm(&tm);
	return *t != (time_t)-1;
}

static bool ends_with(struct span s, const char *w)
{
	size_t n = strlen(w);

	return s.n >= n && strncasecmp(s.s + s.n - n, w, n) == 0;
}

/* current time : Tue Aug  1 14:50:02 2022
 * link up count : 2
 * link change records :
 *     Tue Aug  1 14:43:40 2022    LINK UP          (one line per event) */
int hccn_parse_link_stat(const char *buf, size_t len, struct npu_port *p)
{
	struct span line, k, v;
	time_t now = 0, t;
	bool have_now = false, stamps_ok = true, any = false;
	int64_t count, downs = 0;
	size_t cap = 0;

	for (size_t i = 0; i < p->n_link_changes; i++)
		free(p->link_changes[i]);
	free(p->link_changes);
	p->link_changes = NULL;
	p->n_link_changes = 0;
	LINES(buf, len, line) {
		struct span l = drop_device_tag(line);

		if (ends_with(l, "LINK UP") || ends_with(l, "LINK DOWN")) {
			char **g = growbuf_reserve(p->link_changes, &cap, p->n_link_changes + 1,
						   sizeof(*g));

			if (!g)
				return -ENOMEM;
			p->link_changes = g;
			if (!(g[p->n_link_changes] = tt_dup(l)))
				return -ENOMEM;
			p->n_link_changes++;
			any = true;
			if (!ends_with(l, "LINK DOWN"))
				continue;
			if (!parse_stamp(l, &t))
				stamps_ok = false;
			else if (have_now && now - t >= 0 && now - t <= 24 * 3600)
				downs++;
			else if (!have_now)
				stamps_ok = false;
			continue;
		}
		if (!tt_split(l, ':', &k, &v))
			continue;
		if (tt_key_is(k, "current time")) {
			have_now = parse_stamp(v, &now);
			any = true;
		} else if (tt_key_is(k, "link up count") && tt_int(v, &count) && count >= 0) {
			p->link_up_count = count;
			any = true;
		}
	}
	p->link_downs_24h = have_now && stamps_ok ? downs : NA;
	return any ? 0 : -ENODATA;
}

static int optical_line(struct npu_optical *o, struct span k, struct span v)
{
	static const struct tt_field texts[] = {
		{ "present", offsetof(struct npu_optical, present) },
		{ "vendor name", offsetof(struct npu_optical, vendor) },
		{ "vendor part number", offsetof(struct npu_optical, part) },
		{ "vendor serial number", offsetof(struct npu_optical, serial) },
		{ "xsfp identifier", offsetof(struct npu_optical, identifier) },
	};
	static const struct tt_field numbers[] = {
		{ "temperature", offsetof(struct npu_optical, temp_c) },
		{ "vcc", offsetof(struct npu_optical, vcc_mv) },
		{ "temp high thres", offsetof(struct npu_optical, temp.high) },
		{ "temp low thres", offsetof(struct npu_optical, temp.low) },
		{ "vcc high thres", offsetof(struct npu_optical, vcc.high) },
		{ "vcc low thres", offsetof(struct npu_optical, vcc.low) },
		{ "txpower high thres", offsetof(struct npu_optical, tx_power.high) },
		{ "txpower low thres", offsetof(struct npu_optical, tx_power.low) },
		{ "rxpower high thres", offsetof(struct npu_optical, rx_power.high) },
		{ "rxpower low thres", offsetof(struct npu_optical, rx_power.low) },
	};
	static const struct tt_field flags[] = {
		{ "tx los flag", offsetof(struct npu_optical, tx_los) },
		{ "rx los flag", offsetof(struct npu_optical, rx_los) },
		{ "tx lol flag", offsetof(struct npu_optical, tx_lol) },
		{ "rx lol flag", offsetof(struct npu_optical, rx_lol) },
	};
	static const struct tt_field lanes[] = {
		{ "tx power", offsetof(struct npu_optical, tx_mw) },
		{ "rx power", offsetof(struct npu_optical, rx_mw) },
		{ "tx bias", offsetof(struct npu_optical, bias_ma) },
		{ "media snr lane", offsetof(struct npu_optical, snr_db) },
	};
	char *base = (char *)o;
	int lane, i, rc = tt_set_field(texts, sizeof(texts) / sizeof(texts[0]), o, k, v);

	if (rc != 0)
		return rc < 0 ? rc : 0;
	i = tt_find_field(numbers, sizeof(numbers) / sizeof(numbers[0]), k);
	if (i >= 0) {
		double d;

		*(double *)(base + numbers[i].off) = tt_double(v, &d) ? d : NAN;
		return 0;
	}
	i = tt_find_field(flags, sizeof(flags) / sizeof(flags[0]), k);
	if (i >= 0) {
		int64_t f;

		*(int64_t *)(base + flags[i].off) = tt_int(v, &f) && f >= 0 ? f : NA;
		return 0;
	}
	for (size_t l = 0; l < sizeof(lanes) / sizeof(lanes[0]); l++) {
		if (tt_key_lane(k, lanes[l].key, NPU_LANES, &lane)) {
			double d;

			/* "not supported" stays NAN */
			((double *)(base + lanes[l].off))[lane] = tt_double(v, &d) ? d : NAN;
			if (lane + 1 > o->n_lanes && l < 3)
				o->n_lanes = lane + 1;
			return 0;
		}
	}
	return 0;
}

/* "optical info:" then "key : value" lines; "This device does not support
 * optical cmd." on a board whose ports have none (Atlas 9000 A3, as
 * hccn_tool's source says) */
int hccn_parse_optical(const char *buf, size_t len, struct npu_port *p)
{
	struct npu_optical *o = malloc(sizeof(*o));
	struct span line, k, v;
	bool any = false;

	if (!o)
		return -ENOMEM;
	npu_optical_init(o);
	p->optical_unsupported = false;
	LINES(buf, len, line) {
		/* a board without optical commands: an answer, nothing to read */
		if (tt_contains(line, "does not support optical")) {
			p->optical_unsupported = true;
			any = false;
			break;
		}
		if (!tt_split(line, ':', &k, &v) || !k.n || tt_key_is(k, "optical info"))
			continue;
		any = true;
		if (optical_line(o, k, v) < 0) {
			npu_optical_free(o);
			return -ENOMEM;
		}
	}
	npu_optical_free(p->optical);
	p->optical = NULL;
	if (!any) {
		npu_optical_free(o);
		return p->optical_unsupported ? 0 : -ENODATA;
	}
	p->optical = o;
	return 0;
}

/* "packet statistics:" then "name:value" lines */
int hccn_parse_stat(const char *buf, size_t len, struct npu_port *p)
{
	struct counter_set *c = calloc(1, sizeof(*c));
	struct span line, k, v;
	int64_t value;
	size_t cap = 0;

	if (!c)
		return -ENOMEM;
	LINES(buf, len, line) {
		struct counter *g;

		if (!tt_split(line, ':', &k, &v) || !k.n || memchr(k.s, ' ', k.n) ||
		    !tt_int(v, &value) || value < 0)
			continue;
		g = growbuf_reserve(c->v, &cap, c->n + 1, sizeof(*g));
		if (!g) {
			npu_counters_free(c);
			return -ENOMEM;
		}
		c->v = g;
		memset(&g[c->n], 0, sizeof(g[c->n]));
		g[c->n].value = (uint64_t)value;
		g[c->n].ok = true;
		if (!(g[c->n].name = tt_dup(k))) {
			npu_counters_free(c);
			return -ENOMEM;
		}
		c->n++;
	}
	npu_counters_free(p->stat);
	p->stat = NULL;
	if (!c->n) {
		npu_counters_free(c);
		return -ENODATA;
	}
	p->stat = c;
	return 0;
}

/* "fec mode: rs FEC mode" / "fec mode: no FEC mode" */
int hccn_parse_fec(const char *buf, size_t len, struct npu_port *p)
{
	struct span line, k, v;

	LINES(buf, len, line) {
		if (tt_split(line, ':', &k, &v) && tt_key_is(k, "fec mode") && v.n)
			return tt_set(&p->fec_mode, v);
	}
	return -ENODATA;
}

/* Up to 8 small numbers after the line's first word ("priority 0 1 ...");
 * the word ends at any blank, so a tab or many blanks are one separator. */
static int row_values(struct span line, int *vals)
{
	struct span rest;
	size_t w = 0;
	int n = 0;

	line = tt_trim(line);
	while (w < line.n && line.s[w] != ' ' && line.s[w] != '\t')
		w++;
	if (w == line.n)
		return 0;
	rest = (struct span){ line.s + w, line.n - w };
	for (size_t i = 0; i < rest.n && n < 9;) {
		char c = rest.s[i];

		if (c >= '0' && c <= '9') {
			int v = 0;

			while (i < rest.n && rest.s[i] >= '0' && rest.s[i] <= '9' && v < 100)
				v = v * 10 + (rest.s[i++] - '0');
			vals[n < 8 ? n : 7] = v;
			n++;
		} else if (c == ' ' || c == '\t' || c == ':' || c == ',') {
			i++;
		} else {
			return 0;
		}
	}
	return n;
}

/* The rows of one block so far. */
struct pfc_block {
	int prio[8], en[8], np, ne;
};

/* The block's rows as enabled[priority]; -ENODATA when they do not say
 * which column is which.  The block is emptied for the next one. */
static int block_take(struct pfc_block *b, int enabled[8])
{
	int rc = b->np <= 0 || b->np > 8 || b->np != b->ne ? -ENODATA : 0;

	for (int i = 0; i < 8; i++)
		enabled[i] = -1;
	for (int i = 0; rc == 0 && i < b->np; i++)
		if (b->prio[i] < 8 && b->en[i] <= 1)
			enabled[b->prio[i]] = b->en[i];
	memset(b, 0, sizeof(*b));
	return rc;
}

/* "[dev_name:eth0]": *dev the member's name */
static bool member_tag(struct span t, struct span *dev)
{
	struct span k;

	if (t.n < 2 || t.s[0] != '[' || t.s[t.n - 1] != ']')
		return false;
	t = (struct span){ t.s + 1, t.n - 2 };
	return tt_split(t, ':', &k, dev) && tt_key_is(k, "dev_name") && dev->n;
}

/* The block of member dev appended to *m (of *n, room *cap); a member
 * without readable rows is left out: its PFC is not known, not off. */
static int member_add(struct npu_pfc_member **m, size_t *n, size_t *cap, struct span dev,
		      struct pfc_block *b)
{
	struct npu_pfc_member *g;
	int enabled[8];

	if (block_take(b, enabled) < 0)
		return 0;
	g = growbuf_reserve(*m, cap, *n + 1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	*m = g;
	memcpy(g[*n].enabled, enabled, sizeof(enabled));
	if (!(g[*n].dev = tt_dup(dev)))
		return -ENOMEM;
	(*n)++;
	return 0;
}

/* PFC configuration:
 * priority   0 1 2 3 4 5 6 7
 * enabled    0 0 0 0 1 0 0 0
 * Only a priority row says which column is which: without one nothing
 * is taken.  Newer hccn_tool prints a "[dev_name:<member>]" line and the
 * two rows once per member of a bonded port (its source, tool_get_pfc_exec):
 * each member is kept, and the port's own row holds what they agree on. */
int hccn_parse_pfc(const char *buf, size_t len, struct npu_port *p)
{
	struct npu_pfc_member *m = NULL;
	struct pfc_block b = { 0 };
	struct span line, dev = { 0 }, d;
	size_t n = 0, cap = 0;
	int plain[8], plain_rc = -ENODATA;
	bool member = false;

	LINES(buf, len, line) {
		struct span t = tt_trim(line);

		if (member_tag(t, &d)) {
			if (member && member_add(&m, &n, &cap, dev, &b) < 0)
				goto nomem;
			if (!member)
				plain_rc = block_take(&b, plain);
			dev = d;
			member = true;
		} else if (tt_starts(t, "priority")) {
			b.np = row_values(t, b.prio);
		} else if (tt_starts(t, "enable")) {
			b.ne = row_values(t, b.en);
		}
	}
	if (member && member_add(&m, &n, &cap, dev, &b) < 0)
		goto nomem;
	if (!member)
		plain_rc = block_take(&b, plain);
	npu_pfc_members_free(p);
	p->pfc_members = m;
	p->n_pfc_members = n;
	for (int i = 0; i < 8; i++) {
		int v = n ? m[0].enabled[i] : plain_rc == 0 ? plain[i] : -1;

		for (size_t k = 1; k < n; k++)
			if (m[k].enabled[i] != v)
				v = -1;
		p->pfc_enabled[i] = v;
	}
	return n || plain_rc == 0 ? 0 : -ENODATA;
nomem:
	for (size_t k = 0; k < n; k++)
		free(m[k].dev);
	free(m);
	return -ENOMEM;
}

/* "System Name TLV": a TLV's header line */
static bool tlv_header(struct span t)
{
	return t.n > 4 && strncmp(t.s + t.n - 4, " TLV", 4) == 0;
}

/* lldptool-style TLVs: a "Port ID TLV" header line, "Ifname: 100GE1/0/1"
 * on the next; "System Name TLV", the name on the next.  A switch that
 * sends an empty name has its header followed by the next header: no
 * name, never that header. */
int hccn_parse_lldp(const char *buf, size_t len, struct npu_port *p)
{
	struct span line, k, v;
	char **want = NULL;
	int rc = -ENODATA;

	free(p->lldp_port);
	free(p->lldp_system);
	p->lldp_port = p->lldp_system = NULL;
	LINES(buf, len, line) {
		struct span t = tt_trim(line);

		if (!t.n)
			continue;
		if (want && !tlv_header(t)) {
			if (tt_starts(t, "ifname") && tt_split(t, ':', &k, &v))
				t = v;
			if (t.n && tt_set(want, t) < 0)
				return -ENOMEM;
			want = NULL;
			continue;
		}
		want = NULL;
		if (tt_key_is(t, "Port ID TLV"))
			want = &p->lldp_port;
		else if (tt_key_is(t, "System Name TLV"))
			want = &p->lldp_system;
		if (want)
			rc = 0;
	}
	return rc;
}

/* Not confirmed ("mtu:1500" and "mtu 1500" are both seen in scripts): the
 * number after the word mtu, and the raw first line kept. */
int hccn_parse_mtu(const char *buf, size_t len, struct npu_port *p)
{
	struct span line;
	int64_t v;

	LINES(buf, len, line) {
		struct span t = tt_trim(line);

		for (size_t i = 0; i + 3 <= t.n; i++) {
			struct span rest;

			if (strncasecmp(t.s + i, "mtu", 3) != 0)
				continue;
			rest = (struct span){ t.s + i + 3, t.n - i - 3 };
			while (rest.n && (rest.s[0] == ':' || rest.s[0] == '=' || rest.s[0] == ' ' ||
					  rest.s[0] == '\t')) {
				rest.s++;
				rest.n--;
			}
			if (tt_set(&p->mtu_raw, t) < 0)
				return -ENOMEM;
			p->mtu = tt_int(rest, &v) && v > 0 && v < 1000000 ? v : NA;
			return 0;
		}
	}
	return -ENODATA;
}
