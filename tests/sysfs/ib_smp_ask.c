/* ib_smp_ask CA PORT [RAWFILE]: the InfiniBand neighbour reader's live
 * answer for one port (src/sysfs/ib_smp.h), for test_ibsim.sh to hold
 * against smpquery.  Prints "system=..", "port=..", "chassis_id=..",
 * "source=.." (exit 0) or "why=.." (exit 1: not checked, with the reason
 * the tool gives for a live fetch that failed); RAWFILE gets the two
 * replies' bytes, as a snapshot stores them. */
#include "sysfs/ib_smp.h"
#include "sysfs/ib_smp_parse.h"
#include "model/neighbor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct neighbor *nb;
	void *bytes;
	size_t len;
	char *why;
	int rc;

	if (argc < 3)
		return 2;
	rc = ib_smp_ask(argv[1], atoi(argv[2]), &bytes, &len);
	if (rc < 0) {
		printf("errno=%d\n", -rc);
		return 1;
	}
	if (argc > 3) {
		FILE *f = fopen(argv[3], "wb");

		if (!f || fwrite(bytes, 1, len, f) != len || fclose(f))
			return 2;
	}
	rc = ib_smp_parse(bytes, len, &nb, &why);
	free(bytes);
	if (rc < 0) {
		printf("why=%s\n", why ? why : "out of memory");
		free(why);
		return 1;
	}
	printf("system=%s\nport=%s\nchassis_id=%s\nsource=%s\n", nb->system ? nb->system : "",
	       nb->port, nb->chassis_id, nb->source);
	neighbor_free(nb);
	return 0;
}
