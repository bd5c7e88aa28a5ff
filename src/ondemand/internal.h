/* Stage 2 internals (private): the parser object and the helpers that the
 * cursor, scalar getters, JSON Pointer and validation share. */
#ifndef FJ_ONDEMAND_INTERNAL_H
#define FJ_ONDEMAND_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fastjson/parser.h"
#include "util/alloc.h"

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

/* Iteration states of fj_array / fj_object. */
enum { FJ_ITER_FRESH = 0, FJ_ITER_MIDDLE = 1, FJ_ITER_DONE = 2 };

struct fj_parser {
  fj_allocator alloc;
  uint32_t max_depth;
  uint32_t flags;
  const uint8_t *buf; /* the current document (caller's memory) */
  size_t len;
  uint32_t *idx; /* structural index, n entries (+ slack) */
  size_t idx_cap;
  uint32_t n;
  /* the cursor */
  uint32_t pos;    /* next structural to read */
  uint32_t depth;  /* containers the cursor is inside */
  uint32_t gen;    /* bumped per document: older handles are stale */
  uint32_t serial; /* last container-entry serial handed out */
  uint32_t *open;  /* open[d]: serial of the open container whose children have depth d */
  fj__arena scratch;
  /* the last error */
  fj_error err;
  size_t err_offset;
  bool has_doc;
};

/* Records an error at byte `offset` and returns it. */
static inline fj_error fj__fail(fj_parser *p, fj_error e, size_t offset) {
  p->err = e;
  p->err_offset = offset;
  return e;
}

/* The byte at structural `pos`, or 0 past the last one. */
static inline uint8_t fj__char(const fj_parser *p, uint32_t pos) {
  return pos < p->n ? p->buf[p->idx[pos]] : 0;
}

/* Byte offset of structural `pos` (the input length past the last one). */
static inline size_t fj__offset(const fj_parser *p, uint32_t pos) {
  return pos < p->n ? p->idx[pos] : p->len;
}

/* Whether a byte may follow a number or literal: whitespace, an operator,
 * or the end of the input (checked by the caller). */
static inline bool fj__is_delimiter(uint8_t c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == ',' || c == ']' || c == '}' ||
         c == ':' || c == '[' || c == '{';
}

/* Whether a byte can start a JSON value. */
static inline bool fj__is_value_start(uint8_t c) {
  return c == '"' || c == '{' || c == '[' || c == '-' || (c >= '0' && c <= '9') || c == 't' ||
         c == 'f' || c == 'n';
}

/* Checks that a value handle belongs to the current document and that its
 * parent container is still open. */
fj_error fj__check_value(const fj_value *v);

/* Advances the cursor until it is back at depth `target` (bracket matching). */
fj_error fj__skip_to_depth(fj_parser *p, uint32_t target);

/* Skips the value starting at structural p->pos (the cursor is at its depth). */
fj_error fj__skip_current(fj_parser *p);

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

/* The raw bytes of the key string at structural `pos`, between its quotes,
 * found from the ':' that follows it. */
void fj__raw_key(const fj_parser *p, uint32_t pos, const uint8_t **s, size_t *len);

/* Whether the raw key (escapes as written) unescapes to `key`. */
fj_error fj__key_equals(fj_parser *p, const uint8_t *raw, size_t raw_len, const char *key,
                        size_t key_len, bool *equal);

#endif
