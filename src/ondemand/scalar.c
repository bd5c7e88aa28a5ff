/* Scalar getters: type, numbers, literals, raw text. They read the bytes at
 * the value's offset and never move the cursor, so a scalar can be read
 * again while its parent is open. */
#include <string.h>

#include "ondemand/internal.h"
#include "ondemand/number.h"

/* The type of a value by its first byte, plus one (0: no value starts so). */
const uint8_t fj__type_of[256] = {
    ['{'] = FJ_TYPE_OBJECT + 1, ['['] = FJ_TYPE_ARRAY + 1,  ['"'] = FJ_TYPE_STRING + 1,
    ['t'] = FJ_TYPE_BOOL + 1,   ['f'] = FJ_TYPE_BOOL + 1,   ['n'] = FJ_TYPE_NULL + 1,
    ['-'] = FJ_TYPE_NUMBER + 1, ['0'] = FJ_TYPE_NUMBER + 1, ['1'] = FJ_TYPE_NUMBER + 1,
    ['2'] = FJ_TYPE_NUMBER + 1, ['3'] = FJ_TYPE_NUMBER + 1, ['4'] = FJ_TYPE_NUMBER + 1,
    ['5'] = FJ_TYPE_NUMBER + 1, ['6'] = FJ_TYPE_NUMBER + 1, ['7'] = FJ_TYPE_NUMBER + 1,
    ['8'] = FJ_TYPE_NUMBER + 1, ['9'] = FJ_TYPE_NUMBER + 1};

/* fj__type_of's types shifted for fj_value.meta, FJ__NO_VALUE (TM_NO)
 * where no value starts; written out, as designated initializers leave the
 * rest 0, which is FJ_TYPE_NULL's entry. */
#define TM_NO FJ__NO_VALUE
#define TM_NL ((uint32_t)FJ_TYPE_NULL << 24)
#define TM_BL ((uint32_t)FJ_TYPE_BOOL << 24)
#define TM_NM ((uint32_t)FJ_TYPE_NUMBER << 24)
#define TM_ST ((uint32_t)FJ_TYPE_STRING << 24)
#define TM_AR ((uint32_t)FJ_TYPE_ARRAY << 24)
#define TM_OB ((uint32_t)FJ_TYPE_OBJECT << 24)
/* clang-format off */
const uint32_t fj__type_meta[256] = {
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0x00 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0x08 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0x10 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0x18 */
    TM_NO, TM_NO, TM_ST, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0x20 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NM, TM_NO, TM_NO, /* 0x28 */
    TM_NM, TM_NM, TM_NM, TM_NM, TM_NM, TM_NM, TM_NM, TM_NM, /* 0x30 */
    TM_NM, TM_NM, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0x38 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0x40 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0x48 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0x50 */
    TM_NO, TM_NO, TM_NO, TM_AR, TM_NO, TM_NO, TM_NO, TM_NO, /* 0x58 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_BL, TM_NO, /* 0x60 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NL, TM_NO, /* 0x68 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_BL, TM_NO, TM_NO, TM_NO, /* 0x70 */
    TM_NO, TM_NO, TM_NO, TM_OB, TM_NO, TM_NO, TM_NO, TM_NO, /* 0x78 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0x80 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0x88 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0x90 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0x98 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0xA0 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0xA8 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0xB0 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0xB8 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0xC0 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0xC8 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0xD0 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0xD8 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0xE0 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0xE8 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0xF0 */
    TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, TM_NO, /* 0xF8 */
};
/* clang-format on */
#undef TM_NO
#undef TM_NL
#undef TM_BL
#undef TM_NM
#undef TM_ST
#undef TM_AR
#undef TM_OB

fj_error fj_value_get_type(const fj_value *v, fj_type *out) {
  if (FJ_UNLIKELY(!out)) return FJ_ERR_INVALID_ARG;
  fj_error err = fj__check_value(v);
  if (FJ_UNLIKELY(err)) return err;
  fj_parser *p = v->parser;
  unsigned t = fj__type_of[fj__char(p, v->pos)];
  if (FJ_UNLIKELY(!t)) return fj__fail(p, FJ_ERR_EXPECTED_VALUE, fj__offset(p, v->pos));
  *out = (fj_type)(t - 1);
  return FJ_OK;
}

/* Start of a number value, or an error: a NULL `out` first
 * (FJ_ERR_INVALID_ARG, not recorded, whatever the handle and the value's
 * type, as for every getter), then the handle's, then a value that is not
 * a number. */
static fj_error number_start(const fj_value *v, const void *out, const uint8_t **s) {
  if (!out) return FJ_ERR_INVALID_ARG;
  fj_error err = fj__check_value(v);
  if (err) return err;
  fj_parser *p = v->parser;
  /* the handle's type: the branch need not wait for the byte */
  if (fj_value_type(v) != FJ_TYPE_NUMBER)
    return fj__fail(p, FJ_ERR_WRONG_TYPE, fj__offset(p, v->pos));
  /* its digits may go on past the cut: no value is better than a wrong one */
  if (FJ_UNLIKELY(fj__number_cut(p, v->pos))) return fj__fail(p, FJ_ERR_TRUNCATED, p->hot.len);
  *s = p->hot.buf + p->hot.idx[v->pos];
  return FJ_OK;
}

/* A number's text must end at a delimiter or the end of the input; a range
 * or not-an-integer verdict only counts for well-formed text. Text that
 * stops being a number at the end of the input ("1.", "1e+") is
 * FJ_ERR_TRUNCATED there, as fj_parser_validate() says. The getters
 * parse into a local and hand it on only with FJ_OK (or the range error's
 * +-inf, for doubles), as parser.h says: text that goes on after a number
 * ("12x") is refused after its digits were parsed. */
static fj_error finish_number(fj_parser *p, const uint8_t *s, size_t len, fj_error err) {
  const uint8_t *end = p->hot.buf + p->hot.len;
  size_t at = (size_t)(s - p->hot.buf);
  if (err == FJ_ERR_BAD_NUMBER) /* cut off by the end of the input ("[1.", "-"): truncated */
    return fj__fail(p, fj__cut_off(p, s + len) ? FJ_ERR_TRUNCATED : err, at + len);
  if (s + len < end && !fj__is_delimiter(s[len])) return fj__fail(p, FJ_ERR_BAD_NUMBER, at + len);
  return err ? fj__fail(p, err, at) : FJ_OK;
}

/* Parses the number at v as a double, through the parser's one-entry cache. */
static fj_error cached_double(fj_parser *p, const fj_value *v, const uint8_t *s, double *out,
                              size_t *len) {
  if (p->num_doc == p->doc && p->num_pos == v->pos) {
    if (p->num_err != FJ_ERR_BAD_NUMBER) *out = p->num_value;
    *len = p->num_len;
    return p->num_err;
  }
  double d = 0;
  fj_error err = fj__parse_double(s, p->hot.buf + p->hot.len, &d, len);
  if (err != FJ_ERR_BAD_NUMBER) *out = d; /* as fj__parse_double: no value for bad text */
  p->num_doc = p->doc;
  p->num_pos = v->pos;
  p->num_err = err;
  p->num_value = d;
  p->num_len = *len;
  return err;
}

fj_error(fj_value_get_int64)(const fj_value *v, int64_t *out) {
  const uint8_t *s;
  fj_error err = number_start(v, out, &s);
  if (err) return err;
  fj_parser *p = v->parser;
  const uint8_t *end = p->hot.buf + p->hot.len;
  int64_t x = 0;
  if (FJ_LIKELY(fj__small_integer(s, end, &x))) {
    *out = x;
    return FJ_OK;
  }
  size_t len = 0;
  /* A fraction or exponent: well-formed text is then "not an integer", and
   * readers that try int64 first read it as a double next, so parse it as
   * one now (it checks the grammar) and keep the result for that call. */
  const uint8_t *q = s + (*s == '-');
  while (q < end && (unsigned)(*q - '0') < 10u)
    q++;
  if (q < end && (*q == '.' || (*q | 0x20) == 'e')) {
    double d;
    err = cached_double(p, v, s, &d, &len);
    if (err == FJ_OK || err == FJ_ERR_NUMBER_RANGE)
      return finish_number(p, s, len, FJ_ERR_NOT_INTEGER);
  }
  err = fj__parse_int64(s, end, &x, &len);
  err = finish_number(p, s, len, err);
  if (!err) *out = x;
  return err;
}

fj_error fj_value_get_uint64(const fj_value *v, uint64_t *out) {
  const uint8_t *s;
  fj_error err = number_start(v, out, &s);
  if (err) return err;
  size_t len = 0;
  uint64_t x = 0;
  err = fj__parse_uint64(s, v->parser->hot.buf + v->parser->hot.len, &x, &len);
  err = finish_number(v->parser, s, len, err);
  if (!err) *out = x;
  return err;
}

fj_error(fj_value_get_double)(const fj_value *v, double *out) {
  const uint8_t *s;
  fj_error err = number_start(v, out, &s);
  if (err) return err;
  size_t len = 0;
  double d = 0;
  err = cached_double(v->parser, v, s, &d, &len);
  err = finish_number(v->parser, s, len, err);
  if (err == FJ_OK || err == FJ_ERR_NUMBER_RANGE) *out = d;
  return err;
}

fj_error(fj_value_get_number)(const fj_value *v, fj_number *out) {
  const uint8_t *s;
  fj_error err = number_start(v, out, &s);
  if (FJ_UNLIKELY(err)) return err;
  fj_parser *p = v->parser;
  const uint8_t *end = p->hot.buf + p->hot.len;
  size_t len = 0;
  fj_number x;
  memset(&x, 0, sizeof x);
  err = fj__parse_number(s, end, &x, &len);
  if (FJ_LIKELY(!err) && FJ_LIKELY(s + len == end || fj__is_delimiter(s[len]))) {
    *out = x;
    return FJ_OK;
  }
  err = finish_number(p, s, len, err);
  if (err == FJ_ERR_NUMBER_RANGE) *out = x;
  return err;
}

/* Whether the literal `word` (with its length) stands at structural pos,
 * followed by a delimiter or the end of the input. */
static bool literal_is(const fj_parser *p, uint32_t pos, const char *word, size_t n) {
  size_t at = p->hot.idx[pos];
  if (p->hot.len - at < n || memcmp(p->hot.buf + at, word, n) != 0) return false;
  return at + n == p->hot.len || fj__is_delimiter(p->hot.buf[at + n]);
}

/* The error fj_parser_validate() gives, where it puts it: FJ_ERR_BAD_LITERAL
 * at the literal when it is misspelt (tru,), after it when a token goes on
 * (nullx); FJ_ERR_TRUNCATED at the end when the input ends inside it (tru). */
static fj_error bad_literal(fj_parser *p, uint32_t pos, const char *word, size_t n) {
  size_t at = p->hot.idx[pos], k = 0;
  while (k < n && at + k < p->hot.len && p->hot.buf[at + k] == (uint8_t)word[k])
    k++;
  if (k < n && fj__cut_off(p, p->hot.buf + at + k)) return fj__fail(p, FJ_ERR_TRUNCATED, at + k);
  return fj__fail(p, FJ_ERR_BAD_LITERAL, k == n ? at + n : at);
}

fj_error(fj_value_get_bool)(const fj_value *v, bool *out) {
  if (!out) return FJ_ERR_INVALID_ARG;
  fj_error err = fj__check_value(v);
  if (err) return err;
  fj_parser *p = v->parser;
  uint8_t c = fj__char(p, v->pos);
  if (c != 't' && c != 'f') return fj__fail(p, FJ_ERR_WRONG_TYPE, fj__offset(p, v->pos));
  if (c == 't' && !literal_is(p, v->pos, "true", 4)) return bad_literal(p, v->pos, "true", 4);
  if (c == 'f' && !literal_is(p, v->pos, "false", 5)) return bad_literal(p, v->pos, "false", 5);
  *out = c == 't';
  return FJ_OK;
}

fj_error(fj_value_is_null)(const fj_value *v, bool *out) {
  if (!out) return FJ_ERR_INVALID_ARG;
  fj_error err = fj__check_value(v);
  if (err) return err;
  fj_parser *p = v->parser;
  if (fj__char(p, v->pos) != 'n') {
    *out = false;
    return FJ_OK;
  }
  if (!literal_is(p, v->pos, "null", 4)) return bad_literal(p, v->pos, "null", 4);
  *out = true;
  return FJ_OK;
}

/* End offset (exclusive) of the value at structural pos. */
static fj_error value_end(fj_parser *p, uint32_t pos, uint32_t depth, size_t *end) {
  uint8_t c = fj__char(p, pos);
  const uint8_t *s = p->hot.buf + p->hot.idx[pos], *limit = p->hot.buf + p->hot.len;
  if (c == '"') {
    const uint8_t *close, *err_at;
    size_t n;
    fj_error err =
        fj__unescape(s, limit, NULL, &n, &close, &err_at, FJ_PARSE_REPLACE_LONE_SURROGATES);
    if (err) return fj__fail(p, err, (size_t)(err_at - p->hot.buf));
    *end = (size_t)(close + 1 - p->hot.buf);
    return FJ_OK;
  }
  if (c == '[' || c == '{') { /* bracket matching from a local position */
    uint32_t k = pos, d = 0;
    do {
      if (k >= p->hot.n) return fj__fail(p, FJ_ERR_TRUNCATED, p->hot.len);
      uint8_t b = p->hot.buf[p->hot.idx[k]];
      if (b == '[' || b == '{') {
        if (depth + ++d > p->hot.max_depth) return fj__fail(p, FJ_ERR_DEPTH, p->hot.idx[k]);
      } else if (b == ']' || b == '}') {
        d--;
      }
      k++;
    } while (d);
    fj_error err = fj__check_pair(p, pos, k - 1);
    if (err) return err;
    *end = p->hot.idx[k - 1] + 1;
    return FJ_OK;
  }
  const uint8_t *e = s; /* number or literal: up to the next delimiter */
  while (e < limit && !fj__is_delimiter(*e))
    e++;
  *end = (size_t)(e - p->hot.buf);
  return FJ_OK;
}

fj_error fj_value_get_raw(const fj_value *v, const char **s, size_t *len) {
  if (s) *s = NULL; /* what a failure leaves, as fj_value_get_string() */
  if (len) *len = 0;
  if (!s || !len) return FJ_ERR_INVALID_ARG;
  fj_error err = fj__check_value(v);
  if (err) return err;
  fj_parser *p = v->parser;
  size_t end;
  if ((err = value_end(p, v->pos, fj__depth(v), &end))) return err;
  *s = (const char *)p->hot.buf + p->hot.idx[v->pos];
  *len = end - p->hot.idx[v->pos];
  return FJ_OK;
}
