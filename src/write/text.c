/* Minify and pretty-print from the structural index. After validation,
 * every piece of output is either one structural character or the bytes
 * from one structural to the next with trailing whitespace cut off (a
 * string with its quotes, a number, a literal), copied unchanged. */
#include <string.h>

#include "fastjson/text.h"
#include "ondemand/internal.h"
#include "write/sink_internal.h"

/* A small output buffer in front of the sink, so the sink sees few calls. */
typedef struct out_buf {
  fj_sink sink;
  fj_error err;
  size_t used;
  uint8_t data[16384];
} out_buf;

static void flush(out_buf *o) {
  if (o->used && !o->err) o->err = o->sink.write(o->sink.ctx, o->data, o->used);
  o->used = 0;
}

static void put(out_buf *o, const void *s, size_t n) {
  if (o->used + n > sizeof o->data) {
    flush(o);
    if (n > sizeof o->data) {
      if (!o->err) o->err = o->sink.write(o->sink.ctx, s, n);
      return;
    }
  }
  memcpy(o->data + o->used, s, n);
  o->used += n;
}

static bool is_ws(uint8_t c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

/* The token at structural i: from its offset to the next structural, minus
 * trailing whitespace. */
static void token(const fj_parser *p, uint32_t i, const uint8_t **s, size_t *n) {
  size_t start = p->hot.idx[i], end = fj__offset(p, i + 1);
  while (end > start + 1 && is_ws(p->hot.buf[end - 1]))
    end--;
  *s = p->hot.buf + start;
  *n = end - start;
}

/* ---- minify ---------------------------------------------------------------
 *
 * After validation, the output is the input with the whitespace between
 * tokens dropped: for each structural, either its one operator byte (only
 * whitespace can follow an operator up to the next structural), or the
 * bytes up to the next structural with trailing whitespace cut off (a
 * scalar: a string with its quotes, a number, a literal). Tokens of up to
 * 32 bytes are moved with 16-byte loads and stores when the input has 32
 * readable bytes there; the output goes straight into an fj_buffer's memory (the
 * whole output is at most the input's length), or through a 16 KiB window
 * on the stack in front of any other sink. */

/* Bytes that are a whole token on their own. */
static const bool is_op[256] = {
    ['{'] = true, ['}'] = true, ['['] = true, [']'] = true, [','] = true, [':'] = true};

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define FJ_TEXT_SSE2 1
#endif

/* The end of the token that starts at s and is followed by whitespace up to
 * e (s < e): e with the trailing whitespace cut off. */
static inline size_t trim_end(const uint8_t *buf, size_t s, size_t e) {
  if (!is_ws(buf[e - 1])) return e;
#ifdef FJ_TEXT_SSE2
  while (e - s >= 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(buf + e - 16));
    __m128i ws = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')),
                     _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))));
    unsigned keep = ~(unsigned)_mm_movemask_epi8(ws) & 0xFFFFu;
    if (keep) return e - 16 + (size_t)(32 - __builtin_clz(keep));
    e -= 16;
  }
#endif
  while (e > s + 1 && is_ws(buf[e - 1]))
    e--;
  return e;
}

#define FJ_MINIFY_WINDOW 16384u

typedef struct min_out {
  uint8_t *o, *end; /* free room; 32 bytes of slack past `end` */
  uint8_t *base;    /* start of the window's unflushed output */
  fj_sink sink;     /* or .write NULL when writing into a buffer directly */
  fj_error err;
} min_out;

static void min_flush(min_out *m) {
  size_t n = (size_t)(m->o - m->base);
  if (n && !m->err) m->err = m->sink.write(m->sink.ctx, m->base, n);
  m->o = m->base;
}

fj_error fj_minify(fj_parser *p, const void *json, size_t len, fj_sink sink) {
  if (!p || !fj__sink_usable(sink)) return FJ_ERR_INVALID_ARG;
  fj_error err = fj_parser_validate(p, json, len);
  if (err) return err;
  const uint8_t *buf = p->hot.buf;
  const uint32_t *idx = p->hot.idx;
  uint32_t n = p->hot.n;
  min_out m = {NULL, NULL, NULL, fj__counting_sink(sink), FJ_OK};
  uint8_t own[FJ_MINIFY_WINDOW + 32];
  fj_buffer *gb = NULL;
  if (sink.write == fj__buffer_sink_write) {
    gb = sink.ctx;
    if (len > SIZE_MAX - gb->len - 64) return FJ_ERR_NOMEM;
    err = fj__buffer_reserve(gb, gb->len + len + 64);
    if (err) return err;
    m.base = m.o = gb->data + gb->len;
    m.end = gb->data + gb->cap - 32; /* never reached: output <= input */
  } else {
    m.base = m.o = own;
    m.end = own + FJ_MINIFY_WINDOW;
  }
  for (uint32_t i = 0; i < n; i++) {
    size_t s = idx[i];
    uint8_t c = buf[s];
    if (is_op[c]) {
      if (FJ_UNLIKELY(m.o >= m.end)) min_flush(&m);
      *m.o++ = c;
      continue;
    }
    size_t e = trim_end(buf, s, i + 1 < n ? idx[i + 1] : len);
    size_t k = e - s;
    if (FJ_UNLIKELY((size_t)(m.end - m.o) < k)) {
      min_flush(&m);
      if (k > FJ_MINIFY_WINDOW) { /* a huge string: straight to the sink */
        if (!m.err) m.err = m.sink.write(m.sink.ctx, buf + s, k);
        continue;
      }
    }
#ifdef FJ_TEXT_SSE2
    if (k <= 32 && len - s >= 32) {
      _mm_storeu_si128((__m128i *)(void *)m.o,
                       _mm_loadu_si128((const __m128i *)(const void *)(buf + s)));
      if (k > 16)
        _mm_storeu_si128((__m128i *)(void *)(m.o + 16),
                         _mm_loadu_si128((const __m128i *)(const void *)(buf + s + 16)));
      m.o += k;
      continue;
    }
#endif
    memcpy(m.o, buf + s, k);
    m.o += k;
  }
  if (gb) {
    gb->len = (size_t)(m.o - gb->data);
    gb->data[gb->len] = 0;
    return FJ_OK;
  }
  min_flush(&m);
  return fj__counted_result(sink, m.err);
}

/* A newline and the indentation of `depth` levels. */
static void newline(out_buf *o, uint32_t depth, const fj_pretty_options *opt) {
  static const char spaces[] = "                                                                ";
  uint8_t nl = '\n';
  put(o, &nl, 1);
  size_t total = (size_t)depth * opt->indent;
  const char *fill = spaces;
  if (opt->use_tabs) fill = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
  size_t chunk = opt->use_tabs ? 32 : sizeof spaces - 1;
  while (total) {
    size_t k = total < chunk ? total : chunk;
    put(o, fill, k);
    total -= k;
  }
}

fj_error fj_pretty(fj_parser *p, const void *json, size_t len, const fj_pretty_options *opts,
                   fj_sink sink) {
  fj_pretty_options opt = opts ? *opts : (fj_pretty_options){0, false};
  if (!p || !fj__sink_usable(sink) || opt.indent > 16) return FJ_ERR_INVALID_ARG;
  if (!opt.indent) opt.indent = opt.use_tabs ? 1 : 2;
  fj_error err = fj_parser_validate(p, json, len);
  if (err) return err;
  out_buf o = {fj__counting_sink(sink), FJ_OK, 0, {0}};
  uint32_t depth = 0;
  for (uint32_t i = 0; i < p->hot.n && !o.err; i++) {
    uint8_t c = p->hot.buf[p->hot.idx[i]];
    switch (c) {
    case '[':
    case '{': {
      uint8_t next = fj__char(p, i + 1);
      if (next == ']' || next == '}') { /* empty: validation guarantees it matches */
        uint8_t pair[2] = {c, next};
        put(&o, pair, 2);
        i++;
        break;
      }
      put(&o, &c, 1);
      newline(&o, ++depth, &opt);
      break;
    }
    case ']':
    case '}':
      newline(&o, --depth, &opt);
      put(&o, &c, 1);
      break;
    case ',':
      put(&o, &c, 1);
      newline(&o, depth, &opt);
      break;
    case ':': put(&o, ": ", 2); break;
    default: {
      const uint8_t *s;
      size_t n;
      token(p, i, &s, &n);
      put(&o, s, n);
    }
    }
  }
  put(&o, "\n", 1);
  flush(&o);
  return fj__counted_result(sink, o.err);
}
