# docs/json/<command>.md lists every key the commands print on the
# fixtures (and bw/lat over TCP on loopback).
add_test(NAME json_docs COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_json_docs.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
set_tests_properties(json_docs PROPERTIES TIMEOUT 300)

# The map matches the house: docs/architecture.md's floors against the
# includes of src/ (no circle, nothing up), the command layer's size, and
# every path the page names.
add_test(NAME docs_architecture COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_architecture.py
  ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/docs/architecture.md)
