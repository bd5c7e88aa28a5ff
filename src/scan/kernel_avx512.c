/* The AVX-512 stage-1 kernel (F, BW, VL, VBMI and VBMI2, with PCLMULQDQ, BMI1/2,
 * POPCNT): one 64-byte vector per block, comparisons straight into 64-bit
 * masks, and a flatten by byte compression. Primitives only; the algorithm
 * is in simd_block.h and stage1_impl.h. Built with the flags in kernels.cmake.
 *
 * Built a second time for the tests only, with FJ_AVX512_SIMDE defined and
 * no AVX-512 flags: SIMDe's portable intrinsics then stand in for the
 * instructions, so that test_kernels compares this kernel with scalar on CPUs
 * that cannot run it (tests/CMakeLists.txt). That build includes
 * tests/avx512_simde.h (-include) in place of <immintrin.h>: a quoted
 * include here would be pulled into the single-file distribution
 * (scripts/amalgamate.py expands every one, #ifdef or not). */
#ifndef FJ_AVX512_SIMDE
#include <immintrin.h>
#endif
#include <stdbool.h>
#include <stdint.h>

#define FJ_K_NAME avx512

typedef __m512i fj_v;
typedef __mmask64 fj_b;
#define FJ_V_N 1

static inline fj_v fj_v_load(const uint8_t *p) { return _mm512_loadu_si512((const void *)p); }
/* The empty asm hides the value from GCC, which would otherwise rebuild the
 * constant (mov + broadcast) in the loop on every use instead of keeping it
 * in one of the 32 registers. Not in the SIMDe build: there a 64-byte vector
 * is a struct in memory, which no register constraint ("v") can take. */
static inline fj_v fj_v_splat(uint8_t c) {
  fj_v v = _mm512_set1_epi8((char)c);
#ifndef FJ_AVX512_SIMDE
  __asm__("" : "+v"(v));
#endif
  return v;
}
/* vpshufb uses the low nibble and zeroes bytes >= 0x80: within the contract */
static inline fj_v fj_v_lookup(fj_v t, fj_v i) { return _mm512_shuffle_epi8(t, i); }
static inline fj_v fj_v_and(fj_v a, fj_v b) { return _mm512_and_si512(a, b); }
static inline fj_v fj_v_or(fj_v a, fj_v b) { return _mm512_or_si512(a, b); }
static inline fj_v fj_v_xor(fj_v a, fj_v b) { return _mm512_xor_si512(a, b); }
/* no 8-bit shift: shift 16-bit lanes and drop the bits from the neighbour */
static inline fj_v fj_v_shr4(fj_v a) {
  return _mm512_and_si512(_mm512_srli_epi16(a, 4), _mm512_set1_epi8(0x0F));
}
static inline fj_v fj_v_subs(fj_v a, fj_v b) { return _mm512_subs_epu8(a, b); }
/* vpalignr works per 128-bit lane: first build the vector one lane back
 * ([prev lane 3, cur lanes 0..2]) with a two-source qword permute */
#define FJ_AVX512_PREV(n)                                                                          \
  static inline fj_v fj_v_prev##n(fj_v cur, fj_v prev) {                                           \
    const __m512i back = _mm512_set_epi64(13, 12, 11, 10, 9, 8, 7, 6);                             \
    return _mm512_alignr_epi8(cur, _mm512_permutex2var_epi64(prev, back, cur), 16 - (n));          \
  }
FJ_AVX512_PREV(1)
FJ_AVX512_PREV(2)
FJ_AVX512_PREV(3)
#undef FJ_AVX512_PREV
static inline fj_b fj_v_eq(fj_v a, fj_v b) { return _mm512_cmpeq_epi8_mask(a, b); }
static inline fj_b fj_v_le(fj_v a, fj_v b) { return _mm512_cmple_epu8_mask(a, b); }
static inline uint64_t fj_b_mask(const fj_b b[1]) { return b[0]; }
static inline bool fj_v_ascii(fj_v a) { return _mm512_movepi8_mask(a) == 0; }
static inline bool fj_v_zero(fj_v a) { return _mm512_test_epi8_mask(a, a) == 0; }

/* carry-less multiplication by all ones is the prefix XOR */
static inline uint64_t fj_k_prefix_xor(uint64_t x) {
  __m128i r = _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)x), _mm_set1_epi8(-1), 0);
  return (uint64_t)_mm_cvtsi128_si64(r);
}

/* VBMI2 compresses the byte numbers 0..63 of the set bits to the front; each
 * group of 16 is widened to 32 bits and stored. Up to 16 entries past the
 * last real one are written: the index has FJ_INDEX_SLACK for that. */
#define FJ_K_HAVE_FLATTEN
/* the block's offset is kept in all 16 lanes, moved on by a vector add
 * rather than broadcast again from a general register every block */
typedef __m512i fj_k_base;
static inline fj_k_base fj_k_base_at(uint32_t at) { return _mm512_set1_epi32((int)at); }
static inline fj_k_base fj_k_base_next(fj_k_base base) {
  return _mm512_add_epi32(base, _mm512_set1_epi32(64));
}
static inline uint32_t *fj_k_flatten(uint32_t *out, fj_k_base b, uint64_t bits) {
  const __m512i iota = _mm512_set_epi8(
      63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41,
      40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18,
      17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  __m512i pos = _mm512_maskz_compress_epi8(bits, iota);
  int count = __builtin_popcountll(bits);
  _mm512_storeu_si512(out, _mm512_add_epi32(b, _mm512_cvtepu8_epi32(_mm512_castsi512_si128(pos))));
  if (count > 16) {
    __m128i p1 = _mm512_extracti32x4_epi32(pos, 1);
    _mm512_storeu_si512(out + 16, _mm512_add_epi32(b, _mm512_cvtepu8_epi32(p1)));
    if (count > 32) {
      __m128i p2 = _mm512_extracti32x4_epi32(pos, 2), p3 = _mm512_extracti32x4_epi32(pos, 3);
      _mm512_storeu_si512(out + 32, _mm512_add_epi32(b, _mm512_cvtepu8_epi32(p2)));
      _mm512_storeu_si512(out + 48, _mm512_add_epi32(b, _mm512_cvtepu8_epi32(p3)));
    }
  }
  return out + count;
}

/* The escape characters are checked in vectors, not masks: each escaped
 * byte's class (0: not an escape character, FJ_K_ESC_U: 'u', 1: the
 * others) is looked up in one 128-entry table (VBMI's two-register byte
 * permute; bytes >= 0x80 are zeroed, class 0) and goes into a running
 * per-byte minimum and maximum, under the mask of escaped bytes. That is
 * fewer operations than making the two masks of simd_block.h (two nibble
 * lookups and a compare for 'u', each mask back to a general register and
 * OR-ed into the carries). (Checking the escapes at all costs about 11% of
 * stage 1 on twitterescaped, the escape-densest file.) */
#define FJ_K_HAVE_ESC_CHECK

/* Whitespace and operators in one VBMI byte permute: the ten bytes
 * ' ' \t \n \r , : [ ] { } differ in their low six bits, so each is the
 * entry of a 64-entry table at its low six bits, and a byte is one of them
 * exactly when it equals its entry (the other entries hold a byte with
 * other low six bits). Operators are the matches above ' ', whitespace the
 * others. One permute and two compares (one masked) replace the two nibble
 * lookups, the OR and two compares of simd_block.h: the compares and
 * permutes all go to one port, which limits this loop. */
#define FJ_K_HAVE_CLASSIFY
#define FJ_S(c) [(c)&63] = (c)
static const uint8_t fj_avx512_wsop[64] = {
    [0] = 1,   FJ_S(' '), FJ_S('\t'), FJ_S('\n'), FJ_S('\r'), FJ_S(','),
    FJ_S(':'), FJ_S('['), FJ_S(']'),  FJ_S('{'),  FJ_S('}'),
};
#undef FJ_S
#include "scan/simd_block.h"

/* The last, partial block in one masked load: masked-off bytes are not read
 * (no fault past the input). Copied through the stack instead, the 64-byte
 * load had to wait for the copy's smaller stores to reach the cache (they
 * cannot be forwarded to it), which made the writer's UTF-8 check of short
 * non-ASCII strings (all tail) slower than the avx2 kernel's. */
#define FJ_K_HAVE_LOAD_TAIL
static inline void fj_k_load_tail(fj_k_block *blk, const uint8_t *p, size_t n, uint8_t fill) {
  const __mmask64 live = (__mmask64)_bzhi_u64(~UINT64_C(0), (unsigned)n);
  blk->v[0] =
      _mm512_mask_blend_epi8(live, _mm512_set1_epi8((char)fill), _mm512_maskz_loadu_epi8(live, p));
}

static inline void fj_k_classify(const fj_k_block *blk, fj__masks *m) {
  fj_v v = blk->v[0];
  __mmask64 wsop = _mm512_cmpeq_epi8_mask(v, _mm512_permutexvar_epi8(v, fj_v_load(fj_avx512_wsop)));
  __mmask64 op = _mm512_mask_cmpgt_epu8_mask(wsop, v, fj_v_splat(' '));
  m->quote = _mm512_cmpeq_epi8_mask(v, fj_v_splat('"'));
  m->backslash = _mm512_cmpeq_epi8_mask(v, fj_v_splat('\\'));
  m->ctrl = fj_v_le(v, fj_v_splat(0x1F));
  m->op = op;
  m->ws = wsop & ~op;
}

/* Classes: 0 not an escape character, 1 'u', 2 the others. One running
 * minimum keeps both facts (a second accumulator, a maximum for 'u', cost
 * a masked max and register copies in every block with escapes): a
 * position whose minimum is 1 saw a 'u' and nothing bad; one at 0 saw
 * something bad, which may hide a 'u' there, so fj_k_esc_u answers yes
 * for it too. That errs only when the input has a bad escape: then it is
 * an error or (a backslash outside strings) a syntax error, and a \u
 * check too many is harmless. */
#define FJ_E(c) [c] = 2
static const uint8_t fj_avx512_esc_class[128] = {
    FJ_E('"'), FJ_E('\\'), FJ_E('/'), FJ_E('b'), FJ_E('f'),
    FJ_E('n'), FJ_E('r'),  FJ_E('t'), ['u'] = 1,
};
#undef FJ_E
typedef struct fj_k_esc {
  __m512i min; /* per byte position, the least class of an escaped byte there */
} fj_k_esc;
static inline void fj_k_esc_init(fj_k_esc *e) { e->min = _mm512_set1_epi8(-1); }
static inline void fj_k_esc_block(fj_k_esc *e, const fj_k_block *blk, uint64_t escaped) {
  fj_v v = blk->v[0];
  fj_v cls = _mm512_maskz_permutex2var_epi8(~_mm512_movepi8_mask(v), fj_v_load(fj_avx512_esc_class),
                                            v, fj_v_load(fj_avx512_esc_class + 64));
  e->min = _mm512_mask_min_epu8(e->min, escaped, e->min, cls);
}
static inline bool fj_k_esc_bad(const fj_k_esc *e) {
  return _mm512_testn_epi8_mask(e->min, e->min) != 0;
}
static inline bool fj_k_esc_u(const fj_k_esc *e) {
  return _mm512_cmple_epu8_mask(e->min, _mm512_set1_epi8(1)) != 0;
}
/* every class is below 0xFF, so any escaped byte lowered the minimum */
static inline bool fj_k_esc_any(const fj_k_esc *e) {
  return _mm512_cmpneq_epi8_mask(e->min, _mm512_set1_epi8(-1)) != 0;
}

#include "scan/stage1_impl.h"
#include "scan/utf8_buffer_impl.h"

/* unvalidated minify (minify_impl.h): VBMI2 compresses the kept bytes into
 * a register, stored whole (a compressing store straight to memory is much
 * slower on some CPUs) */
static inline void fj_k_store(uint8_t *out, const fj_k_block *blk) {
  _mm512_storeu_si512(out, blk->v[0]);
}
static inline uint8_t *fj_k_compress(uint8_t *out, const uint8_t *p, const fj_k_block *blk,
                                     uint64_t keep) {
  (void)p;
  _mm512_storeu_si512(out, _mm512_maskz_compress_epi8(keep, blk->v[0]));
  return out + __builtin_popcountll(keep);
}
#include "scan/minify_impl.h"
