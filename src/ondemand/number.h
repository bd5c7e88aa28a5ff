/* Number conversion (private). JSON numbers per RFC 8259 section 6:
 *   number = [ "-" ] int [ frac ] [ exp ];  int = "0" / digit1-9 *DIGIT
 * Every function reads from `p` and never at or past `end`, and sets *len to
 * the number of bytes the number's text occupies (also on range errors, so
 * callers can report and skip it). None of them checks the byte after the
 * number: callers check that it is a delimiter.
 */
#ifndef FJ_ONDEMAND_NUMBER_H
#define FJ_ONDEMAND_NUMBER_H

#include <stddef.h>
#include <stdint.h>

#include "fastjson/error.h"
#include "fastjson/parser.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FJ_SWAR 1 /* digits 8 at a time from one load (the byte order is the text's) */
/* Nonzero where the 8 bytes (loaded little-endian) are not all ASCII
 * digits; then the lowest set bit is the top bit of the first non-digit
 * byte. With x = bytes - '0', a byte is a digit when x < 10, that is when
 * neither x nor x + 0x76 reaches 0x80. Bytes below the first non-digit are
 * digits, so no borrow or carry reaches it; what comes after it may be
 * disturbed, and does not matter. */
static inline uint64_t fj__nondigit_bytes(uint64_t v) {
  uint64_t x = v - UINT64_C(0x3030303030303030);
  return (x | (x + UINT64_C(0x7676767676767676))) & UINT64_C(0x8080808080808080);
}
#else
#define FJ_SWAR 0
#endif

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

#endif
