# Cross-build for aarch64 (Grace, the Blackwell generation's host CPU) with
# Debian's cross compiler against an arm64 sysroot, and run what the build
# runs (the tests) under qemu-user:
#   mmdebstrap --variant=extract --arch=arm64 --include=PACKAGES bookworm SYSROOT
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
#         -DRD_SYSROOT=SYSROOT
# (tests/run.sh --arm64 does both; tests/README.md, "aarch64").
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)

# try_compile projects see RD_SYSROOT too
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES RD_SYSROOT)
if(NOT RD_SYSROOT)
  message(FATAL_ERROR "set RD_SYSROOT to an arm64 sysroot (cmake/aarch64-linux-gnu.cmake says how)")
endif()
set(CMAKE_SYSROOT ${RD_SYSROOT})
set(CMAKE_FIND_ROOT_PATH ${RD_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config answers from the sysroot's .pc files, paths prefixed with it
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${RD_SYSROOT})
set(ENV{PKG_CONFIG_LIBDIR} "${RD_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${RD_SYSROOT}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

# ctest runs the test programs through qemu-user, by the sysroot's loader
# and libraries.  Not `qemu-aarch64 -L SYSROOT`: that makes every absolute
# path the program opens (/sys, /proc, /) the sysroot's first.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 ${RD_SYSROOT}/lib/ld-linux-aarch64.so.1
  --library-path ${RD_SYSROOT}/lib/aarch64-linux-gnu:${RD_SYSROOT}/usr/lib/aarch64-linux-gnu)
