# The commands: tests/cmd holds the tests of the verbs' command line.
# The command line, hostile trees, full disk and full stdout.
add_test(NAME cli COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_cli.sh
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
# A value with a newline (fw_ver, board_id, hostname, netdev) begins no line
# of any text output.
add_test(NAME cli_text_values COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_text_values.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
# port.rate_low names its cause (the module, from its compliance codes) on
# a fixture whose storage bond a profile asks more of.
add_test(NAME cli_rate_cause COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_rate_cause.sh
  ${RD_BIN} ${PROJECT_SOURCE_DIR})

# Counters over time: two snapshots a minute apart (watch --until, check
# --window --until), usage errors, a live watch and Ctrl-C.
add_test(NAME watch COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_watch.sh
  ${RD_BIN} ${PROJECT_SOURCE_DIR})

# Live: watch --netdev over a veth pair in two network namespaces with a
# fixed amount of UDP traffic (byte counters grow by what was sent), and
# the link-mode / FEC reader against ethtool on the same veth.  Skipped
# (exit 77) when not root or without `ip netns`; the script says why.
add_test(NAME watch_veth_live COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_watch_veth.sh
  ${RD_BIN})
set_tests_properties(watch_veth_live PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60)

# watch --until / check --window --until: a second reading of another host,
# boot or card is refused (exit 2); a rate above the port's is "impossible",
# never printed as a rate.
add_test(NAME watch_until COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_watch_until.sh
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
