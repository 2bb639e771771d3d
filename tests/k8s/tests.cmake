# Kubernetes: check --npd against Node Problem Detector's plugin protocol,
# contrib/kubernetes/rdmadoctor-npd.json against NPD's config checks, and
# `labels` against Node Feature Discovery's feature-file parser and
# Kubernetes' label syntax (each read from its source; no cluster here).
add_test(NAME k8s_npd_nfd COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_k8s.py
  $<TARGET_FILE:rdmadoctor> ${PROJECT_SOURCE_DIR})
