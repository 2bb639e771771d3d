# Fleet records: `record` into a real SQLite file and `fleet`
# reading it back, see tests/fleet/test_fleet.py for what each case proves.
foreach(case diff sqlite concurrent errors upgrade upgrade3 record report hostdrift identity
    history fabric rails firmware)
  add_test(NAME fleet_${case}
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_fleet.py ${case} ${RD_BIN} ${PROJECT_SOURCE_DIR})
  set_tests_properties(fleet_${case} PROPERTIES TIMEOUT 180)
endforeach()
# A full disk (a 2 MiB tmpfs): skipped, exit 77, when not root.
add_test(NAME fleet_fulldisk
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_fleet.py fulldisk ${RD_BIN} ${PROJECT_SOURCE_DIR})
set_tests_properties(fleet_fulldisk PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180)
# record and fleet under valgrind (not under the sanitizers, which it
# cannot run with), on both backends.
if(NOT RD_SANITIZE)
  add_test(NAME fleet_valgrind COMMAND ${RD_NEED_VALGRIND}
    ${CMAKE_CURRENT_LIST_DIR}/test_fleet.py valgrind ${RD_BIN} ${PROJECT_SOURCE_DIR})
  set_tests_properties(fleet_valgrind PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS system)
  add_test(NAME fleet_pg_valgrind COMMAND ${RD_NEED_VALGRIND}
    ${CMAKE_CURRENT_LIST_DIR}/test_fleet.py valgrind ${RD_BIN} ${PROJECT_SOURCE_DIR} postgresql)
  set_tests_properties(fleet_pg_valgrind PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS system)
endif()
# The same cases against a real PostgreSQL server each starts for itself
# (tests/fleet/pgserver.py: initdb, pg_ctl, loopback port 21500-21509),
# and PostgreSQL's own: psql as a second reader and the same answers as
# SQLite, clear errors, the server killed mid-write.  Skipped (77) only
# where the server binaries are not installed.
foreach(case diff concurrent upgrade3 record report hostdrift identity history fabric rails firmware pgsql
    pgerrors pgkill pgfulldisk)
  add_test(NAME fleet_pg_${case}
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_fleet.py ${case} ${RD_BIN} ${PROJECT_SOURCE_DIR} postgresql)
  set_tests_properties(fleet_pg_${case} PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
endforeach()
