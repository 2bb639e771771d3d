/* Parser of `npu-smi info`'s main table: the box with two lines per chip,
 *
 *   | NPU   Name        | Health   | Power(W)   Temp(C)   Hugepages-Usage(page) |
 *   | Chip  [Phy-ID]    | Bus-Id   | AICore(%)  Memory-Usage(MB)  HBM-Usage(MB)|
 *   | 0     910B3       | OK       | 98.1       41        0    / 0              |
 *   | 0                 | 0000:C1:00.0 | 0      0    / 0  3389 / 65536         |
 *
 * (Atlas 800T A2; the A3 layout adds a Phy-ID column and lists each die;
 * the inference cards' a Device column).  Columns are found by the names
 * of the two header lines, never by position: a header naming a column
 * this parser does not know is an unknown layout, not read (captures and
 * formats in docs/ascend.md, tests/fixtures/ascend-captures). */
#ifndef RD_ASCEND_NPU_SMI_TABLE_H
#define RD_ASCEND_NPU_SMI_TABLE_H

#include <stddef.h>
#include <stdint.h>

/* One chip of the table (a die on A3). */
struct npu_smi_row {
	int64_t npu_id, chip_id;
	int64_t phy_id;		/* NA without a Phy-ID column */
	char *name, *health;	/* "910B3", "OK"; NULL when the column is absent */
	char *bus_id;		/* "0000:C1:00.0"; NULL absent, "NA" as printed */
	double power_w, temp_c;	/* NAN: absent, or "-"/"NA" (die 1 of an A3 NPU) */
};

/* 0 with *n rows (none when the table lists no chip), -ENOMEM, or
 * -EPROTO when the bytes hold no table this parser can read: why (of len
 * bytes) then says what it did not understand.  Free with
 * npu_smi_rows_free. */
int npu_smi_parse_table(const char *buf, size_t len, struct npu_smi_row **rows, size_t *n,
			char *why, size_t why_len);
void npu_smi_rows_free(struct npu_smi_row *rows, size_t n);

#endif
