/* Strings: finding their end, unescaping (RFC 8259 section 7), and
 * comparing keys without unescaping when they have no escapes. */
#include <string.h>

#include "ondemand/internal.h"

/* Value of a hex digit, or -1. */
static int hex_value(uint8_t c) {
  if (c >= '0' && c <= '9') return c - '0';
  c |= 0x20;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

/* Reads the 4 hex digits after "\u" at s (s points at the backslash). */
static bool read_u16(const uint8_t *s, const uint8_t *end, uint32_t *out) {
  if (end - s < 6 || s[0] != '\\' || s[1] != 'u') return false;
  uint32_t v = 0;
  for (int i = 2; i < 6; i++) {
    int h = hex_value(s[i]);
    if (h < 0) return false;
    v = v << 4 | (uint32_t)h;
  }
  *out = v;
  return true;
}

/* Encodes a code point (at most U+10FFFF, no surrogates) as UTF-8. */
static size_t put_utf8(uint8_t *dst, uint32_t cp) {
  if (cp < 0x80) {
    dst[0] = (uint8_t)cp;
    return 1;
  }
  if (cp < 0x800) {
    dst[0] = (uint8_t)(0xC0 | cp >> 6);
    dst[1] = (uint8_t)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    dst[0] = (uint8_t)(0xE0 | cp >> 12);
    dst[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    dst[2] = (uint8_t)(0x80 | (cp & 0x3F));
    return 3;
  }
  dst[0] = (uint8_t)(0xF0 | cp >> 18);
  dst[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
  dst[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
  dst[3] = (uint8_t)(0x80 | (cp & 0x3F));
  return 4;
}

/* Decodes one \u escape (or surrogate pair) at s. *used is the number of
 * input bytes (6 or 12), *cp the code point. */
static fj_error decode_u(const uint8_t *s, const uint8_t *end, uint32_t flags, uint32_t *cp,
                         size_t *used, const uint8_t **err_at) {
  uint32_t hi, lo;
  *err_at = s;
  if (!read_u16(s, end, &hi)) return FJ_ERR_BAD_ESCAPE;
  *used = 6;
  *cp = hi;
  if (hi < 0xD800 || hi > 0xDFFF) return FJ_OK;
  if (hi <= 0xDBFF && read_u16(s + 6, end, &lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
    *cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
    *used = 12;
    return FJ_OK;
  }
  if (!(flags & FJ_PARSE_REPLACE_LONE_SURROGATES)) return FJ_ERR_BAD_SURROGATE;
  *cp = 0xFFFD;
  return FJ_OK;
}

/* Length of the run of bytes from s that are neither '"' nor '\\', eight at
 * a time (SWAR: a byte is zero in x ^ pattern exactly where it matches). */
static size_t plain_run(const uint8_t *s, const uint8_t *end) {
  const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  const uint8_t *p = s;
  while (end - p >= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
    uint64_t hit = ((q - ones) & ~q) | ((b - ones) & ~b);
    if (hit & highs) break;
    p += 8;
  }
  while (p < end && *p != '"' && *p != '\\')
    p++;
  return (size_t)(p - s);
}

fj_error fj__unescape(const uint8_t *src, const uint8_t *end, uint8_t *dst, size_t *dst_len,
                      const uint8_t **close, const uint8_t **err_at, uint32_t flags) {
  const uint8_t *s = src + 1;
  size_t out = 0;
  for (;;) {
    size_t run = plain_run(s, end);
    if (dst) memcpy(dst + out, s, run);
    out += run;
    s += run;
    if (s >= end) {
      *err_at = src;
      return FJ_ERR_UNCLOSED_STRING;
    }
    if (*s == '"') break;
    /* a backslash */
    if (end - s < 2) {
      *err_at = s;
      return FJ_ERR_BAD_ESCAPE;
    }
    uint8_t e = s[1], c;
    switch (e) {
    case '"': c = '"'; break;
    case '\\': c = '\\'; break;
    case '/': c = '/'; break;
    case 'b': c = '\b'; break;
    case 'f': c = '\f'; break;
    case 'n': c = '\n'; break;
    case 'r': c = '\r'; break;
    case 't': c = '\t'; break;
    case 'u': {
      uint32_t cp;
      size_t used;
      fj_error err = decode_u(s, end, flags, &cp, &used, err_at);
      if (err) return err;
      uint8_t tmp[4];
      size_t k = put_utf8(dst ? dst + out : tmp, cp);
      out += k;
      s += used;
      continue;
    }
    default: *err_at = s; return FJ_ERR_BAD_ESCAPE;
    }
    if (dst) dst[out] = c;
    out++;
    s += 2;
  }
  *close = s;
  *dst_len = out;
  return FJ_OK;
}

/* Unescapes the string value at structural pos into scratch memory (or
 * points into the input when it has no escapes). */
static fj_error read_string(fj_parser *p, uint32_t pos, const char **out, size_t *len) {
  const uint8_t *start = p->buf + p->idx[pos], *end = p->buf + p->len;
  if (*start != '"') return fj__fail(p, FJ_ERR_WRONG_TYPE, p->idx[pos]);
  size_t run = plain_run(start + 1, end);
  if (start + 1 + run < end && start[1 + run] == '"') { /* no escapes: zero copy */
    *out = (const char *)start + 1;
    *len = run;
    return FJ_OK;
  }
  /* The unescaped text is never longer than the raw text, which ends before
   * the next structural (or the end of the input). */
  size_t cap = fj__offset(p, pos + 1) - p->idx[pos];
  uint8_t *dst = fj__arena_alloc(p, cap);
  if (!dst) return fj__fail(p, FJ_ERR_NOMEM, p->idx[pos]);
  const uint8_t *close, *err_at;
  fj_error err = fj__unescape(start, end, dst, len, &close, &err_at, p->flags);
  if (err) return fj__fail(p, err, (size_t)(err_at - p->buf));
  *out = (const char *)dst;
  return FJ_OK;
}

fj_error fj_value_get_string(const fj_value *v, const char **s, size_t *len) {
  fj_error err = fj__check_value(v);
  if (err) return err;
  if (!s || !len) return FJ_ERR_INVALID_ARG;
  return read_string(v->parser, v->pos, s, len);
}

fj_error fj_value_copy_string(const fj_value *v, char *dst, size_t cap, size_t *len) {
  if (!v || !v->parser || !len || (!dst && cap)) return FJ_ERR_INVALID_ARG;
  fj__arena_mark mark = fj__arena_save(v->parser);
  const char *s;
  size_t n;
  fj_error err = fj_value_get_string(v, &s, &n);
  if (err) return err;
  if (n + 1 > cap) {
    *len = n + 1;
    fj__arena_restore(v->parser, mark);
    return fj__fail(v->parser, FJ_ERR_BUFFER_TOO_SMALL, fj_value_offset(v));
  }
  memcpy(dst, s, n);
  dst[n] = '\0';
  *len = n;
  fj__arena_restore(v->parser, mark); /* the copy is the caller's; free the scratch */
  return FJ_OK;
}

void fj__raw_key(const fj_parser *p, uint32_t pos, const uint8_t **s, size_t *len) {
  const uint8_t *open = p->buf + p->idx[pos];
  const uint8_t *q = p->buf + p->idx[pos + 1]; /* the ':' */
  while (*--q != '"') { /* only whitespace lies between the closing quote and ':' */
  }
  *s = open + 1;
  *len = (size_t)(q - open - 1);
}

fj_error fj__key_equals(fj_parser *p, const uint8_t *raw, size_t raw_len, const char *key,
                        size_t key_len, bool *equal) {
  /* Without a backslash, raw bytes are the key; with one, the key is
   * shorter than its raw text. So most mismatches cost a length compare. */
  if (raw_len == key_len) {
    *equal = (!key_len || memcmp(raw, key, key_len) == 0) && !memchr(raw, '\\', raw_len);
    if (*equal || !memchr(raw, '\\', raw_len)) return FJ_OK;
  } else if (raw_len < key_len || !memchr(raw, '\\', raw_len)) {
    *equal = false;
    return FJ_OK;
  }
  fj__arena_mark mark = fj__arena_save(p);
  uint8_t *dst = fj__arena_alloc(p, raw_len);
  if (!dst) return fj__fail(p, FJ_ERR_NOMEM, (size_t)(raw - 1 - p->buf));
  size_t n;
  const uint8_t *close, *err_at;
  fj_error err = fj__unescape(raw - 1, raw + raw_len + 1, dst, &n, &close, &err_at, p->flags);
  if (!err) *equal = n == key_len && memcmp(dst, key, n) == 0;
  fj__arena_restore(p, mark);
  return err ? fj__fail(p, err, (size_t)(err_at - p->buf)) : FJ_OK;
}
