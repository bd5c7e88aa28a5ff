/* Strings: finding their end, unescaping (RFC 8259 section 7), and
 * comparing keys without unescaping when they have no escapes. */
#include <string.h>

#include "ondemand/internal.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

/* Eight block bytes a load (their order does not matter: any nonzero
 * byte is a no), then the rest one by one. Out of line: strings that span
 * more than 8 blocks. */
bool fj__blocks_zero_long(const uint8_t *map, size_t b0, size_t b1) {
  uint64_t any = 0;
  size_t b = b0;
  for (; b + 8 <= b1 + 1; b += 8) {
    uint64_t w;
    memcpy(&w, map + b, sizeof w);
    any |= w;
  }
  for (; b <= b1; b++)
    any |= map[b];
  return any == 0;
}

/* One more than the value of each byte as a hex digit; 0: not one. */
static const uint8_t hex_plus1[256] = {
    ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,  ['6'] = 7,  ['7'] = 8,
    ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16};

/* Reads the 4 hex digits after "\u" at s (s points at the backslash):
 * four table loads and one test, no branch per digit. */
static bool read_u16(const uint8_t *s, const uint8_t *end, uint32_t *out) {
  if (end - s < 6 || s[0] != '\\' || s[1] != 'u') return false;
  int a = hex_plus1[s[2]] - 1, b = hex_plus1[s[3]] - 1, c = hex_plus1[s[4]] - 1,
      d = hex_plus1[s[5]] - 1;
  if ((a | b | c | d) < 0) return false;
  *out = (uint32_t)(a << 12 | b << 8 | c << 4 | d);
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
  uint32_t hi, lo = 0;
  *err_at = s;
  if (!read_u16(s, end, &hi)) return FJ_ERR_BAD_ESCAPE;
  *used = 6;
  *cp = hi;
  if (hi < 0xD800 || hi > 0xDFFF) return FJ_OK;
  const bool next_u = end - s >= 8 && s[6] == '\\' && s[7] == 'u';
  if (hi <= 0xDBFF && next_u && !read_u16(s + 6, end, &lo)) {
    *err_at = s + 6; /* the escape after it is malformed: that is the error */
    return FJ_ERR_BAD_ESCAPE;
  }
  if (hi <= 0xDBFF && next_u && lo >= 0xDC00 && lo <= 0xDFFF) {
    *cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
    *used = 12;
    return FJ_OK;
  }
  if (!(flags & FJ_PARSE_REPLACE_LONE_SURROGATES)) return FJ_ERR_BAD_SURROGATE;
  *cp = 0xFFFD;
  return FJ_OK;
}

/* Length of the run of bytes from s that are neither '"' nor '\\': 16 at a
 * time with SSE2 (part of x86-64), else eight at a time (SWAR: a byte is
 * zero in x ^ pattern exactly where it matches). Reads only [s, end). */
static size_t plain_run(const uint8_t *s, const uint8_t *end) {
  const uint8_t *p = s;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  const __m128i q16 = _mm_set1_epi8('"'), b16 = _mm_set1_epi8('\\');
  while (end - p >= 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    unsigned m =
        (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, q16), _mm_cmpeq_epi8(v, b16)));
    if (m) return (size_t)(p - s) + (size_t)__builtin_ctz(m);
    p += 16;
  }
#endif
  const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
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

/* What each two-character escape "\\x" stands for, by x; 0: none. A table,
 * not a switch: text escapes mostly \\n, and the switch's indirect jump
 * mispredicted between \\n, \\r and \\" (gsoc-2018.json). */
static const uint8_t short_escape[256] = {['"'] = '"',  ['\\'] = '\\', ['/'] = '/',  ['b'] = '\b',
                                          ['f'] = '\f', ['n'] = '\n',  ['r'] = '\r', ['t'] = '\t'};

/* Decodes the one escape sequence at the backslash `s` (RFC 8259 section 7)
 * into dst (at most 4 bytes; NULL: only check it). *written receives the
 * bytes produced, *used the input bytes consumed (2, 6 or 12). */
static fj_error decode_escape(const uint8_t *s, const uint8_t *end, uint32_t flags, uint8_t *dst,
                              size_t *written, size_t *used, const uint8_t **err_at) {
  uint8_t c;
  if (FJ_UNLIKELY(end - s < 2)) { /* stage 1 rules this out; be safe */
    *err_at = s;
    return FJ_ERR_BAD_ESCAPE;
  }
  if (FJ_LIKELY((c = short_escape[s[1]]) != 0)) {
    if (dst) *dst = c;
    *written = 1;
    *used = 2;
    return FJ_OK;
  }
  if (s[1] != 'u') {
    *err_at = s;
    return FJ_ERR_BAD_ESCAPE;
  }
  uint32_t cp;
  fj_error err = decode_u(s, end, flags, &cp, used, err_at);
  if (err) return err;
  uint8_t tmp[4];
  *written = put_utf8(dst ? dst : tmp, cp);
  return FJ_OK;
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
    size_t written, used;
    fj_error err = decode_escape(s, end, flags, dst ? dst + out : NULL, &written, &used, err_at);
    if (err) return err;
    out += written;
    s += used;
  }
  *close = s;
  *dst_len = out;
  return FJ_OK;
}

/* ---- finding backslashes: the stage-2 string primitives ---------------------
 * A string's end is known from the index (fj__string_close), so reading it
 * only needs the first backslash: none means the string is its raw bytes.
 * Unescaping copies the stretches between escapes while finding the next
 * one. One variant of each per stage-1 kernel, chosen with it
 * (fj__string_kernel_for), so FASTJSON_KERNEL and fj_kernel_select() steer
 * stage 2 too, and a build without -march flags still runs the AVX2 /
 * AVX-512 code. */

static size_t find_backslash_swar(const uint8_t *s, size_t n) {
  const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    uint64_t b = w ^ (ones * '\\');
    if (((b - ones) & ~b) & highs) break;
  }
  while (i < n && s[i] != '\\')
    i++;
  return i;
}

static size_t copy_plain_swar(uint8_t *dst, const uint8_t *s, size_t n) {
  size_t k = find_backslash_swar(s, n);
  memcpy(dst, s, k);
  return k;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FJ_STRING_X86 1

/* One loop for the SSE2 and AVX2 widths: W-byte blocks, then the last W
 * bytes again (overlapping what was seen, so nothing past the input is
 * read); inputs shorter than W go to `smaller`. */
#define FJ_FIND_BACKSLASH_VEC(name, attr, W, vec, set1, loadu, cmpeq, movemask, smaller)           \
  attr static size_t name(const uint8_t *s, size_t n) {                                            \
    if (n < W) return smaller(s, n);                                                               \
    const vec bs = set1('\\');                                                                     \
    size_t i = 0;                                                                                  \
    for (; i + W <= n; i += W) {                                                                   \
      FJ_STRING_PREFETCH(s + i);                                                                   \
      unsigned m = (unsigned)movemask(cmpeq(loadu((const vec *)(const void *)(s + i)), bs));       \
      if (m) return i + (size_t)__builtin_ctz(m);                                                  \
    }                                                                                              \
    if (i == n) return n;                                                                          \
    unsigned m = (unsigned)movemask(cmpeq(loadu((const vec *)(const void *)(s + n - W)), bs));     \
    m >>= W - (n - i);                                                                             \
    return m ? i + (size_t)__builtin_ctz(m) : n;                                                   \
  }

/* Copy and search in one pass, W bytes a step: each block is stored whole
 * before it is searched (dst has room for n bytes), and what is left after
 * the last whole block goes to `smaller`. */
#define FJ_COPY_PLAIN_VEC(name, attr, W, vec, set1, loadu, storeu, cmpeq, movemask, smaller)       \
  attr static size_t name(uint8_t *dst, const uint8_t *s, size_t n) {                              \
    const vec bs = set1('\\');                                                                     \
    size_t i = 0;                                                                                  \
    for (; i + W <= n; i += W) {                                                                   \
      FJ_STRING_PREFETCH(s + i);                                                                   \
      const vec v = loadu((const vec *)(const void *)(s + i));                                     \
      storeu((vec *)(void *)(dst + i), v);                                                         \
      unsigned m = (unsigned)movemask(cmpeq(v, bs));                                               \
      if (m) return i + (size_t)__builtin_ctz(m);                                                  \
    }                                                                                              \
    return i + smaller(dst + i, s + i, n - i);                                                     \
  }

/* SSE2 is part of x86-64: no target attribute needed. */
FJ_FIND_BACKSLASH_VEC(find_backslash_sse2, , 16, __m128i, _mm_set1_epi8, _mm_loadu_si128,
                      _mm_cmpeq_epi8, _mm_movemask_epi8, find_backslash_swar)
FJ_FIND_BACKSLASH_VEC(find_backslash_avx2, __attribute__((target("avx2"))), 32, __m256i,
                      _mm256_set1_epi8, _mm256_loadu_si256, _mm256_cmpeq_epi8, _mm256_movemask_epi8,
                      find_backslash_sse2)
FJ_COPY_PLAIN_VEC(copy_plain_sse2, , 16, __m128i, _mm_set1_epi8, _mm_loadu_si128, _mm_storeu_si128,
                  _mm_cmpeq_epi8, _mm_movemask_epi8, copy_plain_swar)
FJ_COPY_PLAIN_VEC(copy_plain_avx2, __attribute__((target("avx2"))), 32, __m256i, _mm256_set1_epi8,
                  _mm256_loadu_si256, _mm256_storeu_si256, _mm256_cmpeq_epi8, _mm256_movemask_epi8,
                  copy_plain_sse2)
#undef FJ_FIND_BACKSLASH_VEC
#undef FJ_COPY_PLAIN_VEC

/* AVX-512 (masked loads and stores): a header of their own, which the
 * tests also compile through SIMDe */
#include "ondemand/string_avx512.h"
#endif

const fj__string_kernel *fj__string_kernel_for(const char *kernel_name) {
  static const fj__string_kernel swar = {find_backslash_swar, copy_plain_swar};
#ifdef FJ_STRING_X86
  static const fj__string_kernel avx512 = {find_backslash_avx512, copy_plain_avx512},
                                 avx2 = {find_backslash_avx2, copy_plain_avx2},
                                 sse2 = {find_backslash_sse2, copy_plain_sse2};
  if (strcmp(kernel_name, "avx512") == 0) return &avx512;
  if (strcmp(kernel_name, "avx2") == 0) return &avx2;
  if (strcmp(kernel_name, "sse42") == 0) return &sse2;
#endif
  (void)kernel_name;
  return &swar; /* the scalar reference, and NEON for now */
}

static inline size_t find_backslash(const fj_parser *p, const uint8_t *s, size_t n) {
  return fj__find_backslash(p, s, n);
}

/* Unescapes the n bytes at s (a string's contents, between its quotes; the
 * first backslash is at `first`) into dst, which has `room` bytes (at least
 * the unescaped length) and holds the `first` bytes before that backslash
 * already; with dst NULL, only checks the escapes and measures. */
static fj_error unescape_contents(const fj_parser *p, const uint8_t *s, size_t n, size_t first,
                                  uint8_t *dst, size_t room, size_t *dst_len,
                                  const uint8_t **err_at) {
  const uint8_t *end = s + n;
  size_t out = first;
  s += first;
  while (s < end) { /* at a backslash */
    size_t written, used;
    fj_error err = decode_escape(s, end, p->flags, dst ? dst + out : NULL, &written, &used, err_at);
    if (err) return err;
    out += written;
    s += used;
    if (s < end && *s == '\\') continue; /* escapes often come in runs */
    /* the stretch up to the next escape, copied while it is searched (one
     * pass, not a search and a memcpy call: most stretches in text are
     * short). copy_plain may write all end - s bytes at dst + out: with
     * room for the raw length (out never exceeds the input consumed) it
     * goes ahead; a tighter dst (fj_value_copy_string()) gets the exact
     * copy. */
    const size_t left = (size_t)(end - s);
    size_t k;
    if (!dst) {
      k = find_backslash(p, s, left);
    } else if (room - out >= left) {
      k = p->copy_plain(dst + out, s, left);
    } else {
      k = find_backslash(p, s, left);
      memcpy(dst + out, s, k);
    }
    out += k;
    s += k;
  }
  *dst_len = out;
  return FJ_OK;
}

FJ_NOINLINE fj_error fj__read_string(fj_parser *p, uint32_t pos, const char **out, size_t *len) {
  const uint8_t *start = p->hot.buf + p->hot.idx[pos];
  if (FJ_UNLIKELY(*start != '"')) return fj__fail(p, FJ_ERR_WRONG_TYPE, p->hot.idx[pos]);
  const uint8_t *close = fj__string_close(p, pos);
  size_t n = (size_t)(close - start - 1), first;
  /* The caller (fj__string_at) has tried the inline search already. The
   * unescaped text is never longer than the raw text. Copying up to the
   * first backslash while finding it reads the text before it once, not
   * twice (a search, then a memcpy); a string without one after all gives
   * its copy back and stays zero-copy. */
  const fj__arena_mark mark = fj__arena_save(p);
  uint8_t *dst = fj__arena_alloc(p, n);
  if (!dst) return fj__fail(p, FJ_ERR_NOMEM, p->hot.idx[pos]);
  if ((first = p->copy_plain(dst, start + 1, n)) == n) {
    fj__arena_restore(p, mark);
    *out = (const char *)start + 1;
    *len = n;
    return FJ_OK;
  }
  const uint8_t *err_at;
  fj_error err = unescape_contents(p, start + 1, n, first, dst, n, len, &err_at);
  if (err) return fj__fail(p, err, (size_t)(err_at - p->hot.buf));
  *out = (const char *)dst;
  return FJ_OK;
}

fj_error fj__check_string(fj_parser *p, uint32_t pos) {
  const uint8_t *start = p->hot.buf + p->hot.idx[pos];
  size_t n = (size_t)(fj__string_close(p, pos) - start - 1), first, len;
  if ((first = find_backslash(p, start + 1, n)) == n) return FJ_OK;
  const uint8_t *err_at;
  fj_error err = unescape_contents(p, start + 1, n, first, NULL, 0, &len, &err_at);
  return err ? fj__fail(p, err, (size_t)(err_at - p->hot.buf)) : FJ_OK;
}

fj_error(fj_value_get_string)(const fj_value *v, const char **s, size_t *len) {
  if (!s || !len) return FJ_ERR_INVALID_ARG;
  fj_error err = fj__check_value(v);
  if (!err) err = fj__string_at(v->parser, v->pos, s, len);
  if (err) { /* nothing half-written for a caller who ignores the error */
    *s = NULL;
    *len = 0;
  }
  return err;
}

/* Straight into the caller's memory, never through parser scratch (a
 * sizing call on a string of gigabytes cost as much scratch again): an
 * escaped string is measured and checked by a pass that writes nothing,
 * then unescaped into dst by a second one that cannot fail, so that dst is
 * written only on success. */
fj_error fj_value_copy_string(const fj_value *v, char *dst, size_t cap, size_t *len) {
  if (!v || !v->parser || !len || (!dst && cap)) return FJ_ERR_INVALID_ARG;
  fj_error err = fj__check_value(v);
  if (err) return err;
  fj_parser *p = v->parser;
  if (fj__char(p, v->pos) != '"') return fj__fail(p, FJ_ERR_WRONG_TYPE, p->hot.idx[v->pos]);
  const uint8_t *raw;
  size_t n;
  fj__raw_key(p, v->pos, &raw, &n); /* a string value's contents, as a key's */
  const size_t first = find_backslash(p, raw, n);
  size_t out = n;
  const uint8_t *err_at;
  if (first < n && (err = unescape_contents(p, raw, n, first, NULL, 0, &out, &err_at)) != FJ_OK)
    return fj__fail(p, err, (size_t)(err_at - p->hot.buf));
  if (out + 1 > cap) {
    *len = out + 1;
    return fj__fail(p, FJ_ERR_BUFFER_TOO_SMALL, fj_value_offset(v));
  }
  memcpy(dst, raw, first);
  if (first < n) /* checked above: cannot fail */
    unescape_contents(p, raw, n, first, (uint8_t *)dst, cap, &out, &err_at);
  dst[out] = '\0';
  *len = out;
  return FJ_OK;
}

fj_error fj__key_equals_escaped(fj_parser *p, const uint8_t *raw, size_t raw_len, const char *key,
                                size_t key_len, bool *equal) {
  size_t first = find_backslash(p, raw, raw_len);
  if (first == raw_len) { /* no escapes, and the lengths differ */
    *equal = false;
    return FJ_OK;
  }
  fj__arena_mark mark = fj__arena_save(p);
  uint8_t *dst = fj__arena_alloc(p, raw_len);
  if (!dst) return fj__fail(p, FJ_ERR_NOMEM, (size_t)(raw - 1 - p->hot.buf));
  memcpy(dst, raw, first);
  size_t n;
  const uint8_t *err_at;
  fj_error err = unescape_contents(p, raw, raw_len, first, dst, raw_len, &n, &err_at);
  if (!err) *equal = n == key_len && memcmp(dst, key, n) == 0;
  fj__arena_restore(p, mark);
  return err ? fj__fail(p, err, (size_t)(err_at - p->hot.buf)) : FJ_OK;
}
