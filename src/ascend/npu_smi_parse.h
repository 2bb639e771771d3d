/* Parsers of npu-smi's stdout: `npu-smi info -m` (which NPUs exist) and
 * `npu-smi info -i N -t board` (where each one sits).  Pure functions over
 * the bytes; formats in docs/ascend.md. */
#ifndef RD_ASCEND_NPU_SMI_PARSE_H
#define RD_ASCEND_NPU_SMI_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One row of `npu-smi info -m`: "0  0  0  Ascend 910A", or on a listing
 * whose header names a Chip Phy-ID column (two-die NPUs, Atlas A3)
 * "0  1  1  1  Ascend910". */
struct npu_smi_chip {
	int64_t npu_id, chip_id, logic_id;	/* logic_id NA for "-" */
	int64_t phy_id;		/* NA for "-" or when there is no such column */
	char *name;				/* "Ascend 910A"; may be "" */
};

/* The rows whose NPU ID and Chip ID are numbers (the header and anything
 * else is skipped), in the order printed.  *phy_column: the header named
 * a Chip Phy-ID column, so every row has one.  0 with *n rows (maybe none),
 * or -ENOMEM.  Free with npu_smi_chips_free. */
int npu_smi_parse_list(const char *buf, size_t len, struct npu_smi_chip **rows, size_t *n,
		       bool *phy_column);
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
