/* The writer's state and the pieces of its compact inline paths (private),
 * shared by src/write/writer.c and the descriptor-table writer
 * (src/codec/desc.c), which writes a record's plain scalar fields in line,
 * without a call per field, as generated writers' calls do behind one
 * check each. Anything these paths do not take goes to the public calls,
 * which start over from the unchanged state. */
#ifndef FJ_WRITE_WRITER_INTERNAL_H
#define FJ_WRITE_WRITER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fastjson/writer.h"
#include "util/alloc.h"
#include "util/compiler.h"

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define FJ_ESCAPE_SSE2_WRITER 1
#endif

/* Where the document stands: the states of fastjson/writer.h (FJ__WST_*),
 * whose inline paths take the common events without a call. Values are
 * allowed in ST_ROOT and the three states below ST_OBJ_KEY_NEXT (the inline
 * paths take only those three: the root goes the general way); keys and
 * object ends in the pair ST_OBJ_KEY_NEXT, ST_OBJ_KEY_FIRST; array ends in
 * the pair ST_ARR_FIRST, ST_ARR_NEXT. */
enum {
  ST_ARR_FIRST = FJ__WST_ARR_FIRST,
  ST_ARR_NEXT = FJ__WST_ARR_NEXT,
  ST_OBJ_VALUE = FJ__WST_OBJ_VALUE,
  ST_OBJ_KEY_NEXT = FJ__WST_OBJ_KEY_NEXT,
  ST_OBJ_KEY_FIRST = FJ__WST_OBJ_KEY_FIRST,
  ST_ROOT = FJ__WST_ROOT,
  ST_DONE = FJ__WST_DONE
};
/* The inline value paths take the states below this. */
#define ST_VALUE_FAST_END ST_OBJ_KEY_NEXT
/* The state after a value, by the state before it (one allowing a value). */
#define ST_AFTER_VALUE(st) ((st) | 1u)
/* The state after an end, by the enclosing level's kind (d > 0 levels open). */
#define ST_AFTER_END(d, object) ((d) == 0 ? ST_DONE : 1u + 2u * (unsigned)(object))
/* Whether a comma is due before a value or key, in a state the inline
 * paths take (not at the root). */
#define ST_COMMA(st) ((st)&1u)

/* Whether v is finite (neither NaN nor an infinity): JSON has no text for
 * the others. */
static inline bool fj__is_finite(double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  return ((bits >> 52) & 0x7FF) != 0x7FF;
}

/* Writes `true` or `false` at p (5 bytes stored either way: one
 * fixed-size store, the length picks) and returns its length. */
static inline size_t fj__put_bool(uint8_t *p, bool v) {
  memcpy(p, v ? "true " : "false", 5);
  return 5u - v;
}

struct fj_writer {
  fj__writer_hot h; /* first: the window, state, depth and the first 64 levels' kinds,
                     * which the public header's inline paths use too */
  uint8_t *mark;    /* where the current event's output began (to take it back) */
  bool short_ok;    /* short strings may take the inline path (no '/' escaping) */
  bool vshort;      /* short strings and keys take the AVX-512 inline path (writer.c) */
  bool vescape;     /* other strings take fj__escape_avx512() */
  bool finished;
  bool pretty;
  unsigned esc; /* FJ__ESC_* */
  uint32_t flags;
  fj_error err;           /* the sink's first error, returned from then on */
  const uint8_t *short_k; /* constants of the short-string scan (copy_short()) */
  uint32_t indent;
  uint8_t indent_char;
  uint64_t *stack; /* h.levels for deeper levels (word 0 unused) */
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

/* ---- short strings: copied with a check, no escaping ---------------------- */

/* The longest string or key the inline paths take. */
#define FJ_SHORT_MAX 32u
/* Room the inline string paths ask for: comma, quotes, colon, the bytes. */
#define FJ_SHORT_ROOM (FJ_SHORT_MAX + 8u)

static inline uint32_t load_u32(const uint8_t *s) {
  uint32_t x;
  memcpy(&x, s, 4);
  return x;
}

#ifdef FJ_ESCAPE_SSE2_WRITER
/* The bytes of v that stop the inline path, as bits; k: the constants
 * fj_writer.short_k points to (writer.c's short_k_high or short_k_low). */
static inline unsigned scan_short(__m128i v, const uint8_t *k) {
  const __m128i q = _mm_loadu_si128((const __m128i *)(const void *)k);
  const __m128i bs = _mm_loadu_si128((const __m128i *)(const void *)(k + 16));
  const __m128i bias = _mm_loadu_si128((const __m128i *)(const void *)(k + 32));
  const __m128i lim = _mm_loadu_si128((const __m128i *)(const void *)(k + 48));
  __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, bs));
  m = _mm_or_si128(m, _mm_cmplt_epi8(_mm_xor_si128(v, bias), lim));
  return (unsigned)_mm_movemask_epi8(m);
}

/* Copies the n <= FJ_SHORT_MAX bytes at s to d (room for n bytes) when
 * none needs escaping or UTF-8 checking, and returns true; returns false
 * otherwise, after possibly storing some bytes at d. Reads only s[0, n):
 * shorter strings are gathered with overlapping 8- or 4-byte loads. */
static inline bool copy_short(uint8_t *d, const uint8_t *s, size_t n, const uint8_t *k) {
  if (n >= 16) {
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + n - 16));
    if (scan_short(a, k) | scan_short(b, k)) return false;
    _mm_storeu_si128((__m128i *)(void *)d, a);
    _mm_storeu_si128((__m128i *)(void *)(d + n - 16), b);
    return true;
  }
  if (n >= 8) {
    __m128i a = _mm_loadl_epi64((const __m128i *)(const void *)s);
    __m128i b = _mm_loadl_epi64((const __m128i *)(const void *)(s + n - 8));
    if (scan_short(_mm_unpacklo_epi64(a, b), k)) return false;
    _mm_storel_epi64((__m128i *)(void *)d, a);
    _mm_storel_epi64((__m128i *)(void *)(d + n - 8), b);
    return true;
  }
  uint32_t lo, hi;
  if (n >= 4) {
    lo = load_u32(s);
    hi = load_u32(s + n - 4);
  } else if (n) {
    lo = s[0] | ((uint32_t)s[n >> 1] << 8) | ((uint32_t)s[n - 1] << 16) | 0x20000000u;
    hi = lo;
  } else {
    return true;
  }
  __m128i v = _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)lo), _mm_cvtsi32_si128((int)hi));
  if (scan_short(v, k) & 0xFF) return false;
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
static inline uint64_t load_u64(const uint8_t *s) {
  uint64_t x;
  memcpy(&x, s, 8);
  return x;
}
#define FJ_W_ONES UINT64_C(0x0101010101010101)
#define FJ_W_HIGHS UINT64_C(0x8080808080808080)
/* High bits of the bytes of x that are '"', '\\', below 0x20, or (with
 * high = all ones) >= 0x80; nonzero exactly when x holds one (the borrows
 * of the subtractions only make false hits above a true one). The byte
 * order does not matter. */
static inline uint64_t swar_special(uint64_t x, uint64_t high) {
  uint64_t q = x ^ (FJ_W_ONES * '"'), b = x ^ (FJ_W_ONES * '\\');
  uint64_t m = ((q - FJ_W_ONES) & ~q) | ((b - FJ_W_ONES) & ~b) | ((x - FJ_W_ONES * 0x20) & ~x);
  return (m | (x & high)) & FJ_W_HIGHS;
}

/* Copies the n <= FJ_SHORT_MAX bytes at s to d (room for n bytes) when
 * none needs escaping or UTF-8 checking, and returns true; returns false
 * otherwise. k is NULL when bytes >= 0x80 need no check. */
static inline bool copy_short(uint8_t *d, const uint8_t *s, size_t n, const uint8_t *k) {
  uint64_t high = k ? ~UINT64_C(0) : 0, m = 0;
  if (n >= 8) {
    for (size_t i = 0; i + 8 <= n; i += 8)
      m |= swar_special(load_u64(s + i), high);
    m |= swar_special(load_u64(s + n - 8), high);
  } else if (n >= 4) {
    m = swar_special((uint64_t)load_u32(s) | ((uint64_t)load_u32(s + n - 4) << 32), high);
  } else if (n) {
    m = swar_special(s[0] | ((uint64_t)s[n >> 1] << 8) | ((uint64_t)s[n - 1] << 16) |
                         (UINT64_C(0x2020202020) << 24),
                     high);
  }
  if (m) return false;
  memcpy(d, s, n);
  return true;
}
#endif

#endif
