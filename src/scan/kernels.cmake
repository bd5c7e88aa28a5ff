# Stage-1 kernels compiled into this build, and the dispatcher.
#   FJ_KERNEL_SOURCES  sources for the library
#   FJ_KERNEL_NAMES    kernel names, best first (tests are registered once per name)
# Each SIMD kernel file is compiled with its own target flags; the rest of the
# library keeps the toolchain's defaults, and dispatch.c picks a kernel at run
# time. x86 kernels only for x86-64 targets, NEON only for AArch64.
# On x86-64 stage 2's number conversion follows the kernel: number_avx2.c
# compiles number.c again with the avx2 kernel's flags and LZCNT (for the
# avx2 and avx512 kernels), and number.c itself (FJ_KERNEL_X86) then defines
# the entry points that call the active kernel's variant.
set(FJ_KERNEL_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/dispatch.c
  ${CMAKE_CURRENT_LIST_DIR}/kernel_scalar.c
)
set(FJ_KERNEL_NAMES scalar)

string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" _fj_cpu)
if(_fj_cpu MATCHES "^(x86_64|amd64|x64)$")
  set(_d ${CMAKE_CURRENT_LIST_DIR})
  get_filename_component(_n ${CMAKE_CURRENT_LIST_DIR}/../ondemand ABSOLUTE)
  list(APPEND FJ_KERNEL_SOURCES ${_d}/cpu.c ${_d}/kernel_sse42.c ${_d}/kernel_avx2.c
       ${_d}/kernel_avx512.c ${_n}/number_avx2.c)
  set_source_files_properties(${_d}/kernel_sse42.c PROPERTIES COMPILE_OPTIONS
    "-msse4.2;-mpclmul;-mpopcnt")
  set_source_files_properties(${_d}/kernel_avx2.c PROPERTIES COMPILE_OPTIONS
    "-mavx2;-mbmi;-mbmi2;-mpclmul;-mpopcnt")
  set_source_files_properties(${_d}/kernel_avx512.c PROPERTIES COMPILE_OPTIONS
    "-mavx512f;-mavx512bw;-mavx512vl;-mavx512vbmi;-mavx512vbmi2;-mavx2;-mbmi;-mbmi2;-mpclmul;-mpopcnt")
  set_source_files_properties(${_n}/number_avx2.c PROPERTIES COMPILE_OPTIONS
    "-mavx2;-mbmi;-mbmi2;-mlzcnt;-mpclmul;-mpopcnt")
  set_source_files_properties(${_d}/dispatch.c ${_n}/number.c PROPERTIES COMPILE_DEFINITIONS
    FJ_KERNEL_X86)
  set(FJ_KERNEL_NAMES avx512 avx2 sse42 scalar)
elseif(_fj_cpu MATCHES "^(aarch64|arm64)$")
  list(APPEND FJ_KERNEL_SOURCES ${CMAKE_CURRENT_LIST_DIR}/kernel_neon.c)
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/dispatch.c PROPERTIES
    COMPILE_DEFINITIONS FJ_KERNEL_NEON)
  set(FJ_KERNEL_NAMES neon scalar)
endif()
