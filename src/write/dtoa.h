/* Shortest round-trip double to text (private).
 *
 * The digits come from the Schubfach algorithm (Raffaello Giulietti, "The
 * Schubfach way to render doubles", 2020): the shortest decimal in the
 * rounding interval of the double, the closest one to it when several are
 * that short, ties to an even last digit. Reading the text back with a
 * correctly rounding reader (strtod, this library's parser) gives the same
 * double, bit for bit.
 *
 * Notation, as JavaScript's Number.prototype.toString: with the value
 * written d.ddd * 10^x, x in [-6, 21) is written in fixed notation
 * ("0.000001", "123.25", "100000000000000000000.0") and anything else as
 * d[.ddd]e[-]x ("1e21", "1.5e-7", "-2.2250738585072014e-308"). Unlike
 * JavaScript, an integral value keeps ".0" ("1.0", "-0.0") so that readers
 * see a floating-point number, and the exponent has no '+'. */
#ifndef FJ_WRITE_DTOA_H
#define FJ_WRITE_DTOA_H

#include <stddef.h>
#include <stdint.h>

#include "fastjson/error.h" /* FJ_API */

/* Most bytes fj__dtoa() writes (it may store up to this many, though the
 * text is at most 25 long: "-0.0000012345678901234567"). */
#define FJ_DTOA_BUF 32

/* Writes finite `v` as above at `out` (room for FJ_DTOA_BUF bytes, no NUL);
 * returns the length. NaN and infinities must be handled by the caller.
 * Exported: fastjson/writer.h's inline double path calls it. */
FJ_API size_t fj__dtoa(char *out, double v);

/* The shortest decimal of finite, non-zero |v|: |v| ~ digits * 10^exp10,
 * digits without trailing zeros (at most 17 digits). For tests. */
void fj__dtoa_decimal(double v, uint64_t *digits, int *exp10);

#endif
