#include "sysfs/kmsg_parse.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* digits of one decimal field ending at stop; 0 and *v, or -1 */
static int dec_field(const char **p, const char *end, char stop, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (s >= end || !isdigit((unsigned char)*s))
		return -1;
	while (s < end && isdigit((unsigned char)*s)) {
		unsigned d = (unsigned)(*s - '0');

		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
		s++;
	}
	if (s >= end || *s != stop)
		return -1;
	*p = s + 1;
	*v = x;
	return 0;
}

int kmsg_parse_record(const char *buf, size_t len, struct kmsg_record *r)
{
	const char *p = buf, *end = buf + len, *semi, *nl;
	uint64_t prio;

	memset(r, 0, sizeof(*r));
	if (!buf)
		return -EINVAL;
	if (dec_field(&p, end, ',', &prio) || dec_field(&p, end, ',', &r->seq))
		return -EINVAL;
	/* USEC ends at ',' (FLAGS follows) or ';' on old kernels */
	{
		const char *save = p;

		if (dec_field(&p, end, ',', &r->usec)) {
			p = save;
			if (dec_field(&p, end, ';', &r->usec))
				return -EINVAL;
			p--;
		}
	}
	semi = memchr(p, ';', (size_t)(end - p));
	if (!semi)
		return -EINVAL;
	r->level = (unsigned)(prio & 7);
	r->facility = (unsigned)((prio >> 3) & 0xffffu);
	r->msg = semi + 1;
	nl = memchr(r->msg, '\n', (size_t)(end - r->msg));
	r->msg_len = (size_t)((nl ? nl : end) - r->msg);
	/* continuation lines " KEY=VALUE\n": DEVICE=+pci:BDF or +net:name */
	for (p = nl ? nl + 1 : end; p < end;) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((e ? e : end) - p);
		static const char *const keys[] = {" DEVICE=+pci:", " DEVICE=+net:"};

		for (size_t k = 0; k < 2; k++) {
			size_t kl = strlen(keys[k]);

			if (n > kl && !memcmp(p, keys[k], kl) && n - kl < KMSG_TOKEN_MAX) {
				memcpy(r->device, p + kl, n - kl);
				r->device[n - kl] = '\0';
			}
		}
		p = e ? e + 1 : end;
	}
	return 0;
}

static const char *memmem_s(const char *h, size_t hl, const char *n)
{
	return memmem(h, hl, n, strlen(n));
}

const struct kmsg_pattern *kmsg_match(const char *msg, size_t len, int *error)
{
	for (size_t i = 0; i < kmsg_npatterns; i++) {
		const struct kmsg_pattern *pt = &kmsg_patterns[i];
		int ok = 1;

		for (size_t j = 0; j < 3 && pt->all[j] && ok; j++)
			ok = memmem_s(msg, len, pt->all[j]) != NULL;
		if (!ok)
			continue;
		if (!pt->id)
			return NULL;	/* known to be no fault */
		*error = pt->error;
		if (!strcmp(pt->id, "kmsg.aer") && memmem_s(msg, len, "severity=Uncorrect") &&
		    memmem_s(msg, len, " (Fatal)"))
			*error = 1;
		/* an NVLink or NVSwitch error the driver calls non-fatal */
		if ((!strcmp(pt->id, "kmsg.nvlink_error") || !strcmp(pt->id, "kmsg.nvswitch_error")) &&
		    (memmem_s(msg, len, " Nonfatal ") || memmem_s(msg, len, "Non-fatal")))
			*error = 0;
		return pt;
	}
	return NULL;
}

static int hexn(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

int kmsg_find_bdf(const char *msg, size_t len, char out[KMSG_TOKEN_MAX])
{
	/* the NVIDIA driver's "Xid (PCI:DDDD:BB:DD)": the GPU, function 0 */
	static const char xid[] = "Xid (PCI:";
	const char *x = memmem(msg, len, xid, sizeof(xid) - 1);

	if (x) {
		const char *s = x + sizeof(xid) - 1;
		size_t left = len - (size_t)(s - msg);

		if (left >= 11 && hexn(s, 4) && s[4] == ':' && hexn(s + 5, 2) && s[7] == ':' &&
		    hexn(s + 8, 2) && s[10] == ')') {
			memcpy(out, s, 10);
			memcpy(out + 10, ".0", 3);
			return 1;
		}
	}
	/* DDDD:BB:DD.F is 12 bytes */
	for (size_t i = 0; i + 12 <= len; i++) {
		const char *s = msg + i;

		if (hexn(s, 4) && s[4] == ':' && hexn(s + 5, 2) && s[7] == ':' &&
		    hexn(s + 8, 2) && s[10] == '.' && s[11] >= '0' && s[11] <= '7') {
			memcpy(out, s, 12);
			out[12] = '\0';
			return 1;
		}
	}
	out[0] = '\0';
	return 0;
}

/* The older watchdog line is a WARN with no device prefix and no DEVICE=:
 * "NETDEV WATCHDOG: %s (%s): transmit queue %u timed out", the netdev
 * first.  Its name into out when it is one ("" otherwise). */
void kmsg_watchdog_netdev(const char *msg, size_t len, char out[KMSG_TOKEN_MAX])
{
	static const char key[] = "NETDEV WATCHDOG: ";
	const char *s = memmem(msg, len, key, sizeof(key) - 1), *e;
	size_t n;

	out[0] = '\0';
	if (!s)
		return;
	s += sizeof(key) - 1;
	e = memchr(s, ' ', len - (size_t)(s - msg));
	n = e ? (size_t)(e - s) : 0;
	if (!e || n == 0 || n >= 16 || (size_t)(e - msg) + 1 >= len || e[1] != '(')
		return;	/* IFNAMSIZ; the newer "CPU: %d:" form has no '(' */
	memcpy(out, s, n);
	out[n] = '\0';
}

int kmsg_next_record(const char **p, const char *end, const char **rec, size_t *rlen)
{
	const char *s = *p, *q;

	if (s >= end)
		return 0;
	q = s;
	do {
		const char *e = memchr(q, '\n', (size_t)(end - q));

		q = e ? e + 1 : end;
	} while (q < end && *q == ' ');
	*rec = s;
	*rlen = (size_t)(q - s);
	*p = q;
	return 1;
}

size_t kmsg_reading_format(const struct kmsg_reading *st, char *buf)
{
	int n = snprintf(buf, KMSG_READING_MAX,
			 "records %" PRIu64 "\nunparsed %" PRIu64 "\nfirst_seq %" PRIu64
			 "\nlost %" PRIu64 "\ndropped %" PRIu64 "\ncut %d\n",
			 st->records, st->unparsed, st->first_seq, st->lost, st->dropped,
			 st->cut ? 1 : 0);

	return n < 0 ? 0 : (size_t)n < KMSG_READING_MAX ? (size_t)n : KMSG_READING_MAX - 1;
}

int kmsg_reading_parse(const char *buf, size_t len, struct kmsg_reading *st)
{
	static const char *const keys[] = {"records", "unparsed", "first_seq", "lost",
					   "dropped", "cut"};
	uint64_t v[6];
	unsigned seen = 0;
	const char *p = buf, *end = buf + len;

	memset(st, 0, sizeof(*st));
	if (!buf)
		return -EINVAL;
	while (p < end) {
		const char *sp = memchr(p, ' ', (size_t)(end - p));
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		uint64_t x;
		size_t k;

		if (!nl || !sp || sp > nl)
			return -EINVAL;	/* every line "KEY VALUE\n", the last too */
		for (k = 0; k < 6; k++)
			if ((size_t)(sp - p) == strlen(keys[k]) && !memcmp(p, keys[k], strlen(keys[k])))
				break;
		p = sp + 1;
		if (dec_field(&p, end, '\n', &x))
			return -EINVAL;
		if (k < 6) {
			if (seen & (1u << k))
				return -EINVAL;
			seen |= 1u << k;
			v[k] = x;
		}
	}
	if (seen != 0x3f || v[5] > 1 || v[1] > v[0] || v[3] > UINT64_MAX - v[2])
		return -EINVAL;
	st->records = v[0];
	st->unparsed = v[1];
	st->first_seq = v[2];
	st->lost = v[3];
	st->dropped = v[4];
	st->cut = v[5] == 1;
	return 0;
}
