/* Run-time support of generated struct readers: typed reads with
 * schema-level messages, the key helpers of the field dispatch, and error
 * paths built while an error unwinds (so that success pays nothing). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fastjson/codec.h"
#include "ondemand/internal.h"

/* ---- errors and paths ----------------------------------------------------- */

void fj_decoder_init(fj_decoder *d, fj_parser *p, fj_arena *arena, uint32_t flags,
                     fj_decode_error *err) {
  d->parser = p;
  d->arena = arena;
  d->flags = flags;
  d->failed = false;
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

fj_error fj_decode_path_key(fj_decoder *d, const char *key, size_t len, fj_error e) {
  describe(d, e);
  char seg[FJ_DECODE_PATH_MAX];
  size_t n = 0;
  seg[n++] = '/';
  for (size_t i = 0; i < len && n + 2 < sizeof seg; i++) { /* RFC 6901: ~ → ~0, / → ~1 */
    if (key[i] == '~' || key[i] == '/') {
      seg[n++] = '~';
      seg[n++] = key[i] == '~' ? '0' : '1';
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
           err->path[0] ? err->path : "(root)", err->offset, err->detail);
  return e;
}

fj_error fj_decode_document(fj_parser *parser, const void *json, size_t len, fj_arena *arena,
                            uint32_t flags, fj_decode_error *err,
                            fj_error (*read)(fj_decoder *, const fj_value *, void *), void *out) {
  fj_decode_error scratch;
  if (!err) err = &scratch;
  fj_parser *own = NULL;
  fj_error e = FJ_OK;
  if (!parser) {
    fj_parser_options opts = {0};
    if (arena && arena->alloc.malloc) opts.allocator = &arena->alloc;
    if ((e = fj_parser_new(&own, &opts))) {
      fj_decoder d;
      fj_decoder_init(&d, NULL, arena, flags, err);
      fj_decode_fail(&d, e, 0, "%s", fj_error_message(e));
      return fj_decoder_finish(&d, e);
    }
    parser = own;
  }
  fj_decoder d;
  fj_decoder_init(&d, parser, arena, flags, err);
  fj_value root;
  e = fj_parser_parse(parser, json, len, &root);
  if (!e) e = read(&d, &root, out);
  e = fj_decoder_finish(&d, e);
  fj_parser_free(own);
  return e;
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

/* A value of the wrong type: "expected int32, got string", or for null the
 * nullability message the issue asks for. */
static fj_error wrong_type(fj_decoder *d, const fj_value *v, const char *what) {
  size_t at = fj_value_offset(v);
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

fj_error fj_decode_int64(fj_decoder *d, const fj_value *v, int64_t *out) {
  fj_error e = fj_value_get_int64(v, out);
  return e ? number_error(d, v, e, "int64") : FJ_OK;
}

fj_error fj_decode_int32(fj_decoder *d, const fj_value *v, int32_t *out) {
  int64_t x;
  fj_error e = fj_value_get_int64(v, &x);
  if (!e && (x < INT32_MIN || x > INT32_MAX)) e = FJ_ERR_NUMBER_RANGE;
  if (e) return number_error(d, v, e, "int32");
  *out = (int32_t)x;
  return FJ_OK;
}

fj_error fj_decode_uint64(fj_decoder *d, const fj_value *v, uint64_t *out) {
  fj_error e = fj_value_get_uint64(v, out);
  return e ? number_error(d, v, e, "uint64") : FJ_OK;
}

fj_error fj_decode_double(fj_decoder *d, const fj_value *v, double *out) {
  fj_error e = fj_value_get_double(v, out);
  return e ? number_error(d, v, e, "number") : FJ_OK;
}

fj_error fj_decode_bool(fj_decoder *d, const fj_value *v, bool *out) {
  fj_error e = fj_value_get_bool(v, out);
  if (e == FJ_ERR_WRONG_TYPE) return wrong_type(d, v, "boolean");
  return describe(d, e);
}

fj_error fj_decode_string_view(fj_decoder *d, const fj_value *v, const char **s, size_t *len) {
  fj_error e = fj_value_get_string(v, s, len);
  if (e == FJ_ERR_WRONG_TYPE) return wrong_type(d, v, "string");
  return describe(d, e);
}

fj_error fj_decode_string(fj_decoder *d, const fj_value *v, fj_str *out) {
  const char *s;
  size_t n;
  fj_error e = fj_decode_string_view(d, v, &s, &n);
  if (e) return e;
  char *copy = fj_arena_alloc(d->arena, n + 1);
  if (!copy) return fj_decode_fail(d, FJ_ERR_NOMEM, fj_value_offset(v), "out of memory");
  memcpy(copy, s, n);
  copy[n] = '\0';
  out->data = copy;
  out->len = n;
  return FJ_OK;
}

/* ---- containers --------------------------------------------------------------- */

fj_error fj_decode_object(fj_decoder *d, const fj_value *v, fj_object *o, const char *what) {
  fj_error e = fj_value_get_object(v, o);
  if (e == FJ_ERR_WRONG_TYPE) return wrong_type(d, v, what);
  return describe(d, e);
}

fj_error fj_decode_array(fj_decoder *d, const fj_value *v, fj_array *a) {
  fj_error e = fj_value_get_array(v, a);
  if (e == FJ_ERR_WRONG_TYPE) return wrong_type(d, v, "array");
  return describe(d, e);
}

fj_error fj_decode_next_field(fj_decoder *d, fj_object *o, fj_value *key, const char **raw,
                              size_t *raw_len, fj_value *value) {
  fj_error e = fj_object_next(o, key, value);
  if (e) return describe(d, e);
  const uint8_t *s;
  fj__raw_key(d->parser, key->pos, &s, raw_len);
  *raw = (const char *)s;
  return FJ_OK;
}

fj_error fj_decode_key(fj_decoder *d, const fj_value *key, const char **s, size_t *len) {
  return describe(d, fj_value_get_string(key, s, len));
}

fj_error fj_decode_object_restart(fj_decoder *d, fj_object *o) {
  fj_parser *p = d->parser;
  /* only an open iteration of the current document whose object the cursor
   * has not left can go back: its fields are still where they were */
  if (o->gen != p->gen || o->state == FJ_ITER_DONE || p->depth < o->depth ||
      p->open[o->depth] != o->serial)
    return fj_decode_fail(d, FJ_ERR_OUT_OF_ORDER, fj__offset(p, o->start),
                          "cannot restart the object");
  p->depth = o->depth;
  p->pos = o->start + 1;
  o->state = FJ_ITER_FRESH;
  o->last = UINT32_MAX;
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

fj_error fj_decode_array_alloc(fj_decoder *d, fj_array *a, size_t elem_size, void **items,
                               size_t *count) {
  fj_error e = fj_array_count(a, count);
  if (e) return describe(d, e);
  return alloc_zeroed(d, fj__offset(d->parser, a->start), *count, elem_size, items);
}

fj_error fj_decode_map_alloc(fj_decoder *d, fj_object *o, size_t elem_size, fj_str **keys,
                             void **values, size_t *count) {
  fj_error e = fj_object_count(o, count);
  if (e) return describe(d, e);
  size_t at = fj__offset(d->parser, o->start);
  void *k;
  if ((e = alloc_zeroed(d, at, *count, sizeof(fj_str), &k))) return e;
  *keys = k;
  return alloc_zeroed(d, at, *count, elem_size, values);
}

fj_error fj_decode_alloc(fj_decoder *d, const fj_value *v, size_t size, void **out) {
  return alloc_zeroed(d, fj_value_offset(v), 1, size, out);
}

/* ---- policies --------------------------------------------------------------- */

fj_error fj_decode_missing(fj_decoder *d, const fj_object *o, const char *field) {
  return fj_decode_fail(d, FJ_ERR_NO_SUCH_FIELD, fj__offset(d->parser, o->start),
                        "missing required field \"%s\"", field);
}

fj_error fj_decode_duplicate(fj_decoder *d, const fj_value *key, const char *field) {
  fj_error e =
      fj_decode_fail(d, FJ_ERR_DUPLICATE_KEY, fj_value_offset(key), "duplicate key \"%s\"", field);
  return fj_decode_path_key(d, field, strlen(field), e);
}

fj_error fj_decode_unknown(fj_decoder *d, const fj_value *key) {
  const char *s;
  size_t n;
  fj_error e = fj_decode_key(d, key, &s, &n);
  if (e) return e;
  e = fj_decode_fail(d, FJ_ERR_NO_SUCH_FIELD, fj_value_offset(key), "unknown field \"%.*s\"",
                     (int)(n > 64 ? 64 : n), s);
  return fj_decode_path_key(d, s, n, e);
}

fj_error fj_decode_bad_enum(fj_decoder *d, const fj_value *v, const char *type) {
  const char *s;
  size_t n;
  fj_error e = fj_decode_string_view(d, v, &s, &n);
  if (e) return e;
  return fj_decode_fail(d, FJ_ERR_WRONG_TYPE, fj_value_offset(v), "\"%.*s\" is not a value of %s",
                        (int)(n > 64 ? 64 : n), s, type);
}
