/* The unvalidated-minify block algorithm, written once (see minify.h for the
 * contract). A kernel file includes it after stage1_impl.h, whose block
 * primitives and escape arithmetic it reuses, and defines two more:
 *
 *   void fj_k_store(uint8_t *out, const fj_k_block *b)     the 64 bytes of b
 *   uint8_t *fj_k_compress(uint8_t *out, const uint8_t *p, const fj_k_block *b,
 *                          uint64_t keep)
 *        writes the bytes of b (loaded from p) whose bit is set in keep, in
 *        order, at out, and returns out + their count. It may write anything
 *        after them up to out + 64, and every store must come after the
 *        loads of the bytes it overwrites when out <= p (so that minifying
 *        in place works).
 *
 * Per 64-byte block: the quotes that are not escaped (fj_k_escaped, as
 * stage 1) give the in-string mask (fj_k_in_string, as stage 1); the
 * whitespace outside it is dropped. Nothing else is checked: that is the point of this entry. */
#include "scan/minify.h"

#define FJ_K_MINIFY FJ_K_PASTE(fj__minify_, FJ_K_NAME)

/* One block at p; `valid` has a bit for each byte that belongs to the input
 * (all but the padding of the tail). Returns the new end of the output. */
static inline uint8_t *fj_k_minify_block(const uint8_t *p, uint8_t *out, fj__minify_carry *c,
                                         uint64_t valid) {
  fj_k_block blk;
  fj_k_load(&blk, p);
  fj__masks m;
  fj_k_classify(&blk, &m); /* only ws, quote and backslash are used: the rest is dead code */
  uint64_t escaped = 0;
  if (m.backslash | c->escaped) escaped = fj_k_escaped(m.backslash, &c->escaped);
  uint64_t in_string = fj_k_in_string(m.quote & ~escaped, &c->in_string);
  uint64_t keep = ~(m.ws & ~in_string) & valid;
  /* Most blocks of a document written compactly, and the inside of long
   * strings, keep every byte: a plain store is cheaper than compressing. */
  if (keep == ~0ull) {
    fj_k_store(out, &blk);
    return out + 64;
  }
  return fj_k_compress(out, p, &blk, keep);
}

size_t FJ_K_MINIFY(const uint8_t *in, size_t len, uint8_t *out, fj__minify_carry *carry) {
  fj__minify_carry c = *carry; /* a local copy stays in registers */
  uint8_t *o = out;
  size_t i = 0;
  for (; i + 128 <= len; i += 128) { /* two blocks a turn, as stage 1: 5-20% faster */
    o = fj_k_minify_block(in + i, o, &c, ~0ull);
    o = fj_k_minify_block(in + i + 64, o, &c, ~0ull);
  }
  for (; i + 64 <= len; i += 64)
    o = fj_k_minify_block(in + i, o, &c, ~0ull);
  if (i < len) { /* the tail, through a copy: never read or write past the ends */
    uint8_t tail[64], res[64];
    size_t n = len - i;
    memset(tail, ' ', sizeof tail);
    memcpy(tail, in + i, n);
    size_t k = (size_t)(fj_k_minify_block(tail, res, &c, (1ull << n) - 1) - res);
    memcpy(o, res, k);
    o += k;
  }
  *carry = c;
  return (size_t)(o - out);
}
