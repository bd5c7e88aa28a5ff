/* Unvalidated minify: the public side of the kernels in src/scan/minify_impl.h.
 * The kernel writes into memory with room for its whole input; here that
 * memory is the caller's buffer, an fj_buffer's free room, or a window on
 * the stack that is handed to any other sink piece by piece. */
#include <string.h>

#include "fastjson/text.h"
#include "scan/stage1.h"
#include "write/sink_internal.h"

/* Input per piece for a sink that is not a buffer: the window holds one
 * piece's output, and a multiple of 64 keeps the kernel's blocks whole. */
#define FJ_MINIFY_PIECE 16384u

static fj_error end_state(const fj__minify_carry *c) {
  return c->in_string ? FJ_ERR_UNCLOSED_STRING : FJ_OK;
}

fj_error fj_minify_unvalidated_into(const void *json, size_t len, void *dst, size_t *out_len) {
  if (!out_len || (len && (!json || !dst))) return FJ_ERR_INVALID_ARG;
  fj__minify_carry c = {0, 0};
  *out_len = len ? fj__kernel_active()->minify(json, len, dst, &c) : 0;
  return end_state(&c);
}

/* Straight into the buffer's memory: room for the whole input and the NUL
 * that a buffer sink keeps after its bytes. */
static fj_error into_buffer(const uint8_t *in, size_t len, fj_buffer *b) {
  if (len > SIZE_MAX - b->len - 1) return FJ_ERR_NOMEM;
  fj_error err = fj__buffer_reserve(b, b->len + len + 1);
  if (err) return err;
  fj__minify_carry c = {0, 0};
  b->len += fj__kernel_active()->minify(in, len, b->data + b->len, &c);
  b->data[b->len] = 0;
  return end_state(&c);
}

/* Any other sink: piece by piece through a stack window. */
static fj_error through_window(const uint8_t *in, size_t len, fj_sink sink) {
  uint8_t window[FJ_MINIFY_PIECE];
  fj__minify_fn minify = fj__kernel_active()->minify;
  fj__minify_carry c = {0, 0};
  for (size_t at = 0; at < len; at += FJ_MINIFY_PIECE) {
    size_t n = len - at < FJ_MINIFY_PIECE ? len - at : FJ_MINIFY_PIECE;
    size_t k = minify(in + at, n, window, &c);
    fj_error err = k ? sink.write(sink.ctx, window, k) : FJ_OK;
    if (err) return err;
  }
  return end_state(&c);
}

fj_error fj_minify_unvalidated(const void *json, size_t len, fj_sink sink) {
  if (!fj__sink_usable(sink) || (len && !json)) return FJ_ERR_INVALID_ARG;
  if (sink.write == fj__buffer_sink_write) return into_buffer(json, len, sink.ctx);
  return fj__counted_result(sink, through_window(json, len, fj__counting_sink(sink)));
}
