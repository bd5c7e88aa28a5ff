/* String escaping for the writer (private).
 *
 * A string's bytes are copied 16 (SSE2) or 8 (SWAR) at a time until a byte
 * that needs attention: `"`, `\`, a control character below 0x20, `/` when
 * asked, and bytes >= 0x80 when UTF-8 is validated or non-ASCII is escaped.
 * Those take a short scalar path. JSON escapes per RFC 8259 section 7:
 * \" \\ \b \f \n \r \t, \u00xx (lower-case hex) for other control
 * characters, \/ when asked, \uxxxx (UTF-16 surrogate pairs beyond U+FFFF)
 * for non-ASCII when asked. */
#ifndef FJ_WRITE_ESCAPE_H
#define FJ_WRITE_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fastjson/error.h"

enum {
  FJ__ESC_SLASH = 1u << 0,    /* write '/' as "\/" */
  FJ__ESC_UNICODE = 1u << 1,  /* write non-ASCII as \uxxxx; implies validation */
  FJ__ESC_VALIDATE = 1u << 2, /* check UTF-8 (RFC 3629) */
  FJ__ESC_REPLACE = 1u << 3   /* with VALIDATE: invalid sequences become U+FFFD */
};

/* The most output one input byte can produce (a control character as \u00xx). */
#define FJ_ESCAPE_RATIO 6
/* Extra room the escaper may store past its output (whole 16-byte stores). */
#define FJ_ESCAPE_SLACK 32

/* Escapes the `n` bytes at `src` (no quotes added) into `dst`, which must
 * have room for FJ_ESCAPE_RATIO * n + FJ_ESCAPE_SLACK bytes; *written gets
 * the output length. Returns FJ_OK, or FJ_ERR_UTF8 when VALIDATE is set
 * without REPLACE and the input is not UTF-8 (the output is then garbage). */
fj_error fj__escape(uint8_t *dst, const uint8_t *src, size_t n, unsigned flags, size_t *written);

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* fj__escape() with flags FJ__ESC_VALIDATE only (the writer's default), in
 * 64-byte blocks with AVX-512 (BW, VL, VBMI, BMI2), UTF-8 checked in
 * 64-byte blocks too: for CPUs that have it (the writer takes it with the
 * avx512 kernel, whose CPU test covers these). */
#define FJ_ESCAPE_AVX512 1
fj_error fj__escape_avx512(uint8_t *dst, const uint8_t *src, size_t n, size_t *written);
#endif

/* Is `n` bytes at `src` well-formed UTF-8 (RFC 3629: no overlongs, no
 * surrogates, nothing above U+10FFFF)? Stage 1's check, run by the kernel
 * in use (src/scan/utf8_buffer_impl.h). */
bool fj__utf8_valid(const uint8_t *src, size_t n);

/* Copies the n bytes at src to dst with each invalid UTF-8 sequence (its
 * maximal subpart, Unicode 15 section 3.9, D93b) replaced by U+FFFD, as
 * FJ__ESC_REPLACE writes it, without escaping anything; dst has room for 3n
 * bytes. Returns the bytes written. Keys that would come out equal (the
 * map key check, fj_encode_map_keys) compare equal after it. */
size_t fj__utf8_replace(uint8_t *dst, const uint8_t *src, size_t n);

/* The largest m <= n such that cutting `src` after m bytes splits no UTF-8
 * sequence (looks back at most 3 bytes; n itself if none is found, which
 * then only splits an invalid sequence). src[n] must be readable: the cut
 * lies inside a longer string. For escaping long strings in chunks. */
size_t fj__utf8_cut(const uint8_t *src, size_t n);

#endif
