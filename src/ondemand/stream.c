/* Document streams: the stream object, its input (a caller's buffer, or a
 * buffer refilled chunk by chunk from a source), and the formats whose
 * documents are delimited by a separator byte (NDJSON, JSON text sequences)
 * or by a byte-level scan (concatenated documents).
 *
 * Separator formats run stage 1 once over a batch of whole documents and
 * hand each document to the cursor as a window of that index (parser.c's
 * fj__parser_adopt). A raw '\n' or 0x1E cannot occur inside a valid JSON
 * string, so memchr finds document ends exactly; when a batch has a stage-1
 * error, the documents before it are rescanned as a smaller batch and the
 * bad one is parsed on its own, so its error is exactly what
 * fj_parser_parse() would report. */
#include <string.h>

#include "ondemand/stream_internal.h"
#include "scan/utf8_scalar.h"
#include "util/alloc.h"

/* ---- creating and freeing ----------------------------------------------------- */

static fj_error check_options(const fj_stream_options *o) {
  if (!o) return FJ_OK;
  if ((unsigned)o->format > FJ_STREAM_ARRAY || (o->flags & ~(uint32_t)FJ_STREAM_VALIDATE))
    return FJ_ERR_INVALID_ARG; /* an unknown flag: a newer header's, which this cannot honour */
  if (o->batch_size > FJ_MAX_DOCUMENT_SIZE || o->max_document_size > FJ_MAX_DOCUMENT_SIZE ||
      o->chunk_size > FJ_MAX_DOCUMENT_SIZE)
    return FJ_ERR_INVALID_ARG;
  return FJ_OK;
}

static fj_error stream_new(fj_stream **out, const fj_stream_options *o, bool chunked) {
  if (!out) return FJ_ERR_INVALID_ARG;
  *out = NULL;
  fj_error err = check_options(o);
  if (err) return err;
  const fj_allocator *a =
      o && o->parser && o->parser->allocator ? o->parser->allocator : &fj__default_allocator;
  if (!a->malloc || !a->realloc || !a->free) return FJ_ERR_INVALID_ARG;
  fj_stream *s = fj__malloc(a, sizeof *s);
  if (!s) return FJ_ERR_NOMEM;
  memset(s, 0, sizeof *s);
  s->alloc = *a;
  s->format = o ? o->format : FJ_STREAM_NDJSON;
  s->flags = o ? o->flags : 0;
  s->batch_size = o && o->batch_size ? o->batch_size : FJ_STREAM_DEFAULT_BATCH_SIZE;
  s->chunk_size = o && o->chunk_size ? o->chunk_size : FJ_STREAM_DEFAULT_CHUNK_SIZE;
  s->max_doc = o && o->max_document_size ? o->max_document_size
               : chunked                 ? FJ_STREAM_DEFAULT_MAX_DOCUMENT
                                         : FJ_MAX_DOCUMENT_SIZE;
  s->line = 1;
  s->pos_column = 1;
  s->pos_dist = 0;
  s->pos_cstate = fj__column_start();
  s->fd = -1;
  s->parser = o ? o->use_parser : NULL;
  s->owns_parser = !s->parser;
  if ((s->owns_parser && (err = fj_parser_new(&s->parser, o ? o->parser : NULL))) ||
      (s->format == FJ_STREAM_ARRAY && (err = fj__array_init(s, o ? o->pointer : NULL)))) {
    fj_stream_free(s);
    return err;
  }
  *out = s;
  return FJ_OK;
}

fj_error fj_stream_new_buffer(fj_stream **out, const void *data, size_t len,
                              const fj_stream_options *opts) {
  if (!data && len) return FJ_ERR_INVALID_ARG;
  fj_error err = stream_new(out, opts, false);
  if (err) return err;
  (*out)->data = data;
  (*out)->end = len;
  (*out)->eof = true;
  return FJ_OK;
}

fj_error fj_stream_new_callback(fj_stream **out, fj_stream_read_fn read, void *ctx,
                                const fj_stream_options *opts) {
  if (!read) return FJ_ERR_INVALID_ARG;
  fj_error err = stream_new(out, opts, true);
  if (err) return err;
  (*out)->read = read;
  (*out)->ctx = ctx;
  return FJ_OK;
}

fj_error fj_stream_new_fd(fj_stream **out, int fd, const fj_stream_options *opts) {
  if (fd < 0) return FJ_ERR_INVALID_ARG;
  fj_error err = fj_stream_new_callback(out, fj__stream_read_fd, NULL, opts);
  if (err) return err;
  (*out)->fd = fd;
  (*out)->ctx = &(*out)->fd;
  return FJ_OK;
}

fj_error fj_stream_new_file(fj_stream **out, FILE *file, const fj_stream_options *opts) {
  if (!file) return FJ_ERR_INVALID_ARG;
  return fj_stream_new_callback(out, fj__stream_read_file, file, opts);
}

void fj_stream_free(fj_stream *s) {
  if (!s) return;
  if (s->owns_parser) fj_parser_free(s->parser);
  fj__array_free(s);
  fj__free(&s->alloc, s->buf, s->cap);
  fj_allocator a = s->alloc;
  fj__free(&a, s, sizeof *s);
}

uint64_t fj_stream_position(const fj_stream *s) { return s ? s->base + s->pos : 0; }

/* ---- the input ---------------------------------------------------------------- */

/* Columns are kept for errors only, so what keeps them is bounded: the
 * column of a byte is known when its line began at most COLUMN_SPAN bytes
 * before it, and then whatever the chunks were (a rule on the bytes, so a
 * buffer and a chunked stream of the same input give the same columns). */
#define COLUMN_SPAN 256

void fj__stream_consume(fj_stream *s, size_t to) {
  uint64_t lines = fj__count_newlines(s->data, s->pos, to);
  s->line += lines;
  if (lines) { /* the last '\n', if the line began within COLUMN_SPAN */
    size_t i = to;
    while (to - i <= COLUMN_SPAN && s->data[i - 1] != '\n')
      i--;
    s->pos_dist = to - i;
    s->pos_column = s->data[i - 1] == '\n' && s->pos_dist <= COLUMN_SPAN;
    s->pos_cstate = fj__column_start();
    if (s->pos_column) fj__advance_columns(s->data, i, to, &s->pos_column, &s->pos_cstate);
  } else if (s->pos_column && s->pos_dist + (to - s->pos) <= COLUMN_SPAN) {
    s->pos_dist += to - s->pos;
    fj__advance_columns(s->data, s->pos, to, &s->pos_column, &s->pos_cstate);
  } else if (to > s->pos) {
    s->pos_column = 0;
  }
  s->pos = to;
}

/* Makes room for one more chunk after the unconsumed bytes, which move to
 * the front of the buffer (that is what bounds memory). Grows by half at a
 * time, so a document spanning many chunks is not copied over and over. */
static fj_error make_room(fj_stream *s) {
  size_t keep = s->end - s->pos;
  if (s->pos) {
    memmove(s->buf, s->buf + s->pos, keep);
    s->base += s->pos;
    s->scanned = s->scanned > s->pos ? s->scanned - s->pos : 0;
    s->batch_start = s->batch_end = 0;
    s->end = keep;
    s->pos = 0;
  }
  if (s->cap - keep >= s->chunk_size) return FJ_OK;
  size_t cap = s->cap + s->cap / 2;
  if (cap < keep + s->chunk_size) cap = keep + s->chunk_size;
  uint8_t *buf = fj__realloc(&s->alloc, s->buf, s->cap, cap);
  if (!buf) return FJ_ERR_NOMEM;
  s->buf = buf;
  s->cap = cap;
  return FJ_OK;
}

/* Reads one chunk (or less: whatever one read returns). A read error is
 * kept in s->pending and ends the input; it is reported once the complete
 * documents before it are delivered. */
static fj_error refill(fj_stream *s) {
  fj_error err = make_room(s);
  if (err) return err;
  s->data = s->buf;
  size_t got = 0, want = s->cap - s->end;
  if (want > s->chunk_size) want = s->chunk_size;
  err = s->read(s->ctx, s->buf + s->end, want, &got);
  /* a callback that breaks its contract has failed its read: FJ_END is not
   * the end of the input (FJ_OK with 0 bytes is), and bytes beyond `want`
   * cannot be in the buffer; either way, nothing may pass as a clean end */
  if (err == FJ_END || (!err && got > want)) err = FJ_ERR_IO;
  if (err) {
    s->pending = err;
    s->eof = true;
  } else if (got == 0) {
    s->eof = true;
  } else {
    s->end += got;
  }
  return FJ_OK;
}

/* ---- documents ---------------------------------------------------------------- */

static void clear_doc(fj_document *doc) { memset(doc, 0, sizeof *doc); }

/* The column (1-based, util/location.h) of data[a], the first byte of a
 * document, for its errors, into s->doc_column and s->doc_cstate: from the
 * last '\n' before it if that is after data[pos], else from data[pos]'s
 * column. 1 when its line began more than COLUMN_SPAN bytes before it
 * (long documents on one line, in the array and concatenated formats):
 * columns then count from the document. Reads the bytes between two
 * documents (whitespace, separators). */
static void doc_start_column(fj_stream *s, size_t a) {
  size_t i = a;
  while (i > s->pos && s->data[i - 1] != '\n')
    i--;
  s->doc_column = 1;
  s->doc_cstate = fj__column_start();
  if (i > s->pos) { /* a line start between two documents */
    if (a - i <= COLUMN_SPAN) fj__advance_columns(s->data, i, a, &s->doc_column, &s->doc_cstate);
    return;
  }
  if (!s->pos_column || s->pos_dist + (a - i) > COLUMN_SPAN) return;
  s->doc_column = s->pos_column;
  s->doc_cstate = s->pos_cstate;
  fj__advance_columns(s->data, i, a, &s->doc_column, &s->doc_cstate);
}

/* Fills in the error's stream offset, line and column (columns in code
 * points, from the line start when the stream knows it, else from the
 * document start: doc_start_column()). */
fj_error fj__stream_doc_error(const fj_stream *s, fj_document *doc, fj_error err, size_t rel) {
  doc->error = err;
  doc->error_offset = doc->offset + rel;
  doc->error_line = doc->line;
  doc->error_column = s->doc_column;
  if (!doc->data) return err;
  const uint8_t *d = (const uint8_t *)doc->data;
  if (rel > doc->len) rel = doc->len;
  fj__column_state st = s->doc_cstate;
  fj__advance_location(d, 0, rel, &doc->error_line, &doc->error_column, &st);
  return err;
}

fj_error fj__stream_fatal(fj_stream *s, fj_error err, size_t at, fj_document *doc) {
  clear_doc(doc);
  s->finished = true;
  doc->index = s->index;
  doc->offset = s->base + at;
  doc->line = s->line + fj__count_newlines(s->data, s->pos, at > s->pos ? at : s->pos);
  doc_start_column(s, at > s->pos ? at : s->pos);
  return fj__stream_doc_error(s, doc, err, 0);
}

fj_error fj__stream_oversized(fj_stream *s, size_t a, fj_document *doc) {
  clear_doc(doc);
  doc->index = s->index++;
  doc->line = s->line + fj__count_newlines(s->data, s->pos, a);
  doc_start_column(s, a);
  doc->offset = s->base + a;
  s->skipping = true;
  return fj__stream_doc_error(s, doc, FJ_ERR_DOCUMENT_TOO_LARGE, 0);
}

/* The first entry at which the brackets balance: 0 for a scalar root (or a
 * stray closing bracket, which the cursor reports), UINT32_MAX if never. */
static uint32_t first_closed(const fj_parser *p) {
  const uint32_t *idx = p->hot.idx;
  int32_t depth = 0;
  for (uint32_t i = 0; i < p->hot.n; i++) {
    depth += fj__bracket_delta[p->hot.buf[idx[i]]];
    if (depth <= 0) return i;
  }
  return UINT32_MAX;
}

/* Brackets must balance and close exactly at the last structural: the lazy
 * cursor would find this only when it gets there, but a truncated document
 * is to be reported as such when it is delivered. The count does not tell
 * `[` from `{`, so an unbalanced document is validated to name its first
 * error: `{"x":[}` is a missing value at the `}`, not a truncation at the
 * end (the error path only; a valid document never gets here). */
static fj_error check_balance(fj_parser *p, uint32_t closed) {
  if (closed != UINT32_MAX && closed + 1 >= p->hot.n) return FJ_OK;
  fj_error err = fj__validate_document(p);
  if (err) return err;
  if (closed == UINT32_MAX) return fj__fail(p, FJ_ERR_TRUNCATED, p->hot.len);
  return fj__fail(p, FJ_ERR_TRAILING_CONTENT, p->hot.idx[closed + 1]);
}

/* Moves the batch entries from s->entry on that lie in the document
 * data[a, b) to the front of the index, rebased to a (the destination never
 * passes the source), and advances s->entry past them. Returns their count;
 * *closed receives first_closed(), taken on the way. */
static uint32_t take_entries(fj_stream *s, size_t a, size_t b, uint32_t *closed) {
  uint32_t *idx = s->parser->hot.idx;
  const uint32_t base = (uint32_t)(a - s->batch_start), end = (uint32_t)(b - s->batch_start);
  uint32_t i = s->entry, k = 0, first = UINT32_MAX;
  int32_t depth = 0;
  while (i < s->batch_n && idx[i] < base) /* a separator's own entry (RS) */
    i++;
  for (; i < s->batch_n && idx[i] < end; i++, k++) {
    idx[k] = idx[i] - base;
    depth += fj__bracket_delta[s->data[a + idx[k]]];
    first = depth <= 0 && first == UINT32_MAX ? k : first;
  }
  s->entry = i;
  *closed = first;
  return k;
}

/* Parses the document: through the batch's index when it has one (the
 * window must start at the document's first byte, else the batch saw the
 * bytes differently, as with `\x1Etrue`), otherwise on its own. `taken`:
 * entries take_line() already moved. *closed receives first_closed(). */
static fj_error parse_doc(fj_stream *s, size_t a, size_t b, uint32_t taken, fj_value *root,
                          uint32_t *closed) {
  fj_parser *p = s->parser;
  if (taken) {
    *closed = taken - 1;
    return fj__parser_adopt(p, s->data + a, (uint32_t)(b - a), taken, root);
  }
  if (s->batch_indexed && a >= s->batch_start && b <= s->batch_end) {
    uint32_t n = take_entries(s, a, b, closed);
    fj_error err = fj__parser_adopt(p, s->data + a, (uint32_t)(b - a), n, root);
    if (p->hot.n && p->hot.idx[0] == 0) return err;
    s->batch_indexed = false; /* the parse below overwrites the batch index */
  }
  /* validating, a stage-1 error gives way to an earlier one the structure
   * shows, as in fj_parser_validate() */
  fj_error err = s->flags & FJ_STREAM_VALIDATE
                     ? fj__parse_for_validation(p, s->data + a, b - a, root)
                     : fj_parser_parse(p, s->data + a, b - a, root);
  *closed = err ? 0 : first_closed(p);
  return err;
}

/* A scalar at the top of a JSON text sequence must be followed by
 * whitespace, or it may have been cut short (RFC 7464 section 2.4). */
static bool seq_truncated(const fj_stream *s, size_t b) {
  const fj_parser *p = s->parser;
  uint8_t c = p->hot.buf[p->hot.idx[0]];
  if (c == '[' || c == '{' || c == '"') return false;
  return b >= s->end || !fj__is_ws(s->data[b]);
}

/* Whether the n bytes at t begin a UTF-8 character that they do not finish. */
static bool unfinished_character(const uint8_t *t, size_t n) {
  fj__utf8_dfa st = {0, 0, 0};
  for (size_t i = 0; i < n; i++)
    if (!fj__utf8_step(&st, t[i]) || (i && !st.need)) return false;
  return st.need != 0;
}

/* A document the end of the input cut off inside a string is truncated, also
 * when the cut fell inside a character (stage 1 then saw bad UTF-8 first):
 * when the document's bytes end in an unfinished character and the text
 * before it ends inside a string. The error stays as it was otherwise. */
static fj_error cut_in_string(fj_stream *s, size_t a, size_t b, fj_error err) {
  fj_parser *p = s->parser;
  const size_t at = p->err_offset;
  if (err != FJ_ERR_UTF8 || at >= b - a || !unfinished_character(s->data + a + at, b - a - at))
    return err;
  fj_value root;
  s->batch_indexed = false; /* the parse below overwrites the index */
  if (fj_parser_parse(p, s->data + a, at, &root) == FJ_ERR_UNCLOSED_STRING) return FJ_ERR_TRUNCATED;
  return fj__fail(p, err, at); /* the parse above replaced the error */
}

fj_error fj__stream_deliver(fj_stream *s, size_t a, size_t b, bool cut, fj_document *doc) {
  /* every field is set below: no memset (its start-up cost shows per document) */
  doc->error = FJ_OK;
  doc->error_offset = doc->error_line = doc->error_column = 0;
  doc->root = (fj_value){0};
  doc->index = s->index++;
  doc->offset = s->base + a;
  doc->line = s->line + fj__count_newlines(s->data, s->pos, a);
  doc_start_column(s, a);
  doc->data = (const char *)s->data + a;
  doc->len = b - a;
  uint32_t taken = s->taken;
  s->taken = 0;
  if (b - a > s->max_doc) {
    doc->data = NULL;
    doc->len = 0;
    return fj__stream_doc_error(s, doc, FJ_ERR_DOCUMENT_TOO_LARGE, 0);
  }
  fj_parser *p = s->parser;
  uint32_t closed;
  fj_error err = parse_doc(s, a, b, taken, &doc->root, &closed);
  p->text_goes_on = b < s->end; /* whitespace or a separator follows the text */
  if (!err && s->format == FJ_STREAM_JSON_SEQ && seq_truncated(s, b)) {
    err = fj__check_scalar(p, 0); /* a malformed one (`1x`, `tru`) is reported as such */
    if (!err) err = fj__fail(p, FJ_ERR_TRUNCATED, b - a);
  }
  if (!err)
    err = s->flags & FJ_STREAM_VALIDATE ? fj__validate_document(p) : check_balance(p, closed);
  if (err == FJ_ERR_UNCLOSED_STRING && cut) err = FJ_ERR_TRUNCATED;
  if (err == FJ_ERR_UTF8 && cut) err = cut_in_string(s, a, b, err);
  if (!err) return FJ_OK;
  doc->root = (fj_value){0};
  return fj__stream_doc_error(s, doc, err, p->err_offset);
}

/* ---- separator formats: NDJSON and JSON text sequences -------------------------- */

static uint8_t separator(const fj_stream *s) { return s->format == FJ_STREAM_NDJSON ? '\n' : 0x1E; }

static const uint8_t *find_last(const uint8_t *d, uint8_t c, size_t n) {
  while (n--)
    if (d[n] == c) return d + n;
  return NULL;
}

/* Bytes of a document's text in data[a, end) (whitespace trimmed at both ends). */
static size_t text_length(const fj_stream *s, size_t a) {
  size_t b = s->end;
  a = fj__skip_ws(s->data, a, b);
  while (b > a && fj__is_ws(s->data[b - 1]))
    b--;
  return b - a;
}

/* Runs stage 1 over data[pos, batch_end). On an error, the batch shrinks to
 * the documents before the bad one; a bad first document is parsed alone. */
static fj_error scan_batch(fj_stream *s, uint8_t sep) {
  s->batch_start = s->pos;
  for (;;) {
    size_t len = s->batch_end - s->pos, err_offset = 0;
    s->batch_indexed = false;
    if (len > s->max_doc && !memchr(s->data + s->pos, sep, len - 1))
      return FJ_OK; /* one oversized document: reported without scanning */
    fj_error err = fj__parser_scan_batch(s->parser, s->data + s->pos, len,
                                         s->flags & FJ_STREAM_VALIDATE, &s->batch_n, &err_offset);
    if (err == FJ_ERR_NOMEM) return err;
    if (!err) {
      s->batch_indexed = true;
      s->entry = 0;
      return FJ_OK;
    }
    const uint8_t *q = find_last(s->data + s->pos, sep, err_offset);
    if (!q) { /* the first document is the bad one */
      q = memchr(s->data + s->pos, sep, len);
      s->batch_end = q ? (size_t)(q - s->data) + 1 : s->batch_end;
      return FJ_OK;
    }
    s->batch_end = (size_t)(q - s->data) + 1;
  }
}

/* Chooses the next batch: whole documents from pos, up to batch_size bytes
 * (one document if it is longer). FJ__STEP_NEED_MORE when no complete
 * document is buffered yet. */
static int next_batch(fj_stream *s, uint8_t sep, fj_document *doc, fj_error *err) {
  size_t avail = s->end - s->pos;
  size_t lim = s->pos + (avail < s->batch_size ? avail : s->batch_size);
  const uint8_t *q = NULL;
  /* [pos, scanned) holds no separator: it was searched when the last call
   * asked for more bytes, so a long document costs one pass, not one per chunk */
  size_t from = s->scanned > s->pos ? s->scanned : s->pos;
  if ((lim < s->end || !fj__stream_ended(s)) && from < lim)
    q = find_last(s->data + from, sep, lim - from);
  if (!q && (lim < s->end || !fj__stream_ended(s))) {
    q = memchr(s->data + from, sep, s->end - from);
    if (!q && !fj__stream_ended(s)) {
      s->scanned = s->end;
      if (text_length(s, s->pos) > s->max_doc) {
        *err = fj__stream_oversized(s, fj__skip_ws(s->data, s->pos, s->end), doc);
        return FJ__STEP_DOC;
      }
      return FJ__STEP_NEED_MORE;
    }
  }
  s->batch_end = q ? (size_t)(q - s->data) + 1 : s->end;
  *err = scan_batch(s, sep);
  s->scanned = s->batch_end; /* after it: scan_batch may end the batch earlier */
  return *err ? FJ__STEP_DOC : FJ__STEP_AGAIN;
}

/* Discards the rest of an oversized document, up to its separator. */
static int skip_oversized(fj_stream *s, uint8_t sep) {
  const uint8_t *q = memchr(s->data + s->pos, sep, s->end - s->pos);
  if (!q) {
    fj__stream_consume(s, s->end);
    if (!fj__stream_ended(s)) return FJ__STEP_NEED_MORE;
    s->skipping = false; /* the input ended inside it: else this step would repeat forever */
    return FJ__STEP_AGAIN;
  }
  fj__stream_consume(s, (size_t)(q - s->data) + 1);
  s->skipping = false;
  return FJ__STEP_AGAIN;
}

/* Moves past a record; an NDJSON line holds no newline but its end, so
 * its newlines need no counting. */
static void consume_record(fj_stream *s, size_t next, bool terminated) {
  if (s->format != FJ_STREAM_NDJSON) {
    fj__stream_consume(s, next);
    return;
  }
  s->line += terminated;
  s->pos_column = terminated;
  s->pos_dist = 0;
  s->pos_cstate = fj__column_start();
  s->pos = next;
}

/* An NDJSON line found through the batch's index instead of a search of all
 * its bytes, its entries moved as take_entries() would. The entries run from
 * s->entry, at pos, to where their brackets balance. Stage 1 rejects raw
 * control characters in strings, so a newline can only be whitespace
 * between tokens; there is none among the entries when none after the
 * first follows a byte <= ' '. The newline must then come before the next
 * entry. Returns the newline and sets s->taken, or returns NULL with the
 * index as it was (the caller searches). The line is found first and its
 * entries moved after, in a loop of their own that the compiler vectorises
 * (moving while searching cost twice the instructions a line). Kept out of
 * line: inlined, its loop loses its registers to the caller's. */
static FJ_NOINLINE const uint8_t *take_line(fj_stream *s) {
  uint32_t *idx = s->parser->hot.idx;
  const uint32_t e = s->entry, base = (uint32_t)(s->pos - s->batch_start);
  if (!s->batch_indexed || e >= s->batch_n || idx[e] != base) return NULL;
  const uint8_t *d = s->data + s->batch_start, *nl = NULL;
  const uint32_t *src = idx + e, *q = src, *end = idx + s->batch_n;
  for (int32_t depth = fj__bracket_delta[d[*q]]; depth > 0; depth += fj__bracket_delta[d[*q]])
    if (++q == end || d[*q - 1] <= ' ') return NULL;
  size_t from = (size_t)*q + 1, to = q + 1 != end ? q[1] : s->batch_end - s->batch_start;
  if (from < to) /* usually `]\n` */
    nl = d[from] == '\n' ? d + from : memchr(d + from, '\n', to - from);
  if (!nl) return NULL;
  const uint32_t m = (uint32_t)(q - src) + 1;
  for (uint32_t k = 0; k < m; k++) /* the destination never passes the source */
    idx[k] = src[k] - base;
  s->entry = e + m;
  s->taken = m;
  return nl;
}

/* Delivers the next document of the batch (skipping empty ones). */
static int from_batch(fj_stream *s, uint8_t sep, fj_document *doc, fj_error *err) {
  size_t stop = s->batch_end, next = s->batch_end;
  const uint8_t *q = sep == '\n' ? take_line(s) : NULL;
  if (!q) q = memchr(s->data + s->pos, sep, s->batch_end - s->pos);
  if (q) {
    stop = (size_t)(q - s->data);
    next = stop + 1;
  }
  size_t a = fj__skip_ws(s->data, s->pos, stop), b = stop;
  while (b > a && fj__is_ws(s->data[b - 1]))
    b--;
  if (a == b) {
    consume_record(s, next, q != NULL);
    return FJ__STEP_AGAIN;
  }
  *err = fj__stream_deliver(s, a, b, !q && next == s->end, doc);
  consume_record(s, next, q != NULL);
  return FJ__STEP_DOC;
}

static int step_separated(fj_stream *s, fj_document *doc, fj_error *err) {
  uint8_t sep = separator(s);
  if (s->skipping) return skip_oversized(s, sep);
  if (s->pos < s->batch_end && s->pos >= s->batch_start) return from_batch(s, sep, doc, err);
  if (s->pos == s->end) return fj__stream_ended(s) ? FJ__STEP_DOC : FJ__STEP_NEED_MORE;
  return next_batch(s, sep, doc, err);
}

/* ---- concatenated documents ----------------------------------------------------- */

static int step_concatenated(fj_stream *s, fj_document *doc, fj_error *err) {
  if (s->vs.state == FJ__VS_IDLE && !s->skipping) {
    fj__stream_consume(s, fj__skip_ws(s->data, s->pos, s->end));
    if (s->pos == s->end) return fj__stream_ended(s) ? FJ__STEP_DOC : FJ__STEP_NEED_MORE;
    s->scanned = s->pos;
  }
  bool done = fj__vscan_run(&s->vs, s->data, &s->scanned, s->end);
  if (s->skipping) { /* the bytes of an oversized document are dropped as scanned */
    fj__stream_consume(s, s->scanned);
    if (!done && !fj__stream_ended(s)) return FJ__STEP_NEED_MORE;
    s->skipping = false;
    s->vs.state = FJ__VS_IDLE;
    return FJ__STEP_AGAIN;
  }
  if (!done && !fj__stream_ended(s)) {
    if (s->scanned - s->pos > s->max_doc) {
      *err = fj__stream_oversized(s, s->pos, doc);
      fj__stream_consume(s, s->scanned);
      return FJ__STEP_DOC;
    }
    return FJ__STEP_NEED_MORE;
  }
  bool cut = !done && s->vs.state != FJ__VS_SCALAR;
  s->vs.state = FJ__VS_IDLE;
  *err = fj__stream_deliver(s, s->pos, s->scanned, cut, doc);
  if (cut && *err == FJ_OK) { /* an open string or bracket at the end: never a whole value */
    doc->root = (fj_value){0};
    *err = fj__stream_doc_error(s, doc, FJ_ERR_TRUNCATED, doc->len);
  }
  fj__stream_consume(s, s->scanned);
  return FJ__STEP_DOC;
}

/* ---- the driver ----------------------------------------------------------------- */

fj_error fj_stream_next(fj_stream *s, fj_document *doc) {
  if (!s || !doc) return FJ_ERR_INVALID_ARG;
  /* the last document ends here, whatever comes next (a refill may move
   * its bytes before any parse would make its handles stale: a document
   * refused unparsed, the end of an array stream) */
  fj__parser_forget(s->parser);
  for (;;) {
    if (s->finished) {
      clear_doc(doc);
      doc->index = s->index;
      doc->offset = s->base + s->pos;
      return FJ_END;
    }
    fj_error err = FJ_END;
    int r = s->format == FJ_STREAM_ARRAY          ? fj__array_step(s, doc, &err)
            : s->format == FJ_STREAM_CONCATENATED ? step_concatenated(s, doc, &err)
                                                  : step_separated(s, doc, &err);
    if (r == FJ__STEP_DOC) {
      if (err == FJ_END || err == FJ_ERR_NOMEM) s->finished = true;
      if (err != FJ_END) return err;
      continue;
    }
    if (r != FJ__STEP_NEED_MORE) continue;
    if (s->pending) return fj__stream_fatal(s, s->pending, s->pos, doc);
    if (s->eof) { /* a step wants bytes after a clean end: nothing is left */
      s->finished = true;
      continue;
    }
    if ((err = refill(s))) return fj__stream_fatal(s, err, s->pos, doc);
  }
}
