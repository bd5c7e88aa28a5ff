/* Stage 2 internals (private): the parser object and the helpers that the
 * cursor, scalar getters, JSON Pointer and validation share. */
#ifndef FJ_ONDEMAND_INTERNAL_H
#define FJ_ONDEMAND_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fastjson/parser.h"
#include "util/alloc.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h> /* SSE2: part of x86-64 */
#endif

#include "util/compiler.h"

/* Scratch memory for unescaped strings: a chain of blocks that are never
 * moved, so every string pointer handed out stays valid until the next
 * document. Parsing a new document reuses the blocks. */
typedef struct fj__arena_block {
  struct fj__arena_block *next;
  size_t cap, used;
  /* data follows */
} fj__arena_block;

typedef struct fj__arena {
  fj__arena_block *head, *cur;
} fj__arena;

typedef struct fj__arena_mark {
  fj__arena_block *cur;
  size_t used;
} fj__arena_mark;

/* The field table of one object (field_table.c): raw key -> value position. */
typedef struct fj__field_slot {
  uint64_t id;      /* the raw key's id (field_table.h: fj__key_id) */
  uint32_t key_len; /* the raw key's length in bytes; the key is structural vpos - 2 */
  uint32_t vpos;    /* structural of the value; 0: empty slot */
} fj__field_slot;

typedef struct fj__field_table {
  uint64_t serial; /* the object described (0: none) */
  bool usable;     /* false: the object is searched linearly */
  uint32_t mask;   /* slots in use - 1 */
  uint32_t cap;    /* slots allocated */
  fj__field_slot *slots;
} fj__field_table;

/* Iteration states of fj_array / fj_object. */
enum {
  FJ_ITER_FRESH = FJ__ITER_FRESH,
  FJ_ITER_MIDDLE = FJ__ITER_MIDDLE,
  FJ_ITER_DONE = FJ__ITER_DONE
};

/* Skips structurals of the index idx (n entries, byte offsets into buf,
 * whose memory may be read up to read_end) from *pos at *depth toward depth
 * `target`, sixteen a step: stops just past the structural that brings the
 * depth to target (*depth == target), or, with *depth still above it,
 * before sixteen it cannot take at once (fewer left, bytes it may not
 * gather, the depth within 16 of max_depth) for the scalar loop to go on.
 * The caller has *depth > target and *depth <= max_depth. */
typedef void (*fj__skip_groups_fn)(const uint8_t *buf, const uint8_t *read_end, const uint32_t *idx,
                                   uint32_t n, uint32_t *pos, uint32_t *depth, uint32_t target,
                                   uint32_t max_depth);

/* The group skipper of a stage-1 kernel, by its name; NULL where the scalar
 * loop is as fast (skip.c). */
fj__skip_groups_fn fj__skip_groups_for(const char *kernel_name);

struct fj_parser {
  /* The cursor's hot state, first so that parser.h's inline fast paths can
   * read it through a cast (fj__cursor): the document (buf, len), its index
   * (idx, n entries + slack), the next structural (pos), the containers the
   * cursor is inside (depth), their serials (open, cur) and whether the
   * document holds a backslash at all (if not, no string needs searching
   * for escapes), the last serial handed out and the depth limit. */
  fj__cursor hot;
  fj_allocator alloc;
  uint32_t flags;
  /* end of the caller's memory around the document: bytes up to here may be
   * read (never used) by wide loads; a stream's batch ends after its
   * documents */
  const uint8_t *read_end, *batch_read_end;
  /* the caller's input goes on after the document's text (a stream's
   * whitespace or separator): a number or literal at the text's end was
   * not cut off by the end of the input (fj__cut_off) */
  bool text_goes_on;
  size_t idx_cap;
  /* whether stage 1 saw a \u escape in the document (or its stream's
   * batch): if not, stage 1 has already checked every string completely */
  bool u_escapes, batch_u_escapes;
  /* byte k 1: the 64 bytes from hot.bs_base + 64 * k hold the 'u' of a \u
   * escape (fj__stage1_result.u_blocks); NULL after fj_parser_parse() and
   * for the documents of a stream that does not validate, which do not ask
   * stage 1 for them */
  const uint8_t *u_blocks;
  bool batch_backslashes; /* hot.backslashes of the stream's batch */
  /* the stream's batch: its first byte, from which its block bytes (after
   * the index) count, and whether stage 1 made \u block bytes too; its
   * documents adopt them (fj__parser_adopt) */
  const uint8_t *batch_buf;
  bool batch_u_blocks;
  /* Serials: each document and each container entry gets the next one, and
   * they are never reset, so a serial names one entry for the parser's
   * lifetime. A handle stores its parent's; it is valid while that entry is
   * open. hot.open[d]: the open entry whose children have depth d (open[0]:
   * the document). hot.cur == hot.open[hot.depth], so the usual check, "the
   * cursor is directly inside my parent", is one compare. doc and hot.cur
   * are 0 while no document is loaded, and no serial is 0. */
  uint64_t doc; /* the current document's serial */
  fj__arena scratch;
  fj__field_table fields; /* field_table.c */
  /* stage-2 string primitives of the stage-1 kernel in use (string.c) */
  const void *kernel;
  size_t (*find_backslash)(const uint8_t *s, size_t n);
  size_t (*copy_plain)(uint8_t *dst, const uint8_t *s, size_t n);
  /* long skips, 16 structurals a step, for that kernel, or NULL (skip.c) */
  fj__skip_groups_fn skip_groups;
  /* one-entry number cache (scalar.c): a number read as an integer that
   * turned out not to be one is parsed as a double once, for the
   * fj_value_get_double() that usually follows */
  uint64_t num_doc;
  uint32_t num_pos;
  fj_error num_err;
  double num_value;
  size_t num_len;
  /* the last error */
  fj_error err;
  size_t err_offset;
  /* what validation found missing when the index ended (FJ_ERR_EXPECTED_*),
   * where it reported FJ_ERR_TRUNCATED: fj__first_error() asks */
  fj_error err_wanted;
};

/* Points the cursor at the document's len bytes at buf (its reads end
 * there), with the limit the inline number paths compare against. */
static inline void fj__cursor_set_document(fj__cursor *c, const uint8_t *buf, size_t len) {
  c->buf = buf;
  c->len = len;
  c->digits_limit = len >= 20 && len <= FJ_MAX_DOCUMENT_SIZE ? (uintptr_t)buf + (len - 20) : 0;
}

/* Sets the count of structurals in the cursor's index, and the limit the
 * inline steps compare against. */
static inline void fj__cursor_set_count(fj__cursor *c, uint32_t n) {
  c->n = n;
  c->step_limit = n >= 4 ? n - 4 : 0;
}

/* Records an error at byte `offset` and returns it. */
static inline fj_error fj__fail(fj_parser *p, fj_error e, size_t offset) {
  p->err = e;
  p->err_offset = offset;
  return e;
}

/* Whether a number or literal that stops being well-formed at byte `at`
 * (its end, or the byte that breaks it) was cut off by the end of the
 * input, FJ_ERR_TRUNCATED, rather than malformed. */
static inline bool fj__cut_off(const fj_parser *p, const uint8_t *at) {
  return at == p->hot.buf + p->hot.len && !p->text_goes_on;
}

/* JSON whitespace (RFC 8259 section 2). */
static inline bool fj__is_ws(uint8_t c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

/* Whether the number at structural pos may have been cut short: it runs to
 * the end of the input (it is the last structural, and the last byte is no
 * whitespace), which cuts the text off, and it is not the root, so the
 * document is not complete (`{"a":12` may have been `{"a":123}`). A root
 * number that runs to the end is the whole document. */
static inline bool fj__number_cut(const fj_parser *p, uint32_t pos) {
  return pos != 0 && pos + 1 == p->hot.n && !p->text_goes_on &&
         !fj__is_ws(p->hot.buf[p->hot.len - 1]);
}

/* The byte at structural `pos`, or 0 past the last one. */
static inline uint8_t fj__char(const fj_parser *p, uint32_t pos) {
  return pos < p->hot.n ? p->hot.buf[p->hot.idx[pos]] : 0;
}

/* Byte offset of structural `pos` (the input length past the last one). */
static inline size_t fj__offset(const fj_parser *p, uint32_t pos) {
  return pos < p->hot.n ? p->hot.idx[pos] : p->hot.len;
}

/* Whether a byte may follow a number or literal: whitespace, an operator,
 * or the end of the input (checked by the caller). */
/* fj__delimiter: parser.h (defined in cursor.c) */
static inline bool fj__is_delimiter(uint8_t c) { return fj__delimiter[c]; }

/* +1 for an opening bracket, -1 for a closing one, 0 for other bytes: depth
 * steps without branches, which skipped structurals would mispredict. */
extern const int8_t fj__bracket_delta[256]; /* cursor.c */

/* The common integer: an optional '-', 1 to 18 digits without a leading
 * zero (so no overflow), then a delimiter or the end of the input. Returns
 * false for anything else, which the full parser then handles. */
static inline bool fj__small_integer(const uint8_t *s, const uint8_t *end, int64_t *out) {
  const uint8_t *q = s;
  bool neg = *q == '-';
  q += neg;
  if (FJ_UNLIKELY(q >= end || (unsigned)(*q - '1') > 8u)) {
    if (q < end && *q == '0' && (q + 1 == end || fj__is_delimiter(q[1]))) {
      *out = 0;
      return true;
    }
    return false;
  }
  uint64_t m = (uint64_t)(*q++ - '0');
  const uint8_t *stop = end - q > 17 ? q + 17 : end;
  while (q < stop && (unsigned)(*q - '0') < 10u)
    m = m * 10 + (uint64_t)(*q++ - '0');
  if (q < end && !fj__is_delimiter(*q)) return false;
  *out = neg ? -(int64_t)m : (int64_t)m;
  return true;
}

/* Whether a byte can start a JSON value: `"{[-0123456789tfn` (cursor.c). */
extern const bool fj__value_start[256];
static inline bool fj__is_value_start(uint8_t c) { return fj__value_start[c]; }

/* Checks that a value handle belongs to the current document and that its
 * parent container is still open. Inline: every getter starts with it; the
 * usual case (the cursor directly inside the parent) is one compare. */
fj_error fj__check_value_slow(const fj_value *v);
static inline fj_error fj__check_value(const fj_value *v) {
  if (FJ_UNLIKELY(!v || !v->parser)) return FJ_ERR_INVALID_ARG;
  if (FJ_LIKELY(v->parent == v->parser->hot.cur)) return FJ_OK;
  return fj__check_value_slow(v);
}

/* Whether the iteration or handle whose parent entry is `serial` and whose
 * values have depth `depth` is still open (the cursor may be deeper). */
static inline bool fj__entry_open(const fj_parser *p, uint64_t serial, uint32_t depth) {
  return p->doc && serial >= p->doc && depth <= p->hot.depth && p->hot.open[depth] == serial;
}

/* The fj_type of a value by its first byte, plus one (0: no value starts so). */
/* fj__type_of: parser.h (defined in scalar.c) */

/* Between two stores that gcc's vectorizer would otherwise join into one
 * (an empty asm that may touch memory: neither store moves across it). */
#if defined(__GNUC__)
#define FJ__SEPARATE_STORES() __asm__ volatile("" ::: "memory")
#else
#define FJ__SEPARATE_STORES() ((void)0)
#endif

/* Writes the handle of the value at structural pos whose first byte has
 * type_of entry t (nonzero: it starts a value), in the entry `parent` at
 * depth `depth` (below FJ_MAX_DEPTH, so it fits in 24 bits), into *out, a
 * field at a time. A handle is read back at once, a field at a time (its
 * type first). Zen 5 hands a load the data of a store with the same address
 * and size at no cost, but a 4-byte load from inside an 8-byte store waits
 * about 1.7 ns (4.4 ticks of its 2.6 GHz time-stamp counter): written as
 * one struct, gcc joined position and meta into one 8-byte store, and the
 * getter's load of meta waited (query abc: each table hit 1.8 ns faster
 * with separate stores). */
static inline void fj__put_handle_t(fj_value *out, fj_parser *p, uint32_t pos, uint32_t depth,
                                    uint64_t parent, unsigned t) {
  out->parser = p;
  out->parent = parent;
  out->pos = pos;
  FJ__SEPARATE_STORES();
  out->meta = depth | (t - 1) << 24;
}

/* The depth of a handle's value (0: the root). */
static inline uint32_t fj__depth(const fj_value *v) { return v->meta & 0xFFFFFFu; }

/* The same for a value whose first byte is c. */
static inline void fj__put_handle(fj_value *out, fj_parser *p, uint32_t pos, uint32_t depth,
                                  uint64_t parent, uint8_t c) {
  fj__put_handle_t(out, p, pos, depth, parent, fj__type_of[c]);
}

/* Checks the scalar (string, number, literal) at structural pos completely:
 * escapes, grammar, spelling, and that it ends at a delimiter (validate.c). */
fj_error fj__check_scalar(fj_parser *p, uint32_t pos);

/* Checks the escapes of the string at structural pos (string.c). Stage 1
 * found its closing quote (fj__string_close) and checked UTF-8 and control
 * characters; only escapes are left, so a string without a backslash is
 * done after one search for it. FJ_ERR_BAD_ESCAPE, FJ_ERR_BAD_SURROGATE. */
fj_error fj__check_string(fj_parser *p, uint32_t pos);

/* fj_parser_parse(), with stage 1 also marking the blocks that hold a \u
 * escape (p->u_blocks), which fj_parser_validate() uses (parser.c). */
fj_error fj__parse_for_validation(fj_parser *p, const void *json, size_t len, fj_value *root);

/* Makes the parser's document stale (FJ_ERR_STALE_DOCUMENT for its handles)
 * without parsing another: for a stream about to move or drop the bytes
 * its last document lies in. */
void fj__parser_forget(fj_parser *p);

/* Advances the cursor until it is back at depth `target` (bracket matching). */
fj_error fj__skip_to_depth(fj_parser *p, uint32_t target);

/* Skips the value starting at structural p->hot.pos (the cursor is at its depth). */
fj_error fj__skip_current(fj_parser *p);

/* The error for structural `close`, a closing bracket of the other kind
 * than the bracket it closes (cursor.c). */
fj_error fj__mismatched_close(fj_parser *p, uint32_t close);

/* Bracket matching counts depth only: this checks that the brackets it
 * paired at structurals `open` and `close` are '[' ']' or '{' '}' (one
 * compare, where a whole value was passed over). Brackets inside are not
 * checked: a value passed over is not validated. */
static inline fj_error fj__check_pair(fj_parser *p, uint32_t open, uint32_t close) {
  if (FJ_LIKELY(fj__char(p, close) == fj__char(p, open) + 2)) return FJ_OK;
  return fj__mismatched_close(p, close);
}

/* Scratch memory. */
void *fj__arena_alloc(fj_parser *p, size_t n);
fj__arena_mark fj__arena_save(const fj_parser *p);
void fj__arena_restore(fj_parser *p, fj__arena_mark m);

/* Unescapes (or, with dst NULL, only checks) the string whose opening quote
 * is at `src`, reading no further than `end`. Writes at most (closing quote
 * - src) bytes to dst. *close receives the closing quote; on error *err_at
 * the offending byte. FJ_ERR_BAD_ESCAPE, FJ_ERR_BAD_SURROGATE,
 * FJ_ERR_UNCLOSED_STRING. */
fj_error fj__unescape(const uint8_t *src, const uint8_t *end, uint8_t *dst, size_t *dst_len,
                      const uint8_t **close, const uint8_t **err_at, uint32_t flags);

/* The closing quote of the string whose opening quote is structural `pos`.
 * Stage 1 indexes every non-whitespace byte outside strings that can follow
 * a string, so only whitespace lies between the closing quote and the next
 * structural (or the end of the input): the quote is found by stepping back
 * from there, without reading the string. */
static inline const uint8_t *fj__string_close(const fj_parser *p, uint32_t pos) {
  const uint8_t *q = p->hot.buf + fj__offset(p, pos + 1) - 1;
  while (*q != '"') /* whitespace */
    q--;
  return q;
}

/* The raw bytes of the string at structural `pos` (a key or a value),
 * between its quotes, its end found by fj__string_close(). */
static inline void fj__raw_key(const fj_parser *p, uint32_t pos, const uint8_t **s, size_t *len) {
  const uint8_t *open = p->hot.buf + p->hot.idx[pos], *close = fj__string_close(p, pos);
  *s = open + 1;
  *len = (size_t)(close - open - 1);
}

/* Whether the n bytes at a and b are equal: short keys are the common case,
 * so a few overlapping word compares instead of a call to memcmp. */
static inline bool fj__bytes_equal(const void *a, const void *b, size_t n) {
  const uint8_t *x = a, *y = b;
  if (n >= 8) {
    uint64_t u, v;
    for (size_t i = 0; i + 8 < n; i += 8) {
      memcpy(&u, x + i, 8);
      memcpy(&v, y + i, 8);
      if (u != v) return false;
    }
    memcpy(&u, x + n - 8, 8);
    memcpy(&v, y + n - 8, 8);
    return u == v;
  }
  if (n >= 4) {
    uint32_t u0, v0, u1, v1;
    memcpy(&u0, x, 4);
    memcpy(&v0, y, 4);
    memcpy(&u1, x + n - 4, 4);
    memcpy(&v1, y + n - 4, 4);
    return u0 == v0 && u1 == v1;
  }
  if (n >= 2) {
    uint16_t u0, v0, u1, v1;
    memcpy(&u0, x, 2);
    memcpy(&v0, y, 2);
    memcpy(&u1, x + n - 2, 2);
    memcpy(&v1, y + n - 2, 2);
    return u0 == v0 && u1 == v1;
  }
  return n == 0 || x[0] == y[0];
}

/* Whether a raw key longer than `key` may unescape to it, by its first byte:
 * one that starts no escape is the unescaped key's first byte too. Most
 * keys passed on the way to another differ there, and then need no search
 * for a backslash. */
static inline bool fj__key_may_shorten_to(const uint8_t *raw, const char *key, size_t key_len) {
  return key_len && (raw[0] == '\\' || raw[0] == (uint8_t)key[0]);
}

/* Whether the raw key (escapes as written) unescapes to `key`; `key_has_bs`
 * tells whether `key` contains a backslash. Escapes only shorten a text, so
 * a raw key as long as `key` matches exactly when the bytes are equal and
 * hold no backslash, a shorter one never matches, and only a longer one with
 * escapes that fj__key_may_shorten_to() lets through needs unescaping
 * (fj__key_equals_escaped). */
fj_error fj__key_equals_escaped(fj_parser *p, const uint8_t *raw, size_t raw_len, const char *key,
                                size_t key_len, bool *equal);
static inline fj_error fj__key_equals(fj_parser *p, const uint8_t *raw, size_t raw_len,
                                      const char *key, size_t key_len, bool key_has_bs,
                                      bool *equal) {
  if (raw_len == key_len) {
    *equal = !key_has_bs && fj__bytes_equal(raw, key, key_len);
    return FJ_OK;
  }
  if (raw_len < key_len || !fj__key_may_shorten_to(raw, key, key_len)) {
    *equal = false;
    return FJ_OK;
  }
  return fj__key_equals_escaped(p, raw, raw_len, key, key_len, equal);
}

/* In the loops of the string primitives below: asks for the line 1 KiB
 * ahead of s. A long string of a document larger than the L2 cache streams
 * from L3 or memory, and the hardware prefetcher alone left the loads
 * waiting: visit gsoc-2018.json (3.3 MB; 1.7k strings of 1.2 KB on average
 * that hold escapes, so they are copied) 7 % faster, validate 4 %; 256
 * bytes ahead gained only 5 %, 512 and 1 KiB the same. A prefetch at every
 * step of the cursor as well (2 KiB past each structural) took gsoc back to
 * 6 % and cost the other inputs up to 4 %. Through uintptr_t: no pointer
 * past the string is formed. */
#define FJ_STRING_PREFETCH(s) __builtin_prefetch((const void *)((uintptr_t)(s) + 1024))

/* The stage-2 string primitives of a stage-1 kernel (string.c). Neither
 * reads a byte outside [s, s + n).
 * find_backslash: the index of the first backslash in the n bytes at s, or n.
 * copy_plain: the same index k, having copied the k bytes before it to dst;
 *   it may write anything to the rest of dst's n bytes, which dst must have. */
typedef struct fj__string_kernel {
  size_t (*find_backslash)(const uint8_t *s, size_t n);
  size_t (*copy_plain)(uint8_t *dst, const uint8_t *s, size_t n);
} fj__string_kernel;

/* The primitives for a stage-1 kernel, by its name; never NULL. */
const fj__string_kernel *fj__string_kernel_for(const char *kernel_name);

/* The first backslash of the n bytes at s (a string's contents), or n,
 * into *first, for strings of up to 64 bytes when the caller's memory
 * reaches far enough: 16-byte loads inline (they may read past the string,
 * never past that memory). Returns false, deciding nothing, otherwise.
 * Most strings are short, and a call costs more than the search. */
static inline bool fj__find_backslash_short(const fj_parser *p, const uint8_t *s, size_t n,
                                            size_t *first) {
  if (!p->hot.backslashes ||
      (n && fj__blocks_clean(&p->hot, s, s + n - 1))) { /* stage 1 saw none */
    *first = n;
    return true;
  }
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  const size_t room = (size_t)(p->read_end - s);
  if (n <= 64 && room >= (n <= 16 ? 16 : 64)) {
    const __m128i bs = _mm_set1_epi8('\\');
    for (size_t i = 0;; i += 16) {
      unsigned m = (unsigned)_mm_movemask_epi8(
          _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + i)), bs));
      if (m) {
        size_t at = i + (size_t)__builtin_ctz(m);
        *first = at < n ? at : n;
        return true;
      }
      if (i + 16 >= n) {
        *first = n;
        return true;
      }
    }
  }
#else
  (void)p, (void)s, (void)n, (void)first;
#endif
  return false;
}

/* The first backslash of the n bytes at s (a string's contents), or n: the
 * short case inline, the rest with the kernel's primitive. */
static inline size_t fj__find_backslash(const fj_parser *p, const uint8_t *s, size_t n) {
  size_t first;
  return fj__find_backslash_short(p, s, n, &first) ? first : p->find_backslash(s, n);
}

/* Unescapes the string value at structural pos into scratch memory, or
 * points into the input when it has no escapes: the contract of
 * fj_value_get_string() after its handle checks (string.c). Called by
 * fj__string_at() when its inline search did not decide. */
fj_error fj__read_string(fj_parser *p, uint32_t pos, const char **s, size_t *len);

/* fj__read_string() with its common case inline: a short string without
 * escapes needs no frame and no call. */
static inline fj_error fj__string_at(fj_parser *p, uint32_t pos, const char **s, size_t *len) {
  const uint8_t *start = p->hot.buf + p->hot.idx[pos];
  size_t first;
  if (FJ_LIKELY(*start == '"')) {
    size_t n = (size_t)(fj__string_close(p, pos) - start - 1);
    if (FJ_LIKELY(fj__find_backslash_short(p, start + 1, n, &first) && first == n)) {
      *s = (const char *)start + 1;
      *len = n;
      return FJ_OK;
    }
  }
  return fj__read_string(p, pos, s, len);
}

/* Field tables (field_table.c). A lookup in object o wrapped around to its
 * start: returns true when o has just been given a usable table. */
bool fj__fields_wrapped(fj_parser *p, const fj_object *o);
/* fj__fields_lookup(): in field_table.h. */
void fj__fields_free(fj_parser *p);

/* ---- streams (stream.c) ---------------------------------------------------
 * A stream runs stage 1 once over a batch of whole documents, then hands each
 * document to the cursor as a window of that index. */

/* Stage 1 over `len` bytes into the parser's index (*n entries, offsets from
 * buf), with the backslash block bytes, and the \u block bytes if
 * `u_blocks` (for validation). The parser then holds no document. Errors as
 * the kernels'. */
fj_error fj__parser_scan_batch(fj_parser *p, const uint8_t *buf, size_t len, bool u_blocks,
                               uint32_t *n, size_t *err_offset);

/* Makes `doc` (`len` bytes) the current document, its index the first `n`
 * entries of the parser's index, which the caller has rebased to doc (the
 * stream moves a document's entries of the last batch scan there), and the
 * batch's block bytes its block bytes. Then the checks and errors of
 * fj_parser_parse(). */
fj_error fj__parser_adopt(fj_parser *p, const uint8_t *doc, uint32_t len, uint32_t n,
                          fj_value *root);

/* Full validation (fj_parser_validate()) of the current document. */
fj_error fj__validate_document(fj_parser *p);

/* After stage 1 refused byte x with `err`: an error the structure shows in
 * front of it if there is one (it comes first in the document), else err at
 * x; recorded as the parser's error (validate.c). */
fj_error fj__first_error(fj_parser *p, fj_error err, size_t x);

#endif
