/* Parsers of npu-smi's stdout: `npu-smi info -m` (which NPUs exist) and
 * `npu-smi info -i N -t board` (where each one sits); the main table of
 * `npu-smi info` is npu_smi_table.h, the health query npu_smi_health.h.  Pure functions over
 * the bytes; formats in docs/ascend.md. */
#ifndef RD_ASCEND_NPU_SMI_PARSE_H
#define RD_ASCEND_NPU_SMI_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One row of `npu-smi info -m`: "0  0  0  Ascend 910A" under "NPU ID  Chip
 * ID  Chip Logic ID  Chip Name", or on a listing with a Chip Phy-ID column
 * (two-die NPUs, Atlas A3) "0  1  1  1  Ascend910", or with a Slot ID
 * column too and no Chip Logic ID (Ascend 950) "0  1  0  0  Ascend950PR". */
struct npu_smi_chip {
	int64_t npu_id, chip_id;
	int64_t logic_id;	/* NA for "-", or when there is no such column */
	int64_t phy_id;		/* NA for "-", or when there is no such column */
	int64_t slot_id;	/* NA when there is no such column */
	char *name;				/* "Ascend 910A"; may be "" */
};

/* Which columns the listing's header names (NPU ID, Chip ID and Chip Name
 * always). */
struct npu_smi_list_cols {
	bool logic, phy, slot;
};

/* The rows under the header line, read by the header's column names, in
 * the order printed; rows whose NPU ID and Chip ID are not numbers are
 * skipped.  0 with *n rows (maybe none), -ENOMEM, or -EPROTO when there is
 * no header or it names a column this parser does not know (why, of
 * why_len bytes, says which): a layout not known is not guessed at.  Free
 * with npu_smi_chips_free. */
int npu_smi_parse_list(const char *buf, size_t len, struct npu_smi_chip **rows, size_t *n,
		       struct npu_smi_list_cols *cols, char *why, size_t why_len);
void npu_smi_chips_free(struct npu_smi_chip *rows, size_t n);

/* The `key : value` lines of `npu-smi info -i N -t board` that are kept. */
struct npu_smi_board {
	char *bus_info;		/* "PCIe Bus Info": "0000:61:00.0" */
	char *fw_version, *sw_version, *pci_device_id;
};

/* 0 (something recognised), -ENODATA, -ENOMEM; free with
 * npu_smi_board_free. */
int npu_smi_parse_board(const char *buf, size_t len, struct npu_smi_board *b);
void npu_smi_board_free(struct npu_smi_board *b);

#endif
