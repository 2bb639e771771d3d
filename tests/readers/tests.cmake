# The readers on small trees: trailing whitespace, counters_ext, memlock
# near 2^64, "N/A (no PMA)", IOMMU unknown, no empty parentheses.
add_test(NAME reader_words COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_reader_words.sh
  $<TARGET_FILE:rdmadoctor>)
# The EINVAL memory (sysfs/einval_memo.h) traced: a file the kernel refused
# with EINVAL earlier this boot is not opened again (strace; 77 without it).
add_test(NAME reader_einval_strace COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_einval_strace.sh
  $<TARGET_FILE:test_einval_memo>)
set_tests_properties(reader_einval_strace PROPERTIES SKIP_RETURN_CODE 77)
