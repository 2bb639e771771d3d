# RoCE LAG: a bond port asks its slaves for DCB, ECN and the module EEPROM
# (hgx-roce-lag copied, one slave broken at a time; watch's pause sums).
add_test(NAME lag COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_lag.sh
  $<TARGET_FILE:rdmadoctor> ${PROJECT_SOURCE_DIR})
set_tests_properties(lag PROPERTIES TIMEOUT 120)
