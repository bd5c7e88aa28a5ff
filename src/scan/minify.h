/* Unvalidated minify (private): the per-CPU kernels behind
 * fj_minify_unvalidated(). Each stage-1 kernel file also compiles the one
 * block algorithm of minify_impl.h with its own primitives; dispatch.c puts
 * the result next to the kernel's stage 1 (fj__kernel.minify), so
 * FASTJSON_KERNEL and fj_kernel_select() choose both. */
#ifndef FJ_SCAN_MINIFY_H
#define FJ_SCAN_MINIFY_H

#include <stddef.h>
#include <stdint.h>

/* Carried from one call to the next, so that a document can be minified in
 * pieces. Zero-initialised at the start of a document. */
typedef struct fj__minify_carry {
  uint64_t escaped;   /* 1 if the next byte follows an escaping backslash */
  uint64_t in_string; /* all ones if the next byte is inside a string */
} fj__minify_carry;

/* Writes the `len` bytes at `in` to `out` without the whitespace (space, \t,
 * \n, \r) outside strings; returns the number of bytes written (<= len).
 * Strings are found as stage 1 finds them (quotes not escaped by an odd run
 * of backslashes). `out` needs room for `len` bytes, no more; it may equal
 * `in` (in place), but the two must not overlap otherwise. A piece that is
 * not the last must be a multiple of 64 bytes long. Reads nothing past
 * in + len. */
typedef size_t (*fj__minify_fn)(const uint8_t *in, size_t len, uint8_t *out,
                                fj__minify_carry *carry);

#define FJ__MINIFY_DECLARE(name)                                                                   \
  size_t fj__minify_##name(const uint8_t *in, size_t len, uint8_t *out, fj__minify_carry *carry);
FJ__MINIFY_DECLARE(scalar)
FJ__MINIFY_DECLARE(sse42)
FJ__MINIFY_DECLARE(avx2)
FJ__MINIFY_DECLARE(avx512)
FJ__MINIFY_DECLARE(neon)
#undef FJ__MINIFY_DECLARE

/* For 8-bit masks m: the positions 0..7 of m's set bits, in order, then
 * 0x80 up to 8 bytes (a pshufb/tbl index that gives 0). The compress step
 * of the 16-byte SIMD kernels. */
extern const uint8_t fj__minify_shuffle[256][8];

#endif
