# The readers on small trees: trailing whitespace, counters_ext, memlock
# near 2^64, "N/A (no PMA)", IOMMU unknown, no empty parentheses.
add_test(NAME reader_words COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_reader_words.sh
  $<TARGET_FILE:rdmadoctor>)
