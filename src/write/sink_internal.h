/* The ready-made sinks, as the writer sees them (private): the writer
 * recognises the buffer sinks by their write function and fills their
 * memory directly instead of calling it. */
#ifndef FJ_WRITE_SINK_INTERNAL_H
#define FJ_WRITE_SINK_INTERNAL_H

#include <stdbool.h>

#include "fastjson/sink.h"

/* The write functions behind fj_sink_buffer() and fj_sink_fixed(). */
fj_error fj__buffer_sink_write(void *ctx, const void *bytes, size_t len);
fj_error fj__fixed_sink_write(void *ctx, const void *bytes, size_t len);

/* Like fj__fixed_sink_write(), but an overflow is not an error: the bytes
 * are only counted in `needed` (the writer reports the overflow at the end,
 * with the exact size). */
fj_error fj__fixed_sink_count(void *ctx, const void *bytes, size_t len);

/* Whether `sink` can be written to: a write function, and for a fixed
 * sink a buffer its write can store into within cap (see fj_fixed_buffer).
 * Checked where a sink is first used, so that the writer's direct stores
 * and the count-only sink need not check. */
bool fj__sink_usable(fj_sink sink);

/* For the text functions (minify, pretty), which write through a sink in
 * pieces: a fixed sink goes on counting past an overflow, so that its
 * `needed` ends as the whole output's size, as after a writer. The sink to
 * write to instead of `sink`... */
fj_sink fj__counting_sink(fj_sink sink);

/* ...and, once done, the result: FJ_ERR_BUFFER_TOO_SMALL when `sink` is a
 * fixed sink that did not take the whole output (before any other error:
 * the caller sizes the buffer and writes again), else `err`. */
fj_error fj__counted_result(fj_sink sink, fj_error err);

/* Grows `buf` to at least `min_cap` bytes (geometrically). FJ_OK or
 * FJ_ERR_NOMEM (the buffer is then unchanged). */
fj_error fj__buffer_reserve(fj_buffer *buf, size_t min_cap);

#endif
