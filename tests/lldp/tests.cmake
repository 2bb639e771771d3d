# Neighbours from lldpd on replay trees: hgx-roce-lag copied with a real
# lldpcli recording (tests/fixtures/lldp) renamed to its netdevs at
# .rdmadoctor/lldp/neighbors, a failed lldpcli, output that is not lldpcli's,
# and the snapshot round trip.
add_test(NAME lldp_replay COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_lldp_replay.py
  $<TARGET_FILE:rdmadoctor> ${PROJECT_SOURCE_DIR})
set_tests_properties(lldp_replay PROPERTIES TIMEOUT 120)
