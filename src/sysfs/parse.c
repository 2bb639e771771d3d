#include "parse.h"
#include "../model/hex_digit.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	return s;
}

static const struct {
	const char *name;
	double lane_gbps;
} ib_speeds[] = {
	{ "SDR", 2.5 }, { "DDR", 5 }, { "QDR", 10 }, { "FDR10", 10 },
	{ "FDR", 14 }, { "EDR", 25 }, { "HDR", 50 }, { "NDR", 100 },
	{ "XDR", 200 },
};

double ib_speed_lane_gbps(const char *speed)
{
	for (size_t i = 0; i < sizeof(ib_speeds) / sizeof(ib_speeds[0]); i++)
		if (strcmp(speed, ib_speeds[i].name) == 0)
			return ib_speeds[i].lane_gbps;
	return 0;
}

/* strtod also takes "inf", "nan" and hex; the leading-digit test and the
 * finiteness test keep to the plain decimals sysfs prints. */
static int parse_decimal(const char *s, double *v, const char **end)
{
	char *e;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtod(s, &e);
	if (errno || e == s || !isfinite(*v))
		return -EINVAL;
	*end = e;
	return 0;
}

int parse_ib_rate(const char *s, struct ib_rate *out)
{
	const char *p, *name;
	size_t len;
	char *e;
	long lanes;

	memset(out, 0, sizeof(*out));
	if (parse_decimal(skip_blanks(s), &out->gbps, &p) < 0 || out->gbps <= 0)
		return -EINVAL;
	if (strncmp(p, " Gb/sec (", 9) != 0)
		return -EINVAL;
	p += 9;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	lanes = strtol(p, &e, 10);
	if (*e != 'X')
		return -EINVAL;
	if (lanes != 1 && lanes != 2 && lanes != 4 && lanes != 8 && lanes != 12)
		return -EINVAL;
	out->lanes = (int)lanes;
	p = e + 1;
	if (*p == ' ') {
		name = p + 1;
		len = strcspn(name, ")");
		if (len == 0 || len >= sizeof(out->speed))
			return -EINVAL;
		memcpy(out->speed, name, len);
		out->speed[len] = '\0';
		if (ib_speed_lane_gbps(out->speed) == 0)
			return -EINVAL;
		p = name + len;
	}
	if (*p != ')' || *skip_blanks(p + 1) != '\0')
		return -EINVAL;
	return 0;
}

int parse_code_name(const char *s, int *code, const char **name)
{
	char *e;
	long v;

	s = skip_blanks(s);
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &e, 10);
	if (errno || v > INT_MAX || e[0] != ':' || e[1] != ' ' || !e[2])
		return -EINVAL;
	*code = (int)v;
	*name = e + 2;
	return 0;
}

int parse_pcie_speed(const char *s, double *gts)
{
	const char *p;

	if (parse_decimal(skip_blanks(s), gts, &p) < 0 || *gts <= 0)
		return -EINVAL;
	if (strncmp(p, " GT/s", 5) != 0)
		return -EINVAL;
	p += 5;
	if (strncmp(p, " PCIe", 5) == 0)
		p += 5;
	return *skip_blanks(p) ? -EINVAL : 0;
}

int parse_gid(const char *s, uint8_t gid[16])
{
	const char *p;

	s = skip_blanks(s);
	/* The kernel's %pI6: 8 groups of 4 hex digits, never compressed.
	 * Parsed by hand: 4096 GID files make sscanf show in a profile. */
	if (strlen(s) == 39) {
		uint8_t g[16];

		p = s;
		for (int i = 0; i < 8; i++, p += 5) {
			int d0 = hex_digit(p[0]), d1 = hex_digit(p[1]), d2 = hex_digit(p[2]),
			    d3 = hex_digit(p[3]);

			if (d0 < 0 || d1 < 0 || d2 < 0 || d3 < 0 || (i < 7 && p[4] != ':'))
				goto compressed;
			g[2 * i] = (uint8_t)(d0 << 4 | d1);
			g[2 * i + 1] = (uint8_t)(d2 << 4 | d3);
		}
		memcpy(gid, g, 16);
		return 0;
	}
compressed:
	/* Not what the kernel writes, but some captures hold it. */
	return inet_pton(AF_INET6, s, gid) == 1 ? 0 : -EINVAL;
}

bool gid_is_zero(const uint8_t gid[16])
{
	for (int i = 0; i < 16; i++)
		if (gid[i])
			return false;
	return true;
}

bool gid_is_unused(const uint8_t gid[16])
{
	for (int i = 8; i < 16; i++)
		if (gid[i])
			return false;
	return true;
}

bool gid_ipv4(const uint8_t gid[16], char buf[16])
{
	for (int i = 0; i < 10; i++)
		if (gid[i])
			return false;
	if (gid[10] != 0xff || gid[11] != 0xff)
		return false;
	snprintf(buf, 16, "%u.%u.%u.%u", gid[12], gid[13], gid[14], gid[15]);
	return true;
}

int parse_guid(const char *s, uint64_t *guid)
{
	unsigned g[4];
	int n = 0;

	s = skip_blanks(s);
	if (strlen(s) != 19)
		return -EINVAL;
	for (int i = 0; i < 19; i++)
		if (i % 5 == 4 ? s[i] != ':' : !isxdigit((unsigned char)s[i]))
			return -EINVAL;
	if (sscanf(s, "%4x:%4x:%4x:%4x%n", &g[0], &g[1], &g[2], &g[3], &n) != 4 ||
	    n != 19)
		return -EINVAL;
	*guid = (uint64_t)g[0] << 48 | (uint64_t)g[1] << 32 |
		(uint64_t)g[2] << 16 | g[3];
	return 0;
}

/* What sysfs attributes refuse reads with. */
static const struct {
	const char *name;
	int err;
} errno_names[] = {
	{ "EINVAL", EINVAL }, { "EOPNOTSUPP", EOPNOTSUPP }, { "ENODEV", ENODEV },
	{ "EIO", EIO }, { "EPERM", EPERM }, { "EACCES", EACCES }, { "ENODATA", ENODATA },
	{ "ENXIO", ENXIO }, { "EBUSY", EBUSY }, { "EAGAIN", EAGAIN },
	{ "ETIMEDOUT", ETIMEDOUT }, { "ENOSYS", ENOSYS },
};

int parse_errno_marker(const char *s, int *err)
{
	size_t n;
	int64_t v;

	s = skip_blanks(s);
	for (size_t i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++) {
		n = strlen(errno_names[i].name);
		if (strncmp(s, errno_names[i].name, n) == 0 && !*skip_blanks(s + n)) {
			*err = errno_names[i].err;
			return 0;
		}
	}
	/* the kernel's errnos stop below 4096 (MAX_ERRNO) */
	if (parse_s64(s, &v) < 0 || v <= 0 || v >= 4096)
		return -EINVAL;
	*err = (int)v;
	return 0;
}

const char *errno_marker_name(int err)
{
	for (size_t i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++)
		if (errno_names[i].err == err)
			return errno_names[i].name;
	return NULL;
}

int parse_u64(const char *s, uint64_t *v)
{
	char *e;

	s = skip_blanks(s);
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &e, 10);
	if (errno || *skip_blanks(e))
		return -EINVAL;
	return 0;
}

int parse_s64(const char *s, int64_t *v)
{
	const char *p;
	char *e;

	s = skip_blanks(s);
	p = *s == '-' ? s + 1 : s;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	errno = 0;
	*v = strtoll(s, &e, 10);
	if (errno || *skip_blanks(e))
		return -EINVAL;
	return 0;
}

int parse_hex(const char *s, uint64_t *v)
{
	char *e;

	s = skip_blanks(s);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!isxdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &e, 16);
	if (errno || *skip_blanks(e))
		return -EINVAL;
	return 0;
}

bool is_bdf(const char *s)
{
	/* dddd:bb:dd.f, all hex, exactly as NCCL's checkBDFFormat */
	static const char shape[] = "xxxx:xx:xx.x";

	for (int i = 0; i < 12; i++) {
		if (!s[i])
			return false;
		if (shape[i] == 'x' ? !isxdigit((unsigned char)s[i]) : s[i] != shape[i])
			return false;
	}
	return s[12] == '\0';
}

int parse_limits_memlock(const char *text, uint64_t *bytes, bool *unlimited)
{
	static const char key[] = "Max locked memory";
	const char *line = text;

	while (line && *line) {
		if (strncmp(line, key, sizeof(key) - 1) == 0) {
			const char *p = skip_blanks(line + sizeof(key) - 1);
			char *e;

			*unlimited = false;
			if (strncmp(p, "unlimited", 9) == 0 &&
			    (p[9] == ' ' || p[9] == '\n' || !p[9])) {
				*unlimited = true;
				*bytes = 0;
				return 0;
			}
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			errno = 0;
			*bytes = strtoull(p, &e, 10);
			if (errno || (*e != ' ' && *e != '\n' && *e))
				return -EINVAL;
			return 0;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -EINVAL;
}

bool modules_find(const char *text, const char *name, const char **state,
		  int *state_len)
{
	size_t nlen = strlen(name);
	const char *line = text;

	while (line && *line) {
		const char *eol = strchrnul(line, '\n');

		if (strncmp(line, name, nlen) == 0 && line[nlen] == ' ') {
			/* name size refcnt deps state addr [(taints)] */
			const char *p = line;
			int field = 0;

			while (p < eol && field < 4) {
				p += strcspn(p, " \n");
				while (*p == ' ')
					p++;
				field++;
			}
			*state = p;
			*state_len = (int)strcspn(p, " \n");
			if (p >= eol)
				*state_len = 0;
			return true;
		}
		line = *eol ? eol + 1 : NULL;
	}
	return false;
}

/* Is needle within the first len bytes of s (which has no NUL before)? */
static bool line_has(const char *s, size_t len, const char *needle)
{
	size_t nlen = strlen(needle);

	for (size_t i = 0; i + nlen <= len; i++)
		if (memcmp(s + i, needle, nlen) == 0)
			return true;
	return false;
}

int parse_nvidia_version_open(const char *text)
{
	size_t len = strcspn(text, "\n");

	if (strncmp(text, "NVRM version:", 13) != 0)
		return -EINVAL;
	if (line_has(text, len, " Open Kernel Module "))
		return 1;
	if (line_has(text, len, " Kernel Module "))
		return 0;
	return -EINVAL;
}
