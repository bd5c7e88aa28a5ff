/* JSON Pointer (RFC 6901) over the on-demand cursor. */
#include <string.h>

#include "ondemand/internal.h"

/* Decodes one reference token (the bytes between two '/') into dst:
 * "~0" is '~', "~1" is '/', any other '~' is an error (RFC 6901 section 3). */
static fj_error decode_token(const char *s, size_t n, char *dst, size_t *out) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '~') {
      dst[k++] = s[i];
      continue;
    }
    if (i + 1 == n || (s[i + 1] != '0' && s[i + 1] != '1')) return FJ_ERR_BAD_POINTER;
    dst[k++] = s[++i] == '0' ? '~' : '/';
  }
  *out = k;
  return FJ_OK;
}

/* An array index: "0" or digits without a leading zero (section 4). "-"
 * names the element after the last, which never exists when reading. */
static fj_error parse_index(const char *s, size_t n, size_t *out) {
  if (n == 1 && s[0] == '-') return FJ_ERR_INDEX_RANGE;
  if (n == 0 || (s[0] == '0' && n > 1)) return FJ_ERR_BAD_POINTER;
  size_t v = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return FJ_ERR_BAD_POINTER;
    size_t d = (size_t)(s[i] - '0');
    if (v > (SIZE_MAX - d) / 10) return FJ_ERR_INDEX_RANGE;
    v = v * 10 + d;
  }
  *out = v;
  return FJ_OK;
}

/* Applies one decoded token to the current value `cur`. */
static fj_error step(fj_value *cur, const char *tok, size_t n) {
  fj_parser *p = cur->parser;
  uint8_t c = fj__char(p, cur->pos);
  if (c == '{') {
    fj_object o;
    fj_error err = fj_value_get_object(cur, &o);
    return err ? err : fj_object_findn(&o, tok, n, cur);
  }
  if (c == '[') {
    size_t i;
    fj_error err = parse_index(tok, n, &i);
    if (err) return fj__fail(p, err, fj__offset(p, cur->pos));
    fj_array a;
    if ((err = fj_value_get_array(cur, &a))) return err;
    return fj_array_at(&a, i, cur);
  }
  return fj__fail(p, FJ_ERR_WRONG_TYPE, fj__offset(p, cur->pos));
}

static fj_error at_pointer(const fj_value *v, const char *ptr, size_t len, fj_value *out) {
  if ((!ptr && len) || !out) return FJ_ERR_INVALID_ARG;
  fj_error err = fj__check_value(v);
  if (err) return err;
  fj_parser *p = v->parser;
  if (len && ptr[0] != '/') return fj__fail(p, FJ_ERR_BAD_POINTER, fj__offset(p, v->pos));
  if (fj__depth(v) == 0) fj_parser_rewind(p);
  fj__arena_mark mark = fj__arena_save(p);
  char *tok = len ? fj__arena_alloc(p, len) : NULL;
  if (len && !tok) return fj__fail(p, FJ_ERR_NOMEM, 0);
  fj_value cur = *v;
  size_t i = 0;
  while (i < len && !err) {
    const char *s = ptr + i + 1;
    const char *slash = memchr(s, '/', len - i - 1);
    size_t n = slash ? (size_t)(slash - s) : len - i - 1, tn;
    err = decode_token(s, n, tok, &tn);
    if (err) err = fj__fail(p, err, fj__offset(p, cur.pos));
    if (!err) err = step(&cur, tok, tn);
    i += n + 1;
  }
  fj__arena_restore(p, mark);
  if (!err) *out = cur;
  return err;
}

fj_error fj_value_at_pointern(const fj_value *v, const char *ptr, size_t len, fj_value *out) {
  fj_error err = at_pointer(v, ptr, len, out);
  /* what a failure leaves (out may be v itself, so only now): a handle every
   * call refuses */
  if (err && out) *out = (fj_value){0};
  return err;
}

fj_error fj_value_at_pointer(const fj_value *v, const char *ptr, fj_value *out) {
  /* NULL is no pointer (the empty one, the value itself, is "") */
  return fj_value_at_pointern(v, ptr, ptr ? strlen(ptr) : 1, out);
}
