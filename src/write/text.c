/* Minify and pretty-print from the structural index. After validation,
 * every piece of output is either one structural character or the bytes
 * from one structural to the next with trailing whitespace cut off (a
 * string with its quotes, a number, a literal), copied unchanged. */
#include <string.h>

#include "fastjson/text.h"
#include "ondemand/internal.h"

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
  size_t start = p->idx[i], end = fj__offset(p, i + 1);
  while (end > start + 1 && is_ws(p->buf[end - 1]))
    end--;
  *s = p->buf + start;
  *n = end - start;
}

fj_error fj_minify(fj_parser *p, const void *json, size_t len, fj_sink sink) {
  if (!p || !sink.write) return FJ_ERR_INVALID_ARG;
  fj_error err = fj_parser_validate(p, json, len);
  if (err) return err;
  out_buf o = {sink, FJ_OK, 0, {0}};
  for (uint32_t i = 0; i < p->n && !o.err; i++) {
    const uint8_t *s;
    size_t n;
    token(p, i, &s, &n);
    put(&o, s, n);
  }
  flush(&o);
  return o.err;
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
  if (!p || !sink.write || opt.indent > 16) return FJ_ERR_INVALID_ARG;
  if (!opt.indent) opt.indent = opt.use_tabs ? 1 : 2;
  fj_error err = fj_parser_validate(p, json, len);
  if (err) return err;
  out_buf o = {sink, FJ_OK, 0, {0}};
  uint32_t depth = 0;
  for (uint32_t i = 0; i < p->n && !o.err; i++) {
    uint8_t c = p->buf[p->idx[i]];
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
  return o.err;
}
