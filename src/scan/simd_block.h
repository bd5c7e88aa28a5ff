/* The block primitives of stage1_impl.h for every SIMD kernel, written once
 * against a handful of vector primitives. A SIMD kernel file defines these,
 * then includes this file and stage1_impl.h:
 *
 *   fj_v                    one vector register of bytes
 *   fj_b                    the result of a byte comparison (vector or mask)
 *   FJ_V_N                  vectors per 64-byte block (64 / sizeof(fj_v))
 *   fj_v fj_v_load(const uint8_t *p)        sizeof(fj_v) bytes, unaligned
 *   fj_v fj_v_splat(uint8_t c)
 *   fj_v fj_v_lookup(fj_v t, fj_v i)        t[i & 15] per byte, where i < 0x80
 *                                           (anything where i >= 0x80)
 *   fj_v fj_v_and / fj_v_or / fj_v_xor (fj_v a, fj_v b)
 *   fj_v fj_v_shr4(fj_v a)                  each byte >> 4
 *   fj_v fj_v_subs(fj_v a, fj_v b)          unsigned saturating a - b
 *   fj_v fj_v_prev1/2/3(fj_v cur, fj_v prev)   cur shifted up by 1/2/3 bytes,
 *                                           the gap filled from prev's top
 *   fj_b fj_v_eq(fj_v a, fj_v b)            a == b per byte
 *   fj_b fj_v_le(fj_v a, fj_v b)            a <= b per byte, unsigned
 *   uint64_t fj_b_mask(const fj_b b[FJ_V_N])   one bit per byte of the block
 *   bool fj_v_ascii(fj_v a)                 no byte >= 0x80
 *   bool fj_v_zero(fj_v a)                  all bytes zero
 *   uint64_t fj_k_prefix_xor(uint64_t x)
 *
 * and may define FJ_K_HAVE_FLATTEN with its own fj_k_flatten, and (before
 * including this file) FJ_K_HAVE_ESC_CHECK with its own escape check
 * (stage1_impl.h), which leaves out escapable and u_bytes here, and
 * FJ_K_HAVE_CLASSIFY with its own fj_k_classify.
 */
#ifndef FJ_SCAN_SIMD_BLOCK_H
#define FJ_SCAN_SIMD_BLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "scan/stage1.h"

/* A 16-entry lookup table, repeated to 64 bytes so that every kernel loads
 * it with fj_v_load (a plain load, which compilers keep in a register or
 * fold into the lookup, rather than a broadcast redone in the loop). */
#define FJ_TABLE16(...)                                                                            \
  { __VA_ARGS__, __VA_ARGS__, __VA_ARGS__, __VA_ARGS__ }

typedef struct fj_k_block {
  fj_v v[FJ_V_N];
} fj_k_block;

static inline void fj_k_load(fj_k_block *blk, const uint8_t *p) {
  for (int i = 0; i < FJ_V_N; i++)
    blk->v[i] = fj_v_load(p + i * sizeof(fj_v));
}

#ifndef FJ_K_HAVE_CLASSIFY /* the kernel classifies its own way */
/* Whitespace: the byte equals the table entry of its low nibble. Each of
 * ' ' \t \n \r has its own low nibble (0, 9, A, D); entry 0 elsewhere can only
 * equal a byte whose low nibble is 0, which entry 0 does not hold. */
static const uint8_t fj_k_ws_table[64] =
    FJ_TABLE16(' ', 0, 0, 0, 0, 0, 0, 0, 0, '\t', '\n', 0, 0, '\r', 0, 0);

/* Operators: `byte | 0x20` equals the entry of the byte's low nibble; the OR
 * folds [ ] onto { }. It also matches 0x0C and 0x1A, which the caller drops
 * with the control mask. */
static const uint8_t fj_k_op_table[64] =
    FJ_TABLE16(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ':', '{', ',', '}', 0, 0);

static inline void fj_k_classify(const fj_k_block *blk, fj__masks *m) {
  const fj_v ws_t = fj_v_load(fj_k_ws_table), op_t = fj_v_load(fj_k_op_table);
  fj_b quote[FJ_V_N], bs[FJ_V_N], ws[FJ_V_N], op[FJ_V_N], ctrl[FJ_V_N];
  for (int i = 0; i < FJ_V_N; i++) {
    fj_v v = blk->v[i];
    quote[i] = fj_v_eq(v, fj_v_splat('"'));
    bs[i] = fj_v_eq(v, fj_v_splat('\\'));
    ws[i] = fj_v_eq(v, fj_v_lookup(ws_t, v));
    op[i] = fj_v_eq(fj_v_or(v, fj_v_splat(0x20)), fj_v_lookup(op_t, v));
    ctrl[i] = fj_v_le(v, fj_v_splat(0x1F));
  }
  m->quote = fj_b_mask(quote);
  m->backslash = fj_b_mask(bs);
  m->ws = fj_b_mask(ws);
  m->ctrl = fj_b_mask(ctrl);
  m->op = fj_b_mask(op) & ~m->ctrl;
}
#endif

#ifndef FJ_K_HAVE_ESC_CHECK /* the kernel checks escapes its own way */
/* Escapable bytes " / \ b f n r t u: the low-nibble entry and the
 * high-nibble entry share a bit (bit 0: row 2, bit 1: row 5, bit 2: row 6,
 * bit 3: row 7). */
static const uint8_t fj_k_esc_lo[64] =
    FJ_TABLE16(0, 0, 1 | 4 | 8, 0, 8, 8, 4, 0, 0, 0, 0, 0, 2, 0, 4, 1);
static const uint8_t fj_k_esc_hi[64] = FJ_TABLE16(0, 0, 1, 0, 0, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0);

static inline uint64_t fj_k_escapable(const fj_k_block *blk) {
  const fj_v lo_t = fj_v_load(fj_k_esc_lo), hi_t = fj_v_load(fj_k_esc_hi);
  fj_b no[FJ_V_N];
  for (int i = 0; i < FJ_V_N; i++) {
    fj_v v = blk->v[i];
    no[i] = fj_v_eq(fj_v_and(fj_v_lookup(lo_t, v), fj_v_lookup(hi_t, fj_v_shr4(v))), fj_v_splat(0));
  }
  return ~fj_b_mask(no);
}

#endif

/* Bytes equal to 'u': every kernel, for the \u block bytes (stage1_impl.h). */
static inline uint64_t fj_k_u_bytes(const fj_k_block *blk) {
  fj_b u[FJ_V_N];
  for (int i = 0; i < FJ_V_N; i++)
    u[i] = fj_v_eq(blk->v[i], fj_v_splat('u'));
  return fj_b_mask(u);
}

#include "scan/utf8_simd.h"

#endif
