# Cross-compiling for arm64 with Debian's cross toolchain (crossbuild-essential-arm64) against the
# multiarch -dev packages (libzmq3-dev:arm64, ...), which put libraries in /usr/lib/aarch64-linux-gnu
# and share /usr/include. Used by scripts/cross-check arm64.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# GNUInstallDirs gives Debian's multiarch library folder only when not cross-compiling (here it said lib):
# the camera plug-in, and the daemon's CARDTABLE_PLUGIN_DIR that finds it, belong in
# /usr/lib/aarch64-linux-gnu/cardtable, as the amd64 package's are in /usr/lib/x86_64-linux-gnu/cardtable.
set(CMAKE_INSTALL_LIBDIR lib/aarch64-linux-gnu)
# pkg-config finds the arm64 .pc files only.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
# Test binaries (and gtest_discover_tests' listing) run under qemu-user with the multiarch libc6:arm64's
# loader (/lib/ld-linux-aarch64.so.1, found with -L /), the one built with the libc.so.6 that the :arm64
# libraries resolve to. Not -L /usr/aarch64-linux-gnu: that loader is libc6-arm64-cross's (2.36-8cross1 in
# Debian 12), paired at run time with libc6:arm64's libc.so.6 (2.36-9+deb12u*): a loader and a libc of
# different builds, with which every pthread_create hangs (the daemon never reached READY; a unit test
# that starts a thread -- any ZeroMQ context -- never ended).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /)
# OpenCV for arm64 from a private sysroot (scripts/arm64-opencv-sysroot; Debian 12's libopencv-dev:arm64
# cannot be installed beside the machine's amd64 one): CARDTABLE_ARM64_LIBRARY_PATH names its library
# folders. The linker finds the libraries OpenCV's own need there (-rpath-link: nothing of the path is
# written into the binaries; a link option, not CMAKE_*_LINKER_FLAGS_INIT, which a build folder configured
# before would never see), and the programs and tests run under qemu find them through LD_LIBRARY_PATH,
# set for the emulated program only (-E), not for qemu itself.
if(CARDTABLE_ARM64_LIBRARY_PATH)
  add_link_options("LINKER:-rpath-link,${CARDTABLE_ARM64_LIBRARY_PATH}")
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L / -E LD_LIBRARY_PATH=${CARDTABLE_ARM64_LIBRARY_PATH})
  list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES CARDTABLE_ARM64_LIBRARY_PATH)
  # dpkg-shlibdeps finds them there too (-l), and their packages' names in the sysroot's DEBIAN/shlibs and
  # DEBIAN/symbols (the packages' own, merged).
  string(REPLACE ":" ";" CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${CARDTABLE_ARM64_LIBRARY_PATH}")
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
