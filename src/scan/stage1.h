/* Stage 1 (private): the structural scanner and its per-CPU kernels.
 *
 * Stage 1 reads the input once in 64-byte blocks and writes the structural
 * index: the byte offset of every `{ } [ ] : ,` outside strings, of every
 * opening quote, and of the first byte of every other token (numbers,
 * literals, stray bytes) outside strings. It checks what can be checked per
 * block: UTF-8 (RFC 3629), control characters and escape characters inside
 * strings, and that the last string is closed.
 *
 * Every kernel produces the identical index and, on error, the identical
 * error and offset: kernels only detect that some block is bad; the exact
 * first error is then found by one scalar routine (fj__stage1_locate).
 */
#ifndef FJ_SCAN_STAGE1_H
#define FJ_SCAN_STAGE1_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fastjson/error.h"
#include "scan/minify.h"

/* The index buffer must have room for len + FJ_INDEX_SLACK entries: kernels
 * may write a few entries past the last real one. */
#define FJ_INDEX_SLACK 64u

/* What a kernel reports besides the index. */
typedef struct fj__stage1_result {
  uint32_t n; /* index entries written */
  /* Whether a byte after an escaping backslash is 'u'. Stage 1 checks the
   * escape character but not a \uXXXX escape's hex digits or surrogate
   * pairing, so when this is false every string is already known good and
   * full validation need not look inside strings again. (A \u outside
   * strings also sets it: the document is invalid then anyway.) */
  bool u_escapes;
  /* Whether the input holds a backslash at all: if not, every string is
   * its own contents and stage 2 need not search them for escapes. */
  bool backslashes;
  size_t err_offset; /* where the error is, when one is returned */
  /* In: NULL, or FJ_BLOCKS(len) zeroed bytes, in which stage 1 then sets
   * byte k to 1 when the 64 bytes from offset 64 * k hold a backslash or
   * begin with an escaped byte: stage 2 then searches only strings in
   * those blocks for escapes. A byte a block, not a bit: setting a bit
   * (load, or, store the word) chained each block of escapes to the one
   * before through memory, which cost twitterescaped's stage 1 about 7%. */
  uint8_t *bs_blocks;
  /* In: NULL, or FJ_BLOCKS(len) zeroed bytes, in which stage 1 sets byte k
   * to 1 when the 64 bytes from offset 64 * k hold the 'u' of a \u escape:
   * full validation then checks only the strings in those blocks. Set only
   * with bs_blocks (it is not looked at when bs_blocks is NULL); a parse
   * leaves it NULL, as it costs stage 1 a compare per block of escapes. */
  uint8_t *u_blocks;
} fj__stage1_result;

/* Bytes of fj__stage1_result.bs_blocks (or u_blocks) for an input of len
 * bytes: one per 64-byte block. */
#define FJ_BLOCKS(len) (((len) + 63u) / 64u)

/* Writes the index of `len` bytes at `buf` into `idx`, res->n entries.
 * Returns FJ_OK or FJ_ERR_UTF8 / FJ_ERR_UNCLOSED_STRING / FJ_ERR_CONTROL_CHAR /
 * FJ_ERR_BAD_ESCAPE with res->err_offset set. len must be <=
 * FJ_MAX_DOCUMENT_SIZE. */
typedef fj_error (*fj__stage1_fn)(const uint8_t *buf, size_t len, uint32_t *idx,
                                  fj__stage1_result *res);

/* Byte classes of one 64-byte block, one bit per byte (what a kernel's
 * classify primitive produces). */
typedef struct fj__masks {
  uint64_t backslash; /* '\\' */
  uint64_t quote;     /* '"' */
  uint64_t ws;        /* space, \t, \n, \r */
  uint64_t op;        /* { } [ ] : , */
  uint64_t ctrl;      /* bytes below 0x20 */
} fj__masks;

struct fj_number;

typedef struct fj__kernel {
  const char *name;
  fj__stage1_fn stage1;
  bool (*supported)(void); /* does this CPU (and OS) run it? */
  fj__minify_fn minify;    /* fj_minify_unvalidated()'s kernel (minify.h) */
  /* Stage 2's number conversion compiled for this kernel's CPU (number.c,
   * ondemand/number.h): what fj__parse_double, fj__parse_number and
   * fj__number_fast call on x86-64. The same source with other flags, not
   * other code: avx2 and avx512 share one variant, the others the one built
   * with the toolchain's defaults. */
  fj_error (*parse_double)(const uint8_t *p, const uint8_t *end, double *out, size_t *len);
  fj_error (*parse_number)(const uint8_t *p, const uint8_t *end, struct fj_number *out,
                           size_t *len);
  bool (*number_fast)(const uint8_t *p, const uint8_t *end, struct fj_number *out);
  /* Is the buffer well-formed UTF-8 (RFC 3629)? Stage 1's validation over
   * any n bytes (utf8_buffer_impl.h): what fj__utf8_valid() calls. */
  bool (*utf8_valid)(const uint8_t *src, size_t n);
} fj__kernel;

/* The kernels compiled into this build, best first; *count entries. */
const fj__kernel *const *fj__kernels(size_t *count);

/* The kernel in use: the best supported one, or FASTJSON_KERNEL's choice,
 * or the last fj_kernel_select()'s. Thread-safe. */
const fj__kernel *fj__kernel_active(void);

#if !defined(__cplusplus) /* C11 atomics; the benchmarks include this file from C++ */
#include <stdatomic.h>
/* fj__kernel_active() for hot paths that call a kernel function per value
 * (the number entry points): the choice already made is one load, inline;
 * only the first call of a process makes it (the pointer is NULL until
 * then; dispatch.c owns it). */
extern _Atomic(const fj__kernel *) fj__active_kernel;
static inline const fj__kernel *fj__kernel_now(void) {
  const fj__kernel *k = atomic_load_explicit(&fj__active_kernel, memory_order_acquire);
  return k ? k : fj__kernel_active();
}
#endif

/* The exact first stage-1 error of the input, scanning byte by byte.
 * FJ_OK if there is none. */
fj_error fj__stage1_locate(const uint8_t *buf, size_t len, size_t *err_offset);

/* Whether a byte after an escaping backslash is 'u', scanning byte by byte
 * (fj__stage1_result.u_escapes exactly, for inputs with a bad escape, where
 * a kernel's own answer may be a yes too many). */
bool fj__stage1_u_escape(const uint8_t *buf, size_t len);

/* The kernel entry points (defined in kernel_*.c; only those of the target
 * architecture are compiled in, see kernels.cmake). */
#define FJ__STAGE1_DECLARE(name)                                                                   \
  fj_error fj__stage1_##name(const uint8_t *buf, size_t len, uint32_t *idx, fj__stage1_result *res);
FJ__STAGE1_DECLARE(scalar)
FJ__STAGE1_DECLARE(sse42)
FJ__STAGE1_DECLARE(avx2)
FJ__STAGE1_DECLARE(avx512)
FJ__STAGE1_DECLARE(neon)
#undef FJ__STAGE1_DECLARE

#define FJ__UTF8_DECLARE(name) bool fj__utf8_valid_##name(const uint8_t *src, size_t n);
FJ__UTF8_DECLARE(scalar)
FJ__UTF8_DECLARE(sse42)
FJ__UTF8_DECLARE(avx2)
FJ__UTF8_DECLARE(avx512)
FJ__UTF8_DECLARE(neon)
#undef FJ__UTF8_DECLARE

#endif
