/* libfastjson — sinks: where written JSON goes.
 *
 * A sink is a callback with a context. Ready-made sinks write into a
 * growable buffer the caller can take the bytes from (fj_buffer), into a
 * fixed caller buffer that reports the size it would have needed
 * (fj_fixed_buffer), or to a stdio stream. The writer (fastjson/writer.h)
 * recognises the two buffer sinks and writes into their memory directly. */
#ifndef FASTJSON_SINK_H
#define FASTJSON_SINK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fastjson/error.h"
#include "fastjson/parser.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Where output goes: `write` is called with consecutive chunks of output
 *  (`len` bytes at `bytes`, valid only during the call) and returns FJ_OK, or
 *  an error that stops the output and is returned to the caller. */
typedef struct fj_sink {
  fj_error (*write)(void *ctx, const void *bytes, size_t len);
  void *ctx;
} fj_sink;

/** A growable byte buffer. Zero-initialise it (`fj_buffer b = {0};` in C,
 *  `fj_buffer b{};` in C++, where `{0}` draws -Wmissing-field-initializers): empty,
 *  with the C library's allocator. Output is appended after `len`; `data` is
 *  owned by the buffer until fj_buffer_take(). Not thread-safe. */
typedef struct fj_buffer {
  uint8_t *data;                 /**< the bytes, or NULL while empty */
  size_t len;                    /**< bytes of output in `data` */
  size_t cap;                    /**< bytes allocated at `data` */
  const fj_allocator *allocator; /**< NULL: malloc/realloc/free; must outlive the buffer */
} fj_buffer;

/** A sink appending to `buf` (which must outlive the sink's use). Its write
 *  returns FJ_OK, or FJ_ERR_NOMEM (the buffer is then unchanged), or
 *  FJ_ERR_INVALID_ARG when `buf` is NULL (writers and the text functions
 *  refuse that sink with FJ_ERR_INVALID_ARG before any output). A writer
 *  given this sink grows and fills `buf` directly, and at every
 *  fj_writer_flush() and every fj_writer_finish() that returns FJ_OK updates
 *  `len` and makes `data[len]` a NUL (not counted in `len`). A finish that
 *  fails (FJ_ERR_EMPTY, FJ_ERR_TRUNCATED: the document is not complete)
 *  changes neither: `len` stays as the last flush (or the writer's start)
 *  left it, and the bytes from `data[len]` on may hold the unfinished output, so
 *  `data` is not a C string then. Between those calls (or the writer's
 *  creation or fj_writer_reset() with this sink) and the writer's next event
 *  the buffer is the caller's: its bytes may be taken (fj_buffer_take()) or
 *  changed, and the writer's further output goes after its `len` then.
 *  Touching it at other times is undefined. */
FJ_API fj_sink fj_sink_buffer(fj_buffer *buf);

/** Gives the caller the buffer's bytes: *data receives `len` bytes followed
 *  by a NUL (NULL when nothing was ever written), *len their count; the
 *  buffer is left empty and can be reused. The memory is shrunk to exactly
 *  `len + 1` bytes: release it with free() when `allocator` was NULL, else
 *  with the allocator's free(ctx, data, len + 1).
 *  @return FJ_OK; FJ_ERR_INVALID_ARG if an argument is NULL; FJ_ERR_NOMEM
 *          (the buffer is then unchanged). */
FJ_API fj_error fj_buffer_take(fj_buffer *buf, void **data, size_t *len);

/** Frees the buffer's memory and leaves it empty (reusable). NULL is ignored. */
FJ_API void fj_buffer_free(fj_buffer *buf);

/** The caller's fixed memory. Set `data` and `cap`, and zero `len` and
 *  `needed`. Nothing is ever written past `data + cap`. `data` may be NULL
 *  with `cap` 0: the output is then only counted (`needed`). A buffer the
 *  sink would not leave so: `data` NULL with `cap` > 0, `len` > `cap`, or
 *  `needed` < `len`, is refused with FJ_ERR_INVALID_ARG, and left
 *  unchanged, by fj_writer_new(), fj_writer_reset(), fj_minify(),
 *  fj_minify_unvalidated(), fj_pretty() and the sink's own write. */
typedef struct fj_fixed_buffer {
  void *data;    /**< caller's memory; only the first `len` bytes are output */
  size_t cap;    /**< size of `data` in bytes */
  size_t len;    /**< bytes stored: always a prefix of the output, <= cap (as chunks go
                      whole or not at all, possibly much shorter than cap) */
  size_t needed; /**< bytes the whole output takes; > cap means it did not fit */
} fj_fixed_buffer;

/** A sink storing into `fb` (which must outlive the sink's use). Its write
 *  stores the chunk and returns FJ_OK if it fits; otherwise it stores
 *  nothing of it, adds its length to `needed` and returns
 *  FJ_ERR_BUFFER_TOO_SMALL (as do all later writes, which only count).
 *  It returns FJ_ERR_INVALID_ARG, storing and counting nothing, when `fb`
 *  is NULL or a buffer fj_fixed_buffer says is refused; so do the
 *  functions given the sink, as their first check.
 *  A writer given this sink writes into `data` directly and never stops at
 *  an overflow: it keeps counting, so that after fj_writer_finish() returns
 *  FJ_ERR_BUFFER_TOO_SMALL, `needed` is the exact size of the whole output
 *  (plan a buffer of that size and write again). fj_minify(),
 *  fj_minify_unvalidated() and fj_pretty() (fastjson/text.h) count on the
 *  same way. Each output goes after the `len` bytes already stored, so one
 *  buffer can take several in a row; but once one overflowed (`needed` >
 *  `len`), the writers and text functions given the buffer later store
 *  nothing either and only add their output's length to `needed` (and
 *  report FJ_ERR_BUFFER_TOO_SMALL): zero `len` and `needed` to start over. */
FJ_API fj_sink fj_sink_fixed(fj_fixed_buffer *fb);

/** A sink writing to `stream` with fwrite() (no flush: call fflush() or
 *  fclose() yourself). Its write returns FJ_OK, or FJ_ERR_IO if fwrite()
 *  writes less than asked, or FJ_ERR_INVALID_ARG when `stream` is NULL
 *  (writers and the text functions refuse that sink before any output). `stream` must stay open
 * during the sink's use. */
FJ_API fj_sink fj_sink_file(FILE *stream);

#ifdef __cplusplus
}
#endif
#endif
