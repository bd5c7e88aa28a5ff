/* Number conversion (private). JSON numbers per RFC 8259 section 6:
 *   number = [ "-" ] int [ frac ] [ exp ];  int = "0" / digit1-9 *DIGIT
 * Every function reads from `p` and never at or past `end`, and sets *len to
 * the number of bytes the number's text occupies (also on range errors, so
 * callers can report and skip it). None of them checks the byte after the
 * number: callers check that it is a delimiter.
 */
#ifndef FJ_ONDEMAND_NUMBER_H
#define FJ_ONDEMAND_NUMBER_H

#include <float.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fastjson/error.h"
#include "fastjson/parser.h"

/* Defined in number.c on every target; parser.h declares them exported when
 * its inline paths use them. */
extern const uint64_t fj__pow10_u64[8];  /* 10^0 .. 10^7 */
extern const double fj__pow10_exact[23]; /* 10^0 .. 10^22, each exact */

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FJ_SWAR 1 /* digits 8 at a time from one load (the byte order is the text's) */
/* fj__nondigit_bytes() and fj__value8(): parser.h, whose inline integer
 * path uses them too */

/* Appends the digits that start the 8 bytes at s to w (w * 10^k + their
 * value, wrapping mod 2^64) and returns their count k (0 to 8), from one
 * load and without a branch per digit: the k digits are moved to the top of
 * the word behind '0' bytes, which add nothing. */
static inline unsigned fj__take_digits8(const uint8_t *s, uint64_t *w) {
  uint64_t chunk;
  memcpy(&chunk, s, 8);
  uint64_t bad = fj__nondigit_bytes(chunk);
  if (!bad) {
    *w = *w * 100000000 + fj__value8(chunk);
    return 8;
  }
  unsigned k = (unsigned)__builtin_ctzll(bad) >> 3;
  if (k <= 2) { /* a short tail ("410.62"): cheaper than combining lanes */
    uint64_t d0 = chunk & 0xF, d1 = (chunk >> 8) & 0xF;
    *w = *w * fj__pow10_u64[k] + (k == 2 ? d0 * 10 + d1 : k == 1 ? d0 : 0);
    return k;
  }
  /* two shifts: k = 0 would shift by 64 in one */
  uint64_t padded = ((chunk << (63 - 8 * k)) << 1) | (UINT64_C(0x3030303030303030) >> (8 * k));
  *w = *w * fj__pow10_u64[k] + fj__value8(padded);
  return k;
}
#else
#define FJ_SWAR 0
#endif

/* Clinger's fast path needs doubles evaluated in double precision (not
 * x87 extended). */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define FJ_HAVE_CLINGER 1
#else
#define FJ_HAVE_CLINGER 0
#endif

#if FJ_SWAR
/* The common decimal's text, in one pass with few live values: '-'?, 1 to
 * 3 integer digits, '.', 1 to 15 fraction digits read from two 8-byte
 * loads, then a delimiter (so 24 readable bytes). Returns its length with
 * its digits as w (at most 18, so no overflow), the fraction's n and the
 * sign; 0 for anything else. Callers convert: w / 10^n is a normal double
 * (number.c; the codec's reads inline it for w <= 2^53). */
static inline size_t fj__short_decimal_text(const uint8_t *p, const uint8_t *end, uint64_t *wp,
                                            unsigned *np, int *negp) {
  if (end - p < 24) return 0;
  const uint8_t *s = p;
  const int neg = *s == '-';
  s += neg;
  uint64_t w = (uint64_t)(*s - '0');
  if (w > 9) return 0;
  s++;
  if (w) {
    unsigned d = (unsigned)(*s - '0');
    if (d < 10) {
      w = w * 10 + d;
      d = (unsigned)(*++s - '0');
      if (d < 10) {
        w = w * 10 + d;
        s++;
      }
    }
  }
  if (*s != '.') return 0;
  s++;
  uint64_t c1, c2;
  memcpy(&c1, s, 8);
  memcpy(&c2, s + 8, 8);
  const uint64_t b1 = fj__nondigit_bytes(c1);
  unsigned n; /* fraction digits */
  if (b1) {   /* 1 to 7 */
    n = (unsigned)__builtin_ctzll(b1) >> 3;
    if (!n) return 0; /* "1." */
    if (n <= 2) {     /* prices, halves: a shorter chain than combining lanes */
      const uint64_t d0 = c1 & 0xF, d1 = (c1 >> 8) & 0xF;
      w = n == 2 ? w * 100 + d0 * 10 + d1 : w * 10 + d0;
    } else {
      const uint64_t padded =
          ((c1 << (63 - 8 * n)) << 1) | (UINT64_C(0x3030303030303030) >> (8 * n));
      w = w * fj__pow10_u64[n] + fj__value8(padded);
    }
  } else { /* 8 to 15 */
    const uint64_t b2 = fj__nondigit_bytes(c2);
    if (!b2) return 0;
    const unsigned k = (unsigned)__builtin_ctzll(b2) >> 3;
    const uint64_t padded = ((c2 << (63 - 8 * k)) << 1) | (UINT64_C(0x3030303030303030) >> (8 * k));
    w = (w * 100000000 + fj__value8(c1)) * fj__pow10_u64[k] + fj__value8(padded);
    n = 8 + k;
  }
  if (!fj__delimiter[s[n]]) return 0; /* an exponent, or bad text */
  *wp = w;
  *np = n;
  *negp = neg;
  return (size_t)(s + n - p);
}
#endif

/* The common integer, for callers' fast paths: an optional '-', then "0" or
 * up to 20 digits not starting with '0' whose magnitude fits in 64 bits.
 * Returns 1 with the magnitude, the sign and the text's length; 0 for
 * anything else, which the exact parsers below then report. What follows
 * the digits is not looked at: callers check that it is a delimiter, which
 * also turns away fractions, exponents and leading zeros ("01"). Long
 * integers go 8 digits a step (ids, timestamps), the first 4 one at a time. */
static inline int fj__integer_text(const uint8_t *p, const uint8_t *end, uint64_t *mag, int *neg,
                                   size_t *len) {
  const uint8_t *s = p;
  *neg = s < end && *s == '-';
  s += *neg;
  if (s >= end || (unsigned)(*s - '0') > 9u) return 0;
  const uint8_t *digits = s;
  uint64_t w = (uint64_t)(*s++ - '0');
  if (w) {
    /* up to 4 digits one at a time (the most common integers: cheapest) */
    const uint8_t *stop = end - s > 3 ? s + 3 : end;
    while (s < stop && (unsigned)(*s - '0') < 10u)
      w = w * 10 + (uint64_t)(*s++ - '0');
    if (s == stop && s < end && (unsigned)(*s - '0') < 10u) {
#if FJ_SWAR
      while (end - s >= 8) {
        unsigned k = fj__take_digits8(s, &w);
        s += k;
        if (k < 8) break;
      }
#endif
      while (s < end && (unsigned)(*s - '0') < 10u)
        w = w * 10 + (uint64_t)(*s++ - '0');
      size_t n = (size_t)(s - digits);
      /* up to 19 digits always fit; w is the value mod 2^64, exact for 20
       * digits up to 2^64 - 1, which compare as text */
      if (n > 19 && (n > 20 || memcmp(digits, "18446744073709551615", 20) > 0)) return 0;
    }
  }
  *mag = w;
  *len = (size_t)(s - p);
  return 1;
}

/* Checks the grammar only. *is_integer is 1 when there is no fraction and no
 * exponent. FJ_ERR_BAD_NUMBER on malformed text (then *len is the offset of
 * the offending byte). */
fj_error fj__number_scan(const uint8_t *p, const uint8_t *end, size_t *len, int *is_integer);

/* Exact integers. FJ_ERR_BAD_NUMBER (malformed), FJ_ERR_NOT_INTEGER (a valid
 * number with a fraction or exponent), FJ_ERR_NUMBER_RANGE (a valid integer
 * outside the type; for uint64 also any negative integer, but "-0" is 0). */
fj_error fj__parse_int64(const uint8_t *p, const uint8_t *end, int64_t *out, size_t *len);
fj_error fj__parse_uint64(const uint8_t *p, const uint8_t *end, uint64_t *out, size_t *len);

/* The nearest double, round-half-to-even, for every input (Clinger fast path,
 * Eisel-Lemire, exact fallback). FJ_ERR_BAD_NUMBER; FJ_ERR_NUMBER_RANGE when
 * the value rounds to infinity. "-0" gives -0.0. */
fj_error fj__parse_double(const uint8_t *p, const uint8_t *end, double *out, size_t *len);

/* The number as its text says: an integer in [-2^63, 2^64) exactly
 * (FJ_NUMBER_INT64 or FJ_NUMBER_UINT64), any other integer as the nearest
 * double (FJ_NUMBER_BIG_INTEGER), everything else as the nearest double
 * (FJ_NUMBER_DOUBLE). One pass for the common number. FJ_ERR_BAD_NUMBER;
 * FJ_ERR_NUMBER_RANGE when a double rounds to infinity (*out is then inf). */
fj_error fj__parse_number(const uint8_t *p, const uint8_t *end, fj_number *out, size_t *len);

/* The variants behind fj__parse_double, fj__parse_number and
 * fj__number_fast (parser.h) on x86-64, where those call the active
 * kernel's (fj__kernel in scan/stage1.h): number.c compiled with the
 * toolchain's flags (_base) and for the avx2 and avx512 kernels (_avx2, by
 * number_avx2.c). Elsewhere the entry points are the only variant. */
#define FJ__NUMBER_DECLARE(v)                                                                      \
  fj_error fj__parse_double_##v(const uint8_t *p, const uint8_t *end, double *out, size_t *len);   \
  fj_error fj__parse_number_##v(const uint8_t *p, const uint8_t *end, fj_number *out,              \
                                size_t *len);                                                      \
  bool fj__number_fast_##v(const uint8_t *p, const uint8_t *end, fj_number *out);
FJ__NUMBER_DECLARE(base)
FJ__NUMBER_DECLARE(avx2)
#undef FJ__NUMBER_DECLARE

#endif
