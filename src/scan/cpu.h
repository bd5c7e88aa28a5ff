/* CPU feature detection (private) for choosing a stage-1 kernel. Each
 * function answers whether the CPU has every instruction the kernel of that
 * name is compiled with, and whether the OS saves the registers it uses.
 * The answer is computed once; calls are thread-safe. x86-64 only. */
#ifndef FJ_SCAN_CPU_H
#define FJ_SCAN_CPU_H

#include <stdbool.h>

bool fj__cpu_sse42(void);  /* SSE4.2, SSSE3, POPCNT, PCLMULQDQ */
bool fj__cpu_avx2(void);   /* + AVX, AVX2, BMI1, BMI2, and YMM state saved by the OS */
bool fj__cpu_avx512(void); /* + AVX-512 F/BW/VL/VBMI/VBMI2, and ZMM/opmask state saved */

#endif
