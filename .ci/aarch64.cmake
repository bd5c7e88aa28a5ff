# CMake toolchain file: cross-compile for AArch64 Linux with Debian's
# gcc-aarch64-linux-gnu, find arm64 libraries installed through multiarch
# (libcmocka-dev:arm64 in /usr/lib/aarch64-linux-gnu), and run test programs
# under qemu-user. Used by .ci/neon.sh.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# the arm64 C library and loader come with libc6:arm64 (a dependency of
# libcmocka0:arm64), so qemu needs no separate sysroot
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
