/* The AVX2 stage-1 kernel (with PCLMULQDQ, BMI1/2, POPCNT): 32-byte vector
 * primitives only; the algorithm is in simd_block.h and stage1_impl.h.
 * Built with -mavx2 -mbmi -mbmi2 -mpclmul -mpopcnt (kernels.cmake). */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#define FJ_K_NAME avx2

typedef __m256i fj_v;
typedef __m256i fj_b;
#define FJ_V_N 2

static inline fj_v fj_v_load(const uint8_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
/* The empty asm hides the value from GCC, which would otherwise rebuild the
 * constant (mov + broadcast) in the loop on every use. */
static inline fj_v fj_v_splat(uint8_t c) {
  fj_v v = _mm256_set1_epi8((char)c);
  __asm__("" : "+x"(v));
  return v;
}
/* vpshufb uses the low nibble and zeroes bytes >= 0x80: within the contract */
static inline fj_v fj_v_lookup(fj_v t, fj_v i) { return _mm256_shuffle_epi8(t, i); }
static inline fj_v fj_v_and(fj_v a, fj_v b) { return _mm256_and_si256(a, b); }
static inline fj_v fj_v_or(fj_v a, fj_v b) { return _mm256_or_si256(a, b); }
static inline fj_v fj_v_xor(fj_v a, fj_v b) { return _mm256_xor_si256(a, b); }
/* no 8-bit shift: shift 16-bit lanes and drop the bits from the neighbour */
static inline fj_v fj_v_shr4(fj_v a) {
  return _mm256_and_si256(_mm256_srli_epi16(a, 4), _mm256_set1_epi8(0x0F));
}
static inline fj_v fj_v_subs(fj_v a, fj_v b) { return _mm256_subs_epu8(a, b); }
/* vpalignr works per 128-bit lane: first build [prev high lane, cur low lane] */
#define FJ_AVX2_PREV(n)                                                                            \
  static inline fj_v fj_v_prev##n(fj_v cur, fj_v prev) {                                           \
    return _mm256_alignr_epi8(cur, _mm256_permute2x128_si256(prev, cur, 0x21), 16 - (n));          \
  }
FJ_AVX2_PREV(1)
FJ_AVX2_PREV(2)
FJ_AVX2_PREV(3)
#undef FJ_AVX2_PREV
static inline fj_b fj_v_eq(fj_v a, fj_v b) { return _mm256_cmpeq_epi8(a, b); }
/* no unsigned compare: a <= b exactly when min(a, b) == a */
static inline fj_b fj_v_le(fj_v a, fj_v b) { return _mm256_cmpeq_epi8(_mm256_min_epu8(a, b), a); }
static inline uint64_t fj_b_mask(const fj_b b[2]) {
  return (uint32_t)_mm256_movemask_epi8(b[0]) | (uint64_t)(uint32_t)_mm256_movemask_epi8(b[1])
                                                    << 32;
}
static inline bool fj_v_ascii(fj_v a) { return _mm256_movemask_epi8(a) == 0; }
static inline bool fj_v_zero(fj_v a) { return _mm256_testz_si256(a, a); }

/* carry-less multiplication by all ones is the prefix XOR */
static inline uint64_t fj_k_prefix_xor(uint64_t x) {
  __m128i r = _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)x), _mm_set1_epi8(-1), 0);
  return (uint64_t)_mm_cvtsi128_si64(r);
}

/* BMI1's TZCNT is defined for 0 (gives 64): no guard bit needed */
#define FJ_K_TZCNT(x) ((uint32_t)_tzcnt_u64(x))

/* Blocks with no structural skip the flatten's 8 stores (32 instructions).
 * Measured on this kernel: 6-8% faster on the files with many such blocks
 * (gsoc-2018 and twitterescaped 29% of their blocks, github_events 16%,
 * twitter 12%), no slower on those that have none. (Before the loop lost
 * two live registers, the same test cost 7-13% on apache_builds,
 * instruments and numbers.) The avx512 kernel's flatten is one compress
 * and store, which gained nothing from it. */
#define FJ_K_FLATTEN_SKIP_EMPTY

#include "scan/simd_block.h"
#include "scan/stage1_impl.h"
#include "scan/utf8_buffer_impl.h"

/* unvalidated minify (minify_impl.h) */
static inline void fj_k_store(uint8_t *out, const fj_k_block *blk) {
  _mm256_storeu_si256((__m256i *)out, blk->v[0]);
  _mm256_storeu_si256((__m256i *)(out + 32), blk->v[1]);
}
#include "scan/minify_x86.h"
#include "scan/minify_impl.h"
