/* The ready-made sinks: growable buffer, fixed buffer, stdio stream. */
#include <string.h>

#include "util/alloc.h"
#include "write/sink_internal.h"

static const fj_allocator *buffer_allocator(const fj_buffer *buf) {
  return buf->allocator ? buf->allocator : &fj__default_allocator;
}

fj_error fj__buffer_reserve(fj_buffer *buf, size_t min_cap) {
  if (min_cap <= buf->cap) return FJ_OK;
  /* doubling keeps appends amortised O(1); the floor avoids tiny steps */
  size_t cap = buf->cap < 1024 ? 1024 : buf->cap;
  while (cap < min_cap) {
    if (cap > SIZE_MAX / 2) {
      cap = min_cap;
      break;
    }
    cap *= 2;
  }
  void *p = buf->data ? fj__realloc(buffer_allocator(buf), buf->data, buf->cap, cap)
                      : fj__malloc(buffer_allocator(buf), cap);
  if (!p) return FJ_ERR_NOMEM;
  buf->data = p;
  buf->cap = cap;
  return FJ_OK;
}

fj_error fj__buffer_sink_write(void *ctx, const void *bytes, size_t len) {
  fj_buffer *buf = ctx;
  if (!buf) return FJ_ERR_INVALID_ARG; /* our users check first; direct callers may not */
  if (len > SIZE_MAX - buf->len - 1) return FJ_ERR_NOMEM;
  fj_error err = fj__buffer_reserve(buf, buf->len + len + 1); /* + 1: room for a NUL */
  if (err) return err;
  memcpy(buf->data + buf->len, bytes, len);
  buf->len += len;
  buf->data[buf->len] = 0;
  return FJ_OK;
}

fj_sink fj_sink_buffer(fj_buffer *buf) { return (fj_sink){fj__buffer_sink_write, buf}; }

fj_error fj_buffer_take(fj_buffer *buf, void **data, size_t *len) {
  if (!buf || !data || !len) return FJ_ERR_INVALID_ARG;
  void *p = buf->data;
  if (p && buf->cap != buf->len + 1) { /* exactly len + 1, so the caller knows the size */
    p = fj__realloc(buffer_allocator(buf), buf->data, buf->cap, buf->len + 1);
    if (!p) return FJ_ERR_NOMEM;
    ((uint8_t *)p)[buf->len] = 0;
  }
  *data = p;
  *len = buf->len;
  buf->data = NULL;
  buf->len = buf->cap = 0;
  return FJ_OK;
}

void fj_buffer_free(fj_buffer *buf) {
  if (!buf) return;
  fj__free(buffer_allocator(buf), buf->data, buf->cap);
  buf->data = NULL;
  buf->len = buf->cap = 0;
}

/* Stores the chunk if it fits after everything before it did; counts it
 * in `needed` in any case. Returns whether it was stored. */
static bool fixed_store(fj_fixed_buffer *fb, const void *bytes, size_t len) {
  bool fits = fb->needed == fb->len && fb->cap - fb->len >= len;
  if (fits) {
    if (len) memcpy((uint8_t *)fb->data + fb->len, bytes, len);
    fb->len += len;
  }
  fb->needed += len;
  return fits;
}

/* Whether fixed_store() can keep fb's output within data[0, cap): memory
 * for cap bytes (else it would store into NULL), len inside it (else
 * cap - len wraps around), and needed not behind len (the sink never
 * leaves it so; counting on from there could reach needed == len with
 * nothing stored, which would pass for success). */
static bool fixed_usable(const fj_fixed_buffer *fb) {
  return fb && (fb->data || !fb->cap) && fb->len <= fb->cap && fb->needed >= fb->len;
}

static fj_error file_write(void *ctx, const void *bytes, size_t len);

/* Whether sink can take output: a write function, and for the ready-made
 * sinks a buffer or stream to write to (NULL would be written through). */
bool fj__sink_usable(fj_sink sink) {
  if (!sink.write) return false;
  if (sink.write == fj__buffer_sink_write || sink.write == file_write) return sink.ctx != NULL;
  return sink.write != fj__fixed_sink_write || fixed_usable(sink.ctx);
}

fj_error fj__fixed_sink_write(void *ctx, const void *bytes, size_t len) {
  if (!fixed_usable(ctx))
    return FJ_ERR_INVALID_ARG; /* our users check first; direct callers may not */
  return fixed_store(ctx, bytes, len) ? FJ_OK : FJ_ERR_BUFFER_TOO_SMALL;
}

fj_error fj__fixed_sink_count(void *ctx, const void *bytes, size_t len) {
  fixed_store(ctx, bytes, len);
  return FJ_OK;
}

fj_sink fj_sink_fixed(fj_fixed_buffer *fb) { return (fj_sink){fj__fixed_sink_write, fb}; }

fj_sink fj__counting_sink(fj_sink sink) {
  if (sink.write == fj__fixed_sink_write) sink.write = fj__fixed_sink_count;
  return sink;
}

fj_error fj__counted_result(fj_sink sink, fj_error err) {
  const fj_fixed_buffer *fb = sink.ctx;
  /* a chunk that did not fit was counted, not stored: needed ran ahead */
  if (sink.write == fj__fixed_sink_write && fb->needed != fb->len) return FJ_ERR_BUFFER_TOO_SMALL;
  return err;
}

static fj_error file_write(void *ctx, const void *bytes, size_t len) {
  if (!ctx) return FJ_ERR_INVALID_ARG;
  return fwrite(bytes, 1, len, (FILE *)ctx) == len ? FJ_OK : FJ_ERR_IO;
}

fj_sink fj_sink_file(FILE *stream) { return (fj_sink){file_write, stream}; }
