# A new user's first contact: the README's first command, exactly as written,
# on a minimal Debian 12 tree that mmdebstrap makes from this machine's apt
# sources (test_first_command.sh says how).  About 5 minutes, most of it
# downloads and the build: started first (COST), once per suite (label
# system: the sanitizer build does not run it).
add_test(NAME fresh_first_command
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_first_command.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(fresh_first_command PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1800
  LABELS system)
