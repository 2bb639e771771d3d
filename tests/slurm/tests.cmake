# contrib/slurm/rdmadoctor-healthcheck: the Slurm health check.

# Against a real one-node cluster (munged, slurmctld, slurmd on localhost,
# started and stopped by the script; about 10 s).  Skipped, exit 77, only when
# not root or Slurm/munge are not installed: the script says which.
add_test(NAME slurm_healthcheck COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_slurm.sh
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
# Not serial (it times nothing), but never beside the other Slurm of the
# suite (fabric_slurm): one slurmctld and munged each at a time.
set_tests_properties(slurm_healthcheck PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180
  RESOURCE_LOCK slurm)

# Its settings and usage errors: needs neither root nor Slurm.
add_test(NAME slurm_wrapper_settings COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_wrapper_settings.sh
  ${PROJECT_SOURCE_DIR})
set_tests_properties(slurm_wrapper_settings PROPERTIES TIMEOUT 30)

# The wrapper and the test scripts are shellcheck-clean (Debian shellcheck;
# skipped, and named, where it is not installed).
add_test(NAME slurm_shellcheck COMMAND ${RD_NEED_SHELLCHECK} shellcheck -x
  ${PROJECT_SOURCE_DIR}/contrib/slurm/rdmadoctor-healthcheck
  ${CMAKE_CURRENT_LIST_DIR}/test_slurm.sh
  ${CMAKE_CURRENT_LIST_DIR}/test_wrapper_settings.sh)
set_tests_properties(slurm_shellcheck PROPERTIES TIMEOUT 60 SKIP_RETURN_CODE 77 LABELS system)
