# rdmadoctor serve, the Prometheus exporter (src/cmd/serve.c, src/metrics/).
# Each test starts its own server on a free loopback port (--listen
# 127.0.0.1:0; the server prints the port) against the fixture machines.

# /metrics passes `promtool check metrics` and shows what inventory --json
# and check --json say; the cache; usage errors; signals.
add_test(NAME serve_metrics COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_serve_metrics.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
# A real Prometheus scrapes it every second; its query API returns the series.
add_test(NAME serve_prometheus COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_serve_prometheus.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
# Unknown paths, huge headers, slow and idle clients, a connection flood,
# 100 concurrent scrapers.
add_test(NAME serve_hostile COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_serve_hostile.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
# 77 only where promtool or prometheus (Debian prometheus) is not installed.
set_tests_properties(serve_metrics serve_prometheus serve_hostile PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 240)
# The agent's memory: a flap and a port down and back stay in /metrics
# across readings and a restart of serve, until `rdmadoctor clear`.
add_test(NAME serve_latch COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_serve_latch.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
set_tests_properties(serve_latch PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
# node_exporter's infiniband series for an mlx4 port with counters_ext/
# (its collector's and procfs's source the oracle): each has its
# counterpart in /metrics with the value node_exporter would read.
add_test(NAME serve_node_exporter COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_serve_node_exporter.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
set_tests_properties(serve_node_exporter PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60)

# The alert rules in contrib/prometheus/: promtool check and test rules, the
# metrics they name against serve's, real scrapes of a healthy and a broken
# fixture replayed through them.  77 only where promtool is not installed.
add_test(NAME prometheus_rules
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_rules.py ${RD_BIN} ${PROJECT_SOURCE_DIR})
set_tests_properties(prometheus_rules PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
