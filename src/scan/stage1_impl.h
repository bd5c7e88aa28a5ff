/* The stage-1 block algorithm, written once. A kernel file defines its SIMD
 * primitives, then includes this file, which defines that kernel's entry
 * point fj__stage1_<FJ_K_NAME>. The primitives are:
 *
 *   fj_k_block                      64 input bytes, loaded
 *   void fj_k_load(fj_k_block *b, const uint8_t *p)        p has 64 bytes
 *   void fj_k_classify(const fj_k_block *b, fj__masks *m)  the byte classes
 *   uint64_t fj_k_escapable(const fj_k_block *b)   bytes allowed after a
 *                                  backslash: " \\ / b f n r t u (asked for
 *                                  only in blocks with escapes in strings)
 *   uint64_t fj_k_prefix_xor(uint64_t x)    bit i = xor of bits 0..i
 *   fj_k_utf8                       UTF-8 validation state across blocks
 *   void fj_k_utf8_init(fj_k_utf8 *u)
 *   void fj_k_utf8_block(fj_k_utf8 *u, const fj_k_block *b)
 *   bool fj_k_utf8_valid(fj_k_utf8 *u)      after the last block: no error,
 *                                           no sequence left incomplete
 *
 * A kernel with a faster way to turn a bitmask into offsets defines
 * FJ_K_HAVE_FLATTEN and its own fj_k_flatten (same contract as below).
 * SIMD kernels get all but prefix_xor from simd_block.h.
 *
 * Bit i of a mask stands for byte i of the block.
 */
#include <string.h>

#include "scan/stage1.h"

#define FJ_K_PASTE2(a, b) a##b
#define FJ_K_PASTE(a, b) FJ_K_PASTE2(a, b)
#define FJ_K_ENTRY FJ_K_PASTE(fj__stage1_, FJ_K_NAME)

/* Carried from one block to the next. */
typedef struct fj_k_carry {
  uint64_t escaped;   /* 1 if byte 0 of the next block follows an escaping backslash */
  uint64_t in_string; /* all ones if the next block starts inside a string */
  uint64_t token;     /* 1 if the last byte was part of a number/literal token */
  uint64_t bad;       /* any byte seen so far that stage 1 rejects */
} fj_k_carry;

/* Bytes that follow an escaping backslash. In a run of backslashes, the
 * first, third, ... escape the byte after them; a run whose start has the
 * same parity as a bit position owns that position's escapers. Adding the
 * run's start bit clears exactly the run (the carry ripples through it),
 * which picks out the runs that start on even positions without a loop.
 *
 * The carry from the last block (byte 0 is escaped) only shifts the run at
 * byte 0 by one, which flips its escapers; so the block is worked out as if
 * there were no carry, and the carry is applied at the end in two steps.
 * That keeps the block-to-block dependency to two operations. */
static inline uint64_t fj_k_escaped(uint64_t backslash, uint64_t *carry) {
  const uint64_t even = 0x5555555555555555ull;
  uint64_t b = backslash;
  uint64_t starts = b & ~(b << 1);
  uint64_t even_runs = b & ~(b + (starts & even));
  uint64_t odd_runs = b & ~even_runs;
  uint64_t escapers = (even_runs & even) | (odd_runs & ~even);
  uint64_t first_run = b & ~(b + 1); /* the run at byte 0, if any */
  escapers ^= first_run & (0 - *carry);
  uint64_t escaped = (escapers << 1) | *carry;
  *carry = escapers >> 63;
  return escaped;
}

#ifndef FJ_K_HAVE_FLATTEN
/* Appends the positions of the set bits of `bits`, plus `base`, at `out`.
 * Writes up to 16 entries unconditionally (the index has slack for it) so
 * that the common case has no data-dependent branch per bit. */
static inline uint32_t *fj_k_flatten(uint32_t *out, uint32_t base, uint64_t bits) {
  int count = __builtin_popcountll(bits);
  const uint64_t stop = 1ull << 63; /* keeps ctz defined once bits run out */
  for (int i = 0; i < 8; i++) {
    out[i] = base + (uint32_t)__builtin_ctzll(bits | stop);
    bits &= bits - 1;
  }
  if (count > 8) {
    for (int i = 8; i < 16; i++) {
      out[i] = base + (uint32_t)__builtin_ctzll(bits | stop);
      bits &= bits - 1;
    }
    for (int i = 16; bits; i++) {
      out[i] = base + (uint32_t)__builtin_ctzll(bits);
      bits &= bits - 1;
    }
  }
  return out + count;
}
#endif

/* One block: structural bits for the index, errors into c->bad. */
static inline uint64_t fj_k_block_structurals(const fj_k_block *blk, fj_k_carry *c) {
  fj__masks m;
  fj_k_classify(blk, &m);
  uint64_t escaped = c->escaped; /* most blocks have no backslash: skip the arithmetic */
  if (m.backslash) {
    escaped = fj_k_escaped(m.backslash, &c->escaped);
  } else {
    c->escaped = 0;
  }
  uint64_t quote = m.quote & ~escaped;
  /* in_string covers the opening quote and the body, not the closing quote */
  uint64_t in_string = fj_k_prefix_xor(quote) ^ c->in_string;
  c->in_string = (uint64_t)((int64_t)in_string >> 63);
  uint64_t body = in_string & ~quote;
  c->bad |= m.ctrl & body;
  /* most blocks of most documents have no escapes: classify those lazily */
  if (escaped & body) c->bad |= escaped & body & ~fj_k_escapable(blk);
  /* tokens: bytes outside strings that are neither whitespace nor operators */
  uint64_t token = ~(m.ws | m.op | in_string | quote);
  uint64_t token_starts = token & ~((token << 1) | c->token);
  c->token = token >> 63;
  return (m.op & ~in_string) | (quote & in_string) | token_starts;
}

fj_error FJ_K_ENTRY(const uint8_t *buf, size_t len, uint32_t *idx, uint32_t *n,
                    size_t *err_offset) {
  fj_k_carry c = {0, 0, 0, 0};
  fj_k_utf8 u;
  fj_k_utf8_init(&u);
  fj_k_block blk;
  uint32_t *out = idx;
  size_t i = 0;
  for (; i + 64 <= len; i += 64) {
    fj_k_load(&blk, buf + i);
    fj_k_utf8_block(&u, &blk);
    out = fj_k_flatten(out, (uint32_t)i, fj_k_block_structurals(&blk, &c));
  }
  if (i < len) { /* the tail, padded with spaces: never read past the input */
    uint8_t tail[64];
    memset(tail, ' ', sizeof tail);
    memcpy(tail, buf + i, len - i);
    fj_k_load(&blk, tail);
    fj_k_utf8_block(&u, &blk);
    out = fj_k_flatten(out, (uint32_t)i, fj_k_block_structurals(&blk, &c));
  }
  *n = (uint32_t)(out - idx);
  if (c.bad | c.in_string || !fj_k_utf8_valid(&u)) {
    fj_error err = fj__stage1_locate(buf, len, err_offset);
    if (err != FJ_OK) return err;
  }
  return FJ_OK;
}
