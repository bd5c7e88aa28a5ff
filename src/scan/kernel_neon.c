/* The NEON (AArch64 Advanced SIMD) stage-1 kernel: 16-byte vector
 * primitives only; the algorithm is in simd_block.h and stage1_impl.h.
 * Advanced SIMD is part of every AArch64 CPU, so this kernel needs no flags. */
#include <arm_neon.h>
#include <stdbool.h>
#include <stdint.h>

#define FJ_K_NAME neon

typedef uint8x16_t fj_v;
typedef uint8x16_t fj_b;
#define FJ_V_N 4

static inline fj_v fj_v_load(const uint8_t *p) { return vld1q_u8(p); }
static inline fj_v fj_v_splat(uint8_t c) { return vdupq_n_u8(c); }
/* tbl gives 0 for indices >= 16, not the low-nibble entry: mask first */
static inline fj_v fj_v_lookup(fj_v t, fj_v i) {
  return vqtbl1q_u8(t, vandq_u8(i, vdupq_n_u8(15)));
}
static inline fj_v fj_v_and(fj_v a, fj_v b) { return vandq_u8(a, b); }
static inline fj_v fj_v_or(fj_v a, fj_v b) { return vorrq_u8(a, b); }
static inline fj_v fj_v_xor(fj_v a, fj_v b) { return veorq_u8(a, b); }
static inline fj_v fj_v_shr4(fj_v a) { return vshrq_n_u8(a, 4); }
static inline fj_v fj_v_subs(fj_v a, fj_v b) { return vqsubq_u8(a, b); }
static inline fj_v fj_v_prev1(fj_v cur, fj_v prev) { return vextq_u8(prev, cur, 15); }
static inline fj_v fj_v_prev2(fj_v cur, fj_v prev) { return vextq_u8(prev, cur, 14); }
static inline fj_v fj_v_prev3(fj_v cur, fj_v prev) { return vextq_u8(prev, cur, 13); }
static inline fj_b fj_v_eq(fj_v a, fj_v b) { return vceqq_u8(a, b); }
static inline fj_b fj_v_le(fj_v a, fj_v b) { return vcleq_u8(a, b); }
/* NEON has no movemask: keep one distinct bit per byte of each 8-byte half,
 * then three rounds of pairwise adds fold 64 bytes into 64 bits */
static inline uint64_t fj_b_mask(const fj_b b[4]) {
  static const uint8_t bit[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
  const uint8x16_t m = vld1q_u8(bit);
  uint8x16_t s0 = vpaddq_u8(vandq_u8(b[0], m), vandq_u8(b[1], m));
  uint8x16_t s1 = vpaddq_u8(vandq_u8(b[2], m), vandq_u8(b[3], m));
  s0 = vpaddq_u8(s0, s1);
  s0 = vpaddq_u8(s0, s0);
  return vgetq_lane_u64(vreinterpretq_u64_u8(s0), 0);
}
static inline bool fj_v_ascii(fj_v a) { return vmaxvq_u8(a) < 0x80; }
static inline bool fj_v_zero(fj_v a) { return vmaxvq_u8(a) == 0; }

/* PMULL (carry-less multiply) is an optional extension on AArch64, so the
 * prefix XOR is done with six shifts, which every CPU has */
static inline uint64_t fj_k_prefix_xor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

#include "scan/simd_block.h"
#include "scan/stage1_impl.h"
#include "scan/utf8_buffer_impl.h"

/* unvalidated minify (minify_impl.h): tbl moves the kept bytes of each
 * 8-byte group to its front (positions from fj__minify_shuffle; its 0x80
 * filler gives 0), stored where the kept bytes before the group end */
#include "scan/minify.h"
static inline void fj_k_store(uint8_t *out, const fj_k_block *blk) {
  for (int i = 0; i < 4; i++)
    vst1q_u8(out + 16 * i, blk->v[i]);
}
static inline uint8_t *fj_k_compress(uint8_t *out, const uint8_t *p, const fj_k_block *blk,
                                     uint64_t keep) {
  (void)blk;
  for (int g = 0; g < 8; g++) {
    uint8x8_t idx = vld1_u8(fj__minify_shuffle[(keep >> (8 * g)) & 0xFF]);
    size_t at = (size_t)__builtin_popcountll(keep & ((1ull << (8 * g)) - 1));
    vst1_u8(out + at, vtbl1_u8(vld1_u8(p + 8 * g), idx));
  }
  return out + __builtin_popcountll(keep);
}
#include "scan/minify_impl.h"
