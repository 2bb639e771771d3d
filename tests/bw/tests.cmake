# bw/lat: the tcp transport between two network namespaces, a
# hostile client against a running server, the command line's usage errors
# and an unreachable peer.  The verbs transport's tests live with it.
set(BW_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})

# Two network namespaces joined by veth, created by the test (root only:
# skipped, exit 77, otherwise; the script says why).
add_test(NAME bw_tcp_netns COMMAND ${BW_TEST_DIR}/test_bw_tcp.sh ${RD_BIN})
set_tests_properties(bw_tcp_netns PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)

# Garbage, truncation, wrong magic and version, huge lengths, sizes and QP
# counts, silence, a connect storm; then a normal test on the same server.
add_test(NAME bw_hostile COMMAND ${BW_TEST_DIR}/test_bw_hostile.sh ${RD_BIN})
set_tests_properties(bw_hostile PROPERTIES TIMEOUT 240)

add_test(NAME bw_usage COMMAND ${BW_TEST_DIR}/test_bw_usage.sh ${RD_BIN})
set_tests_properties(bw_usage PROPERTIES TIMEOUT 60)

# The server takes the client's test options as checks (loopback, no root).
add_test(NAME bw_server_opts COMMAND ${BW_TEST_DIR}/test_bw_server_opts.sh ${RD_BIN})
set_tests_properties(bw_server_opts PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180)

# The floor bw holds a verbs rail to is the profile check would judge the
# machine by (site file, else the machine's own); a fixture tree, no device.
add_test(NAME bw_site_profile COMMAND ${BW_TEST_DIR}/test_bw_site_profile.sh ${RD_BIN})
set_tests_properties(bw_site_profile PROPERTIES TIMEOUT 120)

# The server's door, attacked on loopback: tokens (nothing allocated before
# one matched), --allow, the default caps, busy and idle clients.
add_test(NAME bw_door COMMAND ${BW_TEST_DIR}/test_bw_door.sh ${RD_BIN})
set_tests_properties(bw_door PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)

# What the verdict rests on (loopback, no root): "no floor" when nothing
# was judged, and the client's --expect-gbps held on the server too
# (server --once exits 1 below it, and says why).
add_test(NAME bw_floor COMMAND ${BW_TEST_DIR}/test_bw_floor.sh ${RD_BIN})
set_tests_properties(bw_floor PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)

# Strangers cannot keep a real client out (loopback, no root): silent
# reconnecting connections, a flood from outside --allow, wrong tokens
# (five judged, then a doubling pause), and --open beyond loopback.
add_test(NAME bw_siege COMMAND ${BW_TEST_DIR}/test_bw_siege.sh ${RD_BIN})
set_tests_properties(bw_siege PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180)
