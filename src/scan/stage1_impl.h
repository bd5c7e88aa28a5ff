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
 *   uint64_t fj_k_u_bytes(const fj_k_block *b)     bytes equal to 'u' (asked
 *                                  for in the same blocks)
 *   uint64_t fj_k_prefix_xor(uint64_t x)    bit i = xor of bits 0..i
 *   fj_k_utf8                       UTF-8 validation state across blocks
 *   void fj_k_utf8_init(fj_k_utf8 *u)
 *   void fj_k_utf8_block(fj_k_utf8 *u, const fj_k_block *b)
 *   bool fj_k_utf8_valid(fj_k_utf8 *u)      after the last block: no error,
 *                                           no sequence left incomplete
 *
 * A kernel that can load the last, partial block without reading past the
 * input defines FJ_K_HAVE_LOAD_TAIL and its own fj_k_load_tail (contract
 * below).
 * A kernel with a faster way to turn a bitmask into offsets defines
 * FJ_K_HAVE_FLATTEN and its own fj_k_flatten, fj_k_base, fj_k_base_at and
 * fj_k_base_next (same contract as below). A kernel with a cheaper way to
 * check the escape characters defines FJ_K_HAVE_ESC_CHECK and its own
 * fj_k_esc, fj_k_esc_init, fj_k_esc_block, fj_k_esc_bad, fj_k_esc_u and
 * fj_k_esc_any
 * (same contract as below; it need not define escapable and u_bytes).
 * SIMD kernels get all but prefix_xor from simd_block.h.
 *
 * Bit i of a mask stands for byte i of the block.
 */
#include <string.h>

#include "scan/stage1.h"

#define FJ_K_PASTE2(a, b) a##b
#define FJ_K_PASTE(a, b) FJ_K_PASTE2(a, b)
#define FJ_K_ENTRY FJ_K_PASTE(fj__stage1_, FJ_K_NAME)

#ifndef FJ_K_HAVE_LOAD_TAIL
/* The n < 64 bytes at p as a block, the bytes after them `fill`; nothing
 * past p + n is read. Here through a buffer on the stack. */
static inline void fj_k_load_tail(fj_k_block *blk, const uint8_t *p, size_t n, uint8_t fill) {
  uint8_t tail[64];
  memset(tail, fill, sizeof tail);
  memcpy(tail, p, n);
  fj_k_load(blk, tail);
}
#endif

/* Carried from one block to the next. */
typedef struct fj_k_carry {
  uint64_t escaped;   /* 1 if byte 0 of the next block follows an escaping backslash */
  uint64_t in_string; /* all ones if the next block starts inside a string */
  uint64_t token;     /* 1 if the last byte was part of a number/literal token */
  uint64_t bad;       /* any byte seen so far that stage 1 rejects */
} fj_k_carry;

/* Bytes that follow an escaping backslash. In a run of backslashes, the
 * first, third, ... escape the byte after them. If byte 0 is escaped (the
 * carry), a backslash there is an escaped one, so it is left out of the
 * runs (r). Take the odd positions, with the byte after each backslash of r
 * set too, and subtract r: a run that starts on an odd position is all
 * ones in both, so it becomes zeros; one that starts on an even position
 * borrows at its start, and the borrow turns it into ones and dies at the
 * byte after it. XOR with the odd positions then leaves, in each run,
 * exactly the bits of its escaping backslashes (its first, third, ...),
 * and after it the bit of the byte that an odd-length run escapes. XOR
 * with r turns the run's bits into those of its escaped backslashes; the
 * last backslash escaping says that the next block's byte 0 is escaped.
 * Nine operations and one constant, with no flag to carry out (the add
 * with overflow this replaces took thirteen and two constants); the carry
 * goes in first, so block-to-block it is a short chain, in blocks with
 * backslashes only. (Borrows through backslash runs are the idea of
 * simdjson; Langdale & Lemire, "Parsing gigabytes of JSON per second",
 * VLDB Journal 28(6), 2019.) */
static inline uint64_t fj_k_escaped(uint64_t backslash, uint64_t *carry) {
  const uint64_t odd = 0xAAAAAAAAAAAAAAAAull;
  uint64_t c = *carry;
  uint64_t r = backslash & ~c;
  uint64_t code = (((r << 1) | odd) - r) ^ odd; /* escaping backslashes, bytes after runs */
  *carry = (code & r) >> 63;
  return (code ^ r) | c;
}

/* The bytes inside strings, from the quotes that are not escaped: each
 * opening quote and the body after it, not the closing quote. *carry is all
 * ones when the next block starts inside a string. */
static inline uint64_t fj_k_in_string(uint64_t quote, uint64_t *carry) {
  uint64_t in_string = fj_k_prefix_xor(quote) ^ *carry;
  *carry = (uint64_t)((int64_t)in_string >> 63);
  return in_string;
}

#ifndef FJ_K_HAVE_ESC_CHECK
/* The check of the bytes that follow an escaping backslash, over the whole
 * input: fj_k_esc_block is given each block's escaped bytes (only in blocks
 * that may have some), fj_k_esc_bad says after the last block whether one
 * of them was not an escape character, fj_k_esc_u whether one was 'u' (a
 * kernel's own check may say yes wrongly when fj_k_esc_bad does: the entry
 * then asks fj__stage1_u_escape), fj_k_esc_any whether there was one at all.
 * Escapes outside strings count too: a backslash there is a syntax error
 * anyway, so at worst fj_k_esc_bad sends a bad input to fj__stage1_locate,
 * which reports only escapes inside strings, and fj_k_esc_u asks stage 2 to
 * check \u escapes that are not there. */
typedef struct fj_k_esc {
  uint64_t bad; /* escaped bytes that are not escape characters */
  uint64_t u;   /* escaped 'u' bytes */
  uint64_t any; /* escaped bytes */
} fj_k_esc;
static inline void fj_k_esc_init(fj_k_esc *e) { e->bad = e->u = e->any = 0; }
static inline void fj_k_esc_block(fj_k_esc *e, const fj_k_block *blk, uint64_t escaped) {
  e->bad |= escaped & ~fj_k_escapable(blk);
  e->u |= escaped & fj_k_u_bytes(blk);
  e->any |= escaped;
}
static inline bool fj_k_esc_bad(const fj_k_esc *e) { return e->bad != 0; }
static inline bool fj_k_esc_u(const fj_k_esc *e) { return e->u != 0; }
static inline bool fj_k_esc_any(const fj_k_esc *e) { return e->any != 0; }
#endif

/* Trailing zero count of x, any value when x is 0 (a kernel with TZCNT
 * defines it as that instruction, which gives 64). */
#ifndef FJ_K_TZCNT
#define FJ_K_TZCNT(x) ((uint32_t)__builtin_ctzll((x) | (1ull << 63)))
#endif

#ifndef FJ_K_HAVE_FLATTEN
/* The offset of the block being flattened, in the form fj_k_flatten wants
 * it: made once by fj_k_base_at, then moved on by 64 bytes a block. */
typedef uint32_t fj_k_base;
static inline fj_k_base fj_k_base_at(uint32_t at) { return at; }
static inline fj_k_base fj_k_base_next(fj_k_base base) { return base + 64; }

/* Appends the positions of the set bits of `bits`, plus `base`, at `out`.
 * Writes 8 entries unconditionally (the index has slack for it), and 8 more
 * only in blocks with more than 8 bits, so most blocks have no
 * data-dependent branch. The empty asm keeps each entry in a general
 * register: without it GCC vectorises the stores by inserting the entries
 * into a vector one by one, which is slower. A kernel may define
 * FJ_K_FLATTEN_SKIP_EMPTY to branch around the 8 entries in blocks with no
 * bits (inside long strings), a trade that it has measured. */
#define FJ_K_PUT(k)                                                                                \
  do {                                                                                             \
    uint32_t v_ = base + FJ_K_TZCNT(bits);                                                         \
    __asm__("" : "+r"(v_));                                                                        \
    out[k] = v_;                                                                                   \
    bits &= bits - 1;                                                                              \
  } while (0)
static inline uint32_t *fj_k_flatten(uint32_t *out, fj_k_base base, uint64_t bits) {
#ifdef FJ_K_FLATTEN_SKIP_EMPTY
  if (bits == 0) return out;
#endif
  int count = __builtin_popcountll(bits);
  for (int i = 0; i < 8; i++)
    FJ_K_PUT(i);
  if (count > 8) {
    for (int i = 8; i < 16; i++)
      FJ_K_PUT(i);
    for (int i = 16; i < count; i++)
      FJ_K_PUT(i);
  }
  return out + count;
}
#undef FJ_K_PUT
#endif

/* One block, its byte classes `m` already worked out: structural bits for
 * the index, errors into c->bad. */
static inline uint64_t fj_k_block_structurals(const fj_k_block *blk, const fj__masks *mp,
                                              fj_k_carry *c, fj_k_esc *e, uint8_t *bs_blocks,
                                              uint8_t *u_blocks, size_t at) {
  fj__masks m = *mp;
  /* Most blocks of most documents have no backslash and start unescaped:
   * they skip the arithmetic and the check of the escape characters. The
   * others do both behind one branch (data-dependent, so it mispredicts:
   * a second one would double that in documents full of escapes). */
  uint64_t escaped = 0;
  if (m.backslash | c->escaped) {
    escaped = fj_k_escaped(m.backslash, &c->escaped);
    fj_k_esc_block(e, blk, escaped);
    if (bs_blocks) {
      /* block at / 64 holds a backslash or begins escaped (res->bs_blocks:
       * no test of which), and when asked, a \u escape's 'u'
       * (res->u_blocks): without a branch on either, as whether a block of
       * escapes holds a \u is unpredictable. The \u bytes cost a compare
       * per block of escapes, on the port this loop waits for
       * (twitterescaped about 8%): only validation asks. */
      bs_blocks[at >> 6] = 1;
      if (u_blocks) u_blocks[at >> 6] = (escaped & fj_k_u_bytes(blk)) != 0;
    }
  }
  uint64_t quote = m.quote & ~escaped;
  uint64_t in_string = fj_k_in_string(quote, &c->in_string);
  uint64_t body = in_string & ~quote;
  c->bad |= m.ctrl & body;
  /* tokens: bytes outside strings that are neither whitespace nor operators */
  uint64_t token = ~(m.ws | m.op | in_string | quote);
  uint64_t token_starts = token & ~((token << 1) | c->token);
  c->token = token >> 63;
  return (m.op & ~in_string) | (quote & in_string) | token_starts;
}

/* Each block is loaded one step before its turn (measured: 3-8% faster
 * than loading it in its turn), but classified in its turn: classified a
 * step ahead, its five masks were held across the step before, which left
 * too few general registers, and the spills cost more (avx512 about 10% on
 * most files) than the earlier start of the backslash branch gained. The
 * index is written two blocks late: the flatten of a block branches on its
 * bit count, which is known by then (one block late, the branch still
 * waited for the in-string mask of its block). `at` is the offset of block
 * b: no block counter is kept, to spare a register. */
#define FJ_K_STEP(b, at)                                                                           \
  do {                                                                                             \
    fj__masks m_;                                                                                  \
    fj_k_classify(&(b), &m_);                                                                      \
    fj_k_utf8_block(&u, &(b));                                                                     \
    uint64_t next_ = fj_k_block_structurals(&(b), &m_, &c, &esc, bs_blocks, u_blocks, (at));       \
    out = fj_k_flatten(out, base, bits);                                                           \
    base = fj_k_base_next(base);                                                                   \
    bits = bits1;                                                                                  \
    bits1 = next_;                                                                                 \
  } while (0)

/* Two blocks a turn (less loop overhead), while three are left. An input
 * larger than the L2 cache streams from L3 or memory, and the hardware
 * prefetcher alone leaves the loads waiting (10% of the samples on the
 * instruction after a load in gsoc-2018, 3.3 MB); a prefetch 2 KiB ahead,
 * one a turn (the adjacent-line prefetcher brings the other 64 bytes),
 * takes 6-13% off the larger files (avx2 gsoc only 1%). Smaller inputs are
 * in L2 already, and there even a test of a flag in the loop cost (it took
 * a register: avx2 6-14% slower on the small files), so the loop is
 * written twice. */
#define FJ_K_PREFETCH_MIN (1u << 20)
#define FJ_K_PAIRS(prefetch)                                                                       \
  do {                                                                                             \
    for (; i + 192 <= len; i += 128) {                                                             \
      if (prefetch) __builtin_prefetch((const void *)((uintptr_t)buf + i + 2048));                 \
      fj_k_load(&b, buf + i + 64);                                                                 \
      FJ_K_STEP(a, i);                                                                             \
      fj_k_load(&a, buf + i + 128);                                                                \
      FJ_K_STEP(b, i + 64);                                                                        \
    }                                                                                              \
  } while (0)

fj_error FJ_K_ENTRY(const uint8_t *buf, size_t len, uint32_t *idx, fj__stage1_result *res) {
  fj_k_carry c = {0, 0, 0, 0};
  fj_k_esc esc;
  fj_k_esc_init(&esc);
  uint8_t *const bs_blocks = res->bs_blocks, *const u_blocks = res->u_blocks;
  fj_k_utf8 u;
  fj_k_utf8_init(&u);
  uint32_t *out = idx;
  uint64_t bits = 0, bits1 = 0; /* the structurals of the two blocks before, not yet in the index */
  fj_k_base base = fj_k_base_at(0u - 128u); /* the offset of the first of them */
  fj_k_block a, b;
  size_t i = 0;
  if (len >= 64) {
    fj_k_load(&a, buf); /* a: the block at i */
    if (len >= FJ_K_PREFETCH_MIN)
      FJ_K_PAIRS(1);
    else
      FJ_K_PAIRS(0);
    if (i + 128 <= len) {
      fj_k_load(&b, buf + i + 64);
      FJ_K_STEP(a, i);
      a = b;
      i += 64;
    }
    FJ_K_STEP(a, i);
    i += 64;
  }
  if (i < len) { /* the tail, padded with spaces: never read past the input */
    fj_k_load_tail(&a, buf + i, len - i, ' ');
    FJ_K_STEP(a, i);
    i += 64;
  }
  out = fj_k_flatten(out, base, bits);
  out = fj_k_flatten(out, fj_k_base_next(base), bits1);
  res->n = (uint32_t)(out - idx);
  res->u_escapes = fj_k_esc_u(&esc);
  if (fj_k_esc_bad(&esc)) /* fj_k_esc_u may be a yes too many then: rare, ask again exactly */
    res->u_escapes = fj__stage1_u_escape(buf, len);
  /* every backslash escapes a byte or is escaped, but the last byte's */
  res->backslashes = fj_k_esc_any(&esc) || c.escaped;
  if (c.bad | c.in_string || fj_k_esc_bad(&esc) || !fj_k_utf8_valid(&u)) {
    fj_error err = fj__stage1_locate(buf, len, &res->err_offset);
    if (err != FJ_OK) return err;
  }
  return FJ_OK;
}
#undef FJ_K_STEP
#undef FJ_K_PAIRS
#undef FJ_K_PREFETCH_MIN
