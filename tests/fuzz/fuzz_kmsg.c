/* libFuzzer target: one /dev/kmsg record (src/sysfs/kmsg_parse.c), the
 * record parser, the fault matcher and the PCI address finder; the same
 * bytes as a stored run of records, and as the stored account of a read
 * (.rdmadoctor/kmsg/reading), which parses to what it formats back to. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sysfs/kmsg_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmsg_record r;
	char *m = malloc(size ? size : 1);
	char bdf[KMSG_TOKEN_MAX];
	int rc, err = -1;

	if (!m)
		return 0;
	memcpy(m, data, size);
	rc = kmsg_parse_record(m, size, &r);
	if (rc != 0 && rc != -EINVAL)
		abort();
	if (rc == 0) {
		if (r.msg < m || r.msg + r.msg_len > m + size || r.level > 7)
			abort();
		if (strlen(r.device) >= KMSG_TOKEN_MAX)
			abort();
		if (kmsg_match(r.msg, r.msg_len, &err) && err != 0 && err != 1)
			abort();
		if (kmsg_find_bdf(r.msg, r.msg_len, bdf) && strlen(bdf) != 12)
			abort();
		kmsg_watchdog_netdev(r.msg, r.msg_len, bdf);
		if (strlen(bdf) >= 16)
			abort();
	}
	/* the same bytes as a stored run of records: every record is a
	 * non-empty span inside the buffer and the walk ends */
	{
		const char *p = m, *end = m + size, *rec;
		size_t rl, k = 0;

		while (kmsg_next_record(&p, end, &rec, &rl)) {
			if (rl == 0 || rec < m || rec + rl > end || ++k > size)
				abort();
			(void)kmsg_parse_record(rec, rl, &r);
		}
	}
	{
		struct kmsg_reading st, again;
		char txt[KMSG_READING_MAX];
		size_t n;

		if (kmsg_reading_parse(m, size, &st) == 0) {
			if (st.unparsed > st.records)
				abort();
			n = kmsg_reading_format(&st, txt);
			if (n == 0 || n >= sizeof(txt) || kmsg_reading_parse(txt, n, &again) ||
			    st.records != again.records || st.unparsed != again.unparsed ||
			    st.first_seq != again.first_seq || st.lost != again.lost ||
			    st.dropped != again.dropped || st.cut != again.cut)
				abort();
		}
	}
	free(m);
	return 0;
}
