/* CPU feature detection with cpuid and xgetbv. A CPU can have AVX or
 * AVX-512 while the OS does not save those registers on a context switch;
 * then XCR0 (read with xgetbv, allowed only when CPUID says OSXSAVE) lacks
 * the state bits and the kernel must not be used. The features are one
 * atomic word: two threads computing it at once store the same value. */
#include "scan/cpu.h"

#include <cpuid.h>
#include <stdatomic.h>
#include <stdint.h>

enum {
  F_DONE = 1 << 0, /* the other bits are valid */
  F_SSE42 = 1 << 1,
  F_AVX2 = 1 << 2,
  F_AVX512 = 1 << 3,
};

static _Atomic unsigned features;

static uint64_t xgetbv0(void) {
  uint32_t lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (uint64_t)hi << 32 | lo;
}

static unsigned detect(void) {
  unsigned a, b, c, d, f = F_DONE;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return f;
  const unsigned ecx1 = c;
  const bool sse42 = (ecx1 & bit_SSSE3) && (ecx1 & bit_SSE4_1) && (ecx1 & bit_SSE4_2) &&
                     (ecx1 & bit_POPCNT) && (ecx1 & bit_PCLMUL);
  if (!sse42) return f;
  f |= F_SSE42;
  if (!(ecx1 & bit_OSXSAVE) || !(ecx1 & bit_AVX)) return f;
  const uint64_t xcr0 = xgetbv0();
  const uint64_t ymm = (1u << 1) | (1u << 2);                   /* SSE and AVX state */
  const uint64_t zmm = ymm | (1u << 5) | (1u << 6) | (1u << 7); /* opmask, ZMM0-15 high, ZMM16-31 */
  if ((xcr0 & ymm) != ymm) return f;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return f;
  if (!(b & bit_AVX2) || !(b & bit_BMI) || !(b & bit_BMI2)) return f;
  /* LZCNT (CPUID 0x80000001 ECX bit 5, "ABM" on AMD): the avx2 and avx512
   * kernels' number conversion uses it (number_avx2.c). Every AVX2 CPU has
   * it; on one without, the instruction would run as BSR and miscount. */
  unsigned ea, eb, ec, ed;
  if (!__get_cpuid(0x80000001, &ea, &eb, &ec, &ed) || !(ec & (1u << 5))) return f;
  f |= F_AVX2;
  if ((xcr0 & zmm) != zmm) return f;
  if ((b & bit_AVX512F) && (b & bit_AVX512BW) && (b & bit_AVX512VL) && (c & bit_AVX512VBMI) &&
      (c & bit_AVX512VBMI2))
    f |= F_AVX512;
  return f;
}

static unsigned get(void) {
  unsigned f = atomic_load_explicit(&features, memory_order_relaxed);
  if (!f) {
    f = detect();
    atomic_store_explicit(&features, f, memory_order_relaxed);
  }
  return f;
}

bool fj__cpu_sse42(void) { return get() & F_SSE42; }
bool fj__cpu_avx2(void) { return get() & F_AVX2; }
bool fj__cpu_avx512(void) { return get() & F_AVX512; }
