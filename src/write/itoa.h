/* Integer to decimal text (private).
 *
 * A number is split into groups of eight digits with one division by 10^8.
 * A leading group is printed from a table of digit pairs, with short paths
 * for short numbers; a full group of eight is made in registers and stored
 * at once (fj__put8_swar()). Callers must leave room for 20 bytes (24 for
 * the 8-byte stores some paths make); no NUL is written. */
#ifndef FJ_WRITE_ITOA_H
#define FJ_WRITE_ITOA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/compiler.h"

/* "00" "01" ... "99": the two ASCII digits of n at fj__digit_pairs[2 * n]. */
extern const char fj__digit_pairs[200];

/* Writes 2 digits of n < 100. */
static inline void fj__put2(char *out, uint32_t n) { memcpy(out, fj__digit_pairs + 2 * n, 2); }

/* Writes exactly 4 digits of n < 10^4, with leading zeros. */
static inline void fj__put4(char *out, uint32_t n) {
  uint32_t hi = n / 100; /* compilers turn these into multiplications */
  fj__put2(out, hi);
  fj__put2(out + 2, n - hi * 100);
}

/* Writes n < 10^8 without leading zeros ("0" for 0); returns the length. */
static inline size_t fj__put_upto8(char *out, uint32_t n) {
  if (n < 100) {
    if (n < 10) {
      out[0] = (char)('0' + n);
      return 1;
    }
    fj__put2(out, n);
    return 2;
  }
  if (n < 10000) {
    uint32_t hi = n / 100, lo = n - hi * 100;
    size_t k = hi >= 10;
    if (k)
      fj__put2(out, hi);
    else
      out[0] = (char)('0' + hi);
    fj__put2(out + 1 + k, lo);
    return 3 + k;
  }
  uint32_t hi = n / 10000, lo = n - hi * 10000;
  size_t k = fj__put_upto8(out, hi); /* hi < 10^4: one level of recursion */
  fj__put4(out + k, lo);
  return k + 4;
}

/* n < 10^4 as fj__put_upto8() writes it; for fj__put_upto8_flat(). */
static inline size_t fj__put_upto4(char *out, uint32_t n) {
  if (n < 100) {
    if (n < 10) {
      out[0] = (char)('0' + n);
      return 1;
    }
    fj__put2(out, n);
    return 2;
  }
  uint32_t hi = n / 100, lo = n - hi * 100;
  size_t k = hi >= 10;
  if (k)
    fj__put2(out, hi);
  else
    out[0] = (char)('0' + hi);
  fj__put2(out + 1 + k, lo);
  return 3 + k;
}

/* fj__put_upto8() without the recursion, for callers that must make no
 * call: gcc keeps the recursive one out of line where much code inlines it
 * (dtoa's digits), and the call made fj__dtoa() save registers. The integer
 * events keep the recursive one (which fj__put_upto4() repeats a part of):
 * built from fj__put_upto4(), their code changed (gcc ordered the length
 * tests otherwise) and citm's 9-digit integers measured 3-5% slower. */
static inline size_t fj__put_upto8_flat(char *out, uint32_t n) {
  if (n < 10000) return fj__put_upto4(out, n);
  uint32_t hi = n / 10000, lo = n - hi * 10000;
  size_t k = fj__put_upto4(out, hi);
  fj__put4(out + k, lo);
  return k + 4;
}

/* fj__swar8_q(n, q): the 8 digits of n < 10^8, given q = n / 10^4 (which
 * the caller may have computed from something n was divided from, so that
 * it need not wait for n); fj__swar8(n) computes q itself.
 *
 * The digits come one per byte (0..9, not ASCII), the first in
 * the lowest byte: memory order on a little-endian store. All in registers
 * ("SWAR": several small numbers side by side in one word): n is split
 * into two 4-digit halves side by side, each into two pairs, each pair into
 * two digits; the divisions by 100 and 10 of all lanes at once are
 * multiplications by 10486 / 2^20 and 103 / 2^10, exact below 10^4 and 100
 * (checked exhaustively). */
static inline uint64_t fj__swar8_q(uint32_t n, uint32_t q) {
  uint64_t hi = q;
  /* each step makes (x - q d) << s | q (the remainders by d above the
   * quotients q) as (x << s) + q (1 - (d << s)) modulo 2^64: after q, one
   * multiplication and one addition, where the subtraction, shift and or
   * were four dependent steps (the chain from n to the digits is about 26
   * cycles instead of 31, and dtoa waits for it) */
  uint64_t x = ((uint64_t)n << 32) + hi * (1 - (UINT64_C(10000) << 32));
  uint64_t h = ((x * 10486) >> 20) & UINT64_C(0x0000007F0000007F);
  uint64_t y = (x << 16) + h * (1 - (UINT64_C(100) << 16));
  uint64_t t = ((y * 103) >> 10) & UINT64_C(0x000F000F000F000F);
  return (y << 8) + t * (1 - (UINT64_C(10) << 8));
}

static inline uint64_t fj__swar8(uint32_t n) { return fj__swar8_q(n, n / 10000); }

#define FJ_ASCII_ZEROS UINT64_C(0x3030303030303030)

/* Stores the 8 bytes of w at out, the lowest first, on any byte order. */
static inline void fj__store8(char *out, uint64_t w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  w = __builtin_bswap64(w);
#endif
  memcpy(out, &w, sizeof w);
}

/* Writes exactly 8 digits of n < 10^8, with leading zeros, from pairs. */
static inline void fj__put8(char *out, uint32_t n) {
  uint32_t hi = n / 10000;
  fj__put4(out, hi);
  fj__put4(out + 4, n - hi * 10000);
}

/* As fj__put8(), with one store of digits made in registers: fewer
 * instructions than four pair lookups and stores, but a longer chain of
 * multiplications (slower where the digits are read back soon, as dtoa
 * does to place a decimal point). */
static inline void fj__put8_swar(char *out, uint32_t n) {
  fj__store8(out, fj__swar8(n) + FJ_ASCII_ZEROS);
}

/* 17 to 20 digits (out of line: rare, and it would make the inline paths
 * below too big to inline). */
size_t fj__u64toa_long(char *out, uint64_t v);

/* Numbers below this take the inline paths below; callers that must not
 * make a call (the writer's events, which then need no stack frame) test
 * for it and go elsewhere for the rest. */
#define FJ_U64TOA_INLINE_LIMIT UINT64_C(10000000000000000) /* 10^16 */

/* v < 10^16: at most 16 digits, as two groups. */
static inline size_t fj__u64toa16(char *out, uint64_t v) {
  if (v < 100000000u) return fj__put_upto8(out, (uint32_t)v);
  uint64_t hi = v / 100000000u;
  size_t k = fj__put_upto8(out, (uint32_t)hi);
  fj__put8_swar(out + k, (uint32_t)(v - hi * 100000000u));
  return k + 8;
}

/* |v| < 10^16. The sign is stored always and kept only for negative v, so
 * that the digits are written by one inline copy of fj__u64toa16(). */
static inline size_t fj__i64toa16(char *out, int64_t v) {
  /* negate in unsigned arithmetic: INT64_MIN has no positive twin */
  uint64_t mag = (uint64_t)v;
  size_t neg = v < 0;
  out[0] = '-';
  return neg + fj__u64toa16(out + neg, neg ? 0 - mag : mag);
}

/* Unsigned and signed 64-bit integers: at most 20 bytes written. */
static inline size_t fj__u64toa(char *out, uint64_t v) {
  if (FJ_LIKELY(v < FJ_U64TOA_INLINE_LIMIT)) return fj__u64toa16(out, v);
  return fj__u64toa_long(out, v);
}

static inline size_t fj__i64toa(char *out, int64_t v) {
  uint64_t mag = (uint64_t)v;
  size_t neg = v < 0;
  out[0] = '-';
  return neg + fj__u64toa(out + neg, neg ? 0 - mag : mag);
}

/* |v| < 10^8: fj__i64toa16() for the shortest numbers only. */
static inline size_t fj__i64toa8(char *out, int64_t v) {
  uint64_t mag = (uint64_t)v;
  size_t neg = v < 0;
  out[0] = '-';
  return neg + fj__put_upto8(out + neg, (uint32_t)(neg ? 0 - mag : mag));
}

/* 10^8 <= |v| < 10^16: fj__i64toa16() for the longer numbers only. */
static inline size_t fj__i64toa9to16(char *out, int64_t v) {
  uint64_t mag = (uint64_t)v;
  size_t neg = v < 0;
  out[0] = '-';
  mag = neg ? 0 - mag : mag;
  uint64_t hi = mag / 100000000u;
  size_t k = fj__put_upto8(out + neg, (uint32_t)hi);
  fj__put8_swar(out + neg + k, (uint32_t)(mag - hi * 100000000u));
  return neg + k + 8;
}

/* Whether fj__i64toa8() takes v. */
static inline int fj__i64_short8(int64_t v) {
  return (uint64_t)v + (100000000u - 1) < 2 * 100000000u - 1;
}

/* Whether fj__i64toa16() takes v. */
static inline int fj__i64_short(int64_t v) {
  /* |v| < 10^16 without negating: shift the range to [0, 2 * 10^16) */
  return (uint64_t)v + (FJ_U64TOA_INLINE_LIMIT - 1) < 2 * FJ_U64TOA_INLINE_LIMIT - 1;
}

#endif
