/* The scalar stage-1 kernel: portable C, the reference every SIMD kernel is
 * tested against. Primitives only; the algorithm is in stage1_impl.h. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "scan/stage1.h"
#include "scan/utf8_scalar.h"

#define FJ_K_NAME scalar

typedef struct fj_k_block {
  uint8_t b[64];
} fj_k_block;

enum { C_WS = 1, C_OP = 2, C_QUOTE = 4, C_BS = 8, C_CTRL = 16, C_ESC = 32 };

/* Byte classes. Control bytes other than whitespace are listed one by one
 * so the table is a constant (no run-time initialisation to race on). */
/* clang-format off */
#define CTRL(c) [c] = C_CTRL
static const uint8_t class_table[256] = {
    CTRL(0x00), CTRL(0x01), CTRL(0x02), CTRL(0x03), CTRL(0x04), CTRL(0x05), CTRL(0x06),
    CTRL(0x07), CTRL(0x08), CTRL(0x0B), CTRL(0x0C), CTRL(0x0E), CTRL(0x0F), CTRL(0x10),
    CTRL(0x11), CTRL(0x12), CTRL(0x13), CTRL(0x14), CTRL(0x15), CTRL(0x16), CTRL(0x17),
    CTRL(0x18), CTRL(0x19), CTRL(0x1A), CTRL(0x1B), CTRL(0x1C), CTRL(0x1D), CTRL(0x1E),
    CTRL(0x1F),
    ['\t'] = C_WS | C_CTRL, ['\n'] = C_WS | C_CTRL, ['\r'] = C_WS | C_CTRL, [' '] = C_WS,
    ['{'] = C_OP, ['}'] = C_OP, ['['] = C_OP, [']'] = C_OP, [':'] = C_OP, [','] = C_OP,
    ['"'] = C_QUOTE | C_ESC, ['\\'] = C_BS | C_ESC, ['/'] = C_ESC, ['b'] = C_ESC,
    ['f'] = C_ESC, ['n'] = C_ESC, ['r'] = C_ESC, ['t'] = C_ESC, ['u'] = C_ESC,
};
#undef CTRL
/* clang-format on */

static inline void fj_k_load(fj_k_block *blk, const uint8_t *p) { memcpy(blk->b, p, 64); }

static inline void fj_k_classify(const fj_k_block *blk, fj__masks *m) {
  uint64_t ws = 0, op = 0, quote = 0, bs = 0, ctrl = 0;
  for (int i = 0; i < 64; i++) {
    uint64_t c = class_table[blk->b[i]];
    ws |= (c & 1) << i;
    op |= ((c >> 1) & 1) << i;
    quote |= ((c >> 2) & 1) << i;
    bs |= ((c >> 3) & 1) << i;
    ctrl |= ((c >> 4) & 1) << i;
  }
  m->ws = ws;
  m->op = op;
  m->quote = quote;
  m->backslash = bs;
  m->ctrl = ctrl;
}

static inline uint64_t fj_k_escapable(const fj_k_block *blk) {
  uint64_t esc = 0;
  for (int i = 0; i < 64; i++)
    esc |= (uint64_t)((class_table[blk->b[i]] >> 5) & 1) << i;
  return esc;
}

static inline uint64_t fj_k_u_bytes(const fj_k_block *blk) {
  uint64_t u = 0;
  for (int i = 0; i < 64; i++)
    u |= (uint64_t)(blk->b[i] == 'u') << i;
  return u;
}

static inline uint64_t fj_k_prefix_xor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

typedef struct fj_k_utf8 {
  fj__utf8_dfa dfa;
  bool bad;
} fj_k_utf8;

static inline void fj_k_utf8_init(fj_k_utf8 *u) { memset(u, 0, sizeof *u); }

static inline void fj_k_utf8_block(fj_k_utf8 *u, const fj_k_block *blk) {
  uint64_t w[8], any = 0;
  memcpy(w, blk->b, 64);
  for (int i = 0; i < 8; i++)
    any |= w[i];
  if (!(any & 0x8080808080808080ull) && !u->dfa.need) return; /* ASCII */
  for (int i = 0; i < 64; i++)
    u->bad |= !fj__utf8_step(&u->dfa, blk->b[i]);
}

static inline bool fj_k_utf8_valid(fj_k_utf8 *u) { return !u->bad && !u->dfa.need; }

#include "scan/stage1_impl.h"
#include "scan/utf8_buffer_impl.h"

/* unvalidated minify (minify_impl.h): every byte is stored, and the output
 * moves on only past the kept ones (no branch on the data) */
static inline void fj_k_store(uint8_t *out, const fj_k_block *blk) { memcpy(out, blk->b, 64); }
static inline uint8_t *fj_k_compress(uint8_t *out, const uint8_t *p, const fj_k_block *blk,
                                     uint64_t keep) {
  (void)p;
  size_t o = 0;
  for (int i = 0; i < 64; i++) {
    out[o] = blk->b[i];
    o += (keep >> i) & 1;
  }
  return out + o;
}
#include "scan/minify_impl.h"
