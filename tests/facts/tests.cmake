# Facts checked against outside references (issue #29, section 3): each
# case a tree copied from a bundled fixture and changed, the value it must
# give asserted.
add_test(NAME facts_outside COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_facts.sh
  $<TARGET_FILE:rdmadoctor> ${PROJECT_SOURCE_DIR})
set_tests_properties(facts_outside PROPERTIES TIMEOUT 120)
