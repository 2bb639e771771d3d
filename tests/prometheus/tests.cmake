# The alert rules in contrib/prometheus/: promtool check and test rules, the
# metrics they name against serve's, real scrapes of a healthy and a broken
# fixture replayed through them.  77 only where promtool is not installed.
add_test(NAME prometheus_rules
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_rules.py $<TARGET_FILE:rdmadoctor> ${PROJECT_SOURCE_DIR})
set_tests_properties(prometheus_rules PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
