# NVML's NVLink fabric (src/nvml/fabric.c, src/check/nvlink.c), judged with
# a STAND-IN for NVML built here: nvml_standin.c answers the reader's calls
# from values the test records (it is not NVIDIA's library).
add_library(nvml_standin SHARED ${CMAKE_CURRENT_LIST_DIR}/nvml_standin.c)
set_target_properties(nvml_standin PROPERTIES PREFIX "lib" OUTPUT_NAME "nvml_standin")
add_test(NAME check_nvlink COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/nvlink.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR}/tests/fixtures $<TARGET_FILE:nvml_standin>)
