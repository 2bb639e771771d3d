# Live: watch --netdev over a veth pair in two network namespaces with a
# fixed amount of UDP traffic (byte counters grow by what was sent), and
# the link-mode / FEC reader against ethtool on the same veth.  Skipped
# (exit 77) when not root or without `ip netns`; the script says why.
add_test(NAME watch_veth_live COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_watch_veth.sh
  $<TARGET_FILE:rdmadoctor>)
set_tests_properties(watch_veth_live PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60)

# watch --until / check --window --until: a second reading of another host,
# boot or card is refused (exit 2); a rate above the port's is "impossible",
# never printed as a rate.
add_test(NAME watch_until COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_watch_until.sh
  $<TARGET_FILE:rdmadoctor> ${PROJECT_SOURCE_DIR})
