/* String escaping: a vector scan for the bytes that need attention, then a
 * scalar path for those. See escape.h. */
#include "write/escape.h"

#include <string.h>

#include "scan/stage1.h"
#include "util/compiler.h"

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define FJ_ESCAPE_SSE2 1
#endif

static const char hex_digits[16] = {'0', '1', '2', '3', '4', '5', '6', '7',
                                    '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};

/* The short escapes of RFC 8259 section 7, by control character; 0 means
 * "use \u00xx". */
static const char short_escape[32] = {0, 0, 0, 0, 0, 0, 0, 0, 'b', 't', 'n', 0, 'f', 'r'};

static inline size_t put_u16(uint8_t *d, uint32_t u) {
  d[0] = '\\';
  d[1] = 'u';
  d[2] = (uint8_t)hex_digits[(u >> 12) & 15];
  d[3] = (uint8_t)hex_digits[(u >> 8) & 15];
  d[4] = (uint8_t)hex_digits[(u >> 4) & 15];
  d[5] = (uint8_t)hex_digits[u & 15];
  return 6;
}

/* An ASCII byte the scan stopped at: `"`, `\`, `/` or a control character. */
static inline size_t put_ascii_escape(uint8_t *d, uint8_t c) {
  d[0] = '\\';
  if (c >= 0x20) { /* " \ / */
    d[1] = c;
    return 2;
  }
  if (short_escape[c]) {
    d[1] = (uint8_t)short_escape[c];
    return 2;
  }
  return put_u16(d, c);
}

/* The UTF-8 sequence at s (n >= 1 bytes available, s[0] >= 0x80): returns
 * its length if well-formed, with the code point in *cp; 0 if not, with the
 * length of its maximal subpart (Unicode 15, section 3.9, D93b: what one
 * U+FFFD replaces) in *skip. */
static inline size_t utf8_seq(const uint8_t *s, size_t n, uint32_t *cp, size_t *skip) {
  uint8_t c0 = s[0];
  *skip = 1;
  if (c0 < 0xC2 || c0 > 0xF4) return 0; /* continuation byte, overlong lead, too large */
  if (c0 < 0xE0) {
    if (n < 2 || (s[1] & 0xC0) != 0x80) return 0;
    *cp = ((uint32_t)(c0 & 0x1F) << 6) | (s[1] & 0x3Fu);
    return 2;
  }
  /* the second byte's range excludes overlongs, surrogates and > U+10FFFF */
  uint8_t lo = 0x80, hi = 0xBF;
  if (c0 == 0xE0)
    lo = 0xA0;
  else if (c0 == 0xED)
    hi = 0x9F;
  else if (c0 == 0xF0)
    lo = 0x90;
  else if (c0 == 0xF4)
    hi = 0x8F;
  if (n < 2 || s[1] < lo || s[1] > hi) return 0;
  *skip = 2;
  if (n < 3 || (s[2] & 0xC0) != 0x80) return 0;
  if (c0 < 0xF0) {
    *cp = ((uint32_t)(c0 & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3Fu);
    return 3;
  }
  *skip = 3;
  if (n < 4 || (s[3] & 0xC0) != 0x80) return 0;
  *cp = ((uint32_t)(c0 & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) |
        ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3Fu);
  return 4;
}

/* Handles the non-ASCII bytes from src[*i] on (src[*i] >= 0x80) while they
 * last, so that text in other scripts does not bounce in and out of the
 * vector loop. */
static fj_error put_non_ascii(uint8_t *dst, size_t *o, const uint8_t *src, size_t *i, size_t n,
                              unsigned flags) {
  size_t ii = *i, oo = *o;
  do {
    uint32_t cp = 0;
    size_t skip;
    size_t len = utf8_seq(src + ii, n - ii, &cp, &skip);
    if (len == 0) {
      if (!(flags & FJ__ESC_REPLACE)) return FJ_ERR_UTF8;
      if (flags & FJ__ESC_UNICODE) {
        oo += put_u16(dst + oo, 0xFFFD);
      } else {
        memcpy(dst + oo, "\xEF\xBF\xBD", 3);
        oo += 3;
      }
      ii += skip;
    } else if (flags & FJ__ESC_UNICODE) {
      if (cp >= 0x10000) { /* UTF-16 surrogate pair */
        cp -= 0x10000;
        oo += put_u16(dst + oo, 0xD800 | (cp >> 10));
        oo += put_u16(dst + oo, 0xDC00 | (cp & 0x3FF));
      } else {
        oo += put_u16(dst + oo, cp);
      }
      ii += len;
    } else {
      memcpy(dst + oo, src + ii, len);
      oo += len;
      ii += len;
    }
  } while (ii < n && src[ii] >= 0x80);
  *i = ii;
  *o = oo;
  return FJ_OK;
}

size_t fj__utf8_replace(uint8_t *dst, const uint8_t *src, size_t n) {
  size_t i = 0, o = 0;
  while (i < n) {
    if (src[i] < 0x80) {
      dst[o++] = src[i++];
      continue;
    }
    uint32_t cp;
    size_t skip, len = utf8_seq(src + i, n - i, &cp, &skip);
    if (len) {
      memcpy(dst + o, src + i, len);
      o += len;
      i += len;
    } else { /* as put_non_ascii() replaces it */
      memcpy(dst + o, "\xEF\xBF\xBD", 3);
      o += 3;
      i += skip;
    }
  }
  return o;
}

#ifndef FJ_ESCAPE_SSE2
/* Does the scan have to stop at this byte? For the scalar tail. */
static inline bool must_stop(uint8_t c, unsigned flags) {
  if (c < 0x20 || c == '"' || c == '\\') return true;
  if (c == '/') return (flags & FJ__ESC_SLASH) != 0;
  return c >= 0x80 && (flags & (FJ__ESC_VALIDATE | FJ__ESC_UNICODE));
}
#endif

#ifdef FJ_ESCAPE_SSE2
/* The vector scan's constants, fixed for one call. Control characters are
 * found with a signed compare after XOR with `bias`: with bias 0, bytes >=
 * 0x80 are negative and count as "below 0x20" too (stop at non-ASCII); with
 * bias 0x80 the compare is an unsigned one (pass non-ASCII through). */
typedef struct scan_consts {
  __m128i quote, backslash, slash, bias, limit;
} scan_consts;

static inline unsigned scan16(__m128i v, const scan_consts *k) {
  __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, k->quote), _mm_cmpeq_epi8(v, k->backslash));
  m = _mm_or_si128(m, _mm_cmpeq_epi8(v, k->slash));
  m = _mm_or_si128(m, _mm_cmplt_epi8(_mm_xor_si128(v, k->bias), k->limit));
  return (unsigned)_mm_movemask_epi8(m);
}
#else
/* SWAR over 8 bytes (little-endian order of the bytes in the word). */
#define FJ_ONES UINT64_C(0x0101010101010101)
#define FJ_HIGHS UINT64_C(0x8080808080808080)
static inline uint64_t load64(const uint8_t *p) {
  uint64_t x;
  memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  x = __builtin_bswap64(x);
#endif
  return x;
}
/* The high bit of each byte equal to b. Bits above a true hit may be false
 * hits (borrows), so only the lowest set bit is meaningful. */
static inline uint64_t eq_bytes(uint64_t x, uint8_t b) {
  uint64_t y = x ^ (FJ_ONES * b);
  return (y - FJ_ONES) & ~y & FJ_HIGHS;
}
static inline uint64_t scan8(uint64_t x, uint8_t slash, uint64_t high) {
  uint64_t m = eq_bytes(x, '"') | eq_bytes(x, '\\') | eq_bytes(x, slash);
  m |= (x - FJ_ONES * 0x20) & ~x & FJ_HIGHS; /* bytes below 0x20 */
  return m | (x & high);
}
static inline unsigned lowest_byte(uint64_t m) { return (unsigned)__builtin_ctzll(m) >> 3; }
#endif

#ifdef FJ_ESCAPE_SSE2
static inline scan_consts make_consts(unsigned flags) {
  bool stop_high = (flags & (FJ__ESC_VALIDATE | FJ__ESC_UNICODE)) != 0;
  scan_consts k = {
      _mm_set1_epi8('"'), _mm_set1_epi8('\\'), _mm_set1_epi8((flags & FJ__ESC_SLASH) ? '/' : '"'),
      _mm_set1_epi8(stop_high ? 0 : (char)0x80), _mm_set1_epi8(stop_high ? 0x20 : (char)0xA0)};
  return k;
}

/* Copies the 0 < rem < 16 bytes at s to d and returns the position of the
 * first one to stop at (rem if none), reading only s[0, rem). The scan
 * sees the bytes as gathered by overlapping loads, in registers: a buffer
 * stored and loaded back whole would wait for its stores. */
static inline size_t copy_scan_partial(uint8_t *d, const uint8_t *s, size_t rem,
                                       const scan_consts *k) {
  if (rem >= 8) { /* lanes 8 to 15: bytes rem - 8 to rem - 1 */
    __m128i lo = _mm_loadl_epi64((const __m128i *)(const void *)s);
    __m128i hi = _mm_loadl_epi64((const __m128i *)(const void *)(s + rem - 8));
    _mm_storel_epi64((__m128i *)(void *)d, lo);
    _mm_storel_epi64((__m128i *)(void *)(d + rem - 8), hi);
    unsigned m = scan16(_mm_unpacklo_epi64(lo, hi), k);
    if (m & 0xFF) return (size_t)__builtin_ctz(m);
    return m ? (size_t)__builtin_ctz(m) + rem - 16 : rem;
  }
  if (rem >= 4) { /* lanes 4 to 7: bytes rem - 4 to rem - 1 */
    uint32_t a, b;
    memcpy(&a, s, 4);
    memcpy(&b, s + rem - 4, 4);
    memcpy(d, &a, 4);
    memcpy(d + rem - 4, &b, 4);
    __m128i v = _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)a), _mm_cvtsi32_si128((int)b));
    unsigned m = scan16(v, k) & 0xFF;
    if (m & 0xF) return (size_t)__builtin_ctz(m);
    return m ? (size_t)__builtin_ctz(m) + rem - 8 : rem;
  }
  /* lanes 0 to 2: bytes 0, rem / 2 and rem - 1 */
  size_t mid = rem >> 1;
  d[0] = s[0];
  d[mid] = s[mid];
  d[rem - 1] = s[rem - 1];
  uint32_t x = s[0] | ((uint32_t)s[mid] << 8) | ((uint32_t)s[rem - 1] << 16);
  unsigned m = scan16(_mm_cvtsi32_si128((int)x), k) & 7;
  if (!m) return rem;
  return m & 1 ? 0 : m & 2 ? mid : rem - 1;
}

/* 16 x 0xFF then 16 x 0: loaded at offset r, the first 16 - r lanes set. */
static const uint8_t keep_mask[32] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                      0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
#endif

fj_error fj__escape(uint8_t *dst, const uint8_t *src, size_t n, unsigned flags, size_t *written) {
  size_t i = 0, o = 0;
  size_t run = 0; /* output since src + run is a plain copy of the input */
#ifdef FJ_ESCAPE_SSE2
  scan_consts k = make_consts(flags);
#else
  (void)run; /* only the vector tail uses it */
  bool stop_high = (flags & (FJ__ESC_VALIDATE | FJ__ESC_UNICODE)) != 0;
  uint8_t slash = (flags & FJ__ESC_SLASH) ? '/' : '"';
  uint64_t high = stop_high ? FJ_HIGHS : 0;
#endif
  for (;;) {
    /* copy whole blocks until one holds a byte to stop at: the copy is
     * unconditional, the escape then overwrites from that byte on */
#ifdef FJ_ESCAPE_SSE2
    while (i + 16 <= n) {
      __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
      _mm_storeu_si128((__m128i *)(void *)(dst + o), v);
      unsigned m = scan16(v, &k);
      if (m) {
        unsigned z = (unsigned)__builtin_ctz(m);
        i += z;
        o += z;
        goto stop;
      }
      i += 16;
      o += 16;
    }
#else
    while (i + 8 <= n) {
      uint64_t x = load64(src + i);
      memcpy(dst + o, src + i, 8);
      uint64_t m = scan8(x, slash, high);
      if (m) {
        unsigned z = lowest_byte(m);
        i += z;
        o += z;
        goto stop;
      }
      i += 8;
      o += 8;
    }
#endif
    /* the tail, fewer than one block */
#ifdef FJ_ESCAPE_SSE2
    if (i < n) {
      size_t rem = n - i, z;
      if (n >= 16) {
        /* the last 16 bytes of the string, which overlap bytes already done */
        size_t back = 16 - rem;
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + n - 16));
        if (i - run >= back) {
          /* the overlap was copied as it is: store the bytes again (reading
           * the output back would wait for the stores just made) */
          _mm_storeu_si128((__m128i *)(void *)(dst + o - back), v);
        } else {
          /* blend them behind the output already written (o >= i) */
          __m128i old = _mm_loadu_si128((const __m128i *)(const void *)(dst + o - back));
          __m128i keep = _mm_loadu_si128((const __m128i *)(const void *)(keep_mask + rem));
          _mm_storeu_si128((__m128i *)(void *)(dst + o - back),
                           _mm_or_si128(_mm_and_si128(keep, old), _mm_andnot_si128(keep, v)));
        }
        unsigned m = scan16(v, &k) >> back;
        z = m ? (size_t)__builtin_ctz(m) : rem;
      } else {
        z = copy_scan_partial(dst + o, src + i, rem, &k);
      }
      if (z < rem) {
        i += z;
        o += z;
        goto stop;
      }
      i = n;
      o += rem;
    }
#else
    while (i < n && !must_stop(src[i], flags))
      dst[o++] = src[i++];
#endif
    if (i == n) break;
  stop:
    if (src[i] < 0x80) {
      o += put_ascii_escape(dst + o, src[i]);
      run = ++i;
    } else if ((flags & (FJ__ESC_VALIDATE | FJ__ESC_UNICODE | FJ__ESC_REPLACE)) ==
               FJ__ESC_VALIDATE) {
      /* non-ASCII copied as it is: check the rest of the string once, with
       * the vector validator, then let it pass the scan */
      if (!fj__utf8_valid(src + i, n - i)) return FJ_ERR_UTF8;
      flags &= ~(unsigned)FJ__ESC_VALIDATE;
#ifdef FJ_ESCAPE_SSE2
      k = make_consts(flags);
#else
      high = 0;
#endif
      continue;
    } else {
      fj_error err = put_non_ascii(dst, &o, src, &i, n, flags);
      if (err) return err;
      run = i;
    }
    if (i == n) break;
  }
  *written = o;
  return FJ_OK;
}

#ifdef FJ_ESCAPE_AVX512
#include <immintrin.h>

#define FJ_AVX512_ESC_TARGET                                                                       \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,bmi,bmi2")))

/* One block of up to 64 bytes per step: a masked load (nothing past
 * src[n) is read), a masked store of the block as it is (nothing past the
 * block's output is written), and the mask of the bytes to stop at; the
 * escape then overwrites from the first of them. A byte XOR 0x02 is at
 * most 0x20 exactly when it is a control character or '"' (unsigned), or
 * also >= 0x80 (signed): non-ASCII stops until the rest of the string is
 * validated once, as in fj__escape(). */
FJ_AVX512_ESC_TARGET fj_error fj__escape_avx512(uint8_t *dst, const uint8_t *src, size_t n,
                                                size_t *written) {
  const __m512i two = _mm512_set1_epi8(0x02), lim = _mm512_set1_epi8(0x20);
  const __m512i backslash = _mm512_set1_epi8('\\');
  size_t i = 0, o = 0;
  bool high_ok = false; /* the rest of the string is valid UTF-8 */
  while (i < n) {
    size_t rem = n - i;
    __mmask64 live = rem >= 64 ? ~(__mmask64)0 : (__mmask64)_bzhi_u64(~0ull, (unsigned)rem);
    __m512i v = _mm512_maskz_loadu_epi8(live, src + i);
    __m512i x = _mm512_xor_si512(v, two);
    __mmask64 stop = high_ok ? _mm512_mask_cmple_epu8_mask(live, x, lim)
                             : _mm512_mask_cmple_epi8_mask(live, x, lim);
    stop |= _mm512_cmpeq_epi8_mask(v, backslash);
    _mm512_mask_storeu_epi8(dst + o, live, v);
    if (!stop) {
      size_t k = rem >= 64 ? 64 : rem;
      i += k;
      o += k;
      continue;
    }
    size_t z = (size_t)__builtin_ctzll(stop);
    i += z;
    o += z;
    if (src[i] < 0x80) {
      o += put_ascii_escape(dst + o, src[i]);
      i++;
    } else {
      /* the kernel in use is avx512 here (the writer takes this path only
       * with it): fj__utf8_valid() runs its 64-byte check */
      if (!fj__utf8_valid(src + i, n - i)) return FJ_ERR_UTF8;
      high_ok = true;
    }
  }
  *written = o;
  return FJ_OK;
}
#endif

bool fj__utf8_valid(const uint8_t *src, size_t n) {
  /* stage 1's validation, with the kernel in use (utf8_buffer_impl.h) */
  return fj__kernel_now()->utf8_valid(src, n);
}

size_t fj__utf8_cut(const uint8_t *src, size_t n) {
  for (size_t back = 0; back < 4 && back < n; back++)
    if ((src[n - back] & 0xC0) != 0x80) return n - back;
  return n;
}
