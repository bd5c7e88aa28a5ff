/* Vectorised UTF-8 validation (RFC 3629), written once against the vector
 * primitives of simd_block.h. This is the lookup algorithm of J. Keiser and
 * D. Lemire, "Validating UTF-8 in less than one instruction per byte",
 * Software: Practice and Experience 51(5), 2021:
 *
 *  - three 16-entry table lookups, on the high nibble of the previous byte,
 *    the low nibble of the previous byte and the high nibble of the current
 *    byte, each giving a set of error bits; an error is a bit set in all
 *    three (too short, too long, overlong, surrogate, too large, two
 *    continuations);
 *  - the bytes that must be the 2nd/3rd continuation of a 3- or 4-byte
 *    sequence (found with saturating subtraction on the bytes 2 and 3 back)
 *    flip the "two continuations" bit, which then must cancel exactly;
 *  - a sequence cut off at the end of a block is carried to the next one.
 *
 * Errors are OR-ed into one vector and tested once, after the last block:
 * a kernel only has to say "bad", fj__stage1_locate says where.
 */
#ifndef FJ_SCAN_UTF8_SIMD_H
#define FJ_SCAN_UTF8_SIMD_H

enum {
  FJ_U8_TOO_SHORT = 1 << 0,      /* 11______ 0_______ or 11______ 11______ */
  FJ_U8_TOO_LONG = 1 << 1,       /* 0_______ 10______ */
  FJ_U8_OVERLONG_3 = 1 << 2,     /* 11100000 100_____ */
  FJ_U8_TOO_LARGE = 1 << 3,      /* 11110100 1001____ and above */
  FJ_U8_SURROGATE = 1 << 4,      /* 11101101 101_____ */
  FJ_U8_OVERLONG_2 = 1 << 5,     /* 1100000_ 10______ */
  FJ_U8_TOO_LARGE_1000 = 1 << 6, /* 11110101 1000____ and above */
  FJ_U8_OVERLONG_4 = 1 << 6,     /* 11110000 1000____ (shares the bit: told apart by byte 1) */
  FJ_U8_TWO_CONTS = 1 << 7,      /* 10______ 10______ */
  FJ_U8_CARRY = FJ_U8_TOO_SHORT | FJ_U8_TOO_LONG | FJ_U8_TWO_CONTS,
};

/* Indexed by the high nibble of the first byte of a pair. */
static const uint8_t fj_u8_byte1_high[64] = FJ_TABLE16(
    /* 0_______ ASCII */
    FJ_U8_TOO_LONG, FJ_U8_TOO_LONG, FJ_U8_TOO_LONG, FJ_U8_TOO_LONG, FJ_U8_TOO_LONG, FJ_U8_TOO_LONG,
    FJ_U8_TOO_LONG, FJ_U8_TOO_LONG,
    /* 10______ continuation */
    FJ_U8_TWO_CONTS, FJ_U8_TWO_CONTS, FJ_U8_TWO_CONTS, FJ_U8_TWO_CONTS,
    /* 1100____ */ FJ_U8_TOO_SHORT | FJ_U8_OVERLONG_2,
    /* 1101____ */ FJ_U8_TOO_SHORT,
    /* 1110____ */ FJ_U8_TOO_SHORT | FJ_U8_OVERLONG_3 | FJ_U8_SURROGATE,
    /* 1111____ */ FJ_U8_TOO_SHORT | FJ_U8_TOO_LARGE | FJ_U8_TOO_LARGE_1000 | FJ_U8_OVERLONG_4);

/* Indexed by the low nibble of the first byte of a pair. */
#define FJ_U8_BIG (FJ_U8_CARRY | FJ_U8_TOO_LARGE | FJ_U8_TOO_LARGE_1000)
static const uint8_t fj_u8_byte1_low[64] = FJ_TABLE16(
    /* ____0000 */ FJ_U8_CARRY | FJ_U8_OVERLONG_3 | FJ_U8_OVERLONG_2 | FJ_U8_OVERLONG_4,
    /* ____0001 */ FJ_U8_CARRY | FJ_U8_OVERLONG_2,
    /* ____001_ */ FJ_U8_CARRY, FJ_U8_CARRY,
    /* ____0100 */ FJ_U8_CARRY | FJ_U8_TOO_LARGE,
    /* ____0101 .. ____1100 */ FJ_U8_BIG, FJ_U8_BIG, FJ_U8_BIG, FJ_U8_BIG, FJ_U8_BIG, FJ_U8_BIG,
    FJ_U8_BIG, FJ_U8_BIG,
    /* ____1101 */ FJ_U8_BIG | FJ_U8_SURROGATE,
    /* ____111_ */ FJ_U8_BIG, FJ_U8_BIG);
#undef FJ_U8_BIG

/* Indexed by the high nibble of the second byte of a pair. */
#define FJ_U8_CONT (FJ_U8_TOO_LONG | FJ_U8_OVERLONG_2 | FJ_U8_TWO_CONTS)
static const uint8_t fj_u8_byte2_high[64] = FJ_TABLE16(
    /* ________ 0_______ */
    FJ_U8_TOO_SHORT, FJ_U8_TOO_SHORT, FJ_U8_TOO_SHORT, FJ_U8_TOO_SHORT, FJ_U8_TOO_SHORT,
    FJ_U8_TOO_SHORT, FJ_U8_TOO_SHORT, FJ_U8_TOO_SHORT,
    /* ________ 1000____ */
    FJ_U8_CONT | FJ_U8_OVERLONG_3 | FJ_U8_TOO_LARGE_1000 | FJ_U8_OVERLONG_4,
    /* ________ 1001____ */ FJ_U8_CONT | FJ_U8_OVERLONG_3 | FJ_U8_TOO_LARGE,
    /* ________ 101_____ */ FJ_U8_CONT | FJ_U8_SURROGATE | FJ_U8_TOO_LARGE,
    FJ_U8_CONT | FJ_U8_SURROGATE | FJ_U8_TOO_LARGE,
    /* ________ 11______ */
    FJ_U8_TOO_SHORT, FJ_U8_TOO_SHORT, FJ_U8_TOO_SHORT, FJ_U8_TOO_SHORT);
#undef FJ_U8_CONT

/* The last vector of a block is incomplete if its last byte is a lead byte,
 * its second last a 3/4-byte lead or its third last a 4-byte lead: bytes
 * above these limits (saturating subtraction leaves them nonzero). */
static const uint8_t fj_u8_max_tail[64] = {
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,      255,      255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,      255,      255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,      255,      255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0xF0 - 1, 0xE0 - 1, 0xC0 - 1};

typedef struct fj_k_utf8 {
  fj_v error;      /* nonzero bytes: some error seen */
  fj_v prev;       /* the last vector of the last non-ASCII block */
  fj_v incomplete; /* nonzero if that vector ends inside a sequence */
} fj_k_utf8;

static inline void fj_k_utf8_init(fj_k_utf8 *u) {
  u->error = fj_v_splat(0);
  u->prev = fj_v_splat(0);
  u->incomplete = fj_v_splat(0);
}

/* The error bits of every byte of `in`, given the vector before it. */
static inline fj_v fj_u8_check(fj_v in, fj_v prev) {
  const fj_v nib = fj_v_splat(0x0F);
  fj_v prev1 = fj_v_prev1(in, prev);
  fj_v sc = fj_v_and(fj_v_and(fj_v_lookup(fj_v_load(fj_u8_byte1_high), fj_v_shr4(prev1)),
                              fj_v_lookup(fj_v_load(fj_u8_byte1_low), fj_v_and(prev1, nib))),
                     fj_v_lookup(fj_v_load(fj_u8_byte2_high), fj_v_shr4(in)));
  /* only 111_____ two back and 1111____ three back stay >= 0x80 */
  fj_v third = fj_v_subs(fj_v_prev2(in, prev), fj_v_splat(0xE0 - 0x80));
  fj_v fourth = fj_v_subs(fj_v_prev3(in, prev), fj_v_splat(0xF0 - 0x80));
  fj_v must23 = fj_v_and(fj_v_or(third, fourth), fj_v_splat(0x80));
  return fj_v_xor(must23, sc);
}

static inline void fj_k_utf8_block(fj_k_utf8 *u, const fj_k_block *b) {
  fj_v any = b->v[0];
  for (int i = 1; i < FJ_V_N; i++)
    any = fj_v_or(any, b->v[i]);
  if (fj_v_ascii(any)) { /* an ASCII block only has to close what came before */
    u->error = fj_v_or(u->error, u->incomplete);
    return;
  }
  fj_v prev = u->prev;
  for (int i = 0; i < FJ_V_N; i++) {
    u->error = fj_v_or(u->error, fj_u8_check(b->v[i], prev));
    prev = b->v[i];
  }
  u->incomplete = fj_v_subs(prev, fj_v_load(fj_u8_max_tail + 64 - sizeof(fj_v)));
  u->prev = prev;
}

static inline bool fj_k_utf8_valid(fj_k_utf8 *u) {
  return fj_v_zero(fj_v_or(u->error, u->incomplete));
}

#endif
