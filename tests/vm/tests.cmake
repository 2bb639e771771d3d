# Soft-RoCE VM tests of the verbs transport (tests/vm/bw_*): the engine's
# own two-thread driver and the CLI against ib_write_bw / ib_write_lat on the
# same rxe device.  Skipped (77) only when the VM cannot start.  About 1.5
# minutes on an idle 2-core host.  Run alone: the VM's two vCPUs busy-poll,
# and a test beside it on a 2-core host (another VM, valgrind, Chromium)
# slows one end or one tool and not the other, which is what the perftest
# comparison and the duration window must not see.
add_executable(bw_pair ${CMAKE_CURRENT_LIST_DIR}/bw_pair.c)
target_link_libraries(bw_pair PRIVATE rdcore)
# The timed VM tests (vm_bw_verbs, vm_bw_loopback, fabric_vm) share one
# boot with 2 vCPUs, alone on the host (RUN_SERIAL): timed_boot.sh runs
# their parts, each test prints its own and passes or fails on it.
add_test(NAME vm_timed_boot COMMAND ${CMAKE_CURRENT_LIST_DIR}/timed_boot.sh
  ${RD_BIN} $<TARGET_FILE:bw_pair> ${PROJECT_BINARY_DIR}/vm-timed)
set_tests_properties(vm_timed_boot PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1260 RUN_SERIAL TRUE
  LABELS vm FIXTURES_SETUP vm_timed)
add_test(NAME vm_bw_verbs COMMAND ${CMAKE_CURRENT_LIST_DIR}/shared_result.sh
  ${PROJECT_BINARY_DIR}/vm-timed bw_verbs)
set_tests_properties(vm_bw_verbs PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS vm
  FIXTURES_REQUIRED vm_timed)

# One boot of the VM for the tests that time nothing (tests/vm/shared_boot.sh,
# fixture vm_shared): the VM parts of vm_inventory, vm_lldp_cabling and
# vm_drv_stack run in it one after another, each leaving its output and
# status in build/vm-shared/; each named test then prints its parts and
# passes or fails on its own (a run of one of them, `ctest -R vm_drv_stack`,
# runs vm_boot first).  About 4 minutes under TCG on 2 cores, one vCPU: not
# serial (nothing in it is timed against a neighbour; the other core runs
# other tests), but never beside another VM of the same kind either
# (RESOURCE_LOCK vm_tcg: two TCG VMs would take both cores from the rest).
add_test(NAME vm_boot COMMAND ${CMAKE_CURRENT_LIST_DIR}/shared_boot.sh
  ${RD_BIN} ${PROJECT_BINARY_DIR}/vm-shared)
set_tests_properties(vm_boot PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1560 LABELS vm
  FIXTURES_SETUP vm_shared RESOURCE_LOCK vm_tcg)

# Rails cabled right (tests/vm/lldp_cabling.sh): rxe devices on veth ports
# whose peers are two "leaf switch" namespaces running lldpd; the node's
# lldpd read live by inventory and check, a crossed pair, a snapshot replayed
# on the host, and lldpd stopped.  The VM part (about 150 s) runs in vm_boot.
add_test(NAME vm_lldp_cabling COMMAND ${CMAKE_CURRENT_LIST_DIR}/lldp_cabling.sh
  ${RD_BIN} ${PROJECT_BINARY_DIR}/vm-shared)
set_tests_properties(vm_lldp_cabling PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120
  LABELS vm FIXTURES_REQUIRED vm_shared)

# bw --loopback (tests/vm/bw_loopback.sh): two rxe devices of the VM on the
# two ends of a veth pair, the pair's JSON, bytes, devices and verdict, the
# default pairs, --gpu without a GPU; ib_write_bw on the same pair prints
# the ratio (not asserted).  About 60 s on 2 cores.
add_test(NAME vm_bw_loopback COMMAND ${CMAKE_CURRENT_LIST_DIR}/shared_result.sh
  ${PROJECT_BINARY_DIR}/vm-timed bw_loopback)
set_tests_properties(vm_bw_loopback PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS vm
  FIXTURES_REQUIRED vm_timed)

# driver.stale_module on the VM's real kernel (tests/vm/drv_stack_vm.sh):
# ib_core as insmod loaded it against its file, then the file replaced in
# the VM's overlay.  The VM part (about 30 s) runs last in vm_boot.
add_test(NAME vm_drv_stack COMMAND ${CMAKE_CURRENT_LIST_DIR}/shared_result.sh
  ${PROJECT_BINARY_DIR}/vm-shared drv_stack)
set_tests_properties(vm_drv_stack PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60
  LABELS vm FIXTURES_REQUIRED vm_shared)
