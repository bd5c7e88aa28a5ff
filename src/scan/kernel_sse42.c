/* The SSE4.2 stage-1 kernel (with PCLMULQDQ and POPCNT): 16-byte vector
 * primitives only; the algorithm is in simd_block.h and stage1_impl.h.
 * Built with -msse4.2 -mpclmul -mpopcnt (kernels.cmake). */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#define FJ_K_NAME sse42

typedef __m128i fj_v;
typedef __m128i fj_b;
#define FJ_V_N 4

static inline fj_v fj_v_load(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)p); }
static inline fj_v fj_v_splat(uint8_t c) { return _mm_set1_epi8((char)c); }
/* pshufb uses the low nibble and zeroes bytes >= 0x80: within the contract */
static inline fj_v fj_v_lookup(fj_v t, fj_v i) { return _mm_shuffle_epi8(t, i); }
static inline fj_v fj_v_and(fj_v a, fj_v b) { return _mm_and_si128(a, b); }
static inline fj_v fj_v_or(fj_v a, fj_v b) { return _mm_or_si128(a, b); }
static inline fj_v fj_v_xor(fj_v a, fj_v b) { return _mm_xor_si128(a, b); }
/* no 8-bit shift: shift 16-bit lanes and drop the bits from the neighbour */
static inline fj_v fj_v_shr4(fj_v a) {
  return _mm_and_si128(_mm_srli_epi16(a, 4), _mm_set1_epi8(0x0F));
}
static inline fj_v fj_v_subs(fj_v a, fj_v b) { return _mm_subs_epu8(a, b); }
static inline fj_v fj_v_prev1(fj_v cur, fj_v prev) { return _mm_alignr_epi8(cur, prev, 15); }
static inline fj_v fj_v_prev2(fj_v cur, fj_v prev) { return _mm_alignr_epi8(cur, prev, 14); }
static inline fj_v fj_v_prev3(fj_v cur, fj_v prev) { return _mm_alignr_epi8(cur, prev, 13); }
static inline fj_b fj_v_eq(fj_v a, fj_v b) { return _mm_cmpeq_epi8(a, b); }
/* no unsigned compare: a <= b exactly when min(a, b) == a */
static inline fj_b fj_v_le(fj_v a, fj_v b) { return _mm_cmpeq_epi8(_mm_min_epu8(a, b), a); }
static inline uint64_t fj_b_mask(const fj_b b[4]) {
  return (uint64_t)(uint16_t)_mm_movemask_epi8(b[0]) |
         (uint64_t)(uint16_t)_mm_movemask_epi8(b[1]) << 16 |
         (uint64_t)(uint16_t)_mm_movemask_epi8(b[2]) << 32 |
         (uint64_t)(uint16_t)_mm_movemask_epi8(b[3]) << 48;
}
static inline bool fj_v_ascii(fj_v a) { return _mm_movemask_epi8(a) == 0; }
static inline bool fj_v_zero(fj_v a) { return _mm_testz_si128(a, a); }

/* carry-less multiplication by all ones is the prefix XOR */
static inline uint64_t fj_k_prefix_xor(uint64_t x) {
  __m128i r = _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)x), _mm_set1_epi8(-1), 0);
  return (uint64_t)_mm_cvtsi128_si64(r);
}

#include "scan/simd_block.h"
#include "scan/stage1_impl.h"
#include "scan/utf8_buffer_impl.h"

/* unvalidated minify (minify_impl.h) */
static inline void fj_k_store(uint8_t *out, const fj_k_block *blk) {
  for (int i = 0; i < 4; i++)
    _mm_storeu_si128((__m128i *)(out + 16 * i), blk->v[i]);
}
#include "scan/minify_x86.h"
#include "scan/minify_impl.h"
