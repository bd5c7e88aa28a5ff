/* FJ_STREAM_ARRAY: the elements of one array, however large, each delivered
 * as a document. The path to the array (a JSON Pointer) is followed byte by
 * byte: keys are compared as they stream past, and values off the path are
 * delimited with the resumable value scanner. Each element is delimited the
 * same way and handed to the parser, so memory is bounded by the largest
 * element (or value off the path) plus a chunk.
 *
 * Nothing outside the elements reaches the caller, so all of it is checked
 * here, whatever the flags: the punctuation around the elements and on the
 * path (the containers around the array are closed by the phases, with
 * their own kind of bracket), and every key and every value off the path,
 * each validated by the parser as a text of its own once delimited (the
 * scanner only counts brackets). The stream ends at the first error in the
 * input's order, with the code validation gives it.
 *
 * Every phase below either advances (consuming bytes), delivers an element,
 * or asks for more bytes; a phase that asks is simply run again after the
 * refill, so partial keys and punctuation are re-read from pos. */
#include <string.h>

#include "ondemand/stream_internal.h"
#include "util/alloc.h"

/* ---- the pointer ---------------------------------------------------------------- */

fj_error fj__array_init(fj_stream *s, const char *ptr) {
  size_t len = ptr ? strlen(ptr) : 0, ntok = 0;
  if (len && ptr[0] != '/') return FJ_ERR_BAD_POINTER;
  for (size_t i = 0; i < len; i++)
    ntok += ptr[i] == '/';
  s->tokens = fj__malloc(&s->alloc, len + 1);
  s->token_end = fj__malloc(&s->alloc, (ntok + 1) * sizeof *s->token_end);
  s->path_kinds = fj__malloc(&s->alloc, ntok + 1);
  s->tokens_len = len + 1;
  if (!s->tokens || !s->token_end || !s->path_kinds) return FJ_ERR_NOMEM;
  size_t out = 0, k = 0;
  for (size_t i = 1; i <= len; i++) {
    if (i == len || ptr[i] == '/') {
      s->token_end[k++] = out;
    } else if (ptr[i] == '~') { /* RFC 6901 section 4: ~0 is '~', ~1 is '/' */
      if (i + 1 >= len || (ptr[i + 1] != '0' && ptr[i + 1] != '1')) return FJ_ERR_BAD_POINTER;
      s->tokens[out++] = ptr[++i] == '0' ? '~' : '/';
    } else {
      s->tokens[out++] = (uint8_t)ptr[i];
    }
  }
  s->ntokens = ntok;
  s->phase = FJ__AR_NAV_VALUE;
  return FJ_OK;
}

void fj__array_free(fj_stream *s) {
  fj__free(&s->alloc, s->tokens, s->tokens_len);
  fj__free(&s->alloc, s->token_end, (s->ntokens + 1) * sizeof *s->token_end);
  fj__free(&s->alloc, s->path_kinds, s->ntokens + 1);
  fj__free(&s->alloc, s->key_buf, s->key_cap);
}

static const uint8_t *token(const fj_stream *s, size_t k, size_t *len) {
  size_t start = k ? s->token_end[k - 1] : 0;
  *len = s->token_end[k] - start;
  return s->tokens + start;
}

/* An array index token: decimal, no leading zeros (RFC 6901 section 4). */
static fj_error token_index(const fj_stream *s, uint64_t *out) {
  size_t len;
  const uint8_t *t = token(s, s->token, &len);
  if (len == 1 && t[0] == '-') return FJ_ERR_INDEX_RANGE;
  if (len == 0 || (len > 1 && t[0] == '0')) return FJ_ERR_BAD_POINTER;
  uint64_t v = 0;
  for (size_t i = 0; i < len; i++) {
    if (t[i] < '0' || t[i] > '9') return FJ_ERR_BAD_POINTER;
    if (v > (UINT64_MAX - 9) / 10) { /* beyond any array, as fj_value_at_pointer() says */
      v = UINT64_MAX;
      continue;
    }
    v = v * 10 + (uint64_t)(t[i] - '0');
  }
  *out = v;
  return FJ_OK;
}

/* ---- steps -------------------------------------------------------------------- */

/* Skips whitespace; FJ__STEP_AGAIN with a byte at pos, or NEED_MORE. At the
 * clean end of the input, ends the stream with `at_end` (FJ_END or an error). */
static int need_byte(fj_stream *s, fj_document *doc, fj_error *err, fj_error at_end) {
  fj__stream_consume(s, fj__skip_ws(s->data, s->pos, s->end));
  if (s->pos < s->end) return FJ__STEP_AGAIN;
  if (!fj__stream_ended(s)) return FJ__STEP_NEED_MORE;
  *err = at_end == FJ_END ? FJ_END : fj__stream_fatal(s, at_end, s->pos, doc);
  return FJ__STEP_DOC;
}

static int fatal(fj_stream *s, fj_document *doc, fj_error *err, fj_error e) {
  *err = fj__stream_fatal(s, e, s->pos, doc);
  return FJ__STEP_DOC;
}

/* Validates data[a, b), a key or a value off the path, as a JSON text of its
 * own with the stream's parser (no document of the stream is held while the
 * path is followed, and the last element's ends with this call). A number
 * or literal at b is cut off only when the input ends there. On an error,
 * ends the stream with it at its byte. */
static int check_text(fj_stream *s, fj_document *doc, fj_error *err, size_t a, size_t b) {
  fj_parser *p = s->parser;
  fj_value root;
  /* the first error in the text, whichever stage finds it (as validation) */
  fj_error e = fj__parse_for_validation(p, s->data + a, b - a, &root);
  p->text_goes_on = b < s->end || !fj__stream_ended(s);
  if (!e) e = fj__validate_document(p);
  if (!e) return FJ__STEP_AGAIN;
  *err = fj__stream_fatal(s, e, a + p->err_offset, doc);
  return FJ__STEP_DOC;
}

/* The end of the input cut off the key or value at pos: the first error in
 * what there is of it, as validation finds it, else the truncation. */
static int cut_off(fj_stream *s, fj_document *doc, fj_error *err) {
  int r = check_text(s, doc, err, s->pos, s->end);
  if (r != FJ__STEP_AGAIN) return r;
  *err = fj__stream_fatal(s, FJ_ERR_TRUNCATED, s->end, doc);
  return FJ__STEP_DOC;
}

/* The error for byte c where a comma or closing bracket is due after the
 * value passed last: FJ_ERR_EXPECTED_COMMA, except for a quote right after
 * a number or literal (no space, no bracket between), which validation
 * reads on into (`1"a"`) where the scanner ends the value before it. */
static fj_error not_comma(const fj_stream *s, uint8_t c) {
  if (c != '"' || s->base + s->pos != s->value_end) return FJ_ERR_EXPECTED_COMMA;
  switch (fj__type_of[s->value_first] - 1) { /* the value's type by its first byte */
  case FJ_TYPE_NUMBER: return FJ_ERR_BAD_NUMBER;
  case FJ_TYPE_BOOL:
  case FJ_TYPE_NULL: return FJ_ERR_BAD_LITERAL;
  default: return FJ_ERR_EXPECTED_COMMA;
  }
}

/* Whether the input starts with a byte order mark, which is refused as by
 * fj_parser_parse() (RFC 8259 section 8.1): 1 yes, 0 no, -1 need bytes. */
static int starts_with_bom(const fj_stream *s) {
  static const uint8_t bom[3] = {0xEF, 0xBB, 0xBF};
  size_t have = s->end - s->pos < 3 ? s->end - s->pos : 3;
  if (s->base + s->pos != 0 || memcmp(s->data + s->pos, bom, have) != 0) return 0;
  return have == 3 ? 1 : fj__stream_ended(s) ? 0 : -1;
}

/* A value on the path: descend into it, or start streaming it. */
static int nav_value(fj_stream *s, fj_document *doc, fj_error *err) {
  uint8_t c = s->data[s->pos];
  if (s->token == 0 && c == 0xEF) {
    int bom = starts_with_bom(s);
    if (bom < 0) return FJ__STEP_NEED_MORE;
    if (bom) return fatal(s, doc, err, FJ_ERR_BOM);
  }
  if (!fj__is_value_start(c)) return fatal(s, doc, err, FJ_ERR_EXPECTED_VALUE);
  if (s->token == s->ntokens) {
    if (c != '[') return fatal(s, doc, err, FJ_ERR_WRONG_TYPE);
    s->phase = FJ__AR_FIRST;
  } else if (c == '{') {
    s->phase = FJ__AR_NAV_KEY_FIRST;
  } else if (c == '[') {
    fj_error e = token_index(s, &s->skip_count);
    if (e) return fatal(s, doc, err, e);
    s->phase = FJ__AR_NAV_INDEX_FIRST;
  } else {
    return fatal(s, doc, err, FJ_ERR_WRONG_TYPE);
  }
  if (s->token < s->ntokens) s->path_kinds[s->enclosing++] = c;
  fj__stream_consume(s, s->pos + 1);
  return FJ__STEP_AGAIN;
}

/* A key on the path: read it whole (keys are short; a partial one is re-read
 * after the refill) and compare it, unescaped, with the pointer's token. */
static int nav_key(fj_stream *s, fj_document *doc, fj_error *err) {
  if (s->data[s->pos] != '"') return fatal(s, doc, err, FJ_ERR_EXPECTED_KEY);
  fj__vscan v = {0, FJ__VS_STRING, false};
  size_t i = s->pos + 1;
  /* a key is held whole, so it is limited like a document; checked the
   * same way whether or not it came in one chunk */
  bool whole = fj__vscan_string(&v, s->data, &i, s->end);
  if ((whole ? i : s->end) - s->pos > s->max_doc)
    return fatal(s, doc, err, FJ_ERR_DOCUMENT_TOO_LARGE);
  if (!whole) return fj__stream_ended(s) ? cut_off(s, doc, err) : FJ__STEP_NEED_MORE;
  int r = check_text(s, doc, err, s->pos, i); /* UTF-8 and control characters too */
  if (r != FJ__STEP_AGAIN) return r;
  size_t raw = i - s->pos;
  if (s->in_tail) { /* a key after the array: checked, not compared */
    s->key_match = false;
    fj__stream_consume(s, i);
    s->phase = FJ__AR_NAV_COLON;
    return FJ__STEP_AGAIN;
  }
  if (raw > s->key_cap) {
    uint8_t *b = fj__realloc(&s->alloc, s->key_buf, s->key_cap, raw);
    if (!b) return fatal(s, doc, err, FJ_ERR_NOMEM);
    s->key_buf = b;
    s->key_cap = raw;
  }
  size_t klen = 0, tlen;
  const uint8_t *close, *err_at;
  fj_error e = fj__unescape(s->data + s->pos, s->data + i, s->key_buf, &klen, &close, &err_at,
                            s->parser->flags);
  if (e) return fatal(s, doc, err, e);
  const uint8_t *t = token(s, s->token, &tlen);
  s->key_match = klen == tlen && memcmp(s->key_buf, t, tlen) == 0;
  fj__stream_consume(s, i);
  s->phase = FJ__AR_NAV_COLON;
  return FJ__STEP_AGAIN;
}

/* Passes over a value off the path: delimits it, held whole as an element
 * is (up to max_document_size), then validates it. */
static int nav_skip(fj_stream *s, fj_document *doc, fj_error *err) {
  if (s->vs.state == FJ__VS_IDLE) {
    int r = need_byte(s, doc, err, FJ_ERR_TRUNCATED);
    if (r != FJ__STEP_AGAIN) return r;
    if (!fj__is_value_start(s->data[s->pos])) return fatal(s, doc, err, FJ_ERR_EXPECTED_VALUE);
    s->scanned = s->pos;
    s->value_first = s->data[s->pos];
  }
  bool done = fj__vscan_run(&s->vs, s->data, &s->scanned, s->end);
  /* limited like an element, whether or not it came in one chunk */
  if (s->scanned - s->pos > s->max_doc) return fatal(s, doc, err, FJ_ERR_DOCUMENT_TOO_LARGE);
  if (done || (fj__stream_ended(s) && s->vs.state == FJ__VS_SCALAR)) {
    s->vs.state = FJ__VS_IDLE;
    int r = check_text(s, doc, err, s->pos, s->scanned);
    if (r != FJ__STEP_AGAIN) return r;
    s->value_end = s->base + s->scanned;
    fj__stream_consume(s, s->scanned);
    s->phase = s->ar_after;
    return FJ__STEP_AGAIN;
  }
  return fj__stream_ended(s) ? cut_off(s, doc, err) : FJ__STEP_NEED_MORE;
}

/* An element of the streamed array: delimit it, then parse it. */
static int element(fj_stream *s, fj_document *doc, fj_error *err) {
  if (s->vs.state == FJ__VS_IDLE && !s->skipping) {
    uint8_t c = s->data[s->pos];
    if (c == ']' || c == '}' || c == ',' || c == ':')
      return fatal(s, doc, err, FJ_ERR_EXPECTED_VALUE);
    s->scanned = s->pos;
    s->value_first = c;
  }
  bool done = fj__vscan_run(&s->vs, s->data, &s->scanned, s->end);
  bool ended = fj__stream_ended(s);
  if (s->skipping) { /* an oversized element: drop it as it is scanned */
    fj__stream_consume(s, s->scanned);
    if (!done && !ended) return FJ__STEP_NEED_MORE;
    /* done, or cut off by the end of the input: then the punctuation due
     * after it reports the array's truncation, as for a buffer stream */
    s->skipping = false;
    s->vs.state = FJ__VS_IDLE;
    s->value_end = s->base + s->scanned;
    s->phase = FJ__AR_AFTER;
    return FJ__STEP_AGAIN;
  }
  if (!done && !ended) {
    if (s->scanned - s->pos <= s->max_doc) return FJ__STEP_NEED_MORE;
    *err = fj__stream_oversized(s, s->pos, doc);
    fj__stream_consume(s, s->scanned);
    return FJ__STEP_DOC;
  }
  bool cut = !done && s->vs.state != FJ__VS_SCALAR;
  s->vs.state = FJ__VS_IDLE;
  *err = fj__stream_deliver(s, s->pos, s->scanned, cut, doc);
  s->value_end = s->base + s->scanned;
  fj__stream_consume(s, s->scanned);
  /* the input ended inside the element: nothing can follow, and the
   * element's truncation is the array's too, unless the element was too
   * large to read: that is its own error (the next call goes on), so the
   * array's truncation comes next, from the punctuation due after it */
  if (cut && *err != FJ_ERR_DOCUMENT_TOO_LARGE) {
    s->finished = true;
    if (!*err) {
      doc->root = (fj_value){0};
      *err = fj__stream_doc_error(s, doc, FJ_ERR_TRUNCATED, doc->len);
    }
  } else if (!done && *err == FJ_ERR_TRUNCATED) {
    /* a scalar the end cut off: the array's truncation would report the
     * same place again (an oversized one is reported as such, then the
     * array's truncation, as a chunked stream finds them) */
    s->finished = true;
  }
  s->phase = FJ__AR_AFTER;
  return FJ__STEP_DOC;
}

/* After the array, or after a value that follows it: the innermost
 * container around it goes on (a comma, then a member or element, checked
 * as off the path) or closes with its own bracket; once none is open, only
 * whitespace may follow. */
static int tail(fj_stream *s, fj_document *doc, fj_error *err) {
  if (s->enclosing == 0) {
    s->phase = FJ__AR_TRAILER;
    return FJ__STEP_AGAIN;
  }
  int r = need_byte(s, doc, err, FJ_ERR_TRUNCATED);
  if (r != FJ__STEP_AGAIN) return r;
  const bool object = s->path_kinds[s->enclosing - 1] == '{';
  uint8_t c = s->data[s->pos];
  if (c == (object ? '}' : ']')) {
    s->enclosing--;
  } else if (c != ',') {
    return fatal(s, doc, err, not_comma(s, c));
  } else {
    s->in_tail = true;
    s->ar_after = FJ__AR_TAIL;
    s->phase = object ? FJ__AR_NAV_KEY : FJ__AR_NAV_SKIP;
  }
  fj__stream_consume(s, s->pos + 1);
  return FJ__STEP_AGAIN;
}

/* Punctuation after a value: `,` goes on with `next`, `close` ends with
 * `closed` (or the error `closed_err` when nonzero). */
static int after(fj_stream *s, fj_document *doc, fj_error *err, uint8_t close, int next, int closed,
                 fj_error closed_err) {
  int r = need_byte(s, doc, err, FJ_ERR_TRUNCATED);
  if (r != FJ__STEP_AGAIN) return r;
  uint8_t c = s->data[s->pos];
  if (c != ',' && c != close) return fatal(s, doc, err, not_comma(s, c));
  if (c == close && closed_err) return fatal(s, doc, err, closed_err);
  fj__stream_consume(s, s->pos + 1);
  s->phase = c == ',' ? next : closed;
  return FJ__STEP_AGAIN;
}

int fj__array_step(fj_stream *s, fj_document *doc, fj_error *err) {
  int r;
  switch (s->phase) {
  case FJ__AR_NAV_SKIP: return nav_skip(s, doc, err);
  case FJ__AR_ELEM:
    if (s->vs.state != FJ__VS_IDLE || s->skipping) return element(s, doc, err);
    break;
  case FJ__AR_TAIL: return tail(s, doc, err);
  case FJ__AR_NAV_INDEX:
    if (s->skip_count == 0) {
      s->token++;
      s->phase = FJ__AR_NAV_VALUE;
    } else {
      s->skip_count--;
      s->ar_after = FJ__AR_NAV_AFTER_ELEM;
      s->phase = FJ__AR_NAV_SKIP;
    }
    return FJ__STEP_AGAIN;
  case FJ__AR_NAV_AFTER_FIELD:
    return after(s, doc, err, '}', FJ__AR_NAV_KEY, 0, FJ_ERR_NO_SUCH_FIELD);
  case FJ__AR_NAV_AFTER_ELEM:
    return after(s, doc, err, ']', FJ__AR_NAV_INDEX, 0, FJ_ERR_INDEX_RANGE);
  case FJ__AR_AFTER: return after(s, doc, err, ']', FJ__AR_ELEM, FJ__AR_TAIL, FJ_OK);
  default: break;
  }
  /* the remaining phases start at a non-whitespace byte; an input with no
   * value at all is empty, as for fj_parser_parse() */
  const bool root = s->phase == FJ__AR_NAV_VALUE && s->token == 0;
  r = need_byte(s, doc, err,
                s->phase == FJ__AR_TRAILER ? FJ_END
                : root                     ? FJ_ERR_EMPTY
                                           : FJ_ERR_TRUNCATED);
  if (r != FJ__STEP_AGAIN) return r;
  uint8_t c = s->data[s->pos];
  switch (s->phase) {
  case FJ__AR_NAV_VALUE: return nav_value(s, doc, err);
  case FJ__AR_NAV_KEY_FIRST:
    if (c == '}') return fatal(s, doc, err, FJ_ERR_NO_SUCH_FIELD);
    s->phase = FJ__AR_NAV_KEY;
    return FJ__STEP_AGAIN;
  case FJ__AR_NAV_KEY: return nav_key(s, doc, err);
  case FJ__AR_NAV_COLON:
    if (c != ':') return fatal(s, doc, err, FJ_ERR_EXPECTED_COLON);
    fj__stream_consume(s, s->pos + 1);
    if (s->key_match) {
      s->token++;
      s->phase = FJ__AR_NAV_VALUE;
    } else {
      s->ar_after = s->in_tail ? FJ__AR_TAIL : FJ__AR_NAV_AFTER_FIELD;
      s->phase = FJ__AR_NAV_SKIP;
    }
    return FJ__STEP_AGAIN;
  case FJ__AR_NAV_INDEX_FIRST:
    if (c == ']') return fatal(s, doc, err, FJ_ERR_INDEX_RANGE);
    s->phase = FJ__AR_NAV_INDEX;
    return FJ__STEP_AGAIN;
  case FJ__AR_FIRST:
    if (c == ']') {
      fj__stream_consume(s, s->pos + 1);
      s->phase = FJ__AR_TAIL;
      return FJ__STEP_AGAIN;
    }
    s->phase = FJ__AR_ELEM;
    return FJ__STEP_AGAIN;
  case FJ__AR_ELEM: return element(s, doc, err);
  default: /* FJ__AR_TRAILER */ return fatal(s, doc, err, FJ_ERR_TRAILING_CONTENT);
  }
}
