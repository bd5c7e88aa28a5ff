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

#include "util/alloc.h"
#include "write/dtoa.h"
#include "write/escape.h"
#include "write/itoa.h"
#include "write/sink_internal.h"

#include "util/compiler.h"

/* Where the document stands. Values are allowed in the first four. */
enum {
  ST_ROOT,          /* nothing written yet */
  ST_ARR_FIRST,     /* in an array, no element yet */
  ST_ARR_NEXT,      /* in an array, after an element: a comma is due */
  ST_OBJ_VALUE,     /* in an object, after a key */
  ST_OBJ_KEY_FIRST, /* in an object, no member yet */
  ST_OBJ_KEY_NEXT,  /* in an object, after a member: a comma is due */
  ST_DONE           /* the root value is complete */
};
#define ST_VALUE_END ST_OBJ_KEY_FIRST

/* The state after a complete scalar value, by the state before it. */
static const uint8_t after_value[ST_VALUE_END] = {ST_DONE, ST_ARR_NEXT, ST_ARR_NEXT,
                                                  ST_OBJ_KEY_NEXT};

enum { MODE_SINK, MODE_BUFFER, MODE_FIXED };

#define FJ_WBUF_SIZE 65536u
/* Strings longer than this are escaped in chunks of this many input bytes,
 * so one reservation never exceeds about 6 * 4 KiB. */
#define FJ_STR_CHUNK 4096u
#define FJ_RAW_CHUNK 32768u
#define FJ_MAX_DEPTH_LIMIT (1u << 20)

struct fj_writer {
  uint8_t *pos, *end; /* the output window: free room is [pos, end) */
  uint8_t *mark;      /* where the current event's output began (to take it back) */
  uint8_t state;
  uint8_t fast_end; /* states below it take the compact fast path: 4, or 0 when pretty */
  bool finished;
  bool pretty;
  unsigned esc; /* FJ__ESC_* */
  uint32_t flags;
  fj_error err; /* the sink's first error, returned from then on */
  uint32_t depth, max_depth;
  uint32_t indent;
  uint8_t indent_char;
  uint64_t *stack; /* bit d: level d + 1 is an object */
  int mode;
  uint8_t *base;  /* start of the window's output: [base, pos) is not yet flushed */
  size_t flushed; /* bytes of this document before base */
  fj_sink sink;
  fj_buffer *gbuf;
  fj_fixed_buffer *fbuf;
  uint8_t *ibuf; /* own buffer for MODE_SINK */
  size_t icap;
  fj_allocator alloc;
};

/* ---- the window ------------------------------------------------------------ */

/* After a sink error nothing more is taken: an empty window sends every
 * event to make_room(), which returns the error. */
static fj_error fail(fj_writer *w, fj_error err) {
  w->err = err;
  w->end = w->pos;
  return err;
}

static fj_error flush_window(fj_writer *w) {
  size_t n = (size_t)(w->pos - w->base);
  if (n) {
    fj_error err = w->sink.write(w->sink.ctx, w->base, n);
    if (err) return fail(w, err);
    w->flushed += n;
    w->pos = w->base;
  }
  return FJ_OK;
}

/* The fixed buffer cannot guarantee the room asked for (which may be more
 * than the event writes): go on through the own buffer, whose flushes store
 * into the fixed buffer while output fits and only count beyond. */
static void leave_fixed(fj_writer *w) {
  fj_fixed_buffer *fb = w->fbuf;
  size_t used = (size_t)(w->pos - (uint8_t *)fb->data);
  w->flushed += (size_t)(w->pos - w->base);
  fb->len = fb->needed = used;
  w->mode = MODE_SINK;
  w->sink = (fj_sink){fj__fixed_sink_count, fb};
  w->base = w->pos = w->ibuf;
  w->end = w->ibuf + w->icap;
}

/* Slow path of reserve(): room for n bytes at pos, or the error. */
static fj_error make_room(fj_writer *w, size_t n) {
  if (w->err) return w->err;
  if (w->mode == MODE_BUFFER) {
    fj_buffer *b = w->gbuf;
    size_t used = b->len, base_off = b->len; /* before the first growth of an empty buffer */
    if (b->data) {
      used = (size_t)(w->pos - b->data);
      base_off = (size_t)(w->base - b->data);
    }
    if (n > SIZE_MAX - used - 1) return fail(w, FJ_ERR_NOMEM);
    fj_error err = fj__buffer_reserve(b, used + n + 1); /* + 1: the final NUL */
    if (err) return fail(w, err);
    w->base = b->data + base_off;
    w->pos = b->data + used;
    w->end = b->data + b->cap - 1;
    return FJ_OK;
  }
  if (w->mode == MODE_FIXED) leave_fixed(w);
  fj_error err = flush_window(w);
  if (err) return err;
  if (n > w->icap) { /* only for very deep pretty indentation */
    uint8_t *p = fj__realloc(&w->alloc, w->ibuf, w->icap, n);
    if (!p) return fail(w, FJ_ERR_NOMEM);
    w->ibuf = w->base = w->pos = p;
    w->icap = n;
  }
  w->end = w->ibuf + w->icap;
  return FJ_OK;
}

static inline fj_error reserve(fj_writer *w, size_t n) {
  if (FJ_LIKELY((size_t)(w->end - w->pos) >= n)) return FJ_OK;
  return make_room(w, n);
}

/* ---- separators ------------------------------------------------------------ */

static inline bool level_is_object(const fj_writer *w, uint32_t level) {
  return (w->stack[(level - 1) >> 6] >> ((level - 1) & 63)) & 1;
}

static inline void put_newline_indent(fj_writer *w, uint32_t level) {
  size_t n = (size_t)level * w->indent;
  *w->pos++ = '\n';
  memset(w->pos, w->indent_char, n);
  w->pos += n;
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
  unsigned st = w->state;
  fj_error err = value_state_error(st);
  if (err) return err;
  bool in_array = st == ST_ARR_FIRST || st == ST_ARR_NEXT;
  size_t sep = in_array ? 2 + (size_t)w->depth * w->indent : 0;
  err = reserve(w, sep + need);
  if (err) return err;
  w->mark = w->pos;
  if (st == ST_ARR_NEXT) *w->pos++ = ',';
  if (in_array) put_newline_indent(w, w->depth);
  return FJ_OK;
}

/* Checks that a value may come, reserves room for `need` more bytes and
 * writes the separator in front of it. The state is left for the caller
 * to advance once the value is written. */
static inline fj_error prefix_value(fj_writer *w, size_t need) {
  unsigned st = w->state;
  if (FJ_UNLIKELY(st >= w->fast_end)) return prefix_value_slow(w, need);
  fj_error err = reserve(w, need + 1);
  if (FJ_UNLIKELY(err)) return err;
  w->mark = w->pos;
  *w->pos = ',';
  w->pos += st == ST_ARR_NEXT;
  return FJ_OK;
}

static inline void commit_value(fj_writer *w) { w->state = after_value[w->state]; }

/* As prefix_value(), for a key. */
static inline fj_error prefix_key(fj_writer *w, size_t need) {
  unsigned st = w->state;
  fj_error err = key_state_error(st);
  if (FJ_UNLIKELY(err)) return err;
  size_t sep = w->pretty ? 2 + (size_t)w->depth * w->indent : 1;
  err = reserve(w, sep + need);
  if (FJ_UNLIKELY(err)) return err;
  w->mark = w->pos;
  *w->pos = ',';
  w->pos += st == ST_OBJ_KEY_NEXT;
  if (w->pretty) put_newline_indent(w, w->depth);
  return FJ_OK;
}

/* ":" or ": " after a key (room was reserved with the key). */
static inline void put_colon(fj_writer *w) {
  memcpy(w->pos, ": ", 2);
  w->pos += 1 + w->pretty;
  w->state = ST_OBJ_VALUE;
}

/* ---- creation -------------------------------------------------------------- */

static void start(fj_writer *w, fj_sink sink) {
  w->state = ST_ROOT;
  w->finished = false;
  w->err = FJ_OK;
  w->depth = 0;
  w->flushed = 0;
  w->sink = sink;
  w->gbuf = NULL;
  w->fbuf = NULL;
  if (sink.write == fj__buffer_sink_write) {
    w->mode = MODE_BUFFER;
    w->gbuf = sink.ctx;
    if (w->gbuf->data) {
      w->base = w->pos = w->gbuf->data + w->gbuf->len;
      w->end = w->gbuf->data + w->gbuf->cap - 1; /* keep a byte for the NUL */
      if (w->end < w->pos) w->end = w->pos;
      return;
    }
    /* no memory yet: an empty window makes the first event grow it */
    w->base = w->pos = w->end = w->ibuf;
    return;
  }
  if (sink.write == fj__fixed_sink_write && ((fj_fixed_buffer *)sink.ctx)->data) {
    fj_fixed_buffer *fb = sink.ctx;
    w->mode = MODE_FIXED;
    w->fbuf = fb;
    w->base = w->pos = (uint8_t *)fb->data + fb->len;
    w->end = (uint8_t *)fb->data + (fb->cap > fb->len ? fb->cap : fb->len);
    return;
  }
  if (sink.write == fj__fixed_sink_write) { /* no memory at all: only count */
    w->fbuf = sink.ctx;
    w->sink = (fj_sink){fj__fixed_sink_count, sink.ctx};
  }
  w->mode = MODE_SINK;
  w->base = w->pos = w->ibuf;
  w->end = w->ibuf + w->icap;
}

fj_error fj_writer_new(fj_writer **out, const fj_writer_options *opts, fj_sink sink) {
  if (!out) return FJ_ERR_INVALID_ARG;
  *out = NULL;
  fj_writer_options o = opts ? *opts : (fj_writer_options){0, 0, 0, NULL};
  fj_allocator a = o.allocator ? *o.allocator : fj__default_allocator;
  if (!sink.write || !a.malloc || !a.realloc || !a.free || o.indent > 16 ||
      o.max_depth > FJ_MAX_DEPTH_LIMIT)
    return FJ_ERR_INVALID_ARG;
  fj_writer *w = fj__malloc(&a, sizeof *w);
  if (!w) return FJ_ERR_NOMEM;
  memset(w, 0, sizeof *w);
  w->alloc = a;
  w->flags = o.flags;
  w->max_depth = o.max_depth ? o.max_depth : FJ_DEFAULT_MAX_DEPTH;
  w->pretty = (o.flags & FJ_WRITE_PRETTY) != 0;
  w->fast_end = w->pretty ? 0 : ST_VALUE_END;
  w->indent_char = (o.flags & FJ_WRITE_TABS) ? '\t' : ' ';
  w->indent = o.indent ? o.indent : (o.flags & FJ_WRITE_TABS) ? 1 : 2;
  if (!(o.flags & FJ_WRITE_NO_VALIDATE_UTF8)) w->esc |= FJ__ESC_VALIDATE;
  if (o.flags & FJ_WRITE_ESCAPE_UNICODE) w->esc |= FJ__ESC_UNICODE | FJ__ESC_VALIDATE;
  if (o.flags & FJ_WRITE_REPLACE_INVALID_UTF8) w->esc |= FJ__ESC_REPLACE;
  if (o.flags & FJ_WRITE_ESCAPE_SLASH) w->esc |= FJ__ESC_SLASH;
  size_t words = (w->max_depth + 63) / 64;
  w->stack = fj__malloc(&a, words * sizeof *w->stack);
  w->icap = FJ_WBUF_SIZE;
  w->ibuf = fj__malloc(&a, w->icap);
  if (!w->stack || !w->ibuf) {
    fj__free(&a, w->stack, words * sizeof *w->stack);
    fj__free(&a, w->ibuf, w->icap);
    fj__free(&a, w, sizeof *w);
    return FJ_ERR_NOMEM;
  }
  start(w, sink);
  *out = w;
  return FJ_OK;
}

fj_error fj_writer_reset(fj_writer *w, fj_sink sink) {
  if (!w || !sink.write) return FJ_ERR_INVALID_ARG;
  start(w, sink);
  return FJ_OK;
}

void fj_writer_free(fj_writer *w) {
  if (!w) return;
  fj_allocator a = w->alloc;
  fj__free(&a, w->stack, (w->max_depth + 63) / 64 * sizeof *w->stack);
  fj__free(&a, w->ibuf, w->icap);
  fj__free(&a, w, sizeof *w);
}

/* ---- containers ------------------------------------------------------------ */

static fj_error begin_container(fj_writer *w, uint8_t c, bool object) {
  if (!w) return FJ_ERR_INVALID_ARG;
  if (FJ_UNLIKELY(w->depth >= w->max_depth)) {
    fj_error err = value_state_error(w->state);
    return err ? err : FJ_ERR_DEPTH;
  }
  fj_error err = prefix_value(w, 1);
  if (FJ_UNLIKELY(err)) return err;
  *w->pos++ = c;
  uint32_t d = w->depth++;
  uint64_t bit = UINT64_C(1) << (d & 63);
  if (object)
    w->stack[d >> 6] |= bit;
  else
    w->stack[d >> 6] &= ~bit;
  w->state = object ? ST_OBJ_KEY_FIRST : ST_ARR_FIRST;
  return FJ_OK;
}

/* Why this end cannot come now (`object`: which end), or FJ_OK. */
static fj_error end_state_error(unsigned st, bool object) {
  switch (st) {
  case ST_ARR_FIRST:
  case ST_ARR_NEXT:
    return object ? FJ_ERR_WRONG_TYPE : FJ_OK;
  case ST_OBJ_KEY_FIRST:
  case ST_OBJ_KEY_NEXT:
    return object ? FJ_OK : FJ_ERR_WRONG_TYPE;
  case ST_DONE:
    return FJ_ERR_TRAILING_CONTENT;
  default: /* ST_ROOT: nothing is open; ST_OBJ_VALUE: a key waits for its value */
    return FJ_ERR_EXPECTED_VALUE;
  }
}

static fj_error end_container(fj_writer *w, uint8_t c, bool object) {
  if (!w) return FJ_ERR_INVALID_ARG;
  unsigned st = w->state;
  fj_error err = end_state_error(st, object);
  if (FJ_UNLIKELY(err)) return err;
  bool empty = st == ST_ARR_FIRST || st == ST_OBJ_KEY_FIRST;
  size_t sep = w->pretty && !empty ? 1 + (size_t)(w->depth - 1) * w->indent : 0;
  err = reserve(w, sep + 1);
  if (FJ_UNLIKELY(err)) return err;
  if (sep) put_newline_indent(w, w->depth - 1);
  *w->pos++ = c;
  uint32_t d = --w->depth;
  w->state = d == 0 ? ST_DONE : level_is_object(w, d) ? ST_OBJ_KEY_NEXT : ST_ARR_NEXT;
  return FJ_OK;
}

fj_error fj_writer_begin_object(fj_writer *w) { return begin_container(w, '{', true); }
fj_error fj_writer_end_object(fj_writer *w) { return end_container(w, '}', true); }
fj_error fj_writer_begin_array(fj_writer *w) { return begin_container(w, '[', false); }
fj_error fj_writer_end_array(fj_writer *w) { return end_container(w, ']', false); }

/* ---- strings and keys ------------------------------------------------------ */

/* The quoted, escaped string at pos (room reserved). On invalid UTF-8, the
 * event's output is taken back. */
static inline fj_error put_string(fj_writer *w, const char *s, size_t n) {
  uint8_t *p = w->pos;
  size_t k;
  *p++ = '"';
  fj_error err = fj__escape(p, (const uint8_t *)s, n, w->esc, &k);
  if (FJ_UNLIKELY(err)) {
    w->pos = w->mark;
    return err;
  }
  p += k;
  *p++ = '"';
  w->pos = p;
  return FJ_OK;
}

/* A string or key longer than FJ_STR_CHUNK: checked whole first (it cannot
 * be taken back once flushed), then escaped chunk by chunk. */
static fj_error put_long_string(fj_writer *w, const char *s, size_t n, bool key) {
  fj_error err = key ? key_state_error(w->state) : value_state_error(w->state);
  if (err) return err;
  const uint8_t *src = (const uint8_t *)s;
  if ((w->esc & FJ__ESC_VALIDATE) && !(w->esc & FJ__ESC_REPLACE) && !fj__utf8_valid(src, n))
    return FJ_ERR_UTF8;
  err = key ? prefix_key(w, 1) : prefix_value(w, 1);
  if (err) return err;
  *w->pos++ = '"';
  while (n) {
    size_t m = n;
    if (m > FJ_STR_CHUNK) {
      m = fj__utf8_cut(src, FJ_STR_CHUNK);
      if (!m) m = FJ_STR_CHUNK;
    }
    err = reserve(w, m * FJ_ESCAPE_RATIO + FJ_ESCAPE_SLACK + 3);
    if (err) return err;
    size_t k;
    err = fj__escape(w->pos, src, m, w->esc, &k);
    if (err) return fail(w, err); /* cannot happen: validated above */
    w->pos += k;
    src += m;
    n -= m;
  }
  *w->pos++ = '"';
  if (key)
    put_colon(w);
  else
    commit_value(w);
  return FJ_OK;
}

fj_error fj_writer_stringn(fj_writer *w, const char *s, size_t len) {
  if (!w || (!s && len)) return FJ_ERR_INVALID_ARG;
  if (FJ_UNLIKELY(len > FJ_STR_CHUNK)) return put_long_string(w, s, len, false);
  fj_error err = prefix_value(w, len * FJ_ESCAPE_RATIO + FJ_ESCAPE_SLACK + 2);
  if (FJ_UNLIKELY(err)) return err;
  err = put_string(w, s, len);
  if (FJ_UNLIKELY(err)) return err;
  commit_value(w);
  return FJ_OK;
}

fj_error fj_writer_string(fj_writer *w, const char *s) {
  if (!s) return FJ_ERR_INVALID_ARG;
  return fj_writer_stringn(w, s, strlen(s));
}

fj_error fj_writer_keyn(fj_writer *w, const char *key, size_t len) {
  if (!w || (!key && len)) return FJ_ERR_INVALID_ARG;
  if (FJ_UNLIKELY(len > FJ_STR_CHUNK)) return put_long_string(w, key, len, true);
  fj_error err = prefix_key(w, len * FJ_ESCAPE_RATIO + FJ_ESCAPE_SLACK + 4);
  if (FJ_UNLIKELY(err)) return err;
  err = put_string(w, key, len);
  if (FJ_UNLIKELY(err)) return err;
  put_colon(w);
  return FJ_OK;
}

fj_error fj_writer_key(fj_writer *w, const char *key) {
  if (!key) return FJ_ERR_INVALID_ARG;
  return fj_writer_keyn(w, key, strlen(key));
}

/* ---- scalars --------------------------------------------------------------- */

fj_error fj_writer_int64(fj_writer *w, int64_t v) {
  if (!w) return FJ_ERR_INVALID_ARG;
  fj_error err = prefix_value(w, 24);
  if (FJ_UNLIKELY(err)) return err;
  w->pos += fj__i64toa((char *)w->pos, v);
  commit_value(w);
  return FJ_OK;
}

fj_error fj_writer_uint64(fj_writer *w, uint64_t v) {
  if (!w) return FJ_ERR_INVALID_ARG;
  fj_error err = prefix_value(w, 24);
  if (FJ_UNLIKELY(err)) return err;
  w->pos += fj__u64toa((char *)w->pos, v);
  commit_value(w);
  return FJ_OK;
}

static inline bool is_finite(double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  return ((bits >> 52) & 0x7FF) != 0x7FF;
}

fj_error fj_writer_double(fj_writer *w, double v) {
  if (!w) return FJ_ERR_INVALID_ARG;
  if (FJ_UNLIKELY(!is_finite(v))) {
    if (w->flags & FJ_WRITE_NONFINITE_AS_NULL) return fj_writer_null(w);
    fj_error err = value_state_error(w->state);
    return err ? err : FJ_ERR_NUMBER_RANGE;
  }
  fj_error err = prefix_value(w, FJ_DTOA_BUF);
  if (FJ_UNLIKELY(err)) return err;
  w->pos += fj__dtoa((char *)w->pos, v);
  commit_value(w);
  return FJ_OK;
}

fj_error fj_writer_bool(fj_writer *w, bool v) {
  if (!w) return FJ_ERR_INVALID_ARG;
  fj_error err = prefix_value(w, 5);
  if (FJ_UNLIKELY(err)) return err;
  memcpy(w->pos, v ? "true " : "false", 5); /* one fixed-size store; the length picks */
  w->pos += 5 - v;
  commit_value(w);
  return FJ_OK;
}

fj_error fj_writer_null(fj_writer *w) {
  if (!w) return FJ_ERR_INVALID_ARG;
  fj_error err = prefix_value(w, 4);
  if (FJ_UNLIKELY(err)) return err;
  memcpy(w->pos, "null", 4);
  w->pos += 4;
  commit_value(w);
  return FJ_OK;
}

fj_error fj_writer_raw(fj_writer *w, const char *json, size_t len) {
  if (!w || (!json && len)) return FJ_ERR_INVALID_ARG;
  size_t first = len < FJ_RAW_CHUNK ? len : FJ_RAW_CHUNK;
  fj_error err = prefix_value(w, first);
  if (FJ_UNLIKELY(err)) return err;
  while (len) {
    size_t m = len < FJ_RAW_CHUNK ? len : FJ_RAW_CHUNK;
    err = reserve(w, m);
    if (err) return err;
    memcpy(w->pos, json, m);
    w->pos += m;
    json += m;
    len -= m;
  }
  commit_value(w);
  return FJ_OK;
}

/* ---- the end --------------------------------------------------------------- */

/* Hands everything written so far on; a buffer sink also gets its NUL. */
static fj_error sync_output(fj_writer *w) {
  if (w->err) return w->err;
  switch (w->mode) {
  case MODE_BUFFER: {
    fj_error err = reserve(w, 1);
    if (err) return err;
    *w->pos = 0;
    w->gbuf->len = (size_t)(w->pos - w->gbuf->data);
    return FJ_OK;
  }
  case MODE_FIXED:
    w->fbuf->len = w->fbuf->needed = (size_t)(w->pos - (uint8_t *)w->fbuf->data);
    return FJ_OK;
  default:
    return flush_window(w);
  }
}

fj_error fj_writer_flush(fj_writer *w) {
  if (!w) return FJ_ERR_INVALID_ARG;
  return sync_output(w);
}

fj_error fj_writer_finish(fj_writer *w) {
  if (!w) return FJ_ERR_INVALID_ARG;
  if (!w->finished) {
    if (w->state == ST_ROOT) return FJ_ERR_EMPTY;
    if (w->state != ST_DONE) return FJ_ERR_TRUNCATED;
    if (w->pretty) {
      fj_error err = reserve(w, 1);
      if (err) return err;
      *w->pos++ = '\n';
    }
    w->finished = true;
  }
  fj_error err = sync_output(w);
  if (err) return err;
  if (w->fbuf && w->fbuf->needed > w->fbuf->cap) return FJ_ERR_BUFFER_TOO_SMALL;
  return FJ_OK;
}

fj_error fj_writer_size(const fj_writer *w, size_t *bytes) {
  if (!w || !bytes) return FJ_ERR_INVALID_ARG;
  *bytes = w->flushed + (size_t)(w->pos - w->base);
  return FJ_OK;
}

fj_error fj_format_double(double v, char *buf, size_t cap, size_t *len) {
  if (!buf || !len) return FJ_ERR_INVALID_ARG;
  if (!is_finite(v)) return FJ_ERR_NUMBER_RANGE;
  if (cap < FJ_DOUBLE_MAX_CHARS) return FJ_ERR_BUFFER_TOO_SMALL;
  *len = fj__dtoa(buf, v);
  return FJ_OK;
}
