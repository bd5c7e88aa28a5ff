/* Integer to decimal text with a table of digit pairs (private).
 *
 * Two digits per table lookup and per division: a number is split into
 * groups of eight digits with one division by 10^8, each group into two
 * groups of four, each of those into two pairs. Short numbers take short
 * paths. Callers must leave room for 20 bytes (24 for the 8-byte stores
 * some paths make); no NUL is written. */
#ifndef FJ_WRITE_ITOA_H
#define FJ_WRITE_ITOA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* Writes exactly 8 digits of n < 10^8, with leading zeros. */
static inline void fj__put8(char *out, uint32_t n) {
  uint32_t hi = n / 10000;
  fj__put4(out, hi);
  fj__put4(out + 4, n - hi * 10000);
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

/* Unsigned and signed 64-bit integers: at most 20 bytes written. Inline:
 * the writer's integer events are little more than this. */
static inline size_t fj__u64toa(char *out, uint64_t v) {
  if (v < 100000000u) return fj__put_upto8(out, (uint32_t)v);
  if (v < UINT64_C(10000000000000000)) { /* 9 to 16 digits: two groups */
    uint64_t hi = v / 100000000u;
    size_t k = fj__put_upto8(out, (uint32_t)hi);
    fj__put8(out + k, (uint32_t)(v - hi * 100000000u));
    return k + 8;
  }
  /* 17 to 20 digits: the top group has at most 4 (2^64 < 1.9 * 10^19) */
  uint64_t top = v / UINT64_C(10000000000000000);
  uint64_t rest = v - top * UINT64_C(10000000000000000);
  uint64_t mid = rest / 100000000u;
  size_t k = fj__put_upto8(out, (uint32_t)top);
  fj__put8(out + k, (uint32_t)mid);
  fj__put8(out + k + 8, (uint32_t)(rest - mid * 100000000u));
  return k + 16;
}

static inline size_t fj__i64toa(char *out, int64_t v) {
  /* negate in unsigned arithmetic: INT64_MIN has no positive twin */
  uint64_t mag = (uint64_t)v;
  if (v >= 0) return fj__u64toa(out, mag);
  out[0] = '-';
  return 1 + fj__u64toa(out + 1, 0 - mag);
}

#endif
