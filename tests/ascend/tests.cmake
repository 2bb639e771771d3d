# Huawei Ascend NPUs (docs/ascend.md): the NPU checks on the Atlas 800
# fixtures and variants of them, and the live path with stand-in
# hccn_tool / npu-smi scripts on PATH.
add_test(NAME ascend_checks COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/checks.py
  ${RD_BIN} ${CMAKE_CURRENT_LIST_DIR}/../fixtures)
add_test(NAME ascend_live COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_live.sh
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
set_tests_properties(ascend_live PROPERTIES TIMEOUT 120)
add_test(NAME ascend_metrics COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_metrics.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
set_tests_properties(ascend_metrics PROPERTIES TIMEOUT 60)
# the parsers' unit test reads the npu-smi captures of
# tests/fixtures/ascend-captures
set_tests_properties(unit_ascend_parse PROPERTIES
  ENVIRONMENT "RD_FIXTURES=${CMAKE_CURRENT_LIST_DIR}/../fixtures")
