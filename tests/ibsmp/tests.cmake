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
  ${CMAKE_CURRENT_LIST_DIR}/test_ibsmp_replay.py $<TARGET_FILE:rdmadoctor>
  $<TARGET_FILE:ib_smp_ask> ${PROJECT_SOURCE_DIR})
set_tests_properties(ibsmp_replay PROPERTIES TIMEOUT 180 SKIP_RETURN_CODE 77)
