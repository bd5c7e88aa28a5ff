/* The intrinsics of src/scan/kernel_avx512.c and of the AVX-512 string
 * primitives (src/ondemand/string_avx512.h) in portable C, for their test
 * builds on CPUs without AVX-512 (tests/CMakeLists.txt, test_kernels.c,
 * test_string.c): those builds define FJ_AVX512_SIMDE, which leaves out the
 * sources' <immintrin.h>, and include this header first (-include). SIMDe
 * (Debian's libsimde-dev) implements nearly
 * every AVX-512 intrinsic in plain C or SSE2 and, with native aliases, under
 * its Intel name. The few these sources use that SIMDe 0.7.4 lacks are written
 * out below, element by element as Intel's guide defines them; they replace
 * SIMDe's own where a newer SIMDe has them, so every SIMDe version runs the
 * same code. (Under their names <immintrin.h>, which SIMDe includes, declares
 * the real instructions, which do not compile without -mavx512*: hence the
 * #undef before each #define.) Two more replace SIMDe's for speed alone (the
 * last two below): clang 14 compiles SIMDe's byte loops for set1_epi8 and
 * permutexvar_epi8 into a store and reload of the whole 64-byte vector per
 * byte, which made clang's build of the test ten times slower than GCC's.
 * Test code only: not in the library. */
#ifndef FJ_TESTS_AVX512_SIMDE_H
#define FJ_TESTS_AVX512_SIMDE_H

#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>
#include <simde/x86/clmul.h>

#include <stdint.h>
#include <string.h>

typedef simde__mmask64 __mmask64;

/* The 64 bytes at r as a vector: the shims below compute element by
 * element in arrays. */
static inline simde__m512i fj_simde_from_bytes(const void *r) {
  simde__m512i v;
  memcpy(&v, r, 64);
  return v;
}

/* per 128-bit lane: the 32 bytes a:b shifted right by n bytes, low 16 kept */
static inline simde__m512i fj_simde_alignr_epi8(simde__m512i a, simde__m512i b, int n) {
  uint8_t x[64], y[64], r[64];
  memcpy(x, &a, 64);
  memcpy(y, &b, 64);
  for (int lane = 0; lane < 64; lane += 16)
    for (int i = 0; i < 16; i++) {
      int j = i + n;
      r[lane + i] = j < 16 ? y[lane + j] : j < 32 ? x[lane + j - 16] : 0;
    }
  return fj_simde_from_bytes(r);
}
#undef _mm512_alignr_epi8
#define _mm512_alignr_epi8(a, b, n) fj_simde_alignr_epi8(a, b, n)

/* the 16 low bytes zero-extended to 32 bits */
static inline simde__m512i fj_simde_cvtepu8_epi32(simde__m128i a) {
  uint8_t x[16];
  uint32_t r[16];
  memcpy(x, &a, 16);
  for (int i = 0; i < 16; i++)
    r[i] = x[i];
  return fj_simde_from_bytes(r);
}
#undef _mm512_cvtepu8_epi32
#define _mm512_cvtepu8_epi32(a) fj_simde_cvtepu8_epi32(a)

/* the bytes of a selected by k, in order, to the front; zeros after them */
static inline simde__m512i fj_simde_maskz_compress_epi8(simde__mmask64 k, simde__m512i a) {
  uint8_t x[64], r[64] = {0};
  memcpy(x, &a, 64);
  int j = 0;
  for (int i = 0; i < 64; i++)
    if (k >> i & 1) r[j++] = x[i];
  return fj_simde_from_bytes(r);
}
#undef _mm512_maskz_compress_epi8
#define _mm512_maskz_compress_epi8(k, a) fj_simde_maskz_compress_epi8(k, a)

static inline simde__mmask64 fj_simde_mask_cmpgt_epu8_mask(simde__mmask64 k, simde__m512i a,
                                                           simde__m512i b) {
  return k & simde_mm512_cmpgt_epu8_mask(a, b);
}
#undef _mm512_mask_cmpgt_epu8_mask
#define _mm512_mask_cmpgt_epu8_mask(k, a, b) fj_simde_mask_cmpgt_epu8_mask(k, a, b)

static inline simde__mmask64 fj_simde_cmpneq_epi8_mask(simde__m512i a, simde__m512i b) {
  return ~simde_mm512_cmpeq_epi8_mask(a, b);
}
#undef _mm512_cmpneq_epi8_mask
#define _mm512_cmpneq_epi8_mask(a, b) fj_simde_cmpneq_epi8_mask(a, b)

/* bytes where a & b is zero */
static inline simde__mmask64 fj_simde_testn_epi8_mask(simde__m512i a, simde__m512i b) {
  return ~simde_mm512_test_epi8_mask(a, b);
}
#undef _mm512_testn_epi8_mask
#define _mm512_testn_epi8_mask(a, b) fj_simde_testn_epi8_mask(a, b)

/* for speed (see the top): the 64 bytes set to c */
static inline simde__m512i fj_simde_set1_epi8(char c) {
  uint8_t r[64];
  memset(r, (uint8_t)c, 64);
  return fj_simde_from_bytes(r);
}
#undef _mm512_set1_epi8
#define _mm512_set1_epi8(c) fj_simde_set1_epi8(c)

/* for speed (see the top): byte i is a's byte idx[i] & 63 */
static inline simde__m512i fj_simde_permutexvar_epi8(simde__m512i idx, simde__m512i a) {
  uint8_t x[64], j[64], r[64];
  memcpy(x, &a, 64);
  memcpy(j, &idx, 64);
  for (int i = 0; i < 64; i++)
    r[i] = x[j[i] & 63];
  return fj_simde_from_bytes(r);
}
#undef _mm512_permutexvar_epi8
#define _mm512_permutexvar_epi8(idx, a) fj_simde_permutexvar_epi8(idx, a)

/* ---- for the string primitives ---- */

/* a with its bits from n (the low 8 bits of n) up cleared; BMI2, which SIMDe
 * does not cover */
static inline uint64_t fj_simde_bzhi_u64(uint64_t a, unsigned n) {
  n &= 0xFF;
  return n < 64 ? a & ((UINT64_C(1) << n) - 1) : a;
}
#undef _bzhi_u64
#define _bzhi_u64(a, n) fj_simde_bzhi_u64(a, n)

/* The masked load and store read and write only the bytes k selects, as the
 * instructions do (they suppress faults on the others): a guard page after
 * the input then tests this build as it would the real instructions. */
static inline simde__m512i fj_simde_maskz_loadu_epi8(simde__mmask64 k, const void *p) {
  const uint8_t *m = p;
  uint8_t r[64];
  for (int i = 0; i < 64; i++)
    r[i] = k >> i & 1 ? m[i] : 0;
  return fj_simde_from_bytes(r);
}
#undef _mm512_maskz_loadu_epi8
#define _mm512_maskz_loadu_epi8(k, p) fj_simde_maskz_loadu_epi8(k, p)

static inline void fj_simde_mask_storeu_epi8(void *p, simde__mmask64 k, simde__m512i a) {
  uint8_t *m = p, x[64];
  memcpy(x, &a, 64);
  for (int i = 0; i < 64; i++)
    if (k >> i & 1) m[i] = x[i];
}
#undef _mm512_mask_storeu_epi8
#define _mm512_mask_storeu_epi8(p, k, a) fj_simde_mask_storeu_epi8(p, k, a)

#endif
