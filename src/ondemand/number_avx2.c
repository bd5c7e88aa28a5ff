/* number.c again, for the avx2 and avx512 stage-1 kernels: the same source
 * built with the avx2 kernel's target flags and LZCNT (kernels.cmake), its
 * entry points named fj__parse_double_avx2 and so on (number.h). dispatch.c
 * puts them in those kernels' tables; the CPU check of the avx2 kernel
 * (cpu.c) includes LZCNT. */
#define FJ_NUMBER_KERNEL avx2
#include "ondemand/number.c"
