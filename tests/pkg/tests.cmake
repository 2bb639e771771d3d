# The Debian package (debian/, dist/): built with dpkg-buildpackage from a
# copy of the tree, its contents, lintian, the packaged binary on a packaged
# example, man pages, bash completion and the exporter unit.  A minute or
# two of dpkg-buildpackage; once per suite (not again under the sanitizers,
# which do not change what the package holds).  It leaves the .deb in
# build/deb for the container image test (tests/k8s, fixture rd_deb).
if(NOT RD_SANITIZE)
  add_test(NAME package COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_package.sh ${PROJECT_SOURCE_DIR}
    ${PROJECT_BINARY_DIR}/deb)
  set_tests_properties(package PROPERTIES TIMEOUT 900 LABELS system FIXTURES_SETUP rd_deb)
endif()

# The completion script, the man page generator and the container image
# recipe are shellcheck-clean.
add_test(NAME package_shellcheck COMMAND ${RD_NEED_SHELLCHECK} shellcheck -s bash
  ${PROJECT_SOURCE_DIR}/dist/rdmadoctor.bash-completion)
add_test(NAME package_shellcheck_sh COMMAND ${RD_NEED_SHELLCHECK} shellcheck -x
  ${PROJECT_SOURCE_DIR}/dist/gen-man.sh ${CMAKE_CURRENT_LIST_DIR}/test_package.sh
  ${PROJECT_SOURCE_DIR}/contrib/kubernetes/image/build-image.sh
  ${PROJECT_SOURCE_DIR}/contrib/kubernetes/prometheusrule.sh)
set_tests_properties(package_shellcheck package_shellcheck_sh PROPERTIES
  SKIP_RETURN_CODE 77 LABELS system)
