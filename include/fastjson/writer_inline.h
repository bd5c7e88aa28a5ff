/* libfastjson — the writer's inline paths (private; included by
 * fastjson/writer.h, not to be included on its own).
 *
 * Begin and end, keys, strings, null, booleans and doubles of
 * fastjson/writer.h are also defined here, inline, for the common case:
 * compact output, room in the window, an event the state allows, a
 * begin within the maximum depth, strings and keys of at most 32 bytes
 * that need no escaping (ASCII, unless UTF-8 is taken unchecked). There they store
 * their bytes without a call; a call and its return cost about as much as
 * such an event's work (replaying citm_catalog.json, whose events are half
 * begins and ends); they are inlined in every caller (FJ__ALWAYS_INLINE,
 * fastjson/error.h), also in a file that writes from many places. Anything
 * else calls the exported function, which
 * starts over from the unchanged state. Taking a function's address, or
 * writing its name in parentheses, gets the exported function. The names
 * are function-like macros: in C++, an argument with a comma outside
 * parentheses (a template's argument list) needs parentheses around it.
 * Define FJ_NO_INLINE before including fastjson/writer.h to get only the
 * exported functions. The macros expand to no cast (-Wold-style-cast). The names with fj__ and FJ__
 * are not part of the API: they change between versions. */
#ifndef FASTJSON_WRITER_INLINE_H
#define FASTJSON_WRITER_INLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h> /* memcpy, strlen */
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h> /* the string paths' check, 16 bytes at a time */
#define FJ__WRITER_SSE2 1
#endif

#include "fastjson/writer.h"

#ifdef __cplusplus
extern "C" {
#endif

FJ__INLINE_CODE_BEGIN

/* Where the document stands (fj__writer_hot.state). The numbers let the
 * paths go without a table: a comma is due before a value exactly in the
 * odd states among those below FJ__WST_OBJ_KEY_NEXT, and the state after a
 * value is the state before it with the low bit set; an object's end comes
 * in the pair FJ__WST_OBJ_KEY_NEXT, FJ__WST_OBJ_KEY_FIRST, an array's in the
 * pair FJ__WST_ARR_FIRST, FJ__WST_ARR_NEXT. */
enum {
  FJ__WST_ARR_FIRST = 0,     /* in an array, no element yet */
  FJ__WST_ARR_NEXT = 1,      /* in an array, after an element: a comma is due */
  FJ__WST_OBJ_VALUE = 2,     /* in an object, after a key */
  FJ__WST_OBJ_KEY_NEXT = 3,  /* in an object, after a member: a comma is due */
  FJ__WST_OBJ_KEY_FIRST = 4, /* in an object, no member yet */
  FJ__WST_ROOT = 6,          /* nothing written yet */
  FJ__WST_DONE = 7           /* the root value is complete */
};

/* The writer state the inline paths read and write: the first member of
 * every fj_writer. */
typedef struct fj__writer_hot {
  uint8_t *pos, *end; /* the output window: free room is [pos, end) */
  uint8_t *after;     /* [d]: the state once level d + 1 closes (max_depth bytes) */
  uint32_t depth, max_depth;
  const uint8_t *short_k; /* the constants of fj__copy_short()'s check */
  uint8_t state;          /* FJ__WST_* */
  uint8_t fast_end;       /* states below it take the compact value paths: 3, or 0 (pretty) */
  uint8_t pair_fast;      /* 2, or 0 (pretty): keys and ends in one of their pair of states */
  uint8_t short_in;       /* 1: short strings and keys may take the inline paths below (0
                           * when '/' is escaped) */
} fj__writer_hot;

static inline fj__writer_hot *fj__writer_hot_of(fj_writer *w) {
  return (fj__writer_hot *)(void *)w;
}

/* A value's start: with `need` bytes of room after a comma, the position
 * (after the comma when one is due), or NULL for the exported function. */
static inline uint8_t *fj__writer_value_at(fj__writer_hot *h, size_t need) {
  unsigned st = h->state;
  uint8_t *p = h->pos;
  if (st >= h->fast_end || (size_t)(h->end - p) <= need) return NULL;
  *p = ',';
  return p + (st & 1u);
}

static FJ__ALWAYS_INLINE fj_error fj__writer_begin_inline(fj_writer *w, uint8_t c, bool object) {
  if (w) {
    fj__writer_hot *h = fj__writer_hot_of(w);
    uint32_t d = h->depth;
    uint8_t *p = fj__writer_value_at(h, 1);
    if (p && d < h->max_depth) {
      *p = c;
      h->pos = p + 1;
      h->depth = d + 1;
      h->after[d] = (uint8_t)(h->state | 1u); /* after a value of this level */
      h->state = object ? (uint8_t)FJ__WST_OBJ_KEY_FIRST : (uint8_t)FJ__WST_ARR_FIRST;
      return FJ_OK;
    }
  }
  return object ? (fj_writer_begin_object)(w) : (fj_writer_begin_array)(w);
}

/* `first`: the first of the pair of states this end may come in. */
static FJ__ALWAYS_INLINE fj_error fj__writer_end_inline(fj_writer *w, uint8_t c, unsigned first) {
  if (w) {
    fj__writer_hot *h = fj__writer_hot_of(w);
    unsigned st = h->state;
    uint8_t *p = h->pos;
    if (st - first < h->pair_fast && p < h->end) {
      const uint32_t d = h->depth - 1; /* the levels open after it (d >= 0 in those states) */
      *p = c;
      h->pos = p + 1;
      h->depth = d;
      h->state = h->after[d];
      return FJ_OK;
    }
  }
  return first == FJ__WST_ARR_FIRST ? (fj_writer_end_array)(w) : (fj_writer_end_object)(w);
}

static FJ__ALWAYS_INLINE fj_error fj__writer_null_inline(fj_writer *w) {
  fj__writer_hot *h = w ? fj__writer_hot_of(w) : NULL;
  uint8_t *p = h ? fj__writer_value_at(h, 4) : NULL;
  if (!p) return (fj_writer_null)(w);
  memcpy(p, "null", 4);
  h->pos = p + 4;
  h->state = (uint8_t)(h->state | 1u); /* after a value */
  return FJ_OK;
}

static FJ__ALWAYS_INLINE fj_error fj__writer_bool_inline(fj_writer *w, bool v) {
  fj__writer_hot *h = w ? fj__writer_hot_of(w) : NULL;
  uint8_t *p = h ? fj__writer_value_at(h, 5) : NULL;
  if (!p) return (fj_writer_bool)(w, v);
  memcpy(p, v ? "true " : "false", 5); /* one 5-byte store either way */
  h->pos = p + 5 - (v ? 1 : 0);
  h->state = (uint8_t)(h->state | 1u);
  return FJ_OK;
}

/* The longest string or key the inline paths take; the room they ask for
 * (a comma, quotes, a colon, the bytes). */
#define FJ__SHORT_MAX 32u
#define FJ__SHORT_ROOM (FJ__SHORT_MAX + 8u)

static inline uint32_t fj__load_u32(const uint8_t *s) {
  uint32_t x;
  memcpy(&x, s, 4);
  return x;
}

#ifdef FJ__WRITER_SSE2
/* The bytes of v that stop the inline paths, as bits: '"', '\\', control
 * characters, and bytes >= 0x80 unless the writer takes UTF-8 unchecked;
 * k: the constants (fj__writer_hot.short_k): 16 copies each of '"', '\\',
 * a bias and a limit such that (byte ^ bias) < limit (signed) for the
 * others. */
static inline unsigned fj__scan_short(__m128i v, const uint8_t *k) {
  const __m128i q = _mm_loadu_si128((const __m128i *)(const void *)k);
  const __m128i bs = _mm_loadu_si128((const __m128i *)(const void *)(k + 16));
  const __m128i bias = _mm_loadu_si128((const __m128i *)(const void *)(k + 32));
  const __m128i lim = _mm_loadu_si128((const __m128i *)(const void *)(k + 48));
  __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, bs));
  m = _mm_or_si128(m, _mm_cmplt_epi8(_mm_xor_si128(v, bias), lim));
  return (unsigned)_mm_movemask_epi8(m);
}

/* Copies the n <= FJ__SHORT_MAX bytes at s to d (room for n bytes) when
 * none needs escaping or UTF-8 checking, and returns true; returns false
 * otherwise, after possibly storing some bytes at d. Reads only s[0, n):
 * shorter strings are gathered with overlapping 8- or 4-byte loads. */
static inline bool fj__copy_short(uint8_t *d, const uint8_t *s, size_t n, const uint8_t *k) {
  __m128i a, b;
  uint32_t lo, hi;
  if (n >= 16) {
    a = _mm_loadu_si128((const __m128i *)(const void *)s);
    b = _mm_loadu_si128((const __m128i *)(const void *)(s + n - 16));
    if (fj__scan_short(a, k) | fj__scan_short(b, k)) return false;
    _mm_storeu_si128((__m128i *)(void *)d, a);
    _mm_storeu_si128((__m128i *)(void *)(d + n - 16), b);
    return true;
  }
  if (n >= 8) {
    a = _mm_loadl_epi64((const __m128i *)(const void *)s);
    b = _mm_loadl_epi64((const __m128i *)(const void *)(s + n - 8));
    if (fj__scan_short(_mm_unpacklo_epi64(a, b), k)) return false;
    _mm_storel_epi64((__m128i *)(void *)d, a);
    _mm_storel_epi64((__m128i *)(void *)(d + n - 8), b);
    return true;
  }
  if (n >= 4) {
    lo = fj__load_u32(s);
    hi = fj__load_u32(s + n - 4);
  } else if (n) {
    lo = s[0] | ((uint32_t)s[n >> 1] << 8) | ((uint32_t)s[n - 1] << 16) | 0x20000000u;
    hi = lo;
  } else {
    return true;
  }
  a = _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)lo), _mm_cvtsi32_si128((int)hi));
  if (fj__scan_short(a, k) & 0xFF) return false;
  if (n >= 4) {
    memcpy(d, &lo, 4);
    memcpy(d + n - 4, &hi, 4);
  } else {
    d[0] = (uint8_t)lo;
    d[n >> 1] = (uint8_t)(lo >> 8);
    d[n - 1] = (uint8_t)(lo >> 16);
  }
  return true;
}
#else
static inline uint64_t fj__load_u64(const uint8_t *s) {
  uint64_t x;
  memcpy(&x, s, 8);
  return x;
}

/* High bits of the bytes of x that are '"', '\\', below 0x20, or (with
 * high = all ones) >= 0x80; nonzero exactly when x holds one (the borrows
 * of the subtractions only make false hits above a true one). The byte
 * order does not matter. */
static inline uint64_t fj__swar_special(uint64_t x, uint64_t high) {
  const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
  uint64_t m = ((q - ones) & ~q) | ((b - ones) & ~b) | ((x - ones * 0x20) & ~x);
  return (m | (x & high)) & highs;
}

/* As the SSE2 version: copies the n <= FJ__SHORT_MAX bytes at s to d when
 * none needs escaping or checking. k is NULL when bytes >= 0x80 need no
 * check (any other value: they do). */
static inline bool fj__copy_short(uint8_t *d, const uint8_t *s, size_t n, const uint8_t *k) {
  uint64_t high = k ? ~(uint64_t)0 : 0, m = 0;
  size_t i;
  if (n >= 8) {
    for (i = 0; i + 8 <= n; i += 8)
      m |= fj__swar_special(fj__load_u64(s + i), high);
    m |= fj__swar_special(fj__load_u64(s + n - 8), high);
  } else if (n >= 4) {
    m = fj__swar_special((uint64_t)fj__load_u32(s) | ((uint64_t)fj__load_u32(s + n - 4) << 32),
                         high);
  } else if (n) {
    m = fj__swar_special(s[0] | ((uint64_t)s[n >> 1] << 8) | ((uint64_t)s[n - 1] << 16) |
                             ((uint64_t)0x2020202020 << 24),
                         high);
  }
  if (m) return false;
  memcpy(d, s, n);
  return true;
}
#endif

/* fj_writer_keyn() and fj_writer_stringn() after their own inline paths:
 * for the inline paths here once the bytes turned out to need escaping or
 * checking (the exported functions would try the same path first). */
FJ_API fj_error fj__writer_keyn_general(fj_writer *w, const char *key, size_t len);
FJ_API fj_error fj__writer_stringn_general(fj_writer *w, const char *s, size_t len);

/* A short string's opening quote: with `ok` (the string may take the path)
 * and `first` the first of the states it may come in (FJ__WST_ARR_FIRST for
 * a value, FJ__WST_OBJ_KEY_NEXT for a key) and `span` the number of them,
 * the position after the quote (after a comma when one is due), or NULL. */
static inline uint8_t *fj__writer_quote_at(fj__writer_hot *h, bool ok, unsigned first,
                                           unsigned span) {
  unsigned st = h->state;
  uint8_t *p = h->pos;
  if (!ok || !h->short_in || st - first >= span || (size_t)(h->end - p) < FJ__SHORT_ROOM)
    return NULL;
  *p = ',';
  p += st & 1u;
  *p = '"';
  return p + 1;
}

static FJ__ALWAYS_INLINE fj_error fj__writer_keyn_inline(fj_writer *w, const char *key,
                                                         size_t len) {
  fj__writer_hot *h = w ? fj__writer_hot_of(w) : NULL;
  uint8_t *p =
      h ? fj__writer_quote_at(h, key && len <= FJ__SHORT_MAX, FJ__WST_OBJ_KEY_NEXT, h->pair_fast)
        : NULL;
  if (!p) return (fj_writer_keyn)(w, key, len);
  if (!fj__copy_short(p, (const uint8_t *)key, len, h->short_k))
    return fj__writer_keyn_general(w, key, len);
  memcpy(p + len, "\":", 2);
  h->pos = p + len + 2;
  h->state = (uint8_t)FJ__WST_OBJ_VALUE;
  return FJ_OK;
}

static FJ__ALWAYS_INLINE fj_error fj__writer_stringn_inline(fj_writer *w, const char *s,
                                                            size_t len) {
  fj__writer_hot *h = w ? fj__writer_hot_of(w) : NULL;
  uint8_t *p =
      h ? fj__writer_quote_at(h, s && len <= FJ__SHORT_MAX, FJ__WST_ARR_FIRST, h->fast_end) : NULL;
  if (!p) return (fj_writer_stringn)(w, s, len);
  if (!fj__copy_short(p, (const uint8_t *)s, len, h->short_k))
    return fj__writer_stringn_general(w, s, len);
  p[len] = '"';
  h->pos = p + len + 1;
  h->state = (uint8_t)(h->state | 1u);
  return FJ_OK;
}

static FJ__ALWAYS_INLINE fj_error fj__writer_key_inline(fj_writer *w, const char *key) {
  return key ? fj__writer_keyn_inline(w, key, strlen(key)) : (fj_writer_key)(w, key);
}

static FJ__ALWAYS_INLINE fj_error fj__writer_string_inline(fj_writer *w, const char *s) {
  return s ? fj__writer_stringn_inline(w, s, strlen(s)) : (fj_writer_string)(w, s);
}

/* Writes finite `v` at `out` (room for FJ_DOUBLE_MAX_CHARS bytes; no NUL)
 * as fj_writer_double() does; returns the length. */
FJ_API size_t fj__dtoa(char *out, double v);

/* Whether v is finite (neither NaN nor an infinity): JSON has no text for
 * the others. Also the library's own test (src/write). */
static inline bool fj__writer_finite(double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  return ((bits >> 52) & 0x7FF) != 0x7FF;
}

static FJ__ALWAYS_INLINE fj_error fj__writer_double_inline(fj_writer *w, double v) {
  fj__writer_hot *h = w && fj__writer_finite(v) ? fj__writer_hot_of(w) : NULL;
  uint8_t *p = h ? fj__writer_value_at(h, FJ_DOUBLE_MAX_CHARS) : NULL;
  if (!p) return (fj_writer_double)(w, v);
  h->pos = p + fj__dtoa((char *)p, v);
  h->state = (uint8_t)(h->state | 1u);
  return FJ_OK;
}

#ifndef FJ_NO_INLINE
#define fj_writer_begin_object(w) fj__writer_begin_inline(w, '{', true)
#define fj_writer_begin_array(w) fj__writer_begin_inline(w, '[', false)
#define fj_writer_end_object(w) fj__writer_end_inline(w, '}', FJ__WST_OBJ_KEY_NEXT)
#define fj_writer_end_array(w) fj__writer_end_inline(w, ']', FJ__WST_ARR_FIRST)
#define fj_writer_null(w) fj__writer_null_inline(w)
#define fj_writer_bool(w, v) fj__writer_bool_inline(w, v)
#define fj_writer_double(w, v) fj__writer_double_inline(w, v)
#define fj_writer_keyn(w, key, len) fj__writer_keyn_inline(w, key, len)
#define fj_writer_key(w, key) fj__writer_key_inline(w, key)
#define fj_writer_stringn(w, s, len) fj__writer_stringn_inline(w, s, len)
#define fj_writer_string(w, s) fj__writer_string_inline(w, s)
#endif

FJ__INLINE_CODE_END

#ifdef __cplusplus
}
#endif
#endif
