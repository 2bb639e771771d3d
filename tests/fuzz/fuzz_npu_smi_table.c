/* libFuzzer target: `npu-smi info`'s main table (src/ascend/npu_smi_table.c),
 * live stdout or a snapshot's .rdmadoctor/npu-smi/info.  Seeds in
 * corpus/npu_smi_table/: the real captures of tests/fixtures/ascend-captures
 * and layouts cut from them. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ascend/npu_smi_table.h"
#include "model/inventory.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct npu_smi_row *rows;
	char why[160];
	size_t n;
	char *m = malloc(size ? size : 1);

	if (!m)
		return 0;
	memcpy(m, data, size);
	why[0] = '\0';
	if (npu_smi_parse_table(m, size, &rows, &n, why, sizeof(why)) == 0) {
		/* every row has its two ids, and a number read is a number */
		for (size_t i = 0; i < n; i++)
			if (rows[i].npu_id < 0 || rows[i].chip_id < 0 ||
			    isinf(rows[i].power_w) || isinf(rows[i].temp_c))
				abort();
		npu_smi_rows_free(rows, n);
	} else if (!why[0] || !memchr(why, '\0', sizeof(why))) {
		abort();	/* a failure says why, in a whole string */
	}
	free(m);
	return 0;
}
