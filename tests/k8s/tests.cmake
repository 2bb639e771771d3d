# Kubernetes: check --npd against Node Problem Detector's plugin protocol,
# contrib/kubernetes/rdmadoctor-npd.json against NPD's config checks, and
# `labels` against Node Feature Discovery's feature-file parser and
# Kubernetes' label syntax (each read from its source; no cluster here).
add_test(NAME k8s_npd_nfd COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_k8s.py
  ${RD_BIN} ${PROJECT_SOURCE_DIR})

# contrib/kubernetes's DaemonSet, Service and ServiceMonitor against
# Kubernetes' published object schemas and the types generated from them
# (npm packages pinned in tests/k8s/schema, kept in build/k8s-schema between
# runs).  Once per suite: it judges no memory of ours.
add_test(NAME k8s_manifests COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_manifests.py
  ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/k8s-schema)
set_tests_properties(k8s_manifests PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS system)

# The container image built from the package test's .deb (fixture rd_deb:
# it runs after `package`, and `ctest -R k8s_image` runs that first), and
# the DaemonSet's pod run from it, by podman or bwrap, /metrics scraped.
if(NOT RD_SANITIZE)
  add_test(NAME k8s_image COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_image.py
    ${PROJECT_BINARY_DIR}/deb ${PROJECT_SOURCE_DIR})
  set_tests_properties(k8s_image PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS system
    FIXTURES_REQUIRED rd_deb)
endif()

# Node Problem Detector's plugin as NPD runs it: the agent's verdict
# (labels --npd) printed by rdmadoctor-npd in an empty root (bwrap: no
# library there), against check --npd on the same machines; stale, missing
# and malformed verdicts Unknown; --install; the manifests agree.  The
# sanitizer trees link the plugin dynamically (a sanitizer cannot link
# statically), so it runs once per suite (label system).
add_test(NAME k8s_npd_plugin COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_npd_plugin.py
  ${RD_BIN} $<TARGET_FILE:rdmadoctor-npd> ${PROJECT_SOURCE_DIR})
set_tests_properties(k8s_npd_plugin PROPERTIES TIMEOUT 300 LABELS system)
