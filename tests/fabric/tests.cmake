# rdmadoctor fabric: the pure parts are unit tests (tests/unit/test_fabric_*.c);
# these run it under the real launchers.

# Open MPI's mpirun, 6-8 ranks in one network namespace made by the test,
# each on its own address, faults made with tc (root only: skipped, exit 77,
# otherwise or without mpirun; the script says why).  About 40 s.
add_test(NAME fabric_mpirun COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_fabric_mpirun.sh
  $<TARGET_FILE:rdmadoctor>)
set_tests_properties(fabric_mpirun PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 400 RUN_SERIAL TRUE)
