/* Run-time support of generated struct readers: typed reads with
 * schema-level messages, the key helpers of the field dispatch, and error
 * paths built while an error unwinds (so that success pays nothing). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "codec/internal.h"
#include "fastjson/codec.h"
#include "ondemand/internal.h"
#include "ondemand/number.h"

/* ---- errors and paths ----------------------------------------------------- */

void fj_decoder_init(fj_decoder *d, fj_parser *p, fj_arena *arena, uint32_t flags,
                     fj_decode_error *err) {
  d->parser = p;
  d->arena = arena;
  d->flags = flags;
  d->failed = false;
  d->whole = false;
  d->err = err;
  d->path_at = FJ_DECODE_PATH_MAX - 1;
  d->path_truncated = false;
  err->code = FJ_OK;
  err->offset = 0;
  err->path[FJ_DECODE_PATH_MAX - 1] = '\0';
  err->path[0] = err->detail[0] = err->message[0] = '\0';
}

static fj_error vfail(fj_decoder *d, fj_error code, size_t offset, const char *fmt, va_list ap) {
  if (d->failed) return code;
  d->failed = true;
  d->err->code = code;
  d->err->offset = offset;
  vsnprintf(d->err->detail, sizeof d->err->detail, fmt, ap);
  return code;
}

fj_error fj_decode_fail(fj_decoder *d, fj_error code, size_t offset, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(d, code, offset, fmt, ap);
  va_end(ap);
  return code;
}

/* An error the cursor returned and nobody described yet: the parser knows
 * where it happened. */
static fj_error describe(fj_decoder *d, fj_error e) {
  if (d->failed || e == FJ_OK || e == FJ_END) return e;
  fj_location loc = {0, 0, 0};
  fj_parser_last_error(d->parser, &loc);
  return fj_decode_fail(d, e, loc.offset, "%s", fj_error_message(e));
}

/* Prepends `len` bytes to the path, or marks it truncated: the innermost
 * segments, which say most about the error, are the ones kept. */
static void prepend(fj_decoder *d, const char *s, size_t len) {
  if (d->path_truncated) return;
  if (len + 4 > d->path_at) { /* keep room for the "/..." marker */
    d->path_truncated = true;
    return;
  }
  d->path_at -= len;
  memcpy(d->err->path + d->path_at, s, len);
}

/* Input text for a message: at most 64 bytes of s (cut at a UTF-8 code point
 * boundary), with '"', '\\' and control characters escaped as in JSON, so
 * that no text from the input can end the quotes, the line or the string
 * (a NUL) or reach a terminal as control codes. `out` has room for 6 * 64 + 1
 * bytes; returns it. */
#define QUOTED_MAX (6 * 64 + 1)
static const char *quoted(char *out, const char *s, size_t n) {
  if (n > 64) {
    n = 64;
    while (n && ((unsigned char)s[n] & 0xC0) == 0x80) /* s[n] continues a code point */
      n--;
  }
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      out[k++] = '\\';
      out[k++] = (char)c;
    } else if (c < 0x20 || c == 0x7F) {
      k += (size_t)snprintf(out + k, 7, "\\u%04x", c);
    } else {
      out[k++] = (char)c;
    }
  }
  out[k] = '\0';
  return out;
}

fj_error fj_decode_path_key(fj_decoder *d, const char *key, size_t len, fj_error e) {
  describe(d, e);
  char seg[FJ_DECODE_PATH_MAX];
  size_t n = 0;
  seg[n++] = '/';
  for (size_t i = 0; i < len && n + 7 < sizeof seg; i++) { /* RFC 6901: ~ → ~0, / → ~1 */
    unsigned char c = (unsigned char)key[i];
    if (key[i] == '~' || key[i] == '/') {
      seg[n++] = '~';
      seg[n++] = key[i] == '~' ? '0' : '1';
    } else if (c < 0x20 || c == 0x7F) { /* as in JSON: a NUL would end the path */
      n += (size_t)snprintf(seg + n, 7, "\\u%04x", c);
    } else {
      seg[n++] = key[i];
    }
  }
  prepend(d, seg, n);
  return e;
}

fj_error fj_decode_path_index(fj_decoder *d, size_t index, fj_error e) {
  describe(d, e);
  char seg[32];
  int n = snprintf(seg, sizeof seg, "/%zu", index);
  prepend(d, seg, (size_t)n);
  return e;
}

/* The structural at byte `offset` among the own structurals of the
 * container opened at structural `start` (not inside its values): its
 * index, with the number of the container's commas before it in *commas
 * (an array's element index); 0 when the offset is deeper, or not there.
 * For errors only: it walks the container from its start. */
static uint32_t own_structural(const fj_parser *p, uint32_t start, size_t offset, size_t *commas) {
  int64_t depth = 0;
  *commas = 0;
  for (uint32_t q = start + 1; q < p->hot.n; q++) {
    const size_t at = fj__offset(p, q);
    if (at >= offset) return at == offset && depth == 0 ? q : 0;
    const uint8_t c = fj__char(p, q);
    if ((depth += fj__bracket_delta[c]) < 0) return 0; /* the container's end */
    *commas += c == ',' && depth == 0;
  }
  return 0;
}

/* An error in the object opened at `start`, described; when it lies where
 * a field's value should start (`"a":.5`, `"a":}`), it is the value's, so
 * its path names the key: unescaped into a local buffer when it fits (no
 * allocation, which could fail and change the message), else raw. */
static fj_error field_start_error(fj_decoder *d, uint32_t start, fj_error e) {
  describe(d, e);
  fj_parser *p = d->parser;
  size_t commas;
  const uint32_t q =
      e == FJ_ERR_EXPECTED_VALUE ? own_structural(p, start, d->err->offset, &commas) : 0;
  if (q < start + 3 || fj__char(p, q - 1) != ':' || fj__char(p, q - 2) != '"') return e;
  const uint8_t *raw, *close, *err_at;
  size_t n, raw_n;
  fj__raw_key(p, q - 2, &raw, &raw_n);
  uint8_t key[256];
  const char *k = (const char *)key;
  if (raw_n > sizeof key ||
      fj__unescape(raw - 1, raw + raw_n + 1, key, &n, &close, &err_at, p->flags) != FJ_OK) {
    k = (const char *)raw;
    n = raw_n;
  }
  return fj_decode_path_key(d, k, n, e);
}

fj_error fj_decoder_finish(fj_decoder *d, fj_error e) {
  if (e == FJ_OK || e == FJ_END) return FJ_OK;
  describe(d, e);
  fj_decode_error *err = d->err;
  const char *path = err->path + d->path_at;
  size_t at = 0;
  if (d->path_truncated) {
    memcpy(err->path, "/...", 4);
    at = 4;
  }
  memmove(err->path + at, path, strlen(path) + 1);
  snprintf(err->message, sizeof err->message, "%s at byte %zu: %s",
           d->whole       ? "(document)"
           : err->path[0] ? err->path
                          : "(root)",
           err->offset, err->detail);
  return e;
}

fj_error fj_decode_begin(fj_decode_doc *doc, fj_parser *parser, const void *json, size_t len,
                         fj_arena *arena, uint32_t flags, fj_decode_error *err) {
  if (!err) err = &doc->scratch;
  doc->own = NULL;
  memset(&doc->root, 0, sizeof doc->root);
  fj_decoder_init(&doc->d, NULL, arena, flags, err);
  doc->d.whole = true; /* until the document has parsed: no value's path yet */
  if (!arena)          /* everything read goes there */
    return fj_decode_fail(&doc->d, FJ_ERR_INVALID_ARG, 0, "no arena to read into");
  const uint32_t known =
      FJ_DECODE_UNKNOWN_FIELDS_ERROR | FJ_DECODE_DUPLICATES_LAST_WINS | FJ_DECODE_VALIDATE;
  if (flags & ~known) /* a flag of a later version, or a value that is no flags */
    return fj_decode_fail(&doc->d, FJ_ERR_INVALID_ARG, 0, "unknown decode flags 0x%x",
                          (unsigned)(flags & ~known));
  if (!parser) {
    fj_parser_options opts = {0};
    if (arena->alloc.malloc) opts.allocator = &arena->alloc;
    fj_error e = fj_parser_new(&doc->own, &opts);
    if (e) return fj_decode_fail(&doc->d, e, 0, "%s", fj_error_message(e));
    parser = doc->own;
  }
  doc->d.parser = parser;
  fj_error e = FJ_OK;
  if (flags & FJ_DECODE_VALIDATE) e = fj_parser_validate(parser, json, len);
  /* an error is described from the parser's location (fj_decode_end()) */
  if (!e) e = fj_parser_parse(parser, json, len, &doc->root);
  doc->d.whole = e != FJ_OK;
  return e;
}

fj_error fj_decode_end(fj_decode_doc *doc, fj_error e) {
  e = fj_decoder_finish(&doc->d, e);
  fj_parser_free(doc->own);
  doc->own = NULL;
  return e;
}

fj_error fj_decode_document(fj_parser *parser, const void *json, size_t len, fj_arena *arena,
                            uint32_t flags, fj_decode_error *err,
                            fj_error (*read)(fj_decoder *, const fj_value *, void *), void *out) {
  fj_decode_doc doc;
  fj_error e = fj_decode_begin(&doc, parser, json, len, arena, flags, err);
  if (!e) e = read(&doc.d, &doc.root, out);
  return fj_decode_end(&doc, e);
}

/* ---- typed reads ------------------------------------------------------------ */

bool fj_decode_is_null(const fj_value *v) {
  const fj_parser *p = v->parser;
  return fj__char(p, v->pos) == 'n';
}

fj_error fj_decode_null(fj_decoder *d, const fj_value *v) {
  bool is_null;
  return describe(d, fj_value_is_null(v, &is_null));
}

fj_error fj_decode_cursor(fj_decoder *d, fj_error e) { return describe(d, e); }

static const char *type_name(const fj_value *v) {
  switch (fj__char(v->parser, v->pos)) {
  case '{': return "object";
  case '[': return "array";
  case '"': return "string";
  case 't':
  case 'f': return "boolean";
  case 'n': return "null";
  default: return "number";
  }
}

/* Why the literal or number at v is malformed (FJ_ERR_BAD_LITERAL or
 * FJ_ERR_TRUNCATED, FJ_ERR_BAD_NUMBER), or FJ_OK: `nulll` is no null of the
 * wrong type. The type's own getter finds it (v's handle passed the caller's
 * getter already); a number out of range is well formed. */
static fj_error malformed(const fj_value *v) {
  bool b;
  double x;
  fj_error e;
  switch (fj__char(v->parser, v->pos)) {
  case 't':
  case 'f': return fj_value_get_bool(v, &b);
  case 'n': return fj_value_is_null(v, &b);
  case '"':
  case '[':
  case '{': return FJ_OK;
  default: e = fj_value_get_double(v, &x); return e == FJ_ERR_BAD_NUMBER ? e : FJ_OK;
  }
}

/* A value of the wrong type: "expected int32, got string", or for null the
 * nullability message the issue asks for; a malformed one is described as
 * such. */
static fj_error wrong_type(fj_decoder *d, const fj_value *v, const char *what) {
  size_t at = fj_value_offset(v);
  fj_error e = malformed(v);
  if (e) return describe(d, e);
  if (fj_decode_is_null(v))
    return fj_decode_fail(d, FJ_ERR_WRONG_TYPE, at, "null is not allowed here: expected %s", what);
  return fj_decode_fail(d, FJ_ERR_WRONG_TYPE, at, "expected %s, got %s", what, type_name(v));
}

/* Describes a getter's failure in terms of the schema type `what`. */
static fj_error number_error(fj_decoder *d, const fj_value *v, fj_error e, const char *what) {
  const char *raw = "";
  size_t n = 0;
  switch (e) {
  case FJ_ERR_WRONG_TYPE: return wrong_type(d, v, what);
  case FJ_ERR_NUMBER_RANGE:
    fj_value_get_raw(v, &raw, &n);
    return fj_decode_fail(d, e, fj_value_offset(v), "%.*s is out of range for %s",
                          (int)(n > 64 ? 64 : n), raw, what);
  case FJ_ERR_NOT_INTEGER:
    fj_value_get_raw(v, &raw, &n);
    return fj_decode_fail(d, e, fj_value_offset(v), "%.*s is not an integer (%s)",
                          (int)(n > 64 ? 64 : n), raw, what);
  default: return describe(d, e);
  }
}

/* The text of the number at v, when v is a current handle to one. */
static inline FJ_ALWAYS_INLINE const uint8_t *number_text(const fj_value *v) {
  if (FJ_UNLIKELY(fj__check_value(v) != FJ_OK)) return NULL;
  uint8_t c = fj__char(v->parser, v->pos);
  if (c != '-' && (unsigned)(c - '0') > 9u) return NULL;
  return v->parser->hot.buf + v->parser->hot.idx[v->pos];
}

/* Whether a number's text of `len` bytes at s ends where a number may end. */
static inline FJ_ALWAYS_INLINE bool number_ends(const fj_parser *p, const uint8_t *s, size_t len) {
  return s + len == p->hot.buf + p->hot.len || fj__is_delimiter(s[len]);
}

/* Fast paths of the typed reads: the number parsers once, straight from the
 * text; anything unusual (another type, an error) takes the public getter,
 * which describes it exactly as before. */
static inline FJ_ALWAYS_INLINE bool fast_int64(const fj_value *v, int64_t *out) {
  const uint8_t *s = number_text(v);
  if (FJ_UNLIKELY(!s)) return false;
  uint64_t m;
  int neg;
  size_t len;
  if (!fj__integer_text(s, v->parser->hot.buf + v->parser->hot.len, &m, &neg, &len) ||
      !number_ends(v->parser, s, len))
    return false;
  if (!neg) {
    if (FJ_UNLIKELY(m > (uint64_t)INT64_MAX)) return false;
    *out = (int64_t)m;
  } else {
    if (FJ_UNLIKELY(m > (uint64_t)INT64_MAX + 1)) return false;
    *out = m == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)m;
  }
  return true;
}

static inline FJ_ALWAYS_INLINE fj_error decode_int64(fj_decoder *d, const fj_value *v,
                                                     int64_t *out) {
  if (FJ_UNLIKELY(!out)) return FJ_ERR_INVALID_ARG;
  if (FJ_LIKELY(fast_int64(v, out))) return FJ_OK;
  fj_error e = fj_value_get_int64(v, out);
  return e ? number_error(d, v, e, "int64") : FJ_OK;
}

static inline FJ_ALWAYS_INLINE fj_error decode_int32(fj_decoder *d, const fj_value *v,
                                                     int32_t *out) {
  if (FJ_UNLIKELY(!out)) return FJ_ERR_INVALID_ARG;
  int64_t x;
  if (FJ_LIKELY(fast_int64(v, &x)) && x >= INT32_MIN && x <= INT32_MAX) {
    *out = (int32_t)x;
    return FJ_OK;
  }
  fj_error e = fj_value_get_int64(v, &x);
  if (!e && (x < INT32_MIN || x > INT32_MAX)) e = FJ_ERR_NUMBER_RANGE;
  if (e) return number_error(d, v, e, "int32");
  *out = (int32_t)x;
  return FJ_OK;
}

static inline FJ_ALWAYS_INLINE fj_error decode_uint64(fj_decoder *d, const fj_value *v,
                                                      uint64_t *out) {
  if (FJ_UNLIKELY(!out)) return FJ_ERR_INVALID_ARG;
  const uint8_t *s = number_text(v);
  uint64_t m;
  int neg;
  size_t len;
  if (FJ_LIKELY(s) &&
      fj__integer_text(s, v->parser->hot.buf + v->parser->hot.len, &m, &neg, &len) &&
      (!neg || !m) && number_ends(v->parser, s, len)) { /* "-0" is 0 */
    *out = m;
    return FJ_OK;
  }
  fj_error e = fj_value_get_uint64(v, out);
  return e ? number_error(d, v, e, "uint64") : FJ_OK;
}

/* The short decimal (prices, coordinates) converted here, without the
 * call: w <= 2^53, so one exact division rounds correctly (Clinger). */
static inline FJ_ALWAYS_INLINE bool short_double(const uint8_t *s, const uint8_t *end,
                                                 double *out) {
#if FJ_SWAR && FJ_HAVE_CLINGER
  uint64_t w;
  unsigned n;
  int neg;
  if (!fj__short_decimal_text(s, end, &w, &n, &neg) || w > (UINT64_C(1) << 53)) return false;
  const double x = (double)w / fj__pow10_exact[n];
  *out = neg ? -x : x;
  return true;
#else
  (void)s, (void)end, (void)out;
  return false;
#endif
}

/* *out is written only with FJ_OK, as for the integers: a refused number
 * (out of range: the getter's +-inf; malformed: a prefix's value) is not
 * what was read. */
static inline FJ_ALWAYS_INLINE fj_error decode_double(fj_decoder *d, const fj_value *v,
                                                      double *out) {
  if (FJ_UNLIKELY(!out)) return FJ_ERR_INVALID_ARG;
  const uint8_t *s = number_text(v);
  size_t len;
  double x;
  if (FJ_LIKELY(s) && short_double(s, v->parser->hot.buf + v->parser->hot.len, out)) return FJ_OK;
  if (FJ_LIKELY(s) &&
      fj__parse_double(s, v->parser->hot.buf + v->parser->hot.len, &x, &len) == FJ_OK &&
      number_ends(v->parser, s, len)) {
    *out = x;
    return FJ_OK;
  }
  fj_error e = (fj_value_get_double)(v, &x); /* the fast paths above failed */
  if (e) return number_error(d, v, e, "number");
  *out = x;
  return FJ_OK;
}

static inline FJ_ALWAYS_INLINE fj_error decode_bool(fj_decoder *d, const fj_value *v, bool *out) {
  fj_error e = fj_value_get_bool(v, out);
  if (e == FJ_ERR_WRONG_TYPE) return wrong_type(d, v, "boolean");
  return describe(d, e);
}

fj_error fj_decode_string_view(fj_decoder *d, const fj_value *v, const char **s, size_t *len) {
  fj_error e = fj_value_get_string(v, s, len);
  if (e == FJ_ERR_WRONG_TYPE) return wrong_type(d, v, "string");
  return describe(d, e);
}

/* Copies `n` bytes into the arena as a NUL-terminated fj_str; `room`
 * bytes are readable from s. The arena's bump step is taken here while the
 * block has room (fj_arena_alloc() rounds the same way), and a string
 * shorter than 16 bytes (ids, names, tags) moves as one 16-byte block: its
 * allocation has 16 bytes, and the input has them when `room` says so. The
 * two calls (allocation, copy) were most of a short string's cost. */
static fj_error copy_string(fj_decoder *d, const fj_value *v, const void *s, size_t n, size_t room,
                            fj_str *out) {
  fj_arena *a = d->arena;
  const size_t rounded = (n + FJ_ARENA_ALIGN) & ~(size_t)(FJ_ARENA_ALIGN - 1); /* n + 1 bytes */
  char *copy;
  if (FJ_LIKELY(a->ptr && n < SIZE_MAX - FJ_ARENA_ALIGN && (size_t)(a->end - a->ptr) >= rounded)) {
    copy = a->ptr;
    a->ptr += rounded;
    if (n < 16 && rounded >= 16 && room >= 16)
      memcpy(copy, s, 16);
    else
      memcpy(copy, s, n);
  } else {
    copy = fj_arena_alloc(a, n + 1);
    if (FJ_UNLIKELY(!copy))
      return fj_decode_fail(d, FJ_ERR_NOMEM, fj_value_offset(v), "out of memory");
    memcpy(copy, s, n);
  }
  copy[n] = '\0';
  out->data = copy;
  out->len = n;
  return FJ_OK;
}

/* The common string has no escapes: its raw bytes are its value. True with
 * them in *s, *n; false for anything else (escapes, another type, a bad
 * handle), which the public getter then reads or describes. */
static inline FJ_ALWAYS_INLINE bool raw_string(const fj_value *v, const char **s, size_t *n) {
  if (FJ_UNLIKELY(fj__check_value(v) != FJ_OK) || fj__char(v->parser, v->pos) != '"') return false;
  const fj_parser *p = v->parser;
  const uint8_t *start = p->hot.buf + p->hot.idx[v->pos];
  size_t len = (size_t)(fj__string_close(p, v->pos) - start - 1);
  if (fj__find_backslash(p, start + 1, len) != len) return false;
  *s = (const char *)start + 1;
  *n = len;
  return true;
}

static inline FJ_ALWAYS_INLINE fj_error decode_string(fj_decoder *d, const fj_value *v,
                                                      fj_str *out) {
  const char *s;
  size_t n;
  if (FJ_LIKELY(raw_string(v, &s, &n))) {
    const fj_parser *p = v->parser;
    return copy_string(d, v, s, n, (size_t)(p->hot.buf + p->hot.len - (const uint8_t *)s), out);
  }
  fj_error e = fj_decode_string_view(d, v, &s, &n); /* unescaped: no room known past it */
  return e ? e : copy_string(d, v, s, n, n, out);
}

/* The typed reads, exported; the record reader inlines the bodies above. */
fj_error fj_decode_int64(fj_decoder *d, const fj_value *v, int64_t *out) {
  return decode_int64(d, v, out);
}
fj_error fj_decode_int32(fj_decoder *d, const fj_value *v, int32_t *out) {
  return decode_int32(d, v, out);
}
fj_error fj_decode_uint64(fj_decoder *d, const fj_value *v, uint64_t *out) {
  return decode_uint64(d, v, out);
}
fj_error fj_decode_double(fj_decoder *d, const fj_value *v, double *out) {
  return decode_double(d, v, out);
}
fj_error fj_decode_bool(fj_decoder *d, const fj_value *v, bool *out) {
  return decode_bool(d, v, out);
}
fj_error fj_decode_string(fj_decoder *d, const fj_value *v, fj_str *out) {
  return decode_string(d, v, out);
}

/* ---- containers --------------------------------------------------------------- */

static inline FJ_ALWAYS_INLINE fj_error decode_object(fj_decoder *d, const fj_value *v,
                                                      fj_object *o, const char *what) {
  fj_error e = fj_value_get_object(v, o);
  if (e == FJ_ERR_WRONG_TYPE) return wrong_type(d, v, what);
  return describe(d, e);
}

/* Generated code enters unions, maps and nested arrays here, recursing on
 * the C stack as records do (read_record()): the same depth cap. */
fj_error fj_decode_object(fj_decoder *d, const fj_value *v, fj_object *o, const char *what) {
  if (FJ_UNLIKELY(fj__decode_too_deep(d))) return fj__decode_depth_error(d, v);
  return decode_object(d, v, o, what);
}

fj_error fj_decode_array(fj_decoder *d, const fj_value *v, fj_array *a) {
  if (FJ_UNLIKELY(fj__decode_too_deep(d))) return fj__decode_depth_error(d, v);
  fj_error e = fj_value_get_array(v, a);
  if (e == FJ_ERR_WRONG_TYPE) return wrong_type(d, v, "array");
  return describe(d, e);
}

fj_error fj_decode_next_field(fj_decoder *d, fj_object *o, fj_value *key, const char **raw,
                              size_t *raw_len, fj_value *value) {
  /* the records' step: the common shape in registers, else fj_object_next */
  return fj__decode_next_raw(d, o, key, raw, raw_len, value);
}

fj_error fj_decode_key(fj_decoder *d, const fj_value *key, const char **s, size_t *len) {
  return describe(d, fj_value_get_string(key, s, len));
}

fj_error fj_decode_object_restart(fj_decoder *d, fj_object *o) {
  fj_parser *p = d->parser;
  /* only an open iteration of the current document whose object the cursor
   * has not left can go back: its fields are still where they were */
  if (o->state == FJ_ITER_DONE || !fj__entry_open(p, o->serial, o->depth))
    return fj_decode_fail(d, FJ_ERR_OUT_OF_ORDER, fj__offset(p, o->start),
                          "cannot restart the object");
  p->hot.depth = o->depth;
  p->hot.cur = o->serial;
  p->hot.pos = o->start + 1;
  o->state = FJ_ITER_FRESH;
  o->last = o->start; /* as a fresh iteration's */
  return FJ_OK;
}

static fj_error alloc_zeroed(fj_decoder *d, size_t at, size_t count, size_t size, void **out) {
  *out = NULL;
  if (!count) return FJ_OK;
  if (size && count > SIZE_MAX / size)
    return fj_decode_fail(d, FJ_ERR_NOMEM, at, "array too large");
  void *m = fj_arena_alloc(d->arena, count * size);
  if (!m) return fj_decode_fail(d, FJ_ERR_NOMEM, at, "out of memory");
  memset(m, 0, count * size);
  *out = m;
  return FJ_OK;
}

fj_error fj_decode_map_alloc(fj_decoder *d, fj_object *o, size_t elem_size, fj_str **keys,
                             void **values, size_t *count) {
  fj_error e = fj_object_count(o, count);
  if (e) return field_start_error(d, o->start, e);
  size_t at = fj__offset(d->parser, o->start);
  void *k;
  if ((e = alloc_zeroed(d, at, *count, sizeof(fj_str), &k))) return e;
  *keys = k;
  return alloc_zeroed(d, at, *count, elem_size, values);
}

fj_error fj_decode_alloc(fj_decoder *d, const fj_value *v, size_t size, void **out) {
  /* the arena's bump step inline, as for strings: every pointed-to child
   * (a recursive union's nodes) comes here */
  fj_arena *a = d->arena;
  const size_t rounded = (size + FJ_ARENA_ALIGN - 1) & ~(size_t)(FJ_ARENA_ALIGN - 1);
  if (FJ_LIKELY(a->ptr && size && size < SIZE_MAX - FJ_ARENA_ALIGN &&
                (size_t)(a->end - a->ptr) >= rounded)) {
    *out = a->ptr;
    a->ptr += rounded;
    memset(*out, 0, size);
    return FJ_OK;
  }
  return alloc_zeroed(d, fj_value_offset(v), 1, size, out);
}

/* ---- policies --------------------------------------------------------------- */

fj_error fj__decode_depth_error(fj_decoder *d, const fj_value *v) {
  return fj_decode_fail(d, FJ_ERR_DEPTH, fj_value_offset(v),
                        "nested deeper than %u levels (FJ_DECODE_MAX_DEPTH)", FJ_DECODE_MAX_DEPTH);
}

fj_error fj_decode_missing(fj_decoder *d, const fj_object *o, const char *field) {
  return fj_decode_fail(d, FJ_ERR_NO_SUCH_FIELD, fj__offset(d->parser, o->start),
                        "missing required field \"%s\"", field);
}

fj_error fj_decode_duplicate(fj_decoder *d, const fj_value *key, const char *field) {
  char q[QUOTED_MAX];
  fj_error e = fj_decode_fail(d, FJ_ERR_DUPLICATE_KEY, fj_value_offset(key), "duplicate key \"%s\"",
                              quoted(q, field, strlen(field)));
  return fj_decode_path_key(d, field, strlen(field), e);
}

fj_error fj_decode_map_key(fj_decoder *d, const fj_value *key, fj_str *keys, size_t total,
                           fj_decode_keyset *set, size_t *index) {
  if (set->n >= total)
    return fj_decode_fail(d, FJ_ERR_INVALID_ARG, fj_value_offset(key), "map full");
  fj_error e = decode_string(d, key, &keys[set->n]);
  if (e) return e;
  if (!set->slots && set->n == 0 && total > 16 && total <= UINT32_MAX / 2) {
    size_t size = 32;
    while (size < 2 * total)
      size *= 2;
    void *t = fj_arena_alloc(d->arena, size * sizeof *set->slots);
    if (!t) return fj_decode_fail(d, FJ_ERR_NOMEM, fj_value_offset(key), "out of memory");
    memset(t, 0, size * sizeof *set->slots);
    set->slots = t;
    set->mask = size - 1;
  }
  size_t j = fj__keyset_find(keys, set);
  if (j == set->n) {
    *index = set->n++;
    return FJ_OK;
  }
  if (!(d->flags & FJ_DECODE_DUPLICATES_LAST_WINS))
    return fj_decode_duplicate(d, key, keys[j].data);
  *index = j;
  return FJ_OK;
}

fj_error fj_decode_unknown(fj_decoder *d, const fj_value *key) {
  const char *s;
  size_t n;
  fj_error e = fj_decode_key(d, key, &s, &n);
  if (e) return e;
  char q[QUOTED_MAX];
  e = fj_decode_fail(d, FJ_ERR_NO_SUCH_FIELD, fj_value_offset(key), "unknown field \"%s\"",
                     quoted(q, s, n));
  return fj_decode_path_key(d, s, n, e);
}

fj_error fj_decode_enum(fj_decoder *d, const fj_value *v, const char *const *values,
                        const uint32_t *lens, size_t n, const char *type_name, size_t *index) {
  const char *s;
  size_t len;
  fj_error e = fj_decode_string_view(d, v, &s, &len);
  if (e) return e;
  for (size_t i = 0; i < n; i++)
    if (lens[i] == len && memcmp(values[i], s, len) == 0) {
      *index = i;
      return FJ_OK;
    }
  return fj_decode_bad_enum(d, v, type_name);
}

fj_error fj_decode_bad_enum(fj_decoder *d, const fj_value *v, const char *type) {
  const char *s;
  size_t n;
  fj_error e = fj_decode_string_view(d, v, &s, &n);
  if (e) return e;
  char q[QUOTED_MAX];
  return fj_decode_fail(d, FJ_ERR_WRONG_TYPE, fj_value_offset(v), "\"%s\" is not a value of %s",
                        quoted(q, s, n), type);
}

/* ---- records: table-driven key dispatch --------------------------------------
 * What a generated reader spends per field outside its value: stepping to
 * the next field and finding which member the key names. The step is the
 * cursor's own (fj_object_next) taken in registers for the common shape, a
 * well-formed `, "key": value` after a value that was read or is a scalar;
 * anything else (the end, a container to skip, a possible error) goes
 * through fj_object_next itself, so behaviour and errors stay the cursor's.
 * The key is compared raw with the field expected next in schema order,
 * else looked up in the record's hash table; a key with escapes is
 * unescaped and looked up again. */

#define NAME_HAS_BACKSLASH 0x80000000u

static bool policy_on(int per_type, uint32_t flags, uint32_t bit) {
  return per_type < 0 ? (flags & bit) != 0 : per_type > 0;
}

/* Out of line: inlined into read_fields(), abc read 8% slower, flat 4%. */
static FJ_NOINLINE void fields_init(fj_decoder *d, const fj_object *o, const fj_decode_record *r,
                                    uint64_t *seen, fj_decode_fields *it) {
  /* member by member: `o` was usually just stored by fj_value_get_object()
   * in 8-byte pieces, which a 16-byte load of a whole-struct copy
   * cannot take from the store buffer (it waits for them to retire);
   * GCC merges four 4-byte copies into one, two 8-byte ones it keeps */
  it->o.parser = o->parser;
  it->o.serial = o->serial;
  uint64_t start_depth, last_state;
  memcpy(&start_depth, &o->start, 8);
  memcpy(&last_state, &o->last, 8);
  memcpy(&it->o.start, &start_depth, 8);
  memcpy(&it->o.last, &last_state, 8);
  it->r = r;
  it->seen = seen;
  it->want = 0;
  it->unknown_error = policy_on(r->unknown_error, d->flags, FJ_DECODE_UNKNOWN_FIELDS_ERROR);
  it->last_wins = policy_on(r->last_wins, d->flags, FJ_DECODE_DUPLICATES_LAST_WINS);
  memset(seen, 0, (r->nfields + 63) / 64 * sizeof *seen);
}

/* What fast_next_field() found. */
enum { FAST_GENERAL, FAST_FIELD, FAST_CLOSED };

/* Leaves the object whose '}' is structural pos, as fj_object_next() does
 * (the root's only when nothing follows it: the general step reports
 * trailing content). FAST_GENERAL, having changed nothing, otherwise. */
static inline int fast_close(fj_parser *p, fj_object *o, uint32_t pos, fj_value *value) {
  if (FJ_UNLIKELY(o->depth == 1 && pos + 1 != p->hot.n)) return FAST_GENERAL;
  p->hot.pos = pos + 1;
  p->hot.left = fj__left_word(o->start, pos + 1); /* as the cursor leaves a container */
  p->hot.depth--;
  p->hot.cur = p->hot.open[p->hot.depth];
  o->state = FJ_ITER_DONE;
  memset(value, 0, sizeof *value); /* as the general step leaves it */
  return FAST_CLOSED;
}

/* The cursor's step to the next field, for the common shapes only: a field
 * (FAST_FIELD) or the object's end (FAST_CLOSED); FAST_GENERAL, having
 * changed nothing, for anything else. Every record and every union ends
 * here, so the end is worth taking without the call. */
static inline int fast_next_field(fj_parser *p, fj_object *o, uint32_t *key_pos, fj_value *value) {
  /* the handle's fields are read before o->state and o->last are stored: a
   * wide load over a fresh narrow store would stall store forwarding */
  const uint32_t depth = o->depth;
  const uint64_t serial = o->serial;
  if (FJ_UNLIKELY(p->hot.cur != serial)) return FAST_GENERAL; /* open, not done */
  const uint8_t *buf = p->hot.buf;
  const uint32_t *idx = p->hot.idx, n = p->hot.n;
  uint32_t pos = p->hot.pos;
  if (pos == o->last) { /* the previous value was not entered: a scalar is one structural */
    if (FJ_UNLIKELY(pos >= n)) return FAST_GENERAL;
    uint8_t c = buf[idx[pos]];
    if (c == '[' || c == '{') return FAST_GENERAL;
    pos++;
  }
  if (FJ_UNLIKELY(pos >= n)) return FAST_GENERAL;
  uint8_t c = buf[idx[pos]];
  if (c == '}') return fast_close(p, o, pos, value);
  if (FJ_UNLIKELY(pos + 3 > n)) return FAST_GENERAL;
  if (o->state == FJ_ITER_MIDDLE) {
    if (FJ_UNLIKELY(c != ',' || ++pos + 3 > n)) return FAST_GENERAL;
    c = buf[idx[pos]];
  }
  const unsigned t = fj__type_of[buf[idx[pos + 2]]];
  if (FJ_UNLIKELY(c != '"' || buf[idx[pos + 1]] != ':' || !t)) return FAST_GENERAL;
  *key_pos = pos;
  fj__put_handle_t(value, p, pos + 2, depth, serial, t);
  fj__step_over(&p->hot, pos + 2, t); /* as fj_object_next() */
  o->state = FJ_ITER_MIDDLE;
  o->last = pos + 2;
  return FAST_FIELD;
}

/* The field named by key bytes `k` (raw: as written, compared only with
 * names without a backslash), or -1. */
static int lookup(const fj_decode_record *r, const char *k, size_t n, bool raw) {
  if (!r->nfields) return -1;
  for (uint32_t i = fj_decode_key_hash(k, n) & r->mask;; i = (i + 1) & r->mask) {
    uint32_t slot = r->slots[i];
    if (!slot) return -1;
    uint32_t f = slot - 1, len = r->lens[f];
    if (!raw) len &= ~NAME_HAS_BACKSLASH;
    if (len == n && fj__bytes_equal(k, r->names[f], n)) return (int)f;
  }
}

/* At the end of the object: every required field must have been read. */
static fj_error check_required(fj_decoder *d, const fj_decode_fields *it) {
  const fj_decode_record *r = it->r;
  for (uint32_t w = 0; w < (r->nfields + 63) / 64; w++) {
    uint64_t missing = r->required[w] & ~it->seen[w];
    if (FJ_UNLIKELY(missing)) {
      uint32_t f = w * 64;
      while (!(missing & 1)) /* the first missing one, as the schema lists them */
        missing >>= 1, f++;
      return fj_decode_missing(d, &it->o, r->names[f]);
    }
  }
  return FJ_END;
}

/* The next field of `o`: its key's structural and raw bytes, its value. */
static inline fj_error next_raw(fj_decoder *d, fj_object *o, uint32_t *key_pos, const char **k,
                                size_t *n, fj_value *value) {
  fj_parser *p = d->parser;
  const int r = fast_next_field(p, o, key_pos, value);
  if (r == FAST_CLOSED) return FJ_END;
  if (FJ_UNLIKELY(r == FAST_GENERAL)) {
    fj_value key;
    fj_error e = fj_object_next(o, &key, value);
    if (e) return e == FJ_END ? e : field_start_error(d, o->start, e);
    *key_pos = key.pos;
  }
  const uint8_t *open = p->hot.buf + p->hot.idx[*key_pos],
                *close = p->hot.buf + p->hot.idx[*key_pos + 1] - 1;
  while (*close != '"') /* whitespace before the ':' */
    close--;
  *k = (const char *)open + 1;
  *n = (size_t)(close - open - 1);
  return FJ_OK;
}

fj_error fj__decode_next_raw(fj_decoder *d, fj_object *o, fj_value *key, const char **k, size_t *n,
                             fj_value *value) {
  uint32_t key_pos = 0;
  fj_error e = next_raw(d, o, &key_pos, k, n, value);
  if (!e) fj__put_handle(key, d->parser, key_pos, o->depth, o->serial, '"');
  return e;
}

/* The next field of `it` matched against its record: *field, *value. The
 * expected field and the seen-bits are the caller's (*want, seen): a record
 * of at most 64 fields keeps them in registers (`small`: one word, index 0)
 * rather than in `it`, whose address the error paths take. FJ_END at the
 * end of the object, before the required fields are checked. */
static inline FJ_ALWAYS_INLINE fj_error step_field(fj_decoder *d, fj_decode_fields *it,
                                                   fj_value *value, int *field, uint32_t *want,
                                                   uint64_t *seen, bool small) {
  fj_parser *p = d->parser;
  fj_object *o = &it->o;
  const fj_decode_record *r = it->r;
  for (;;) {
    uint32_t key_pos = 0;
    const char *k = NULL;
    size_t n = 0;
    fj_error e = next_raw(d, o, &key_pos, &k, &n, value);
    if (FJ_UNLIKELY(e)) return e;
    uint32_t w = *want;
    int f;
    if (w < r->nfields && r->lens[w] == n && fj__bytes_equal(k, r->names[w], n)) {
      f = (int)w;
    } else if ((f = lookup(r, k, n, true)) < 0 && memchr(k, '\\', n)) {
      fj_value key;
      fj__put_handle(&key, p, key_pos, o->depth, o->serial, '"');
      const char *u;
      size_t un;
      if ((e = fj_decode_key(d, &key, &u, &un))) return e;
      f = lookup(r, u, un, false);
    }
    if (FJ_UNLIKELY(f < 0)) {
      if (it->unknown_error) {
        fj_value key;
        fj__put_handle(&key, p, key_pos, o->depth, o->serial, '"');
        return fj_decode_unknown(d, &key);
      }
      continue; /* the next step passes over the value */
    }
    uint64_t bit = UINT64_C(1) << (f & 63);
    uint64_t *word = &seen[small ? 0 : f >> 6];
    if (FJ_UNLIKELY(*word & bit) && !it->last_wins) {
      fj_value key;
      fj__put_handle(&key, p, key_pos, o->depth, o->serial, '"');
      return fj_decode_duplicate(d, &key, r->names[f]);
    }
    *word |= bit;
    *want = (uint32_t)f + 1;
    *field = f;
    return FJ_OK;
  }
}

static fj_error field_error(fj_decoder *d, const fj_decode_fields *it, int field, fj_error e) {
  return fj_decode_path_key(d, it->r->names[field], it->r->lens[field] & ~NAME_HAS_BACKSLASH, e);
}

/* A string member's value: the index of the accepted string it equals. */
static fj_error read_choice(fj_decoder *d, const fj_value *v, const fj_decode_strings *c,
                            int *index) {
  const char *s;
  size_t n;
  fj_error e;
  if (!raw_string(v, &s, &n) && (e = fj_decode_string_view(d, v, &s, &n))) return e;
  for (uint32_t i = 0; i < c->count; i++)
    if (c->lens[i] == n && fj__bytes_equal(c->values[i], s, n)) {
      *index = (int)i;
      return FJ_OK;
    }
  if (c->type_name) return fj_decode_bad_enum(d, v, c->type_name);
  char q[QUOTED_MAX];
  return fj_decode_fail(d, FJ_ERR_WRONG_TYPE, fj_value_offset(v),
                        "\"%s\" is not the constant \"%s\"", quoted(q, s, n), c->values[0]);
}

/* ---- records from their tables ----------------------------------------------
 * A generated struct is read here from its record's member table: one loop
 * over the fields for every type, recursing into nested records and arrays,
 * with generated code called back only for what a table cannot say (unions,
 * maps, arrays of arrays). */

/* The bytes a value of scalar kind `k` takes in a struct. */
static size_t kind_size(fj_member_kind k) {
  switch (k) {
  case FJ_MEMBER_BOOL: return sizeof(bool);
  case FJ_MEMBER_INT32: return sizeof(int32_t);
  case FJ_MEMBER_INT64: return sizeof(int64_t);
  case FJ_MEMBER_UINT64: return sizeof(uint64_t);
  case FJ_MEMBER_DOUBLE: return sizeof(double);
  case FJ_MEMBER_STRING: return sizeof(fj_str);
  case FJ_MEMBER_ENUM: return sizeof(int);
  default: return 0;
  }
}

/* Makes room for twice as many elements (4 or 8 at first). */
static fj_error grow(fj_decoder *d, const fj_array *a, size_t elem_size, void **items, size_t count,
                     size_t *cap) {
  size_t ncap = *cap ? *cap * 2 : elem_size <= 64 ? 8 : 4;
  if (ncap < *cap || (elem_size && ncap > SIZE_MAX / elem_size))
    return fj_decode_fail(d, FJ_ERR_NOMEM, fj__offset(d->parser, a->start), "array too large");
  void *m = *items;
  if (!m || !fj__arena_extend(d->arena, m, *cap * elem_size, ncap * elem_size)) {
    m = fj_arena_alloc(d->arena, ncap * elem_size);
    if (!m)
      return fj_decode_fail(d, FJ_ERR_NOMEM, fj__offset(d->parser, a->start), "out of memory");
    if (count) memcpy(m, *items, count * elem_size);
  }
  *items = m;
  *cap = ncap;
  return FJ_OK;
}

/* fj_decode_push(), zeroing the new element or not (`zero`). */
static inline FJ_ALWAYS_INLINE fj_error push(fj_decoder *d, const fj_array *a, size_t elem_size,
                                             void **items, size_t *count, size_t *cap, void **elem,
                                             bool zero) {
  fj_error e;
  if (FJ_UNLIKELY(*count == *cap) && (e = grow(d, a, elem_size, items, *count, cap))) return e;
  char *at = (char *)*items + *count * elem_size;
  if (zero) memset(at, 0, elem_size);
  (*count)++;
  *elem = at;
  return FJ_OK;
}

fj_error fj_decode_push(fj_decoder *d, const fj_array *a, size_t elem_size, void **items,
                        size_t *count, size_t *cap, void **elem) {
  return push(d, a, elem_size, items, count, cap, elem, true);
}

static fj_error read_array(fj_decoder *d, const fj_decode_member *m, const fj_value *v, void *dst);
static fj_error read_record(fj_decoder *d, const fj_value *v, const fj_decode_record *r, void *out);

/* Value `v` as kind `k` into `dst` (a scalar, an enum, a const, a record). */
static inline FJ_ALWAYS_INLINE fj_error read_kind(fj_decoder *d, fj_member_kind k,
                                                  const fj_decode_member *m, const fj_value *v,
                                                  void *dst) {
  int index = 0;
  fj_error e;
  switch (k) {
  case FJ_MEMBER_BOOL: return decode_bool(d, v, dst);
  case FJ_MEMBER_INT32: return decode_int32(d, v, dst);
  case FJ_MEMBER_INT64: return decode_int64(d, v, dst);
  case FJ_MEMBER_UINT64: return decode_uint64(d, v, dst);
  case FJ_MEMBER_DOUBLE: return decode_double(d, v, dst);
  case FJ_MEMBER_STRING: return decode_string(d, v, dst);
  case FJ_MEMBER_ENUM:
    if (!(e = read_choice(d, v, m->strings, &index))) memcpy(dst, &index, sizeof index);
    return e;
  case FJ_MEMBER_CONST: return read_choice(d, v, m->strings, &index);
  case FJ_MEMBER_RECORD: return read_record(d, v, m->record, dst);
  case FJ_MEMBER_ARRAY: return read_array(d, m, v, dst);
  case FJ_MEMBER_CUSTOM: break;
  }
  return FJ_ERR_INVALID_ARG;
}

/* An array member: elements appended to a growing block in the arena (no
 * counting pass over the array). */
static fj_error read_array(fj_decoder *d, const fj_decode_member *m, const fj_value *v, void *dst) {
  struct {
    void *items;
    size_t count;
  } *out = dst;
  fj_array a;
  fj_error e = fj_decode_array(d, v, &a);
  if (e) return e;
  const fj_member_kind k = (fj_member_kind)m->elem;
  const size_t size = k == FJ_MEMBER_RECORD ? m->record->size : kind_size(k);
  void *items = NULL, *p;
  size_t cap = 0;
  fj_value elem;
  out->items = NULL;
  out->count = 0;
  while ((e = fj_decode_next(d, &a, &elem)) == FJ_OK) {
    /* a record element is zeroed by read_record(), once */
    if ((e = push(d, &a, size, &items, &out->count, &cap, &p, k != FJ_MEMBER_RECORD))) return e;
    out->items = items;
    if (FJ_UNLIKELY(e = read_kind(d, k, m, &elem, p)))
      return fj_decode_path_index(d, out->count - 1, e);
  }
  return e == FJ_END ? FJ_OK : e;
}

/* A record member held by pointer: the struct goes to the arena. */
static fj_error read_pointed(fj_decoder *d, const fj_decode_member *m, const fj_value *v,
                             void *dst) {
  void *p;
  fj_error e = fj_decode_alloc(d, v, m->record->size, &p);
  if (e) return e;
  memcpy(dst, &p, sizeof p);
  return read_record(d, v, m->record, p);
}

/* Value `v` of member `m` (field f) into struct `out`, with its has-flag. */
static inline FJ_ALWAYS_INLINE fj_error read_member(fj_decoder *d, const fj_decode_record *r, int f,
                                                    const fj_value *v, char *out) {
  const fj_decode_member *m = &r->members[f];
  void *dst = out + m->offset;
  fj_error e;
  if ((m->flags & FJ_MEMBER_NULLABLE) && fj_value_type(v) == FJ_TYPE_NULL) {
    if (m->has != FJ_MEMBER_NO_HAS) *(bool *)(out + m->has) = false;
    if (m->flags & FJ_MEMBER_POINTER) memset(dst, 0, sizeof(void *));
    return fj_decode_null(d, v);
  }
  if (FJ_LIKELY(m->kind != FJ_MEMBER_CUSTOM)) {
    if (m->flags & FJ_MEMBER_POINTER)
      e = read_pointed(d, m, v, dst);
    else
      e = read_kind(d, (fj_member_kind)m->kind, m, v, dst);
  } else {
    e = r->read_custom(d, f, v, out);
  }
  if (m->has != FJ_MEMBER_NO_HAS) *(bool *)(out + m->has) = e == FJ_OK;
  return e;
}

/* Absent fields with a default get it, and their has-flag. Only the
 * absent ones are visited: a document that has every field (the common
 * case) costs a test per word of seen-bits, not a look at every member. */
static void apply_defaults(const fj_decode_fields *it, char *out) {
  const fj_decode_record *r = it->r;
  for (uint32_t w = 0; w < (r->nfields + 63) / 64; w++) {
    uint64_t absent = ~it->seen[w];
    if (r->nfields - w * 64 < 64) absent &= (UINT64_C(1) << (r->nfields - w * 64)) - 1;
    for (; absent; absent &= absent - 1) {
      const fj_decode_member *m = &r->members[w * 64 + (uint32_t)__builtin_ctzll(absent)];
      if (!m->def) continue;
      memcpy(out + m->offset, m->def, kind_size((fj_member_kind)m->kind));
      if (m->has != FJ_MEMBER_NO_HAS) *(bool *)(out + m->has) = true;
    }
  }
}

/* The fields of `o` into `out`, with `seen` of (r->nfields + 63) / 64 words. */
static fj_error read_fields(fj_decoder *d, fj_object *o, const fj_decode_record *r, char *out,
                            uint64_t *seen) {
  fj_decode_fields it;
  fj_value v;
  memset(out, 0, r->size);
  fields_init(d, o, r, seen, &it);
  const bool small = r->nfields <= 64;
  uint32_t want = 0;
  uint64_t seen0 = 0;
  for (;;) {
    int f = 0;
    fj_error e = small ? step_field(d, &it, &v, &f, &want, &seen0, true)
                       : step_field(d, &it, &v, &f, &it.want, seen, false);
    if (e) {
      if (e != FJ_END) return e;
      break;
    }
    if (FJ_UNLIKELY((e = read_member(d, r, f, &v, out)))) return field_error(d, &it, f, e);
  }
  if (small) seen[0] = seen0;
  fj_error e = check_required(d, &it);
  if (e != FJ_END) return e;
  if (r->defaults) apply_defaults(&it, out);
  return FJ_OK;
}

fj_error fj_decode_record_fields(fj_decoder *d, fj_object *o, const fj_decode_record *r,
                                 void *out) {
  if (FJ_UNLIKELY(!out)) return fj_decode_fail(d, FJ_ERR_INVALID_ARG, 0, "no struct to read into");
  uint64_t seen[4];
  if (FJ_LIKELY(r->nfields <= 256)) return read_fields(d, o, r, out, seen);
  uint64_t *many = fj_arena_alloc(d->arena, (r->nfields + 63) / 64 * sizeof *many);
  if (!many)
    return fj_decode_fail(d, FJ_ERR_NOMEM, fj__offset(d->parser, o->start), "out of memory");
  return read_fields(d, o, r, out, many);
}

/* A nested record (a member, an array element, a pointed-to child) into
 * `out`, which is never NULL here: entered and read without the exported
 * wrappers below. `out` is zeroed first whatever happens (read_array()
 * leaves that to here). */
static fj_error read_record(fj_decoder *d, const fj_value *v, const fj_decode_record *r,
                            void *out) {
  if (FJ_UNLIKELY(fj__decode_too_deep(d))) { /* the recursion's C stack */
    memset(out, 0, r->size);
    return fj__decode_depth_error(d, v);
  }
  fj_object o;
  fj_error e = decode_object(d, v, &o, r->what);
  if (FJ_UNLIKELY(e) || FJ_UNLIKELY(r->nfields > 256)) {
    memset(out, 0, r->size); /* as read_fields() leaves it, whatever fails before it */
    return e ? e : fj_decode_record_fields(d, &o, r, out);
  }
  uint64_t seen[4];
  return read_fields(d, &o, r, out, seen);
}

fj_error fj_decode_record_value(fj_decoder *d, const fj_value *v, const fj_decode_record *r,
                                void *out) {
  if (FJ_UNLIKELY(!out)) return fj_decode_fail(d, FJ_ERR_INVALID_ARG, 0, "no struct to read into");
  return read_record(d, v, r, out);
}

/* A step of `a` that failed, described; when the error lies where an
 * element should start (`[1,.5]`, `[1,,2]`, `[1,]`), it is that element's,
 * so its path ends in the element's index. */
static fj_error element_start_error(fj_decoder *d, const fj_array *a, fj_error e) {
  describe(d, e);
  size_t index;
  if (e != FJ_ERR_EXPECTED_VALUE || !own_structural(d->parser, a->start, d->err->offset, &index))
    return e;
  return fj_decode_path_index(d, index, e);
}

fj_error fj_decode_next(fj_decoder *d, fj_array *a, fj_value *elem) {
  fj_parser *p = a->parser;
  /* the common step (after an element that was read or is a scalar, a ','
   * then a value) in registers; anything else through fj_array_next */
  const uint32_t depth = a->depth;
  const uint64_t serial = a->serial;
  if (FJ_LIKELY(p && p->hot.cur == serial && a->state == FJ_ITER_MIDDLE)) {
    const uint8_t *buf = p->hot.buf;
    const uint32_t *idx = p->hot.idx, n = p->hot.n;
    uint32_t pos = p->hot.pos;
    bool ok = true;
    if (pos == a->last) {
      uint8_t c = pos < n ? buf[idx[pos]] : 0;
      ok = c && c != '[' && c != '{';
      pos++;
    }
    unsigned t;
    if (ok && pos + 2 <= n && buf[idx[pos]] == ',' && (t = fj__type_of[buf[idx[pos + 1]]])) {
      ++pos;
      fj__put_handle_t(elem, p, pos, depth, serial, t);
      a->last = pos;
      fj__step_over(&p->hot, pos, t); /* as fj_array_next() */
      return FJ_OK;
    }
  }
  fj_error e = fj_array_next(a, elem);
  return e && e != FJ_END ? element_start_error(d, a, e) : e;
}
