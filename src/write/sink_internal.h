/* The ready-made sinks, as the writer sees them (private): the writer
 * recognises the buffer sinks by their write function and fills their
 * memory directly instead of calling it. */
#ifndef FJ_WRITE_SINK_INTERNAL_H
#define FJ_WRITE_SINK_INTERNAL_H

#include "fastjson/sink.h"

/* The write functions behind fj_sink_buffer() and fj_sink_fixed(). */
fj_error fj__buffer_sink_write(void *ctx, const void *bytes, size_t len);
fj_error fj__fixed_sink_write(void *ctx, const void *bytes, size_t len);

/* Like fj__fixed_sink_write(), but an overflow is not an error: the bytes
 * are only counted in `needed` (the writer reports the overflow at the end,
 * with the exact size). */
fj_error fj__fixed_sink_count(void *ctx, const void *bytes, size_t len);

/* Grows `buf` to at least `min_cap` bytes (geometrically). FJ_OK or
 * FJ_ERR_NOMEM (the buffer is then unchanged). */
fj_error fj__buffer_reserve(fj_buffer *buf, size_t min_cap);

#endif
