/* Firmware per board across the fleet: for each PSID (a NIC's board_id),
 * which hosts run which firmware version.  A view, not a judgement: the
 * fleet has no site file, so it says who runs what and leaves the verdict
 * to `check`'s fw.version (the site file's [firmware]) and to the drift of
 * `fw` within a NIC model's group.  Pure: JSON in, JSON out.
 *
 * The per-NIC PSID and version ride with the drift facts, as the rails'
 * switches do (fleet/rails.h), so `fleet diff` reads them without parsing
 * the hosts' documents.  A record from before this group adds nothing. */
#ifndef RD_FLEET_FIRMWARE_H
#define RD_FLEET_FIRMWARE_H

#include <jansson.h>

/* The facts group (fleet/facts.h) that carries a record's boards: no NIC
 * model is empty, so the group is no NIC's; fleet_diff() shows it through
 * fleet_firmware(), never as drift. */
#define FLEET_FIRMWARE_MODEL ""
#define FLEET_FIRMWARE_LINK_LAYER "firmware"

/* The firmware group of a record's facts:
 *   {"nic_model": "", "link_layer": "firmware",
 *    "fields": {"mlx5_0": {"psid": "MT_0000000359", "fw": "22.39.1002" | null}, ...}}
 * one member per NIC of the inventory with a board_id (fw null when its
 * fw_ver was not read).  *group NULL when no NIC has a board_id.  0, or -1
 * when out of memory. */
int fleet_firmware_facts(const json_t *record, json_t **group);

/* hosts: as fleet_diff() takes them ({"host", "facts"}, one per host).
 * The `firmware` member of `fleet diff --json` (docs/json/fleet.md):
 *   {"hosts": N,
 *    "psids": [{"psid": "MT_0000000359", "hosts": 7,
 *               "versions": [{"version": "22.39.1002" | null, "hosts": 6,
 *                             "host_names": ["gpu-01", ...]}]}]}
 * or JSON null when no host's newest record has the group.  PSIDs in
 * name order; a PSID's versions most hosts first, then in version order
 * (28.39.999 before 28.39.1002), null (not read) last; host names sorted.
 * A host whose boards of one PSID run two versions is under both.  NULL
 * when out of memory. */
json_t *fleet_firmware(const json_t *hosts);

#endif
