# The check catalog: `check --list` names every id the checks give, and
# docs/checks.md is what docs/gen_checks.py makes of it (one source).
add_test(NAME check_catalog COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/catalog.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
add_test(NAME check_docs COMMAND python3 ${PROJECT_SOURCE_DIR}/docs/gen_checks.py
  ${RD_BIN} --check ${PROJECT_SOURCE_DIR}/docs/checks.md)
# Text for people: the same finding on several subjects once, 80 columns
# when not a terminal, --brief.
add_test(NAME check_text COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/text.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)
# Every fix check proposes on roce-broken, applied to a copy of the fixture
# by editing its files, clears its finding.
add_test(NAME check_fixes COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/fixes.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
set_tests_properties(check_fixes PROPERTIES TIMEOUT 600)
# One cause, one finding, the right subject: no two findings with one
# command for one fault, subjects not chosen by a tie, one design figure.
add_test(NAME check_one_cause COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/one_cause.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)
# Unknown is never healthy: on copies of the fixtures with one file removed,
# made a directory, filled with garbage or cut short, what could not be read
# is "not checked", counted, named, and a rail nobody saw cannot PASS.
add_test(NAME check_unknown COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/unknown.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)
# A profile's link_layer is judged: a card in the other link layer than the
# profile's rails is port.link_layer with its mlxconfig fix, and no rail.
add_test(NAME check_link_layer COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/link_layer.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)
# Required, not checked: a value the profile names that could not be read
# (the RoCE examples' PFC, no DCB reply stored) keeps the verdict from PASS,
# --nhc names it, --npd exits 3; the site file's accept_unchecked makes it
# an info again, listed and counted.
add_test(NAME check_required COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/required.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)
# The site file's ids and devices held to the catalog and the machine:
# a typo is a usage error with the nearest name, never a silent no-op.
add_test(NAME check_site_names COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/site_names.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)
# The class, not only the example: a table over every reader a check
# depends on (port state, rate, link layer, GIDs, netdev MTU, PCIe links of
# NIC and bridges, DCB replies, transceiver pages, firmware, counters,
# memlock, modules, GPUs, NUMA, ACS), each broken in a copy of a fixture:
# its "cannot read" path gives an unchecked finding, never an invented fault.
add_test(NAME check_readers_unknown COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/readers_unknown.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)
set_tests_properties(check_readers_unknown PROPERTIES TIMEOUT 600)
# rail.cabling on real LLDP: lldpd in network namespaces, veths named like
# a800-8x100g-roce's rail netdevs to "switch" namespaces leaf-r0..7; what
# the node's lldpd heard, in a copy of the fixture, judged under a site
# file's rail_switch and a profile's distinct_switches: cabled right, a
# crossed pair (one finding), two rails on one switch, lldpd stopped (not
# checked).  Root and lldpd only (exit 77 otherwise).
add_test(NAME check_rail_cabling_ns COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/rail_cabling_ns.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)
# Not serial: its daemons are in namespaces of its own, every wait is bounded
# at 10-40 s for a 1 s interval, nothing is timed against a neighbour.
set_tests_properties(check_rail_cabling_ns PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# fw.version under a site file's [firmware] on copies of a800-8x100g-roce:
# a version allowed, a floor above it (rails errors, the storage card a
# warning, one finding per card with its mlxfwmanager update), a list, an
# unreadable fw_ver or board_id (not checked), a waiver, a malformed line.
add_test(NAME check_fw_version COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/fw_version.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)
# driver.userspace and gdr.missing's DMA-BUF part on this machine's real
# libibverbs, providers and driver files, copied into fixture roots and held
# against readelf -V: as installed, an old provider, no driver file, a
# kernel ABI out of range, a truncated library, and a libibverbs without
# IBVERBS_1.12 built here by gcc and ld.
add_test(NAME check_verbs_userspace COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/verbs_userspace.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)
set_tests_properties(check_verbs_userspace PROPERTIES SKIP_RETURN_CODE 77)
# The site file's exclude =: a device it names (by name or PCI address) is
# read no further than both, one nic.excluded "not checked" finding (a
# warning on a rail), listed as excluded; faults planted in its files give
# nothing and a snapshot under the site file holds none of them.
add_test(NAME check_excluded COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/excluded.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)
# kmsg.*: the kernel log's NIC/RDMA faults (real kernel texts, as the
# snapshot stores them) on a copy of roce-broken: one finding per cause and
# subject with its count and time; an unreadable log is "not checked".
add_test(NAME check_kmsg COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/kmsg.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)
# kmsg.* on real kernel lines: tests/check/kmsg_corpus.tsv, each published
# line with its source and label, judged by the table as labelled.
add_test(NAME check_kmsg_corpus COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/kmsg_corpus.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)
# kmsg.* live: the test writes mlx5-like lines into the real /dev/kmsg (root),
# a live `snapshot` keeps them only when told to (they are not the kernel's),
# and `check` counts them on the replay.  Fails, never skips, without root.
add_test(NAME check_kmsg_live COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/kmsg_live.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)
set_tests_properties(check_kmsg_live PROPERTIES TIMEOUT 300 LABELS system)
# The agent's memory (check --state DIR, clear): a port down and back, a
# flap, counters grown since the last run, a kernel-log fault the log lost
# stay in the verdict across runs until cleared or expired; a new boot id
# forgets them; a malformed memory or a failed write is said, never a pass.
add_test(NAME check_latch COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/latch.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)

# check --state keeps a long baseline per boot (the boot's first reading):
# a per-hour ceiling the short window between two readings cannot tell is
# judged over it; a cleared counter or a new boot begins it again.
add_test(NAME check_latch_boot COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/latch_boot.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)

# snapshot writes a manifest; a replay of a tree cut short (entries of it
# deleted) says "incomplete snapshot" and judges nothing it lacks.
add_test(NAME check_snapshot_manifest COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/snapshot_manifest.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)

# GPUDirect RDMA judged once (src/check/gpudirect.c): check, nccl and
# labels agree on roce-broken (ACS redirect), on a healthy dgx-h100, and on
# a copy of it whose ACS control is unreadable (unknown, not ready).
add_test(NAME check_gpudirect_agree COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/gpudirect_agree.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR})

# Findings by the bandwidth each costs (src/check/rank.c): a rail down or
# PFC off before a count, in the text, JSON, --brief, --nhc and --npd.
add_test(NAME check_rank_order COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/rank_order.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)

# The healthy examples compare their RDMA modules with lib/modules (no
# driver.* "not checked") and have a boot id (check --state keeps its
# memory on each); what they still leave unchecked is listed.
add_test(NAME check_healthy_examples COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/healthy_examples.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)
# AMD Instinct GPUs (issue 45): a copy of hgx-roce-lag with MI300X GPUs and
# amdgpu, and the generated mi300x-thor2 (8 MI300X + 8 bnxt_re): inventory,
# topo, the profile, GPUDirect's AMD path, RCCL.
add_test(NAME check_amd_instinct COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/amd_instinct.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures)

# RoCE LAG: a bond port asks its slaves for DCB, ECN and the module EEPROM
# (hgx-roce-lag copied, one slave broken at a time; watch's pause sums).
add_test(NAME lag COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_lag.sh
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
set_tests_properties(lag PROPERTIES TIMEOUT 120)
# The driver fixtures (issue 45): grown hw_counters of bnxt_re, irdma, efa
# and ionic judged alike by check --window and watch, by their class.
add_test(NAME check_driver_classes COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/driver_classes.py
  $<TARGET_FILE:rdmadoctor> ${PROJECT_SOURCE_DIR}/tests/fixtures)
