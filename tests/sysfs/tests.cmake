# The readers on small trees: trailing whitespace, counters_ext, memlock
# near 2^64, "N/A (no PMA)", IOMMU unknown, no empty parentheses.
add_test(NAME reader_words COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_reader_words.sh
  ${RD_BIN})
# The EINVAL memory (sysfs/einval_memo.h) traced: a file the kernel refused
# with EINVAL earlier this boot is not opened again (strace; 77 without it).
add_test(NAME reader_einval_strace COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_einval_strace.sh
  $<TARGET_FILE:test_einval_memo>)
set_tests_properties(reader_einval_strace PROPERTIES SKIP_RETURN_CODE 77)

# Neighbours from lldpd on replay trees: hgx-roce-lag copied with a real
# lldpcli recording (tests/fixtures/lldp) renamed to its netdevs at
# .rdmadoctor/lldp/neighbors, a failed lldpcli, output that is not lldpcli's,
# and the snapshot round trip.
add_test(NAME lldp_replay COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_lldp_replay.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
set_tests_properties(lldp_replay PROPERTIES TIMEOUT 120)

# InfiniBand neighbours by directed-route SMP (src/sysfs/ib_smp.c) against
# ibsim, the InfiniBand fabric simulator: libumad2sim.so, LD_PRELOADed,
# hands libibumad's /dev/infiniband/umad* and its sysfs to the simulator.
# The reader's answer for every HCA of a small rail fabric (one pair of
# rails crossed) is held against smpquery's under the same preload; the
# live failure paths (no umad device, no simulator answering) are asked
# too.  rdmadoctor's own sysfs reader does not see the simulator's CA
# (it reads /sys itself), so the tool-level part is the replay test below.
add_executable(ib_smp_ask ${CMAKE_CURRENT_LIST_DIR}/ib_smp_ask.c)
target_link_libraries(ib_smp_ask PRIVATE rdcore)
add_test(NAME ibsmp_ibsim COMMAND ${RD_NEED} ibsim ibsim-utils -- ${RD_NEED} smpquery
  infiniband-diags -- ${CMAKE_CURRENT_LIST_DIR}/test_ibsim.sh $<TARGET_FILE:ib_smp_ask>)
set_tests_properties(ibsmp_ibsim PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
# The same replies through the whole tool: recorded live from ibsim into
# copies of the dgx-h100 fixture where a snapshot keeps them; inventory,
# topo, JSON, rail.cabling on a crossed pair, a stored failure, the
# snapshot round trip, and the fleet naming the crossed host.
add_test(NAME ibsmp_replay COMMAND ${RD_NEED} ibsim ibsim-utils -- python3
  ${CMAKE_CURRENT_LIST_DIR}/test_ibsmp_replay.py ${RD_BIN}
  $<TARGET_FILE:ib_smp_ask> ${PROJECT_SOURCE_DIR})
set_tests_properties(ibsmp_replay PROPERTIES TIMEOUT 180 SKIP_RETURN_CODE 77)

# PCIe settings (MaxPayload, MaxReadReq, RlxdOrd, ExtTag, ATS): rdmadoctor's
# decoder against `lspci -vv` on the same config bytes: every fixture
# tree's config files (as `lspci -F` dumps) and this machine's own devices.
add_executable(pcie_settings_dump ${CMAKE_CURRENT_LIST_DIR}/pcie_settings_dump.c)
target_link_libraries(pcie_settings_dump PRIVATE rdcore)
add_test(NAME pcie_settings_lspci_fixtures COMMAND ${RD_NEED} lspci pciutils --
  python3 ${CMAKE_CURRENT_LIST_DIR}/pcie_settings_lspci.py
  $<TARGET_FILE:pcie_settings_dump> fixtures ${PROJECT_SOURCE_DIR})
add_test(NAME pcie_settings_lspci_live COMMAND ${RD_NEED} lspci pciutils --
  python3 ${CMAKE_CURRENT_LIST_DIR}/pcie_settings_lspci.py
  $<TARGET_FILE:pcie_settings_dump> live)
set_tests_properties(pcie_settings_lspci_fixtures pcie_settings_lspci_live
  PROPERTIES SKIP_RETURN_CODE 77)
# ... and in the VM (tests/vm/vm-run.sh: q35, a PCIe root port with a
# virtio-net endpoint behind it), as root, on a real kernel's config files.
add_test(NAME vm_pcie_settings_lspci COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/vm/vm-run.sh
  --timeout 300 -- python3 ${CMAKE_CURRENT_LIST_DIR}/pcie_settings_lspci.py
  $<TARGET_FILE:pcie_settings_dump> live)
# Not serial: it reads config bytes and times nothing; one TCG VM at a time
# (tests/vm/tests.cmake, RESOURCE_LOCK vm_tcg).
set_tests_properties(vm_pcie_settings_lspci PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 400
  RESOURCE_LOCK vm_tcg LABELS vm)

# The driver stack against the kernel (driver.*) on fixture roots built
# from this machine's real /lib/modules .ko files, oracle readelf -n and
# modinfo on the same bytes, and a DKMS tree built by Debian's dkms (77: no
# /lib/modules with the RDMA modules).
add_test(NAME drv_stack_real COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_drv_stack.sh
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
set_tests_properties(drv_stack_real PROPERTIES SKIP_RETURN_CODE 77)

# Facts checked against outside references (issue #29, section 3): each
# case a tree copied from a bundled fixture and changed, the value it must
# give asserted.
add_test(NAME facts_outside COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_facts.sh
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
set_tests_properties(facts_outside PROPERTIES TIMEOUT 120)

# A driver whose port state is a constant (efa): the link from the
# interface on its PCI function, or not checked with the driver's reason.
add_test(NAME reader_fixed_link COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/fixed_link.py
  ${RD_BIN} ${CMAKE_CURRENT_LIST_DIR}/../fixtures)
