/* libFuzzer target: the npu-smi parsers (src/ascend/npu_smi_parse.c) and
 * /etc/hccn.conf (src/ascend/hccn_conf.c), live stdout or a snapshot's
 * .rdmadoctor/npu-smi/info-m, board-<N>, etc/hccn.conf.  First byte: 0
 * `npu-smi info -m`, 1 `-t board`, 2 hccn.conf; seeds in corpus/npu_smi/. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ascend/hccn_conf.h"
#include "ascend/npu_smi_parse.h"
#include "model/inventory.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct npu_smi_chip *rows;
	struct npu_smi_board b = { 0 };
	struct npu_plan plan = { 0 };
	struct npu_smi_list_cols cols;
	char why[120];
	size_t n;
	char *m;

	if (size < 1)
		return 0;
	m = malloc(size);
	if (!m)
		return 0;
	memcpy(m, data + 1, size - 1);
	switch (data[0] % 3) {
	case 0:
		if (npu_smi_parse_list(m, size - 1, &rows, &n, &cols, why, sizeof(why)) == 0) {
			for (size_t i = 0; i < n; i++)
				if (!rows[i].name || rows[i].npu_id < 0 || rows[i].chip_id < 0 ||
				    (!cols.phy && !IS_NA(rows[i].phy_id)) ||
				    (!cols.logic && !IS_NA(rows[i].logic_id)) ||
				    (!cols.slot && !IS_NA(rows[i].slot_id)) ||
				    (!IS_NA(rows[i].phy_id) && rows[i].phy_id < 0))
					abort();
			npu_smi_chips_free(rows, n);
		} else if (!memchr(why, '\0', sizeof(why))) {
			abort();	/* a failure says why, in a whole string */
		}
		break;
	case 1:
		npu_smi_parse_board(m, size - 1, &b);
		npu_smi_board_free(&b);
		break;
	default:
		for (int64_t id = 0; id < 3; id++) {
			hccn_conf_plan(m, size - 1, id, &plan);
			npu_plan_free(&plan);
		}
		break;
	}
	free(m);
	return 0;
}
