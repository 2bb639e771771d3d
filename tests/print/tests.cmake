# The fleet HTML report: pages rendered from records built out of
# the fixture machines, opened in headless Chromium, the numbers the browser
# shows compared with the input documents; a screenshot is kept in the build
# tree.  render_fleet is a test-only front end to fleet_html_write().
add_executable(render_fleet ${CMAKE_CURRENT_LIST_DIR}/render_fleet.c)
target_link_libraries(render_fleet PRIVATE rdcore)

add_test(NAME report_html COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_report.sh
  ${RD_BIN} $<TARGET_FILE:render_fleet> ${PROJECT_SOURCE_DIR}
  ${CMAKE_CURRENT_BINARY_DIR}/report-artifacts)
# 77: only when chromium is not installed (the script says so)
set_tests_properties(report_html PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 240)

# The page writer under valgrind (not under the sanitizers, which it cannot
# run with).
if(NOT RD_SANITIZE)
  add_test(NAME report_valgrind COMMAND ${RD_NEED_VALGRIND}
    ${CMAKE_CURRENT_LIST_DIR}/test_report_valgrind.sh
    ${RD_BIN} $<TARGET_FILE:render_fleet> ${PROJECT_SOURCE_DIR})
  set_tests_properties(report_valgrind PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77 LABELS system)
endif()
