/* PCI functions and the bridges above them, from /sys/bus/pci/devices and
 * /sys/devices/pci* (drivers/pci/pci-sysfs.c). */
#ifndef RD_SYSFS_PCI_H
#define RD_SYSFS_PCI_H

#include "root.h"
#include "../model/inventory.h"

/* Fill f from a canonical device directory ("sys/devices/pci0000:17/.../0000:1b:00.0").
 * With upstream, also every bridge on the path up to the root port, each
 * with its ACS control from the binary config file (acs_ctrl, config_full);
 * the device's own config is not read (its acs_ctrl NA, config_full false). */
int pci_read_func(struct root *r, const char *dir, struct pci_func *f, bool upstream);
/* Only the function's identity, from its directory's name: its address
 * and path, every value of its own unknown, none of its files read (an
 * excluded device, model/exclude.h); the bridges above it are read as
 * pci_read_func reads them, for its place in the tree.  0 or a negative
 * errno. */
int pci_func_identity(struct root *r, const char *dir, struct pci_func *f);

/* The PCI function at or above a canonical path: the deepest component that
 * is a bus/device/function ("mlx5_core.sf.2" and "virtio0" sit below one).
 * Returns a malloc'd canonical directory, or NULL. */
char *pci_function_dir(const char *canonical);

/* Whether a function (its sys/bus/pci/devices/<bdf> link) is wanted; reads
 * only what it needs (vendor first), so a snapshot keeps no more. */
typedef bool (*pci_want_fn)(struct root *r, const char *link);

/* The canonical directories of every wanted function under
 * sys/bus/pci/devices, sorted by BDF; free with root_free_list.  0 (maybe
 * none) or a negative errno. */
int pci_find(struct root *r, pci_want_fn want, char ***dirs, size_t *n);

/* Every wanted function under sys/bus/pci/devices, read with the bridges
 * above it (pci_read_func), sorted by BDF: the one walk for GPUs and NPUs.
 * 0 (maybe none), or a negative errno with nothing kept.  Free each with
 * pci_func_free, then the array. */
int pci_read_wanted(struct root *r, pci_want_fn want, struct pci_func **funcs, size_t *n);

/* Every NVIDIA GPU under sys/bus/pci/devices, sorted by BDF. */
int pci_read_gpus(struct root *r, struct gpu **gpus, size_t *n);

#endif
