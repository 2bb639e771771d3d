# rdmadoctor nccl on every bundled tree, each variable against a value the
# test derives from the tree's own files, and `nccl --check --env` with the
# bad environments of tests/nccl/envs (their ids in each file's header).
add_test(NAME nccl_trees COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_nccl_trees.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
set_tests_properties(nccl_trees PROPERTIES TIMEOUT 300)
