# The live ethtool statistics reader against `ethtool -S` on a veth pair in
# two network namespaces (skipped, exit 77, when not root or without
# `ip netns`; the script says why).
add_test(NAME ethtool_stats_live COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_ethtool_stats.sh
  ${RD_BIN})
set_tests_properties(ethtool_stats_live PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60)
