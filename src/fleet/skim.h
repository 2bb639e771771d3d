/* One pass over a JSON text collected on another host: is it valid JSON,
 * exactly as jansson would take it (RFC 8259, strict UTF-8, integers that
 * fit in 64 bits, finite reals, nesting at most 2048, an object or array at
 * the top, nothing but white space after it; and no NUL byte, which
 * jansson takes in places), and a slim copy of it without
 * the members whose keys are named (at any depth).
 *
 * Why: jansson builds a tree of the whole document at about 40 MB/s; the
 * counters of a 12-NIC machine are most of its values and no fleet fact
 * reads them, nor many other members.  Ingest checks the whole text here, keeps it whole in the
 * store, and lets jansson parse only the slim copy. */
#ifndef RD_FLEET_SKIM_H
#define RD_FLEET_SKIM_H

#include <stddef.h>

/* The keys the fleet never reads from an ingested document (counters,
 * hw_counters, ethtool_stats, module, affinity, ...: skim.c). */
extern const char *const fleet_skim_drop[];
/* fleet_skim_drop but the counters (counters, hw_counters, ethtool_stats):
 * what ingest parses, so that a check's counters are at hand before the
 * store is locked (store/row.c). */
extern const char *const fleet_skim_ingest[];

/* The bulk no fleet report shows: counters (counters, hw_counters,
 * ethtool_stats, pfc_pause_tx/rx), transceiver pages (module), the DSCP
 * map, GID tables, the PCIe path (upstream), GPUs and GPU-NIC placement
 * (affinity), an Ascend NPU port's counters, transceiver readings and
 * link-change log (stat, optical, link_changes). */
extern const char *const fleet_skim_bulk[];

/* What differs between two checks of a machine where nothing changed,
 * the readings that move by themselves: a NIC or NPU port's counters
 * (counters, hw_counters, ethtool_stats, pfc_pause_tx/rx; an NPU's stat)
 * and link-change counts and logs (carrier_changes; link_up_count,
 * link_changes, link_downs_24h), a transceiver's readings (temperature,
 * voltage, bias, power, SNR), what findings observed, and times (time).
 * The store compares checks without them. */
extern const char *const fleet_skim_volatile[];

/* 0 with *slim (malloc'd, NUL-terminated, *slim_len bytes) set; -1 with
 * "line L column C: what" in why when text is not valid, or -ENOMEM.
 * drop: NULL-terminated key names (at any depth). */
int fleet_skim(const char *text, size_t len, const char *const *drop, char **slim,
	       size_t *slim_len, char *why, size_t why_len);

#endif
