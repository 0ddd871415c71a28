# Cross-compiling for arm64 with Debian's cross toolchain (crossbuild-essential-arm64) against the
# multiarch -dev packages (libzmq3-dev:arm64, ...), which put libraries in /usr/lib/aarch64-linux-gnu
# and share /usr/include. Used by scripts/cross-check arm64.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# pkg-config finds the arm64 .pc files only.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
# Test binaries (and gtest_discover_tests' listing) run under qemu-user, with arm64's loader and libraries.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
