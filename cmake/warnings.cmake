# The warning list follows rdma-core's: catch what review misses.
add_compile_options(
  -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes -Wstrict-prototypes
  -Wpointer-arith -Wwrite-strings -Wundef -Wvla -Wno-unused-parameter)
add_compile_definitions(_GNU_SOURCE)
if(RD_WERROR)
  add_compile_options(-Werror)
endif()
if(RD_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
endif()
if(RD_FUZZ)
  # every library the fuzz targets link is instrumented for coverage; with
  # RD_SANITIZE too (clang), one tree holds the sanitizer tests and the
  # fuzzers, so the sources are compiled once for both
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=address,undefined)
endif()
