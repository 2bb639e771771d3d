# Live: watch --netdev over a veth pair in two network namespaces with a
# fixed amount of UDP traffic (byte counters grow by what was sent), and
# the link-mode / FEC reader against ethtool on the same veth.  Skipped
# (exit 77) when not root or without `ip netns`; the script says why.
add_test(NAME watch_veth_live COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_watch_veth.sh
  $<TARGET_FILE:rdmadoctor>)
set_tests_properties(watch_veth_live PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60)
