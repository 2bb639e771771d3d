# `rdmadoctor plan` (docs/plan.md): figures that tests/plan/test_plan.py
# computes from the formulas on its own, the worked example, a recorded
# host with a measured bandwidth, and usage errors.
foreach(case worked configs recorded bad)
  add_test(NAME plan_${case}
    COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_plan.py ${case} ${RD_BIN} ${PROJECT_SOURCE_DIR})
  set_tests_properties(plan_${case} PROPERTIES TIMEOUT 120)
endforeach()
# under valgrind (not under the sanitizers, which it cannot run with)
if(NOT RD_SANITIZE)
  add_test(NAME plan_valgrind COMMAND ${RD_NEED_VALGRIND}
    python3 ${CMAKE_CURRENT_LIST_DIR}/test_plan.py valgrind ${RD_BIN} ${PROJECT_SOURCE_DIR})
  set_tests_properties(plan_valgrind PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS system)
endif()
