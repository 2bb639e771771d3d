#include "rate_units.h"
#include "../model/window.h"

#include <stdio.h>
#include <string.h>

bool rate_counter_is_bytes(const char *name, int set)
{
	size_t n = strlen("bytes");

	if (set == WIN_PMA)
		return strcmp(name, "port_xmit_data") == 0 || strcmp(name, "port_rcv_data") == 0;
	/* "bytes" as a word of the name: rx_bytes, rx_bytes_phy, bytes_sent,
	 * never a name that merely contains it */
	for (const char *s = strstr(name, "bytes"); s; s = strstr(s + 1, "bytes"))
		if ((s == name || s[-1] == '_') && (s[n] == '\0' || s[n] == '_'))
			return true;
	return false;
}

/* Three significant digits at most, no exponent: v is below 1000. */
static void digits(char *buf, size_t len, double v, const char *unit)
{
	snprintf(buf, len, v >= 100 ? "%.0f%s" : v >= 10 ? "%.1f%s" : "%.2f%s", v, unit);
}

void rate_gbps_str(char *buf, size_t len, double bytes_per_s)
{
	double gbps = bytes_per_s * 8 / 1e9;

	if (gbps <= 0)
		snprintf(buf, len, "0 Gb/s");
	else if (gbps < 0.005)	/* would print as 0.00: moving, but barely */
		snprintf(buf, len, "<0.01 Gb/s");
	else if (gbps < 1000)
		digits(buf, len, gbps, " Gb/s");
	else	/* no link is that fast: a clear counter gone wrong, said plainly */
		snprintf(buf, len, "%.0f Gb/s", gbps);
}

void rate_per_s_str(char *buf, size_t len, double per_s)
{
	static const char *const scale[] = { "", "k", "M", "G", "T" };
	size_t k = 0;
	char unit[8];

	if (per_s <= 0) {
		snprintf(buf, len, "0/s");
		return;
	}
	/* below one a second: two significant digits say it (0.017/s) */
	if (per_s < 1) {
		snprintf(buf, len, "%.2g/s", per_s);
		return;
	}
	while (per_s >= 999.5 && k + 1 < sizeof(scale) / sizeof(scale[0])) {
		per_s /= 1000;
		k++;
	}
	snprintf(unit, sizeof(unit), "%s/s", scale[k]);
	/* whole counts below a thousand print as such: 5/s, not 5.00/s */
	if (k == 0 && per_s == (double)(long long)per_s)
		snprintf(buf, len, "%.0f%s", per_s, unit);
	else
		snprintf(buf, len, per_s >= 100 ? "%.0f%s" : "%.3g%s", per_s, unit);
}

void rate_str(char *buf, size_t len, const char *name, int set, double per_s)
{
	if (rate_counter_is_bytes(name, set))
		rate_gbps_str(buf, len, per_s);
	else
		rate_per_s_str(buf, len, per_s);
}
