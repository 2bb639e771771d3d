/* Ascend NPUs and their RoCE ports, read through one root (docs/ascend.md).
 *
 * The NPUs are the PCI functions 19e5:d801/d802/d803.  Only when there is
 * one are the tools asked, each call through root_fetch, so a snapshot
 * keeps every answer and a replay reads them back:
 *   .rdmadoctor/npu-smi/info-m           `npu-smi info -m`
 *   .rdmadoctor/npu-smi/board-<N>        `npu-smi info -i <N> -t board`
 *   .rdmadoctor/npu-smi/board-<N>-<C>    a die of a two-die NPU (Atlas A3):
 *                                        `npu-smi info -t board -i <N> -c <C>`
 *   .rdmadoctor/hccn/<N>/<option>        `hccn_tool -i <N> -<option> -g`
 *   .rdmadoctor/hccn/<N>/<option>.rc     its exit status, when not 0
 * (a call that did not run at all, timed out or the tool missing, leaves
 * <key>.errno instead).  /etc/hccn.conf is read as a file of the root. */
#ifndef RD_ASCEND_NPU_READ_H
#define RD_ASCEND_NPU_READ_H

#include "../sysfs/root.h"
#include "../model/inventory.h"

/* Fill inv->npu; 0, or -ENOMEM.  Calls that fail are named in the NPU's
 * (or the inventory's) failure list, never fatal. */
int npu_read(struct root *r, struct npu_inventory *ni);

#endif
