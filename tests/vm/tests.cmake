# Soft-RoCE VM tests of the verbs transport (tests/vm/bw_*): the engine's
# own two-thread driver and the CLI against ib_write_bw / ib_write_lat on the
# same rxe device.  Skipped (77) only when the VM cannot start.  About 1.5
# minutes on an idle 2-core host.  Run alone: the VM's two vCPUs busy-poll,
# and a test beside it on a 2-core host (another VM, valgrind, Chromium)
# slows one end or one tool and not the other, which is what the perftest
# comparison and the duration window must not see.
add_executable(bw_pair ${CMAKE_CURRENT_LIST_DIR}/bw_pair.c)
target_link_libraries(bw_pair PRIVATE rdcore)
add_test(NAME vm_bw_verbs COMMAND ${CMAKE_CURRENT_LIST_DIR}/bw_verbs.sh
  $<TARGET_FILE:rdmadoctor> $<TARGET_FILE:bw_pair>)
set_tests_properties(vm_bw_verbs PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 400 RUN_SERIAL TRUE
  LABELS vm)

# Rails cabled right (tests/vm/lldp_cabling.sh): rxe devices on veth ports
# whose peers are two "leaf switch" namespaces running lldpd; the node's
# lldpd read live by inventory and check, a crossed pair, a snapshot replayed
# on the host, and lldpd stopped.  About 150 s on 2 cores (the VM boots under TCG).
add_test(NAME vm_lldp_cabling COMMAND ${CMAKE_CURRENT_LIST_DIR}/lldp_cabling.sh
  $<TARGET_FILE:rdmadoctor>)
set_tests_properties(vm_lldp_cabling PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 RUN_SERIAL TRUE
  LABELS vm)

# bw --loopback (tests/vm/bw_loopback.sh): two rxe devices of the VM on the
# two ends of a veth pair, the pair's JSON, bytes, devices and verdict, the
# default pairs, --gpu without a GPU; ib_write_bw on the same pair prints
# the ratio (not asserted).  About 60 s on 2 cores.
add_test(NAME vm_bw_loopback COMMAND ${CMAKE_CURRENT_LIST_DIR}/bw_loopback.sh
  $<TARGET_FILE:rdmadoctor>)
set_tests_properties(vm_bw_loopback PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 500 RUN_SERIAL TRUE
  LABELS vm)
