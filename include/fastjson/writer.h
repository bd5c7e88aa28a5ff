/* libfastjson — the streaming writer: events in, JSON text (RFC 8259) out.
 *
 * Call begin/end for arrays and objects, fj_writer_key() before each object
 * member, and one call per scalar value; the writer places commas, colons
 * and (when pretty) newlines and indentation. Misuse is refused with an
 * error and writes nothing, so the output is never broken JSON: a value
 * where a key is due, a key where a value is due, an end that matches no
 * begin, a second root value, finishing an incomplete document. The
 * exceptions are what the writer takes on the caller's word: the bytes of
 * fj_writer_raw(), copied unchecked, and, with FJ_WRITE_NO_VALIDATE_UTF8,
 * that strings and keys are UTF-8. A refused call leaves the writer as it
 * was, ready for another try (another value, or giving up): the error is
 * reported by that call only, not again by fj_writer_finish(), so check
 * every call's result (a document whose every call returned FJ_OK is
 * complete). Sink errors are the exception: they stick (below).
 *
 *   fj_buffer out = {0};
 *   fj_writer *w;
 *   fj_writer_new(&w, NULL, fj_sink_buffer(&out));
 *   fj_writer_begin_object(w);
 *   fj_writer_key(w, "pi");
 *   fj_writer_double(w, 3.14159);
 *   fj_writer_end_object(w);
 *   fj_writer_finish(w);          // FJ_OK: out.data = {"pi":3.14159}, NUL-terminated
 *   fj_writer_free(w);
 *
 * Numbers: integers exactly; doubles as the shortest decimal that reads
 * back to the same double (Schubfach: R. Giulietti, "The Schubfach way to
 * render doubles", 2020), JavaScript's choice of notation — fixed when the
 * decimal exponent x of d.ddd * 10^x is in [-6, 21), else d.ddde[-]x — but
 * an integral value keeps ".0" ("1.0", "1e21", "1.5e-7", "-0.0").
 * Strings: escaped per RFC 8259 section 7 (\" \\ \b \f \n \r \t, \u00xx for
 * the other control characters, lower-case hex).
 *
 * A writer is not thread-safe; distinct writers are independent. */
#ifndef FASTJSON_WRITER_H
#define FASTJSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h> /* memcpy: the inline paths at the end */
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h> /* the inline string paths' check, 16 bytes at a time */
#define FJ__WRITER_SSE2 1
#endif

#include "fastjson/error.h"
#include "fastjson/parser.h"
#include "fastjson/sink.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Writer option bits (fj_writer_options.flags). */
enum fj_write_flags {
  /** One member or element per line, indented, `": "` after keys, `[]`/`{}`
   *  for empty containers, a final newline (as fj_pretty()). */
  FJ_WRITE_PRETTY = 1u << 0,
  /** With FJ_WRITE_PRETTY: indent with tabs instead of spaces. */
  FJ_WRITE_TABS = 1u << 1,
  /** Write every non-ASCII character as `\\uxxxx` (a UTF-16 surrogate pair
   *  beyond U+FFFF), so the output is pure ASCII. Implies UTF-8 validation. */
  FJ_WRITE_ESCAPE_UNICODE = 1u << 2,
  /** Write '/' as `"\/"` (for embedding in an HTML `<script>` element). */
  FJ_WRITE_ESCAPE_SLASH = 1u << 3,
  /** Do not check that strings and keys are UTF-8 (RFC 3629); their bytes
   *  are copied as they are. Ignored with FJ_WRITE_ESCAPE_UNICODE. */
  FJ_WRITE_NO_VALIDATE_UTF8 = 1u << 4,
  /** Replace each invalid UTF-8 sequence (its maximal subpart, as Unicode
   *  section 3.9 recommends) by U+FFFD instead of failing with FJ_ERR_UTF8. */
  FJ_WRITE_REPLACE_INVALID_UTF8 = 1u << 5,
  /** Write NaN and infinities as `null` instead of failing with
   *  FJ_ERR_NUMBER_RANGE. */
  FJ_WRITE_NONFINITE_AS_NULL = 1u << 6
};

/** Options for fj_writer_new(). Zero-initialise, then set what you need:
 *  zero means the default (compact output, UTF-8 checked). */
typedef struct fj_writer_options {
  /** FJ_WRITE_* bits. */
  uint32_t flags;
  /** With FJ_WRITE_PRETTY: spaces (or tabs) per level, at most 16;
   *  0 means 2 spaces (or 1 tab). */
  uint32_t indent;
  /** Deepest nesting of arrays and objects, at most 1 << 20
   *  (0: FJ_DEFAULT_MAX_DEPTH). */
  uint32_t max_depth;
  /** Allocation hooks; NULL means malloc/realloc/free. The structure is
   *  copied; the functions must stay valid for the writer's lifetime. */
  const fj_allocator *allocator;
} fj_writer_options;

/** A writer: the nesting state and an output buffer. Opaque. */
typedef struct fj_writer fj_writer;

/** Most bytes fj_format_double() writes. */
#define FJ_DOUBLE_MAX_CHARS 32

/** Creates a writer for one document (see fj_writer_reset() to reuse it).
 *  Output goes to `sink` (fastjson/sink.h): the buffer sinks are filled
 *  directly; other sinks receive chunks of up to 64 KiB from the writer's
 *  buffer when it fills and at fj_writer_flush()/fj_writer_finish().
 *  @param out   receives the writer; free it with fj_writer_free().
 *  @param opts  options, or NULL for the defaults.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG if `out` or `sink.write` is NULL, an
 *          allocator function is NULL, indent > 16, max_depth > 1 << 20,
 *          or `flags` has a bit that is no FJ_WRITE_* flag; FJ_ERR_NOMEM. */
FJ_API fj_error fj_writer_new(fj_writer **out, const fj_writer_options *opts, fj_sink sink);

/** Starts a new document on `sink`, keeping the options and memory. Output
 *  still buffered for the previous sink is dropped (finish first).
 *  @return FJ_OK; FJ_ERR_INVALID_ARG if `w` or `sink.write` is NULL. */
FJ_API fj_error fj_writer_reset(fj_writer *w, fj_sink sink);

/** Frees the writer (not the sink's buffer). Output not yet flushed is lost.
 *  NULL is ignored. */
FJ_API void fj_writer_free(fj_writer *w);

/* Events. Each returns FJ_OK or one of:
 *  - FJ_ERR_EXPECTED_KEY: a value (or begin) inside an object where a key is due;
 *  - FJ_ERR_EXPECTED_VALUE: a key where a value is due (in an array, at the
 *    root, or right after a key), an end right after a key, or an end
 *    before the root value (nothing open to end);
 *  - FJ_ERR_WRONG_TYPE: fj_writer_end_array() in an object or
 *    fj_writer_end_object() in an array;
 *  - FJ_ERR_TRAILING_CONTENT: any event after the root value is complete;
 *  - FJ_ERR_INVALID_ARG: `w` is NULL, or a NULL pointer with a length > 0;
 *  (nothing is written and the state is unchanged after those), or
 *  - the sink's error (FJ_ERR_NOMEM for the buffer sink, FJ_ERR_IO for a
 *    stream, your callback's): the output is then incomplete and every later
 *    call that passes the checks above returns that error again (the checks
 *    come first: misuse is reported as misuse).
 * Only the extra errors are listed with each function. */

/** Begins an object `{`. Also FJ_ERR_DEPTH beyond max_depth. */
FJ_API fj_error fj_writer_begin_object(fj_writer *w);
/** Ends the innermost object `}`. */
FJ_API fj_error fj_writer_end_object(fj_writer *w);
/** Begins an array `[`. Also FJ_ERR_DEPTH beyond max_depth. */
FJ_API fj_error fj_writer_begin_array(fj_writer *w);
/** Ends the innermost array `]`. */
FJ_API fj_error fj_writer_end_array(fj_writer *w);

/** The next member's key: `len` bytes of UTF-8 at `key` (bytes, not code
 *  points; the caller keeps ownership; NUL bytes are written as `\\u0000`).
 *  Duplicate keys are not detected. Also FJ_ERR_UTF8 (see FJ_WRITE_* for
 *  validation and replacement). */
FJ_API fj_error fj_writer_keyn(fj_writer *w, const char *key, size_t len);
/** fj_writer_keyn() of a NUL-terminated key. */
FJ_API fj_error fj_writer_key(fj_writer *w, const char *key);

/** A string value of `len` bytes of UTF-8 at `s`, escaped as needed. Also
 *  FJ_ERR_UTF8 unless FJ_WRITE_NO_VALIDATE_UTF8 or _REPLACE_INVALID_UTF8. */
FJ_API fj_error fj_writer_stringn(fj_writer *w, const char *s, size_t len);
/** fj_writer_stringn() of a NUL-terminated string. */
FJ_API fj_error fj_writer_string(fj_writer *w, const char *s);

/** An integer, exactly, in decimal. */
FJ_API fj_error fj_writer_int64(fj_writer *w, int64_t v);
/** An unsigned integer, exactly, in decimal. */
FJ_API fj_error fj_writer_uint64(fj_writer *w, uint64_t v);
/** A double as the shortest decimal that reads back to it (see the top of
 *  this header). Also FJ_ERR_NUMBER_RANGE for NaN and infinities (JSON has
 *  no such numbers) unless FJ_WRITE_NONFINITE_AS_NULL. */
FJ_API fj_error fj_writer_double(fj_writer *w, double v);
/** `true` or `false`. */
FJ_API fj_error fj_writer_bool(fj_writer *w, bool v);
/** `null`. */
FJ_API fj_error fj_writer_null(fj_writer *w);
/** `len` bytes of pre-encoded JSON written as one value, unchanged and
 *  unchecked: the caller vouches for it being exactly one valid value. The
 *  writer checks only where the value goes (as for any value); if the bytes
 *  are not one valid JSON value, the output is not valid JSON, and nothing
 *  reports it. No bytes (len 0) are no value at all: FJ_ERR_INVALID_ARG,
 *  as for a NULL `w`. */
FJ_API fj_error fj_writer_raw(fj_writer *w, const char *json, size_t len);

/** @name Members: a key and its value in one call
 *  fj_writer_member_X(w, key, key_len, v) writes exactly what
 *  fj_writer_keyn(w, key, key_len) followed by fj_writer_X(w, v) writes, and
 *  returns the same errors, in one call: the common case (compact output,
 *  key and string of at most 32 bytes needing no escape) is one state check
 *  and one copy, which is what generated struct writers spend most calls
 *  on. If the key is accepted but the value refused (NaN, invalid UTF-8),
 *  the key stays written and a value is still due, as with the two calls.
 *  `key`: `key_len` bytes of UTF-8 (bytes, not code points), the caller's.
 *  @{ */
FJ_API fj_error fj_writer_member_int64(fj_writer *w, const char *key, size_t key_len, int64_t v);
FJ_API fj_error fj_writer_member_uint64(fj_writer *w, const char *key, size_t key_len, uint64_t v);
FJ_API fj_error fj_writer_member_double(fj_writer *w, const char *key, size_t key_len, double v);
FJ_API fj_error fj_writer_member_bool(fj_writer *w, const char *key, size_t key_len, bool v);
FJ_API fj_error fj_writer_member_null(fj_writer *w, const char *key, size_t key_len);
/** The string value is `len` bytes of UTF-8 at `s`, as fj_writer_stringn(). */
FJ_API fj_error fj_writer_member_stringn(fj_writer *w, const char *key, size_t key_len,
                                         const char *s, size_t len);
/** @} */

/** @name Pre-quoted keys: members whose keys were written ahead of time
 *  For code that knows its keys before it runs (generated struct writers):
 *  the key comes as the exact bytes it is written as, quotes and colon
 *  included (`"\"name\":"`, qlen 7), and compact output copies them with
 *  no check or escaping. fj_writer_qkey(w, qkey, qlen) writes exactly what
 *  fj_writer_keyn(w, qkey + 1, qlen - 3) writes and fj_writer_qmember_X()
 *  what fj_writer_member_X() does with that key, with the same errors and
 *  the same key-written-value-refused rule.
 *
 *  The caller vouches for the key (the writer does not check it; other
 *  bytes make the output wrong, and nothing reports it):
 *  - `qkey` holds qlen bytes: `"`, a name of bytes 0x20-0x7E other than
 *    `"`, `\` and `/` (written the same under every FJ_WRITE_* option),
 *    `"` and `:`; so qlen >= 3. The caller keeps ownership.
 *  - FJ_QKEY_SPAN(qlen) bytes from `qkey` are readable (the writer copies
 *    keys of up to 32 bytes as one 32-byte block; the bytes after the key
 *    are read but never become output). Keys packed one after another in one
 *    array followed by 32 spare bytes meet this.
 *  Also FJ_ERR_INVALID_ARG when `qkey` is NULL or qlen < 3. Longer keys
 *  (qlen > 32) and pretty output take the general path through
 *  fj_writer_keyn().
 *  @{ */
/** Bytes readable from a pre-quoted key of `qlen` bytes (at least 32). */
#define FJ_QKEY_SPAN(qlen) ((qlen) < 32 ? (size_t)32 : (size_t)(qlen))
FJ_API fj_error fj_writer_qkey(fj_writer *w, const char *qkey, size_t qlen);
/** fj_writer_qkey() then fj_writer_begin_object() (or _begin_array()) in one
 *  call: the key of a member whose value is a container, and its bracket.
 *  Also FJ_ERR_DEPTH beyond max_depth, after the key is written (as with
 *  the two calls). */
FJ_API fj_error fj_writer_qkey_begin_object(fj_writer *w, const char *qkey, size_t qlen);
FJ_API fj_error fj_writer_qkey_begin_array(fj_writer *w, const char *qkey, size_t qlen);
FJ_API fj_error fj_writer_qmember_int64(fj_writer *w, const char *qkey, size_t qlen, int64_t v);
FJ_API fj_error fj_writer_qmember_uint64(fj_writer *w, const char *qkey, size_t qlen, uint64_t v);
FJ_API fj_error fj_writer_qmember_double(fj_writer *w, const char *qkey, size_t qlen, double v);
FJ_API fj_error fj_writer_qmember_bool(fj_writer *w, const char *qkey, size_t qlen, bool v);
FJ_API fj_error fj_writer_qmember_null(fj_writer *w, const char *qkey, size_t qlen);
/** The string value is `len` bytes of UTF-8 at `s`, as fj_writer_stringn(). */
FJ_API fj_error fj_writer_qmember_stringn(fj_writer *w, const char *qkey, size_t qlen,
                                          const char *s, size_t len);
/** @} */

/** Passes all buffered output to the sink (and updates a buffer sink's
 *  `len`, or a fixed buffer's `len` and `needed`). The document may be
 *  incomplete. @return FJ_OK; FJ_ERR_INVALID_ARG; the sink's error. */
FJ_API fj_error fj_writer_flush(fj_writer *w);

/** Ends the document: checks that exactly one complete root value was
 *  written, adds the final newline when pretty, and flushes. A buffer sink's
 *  data is then NUL-terminated. Calling it again does nothing more.
 *  @return FJ_OK; the sink's error if an earlier call got one (it sticks,
 *          so it comes before any of the following); FJ_ERR_EMPTY if no value was written;
 * FJ_ERR_TRUNCATED if an array or object is open, or a key waits for its value (nothing is flushed
 * then: write the rest and call again); FJ_ERR_BUFFER_TOO_SMALL if the output did not fit a fixed
 * buffer (its `needed` is then the exact size); FJ_ERR_INVALID_ARG; the sink's error. */
FJ_API fj_error fj_writer_finish(fj_writer *w);

/** The number of output bytes produced so far (including buffered ones),
 *  into *bytes. @return FJ_OK; FJ_ERR_INVALID_ARG if an argument is NULL. */
FJ_API fj_error fj_writer_size(const fj_writer *w, size_t *bytes);

/** How many arrays and objects are open: 0 before the root value and after
 *  it ends, and for a NULL `w`. The struct writers (generated and
 *  descriptor tables) recurse once per level and stop past
 *  FJ_DECODE_MAX_DEPTH levels of it with FJ_ERR_DEPTH (fastjson/codec.h),
 *  whatever max_depth allows, rather than exhaust the C stack. */
FJ_API uint32_t fj_writer_depth(const fj_writer *w);

/** Formats a finite double as fj_writer_double() does, without a NUL, into
 *  `buf` of `cap` bytes, and its length into *len. Thread-safe.
 *  @return FJ_OK; FJ_ERR_NUMBER_RANGE for NaN or an infinity;
 *          FJ_ERR_BUFFER_TOO_SMALL if cap < FJ_DOUBLE_MAX_CHARS;
 *          FJ_ERR_INVALID_ARG if `buf` or `len` is NULL. */
FJ_API fj_error fj_format_double(double v, char *buf, size_t cap, size_t *len);

/* ---- inline paths (private) ---------------------------------------------------
 *
 * Begin and end, keys, strings, null, booleans and doubles are also
 * defined inline below, for the common case: compact output, room in the
 * window, an event the state allows, fewer than 64 levels open, strings and
 * keys of at most 32 bytes that need no escaping (ASCII, unless UTF-8 is
 * taken unchecked). There they store their bytes without a
 * call; a call and its return cost about as much as such an event's work
 * (replaying citm_catalog.json, whose events are half begins and ends).
 * Anything else calls the exported function, which starts over from the
 * unchanged state. Taking a function's address, or writing its name in
 * parentheses, gets the exported function. Define FJ_NO_INLINE before
 * including this header to get only the exported functions. The names with
 * fj__ and FJ__ are not part of the API: they change between versions. */

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
  uint64_t levels;    /* bit d: level d + 1 is an object, for levels 1 to 64 */
  uint32_t depth, max_depth;
  const uint8_t *short_k; /* the constants of fj__copy_short()'s check */
  uint8_t state;          /* FJ__WST_* */
  uint8_t fast_end;       /* states below it take the compact value paths: 3, or 0 (pretty) */
  uint8_t pair_fast;      /* 2, or 0 (pretty): keys and ends in one of their pair of states */
  uint8_t short_in;       /* 1: short strings and keys may take the inline paths below (0
                           * when '/' is escaped, or the avx512 kernel's paths serve them) */
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

static inline fj_error fj__writer_begin_inline(fj_writer *w, uint8_t c, bool object) {
  if (w) {
    fj__writer_hot *h = fj__writer_hot_of(w);
    uint32_t d = h->depth;
    uint8_t *p = fj__writer_value_at(h, 1);
    if (p && d < h->max_depth && d < 64) {
      uint64_t bit = (uint64_t)1 << d;
      *p = c;
      h->pos = p + 1;
      h->depth = d + 1;
      h->levels = object ? h->levels | bit : h->levels & ~bit;
      h->state = object ? (uint8_t)FJ__WST_OBJ_KEY_FIRST : (uint8_t)FJ__WST_ARR_FIRST;
      return FJ_OK;
    }
  }
  return object ? (fj_writer_begin_object)(w) : (fj_writer_begin_array)(w);
}

/* `first`: the first of the pair of states this end may come in. */
static inline fj_error fj__writer_end_inline(fj_writer *w, uint8_t c, unsigned first) {
  if (w) {
    fj__writer_hot *h = fj__writer_hot_of(w);
    unsigned st = h->state;
    uint8_t *p = h->pos;
    uint32_t d = h->depth - 1; /* the levels open after it (d >= 0 in those states) */
    if (st - first < h->pair_fast && p < h->end && d < 64) {
      *p = c;
      h->pos = p + 1;
      h->depth = d;
      /* after a member or an element of the enclosing level, or the root */
      h->state = d ? (uint8_t)(1u + 2u * ((h->levels >> (d - 1)) & 1u)) : (uint8_t)FJ__WST_DONE;
      return FJ_OK;
    }
  }
  return first == FJ__WST_ARR_FIRST ? (fj_writer_end_array)(w) : (fj_writer_end_object)(w);
}

static inline fj_error fj__writer_null_inline(fj_writer *w) {
  fj__writer_hot *h = w ? fj__writer_hot_of(w) : NULL;
  uint8_t *p = h ? fj__writer_value_at(h, 4) : NULL;
  if (!p) return (fj_writer_null)(w);
  memcpy(p, "null", 4);
  h->pos = p + 4;
  h->state = (uint8_t)(h->state | 1u); /* after a value */
  return FJ_OK;
}

static inline fj_error fj__writer_bool_inline(fj_writer *w, bool v) {
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

static inline fj_error fj__writer_keyn_inline(fj_writer *w, const char *key, size_t len) {
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

static inline fj_error fj__writer_stringn_inline(fj_writer *w, const char *s, size_t len) {
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

static inline fj_error fj__writer_key_inline(fj_writer *w, const char *key) {
  return key ? fj__writer_keyn_inline(w, key, strlen(key)) : (fj_writer_key)(w, key);
}

static inline fj_error fj__writer_string_inline(fj_writer *w, const char *s) {
  return s ? fj__writer_stringn_inline(w, s, strlen(s)) : (fj_writer_string)(w, s);
}

/* Writes finite `v` at `out` (room for FJ_DOUBLE_MAX_CHARS bytes; no NUL)
 * as fj_writer_double() does; returns the length. */
FJ_API size_t fj__dtoa(char *out, double v);

/* Whether v is finite (neither NaN nor an infinity). */
static inline bool fj__writer_finite(double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  return ((bits >> 52) & 0x7FF) != 0x7FF;
}

static inline fj_error fj__writer_double_inline(fj_writer *w, double v) {
  fj__writer_hot *h = w && fj__writer_finite(v) ? fj__writer_hot_of(w) : NULL;
  uint8_t *p = h ? fj__writer_value_at(h, FJ_DOUBLE_MAX_CHARS) : NULL;
  if (!p) return (fj_writer_double)(w, v);
  h->pos = p + fj__dtoa((char *)p, v);
  h->state = (uint8_t)(h->state | 1u);
  return FJ_OK;
}

#ifndef FJ_NO_INLINE
#define fj_writer_begin_object(w) fj__writer_begin_inline(w, (uint8_t)'{', true)
#define fj_writer_begin_array(w) fj__writer_begin_inline(w, (uint8_t)'[', false)
#define fj_writer_end_object(w) fj__writer_end_inline(w, (uint8_t)'}', FJ__WST_OBJ_KEY_NEXT)
#define fj_writer_end_array(w) fj__writer_end_inline(w, (uint8_t)']', FJ__WST_ARR_FIRST)
#define fj_writer_null(w) fj__writer_null_inline(w)
#define fj_writer_bool(w, v) fj__writer_bool_inline(w, v)
#define fj_writer_double(w, v) fj__writer_double_inline(w, v)
#define fj_writer_keyn(w, key, len) fj__writer_keyn_inline(w, key, len)
#define fj_writer_key(w, key) fj__writer_key_inline(w, key)
#define fj_writer_stringn(w, s, len) fj__writer_stringn_inline(w, s, len)
#define fj_writer_string(w, s) fj__writer_string_inline(w, s)
#endif

#ifdef __cplusplus
}
#endif
#endif
