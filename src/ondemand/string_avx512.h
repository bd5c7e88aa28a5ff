/* The AVX-512 stage-2 string primitives (the contract is fj__string_kernel's
 * in internal.h): included by string.c, which puts them in the avx512
 * kernel's table. A header of their own so that the tests can compile them a
 * second time through SIMDe (tests/string_avx512_simde.c) and check them on
 * CPUs without AVX-512, the way kernel_avx512.c is checked; the library's
 * build is unchanged, the functions being static in string.c as before.
 * That test build defines FJ_AVX512_SIMDE and includes tests/avx512_simde.h
 * first: the target attribute then goes, as it would let the compiler emit
 * AVX-512 instructions of its own for SIMDe's portable code. */
#ifndef FJ_ONDEMAND_STRING_AVX512_H
#define FJ_ONDEMAND_STRING_AVX512_H

#include <stddef.h>
#include <stdint.h>

#ifndef FJ_AVX512_SIMDE
#include <immintrin.h>
#define FJ_STRING_AVX512 __attribute__((target("avx512f,avx512bw,bmi2")))
#else
#define FJ_STRING_AVX512
#endif

/* Masked loads never touch the bytes outside the mask. */
FJ_STRING_AVX512 static size_t find_backslash_avx512(const uint8_t *s, size_t n) {
  const __m512i bs = _mm512_set1_epi8('\\');
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    FJ_STRING_PREFETCH(s + i);
    uint64_t m = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512((const void *)(s + i)), bs);
    if (m) return i + (size_t)__builtin_ctzll(m);
  }
  if (i == n) return n;
  __mmask64 live = _bzhi_u64(~0ull, (unsigned)(n - i));
  uint64_t m = _mm512_mask_cmpeq_epi8_mask(live, _mm512_maskz_loadu_epi8(live, s + i), bs);
  return m ? i + (size_t)__builtin_ctzll(m) : n;
}

/* The last, partial block with a masked load and store. */
FJ_STRING_AVX512 static size_t copy_plain_avx512(uint8_t *dst, const uint8_t *s, size_t n) {
  const __m512i bs = _mm512_set1_epi8('\\');
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    FJ_STRING_PREFETCH(s + i);
    const __m512i v = _mm512_loadu_si512((const void *)(s + i));
    _mm512_storeu_si512((void *)(dst + i), v);
    uint64_t m = _mm512_cmpeq_epi8_mask(v, bs);
    if (m) return i + (size_t)__builtin_ctzll(m);
  }
  if (i == n) return n;
  __mmask64 live = _bzhi_u64(~0ull, (unsigned)(n - i));
  const __m512i v = _mm512_maskz_loadu_epi8(live, s + i);
  _mm512_mask_storeu_epi8(dst + i, live, v);
  uint64_t m = _mm512_mask_cmpeq_epi8_mask(live, v, bs);
  return m ? i + (size_t)__builtin_ctzll(m) : n;
}

#undef FJ_STRING_AVX512
#endif
