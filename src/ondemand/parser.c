/* The parser object: buffers reused across documents, running stage 1, the
 * last error and its line:column. */
#include <string.h>

#include "ondemand/internal.h"
#include "scan/stage1.h"
#include "util/location.h"

/* Bytes of the cursor's per-depth arrays, one allocation: the open
 * entries' serials (hot.open), then their first structurals (hot.open_at). */
static size_t open_bytes(uint32_t max_depth) {
  return ((size_t)max_depth + 2) * (sizeof(uint64_t) + sizeof(uint32_t));
}

fj_error fj_parser_new(fj_parser **out, const fj_parser_options *opts) {
  if (!out) return FJ_ERR_INVALID_ARG;
  *out = NULL;
  const fj_allocator *a = opts && opts->allocator ? opts->allocator : &fj__default_allocator;
  if (!a->malloc || !a->realloc || !a->free) return FJ_ERR_INVALID_ARG;
  if (opts && (opts->flags & ~(uint32_t)FJ_PARSE_REPLACE_LONE_SURROGATES))
    return FJ_ERR_INVALID_ARG; /* a flag this version does not know */
  fj_parser *p = fj__malloc(a, sizeof *p);
  if (!p) return FJ_ERR_NOMEM;
  memset(p, 0, sizeof *p);
  p->alloc = *a;
  p->hot.max_depth = opts && opts->max_depth ? opts->max_depth : FJ_DEFAULT_MAX_DEPTH;
  p->flags = opts ? opts->flags : 0;
  if (p->hot.max_depth > FJ_MAX_DEPTH) {
    fj__free(a, p, sizeof *p);
    return FJ_ERR_INVALID_ARG;
  }
  p->hot.open = fj__malloc(a, open_bytes(p->hot.max_depth));
  if (!p->hot.open) {
    fj__free(a, p, sizeof *p);
    return FJ_ERR_NOMEM;
  }
  p->hot.open_at = (uint32_t *)(void *)(p->hot.open + p->hot.max_depth + 2);
  *out = p;
  return FJ_OK;
}

/* Bytes of each block map for a document of up to len bytes: its blocks,
 * then 8 zeroed bytes of slack, as fj__blocks_zero() and fj__clean_window()
 * read 8 map bytes at a time from any block of the document. */
#define MAP_BYTES(len) (FJ_BLOCKS(len) + 8)

/* Bytes of an index of cap entries and, after it in the same allocation,
 * stage 1's backslash block bytes and its \u block bytes for a document
 * of up to cap bytes. */
static size_t index_bytes(size_t cap) {
  return cap ? cap * sizeof(uint32_t) + 2 * MAP_BYTES(cap) : 0;
}

void fj_parser_free(fj_parser *p) {
  if (!p) return;
  fj_allocator a = p->alloc;
  for (fj__arena_block *b = p->scratch.head, *next; b; b = next) {
    next = b->next;
    fj__free(&a, b, sizeof *b + b->cap);
  }
  fj__fields_free(p);
  fj__free(&a, p->hot.idx, index_bytes(p->idx_cap));
  fj__free(&a, p->hot.open, open_bytes(p->hot.max_depth));
  fj__free(&a, p, sizeof *p);
}

/* Grows the index to hold a document of `len` bytes (at most one structural
 * per byte, plus the kernels' slack). Keeps the old buffer on failure.
 * Nothing is copied, so growing costs one allocation: it grows to what this
 * document needs plus an eighth (slowly growing documents do not allocate
 * each time), not to a power of two, which reserved up to twice that
 * (8 bytes per input byte: 34 GB of address space for a 4 GiB document). */
static fj_error reserve_index(fj_parser *p, size_t len) {
  size_t need = len + FJ_INDEX_SLACK;
  if (need <= p->idx_cap) return FJ_OK;
  if (need > (SIZE_MAX / 2) / sizeof(uint32_t))
    return FJ_ERR_NOMEM; /* index_bytes() would overflow */
  size_t cap = need + need / 8;
  cap = cap < 4096 ? 4096 : (cap + 4095) & ~(size_t)4095;
  uint32_t *idx = fj__malloc(&p->alloc, index_bytes(cap));
  if (!idx) return FJ_ERR_NOMEM;
  fj__free(&p->alloc, p->hot.idx, index_bytes(p->idx_cap));
  p->hot.idx = idx;
  p->idx_cap = cap;
  return FJ_OK;
}

/* The backslash block bytes after the index (index_bytes). */
static uint8_t *bs_bytes(const fj_parser *p) {
  return (uint8_t *)(void *)(p->hot.idx + p->idx_cap);
}

/* The \u block bytes after those (index_bytes). */
static uint8_t *u_bytes(const fj_parser *p) { return bs_bytes(p) + MAP_BYTES(p->idx_cap); }

static void reset_scratch(fj_parser *p) {
  for (fj__arena_block *b = p->scratch.head; b; b = b->next)
    b->used = 0;
  p->scratch.cur = p->scratch.head;
}

void fj__parser_forget(fj_parser *p) { p->doc = p->hot.cur = 0; }

/* Forgets the previous document: its handles become stale. */
static void begin_document(fj_parser *p, const void *json, size_t len) {
  p->doc = p->hot.cur = 0; /* older handles are stale from here on */
  fj__cursor_set_document(&p->hot, json, len);
  /* NULL + 0 is undefined in C, and so is an offset past the address space
   * (len = SIZE_MAX: refused as FJ_ERR_CAPACITY right after) */
  p->read_end = len && len <= FJ_MAX_DOCUMENT_SIZE ? p->hot.buf + len : p->hot.buf;
  p->text_goes_on = false;
  fj__cursor_set_count(&p->hot, 0);
  p->u_escapes = p->hot.backslashes = true; /* until stage 1 says otherwise */
  p->hot.bs_blocks = NULL;
  p->hot.bs_base = p->hot.buf;
  p->hot.clean_lo = p->hot.clean_hi = NULL; /* the old window may lie in the new buffer */
  p->hot.left = UINT64_MAX;
  p->hot.handed = 0;
  p->u_blocks = NULL;
  p->hot.pos = p->hot.depth = 0;
  p->err = FJ_OK;
  p->err_offset = 0;
  reset_scratch(p);
  /* stage 2's string primitives follow the stage-1 kernel in use */
  const fj__kernel *k = fj__kernel_active();
  if (FJ_UNLIKELY(k != p->kernel)) {
    const fj__string_kernel *sk = fj__string_kernel_for(k->name);
    p->kernel = k;
    p->find_backslash = sk->find_backslash;
    p->copy_plain = sk->copy_plain;
    p->skip_groups = fj__skip_groups_for(k->name);
  }
}

/* The checks that need the whole index, then the root handle. */
static fj_error finish_document(fj_parser *p, fj_value *root) {
  if (p->hot.n == 0) return fj__fail(p, FJ_ERR_EMPTY, p->hot.len);
  if (p->hot.len >= 3 && memcmp(p->hot.buf, "\xEF\xBB\xBF", 3) == 0)
    return fj__fail(p, FJ_ERR_BOM, 0);
  uint8_t c = p->hot.buf[p->hot.idx[0]];
  if (!fj__is_value_start(c)) return fj__fail(p, FJ_ERR_EXPECTED_VALUE, p->hot.idx[0]);
  if (c != '[' && c != '{' && p->hot.n > 1) {
    /* a scalar root followed by more: a fault in the scalar itself comes
     * first (`not json` is a bad literal at 1:1, not trailing content) */
    fj_error err = fj__check_scalar(p, 0);
    return err ? err : fj__fail(p, FJ_ERR_TRAILING_CONTENT, p->hot.idx[1]);
  }
  p->doc = p->hot.cur = p->hot.open[0] = ++p->hot.serial;
  fj__put_handle(root, p, 0, 0, p->doc, c);
  return FJ_OK;
}

/* fj_parser_parse(); `u_blocks`: stage 1 also marks the blocks holding a
 * \u escape (p->u_blocks), which only validation uses. */
static fj_error parse(fj_parser *p, const void *json, size_t len, fj_value *root, bool u_blocks) {
  if (root) *root = (fj_value){0}; /* what a failure leaves: a handle every call refuses */
  if (!p || (!json && len) || !root) return FJ_ERR_INVALID_ARG;
  begin_document(p, json, len);
  if (len > FJ_MAX_DOCUMENT_SIZE) return fj__fail(p, FJ_ERR_CAPACITY, 0);
  if (reserve_index(p, len)) return fj__fail(p, FJ_ERR_NOMEM, 0);
  fj__stage1_result res = {0, true, true, 0, bs_bytes(p), u_blocks ? u_bytes(p) : NULL};
  memset(res.bs_blocks, 0, MAP_BYTES(len));
  if (u_blocks) memset(res.u_blocks, 0, MAP_BYTES(len));
  fj_error err = fj__kernel_active()->stage1(p->hot.buf, len, p->hot.idx, &res);
  p->hot.bs_blocks = res.bs_blocks;
  p->u_blocks = res.u_blocks;
  fj__cursor_set_count(&p->hot, res.n);
  p->u_escapes = res.u_escapes;
  p->hot.backslashes = res.backslashes;
  if (err) /* validation reports the document's first error, stage 1's or not */
    return u_blocks ? fj__first_error(p, err, res.err_offset) : fj__fail(p, err, res.err_offset);
  return finish_document(p, root);
}

fj_error fj_parser_parse(fj_parser *p, const void *json, size_t len, fj_value *root) {
  return parse(p, json, len, root, false);
}

fj_error fj__parse_for_validation(fj_parser *p, const void *json, size_t len, fj_value *root) {
  return parse(p, json, len, root, true);
}

/* ---- streams: one stage-1 run over a batch of documents --------------------- */

fj_error fj__parser_scan_batch(fj_parser *p, const uint8_t *buf, size_t len, bool u_blocks,
                               uint32_t *n, size_t *err_offset) {
  begin_document(p, buf, 0);
  *n = 0;
  if (len > FJ_MAX_DOCUMENT_SIZE) return FJ_ERR_CAPACITY; /* before buf + len: see above */
  p->batch_read_end = buf + len;
  if (reserve_index(p, len)) return FJ_ERR_NOMEM;
  fj__stage1_result res = {0, true, true, 0, bs_bytes(p), u_blocks ? u_bytes(p) : NULL};
  memset(res.bs_blocks, 0, MAP_BYTES(len));
  if (u_blocks) memset(res.u_blocks, 0, MAP_BYTES(len));
  fj_error err = fj__kernel_active()->stage1(buf, len, p->hot.idx, &res);
  *n = res.n;
  *err_offset = res.err_offset;
  p->batch_buf = buf;
  p->batch_u_blocks = u_blocks;
  p->batch_u_escapes = res.u_escapes;
  p->batch_backslashes = res.backslashes;
  return err;
}

fj_error fj__parser_adopt(fj_parser *p, const uint8_t *doc, uint32_t len, uint32_t n,
                          fj_value *root) {
  begin_document(p, doc, len);
  p->read_end = p->batch_read_end; /* the batch's bytes are the caller's too */
  fj__cursor_set_count(&p->hot, n);
  p->u_escapes = p->batch_u_escapes;
  p->hot.backslashes = p->batch_backslashes;
  /* the batch's block bytes, counted from its first byte */
  p->hot.bs_blocks = bs_bytes(p);
  p->u_blocks = p->batch_u_blocks ? u_bytes(p) : NULL;
  p->hot.bs_base = p->batch_buf;
  return finish_document(p, root);
}

fj_error fj_parser_rewind(fj_parser *p) {
  if (!p || !p->doc) return FJ_ERR_INVALID_ARG;
  p->hot.pos = 0;
  p->hot.depth = 0;
  p->hot.cur = p->doc;
  p->hot.left = UINT64_MAX;
  p->hot.handed = 0;
  /* the root container's entry, kept after it closed so that its ended
   * iteration can tell it is still current (cursor.c, ended()): no more */
  p->hot.open[1] = 0;
  return FJ_OK;
}

/* Line and column (1-based, util/location.h) of a byte offset. */
static void line_column(const uint8_t *buf, size_t len, size_t offset, fj_location *loc) {
  uint64_t line = 1, col = 1;
  fj__column_state st = fj__column_start();
  if (offset > len) offset = len;
  fj__advance_location(buf, 0, offset, &line, &col, &st);
  loc->offset = offset;
  loc->line = (size_t)line;
  loc->column = (size_t)col;
}

fj_error fj_parser_last_error(const fj_parser *p, fj_location *loc) {
  if (!p) return FJ_ERR_INVALID_ARG;
  if (loc) line_column(p->hot.buf, p->hot.len, p->err_offset, loc);
  return p->err;
}

/* ---- scratch arena ---------------------------------------------------------- */

void *fj__arena_alloc(fj_parser *p, size_t n) {
  fj__arena_block *b = p->scratch.cur;
  while (b && b->cap - b->used < n)
    b = b->next;
  if (!b) {
    size_t cap = p->scratch.cur ? p->scratch.cur->cap * 2 : 64 * 1024;
    if (cap < n) cap = n;
    b = fj__malloc(&p->alloc, sizeof *b + cap);
    if (!b) return NULL;
    b->cap = cap;
    b->used = 0;
    b->next = NULL;
    /* append at the end of the chain so earlier blocks keep their order */
    fj__arena_block **tail = &p->scratch.head;
    while (*tail)
      tail = &(*tail)->next;
    *tail = b;
  }
  p->scratch.cur = b;
  void *mem = (char *)(b + 1) + b->used;
  b->used += n;
  return mem;
}

fj__arena_mark fj__arena_save(const fj_parser *p) {
  fj__arena_mark m = {p->scratch.cur, p->scratch.cur ? p->scratch.cur->used : 0};
  return m;
}

void fj__arena_restore(fj_parser *p, fj__arena_mark m) {
  if (!m.cur) {
    reset_scratch(p);
    return;
  }
  for (fj__arena_block *b = m.cur->next; b; b = b->next)
    b->used = 0;
  m.cur->used = m.used;
  p->scratch.cur = m.cur;
}
