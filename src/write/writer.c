/* The streaming writer: a state machine for commas, colons and nesting in
 * front of one output window.
 *
 * Every event first asks for room for the most it can write (a double: 32
 * bytes; a string of n bytes: 6n + slack), then writes with plain stores and
 * no further bounds checks. The window is the caller's fj_buffer (grown in
 * place), the caller's fixed buffer, or the writer's own 64 KiB buffer in
 * front of any other sink (flushed when full). In compact mode, the hot path
 * of a value is: a state compare, a room compare, a store of ',' that only
 * counts when due, the value's bytes, a table lookup for the next state. */
#include "fastjson/writer.h"

#include <string.h>

#include "scan/stage1.h"
#include "util/alloc.h"
#include "write/dtoa.h"
#include "write/escape.h"
#include "write/itoa.h"
#include "write/sink_internal.h"
#include "write/writer_internal.h"

#include "util/compiler.h"

/* x86-64 builds carry an AVX-512 copy of the short-string and key paths,
 * compiled for that target only and taken when the avx512 kernel is in use
 * (the rest keeps the toolchain's default flags). */
#if defined(FJ_ESCAPE_SSE2_WRITER) && defined(__x86_64__) &&                                       \
    (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define FJ_WRITE_AVX512 1
#define FJ_AVX512_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,bmi,bmi2")))
#endif

enum { MODE_SINK, MODE_BUFFER, MODE_FIXED };

#define FJ_WBUF_SIZE 65536u
/* Strings longer than this are escaped in chunks of this many input bytes,
 * so one reservation never exceeds about 6 * 4 KiB. */
#define FJ_STR_CHUNK 4096u
#define FJ_RAW_CHUNK 32768u
#define FJ_MAX_DEPTH_LIMIT (1u << 20)

/* ---- the window ------------------------------------------------------------ */

/* After a sink error nothing more is taken: an empty window sends every
 * event to make_room(), which returns the error. */
static fj_error fail(fj_writer *w, fj_error err) {
  w->err = err;
  w->h.end = w->h.pos;
  return err;
}

static fj_error flush_window(fj_writer *w) {
  size_t n = (size_t)(w->h.pos - w->base);
  if (n) {
    fj_error err = w->sink.write(w->sink.ctx, w->base, n);
    if (err) return fail(w, err);
    w->flushed += n;
    w->h.pos = w->base;
  }
  return FJ_OK;
}

/* The fixed buffer cannot guarantee the room asked for (which may be more
 * than the event writes): go on through the own buffer, whose flushes store
 * into the fixed buffer while output fits and only count beyond. */
static void leave_fixed(fj_writer *w) {
  fj_fixed_buffer *fb = w->fbuf;
  size_t used = (size_t)(w->h.pos - (uint8_t *)fb->data);
  w->flushed += (size_t)(w->h.pos - w->base);
  fb->len = fb->needed = used;
  w->mode = MODE_SINK;
  w->sink = (fj_sink){fj__fixed_sink_count, fb};
  w->base = w->h.pos = w->ibuf;
  w->h.end = w->ibuf + w->icap;
}

/* MODE_BUFFER: an empty window outside the buffer's memory, so that the
 * next event's make_room() maps it at the buffer's len. */
static void unmap_window(fj_writer *w) {
  w->base = w->h.pos = w->h.end = w->ibuf;
  w->unmapped = true;
}

/* Slow path of reserve(): room for n bytes at pos, or the error. */
static fj_error make_room(fj_writer *w, size_t n) {
  if (w->err) return w->err;
  if (w->mode == MODE_BUFFER) {
    fj_buffer *b = w->gbuf;
    size_t used = b->len, base_off = b->len; /* an unmapped window starts at len */
    if (!w->unmapped) {
      used = (size_t)(w->h.pos - b->data);
      base_off = (size_t)(w->base - b->data);
    }
    if (n > SIZE_MAX - used - 1) return fail(w, FJ_ERR_NOMEM);
    fj_error err = fj__buffer_reserve(b, used + n + 1); /* + 1: the final NUL */
    if (err) return fail(w, err);
    w->base = b->data + base_off;
    w->h.pos = b->data + used;
    w->h.end = b->data + b->cap - 1;
    w->unmapped = false;
    return FJ_OK;
  }
  if (w->mode == MODE_FIXED) leave_fixed(w);
  fj_error err = flush_window(w);
  if (err) return err;
  if (n > w->icap) { /* only for very deep pretty indentation */
    uint8_t *p = fj__realloc(&w->alloc, w->ibuf, w->icap, n);
    if (!p) return fail(w, FJ_ERR_NOMEM);
    w->ibuf = w->base = w->h.pos = p;
    w->icap = n;
  }
  w->h.end = w->ibuf + w->icap;
  return FJ_OK;
}

static inline fj_error reserve(fj_writer *w, size_t n) {
  if (FJ_LIKELY((size_t)(w->h.end - w->h.pos) >= n)) return FJ_OK;
  return make_room(w, n);
}

/* ---- separators ------------------------------------------------------------ */

/* The state after a container opened in state st closes: after a value of
 * the enclosing level, or ST_DONE for the root. */
static inline uint8_t state_after_container(unsigned st) {
  return st == ST_ROOT ? (uint8_t)ST_DONE : (uint8_t)ST_AFTER_VALUE(st);
}

static inline void put_newline_indent(fj_writer *w, uint32_t level) {
  size_t n = (size_t)level * w->indent;
  *w->h.pos++ = '\n';
  memset(w->h.pos, w->indent_char, n);
  w->h.pos += n;
}

/* Why a value cannot come now, or FJ_OK. */
static fj_error value_state_error(unsigned st) {
  if (st == ST_OBJ_KEY_FIRST || st == ST_OBJ_KEY_NEXT) return FJ_ERR_EXPECTED_KEY;
  if (st == ST_DONE) return FJ_ERR_TRAILING_CONTENT;
  return FJ_OK;
}

/* Why a key cannot come now, or FJ_OK. */
static fj_error key_state_error(unsigned st) {
  if (st == ST_OBJ_KEY_FIRST || st == ST_OBJ_KEY_NEXT) return FJ_OK;
  if (st == ST_DONE) return FJ_ERR_TRAILING_CONTENT;
  return FJ_ERR_EXPECTED_VALUE;
}

/* Pretty or refused: the value separator the long way. */
static fj_error prefix_value_slow(fj_writer *w, size_t need) {
  unsigned st = w->h.state;
  fj_error err = value_state_error(st);
  if (err) return err;
  bool in_array = st == ST_ARR_FIRST || st == ST_ARR_NEXT;
  size_t sep = in_array ? 2 + (size_t)w->h.depth * w->indent : 0;
  err = reserve(w, sep + need);
  if (err) return err;
  w->mark = w->h.pos;
  if (st == ST_ARR_NEXT) *w->h.pos++ = ',';
  if (in_array) put_newline_indent(w, w->h.depth);
  return FJ_OK;
}

/* Checks that a value may come, reserves room for `need` more bytes and
 * writes the separator in front of it. The state is left for the caller
 * to advance once the value is written. */
static inline fj_error prefix_value(fj_writer *w, size_t need) {
  unsigned st = w->h.state;
  if (FJ_UNLIKELY(st >= w->h.fast_end)) return prefix_value_slow(w, need);
  fj_error err = reserve(w, need + 1);
  if (FJ_UNLIKELY(err)) return err;
  w->mark = w->h.pos;
  *w->h.pos = ',';
  w->h.pos += ST_COMMA(st);
  return FJ_OK;
}

static inline void commit_value(fj_writer *w) { w->h.state = (uint8_t)ST_AFTER_VALUE(w->h.state); }

/* As prefix_value(), for a key. */
static inline fj_error prefix_key(fj_writer *w, size_t need) {
  unsigned st = w->h.state;
  fj_error err = key_state_error(st);
  if (FJ_UNLIKELY(err)) return err;
  size_t sep = w->pretty ? 2 + (size_t)w->h.depth * w->indent : 1;
  err = reserve(w, sep + need);
  if (FJ_UNLIKELY(err)) return err;
  w->mark = w->h.pos;
  *w->h.pos = ',';
  w->h.pos += st == ST_OBJ_KEY_NEXT;
  if (w->pretty) put_newline_indent(w, w->h.depth);
  return FJ_OK;
}

/* ":" or ": " after a key (room was reserved with the key). */
static inline void put_colon(fj_writer *w) {
  memcpy(w->h.pos, ": ", 2);
  w->h.pos += 1 + w->pretty;
  w->h.state = ST_OBJ_VALUE;
}

/* ---- the inline paths ------------------------------------------------------
 *
 * Every event first tries a compact-mode path that needs no function call:
 * one state compare, one room compare, the bytes. Anything else (pretty
 * output, misuse, a full window, a string that needs escaping or checking)
 * falls to the general code below, which starts over from the unchanged
 * state. */

#ifdef FJ_ESCAPE_SSE2_WRITER
/* The short-string scan's constants, 16 copies each: '"', '\\', then a bias
 * and a limit such that (byte ^ bias) < limit (signed) for control
 * characters, and also for bytes >= 0x80 in short_k_high. */
#define FJ_K16(x) x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x
static const uint8_t short_k_high[64] = {FJ_K16('"'), FJ_K16('\\'), FJ_K16(0x00), FJ_K16(0x20)};
static const uint8_t short_k_low[64] = {FJ_K16('"'), FJ_K16('\\'), FJ_K16(0x80), FJ_K16(0xA0)};
#undef FJ_K16

#endif

#ifdef FJ_WRITE_AVX512
/* 32 copies of each: 0x02, 0x20, '\\'. A byte XOR 0x02 is at most 0x20
 * (signed) exactly when it is a control character, '"' (0x22) or >= 0x80
 * (negative): the AVX-512 paths run only when those stop. */
#define FJ_K32(x)                                                                                  \
  x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x
static const uint8_t vshort_k[3][32]
    __attribute__((aligned(32))) = {{FJ_K32(0x02)}, {FJ_K32(0x20)}, {FJ_K32('\\')}};
#undef FJ_K32

/* fj__copy_short() with one masked load and one masked store: copies the n <=
 * 32 bytes at s to d when none needs escaping or UTF-8 checking and returns
 * true; returns false otherwise, storing nothing. Touches only s[0, n) and
 * d[0, n) (the other lanes are masked off: no fault, no store), and no
 * branch depends on n. A full 32-byte store measured slower on Zen 5 than
 * the masked one (twitter 3 %, citm 5 %, interleaved runs). */
FJ_AVX512_TARGET static inline bool copy_short_avx512(uint8_t *d, const uint8_t *s, size_t n) {
  const __m256i *k = (const __m256i *)(const void *)vshort_k;
  /* hide the constants' values: gcc would rebuild each with a broadcast
   * from a register (two instructions) instead of a memory operand */
  __asm__("" : "+r"(k));
  __mmask32 live = (__mmask32)_bzhi_u32(~0u, (unsigned)n);
  __m256i v = _mm256_maskz_loadu_epi8(live, s);
  __mmask32 low = _mm256_mask_cmple_epi8_mask(live, _mm256_xor_si256(v, _mm256_load_si256(k)),
                                              _mm256_load_si256(k + 1));
  __mmask32 bs = _mm256_cmpeq_epi8_mask(v, _mm256_load_si256(k + 2));
  if (FJ_UNLIKELY(!_kortestz_mask32_u8(low, bs))) return false;
  _mm256_mask_storeu_epi8(d, live, v);
  return true;
}
#endif

/* ---- creation -------------------------------------------------------------- */

/* A fixed buffer: its memory becomes the window (MODE_FIXED, true), or,
 * without memory or after an overflow, the output is only counted through
 * the own buffer (false: the caller goes on as for any sink). Direct stores
 * only while everything before was stored: after an overflow (needed !=
 * len) the sink keeps nothing more, and writing at len would store this
 * document after a cut-off one. */
static bool start_fixed(fj_writer *w, fj_fixed_buffer *fb) {
  w->fbuf = fb;
  if (fb->data && fb->needed == fb->len) {
    w->mode = MODE_FIXED;
    w->base = w->h.pos = (uint8_t *)fb->data + fb->len;
    w->h.end = (uint8_t *)fb->data + fb->cap; /* len <= cap: fj__sink_usable() */
    return true;
  }
  w->sink = (fj_sink){fj__fixed_sink_count, fb};
  return false;
}

static void start(fj_writer *w, fj_sink sink) {
  w->h.state = ST_ROOT;
#ifdef FJ_WRITE_AVX512
  /* the AVX-512 short paths follow the stage-1 kernel (FASTJSON_KERNEL,
   * fj_kernel_select()); they test for the default characters only. They
   * serve the exported functions; the header's inline paths stay on, as
   * with the other kernels: a call to the AVX-512 path cost more than the
   * inline check it replaced (Zen 5, write/fastjson, min of 7 interleaved
   * runs: citm_catalog.json 305 -> 278 us, instruments.json 57 -> 49,
   * twitter.json 149 -> 138) */
  w->vshort = w->h.short_in && (w->esc & (FJ__ESC_VALIDATE | FJ__ESC_UNICODE)) &&
              strcmp(fj__kernel_now()->name, "avx512") == 0;
  w->vescape = w->vshort && w->esc == FJ__ESC_VALIDATE;
#endif
  w->finished = false;
  w->err = FJ_OK;
  w->h.depth = 0;
  w->flushed = 0;
  w->sink = sink;
  w->gbuf = NULL;
  w->fbuf = NULL;
  if (sink.write == fj__buffer_sink_write) {
    w->mode = MODE_BUFFER;
    w->gbuf = sink.ctx;
    /* an empty window: the first event maps it at the buffer's len then
     * (growing it if need be), so the buffer stays the caller's until that
     * event, as after fj_writer_finish() (taken, emptied, appended to) */
    unmap_window(w);
    return;
  }
  if (sink.write == fj__fixed_sink_write && start_fixed(w, sink.ctx)) return;
  w->mode = MODE_SINK;
  w->base = w->h.pos = w->ibuf;
  w->h.end = w->ibuf + w->icap;
}

fj_error fj_writer_new(fj_writer **out, const fj_writer_options *opts, fj_sink sink) {
  if (!out) return FJ_ERR_INVALID_ARG;
  *out = NULL;
  fj_writer_options o = opts ? *opts : (fj_writer_options){0, 0, 0, NULL};
  fj_allocator a = o.allocator ? *o.allocator : fj__default_allocator;
  if (!fj__sink_usable(sink) || !a.malloc || !a.realloc || !a.free || o.indent > 16 ||
      o.max_depth > FJ_MAX_DEPTH_LIMIT || (o.flags & ~(FJ_WRITE_NONFINITE_AS_NULL * 2u - 1u)))
    return FJ_ERR_INVALID_ARG; /* the last: a flag this version does not know */
  fj_writer *w = fj__malloc(&a, sizeof *w);
  if (!w) return FJ_ERR_NOMEM;
  memset(w, 0, sizeof *w);
  w->alloc = a;
  w->flags = o.flags;
  w->h.max_depth = o.max_depth ? o.max_depth : FJ_DEFAULT_MAX_DEPTH;
  w->pretty = (o.flags & FJ_WRITE_PRETTY) != 0;
  w->h.fast_end = w->pretty ? 0 : ST_VALUE_FAST_END;
  w->h.pair_fast = w->pretty ? 0 : 2;
  w->indent_char = (o.flags & FJ_WRITE_TABS) ? '\t' : ' ';
  w->indent = o.indent ? o.indent : (o.flags & FJ_WRITE_TABS) ? 1 : 2;
  if (!(o.flags & FJ_WRITE_NO_VALIDATE_UTF8)) w->esc |= FJ__ESC_VALIDATE;
  if (o.flags & FJ_WRITE_ESCAPE_UNICODE) w->esc |= FJ__ESC_UNICODE | FJ__ESC_VALIDATE;
  if (o.flags & FJ_WRITE_REPLACE_INVALID_UTF8) w->esc |= FJ__ESC_REPLACE;
  if (o.flags & FJ_WRITE_ESCAPE_SLASH) w->esc |= FJ__ESC_SLASH;
  w->h.short_in = !(w->esc & FJ__ESC_SLASH);
  bool stop_high = (w->esc & (FJ__ESC_VALIDATE | FJ__ESC_UNICODE)) != 0;
#ifdef FJ_ESCAPE_SSE2_WRITER
  w->h.short_k = stop_high ? short_k_high : short_k_low;
#else
  w->h.short_k = stop_high ? (const uint8_t *)w : NULL; /* only tested for NULL */
#endif
  w->h.after = fj__malloc(&a, w->h.max_depth);
  w->icap = FJ_WBUF_SIZE;
  w->ibuf = fj__malloc(&a, w->icap);
  if (!w->h.after || !w->ibuf) {
    fj__free(&a, w->h.after, w->h.max_depth);
    fj__free(&a, w->ibuf, w->icap);
    fj__free(&a, w, sizeof *w);
    return FJ_ERR_NOMEM;
  }
  start(w, sink);
  *out = w;
  return FJ_OK;
}

fj_error fj_writer_reset(fj_writer *w, fj_sink sink) {
  if (!w || !fj__sink_usable(sink)) return FJ_ERR_INVALID_ARG;
  start(w, sink);
  return FJ_OK;
}

void fj_writer_free(fj_writer *w) {
  if (!w) return;
  fj_allocator a = w->alloc;
  fj__free(&a, w->h.after, w->h.max_depth);
  fj__free(&a, w->ibuf, w->icap);
  fj__free(&a, w, sizeof *w);
}

/* ---- containers ------------------------------------------------------------ */

FJ_SLOW static fj_error begin_container(fj_writer *w, uint8_t c, bool object) {
  if (!w) return FJ_ERR_INVALID_ARG;
  if (FJ_UNLIKELY(w->h.depth >= w->h.max_depth)) {
    fj_error err = value_state_error(w->h.state);
    if (!err) err = w->err ? w->err : FJ_ERR_DEPTH; /* a sink error sticks first */
    return err;
  }
  fj_error err = prefix_value(w, 1);
  if (FJ_UNLIKELY(err)) return err;
  *w->h.pos++ = c;
  w->h.after[w->h.depth++] = state_after_container(w->h.state);
  w->h.state = object ? ST_OBJ_KEY_FIRST : ST_ARR_FIRST;
  return FJ_OK;
}

/* Why this end cannot come now (`object`: which end), or FJ_OK. */
static fj_error end_state_error(unsigned st, bool object) {
  switch (st) {
  case ST_ARR_FIRST:
  case ST_ARR_NEXT: return object ? FJ_ERR_WRONG_TYPE : FJ_OK;
  case ST_OBJ_KEY_FIRST:
  case ST_OBJ_KEY_NEXT: return object ? FJ_OK : FJ_ERR_WRONG_TYPE;
  case ST_DONE: return FJ_ERR_TRAILING_CONTENT;
  default: /* ST_ROOT: nothing is open; ST_OBJ_VALUE: a key waits for its value */
    return FJ_ERR_EXPECTED_VALUE;
  }
}

FJ_SLOW static fj_error end_container(fj_writer *w, uint8_t c, bool object) {
  if (!w) return FJ_ERR_INVALID_ARG;
  unsigned st = w->h.state;
  fj_error err = end_state_error(st, object);
  if (FJ_UNLIKELY(err)) return err;
  bool empty = st == ST_ARR_FIRST || st == ST_OBJ_KEY_FIRST;
  size_t sep = w->pretty && !empty ? 1 + (size_t)(w->h.depth - 1) * w->indent : 0;
  err = reserve(w, sep + 1);
  if (FJ_UNLIKELY(err)) return err;
  if (sep) put_newline_indent(w, w->h.depth - 1);
  *w->h.pos++ = c;
  w->h.state = w->h.after[--w->h.depth];
  return FJ_OK;
}

/* Writes the opening bracket c at p (any comma before it is written) and
 * enters its level d + 1, opened in state st (one allowing a value, not
 * the root). */
static inline void push_level(fj_writer *w, uint8_t *p, uint32_t d, unsigned st, uint8_t c,
                              bool object) {
  *p++ = c;
  w->h.pos = p;
  w->h.depth = d + 1;
  w->h.after[d] = (uint8_t)ST_AFTER_VALUE(st);
  w->h.state = object ? ST_OBJ_KEY_FIRST : ST_ARR_FIRST;
}

static inline fj_error begin_fast(fj_writer *w, uint8_t c, bool object) {
  if (FJ_LIKELY(w != NULL)) {
    unsigned st = w->h.state;
    uint8_t *p = w->h.pos;
    uint32_t d = w->h.depth;
    if (FJ_LIKELY(st < w->h.fast_end && d < w->h.max_depth && w->h.end - p >= 2)) {
      *p = ',';
      p += ST_COMMA(st);
      push_level(w, p, d, st, c, object);
      return FJ_OK;
    }
  }
  return begin_container(w, c, object);
}

/* `first`: the first of the two states this end may come in. */
static inline fj_error end_fast(fj_writer *w, uint8_t c, bool object, unsigned first) {
  if (FJ_LIKELY(w != NULL)) {
    unsigned st = w->h.state;
    uint8_t *p = w->h.pos;
    if (FJ_LIKELY(st - first < w->h.pair_fast && p < w->h.end)) {
      *p++ = c;
      w->h.pos = p;
      w->h.state = w->h.after[--w->h.depth];
      return FJ_OK;
    }
  }
  return end_container(w, c, object);
}

fj_error(fj_writer_begin_object)(fj_writer *w) { return begin_fast(w, '{', true); }
fj_error(fj_writer_end_object)(fj_writer *w) { return end_fast(w, '}', true, ST_OBJ_KEY_NEXT); }
fj_error(fj_writer_begin_array)(fj_writer *w) { return begin_fast(w, '[', false); }
fj_error(fj_writer_end_array)(fj_writer *w) { return end_fast(w, ']', false, ST_ARR_FIRST); }

/* ---- strings and keys ------------------------------------------------------ */

/* The quoted, escaped string at pos (room reserved). On invalid UTF-8, the
 * event's output is taken back. */
static inline fj_error put_string(fj_writer *w, const char *s, size_t n) {
  uint8_t *p = w->h.pos;
  size_t k;
  *p++ = '"';
#ifdef FJ_WRITE_AVX512
  fj_error err = w->vescape ? fj__escape_avx512(p, (const uint8_t *)s, n, &k)
                            : fj__escape(p, (const uint8_t *)s, n, w->esc, &k);
#else
  fj_error err = fj__escape(p, (const uint8_t *)s, n, w->esc, &k);
#endif
  if (FJ_UNLIKELY(err)) {
    w->h.pos = w->mark;
    return err;
  }
  p += k;
  *p++ = '"';
  w->h.pos = p;
  return FJ_OK;
}

/* A string or key longer than FJ_STR_CHUNK: checked whole first (it cannot
 * be taken back once flushed), then escaped chunk by chunk. */
static fj_error put_long_string(fj_writer *w, const char *s, size_t n, bool key) {
  fj_error err = key ? key_state_error(w->h.state) : value_state_error(w->h.state);
  if (err) return err;
  if (w->err) return w->err; /* a sink error sticks, before the string's own */
  const uint8_t *src = (const uint8_t *)s;
  if ((w->esc & FJ__ESC_VALIDATE) && !(w->esc & FJ__ESC_REPLACE) && !fj__utf8_valid(src, n))
    return FJ_ERR_UTF8;
  err = key ? prefix_key(w, 1) : prefix_value(w, 1);
  if (err) return err;
  *w->h.pos++ = '"';
  while (n) {
    size_t m = n;
    if (m > FJ_STR_CHUNK) {
      m = fj__utf8_cut(src, FJ_STR_CHUNK);
      if (!m) m = FJ_STR_CHUNK;
    }
    err = reserve(w, m * FJ_ESCAPE_RATIO + FJ_ESCAPE_SLACK + 3);
    if (err) return err;
    size_t k;
    err = fj__escape(w->h.pos, src, m, w->esc, &k);
    if (err) return fail(w, err); /* cannot happen: validated above */
    w->h.pos += k;
    src += m;
    n -= m;
  }
  *w->h.pos++ = '"';
  if (key)
    put_colon(w);
  else
    commit_value(w);
  return FJ_OK;
}

/* Not FJ_SLOW (cold): strings longer than FJ_SHORT_MAX or not ASCII are
 * common (two in five of twitter.json's), and gcc compiled the cold path
 * for size, with put_string() and prefix_key() called, not inlined. */
FJ_NOINLINE fj_error fj__writer_stringn_general(fj_writer *w, const char *s, size_t len) {
  if (!w || (!s && len)) return FJ_ERR_INVALID_ARG;
  if (FJ_UNLIKELY(len > FJ_STR_CHUNK)) return put_long_string(w, s, len, false);
  fj_error err = prefix_value(w, len * FJ_ESCAPE_RATIO + FJ_ESCAPE_SLACK + 2);
  if (FJ_UNLIKELY(err)) return err;
  err = put_string(w, s, len);
  if (FJ_UNLIKELY(err)) return err;
  commit_value(w);
  return FJ_OK;
}

#ifdef FJ_WRITE_AVX512
/* fj_writer_stringn()'s inline path with copy_short_avx512() (w->vshort). */
FJ_AVX512_TARGET FJ_NOINLINE static fj_error stringn_avx512(fj_writer *w, const char *s,
                                                            size_t len) {
  if (FJ_LIKELY(s != NULL && len <= FJ_SHORT_MAX)) {
    unsigned st = w->h.state;
    uint8_t *p = w->h.pos;
    if (FJ_LIKELY(st < w->h.fast_end && (size_t)(w->h.end - p) >= FJ_SHORT_ROOM)) {
      *p = ',';
      p += ST_COMMA(st);
      *p++ = '"';
      if (FJ_LIKELY(copy_short_avx512(p, (const uint8_t *)s, len))) {
        p[len] = '"';
        w->h.pos = p + len + 1;
        w->h.state = (uint8_t)ST_AFTER_VALUE(st);
        return FJ_OK;
      }
    }
  }
  return fj__writer_stringn_general(w, s, len);
}
#endif

fj_error(fj_writer_stringn)(fj_writer *w, const char *s, size_t len) {
#ifdef FJ_WRITE_AVX512
  if (FJ_LIKELY(w != NULL && w->vshort)) return stringn_avx512(w, s, len);
#endif
  if (FJ_LIKELY(w != NULL && s != NULL && len <= FJ_SHORT_MAX && w->h.short_in)) {
    unsigned st = w->h.state;
    uint8_t *p = w->h.pos;
    if (FJ_LIKELY(st < w->h.fast_end && (size_t)(w->h.end - p) >= FJ_SHORT_ROOM)) {
      *p = ',';
      p += ST_COMMA(st);
      *p++ = '"';
      if (FJ_LIKELY(fj__copy_short(p, (const uint8_t *)s, len, w->h.short_k))) {
        p[len] = '"';
        w->h.pos = p + len + 1;
        w->h.state = (uint8_t)ST_AFTER_VALUE(st);
        return FJ_OK;
      }
    }
  }
  return fj__writer_stringn_general(w, s, len);
}

fj_error(fj_writer_string)(fj_writer *w, const char *s) {
  if (!s) return FJ_ERR_INVALID_ARG;
  return fj_writer_stringn(w, s, strlen(s));
}

/* Not FJ_SLOW either: see fj__writer_stringn_general(). */
FJ_NOINLINE fj_error fj__writer_keyn_general(fj_writer *w, const char *key, size_t len) {
  if (!w || (!key && len)) return FJ_ERR_INVALID_ARG;
  if (FJ_UNLIKELY(len > FJ_STR_CHUNK)) return put_long_string(w, key, len, true);
  fj_error err = prefix_key(w, len * FJ_ESCAPE_RATIO + FJ_ESCAPE_SLACK + 4);
  if (FJ_UNLIKELY(err)) return err;
  err = put_string(w, key, len);
  if (FJ_UNLIKELY(err)) return err;
  put_colon(w);
  return FJ_OK;
}

/* The inline path of a key: with `more` bytes of room left after it for
 * a value, writes the separator, the key and the colon at the window's
 * position and returns the end, without committing anything; NULL when the
 * general code must do it. */
static inline uint8_t *key_fast(fj_writer *w, const char *key, size_t len, size_t more) {
  if (FJ_LIKELY(w != NULL && key != NULL && len <= FJ_SHORT_MAX && w->h.short_in)) {
    unsigned st = w->h.state;
    uint8_t *p = w->h.pos;
    if (FJ_LIKELY(st - ST_OBJ_KEY_NEXT < w->h.pair_fast &&
                  (size_t)(w->h.end - p) >= FJ_SHORT_ROOM + more)) {
      *p = ',';
      p += ST_COMMA(st);
      *p++ = '"';
      if (FJ_LIKELY(fj__copy_short(p, (const uint8_t *)key, len, w->h.short_k))) {
        p += len;
        p[0] = '"';
        p[1] = ':';
        return p + 2;
      }
    }
  }
  return NULL;
}

#ifdef FJ_WRITE_AVX512
/* fj_writer_keyn()'s inline path with copy_short_avx512() (w->vshort). */
FJ_AVX512_TARGET FJ_NOINLINE static fj_error keyn_avx512(fj_writer *w, const char *key,
                                                         size_t len) {
  if (FJ_LIKELY(key != NULL && len <= FJ_SHORT_MAX)) {
    unsigned st = w->h.state;
    uint8_t *p = w->h.pos;
    if (FJ_LIKELY(st - ST_OBJ_KEY_NEXT < w->h.pair_fast &&
                  (size_t)(w->h.end - p) >= FJ_SHORT_ROOM)) {
      *p = ',';
      p += ST_COMMA(st);
      *p++ = '"';
      if (FJ_LIKELY(copy_short_avx512(p, (const uint8_t *)key, len))) {
        p += len;
        memcpy(p, "\":", 2);
        w->h.pos = p + 2;
        w->h.state = ST_OBJ_VALUE;
        return FJ_OK;
      }
    }
  }
  return fj__writer_keyn_general(w, key, len);
}
#endif

fj_error(fj_writer_keyn)(fj_writer *w, const char *key, size_t len) {
#ifdef FJ_WRITE_AVX512
  if (FJ_LIKELY(w != NULL && w->vshort)) return keyn_avx512(w, key, len);
#endif
  uint8_t *p = key_fast(w, key, len, 0);
  if (FJ_LIKELY(p != NULL)) {
    w->h.pos = p;
    w->h.state = ST_OBJ_VALUE;
    return FJ_OK;
  }
  return fj__writer_keyn_general(w, key, len);
}

fj_error(fj_writer_key)(fj_writer *w, const char *key) {
  if (!key) return FJ_ERR_INVALID_ARG;
  return fj_writer_keyn(w, key, strlen(key));
}

/* ---- scalars --------------------------------------------------------------- */

/* The inline path of a scalar: `need` bytes of room after the comma; PUT
 * writes the value at p (a uint8_t *) and advances p. */
#define FJ_SCALAR_FAST(w, need, PUT)                                                               \
  do {                                                                                             \
    if (FJ_LIKELY((w) != NULL)) {                                                                  \
      unsigned st_ = (w)->h.state;                                                                 \
      uint8_t *p = (w)->h.pos;                                                                     \
      if (FJ_LIKELY(st_ < (w)->h.fast_end && (size_t)((w)->h.end - p) > (need))) {                 \
        *p = ',';                                                                                  \
        p += ST_COMMA(st_);                                                                        \
        PUT;                                                                                       \
        (w)->h.pos = p;                                                                            \
        (w)->h.state = (uint8_t)ST_AFTER_VALUE(st_);                                               \
        return FJ_OK;                                                                              \
      }                                                                                            \
    }                                                                                              \
  } while (0)

FJ_SLOW static fj_error int64_slow(fj_writer *w, int64_t v) {
  if (!w) return FJ_ERR_INVALID_ARG;
  fj_error err = prefix_value(w, 24);
  if (FJ_UNLIKELY(err)) return err;
  w->h.pos += fj__i64toa((char *)w->h.pos, v);
  commit_value(w);
  return FJ_OK;
}

/* Integers of 9 to 16 digits (and the rest, through int64_slow()). */
FJ_NOINLINE static fj_error int64_long(fj_writer *w, int64_t v) {
  if (FJ_LIKELY(fj__i64_short(v) && !fj__i64_short8(v)))
    FJ_SCALAR_FAST(w, 24, p += fj__i64toa9to16((char *)p, v));
  return int64_slow(w, v);
}

/* The inline path takes integers of up to 8 digits and leaves longer ones
 * to int64_long(): with those inline too, the function needed a stack frame
 * (five registers saved and restored on every call), the longer conversion
 * needing more registers; now it needs none. */
fj_error fj_writer_int64(fj_writer *w, int64_t v) {
  if (FJ_LIKELY(fj__i64_short8(v))) FJ_SCALAR_FAST(w, 24, p += fj__i64toa8((char *)p, v));
  return int64_long(w, v);
}

FJ_SLOW static fj_error uint64_slow(fj_writer *w, uint64_t v) {
  if (!w) return FJ_ERR_INVALID_ARG;
  fj_error err = prefix_value(w, 24);
  if (FJ_UNLIKELY(err)) return err;
  w->h.pos += fj__u64toa((char *)w->h.pos, v);
  commit_value(w);
  return FJ_OK;
}

fj_error fj_writer_uint64(fj_writer *w, uint64_t v) {
  if (FJ_LIKELY(v < FJ_U64TOA_INLINE_LIMIT)) FJ_SCALAR_FAST(w, 24, p += fj__u64toa16((char *)p, v));
  return uint64_slow(w, v);
}

FJ_SLOW static fj_error double_slow(fj_writer *w, double v) {
  if (!w) return FJ_ERR_INVALID_ARG;
  if (FJ_UNLIKELY(!fj__writer_finite(v))) {
    if (w->flags & FJ_WRITE_NONFINITE_AS_NULL) return fj_writer_null(w);
    fj_error err = value_state_error(w->h.state);
    if (!err) err = w->err ? w->err : FJ_ERR_NUMBER_RANGE; /* a sink error sticks first */
    return err;
  }
  fj_error err = prefix_value(w, FJ_DTOA_BUF);
  if (FJ_UNLIKELY(err)) return err;
  w->h.pos += fj__dtoa((char *)w->h.pos, v);
  commit_value(w);
  return FJ_OK;
}

fj_error(fj_writer_double)(fj_writer *w, double v) {
  if (FJ_LIKELY(fj__writer_finite(v))) FJ_SCALAR_FAST(w, FJ_DTOA_BUF, p += fj__dtoa((char *)p, v));
  return double_slow(w, v);
}

FJ_SLOW static fj_error bool_slow(fj_writer *w, bool v) {
  if (!w) return FJ_ERR_INVALID_ARG;
  fj_error err = prefix_value(w, 5);
  if (FJ_UNLIKELY(err)) return err;
  w->h.pos += fj__put_bool(w->h.pos, v);
  commit_value(w);
  return FJ_OK;
}

fj_error(fj_writer_bool)(fj_writer *w, bool v) {
  FJ_SCALAR_FAST(w, 5, p += fj__put_bool(p, v));
  return bool_slow(w, v);
}

FJ_SLOW static fj_error null_slow(fj_writer *w) {
  if (!w) return FJ_ERR_INVALID_ARG;
  fj_error err = prefix_value(w, 4);
  if (FJ_UNLIKELY(err)) return err;
  memcpy(w->h.pos, "null", 4);
  w->h.pos += 4;
  commit_value(w);
  return FJ_OK;
}

fj_error(fj_writer_null)(fj_writer *w) {
  FJ_SCALAR_FAST(w, 4, memcpy(p, "null", 4); p += 4);
  return null_slow(w);
}

fj_error fj_writer_raw(fj_writer *w, const char *json, size_t len) {
  if (!w || !json || !len) return FJ_ERR_INVALID_ARG; /* no bytes: no value (a lone ',') */
  size_t first = len < FJ_RAW_CHUNK ? len : FJ_RAW_CHUNK;
  fj_error err = prefix_value(w, first);
  if (FJ_UNLIKELY(err)) return err;
  while (len) {
    size_t m = len < FJ_RAW_CHUNK ? len : FJ_RAW_CHUNK;
    err = reserve(w, m);
    if (err) return err;
    memcpy(w->h.pos, json, m);
    w->h.pos += m;
    json += m;
    len -= m;
  }
  commit_value(w);
  return FJ_OK;
}

/* ---- members: a key and its value in one call -------------------------------
 *
 * The inline path writes both behind one state check and one room check
 * and commits once; anything else is the two events' own calls, so the
 * result is always what fj_writer_keyn() then the value's call give. */

#define FJ_MEMBER(name, type, room, FAST, PUT)                                                     \
  fj_error fj_writer_member_##name(fj_writer *w, const char *key, size_t key_len, type v) {        \
    uint8_t *p;                                                                                    \
    if (FJ_LIKELY(FAST) && FJ_LIKELY((p = key_fast(w, key, key_len, room)) != NULL)) {             \
      PUT;                                                                                         \
      w->h.pos = p;                                                                                \
      w->h.state = ST_OBJ_KEY_NEXT;                                                                \
      return FJ_OK;                                                                                \
    }                                                                                              \
    fj_error err = fj_writer_keyn(w, key, key_len);                                                \
    return err ? err : fj_writer_##name(w, v);                                                     \
  }

/* The end of a member whose key is written at p (not committed): a value
 * of 17 to 20 digits (twitter's ids). Reached by a jump from the members'
 * inline paths, which thus make no call and need no stack frame. */
FJ_NOINLINE static fj_error member_u64_long(fj_writer *w, uint8_t *p, uint64_t v) {
  w->h.pos = p + fj__u64toa_long((char *)p, v);
  w->h.state = ST_OBJ_KEY_NEXT;
  return FJ_OK;
}

/* The scalar members, once for both kinds of key: name, value type, room
 * needed after the key, when the fast path applies, how the value is put. */
#define FJ_SCALAR_MEMBERS(X)                                                                       \
  X(int64, int64_t, 24, fj__i64_short(v), p += fj__i64toa16((char *)p, v))                         \
  X(uint64, uint64_t, 24, true,                                                                    \
    if (FJ_UNLIKELY(v >= FJ_U64TOA_INLINE_LIMIT)) return member_u64_long(w, p, v);                 \
    p += fj__u64toa16((char *)p, v))                                                               \
  X(double, double, FJ_DTOA_BUF, fj__writer_finite(v), p += fj__dtoa((char *)p, v))                \
  X(bool, bool, 5, true, p += fj__put_bool(p, v))
FJ_SCALAR_MEMBERS(FJ_MEMBER)
#undef FJ_MEMBER

fj_error fj_writer_member_stringn(fj_writer *w, const char *key, size_t key_len, const char *s,
                                  size_t len) {
  uint8_t *p;
  if (s != NULL && len <= FJ_SHORT_MAX &&
      (p = key_fast(w, key, key_len, FJ_SHORT_MAX + 2)) != NULL) {
    *p = '"';
    if (FJ_LIKELY(fj__copy_short(p + 1, (const uint8_t *)s, len, w->h.short_k))) {
      p[len + 1] = '"';
      w->h.pos = p + len + 2;
      w->h.state = ST_OBJ_KEY_NEXT;
      return FJ_OK;
    }
  }
  fj_error err = fj_writer_keyn(w, key, key_len);
  return err ? err : fj_writer_stringn(w, s, len);
}

fj_error fj_writer_member_null(fj_writer *w, const char *key, size_t key_len) {
  uint8_t *p = key_fast(w, key, key_len, 4);
  if (FJ_LIKELY(p != NULL)) {
    memcpy(p, "null", 4);
    w->h.pos = p + 4;
    w->h.state = ST_OBJ_KEY_NEXT;
    return FJ_OK;
  }
  fj_error err = fj_writer_keyn(w, key, key_len);
  return err ? err : fj_writer_null(w);
}

/* ---- pre-quoted keys ---------------------------------------------------------
 *
 * The key's bytes are the output's: the inline path copies a fixed 32-byte
 * block (the caller vouches that it is readable) and keeps qlen of it, so
 * it has no branch on the key's length or content. Anything else goes to
 * the unquoted calls above with the name between the quotes. */

#define FJ_QKEY_MAX 32u

/* As key_fast(), for a pre-quoted key of at most FJ_QKEY_MAX bytes. */
static inline uint8_t *qkey_fast(fj_writer *w, const char *qkey, size_t qlen, size_t more) {
  if (FJ_LIKELY(w != NULL && qkey != NULL && qlen - 3 <= FJ_QKEY_MAX - 3)) {
    unsigned st = w->h.state;
    uint8_t *p = w->h.pos;
    if (FJ_LIKELY(st - ST_OBJ_KEY_NEXT < w->h.pair_fast &&
                  (size_t)(w->h.end - p) > FJ_QKEY_MAX + more)) {
      *p = ',';
      p += ST_COMMA(st);
      memcpy(p, qkey, FJ_QKEY_MAX);
      return p + qlen;
    }
  }
  return NULL;
}

/* The general path: the name between the quotes, through `call`'s
 * unquoted twin. */
#define FJ_QKEY_SLOW(qkey, qlen, call)                                                             \
  do {                                                                                             \
    if (!(qkey) || (qlen) < 3) return FJ_ERR_INVALID_ARG;                                          \
    return call;                                                                                   \
  } while (0)

fj_error fj_writer_qkey(fj_writer *w, const char *qkey, size_t qlen) {
  uint8_t *p = qkey_fast(w, qkey, qlen, 0);
  if (FJ_LIKELY(p != NULL)) {
    w->h.pos = p;
    w->h.state = ST_OBJ_VALUE;
    return FJ_OK;
  }
  FJ_QKEY_SLOW(qkey, qlen, fj_writer_keyn(w, qkey + 1, qlen - 3));
}

/* A pre-quoted key and the opening bracket of its value. */
static inline fj_error qkey_begin(fj_writer *w, const char *qkey, size_t qlen, uint8_t c,
                                  bool object) {
  uint8_t *p = qkey_fast(w, qkey, qlen, 1);
  if (FJ_LIKELY(p != NULL)) {
    uint32_t d = w->h.depth;
    if (FJ_LIKELY(d < w->h.max_depth)) {
      push_level(w, p, d, ST_OBJ_VALUE, c, object);
      return FJ_OK;
    }
  }
  fj_error err = fj_writer_qkey(w, qkey, qlen);
  return err ? err : begin_container(w, c, object);
}

fj_error fj_writer_qkey_begin_object(fj_writer *w, const char *qkey, size_t qlen) {
  return qkey_begin(w, qkey, qlen, '{', true);
}

fj_error fj_writer_qkey_begin_array(fj_writer *w, const char *qkey, size_t qlen) {
  return qkey_begin(w, qkey, qlen, '[', false);
}

#define FJ_QMEMBER(name, type, room, FAST, PUT)                                                    \
  fj_error fj_writer_qmember_##name(fj_writer *w, const char *qkey, size_t qlen, type v) {         \
    uint8_t *p;                                                                                    \
    if (FJ_LIKELY(FAST) && FJ_LIKELY((p = qkey_fast(w, qkey, qlen, room)) != NULL)) {              \
      PUT;                                                                                         \
      w->h.pos = p;                                                                                \
      w->h.state = ST_OBJ_KEY_NEXT;                                                                \
      return FJ_OK;                                                                                \
    }                                                                                              \
    FJ_QKEY_SLOW(qkey, qlen, fj_writer_member_##name(w, qkey + 1, qlen - 3, v));                   \
  }

FJ_SCALAR_MEMBERS(FJ_QMEMBER)
#undef FJ_QMEMBER
#undef FJ_SCALAR_MEMBERS

fj_error fj_writer_qmember_stringn(fj_writer *w, const char *qkey, size_t qlen, const char *s,
                                   size_t len) {
  uint8_t *p;
  if (s != NULL && len <= FJ_SHORT_MAX && w != NULL && w->h.short_in &&
      (p = qkey_fast(w, qkey, qlen, FJ_SHORT_MAX + 2)) != NULL) {
    *p = '"';
    if (FJ_LIKELY(fj__copy_short(p + 1, (const uint8_t *)s, len, w->h.short_k))) {
      p[len + 1] = '"';
      w->h.pos = p + len + 2;
      w->h.state = ST_OBJ_KEY_NEXT;
      return FJ_OK;
    }
  }
  FJ_QKEY_SLOW(qkey, qlen, fj_writer_member_stringn(w, qkey + 1, qlen - 3, s, len));
}

fj_error fj_writer_qmember_null(fj_writer *w, const char *qkey, size_t qlen) {
  uint8_t *p = qkey_fast(w, qkey, qlen, 4);
  if (FJ_LIKELY(p != NULL)) {
    memcpy(p, "null", 4);
    w->h.pos = p + 4;
    w->h.state = ST_OBJ_KEY_NEXT;
    return FJ_OK;
  }
  FJ_QKEY_SLOW(qkey, qlen, fj_writer_member_null(w, qkey + 1, qlen - 3));
}

/* ---- the end --------------------------------------------------------------- */

/* Hands everything written so far on; a buffer sink also gets its NUL. */
static fj_error sync_output(fj_writer *w) {
  if (w->err) return w->err;
  switch (w->mode) {
  case MODE_BUFFER: {
    if (w->unmapped) return FJ_OK; /* nothing written since the last sync */
    fj_error err = reserve(w, 1);
    if (err) return err;
    *w->h.pos = 0;
    w->gbuf->len = (size_t)(w->h.pos - w->gbuf->data);
    /* the caller may now take the bytes (fj_buffer_take()) or change the
     * buffer: the next event maps the window again at its len */
    w->flushed += (size_t)(w->h.pos - w->base);
    unmap_window(w);
    return FJ_OK;
  }
  case MODE_FIXED:
    w->fbuf->len = w->fbuf->needed = (size_t)(w->h.pos - (uint8_t *)w->fbuf->data);
    return FJ_OK;
  default: return flush_window(w);
  }
}

fj_error fj_writer_flush(fj_writer *w) {
  if (!w) return FJ_ERR_INVALID_ARG;
  return sync_output(w);
}

fj_error fj_writer_finish(fj_writer *w) {
  if (!w) return FJ_ERR_INVALID_ARG;
  if (w->err) return w->err; /* a sink error sticks: no call can complete the output now */
  if (!w->finished) {
    if (w->h.state == ST_ROOT) return FJ_ERR_EMPTY;
    if (w->h.state != ST_DONE) return FJ_ERR_TRUNCATED;
    if (w->pretty) {
      fj_error err = reserve(w, 1);
      if (err) return err;
      *w->h.pos++ = '\n';
    }
    w->finished = true;
  }
  fj_error err = sync_output(w);
  if (err || !w->fbuf) return err;
  return fj__counted_result(fj_sink_fixed(w->fbuf), FJ_OK); /* some output only counted? */
}

fj_error fj_writer_size(const fj_writer *w, size_t *bytes) {
  if (!w || !bytes) return FJ_ERR_INVALID_ARG;
  *bytes = w->flushed + (size_t)(w->h.pos - w->base);
  return FJ_OK;
}

uint32_t fj_writer_depth(const fj_writer *w) { return w ? w->h.depth : 0; }

/* fj_format_double() and writer.h's inline double path give fj__dtoa()
 * FJ_DOUBLE_MAX_CHARS bytes */
_Static_assert(FJ_DTOA_BUF <= FJ_DOUBLE_MAX_CHARS, "fj__dtoa() may store more than the API says");

fj_error fj_format_double(double v, char *buf, size_t cap, size_t *len) {
  if (!buf || !len) return FJ_ERR_INVALID_ARG;
  if (!fj__writer_finite(v)) return FJ_ERR_NUMBER_RANGE;
  if (cap < FJ_DOUBLE_MAX_CHARS) return FJ_ERR_BUFFER_TOO_SMALL;
  *len = fj__dtoa(buf, v);
  return FJ_OK;
}
