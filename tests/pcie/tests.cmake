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
