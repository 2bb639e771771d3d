# Fleet records: `record` into a real SQLite file and `fleet`
# reading it back, see tests/fleet/test_fleet.py for what each case proves.
foreach(case diff sqlite concurrent errors upgrade record report)
  add_test(NAME fleet_${case}
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_fleet.py ${case} $<TARGET_FILE:rdmadoctor> ${PROJECT_SOURCE_DIR})
  set_tests_properties(fleet_${case} PROPERTIES TIMEOUT 180)
endforeach()
# A full disk (a 2 MiB tmpfs): skipped, exit 77, when not root.
add_test(NAME fleet_fulldisk
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_fleet.py fulldisk $<TARGET_FILE:rdmadoctor> ${PROJECT_SOURCE_DIR})
set_tests_properties(fleet_fulldisk PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180)
# record and fleet under valgrind (not under the sanitizers, which it
# cannot run with).
if(VALGRIND AND NOT RD_SANITIZE)
  add_test(NAME fleet_valgrind
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_fleet.py valgrind $<TARGET_FILE:rdmadoctor> ${PROJECT_SOURCE_DIR})
  set_tests_properties(fleet_valgrind PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
