# The driver stack against the kernel (driver.*) on fixture roots built
# from this machine's real /lib/modules .ko files, oracle readelf -n and
# modinfo on the same bytes, and a DKMS tree built by Debian's dkms (77: no
# /lib/modules with the RDMA modules).
add_test(NAME drv_stack_real COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_drv_stack.sh
  $<TARGET_FILE:rdmadoctor> ${PROJECT_SOURCE_DIR})
set_tests_properties(drv_stack_real PROPERTIES SKIP_RETURN_CODE 77)
