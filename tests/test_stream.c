/* Document streams (src/ondemand/stream*.c): NDJSON, JSON text sequences,
 * concatenated documents and huge arrays, from buffers and from chunked
 * sources (callback, fd, FILE).
 *
 * Why: a stream must deliver exactly the documents of its input, in order,
 * none lost and none repeated, wherever the chunks are cut, and report each
 * bad document with its index and offset without losing the next one.
 * Oracles: the exact document texts the tests generate (each delivered
 * document's bytes, offset and line are compared with them), Python's json
 * module for the NDJSON corpus file, and the arithmetic of a generated
 * source for offsets past 4 GiB. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fastjson.h"
#include "test_util.h"

#define EXPECT(call, code) assert_string_equal(fj_error_name(call), fj_error_name(code))
#define OK(call) EXPECT(call, FJ_OK)

/* ---- collecting a stream's documents ------------------------------------- */

typedef struct rec {
  fj_error err;
  uint64_t index, offset, line, error_offset, error_line, error_column;
  char *text; /* the document's bytes, NUL-terminated copy; NULL if none */
  size_t len;
} rec;

typedef struct recs {
  rec *r;
  size_t n, cap;
  fj_error end; /* what the last call returned (FJ_END normally) */
} recs;

static void recs_free(recs *rs) {
  for (size_t i = 0; i < rs->n; i++)
    free(rs->r[i].text);
  free(rs->r);
  memset(rs, 0, sizeof *rs);
}

/* Reads every document; a fatal error (the stream ends after it) is kept
 * as a record too. Each good document is also read with the cursor once
 * (its raw text must equal its bytes). */
static recs collect(fj_stream *s) {
  recs rs = {0};
  fj_document doc;
  fj_error err;
  while ((err = fj_stream_next(s, &doc)) != FJ_END) {
    assert_true(rs.n < 1000000);
    if (rs.n == rs.cap) rs.r = realloc(rs.r, (rs.cap = rs.cap * 2 + 16) * sizeof *rs.r);
    rec *r = &rs.r[rs.n++];
    memset(r, 0, sizeof *r);
    r->err = err;
    assert_int_equal(doc.error, err);
    r->index = doc.index;
    r->offset = doc.offset;
    r->line = doc.line;
    r->error_offset = doc.error_offset;
    r->error_line = doc.error_line;
    r->error_column = doc.error_column;
    if (doc.data) {
      r->text = malloc(doc.len + 1);
      memcpy(r->text, doc.data, doc.len);
      r->text[doc.len] = 0;
      r->len = doc.len;
    }
    if (!err) {
      const char *raw;
      size_t len;
      OK(fj_value_get_raw(&doc.root, &raw, &len));
      assert_int_equal(len, doc.len);
      assert_memory_equal(raw, doc.data, len);
      assert_int_equal(fj_value_offset(&doc.root), 0);
    }
  }
  EXPECT(fj_stream_next(s, &doc), FJ_END); /* and on every later call */
  rs.end = err;
  return rs;
}

static recs collect_buffer(const char *data, size_t len, const fj_stream_options *o) {
  fj_stream *s;
  OK(fj_stream_new_buffer(&s, data, len, o));
  recs rs = collect(s);
  fj_stream_free(s);
  return rs;
}

/* A callback source over memory that returns at most `chunk` bytes a read
 * and, if fail_at is nonzero, fails with FJ_ERR_IO at that offset. */
typedef struct mem_source {
  const char *data;
  size_t len, pos, chunk, fail_at;
} mem_source;

static fj_error mem_read(void *ctx, void *buf, size_t cap, size_t *got) {
  mem_source *m = ctx;
  size_t n = m->len - m->pos;
  if (n > cap) n = cap;
  if (n > m->chunk) n = m->chunk;
  if (m->fail_at && m->pos + n > m->fail_at) n = m->fail_at - m->pos;
  if (m->fail_at && n == 0 && m->pos == m->fail_at) return FJ_ERR_IO;
  memcpy(buf, m->data + m->pos, n);
  m->pos += n;
  *got = n;
  return FJ_OK;
}

static recs collect_chunked(const char *data, size_t len, size_t chunk, fj_stream_options o) {
  mem_source m = {data, len, 0, chunk, 0};
  o.chunk_size = chunk;
  fj_stream *s;
  OK(fj_stream_new_callback(&s, mem_read, &m, &o));
  recs rs = collect(s);
  fj_stream_free(s);
  return rs;
}

static void assert_same(const recs *a, const recs *b) {
  assert_int_equal(a->n, b->n);
  for (size_t i = 0; i < a->n; i++) {
    assert_string_equal(fj_error_name(a->r[i].err), fj_error_name(b->r[i].err));
    assert_int_equal(a->r[i].index, b->r[i].index);
    assert_int_equal(a->r[i].offset, b->r[i].offset);
    assert_int_equal(a->r[i].line, b->r[i].line);
    assert_int_equal(a->r[i].error_offset, b->r[i].error_offset);
    assert_int_equal(a->r[i].len, b->r[i].len);
    if (a->r[i].text || b->r[i].text) assert_string_equal(a->r[i].text, b->r[i].text);
  }
}

/* ---- the expected documents of a generated stream ------------------------ */

/* Documents of every kind, some bad; the error each gets in a stream. */
static const struct {
  const char *text;
  fj_error err;
  bool open; /* its end cannot be found by bracket depth: not for concatenated streams */
} mixed[] = {
    {"{\"a\":1,\"b\":[true,false,null],\"c\":\"x\\\"y\\\\\"}", FJ_OK, false},
    {"[1,2.5,-3e2,\"\\u00e9\\ud83d\\ude00\"]", FJ_OK, false},
    {"\"plain string with [brackets] {and} \\\"quotes\\\"\"", FJ_OK, false},
    {"12345", FJ_OK, false},
    {"true", FJ_OK, false},
    {"null", FJ_OK, false},
    {"{\"nested\":{\"deep\":[[[{\"k\":\"v\"}]]]},\"e\":{}}", FJ_OK, false},
    {"[1,2", FJ_ERR_TRUNCATED, true},
    {"{\"x\":\"caf\xc3\xa9\",\"n\":[]}", FJ_OK, false},
    {"[\"bad utf8 \xff\"]", FJ_ERR_UTF8, false},
    {"[]", FJ_OK, false},
    {"{\"long\":\"0123456789012345678901234567890123456789012345678901234567890123456789\"}", FJ_OK,
     false},
    {"[1]]", FJ_ERR_TRAILING_CONTENT, true},
    {"-0.0", FJ_OK, false},
    {"{\"unicode\":\"\xe2\x82\xac\xf0\x9f\x98\x80\"}", FJ_OK, false},
    /* whitespace between tokens: an NDJSON line is then found by a search,
     * not from the index (stream.c, take_line) */
    {"[1, 2, {\"k\" : \"v\"}]", FJ_OK, false},
    {"[1] [2]", FJ_ERR_TRAILING_CONTENT, true},
    {"\"s\" 1", FJ_ERR_TRAILING_CONTENT, true},
    /* unbalanced by a wrong bracket: the first error, as validation names
     * it (both were FJ_ERR_TRUNCATED or TRAILING_CONTENT at the end) */
    {"{\"x\":[}", FJ_ERR_EXPECTED_VALUE, true},
    {"[1}]", FJ_ERR_EXPECTED_COMMA, true},
};
enum { NMIXED = sizeof mixed / sizeof mixed[0] };

static bool closed_only; /* join and assert_mixed leave out the `open` documents */

/* Joins `reps` rounds of the mixed documents with separators chosen from
 * `seps` in turn (each separator follows one document). */
static char *join(const char *const *seps, size_t nseps, int reps, const char *tail, size_t *len) {
  size_t cap = 1 << 16, n = 0, k = 0;
  char *out = malloc(cap);
  for (int r = 0; r < reps; r++)
    for (size_t i = 0; i < NMIXED; i++) {
      if (closed_only && mixed[i].open) continue;
      const char *parts[2] = {mixed[i].text, seps[k++ % nseps]};
      for (int j = 0; j < 2; j++) {
        size_t l = strlen(parts[j]);
        while (n + l + strlen(tail) + 1 > cap)
          out = realloc(out, cap *= 2);
        memcpy(out + n, parts[j], l);
        n += l;
      }
    }
  memcpy(out + n, tail, strlen(tail));
  n += strlen(tail);
  *len = n;
  return out;
}

/* The records must be the mixed documents, in order, with their errors (a
 * document ending in `tail` is the last one). */
static void assert_mixed(const recs *rs, int reps, const char *tail_text, fj_error tail_err) {
  size_t kinds[NMIXED], nk = 0;
  for (size_t i = 0; i < NMIXED; i++)
    if (!closed_only || !mixed[i].open) kinds[nk++] = i;
  size_t want = (size_t)reps * nk + (tail_text ? 1 : 0);
  assert_int_equal(rs->n, want);
  for (size_t i = 0; i < rs->n; i++) {
    const rec *r = &rs->r[i];
    assert_int_equal(r->index, i);
    bool tail = i >= (size_t)reps * nk;
    const char *text = tail ? tail_text : mixed[kinds[i % nk]].text;
    fj_error err = tail ? tail_err : mixed[kinds[i % nk]].err;
    assert_string_equal(fj_error_name(r->err), fj_error_name(err));
    assert_non_null(r->text);
    assert_string_equal(r->text, text);
  }
}

/* ---- NDJSON over a buffer -------------------------------------------------- */

static void ndjson_basics(void **state) {
  (void)state;
  const char in[] = "{\"a\":1}\n"
                    "\n"
                    "  [1,2]  \r\n"
                    "\r\n"
                    "\"s\"\n"
                    "{\"bad\":tru}\n"
                    "[1,\n"
                    "7";
  recs rs = collect_buffer(in, sizeof in - 1, NULL);
  assert_int_equal(rs.n, 6);
  assert_string_equal(rs.r[0].text, "{\"a\":1}");
  assert_int_equal(rs.r[0].offset, 0);
  assert_int_equal(rs.r[0].line, 1);
  assert_string_equal(rs.r[1].text, "[1,2]");
  assert_int_equal(rs.r[1].offset, 11);
  assert_int_equal(rs.r[1].line, 3);
  assert_string_equal(rs.r[2].text, "\"s\"");
  assert_int_equal(rs.r[2].line, 5);
  /* lazily parsed: `tru` is found by the cursor, not by the stream */
  EXPECT(rs.r[3].err, FJ_OK);
  assert_int_equal(rs.r[3].line, 6);
  /* a line whose brackets stay open is truncated, and the next line is read */
  EXPECT(rs.r[4].err, FJ_ERR_TRUNCATED);
  assert_int_equal(rs.r[4].line, 7);
  assert_int_equal(rs.r[4].offset, 38);
  assert_int_equal(rs.r[4].error_offset, 38 + 3);
  assert_string_equal(rs.r[5].text, "7"); /* the last line needs no newline */
  assert_int_equal(rs.r[5].line, 8);
  recs_free(&rs);

  /* a line is a document even when the next line would close its brackets */
  const char split[] = "[1,\n2]\n{\"a\":\n1}\n[3]\n";
  const struct {
    const char *text;
    fj_error err;
  } want[] = {{"[1,", FJ_ERR_TRUNCATED},
              {"2]", FJ_ERR_TRAILING_CONTENT},
              {"{\"a\":", FJ_ERR_TRUNCATED},
              {"1}", FJ_ERR_TRAILING_CONTENT},
              {"[3]", FJ_OK}};
  rs = collect_buffer(split, sizeof split - 1, NULL);
  assert_int_equal(rs.n, 5);
  for (size_t i = 0; i < 5; i++) {
    assert_string_equal(rs.r[i].text, want[i].text);
    EXPECT(rs.r[i].err, want[i].err);
    assert_int_equal(rs.r[i].line, i + 1);
  }
  recs_free(&rs);

  /* with validation the bad literal is reported, at its line and column */
  fj_stream_options o = {.flags = FJ_STREAM_VALIDATE};
  fj_stream *s;
  fj_document doc;
  OK(fj_stream_new_buffer(&s, in, sizeof in - 1, &o));
  for (int i = 0; i < 3; i++)
    OK(fj_stream_next(s, &doc));
  EXPECT(fj_stream_next(s, &doc), FJ_ERR_BAD_LITERAL);
  assert_int_equal(doc.index, 3);
  assert_int_equal(doc.line, 6);
  assert_int_equal(doc.error_line, 6);
  assert_int_equal(doc.error_column, 8);
  assert_int_equal(doc.error_offset, doc.offset + 7);
  EXPECT(fj_stream_next(s, &doc), FJ_ERR_TRUNCATED);
  OK(fj_stream_next(s, &doc));
  EXPECT(fj_stream_next(s, &doc), FJ_END);
  fj_stream_free(s);

  /* validating, a line's first error is reported, also when stage 1 refuses
   * a later byte of it (fresh-user trial: the bad escape came first) */
  const char first[] = "[1]\n{\"a\":1}} \"\\q\"\n[1 \"\x01\"]\n2\n";
  OK(fj_stream_new_buffer(&s, first, sizeof first - 1, &o));
  OK(fj_stream_next(s, &doc));
  EXPECT(fj_stream_next(s, &doc), FJ_ERR_TRAILING_CONTENT);
  assert_int_equal(doc.error_offset, 4 + 7);
  assert_int_equal(doc.error_column, 8);
  EXPECT(fj_stream_next(s, &doc), FJ_ERR_EXPECTED_COMMA);
  assert_int_equal(doc.error_offset, doc.offset + 3);
  OK(fj_stream_next(s, &doc));
  EXPECT(fj_stream_next(s, &doc), FJ_END);
  fj_stream_free(s);
}

/* The length of the well-formed UTF-8 sequence at s[0, n) (Unicode 15,
 * table 3-7: each lead byte range with the range of its second byte), or 1
 * for a byte that begins none (it counts as a column alone). */
static size_t sequence_length(const unsigned char *s, size_t n) {
  static const struct {
    unsigned char lead_lo, lead_hi, second_lo, second_hi, length;
  } forms[] = {
      {0x00, 0x7F, 0, 0, 1},       {0xC2, 0xDF, 0x80, 0xBF, 2}, {0xE0, 0xE0, 0xA0, 0xBF, 3},
      {0xE1, 0xEC, 0x80, 0xBF, 3}, {0xED, 0xED, 0x80, 0x9F, 3}, {0xEE, 0xEF, 0x80, 0xBF, 3},
      {0xF0, 0xF0, 0x90, 0xBF, 4}, {0xF1, 0xF3, 0x80, 0xBF, 4}, {0xF4, 0xF4, 0x80, 0x8F, 4}};
  for (size_t f = 0; f < sizeof forms / sizeof *forms; f++) {
    if (s[0] < forms[f].lead_lo || s[0] > forms[f].lead_hi) continue;
    size_t k = forms[f].length;
    if (k == 1) return 1;
    if (n < k || s[1] < forms[f].second_lo || s[1] > forms[f].second_hi) return 1;
    for (size_t j = 2; j < k; j++)
      if (s[j] < 0x80 || s[j] > 0xBF) return 1;
    return k;
  }
  return 1;
}

/* The line and column of byte `at` of `text` (1-based, columns from the
 * line's start: a code point of valid UTF-8 is one, and so is each byte
 * of invalid UTF-8): what every document error should say. */
static void line_column(const char *text, uint64_t at, uint64_t *line, uint64_t *column) {
  const unsigned char *t = (const unsigned char *)text;
  *line = *column = 1;
  for (uint64_t i = 0; i < at;) {
    if (t[i] == '\n') {
      ++*line, *column = 1, i++;
      continue;
    }
    ++*column;
    i += sequence_length(t + i, at - i);
  }
}

/* Errors in documents that start a line after indentation (or after a
 * document that ended on the line before) say the column from the line's
 * start, whatever the format and however the input is cut into chunks;
 * the one exception (documented) is a document whose line began more than
 * 256 bytes before it. */
static void error_columns(void **state) {
  (void)state;
  const struct {
    fj_stream_format format;
    const char *text;
    size_t errors;
  } cases[] = {
      {FJ_STREAM_NDJSON, "{\"a\":1}\n    {\"a\":x}\n\t\t[1,\n \"\xc3\xa9\" [}\n", 3},
      {FJ_STREAM_CONCATENATED, "{\"a\":1}\n    {\"a\":x}\n  \"\xc3\xa9\" [1,]\n\t[1,", 3},
      {FJ_STREAM_ARRAY, "[\n  {\"a\":1},\n   {\"b\":nul},\n\t\xc3\xa9\n]", 2},
      /* invalid UTF-8 before an error on its line: a byte, a column each
       * (fresh-user trial: continuation bytes were skipped, and the
       * columns after them came out short) */
      {FJ_STREAM_ARRAY, "[\x80\x80\x80\x80, 1, tru]", 2},
      {FJ_STREAM_ARRAY, "[\"\xe2\x82\xac\xe2\x82\xed\xa0\x80\xf0\x8f\", nul]", 2},
      {FJ_STREAM_CONCATENATED, "\xc0\x80 tru\n\xe2\x82\xac [\xe2\x82 ] nul", 5},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    const char *text = cases[c].text;
    size_t len = strlen(text);
    fj_stream_options o = {.format = cases[c].format, .flags = FJ_STREAM_VALIDATE};
    for (size_t chunk = 0; chunk <= 9; chunk++) { /* 0: one buffer */
      recs rs = chunk ? collect_chunked(text, len, chunk, o) : collect_buffer(text, len, &o);
      size_t errors = 0;
      for (size_t i = 0; i < rs.n; i++) {
        if (!rs.r[i].err) continue;
        uint64_t line, column;
        line_column(text, rs.r[i].error_offset, &line, &column);
        assert_int_equal(rs.r[i].error_line, line);
        assert_int_equal(rs.r[i].error_column, column);
        errors++;
      }
      assert_int_equal(errors, cases[c].errors);
      recs_free(&rs);
    }
  }

  /* after a document of more than 256 bytes earlier on its line, a
   * document's column counts from its own first byte */
  char line[400], *o = line;
  *o++ = '[';
  for (int i = 0; i < 100; i++)
    o += sprintf(o, "%d,", i);
  o[-1] = ']';
  strcpy(o, " [1,,2]");
  fj_stream_options co = {.format = FJ_STREAM_CONCATENATED, .flags = FJ_STREAM_VALIDATE};
  recs rs = collect_buffer(line, strlen(line), &co);
  assert_int_equal(rs.n, 2);
  assert_true(o - line > 256);
  EXPECT(rs.r[1].err, FJ_ERR_EXPECTED_VALUE);
  assert_int_equal(rs.r[1].error_offset, (uint64_t)(o - line) + 4);
  assert_int_equal(rs.r[1].error_column, 4);
  recs_free(&rs);
}

/* The root of each document works with the whole cursor API. */
static void ndjson_cursor(void **state) {
  (void)state;
  const char in[] = "{\"id\":1,\"name\":\"a\\nb\",\"tags\":[\"x\",\"y\"]}\n"
                    "{\"tags\":[],\"name\":\"c\",\"id\":2}\n";
  fj_stream *s;
  fj_document doc;
  OK(fj_stream_new_buffer(&s, in, sizeof in - 1, NULL));
  for (int64_t want = 1; want <= 2; want++) {
    OK(fj_stream_next(s, &doc));
    fj_object o;
    fj_value v, name;
    int64_t id;
    OK(fj_value_get_object(&doc.root, &o));
    OK(fj_object_find(&o, "name", &name));
    OK(fj_object_find(&o, "id", &v)); /* out of order: wraps around */
    OK(fj_value_get_int64(&v, &id));
    assert_int_equal(id, want);
    const char *str;
    size_t len;
    OK(fj_value_get_string(&name, &str, &len));
    assert_int_equal(len, want == 1 ? 3 : 1);
    assert_memory_equal(str, want == 1 ? "a\nb" : "c", len);
    fj_value at;
    OK(fj_value_at_pointer(&doc.root, "/tags", &at));
    assert_int_equal(fj_value_offset(&at), want == 1 ? 29 : 8); /* from the document's start */
  }
  EXPECT(fj_stream_next(s, &doc), FJ_END);
  fj_stream_free(s);

  /* a caller's parser can be reused from stream to stream; it outlives them */
  fj_parser *p;
  OK(fj_parser_new(&p, NULL));
  fj_stream_options o = {.use_parser = p};
  for (int round = 0; round < 3; round++) {
    OK(fj_stream_new_buffer(&s, in, sizeof in - 1, &o));
    OK(fj_stream_next(s, &doc));
    assert_ptr_equal(doc.root.parser, p);
    fj_value first = doc.root;
    OK(fj_stream_next(s, &doc));
    fj_type t;
    EXPECT(fj_value_get_type(&first, &t), FJ_ERR_STALE_DOCUMENT);
    EXPECT(fj_stream_next(s, &doc), FJ_END);
    fj_stream_free(s);
  }
  fj_parser_free(p);
}

/* Every batch size gives the same documents: batches of one document, the
 * fallback after a stage-1 error inside a batch, and one big batch. */
static void ndjson_batch_sizes(void **state) {
  (void)state;
  const char *seps[] = {"\n", "\r\n", "\n\n", "  \n", "\n \t\n"};
  size_t len;
  char *in = join(seps, 5, 7, "", &len);
  recs ref = collect_buffer(in, len, NULL);
  assert_mixed(&ref, 7, NULL, FJ_OK);
  for (size_t b = 1; b < 600; b += b < 64 ? 1 : 37) {
    fj_stream_options o = {.batch_size = b};
    recs rs = collect_buffer(in, len, &o);
    assert_same(&rs, &ref);
    recs_free(&rs);
  }
  recs_free(&ref);
  free(in);
}

/* Stage 1 marks the 64-byte blocks of a batch that hold a backslash (and,
 * validating, a \u escape), counted from the batch's first byte, and its
 * documents read strings through those marks. Lines of every length move
 * escaped strings, clean short ones and clean long ones across every offset
 * within a block, and only every fourth line holds escapes (a document
 * whose blocks were counted from its own start would find the clean marks
 * of the batch's first lines). Each string must read as the text it was
 * built from, never its raw escape, and each lone surrogate must still be
 * an error when the stream validates. Oracle: the strings the test builds. */
static void escapes_at_every_block_offset(void **state) {
  (void)state;
  enum { LINES = 130 };
  const size_t cap = LINES * 320;
  char *in = malloc(cap), *pad = malloc(LINES + 1), *tail = malloc(81);
  memset(tail, 'c', 80);
  tail[80] = 0;
  size_t len = 0;
  for (int i = 0; i < LINES; i++) {
    memset(pad, 'a', (size_t)i);
    pad[i] = 0;
    /* escaped: [pad, "q\"u" + 70 'c', "x\u00e9y", 80 'c', "\ud800" or "z"];
     * clean: the same without escapes (q'u, the UTF-8 of U+00E9) */
    const bool esc = i % 4 == 3;
    len += (size_t)snprintf(in + len, cap - len, "[\"%s\",\"q%su%.70s\",\"x%sy\",\"%s\",\"%s\"]\n",
                            pad, esc ? "\\\"" : "'", tail, esc ? "\\u00e9" : "\xC3\xA9", tail,
                            i % 8 == 3 ? "\\ud800" : "z");
  }
  for (int validate = 0; validate < 2; validate++) {
    fj_stream_options o = {.flags = validate ? FJ_STREAM_VALIDATE : 0};
    fj_stream *s;
    fj_document doc;
    fj_error err;
    OK(fj_stream_new_buffer(&s, in, len, &o));
    for (int i = 0; i < LINES; i++) {
      err = fj_stream_next(s, &doc);
      if (validate && i % 8 == 3) { /* the lone surrogate, wherever it lies */
        EXPECT(err, FJ_ERR_BAD_SURROGATE);
        continue;
      }
      OK(err);
      fj_array a;
      fj_value v;
      const char *str;
      size_t n;
      OK(fj_value_get_array(&doc.root, &a));
      OK(fj_array_next(&a, &v));
      OK(fj_value_get_string(&v, &str, &n));
      assert_int_equal(n, (size_t)i);
      OK(fj_array_next(&a, &v));
      OK(fj_value_get_string(&v, &str, &n));
      assert_int_equal(n, 73);
      assert_memory_equal(str, i % 4 == 3 ? "q\"u" : "q'u", 3);
      assert_memory_equal(str + 3, tail, 70);
      OK(fj_array_next(&a, &v));
      OK(fj_value_get_string(&v, &str, &n));
      assert_int_equal(n, 4);
      assert_memory_equal(str, "x\xC3\xA9y", 4);
      OK(fj_array_next(&a, &v));
      OK(fj_value_get_string(&v, &str, &n));
      assert_int_equal(n, 80);
      assert_memory_equal(str, tail, 80);
      OK(fj_array_next(&a, &v));
      if (i % 8 != 3) {
        OK(fj_value_get_string(&v, &str, &n));
        assert_int_equal(n, 1);
      } else { /* not validating: found when read */
        EXPECT(fj_value_get_string(&v, &str, &n), FJ_ERR_BAD_SURROGATE);
      }
    }
    EXPECT(fj_stream_next(s, &doc), FJ_END);
    fj_stream_free(s);
  }
  free(in);
  free(pad);
  free(tail);
}

/* ---- JSON text sequences (RFC 7464) ---------------------------------------- */

static void json_seq(void **state) {
  (void)state;
  const char in[] = "\x1e{\"a\":1}\n"
                    "\x1e\x1e\n"
                    "\x1e[1,\n 2]\n"
                    "\x1etrue\n"
                    "\x1e"
                    "123\x1e"
                    "\"s\"\n"
                    "\x1e"
                    "456";
  fj_stream_options o = {.format = FJ_STREAM_JSON_SEQ};
  for (size_t b = 1; b <= 64; b *= 2) {
    o.batch_size = b;
    recs rs = collect_buffer(in, sizeof in - 1, &o);
    assert_int_equal(rs.n, 6);
    assert_string_equal(rs.r[0].text, "{\"a\":1}");
    assert_int_equal(rs.r[0].offset, 1);
    assert_string_equal(rs.r[1].text, "[1,\n 2]");
    assert_int_equal(rs.r[1].line, 3);
    assert_string_equal(rs.r[2].text, "true");
    EXPECT(rs.r[2].err, FJ_OK);
    assert_int_equal(rs.r[2].line, 5);
    /* a number not followed by whitespace may have been cut short */
    assert_string_equal(rs.r[3].text, "123");
    EXPECT(rs.r[3].err, FJ_ERR_TRUNCATED);
    assert_string_equal(rs.r[4].text, "\"s\"");
    EXPECT(rs.r[4].err, FJ_OK);
    EXPECT(rs.r[5].err, FJ_ERR_TRUNCATED); /* the last one, without its newline */
    recs_free(&rs);
  }
}

/* ---- concatenated documents ------------------------------------------------ */

static void concatenated(void **state) {
  (void)state;
  const char in[] =
      "1 2{\"a\":\"}\"}[3]\"x\"true\n null\n\n{\"b\":[1,,2]} ] [\"\\\"]\" ,4] {\"c\":";
  fj_stream_options o = {.format = FJ_STREAM_CONCATENATED, .flags = FJ_STREAM_VALIDATE};
  recs rs = collect_buffer(in, sizeof in - 1, &o);
  const char *want[] = {"1",      "2",    "{\"a\":\"}\"}",  "[3]", "\"x\"",
                        "true",   "null", "{\"b\":[1,,2]}", "]",   "[\"\\\"]\" ,4]",
                        "{\"c\":"};
  fj_error errs[] = {FJ_OK,
                     FJ_OK,
                     FJ_OK,
                     FJ_OK,
                     FJ_OK,
                     FJ_OK,
                     FJ_OK,
                     FJ_ERR_EXPECTED_VALUE,
                     FJ_ERR_EXPECTED_VALUE,
                     FJ_OK,
                     FJ_ERR_TRUNCATED};
  assert_int_equal(rs.n, 11);
  for (size_t i = 0; i < rs.n; i++) {
    assert_string_equal(rs.r[i].text, want[i]);
    assert_string_equal(fj_error_name(rs.r[i].err), fj_error_name(errs[i]));
  }
  assert_int_equal(rs.r[6].line, 2);
  assert_int_equal(rs.r[7].line, 4);
  assert_int_equal(rs.r[10].error_offset, sizeof in - 1);
  recs_free(&rs);

  /* an unclosed string at the end is a truncated document too */
  const char cut[] = "{} \"abc";
  rs = collect_buffer(cut, sizeof cut - 1, &o);
  assert_int_equal(rs.n, 2);
  EXPECT(rs.r[1].err, FJ_ERR_TRUNCATED);
  recs_free(&rs);
}

/* The end of the input cut a string off inside a character: truncated, at
 * the string's opening quote, as when the cut falls between characters
 * (stage 1 sees the unfinished UTF-8 first). A byte that cannot continue
 * the character, an NDJSON line's end after it, or an unfinished character
 * outside a string stays bad UTF-8. Every format, and every chunk size for
 * NDJSON.
 * Oracle: the error and offset of the same document cut between
 * characters. */
static void every_chunk_size(const char *in, size_t len, fj_stream_options o, const recs *ref);

static void cut_inside_a_character(void **state) {
  (void)state;
  static const struct {
    const char *tail;
    fj_error err;
    bool newline; /* ends an NDJSON record; a sequence's is trimmed and cut */
  } cases[] = {
      {"{\"b\":\"caf\xC3", FJ_ERR_TRUNCATED, false},
      {"{\"b\":\"caf\xE2\x82", FJ_ERR_TRUNCATED, false},
      {"[\"\xF0\x9F\x98", FJ_ERR_TRUNCATED, false},
      {"\"\xF4\x8F", FJ_ERR_TRUNCATED, false},
      {"{\"b\":\"caf\xC3(", FJ_ERR_UTF8, false},    /* not a continuation byte */
      {"{\"b\":\"caf\xED\xA0", FJ_ERR_UTF8, false}, /* a surrogate, never a character */
      {"{\"b\":\"caf\xC3\n", FJ_ERR_UTF8, true},
      {"[1,\xC3", FJ_ERR_UTF8, false}, /* outside a string */
  };
  const fj_stream_format formats[] = {FJ_STREAM_NDJSON, FJ_STREAM_JSON_SEQ, FJ_STREAM_CONCATENATED};
  for (size_t f = 0; f < 3; f++)
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      char in[64];
      const char *head = formats[f] == FJ_STREAM_JSON_SEQ ? "\x1E{\"a\":1}\n\x1E" : "{\"a\":1}\n";
      int n = snprintf(in, sizeof in, "%s%s", head, cases[i].tail);
      fj_stream_options o = {.format = formats[f]};
      recs rs = collect_buffer(in, (size_t)n, &o);
      assert_int_equal(rs.n, 2);
      EXPECT(rs.r[0].err, FJ_OK);
      const fj_error want =
          cases[i].newline && formats[f] == FJ_STREAM_JSON_SEQ ? FJ_ERR_TRUNCATED : cases[i].err;
      EXPECT(rs.r[1].err, want);
      if (want == FJ_ERR_TRUNCATED) { /* where the cut between characters reports */
        char between[64];
        size_t k = (size_t)n;
        while ((uint8_t)in[k - 1] >= 0x80)
          k--;
        memcpy(between, in, k);
        recs ref = collect_buffer(between, k, &o);
        EXPECT(ref.r[1].err, FJ_ERR_TRUNCATED);
        assert_int_equal(rs.r[1].error_offset, ref.r[1].error_offset);
        recs_free(&ref);
      }
      if (formats[f] == FJ_STREAM_NDJSON) every_chunk_size(in, (size_t)n, o, &rs);
      recs_free(&rs);
    }
}

/* A number or literal at the end of a document's text is FJ_ERR_TRUNCATED
 * only when the end of the input cut it off: followed by whitespace or a
 * separator it is malformed, as fj_parser_validate() says of the same bytes
 * (the stream trims the text, so its end is not the input's). */
static void cut_off_scalars(void **state) {
  (void)state;
  static const struct {
    fj_stream_format format;
    const char *in;
    fj_error errs[8];
    uint64_t at[8];
  } cases[] = {
      {FJ_STREAM_NDJSON,
       "1e+ \n-\ntru \nnul\n1\n-",
       {FJ_ERR_BAD_NUMBER, FJ_ERR_BAD_NUMBER, FJ_ERR_BAD_LITERAL, FJ_ERR_BAD_LITERAL, FJ_OK,
        FJ_ERR_TRUNCATED},
       {3, 6, 7, 12, 0, 19}},
      {FJ_STREAM_CONCATENATED,
       "1e+ 2 tru [1] -",
       {FJ_ERR_BAD_NUMBER, FJ_OK, FJ_ERR_BAD_LITERAL, FJ_OK, FJ_ERR_TRUNCATED},
       {3, 0, 6, 0, 15}},
      {FJ_STREAM_JSON_SEQ,
       "\x1e"
       "1e+\n\x1etru\n\x1e"
       "1\n\x1e-",
       {FJ_ERR_BAD_NUMBER, FJ_ERR_BAD_LITERAL, FJ_OK, FJ_ERR_TRUNCATED},
       {4, 6, 0, 15}},
      /* RFC 7464's rule (a scalar not followed by whitespace may be cut
       * short: TRUNCATED) is for well-formed ones only */
      {FJ_STREAM_JSON_SEQ,
       "\x1e"
       "1x\x1e"
       "01\x1e"
       "truex\x1e"
       "tru\x1e"
       "1e+\x1e"
       "1\x1e-",
       {FJ_ERR_BAD_NUMBER, FJ_ERR_BAD_NUMBER, FJ_ERR_BAD_LITERAL, FJ_ERR_BAD_LITERAL,
        FJ_ERR_BAD_NUMBER, FJ_ERR_TRUNCATED, FJ_ERR_TRUNCATED},
       {2, 5, 11, 13, 20, 22, 24}},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    fj_stream_options o = {.format = cases[c].format, .flags = FJ_STREAM_VALIDATE};
    recs rs = collect_buffer(cases[c].in, strlen(cases[c].in), &o);
    for (size_t i = 0; i < rs.n; i++) {
      if (rs.r[i].err != cases[c].errs[i] || rs.r[i].error_offset != cases[c].at[i])
        print_error("case %zu, document %zu: %s at %llu\n", c, i, fj_error_name(rs.r[i].err),
                    (unsigned long long)rs.r[i].error_offset);
      EXPECT(rs.r[i].err, cases[c].errs[i]);
      assert_int_equal(rs.r[i].error_offset, cases[c].at[i]);
    }
    assert_true(rs.n >= 4 && (rs.n == 8 || cases[c].errs[rs.n] == FJ_OK));
    recs_free(&rs);
  }
  /* without validation: the getters on each document's root */
  const char in[] = "1e+ \nnul\n2.5e\t\n1e";
  const fj_error want[] = {FJ_ERR_BAD_NUMBER, FJ_ERR_BAD_LITERAL, FJ_ERR_BAD_NUMBER,
                           FJ_ERR_TRUNCATED};
  fj_stream *s;
  fj_stream_options o = {.format = FJ_STREAM_NDJSON};
  OK(fj_stream_new_buffer(&s, in, sizeof in - 1, &o));
  fj_document doc;
  for (size_t i = 0; i < 4; i++) {
    OK(fj_stream_next(s, &doc));
    double d = 0;
    bool b = false;
    EXPECT(i == 1 ? fj_value_is_null(&doc.root, &b) : fj_value_get_double(&doc.root, &d), want[i]);
    EXPECT(i == 1 ? (fj_value_is_null)(&doc.root, &b) : (fj_value_get_double)(&doc.root, &d),
           want[i]);
  }
  EXPECT(fj_stream_next(s, &doc), FJ_END);
  fj_stream_free(s);
}

/* ---- chunked input: every chunk size gives the same documents -------------- */

/* For every chunk size from 1 byte to a few kilobytes the chunked stream
 * must deliver what the buffer stream delivers: the same documents (bytes,
 * offsets, lines, errors), in order, none lost, none repeated. */
static void every_chunk_size(const char *in, size_t len, fj_stream_options o, const recs *ref) {
  for (size_t c = 1; c <= 4096; c += c < 300 ? 1 : c < 1200 ? 7 : 61) {
    recs rs = collect_chunked(in, len, c, o);
    assert_same(&rs, ref);
    recs_free(&rs);
  }
}

static void chunked_ndjson(void **state) {
  (void)state;
  const char *seps[] = {"\n", "\r\n", "\n\n", " \r\n\n"};
  const struct {
    const char *tail, *last;
    fj_error err;
  } tails[] = {
      {"", NULL, FJ_OK},                                       /* ends with a newline */
      {"{\"no\":\"newline\"}", "{\"no\":\"newline\"}", FJ_OK}, /* last line lacks it */
      {"{\"cut\":[1,2", "{\"cut\":[1,2", FJ_ERR_TRUNCATED},    /* truncated final document */
      {"[\"cut str", "[\"cut str", FJ_ERR_TRUNCATED},          /* ... inside a string */
      {"\n\n\r\n", NULL, FJ_OK},                               /* trailing empty lines */
  };
  for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
    size_t len;
    char *in = join(seps, 4, 3, tails[t].tail, &len);
    fj_stream_options o = {.format = FJ_STREAM_NDJSON};
    recs ref = collect_buffer(in, len, &o);
    assert_mixed(&ref, 3, tails[t].last, tails[t].err);
    every_chunk_size(in, len, o, &ref);
    o.batch_size = 100; /* small batches inside the chunks too */
    every_chunk_size(in, len, o, &ref);
    recs_free(&ref);
    free(in);
  }
}

static void chunked_concatenated_and_seq(void **state) {
  (void)state;
  const char *seps[] = {" ", "\n", "\r\n\t", "  "};
  size_t len;
  closed_only = true;
  char *in = join(seps, 4, 3, "[\"tail\",{\"x\":", &len);
  fj_stream_options o = {.format = FJ_STREAM_CONCATENATED};
  recs ref = collect_buffer(in, len, &o);
  assert_mixed(&ref, 3, "[\"tail\",{\"x\":", FJ_ERR_TRUNCATED);
  every_chunk_size(in, len, o, &ref);
  recs_free(&ref);
  free(in);
  closed_only = false;

  const char *rs_seps[] = {"\n\x1e", "\n\x1e", "\n\n\x1e"};
  char *body = join(rs_seps, 3, 3, "", &len);
  in = malloc(len + 1);
  in[0] = 0x1e;
  memcpy(in + 1, body, len);
  free(body);
  o.format = FJ_STREAM_JSON_SEQ;
  ref = collect_buffer(in, len + 1, &o);
  assert_mixed(&ref, 3, NULL, FJ_OK);
  every_chunk_size(in, len + 1, o, &ref);
  recs_free(&ref);
  free(in);
}

/* ---- limits, read errors, other sources ------------------------------------- */

static void oversized_documents(void **state) {
  (void)state;
  char big[600];
  memset(big, 'x', sizeof big);
  big[0] = '"';
  memcpy(big + sizeof big - 2, "\"\n", 2);
  char in[2000];
  size_t n = 0;
  n += (size_t)sprintf(in + n, "[1]\n");
  memcpy(in + n, big, sizeof big);
  n += sizeof big;
  n += (size_t)sprintf(in + n, "[2]\n");
  for (int fmt = 0; fmt < 2; fmt++) {
    fj_stream_options o = {.format = fmt ? FJ_STREAM_CONCATENATED : FJ_STREAM_NDJSON,
                           .max_document_size = 100};
    recs ref = collect_buffer(in, n, &o);
    assert_int_equal(ref.n, 3);
    EXPECT(ref.r[1].err, FJ_ERR_DOCUMENT_TOO_LARGE);
    assert_int_equal(ref.r[1].offset, 4);
    assert_int_equal(ref.r[1].error_offset, 4);
    assert_null(ref.r[1].text);
    assert_string_equal(ref.r[2].text, "[2]");
    assert_int_equal(ref.r[2].index, 2);
    assert_int_equal(ref.r[2].line, 3);
    every_chunk_size(in, n, o, &ref);
    recs_free(&ref);
  }
}

/* An oversized last document with no separator after it: a chunked stream
 * used to skip it forever (found by fuzz/fuzz_stream.c). */
static void oversized_last_document(void **state) {
  (void)state;
  const char *in[] = {"[1]\n[2,3,4,5,6,7,8]", "\x1e[1]\n\x1e[2,3,4,5,6,7,8]"};
  for (int fmt = 0; fmt < 2; fmt++) {
    fj_stream_options o = {.format = fmt ? FJ_STREAM_JSON_SEQ : FJ_STREAM_NDJSON,
                           .max_document_size = 5};
    recs ref = collect_buffer(in[fmt], strlen(in[fmt]), &o);
    assert_int_equal(ref.n, 2);
    EXPECT(ref.r[1].err, FJ_ERR_DOCUMENT_TOO_LARGE);
    every_chunk_size(in[fmt], strlen(in[fmt]), o, &ref);
    recs_free(&ref);
  }
}

/* CPU seconds to read `in` as NDJSON in chunks of `chunk` bytes. */
static double ndjson_seconds(const char *in, size_t len, size_t chunk) {
  clock_t t0 = clock();
  recs rs = collect_chunked(in, len, chunk, (fj_stream_options){.format = FJ_STREAM_NDJSON});
  double t = (double)(clock() - t0) / CLOCKS_PER_SEC;
  assert_int_equal(rs.n, 2);
  recs_free(&rs);
  return t;
}

/* A long line read in small chunks costs time linear in its length: the
 * search for its end used to start over at every chunk (quadratic: this
 * case took minutes with 16-byte chunks). Measured against the same input
 * in one chunk, so a slow machine or a sanitizer does not matter. */
static void long_line_small_chunks(void **state) {
  (void)state;
  size_t n = 4u << 20;
  char *in = malloc(n + 8);
  assert_non_null(in);
  in[0] = '[';
  for (size_t i = 1; i < n - 2; i += 2)
    memcpy(in + i, "1,", 2);
  memcpy(in + n - 2, "1]\n[2]\n", 8);
  double whole = ndjson_seconds(in, n + 5, n + 5);
  double small = ndjson_seconds(in, n + 5, 16);
  printf("one chunk %.3f s, 16-byte chunks %.3f s\n", whole, small);
  assert_true(small < 50 * whole + 0.5);
  free(in);
}

/* Memory stays bounded by the chunk and the largest document, not the input. */
typedef struct counting {
  size_t now, peak;
} counting;
static void *c_malloc(void *ctx, size_t n) {
  counting *c = ctx;
  if ((c->now += n) > c->peak) c->peak = c->now;
  return malloc(n);
}
static void *c_realloc(void *ctx, void *p, size_t old, size_t n) {
  counting *c = ctx;
  c->now = c->now - old + n;
  if (c->now > c->peak) c->peak = c->now;
  return realloc(p, n);
}
static void c_free(void *ctx, void *p, size_t n) {
  counting *c = ctx;
  c->now -= n;
  free(p);
}

static void bounded_memory(void **state) {
  (void)state;
  /* 20 MB of lines with one 200 kB document in the middle */
  size_t line_len = 100, lines = 200000, big = 200000;
  size_t len = line_len * lines + big + 1;
  char *in = malloc(len);
  size_t n = 0;
  for (size_t i = 0; i < lines; i++) {
    if (i == lines / 2) {
      in[n] = '"';
      memset(in + n + 1, 'b', big - 2);
      in[n + big - 1] = '"';
      in[n + big] = '\n';
      n += big + 1;
    }
    int k = snprintf(in + n, line_len, "{\"i\":%zu,\"pad\":\"", i);
    memset(in + n + k, 'p', line_len - (size_t)k - 3);
    memcpy(in + n + line_len - 3, "\"}\n", 3);
    n += line_len;
  }
  assert_int_equal(n, len);
  for (int fmt = 0; fmt < 2; fmt++) {
    counting c = {0, 0};
    fj_allocator a = {c_malloc, c_realloc, c_free, &c};
    fj_parser_options po = {.allocator = &a};
    fj_stream_options o = {.format = fmt ? FJ_STREAM_CONCATENATED : FJ_STREAM_NDJSON,
                           .chunk_size = 16384,
                           .parser = &po};
    mem_source m = {in, len, 0, SIZE_MAX, 0};
    fj_stream *s;
    OK(fj_stream_new_callback(&s, mem_read, &m, &o));
    fj_document doc;
    size_t count = 0;
    while (fj_stream_next(s, &doc) == FJ_OK)
      count++;
    assert_int_equal(count, lines + 1);
    fj_stream_free(s);
    assert_int_equal(c.now, 0);
    /* the buffer (< 1.5 x (chunk + largest)) plus the index (4 bytes per
     * byte of a batch) plus the parser's 64 kB scratch: far below 20 MB */
    assert_true(c.peak < 8 * (16384 + big) + 256 * 1024);
  }
  free(in);
}

/* A read error is reported after the documents before it; then the end. */
static void read_errors(void **state) {
  (void)state;
  const char in[] = "[1]\n[2]\n[3]\n[4]\n";
  for (size_t fail_at = 1; fail_at < sizeof in - 1; fail_at++) {
    for (size_t chunk = 1; chunk <= 8; chunk++) {
      mem_source m = {in, sizeof in - 1, 0, chunk, fail_at};
      fj_stream_options o = {.chunk_size = chunk};
      fj_stream *s;
      OK(fj_stream_new_callback(&s, mem_read, &m, &o));
      recs rs = collect(s);
      fj_stream_free(s);
      size_t complete = fail_at / 4; /* documents whose newline came before the error */
      assert_int_equal(rs.n, complete + 1);
      for (size_t i = 0; i < complete; i++)
        EXPECT(rs.r[i].err, FJ_OK);
      EXPECT(rs.r[complete].err, FJ_ERR_IO);
      assert_int_equal(rs.r[complete].offset, complete * 4);
      assert_int_equal(rs.r[complete].index, complete);
      recs_free(&rs);
    }
  }
  /* a JSON text sequence's record is complete at the next RS (or the end):
   * one whose LF came before the error, but no RS after it, is not
   * delivered, as stream.h says */
  const char seq[] = "\x1e[1]\n\x1e[2]\n\x1e[3]\n";
  for (size_t fail_at = 1; fail_at < sizeof seq - 1; fail_at++) {
    mem_source m = {seq, sizeof seq - 1, 0, 3, fail_at};
    fj_stream_options o = {.format = FJ_STREAM_JSON_SEQ, .chunk_size = 3};
    fj_stream *s;
    OK(fj_stream_new_callback(&s, mem_read, &m, &o));
    recs rs = collect(s);
    fj_stream_free(s);
    size_t complete = (fail_at - 1) / 5; /* records whose next RS came before the error */
    assert_int_equal(rs.n, complete + 1);
    for (size_t i = 0; i < complete; i++)
      EXPECT(rs.r[i].err, FJ_OK);
    EXPECT(rs.r[complete].err, FJ_ERR_IO);
    recs_free(&rs);
  }
}

/* A callback that returns FJ_END, or claims more bytes than it had room
 * for, has failed its read: FJ_ERR_IO after the complete documents, never
 * a clean end that drops the unterminated last line. */
typedef struct bad_source {
  const char *data;
  size_t len, pos;
  int how; /* 0: FJ_END at the end; 1: *got = cap + 1 at the end */
} bad_source;

static fj_error bad_read(void *ctx, void *buf, size_t cap, size_t *got) {
  bad_source *b = ctx;
  size_t n = b->len - b->pos;
  if (n == 0) {
    if (b->how == 0) return FJ_END;
    *got = cap + 1;
    return FJ_OK;
  }
  if (n > cap) n = cap;
  memcpy(buf, b->data + b->pos, n);
  b->pos += n;
  *got = n;
  return FJ_OK;
}

static void callback_contract_broken(void **state) {
  (void)state;
  const char in[] = "[1]\n[2]\n[3]";
  for (int how = 0; how < 2; how++) {
    bad_source b = {in, sizeof in - 1, 0, how};
    fj_stream_options o = {.chunk_size = 4};
    fj_stream *s;
    OK(fj_stream_new_callback(&s, bad_read, &b, &o));
    recs rs = collect(s);
    fj_stream_free(s);
    assert_int_equal(rs.n, 3);
    EXPECT(rs.r[0].err, FJ_OK);
    EXPECT(rs.r[1].err, FJ_OK);
    EXPECT(rs.r[2].err, FJ_ERR_IO); /* not FJ_END, and [3] not delivered as complete */
    assert_int_equal(rs.r[2].offset, 8);
    recs_free(&rs);
  }
}

static void fd_and_file_sources(void **state) {
  (void)state;
  const char *seps[] = {"\n"};
  size_t len;
  char *in = join(seps, 1, 50, "", &len);
  recs ref = collect_buffer(in, len, NULL);

  FILE *f = tmpfile();
  assert_non_null(f);
  assert_int_equal(fwrite(in, 1, len, f), len);
  rewind(f);
  fj_stream_options o = {.chunk_size = 333};
  fj_stream *s;
  OK(fj_stream_new_file(&s, f, &o));
  recs rs = collect(s);
  fj_stream_free(s);
  assert_same(&rs, &ref);
  recs_free(&rs);

  rewind(f);
  OK(fj_stream_new_fd(&s, fileno(f), &o));
  rs = collect(s);
  fj_stream_free(s);
  assert_same(&rs, &ref);
  recs_free(&rs);
  fclose(f);

  /* a pipe delivers short reads */
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  pid_t pid = fork();
  if (pid == 0) {
    for (size_t i = 0; i < len; i += 1000)
      if (write(fds[1], in + i, len - i < 1000 ? len - i : 1000) < 0) _exit(1);
    _exit(0);
  }
  close(fds[1]);
  OK(fj_stream_new_fd(&s, fds[0], &o));
  rs = collect(s);
  fj_stream_free(s);
  close(fds[0]);
  int status;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_same(&rs, &ref);
  recs_free(&rs);

  /* a FILE opened for writing only cannot be read: FJ_ERR_IO */
  f = fopen("/dev/null", "w");
  OK(fj_stream_new_file(&s, f, NULL));
  fj_document doc;
  EXPECT(fj_stream_next(s, &doc), FJ_ERR_IO);
  EXPECT(fj_stream_next(s, &doc), FJ_END);
  fj_stream_free(s);
  fclose(f);
  recs_free(&ref);
  free(in);
}

static void invalid_arguments(void **state) {
  (void)state;
  fj_stream *s;
  fj_stream_options o = {.format = (fj_stream_format)9};
  EXPECT(fj_stream_new_buffer(NULL, "", 0, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_stream_new_buffer(&s, NULL, 1, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_stream_new_buffer(&s, "", 0, &o), FJ_ERR_INVALID_ARG);
  o = (fj_stream_options){.max_document_size = FJ_MAX_DOCUMENT_SIZE + 1};
  EXPECT(fj_stream_new_buffer(&s, "", 0, &o), FJ_ERR_INVALID_ARG);
  o = (fj_stream_options){.flags = FJ_STREAM_VALIDATE << 1}; /* was accepted, and ignored */
  EXPECT(fj_stream_new_buffer(&s, "", 0, &o), FJ_ERR_INVALID_ARG);
  EXPECT(fj_stream_new_fd(&s, -1, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_stream_new_file(&s, NULL, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_stream_new_callback(&s, NULL, NULL, NULL), FJ_ERR_INVALID_ARG);
  o = (fj_stream_options){.format = FJ_STREAM_ARRAY, .pointer = "a"};
  EXPECT(fj_stream_new_buffer(&s, "", 0, &o), FJ_ERR_BAD_POINTER);
  o.pointer = "/a~2";
  EXPECT(fj_stream_new_buffer(&s, "", 0, &o), FJ_ERR_BAD_POINTER);
  OK(fj_stream_new_buffer(&s, "", 0, NULL));
  fj_document doc;
  EXPECT(fj_stream_next(s, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_stream_next(s, &doc), FJ_END);
  assert_int_equal(fj_stream_position(s), 0);
  fj_stream_free(s);
  fj_stream_free(NULL);
}

/* ---- one huge array ------------------------------------------------------- */

static recs array_records(const char *in, const char *ptr, size_t chunk) {
  fj_stream_options o = {.format = FJ_STREAM_ARRAY, .pointer = ptr};
  return chunk ? collect_chunked(in, strlen(in), chunk, o) : collect_buffer(in, strlen(in), &o);
}

static void array_elements(void **state) {
  (void)state;
  const char *in = "{\"skip\":{\"a\":[1,{\"]\":\"}\"}],\"b\\\"\":\"[\"},\"x\":[0,[7],{\"k\":1}],"
                   "\"d\\u0061ta\":{\"items\":[ {\"id\":1} ,\n\"two\", 3 ,[4,[5]],null,\"\\\"]\"]"
                   ",\"after\":[]}}  \n";
  const char *want[] = {"{\"id\":1}", "\"two\"", "3", "[4,[5]]", "null", "\"\\\"]\""};
  for (size_t chunk = 0; chunk < 200; chunk++) {
    recs rs = array_records(in, "/data/items", chunk);
    assert_int_equal(rs.n, 6);
    for (size_t i = 0; i < 6; i++) {
      EXPECT(rs.r[i].err, FJ_OK);
      assert_string_equal(rs.r[i].text, want[i]);
      assert_int_equal(rs.r[i].index, i);
      assert_int_equal(rs.r[i].offset, (uint64_t)(strstr(in, want[i]) - in));
    }
    assert_int_equal(rs.r[1].line, 2);
    recs_free(&rs);
    /* an index on the path; an empty array */
    rs = array_records(in, "/x/1", chunk);
    assert_int_equal(rs.n, 1);
    assert_string_equal(rs.r[0].text, "7");
    recs_free(&rs);
    rs = array_records(in, "/data/after", chunk);
    assert_int_equal(rs.n, 0);
    recs_free(&rs);
  }
  /* the root array, with a bad element that does not stop the stream */
  recs rs = array_records(" [1, [2,], \"3\"] ", NULL, 0);
  assert_int_equal(rs.n, 3);
  EXPECT(rs.r[1].err, FJ_OK); /* lazily: the cursor finds `,]` */
  recs_free(&rs);
  fj_stream_options o = {.format = FJ_STREAM_ARRAY, .flags = FJ_STREAM_VALIDATE};
  const char bad[] = "[1, [2,], \"3\"]";
  rs = collect_buffer(bad, sizeof bad - 1, &o);
  assert_int_equal(rs.n, 3);
  EXPECT(rs.r[1].err, FJ_ERR_EXPECTED_VALUE);
  EXPECT(rs.r[2].err, FJ_OK);
  recs_free(&rs);
}

static void array_errors(void **state) {
  (void)state;
  const struct {
    const char *in, *ptr;
    size_t good;
    fj_error err;
  } cases[] = {
      {"{\"a\":1}", "/b", 0, FJ_ERR_NO_SUCH_FIELD},
      {"{\"a\":1}", "/a", 0, FJ_ERR_WRONG_TYPE},
      {"{\"a\":[1]}", "/a/3", 0, FJ_ERR_INDEX_RANGE},
      /* past 2^64: out of range as for fj_value_at_pointer() (was BAD_POINTER) */
      {"[1,[2]]", "/99999999999999999999", 0, FJ_ERR_INDEX_RANGE},
      {"{\"a\":[1]}", "/a/-", 0, FJ_ERR_INDEX_RANGE},
      {"{\"a\":[1]}", "/a/x", 0, FJ_ERR_BAD_POINTER},
      {"{}", "", 0, FJ_ERR_WRONG_TYPE},
      {"[1,2 3]", "", 2, FJ_ERR_EXPECTED_COMMA},
      {"[1,2", "", 2, FJ_ERR_TRUNCATED},
      {"[1,[2", "", 1, FJ_ERR_TRUNCATED},
      {"{\"a\":[1,2],\"b\":", "/a", 2, FJ_ERR_TRUNCATED},
      {"[1] x", "", 1, FJ_ERR_TRAILING_CONTENT},
      {"[1,,2]", "", 1, FJ_ERR_EXPECTED_VALUE},
      {"{\"a\" 1}", "/a", 0, FJ_ERR_EXPECTED_COLON},
      {"{1:2}", "/a", 0, FJ_ERR_EXPECTED_KEY},
      /* no value, a byte order mark, or a byte no value starts with where
       * the root or a value on the path is due: as fj_parser_parse() says
       * (they were FJ_ERR_TRUNCATED and FJ_ERR_WRONG_TYPE) */
      {"", "", 0, FJ_ERR_EMPTY},
      {" \n\t ", "", 0, FJ_ERR_EMPTY},
      {"\xEF\xBB\xBF[1]", "", 0, FJ_ERR_BOM},
      {"\xEF\xBB\xBF{\"a\":[1]}", "/a", 0, FJ_ERR_BOM},
      {" \xEF\xBB\xBF[1]", "", 0, FJ_ERR_EXPECTED_VALUE}, /* a BOM only starts the input */
      {"\xEF\xBB", "", 0, FJ_ERR_EXPECTED_VALUE},
      {"x", "", 0, FJ_ERR_EXPECTED_VALUE},
      {"{\"a\":x}", "/a", 0, FJ_ERR_EXPECTED_VALUE},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    for (size_t chunk = 0; chunk < 5; chunk++) {
      recs rs = array_records(cases[i].in, cases[i].ptr, chunk);
      assert_int_equal(rs.n, cases[i].good + 1);
      for (size_t k = 0; k < cases[i].good; k++)
        EXPECT(rs.r[k].err, FJ_OK);
      EXPECT(rs.r[cases[i].good].err, cases[i].err);
      recs_free(&rs);
    }
  }
}

/* Nothing around the streamed array reaches the caller, so all of it is
 * checked, with or without FJ_STREAM_VALIDATE: values off the path (before
 * and after the array), keys, and the brackets that close the containers
 * around it. Each input's last record carries the error and offset that
 * fj_parser_validate() gives for the whole input (written out here too);
 * the stream used to deliver every element with FJ_OK and end cleanly, or
 * (`{]` skipped) report FJ_ERR_NO_SUCH_FIELD for a field that is there. */
static void array_surroundings_checked(void **state) {
  (void)state;
  const struct {
    const char *in, *ptr;
    size_t good;
    fj_error err;
    uint64_t at;
  } cases[] = {
      {"{\"c\":[1]]", "/c", 1, FJ_ERR_EXPECTED_COMMA, 8},
      {"{\"c\":[1]],", "/c", 1, FJ_ERR_EXPECTED_COMMA, 8},
      {"{\"c\":[1],\"d\":x}", "/c", 1, FJ_ERR_EXPECTED_VALUE, 13},
      {"{\"x\":[},\"c\":[1]}", "/c", 0, FJ_ERR_EXPECTED_VALUE, 6},
      {"{\"x\":{]},\"c\":[1]}", "/c", 0, FJ_ERR_EXPECTED_KEY, 6},
      {"{\"c\":[1], \"d\":[}", "/c", 1, FJ_ERR_EXPECTED_VALUE, 15},
      {"{\"c\":[1],\"d\":tru}", "/c", 1, FJ_ERR_BAD_LITERAL, 13},
      {"{\"c\":[1],\"d\":\"\\x\"}", "/c", 1, FJ_ERR_BAD_ESCAPE, 14},
      {"{\"c\":[1],\"d\":01}", "/c", 1, FJ_ERR_BAD_NUMBER, 14},
      {"{\"c\":[1],\"d\"}", "/c", 1, FJ_ERR_EXPECTED_COLON, 12},
      {"{\"c\":[1],5:1}", "/c", 1, FJ_ERR_EXPECTED_KEY, 9},
      {"{\"x\":\"\xff\",\"c\":[1]}", "/c", 0, FJ_ERR_UTF8, 6},
      {"{\"\xff\":1,\"c\":[1]}", "/c", 0, FJ_ERR_UTF8, 2},
      {"{\"x\":[\"\t\"],\"c\":[1]}", "/c", 0, FJ_ERR_CONTROL_CHAR, 7},
      {"{\"c\":[1],\"d\":[1,2", "/c", 1, FJ_ERR_TRUNCATED, 17},
      {"[[0],[1,2],3 4]", "/1", 2, FJ_ERR_EXPECTED_COMMA, 13},
      {"[[0],[1,2],[3}]", "/1", 2, FJ_ERR_EXPECTED_COMMA, 13},
      {"[{\"a\":1 \"b\":2},[1]]", "/1", 0, FJ_ERR_EXPECTED_COMMA, 8},
      /* cut off by the end: the first error in what there is (second trial;
       * they were all TRUNCATED at the value or key) */
      {"{\"x\":{\"k\":tru,\"a\":[1]", "/a", 0, FJ_ERR_BAD_LITERAL, 10},
      {"{\"x\":[1 2", "/a", 0, FJ_ERR_EXPECTED_COMMA, 8},
      {"{\"x\":\"a\x01b", "/a", 0, FJ_ERR_CONTROL_CHAR, 7},
      {"{\"x\":\"ab", "/a", 0, FJ_ERR_UNCLOSED_STRING, 5},
      {"{\"a\":[1],\"x\":[1 2", "/a", 1, FJ_ERR_EXPECTED_COMMA, 16},
      {"{\"b\x01", "/a", 0, FJ_ERR_CONTROL_CHAR, 3},
      /* a number or literal run into a quote (it was EXPECTED_COMMA) */
      {"[1\"a\"]", "", 1, FJ_ERR_BAD_NUMBER, 2},
      {"{\"x\":true\"a\",\"a\":[1]}", "/a", 0, FJ_ERR_BAD_LITERAL, 9},
      {"{\"a\":[1],\"x\":-2\"\"}", "/a", 1, FJ_ERR_BAD_NUMBER, 15},
      /* but not across a space or a closing bracket (stream trial: they
       * were BAD_NUMBER, BAD_LITERAL) */
      {"[1 \"a\"]", "", 1, FJ_ERR_EXPECTED_COMMA, 3},
      {"[true \"a\"]", "", 1, FJ_ERR_EXPECTED_COMMA, 6},
      {"{\"x\":1 \"a\":[1]}", "/a", 0, FJ_ERR_EXPECTED_COMMA, 7},
      {"{\"a\":[1] \"b\":2}", "/a", 1, FJ_ERR_EXPECTED_COMMA, 9},
      {"{\"a\":[1]\"b\":2}", "/a", 1, FJ_ERR_EXPECTED_COMMA, 8},
      /* cut off, with a structural error before a stage-1 one */
      {"{\"x\":[xs\"],\"d\":[1]}", "/d", 0, FJ_ERR_EXPECTED_VALUE, 6},
      /* a string where none may start: the error at its quote, whatever
       * the string holds or whether it closes (trial: validation said
       * UNCLOSED_STRING or EXPECTED_COMMA, the stream BAD_NUMBER or
       * EXPECTED_COLON) */
      {"[1\"]", "", 1, FJ_ERR_BAD_NUMBER, 2},
      {"[1\" ]", "", 1, FJ_ERR_BAD_NUMBER, 2},
      {"[1\"a\n", "", 1, FJ_ERR_BAD_NUMBER, 2},
      {"[1\"a\n\"]", "", 1, FJ_ERR_BAD_NUMBER, 2},
      {"[null\"\\q\"]", "", 1, FJ_ERR_BAD_LITERAL, 5},
      {"{\"a/b:{\"\":[9]}}", "/a~1b", 0, FJ_ERR_EXPECTED_COLON, 8},
      {"{\"a\":[1],\"x\"\"\x01", "/a", 1, FJ_ERR_EXPECTED_COLON, 12},
      {"{\"x\":-2\"\xff\",\"a\":[1]}", "/a", 0, FJ_ERR_BAD_NUMBER, 7},
      {"{\"a\":[1]\"b", "/a", 1, FJ_ERR_EXPECTED_COMMA, 8},
      {"[\"a\"\"b", "", 1, FJ_ERR_EXPECTED_COMMA, 4},
      {"[[0],[1]\"", "/1", 1, FJ_ERR_EXPECTED_COMMA, 8},
      {"[1]\"a", "", 1, FJ_ERR_TRAILING_CONTENT, 3},
      /* stream.h's example: the first error in the input, for both (it
       * said validation gave CONTROL_CHAR at the string) */
      {"[1 2,\"\x01\"]", "", 1, FJ_ERR_EXPECTED_COMMA, 3},
      {"[1 2,\"\\q\"]", "", 1, FJ_ERR_EXPECTED_COMMA, 3},
      {"[1 2,\"a\n\"]", "", 1, FJ_ERR_EXPECTED_COMMA, 3},
  };
  fj_parser *p;
  OK(fj_parser_new(&p, NULL));
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const size_t len = strlen(cases[i].in);
    fj_location loc;
    EXPECT(fj_parser_validate(p, cases[i].in, len), cases[i].err);
    EXPECT(fj_parser_last_error(p, &loc), cases[i].err);
    assert_int_equal(loc.offset, cases[i].at);
    for (uint32_t flags = 0; flags <= FJ_STREAM_VALIDATE; flags += FJ_STREAM_VALIDATE) {
      for (size_t chunk = 0; chunk < 6; chunk++) {
        fj_stream_options o = {.format = FJ_STREAM_ARRAY, .pointer = cases[i].ptr, .flags = flags};
        recs rs = chunk ? collect_chunked(cases[i].in, len, chunk, o)
                        : collect_buffer(cases[i].in, len, &o);
        assert_int_equal(rs.n, cases[i].good + 1);
        for (size_t k = 0; k < cases[i].good; k++)
          EXPECT(rs.r[k].err, FJ_OK);
        EXPECT(rs.r[cases[i].good].err, cases[i].err);
        assert_int_equal(rs.r[cases[i].good].error_offset, cases[i].at);
        recs_free(&rs);
      }
    }
  }
  /* a scalar element the end cuts off is reported once, with validation
   * (the array's truncation at the same byte followed it) */
  fj_stream_options vo = {.format = FJ_STREAM_ARRAY, .flags = FJ_STREAM_VALIDATE};
  for (size_t chunk = 0; chunk < 6; chunk++) {
    recs rs = chunk ? collect_chunked("[fal", 4, chunk, vo) : collect_buffer("[fal", 4, &vo);
    assert_int_equal(rs.n, 1);
    EXPECT(rs.r[0].err, FJ_ERR_TRUNCATED);
    assert_int_equal(rs.r[0].error_offset, 4);
    recs_free(&rs);
  }
  /* valid surroundings of every kind still stream */
  const char *ok = "{\"a\":{\"s\":\"\\u00e9\",\"n\":[null,-1.5e3,{}]},\"c\":[1,2],"
                   "\"d\":{\"e\":[true,{\"f\":\"]\"}]},\"g\":0}";
  EXPECT(fj_parser_validate(p, ok, strlen(ok)), FJ_OK);
  for (size_t chunk = 0; chunk < 8; chunk++) {
    recs rs = array_records(ok, "/c", chunk);
    assert_int_equal(rs.n, 2);
    EXPECT(rs.r[0].err, FJ_OK);
    EXPECT(rs.r[1].err, FJ_OK);
    EXPECT(rs.end, FJ_END);
    recs_free(&rs);
  }
  fj_parser_free(p);
}

/* xorshift64: the same inputs on every run */
static uint64_t mut_state = 88172645463325252u;
static unsigned mut_rnd(void) {
  mut_state ^= mut_state << 13;
  mut_state ^= mut_state >> 7;
  mut_state ^= mut_state << 17;
  return (unsigned)(mut_state >> 11);
}

static void mut_put(char *b, size_t *n, size_t cap, const char *t) {
  size_t l = strlen(t);
  if (*n + l >= cap) return;
  memcpy(b + *n, t, l);
  *n += l;
}

/* A random value: scalars of each kind, arrays and objects to depth 3. */
static void mut_value(char *b, size_t *n, size_t cap, int depth) {
  static const char *const sc[] = {"1",    "-2.5", "true",  "null", "\"ab\"",
                                   "\"\"", "0",    "false", "12e3", "\"x\\ny\""};
  unsigned k = mut_rnd() % 12;
  if (depth > 2 || k < 8) {
    mut_put(b, n, cap, sc[mut_rnd() % 10]);
    return;
  }
  const bool obj = k >= 10;
  mut_put(b, n, cap, obj ? "{" : "[");
  for (unsigned i = 0, m = mut_rnd() % 4; i < m; i++) {
    if (i) mut_put(b, n, cap, mut_rnd() % 2 ? "," : ", ");
    if (obj) mut_put(b, n, cap, mut_rnd() % 2 ? "\"k\":" : "\"a\" : ");
    mut_value(b, n, cap, depth + 1);
  }
  mut_put(b, n, cap, obj ? "}" : "]");
}

/* One edit, quotes most likely: delete, insert, replace a byte, or cut. */
static void mut_edit(char *b, size_t *n, size_t cap) {
  static const char pool[] = "\"\"\"\"[]{}:, 0-1etn\n\x01\\\xff";
  if (*n == 0) return;
  size_t at = mut_rnd() % *n;
  char c = pool[mut_rnd() % (sizeof pool - 1)];
  switch (mut_rnd() % 4) {
  case 0: memmove(b + at, b + at + 1, *n - at - 1), (*n)--; break;
  case 1:
    if (*n + 1 < cap) memmove(b + at + 1, b + at, *n - at), b[at] = c, (*n)++;
    break;
  case 2: b[at] = c; break;
  default: *n = at + 1; break;
  }
}

/* Whether the stream's first error may differ from validation's, at the
 * same byte, as stream.h says: an element cut off inside a string is
 * TRUNCATED, and a byte that is not UTF-8 where a value or punctuation is
 * due is named by what was due. */
static bool documented_difference(fj_error v, fj_error s) {
  if (v == FJ_ERR_UNCLOSED_STRING) return s == FJ_ERR_TRUNCATED;
  return v == FJ_ERR_UTF8 &&
         (s == FJ_ERR_EXPECTED_VALUE || s == FJ_ERR_EXPECTED_COMMA || s == FJ_ERR_EXPECTED_KEY ||
          s == FJ_ERR_EXPECTED_COLON || s == FJ_ERR_TRAILING_CONTENT);
}

/* The array stream with FJ_STREAM_VALIDATE, from a buffer and in chunks of
 * 1 to 9 bytes, against fj_parser_validate() on arrays at the root, at /a
 * in an object and at /1 in an array, each edited once or twice: the
 * stream's first error has validation's code and offset (trial: a string
 * run into a number, `[1"a\n`, differed in about 1% of such inputs). */
static void array_mutations_against_validation(void **state) {
  (void)state;
  fj_parser *p;
  OK(fj_parser_new(&p, NULL));
  static const char *const ptrs[] = {"", "/a", "/1"};
  for (int i = 0; i < 3000; i++) {
    char b[256];
    size_t n = 0;
    const unsigned form = mut_rnd() % 3;
    mut_put(b, &n, sizeof b, form == 0 ? "[" : form == 1 ? "{\"x\":" : "[");
    if (form) mut_value(b, &n, sizeof b, 1);
    mut_put(b, &n, sizeof b, form == 0 ? "" : form == 1 ? ",\"a\":[" : ",[");
    for (unsigned k = 0, m = mut_rnd() % 4; k < m; k++) {
      if (k) mut_put(b, &n, sizeof b, ",");
      mut_value(b, &n, sizeof b, 1);
    }
    mut_put(b, &n, sizeof b, form == 1 ? "],\"y\":0}" : form == 2 ? "],0]" : "]");
    for (unsigned k = 1 + mut_rnd() % 2; k; k--)
      mut_edit(b, &n, sizeof b);
    fj_location loc;
    fj_error v = fj_parser_validate(p, b, n);
    fj_parser_last_error(p, &loc);
    for (size_t chunk = 0; chunk < 10; chunk++) {
      fj_stream_options o = {
          .format = FJ_STREAM_ARRAY, .flags = FJ_STREAM_VALIDATE, .pointer = ptrs[form]};
      recs rs = chunk ? collect_chunked(b, n, chunk, o) : collect_buffer(b, n, &o);
      const rec *first = NULL;
      for (size_t k = 0; k < rs.n && !first; k++)
        if (rs.r[k].err) first = &rs.r[k];
      fj_error s = first ? first->err : FJ_OK;
      uint64_t at = first ? first->error_offset : 0;
      /* the pointer's own errors, and depth, which the stream counts per element */
      const bool pointer = s == FJ_ERR_NO_SUCH_FIELD || s == FJ_ERR_INDEX_RANGE ||
                           s == FJ_ERR_WRONG_TYPE || s == FJ_ERR_BAD_POINTER;
      recs_free(&rs);
      if (pointer || v == FJ_ERR_DEPTH) break;
      if ((s != v || (v && at != loc.offset)) &&
          !(at == loc.offset && documented_difference(v, s))) {
        print_error("'%.*s' at '%s', chunk %zu: validate %s at %zu, stream %s at %llu\n", (int)n, b,
                    ptrs[form], chunk, fj_error_name(v), loc.offset, fj_error_name(s),
                    (unsigned long long)at);
        fail();
      }
    }
  }
  fj_parser_free(p);
}

/* A document's handles end with the next fj_stream_next(), whatever it
 * returns: also a document refused unparsed (too large) and the end of an
 * array stream, after which a refill moved or freed the bytes they point
 * into (stream trial: a use after free under ASan, and a wrong value
 * returned with FJ_OK). Each format, chunks of 16 bytes. */
static void handles_end_with_next(void **state) {
  (void)state;
  char pad[600];
  memset(pad, 'q', sizeof pad - 1);
  pad[sizeof pad - 1] = '\0';
  char in[1024];
  const struct {
    fj_stream_format format;
    const char *fmt, *ptr;
  } cases[] = {
      {FJ_STREAM_NDJSON, "[\"second-string-long\",2.5]\n%s\n[\"third\"]\n", NULL},
      {FJ_STREAM_JSON_SEQ, "\x1e[\"second-string-long\",2.5]\n\x1e%s\n\x1e[\"third\"]\n", NULL},
      {FJ_STREAM_CONCATENATED, "[\"second-string-long\",2.5] \"%s\" [\"third\"]", NULL},
      {FJ_STREAM_ARRAY, "[[\"second-string-long\",2.5]]%.500s", ""},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    int n = snprintf(in, sizeof in, cases[c].fmt,
                     cases[c].format == FJ_STREAM_ARRAY ? "                " : pad);
    mem_source m = {in, (size_t)n, 0, 16, 0};
    fj_stream_options o = {.format = cases[c].format,
                           .pointer = cases[c].ptr,
                           .chunk_size = 16,
                           .max_document_size = 100};
    fj_stream *s;
    fj_document doc;
    fj_array a;
    fj_value v;
    const char *str;
    size_t len;
    OK(fj_stream_new_callback(&s, mem_read, &m, &o));
    OK(fj_stream_next(s, &doc));
    OK(fj_value_get_array(&doc.root, &a));
    OK(fj_array_next(&a, &v));
    fj_error next = fj_stream_next(s, &doc); /* too large, or the end */
    assert_true(next == FJ_ERR_DOCUMENT_TOO_LARGE || next == FJ_END);
    EXPECT(fj_value_get_string(&v, &str, &len), FJ_ERR_STALE_DOCUMENT);
    EXPECT(fj_array_next(&a, &v), FJ_ERR_STALE_DOCUMENT);
    fj_stream_free(s);
  }
}

/* An oversized element cut off by the end of the input is reported as too
 * large (the next call goes on, as for any element), then the array it is
 * in as FJ_ERR_TRUNCATED at the end of the input, whatever the chunks, as
 * for a scalar (`[1,12345678`). Containers and strings used to end the
 * stream after the first error, the truncation unreported (trial); a
 * chunked stream once added it where a buffer stream did not (fuzz_stream),
 * so every chunk size is compared with the buffer stream. */
static void array_oversized_cut_element(void **state) {
  (void)state;
  const struct {
    const char *in, *ptr;
    uint64_t at; /* the oversized element */
  } cases[] = {
      {"[[1,2,3,4,5,6,7,8,9", NULL, 1},  {"[0, \"abcdefghij", NULL, 4},
      {"[0,{\"a\":[1,2,3,4]", NULL, 3},  {"[1,[2,2,2,2,2", NULL, 3},
      {"[1,\"aaaaaaaaaa", NULL, 3},      {"[1,12345678", NULL, 3},
      {"{\"a\":[1,[2,2,2,2,2", "/a", 8}, {"{\"a\":[1,\"aaaaaaa\\\"", "/a", 8},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const size_t len = strlen(cases[i].in);
    fj_stream_options o = {
        .format = FJ_STREAM_ARRAY, .max_document_size = 5, .pointer = cases[i].ptr};
    recs ref = collect_buffer(cases[i].in, len, &o);
    assert_true(ref.n >= 2);
    EXPECT(ref.r[ref.n - 2].err, FJ_ERR_DOCUMENT_TOO_LARGE);
    assert_int_equal(ref.r[ref.n - 2].offset, cases[i].at);
    EXPECT(ref.r[ref.n - 1].err, FJ_ERR_TRUNCATED);
    assert_int_equal(ref.r[ref.n - 1].error_offset, len);
    EXPECT(ref.end, FJ_END);
    every_chunk_size(cases[i].in, len, o, &ref);
    recs_free(&ref);
  }
}

/* A key on the pointer's path longer than max_document_size is an error
 * whatever the chunks, not only when it spans a chunk boundary (found by
 * fuzz/fuzz_stream.c); short keys are fine. */
static void array_long_key_on_path(void **state) {
  (void)state;
  const char *in[] = {"{\"abcdefgh\":1,\"a\":[1]}", "{\"abcdefgh", "{\"abc", "{\"a\":[1]}"};
  /* a key the end cuts off: what validation says of it (it was TRUNCATED) */
  const fj_error want[] = {FJ_ERR_DOCUMENT_TOO_LARGE, FJ_ERR_DOCUMENT_TOO_LARGE,
                           FJ_ERR_UNCLOSED_STRING, FJ_OK};
  for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
    fj_stream_options o = {.format = FJ_STREAM_ARRAY, .pointer = "/a", .max_document_size = 5};
    recs ref = collect_buffer(in[i], strlen(in[i]), &o);
    assert_int_equal(ref.n, 1);
    EXPECT(ref.r[0].err, want[i]);
    if (want[i] == FJ_ERR_DOCUMENT_TOO_LARGE) assert_int_equal(ref.r[0].error_offset, 1);
    every_chunk_size(in[i], strlen(in[i]), o, &ref);
    recs_free(&ref);
  }
}

/* A generated source of more than 4 GiB: a top-level array whose elements
 * are separated by megabytes of space padding (which the stream crosses
 * eight bytes at a time), so the offsets past 2^32 are checked exactly
 * without a file on disk and in a few seconds. */
typedef struct gen_source {
  uint64_t pos, total;
  uint64_t pad;     /* spaces after each element's comma */
  uint64_t count;   /* elements */
  uint64_t emitted; /* elements written so far */
  char elem[64];
  size_t elem_len, elem_pos;
  int stage; /* 0 '[', 1 element, 2 ",\n" or "]", 3 padding, 4 done */
  uint64_t pad_left;
} gen_source;

static fj_error gen_read(void *ctx, void *buf, size_t cap, size_t *got) {
  gen_source *g = ctx;
  char *out = buf;
  size_t n = 0;
  while (n < cap && g->stage != 4) {
    if (g->stage == 0) {
      out[n++] = '[';
      g->stage = 1;
      g->elem_len =
          (size_t)sprintf(g->elem, "{\"i\":%llu,\"at\":\"x\"}", (unsigned long long)g->emitted);
      g->elem_pos = 0;
    } else if (g->stage == 1) {
      size_t k = g->elem_len - g->elem_pos;
      if (k > cap - n) k = cap - n;
      memcpy(out + n, g->elem + g->elem_pos, k);
      n += k;
      if ((g->elem_pos += k) == g->elem_len) g->stage = 2;
    } else if (g->stage == 2) {
      if (++g->emitted == g->count) {
        out[n++] = ']';
        g->stage = 4;
      } else {
        out[n++] = ',';
        g->stage = 3;
        g->pad_left = g->pad;
      }
    } else {
      size_t k = g->pad_left < cap - n ? (size_t)g->pad_left : cap - n;
      memset(out + n, ' ', k);
      if (k && g->pad_left == g->pad) out[n] = '\n'; /* one line per element */
      n += k;
      if ((g->pad_left -= k) == 0) {
        g->stage = 1;
        g->elem_len =
            (size_t)sprintf(g->elem, "{\"i\":%llu,\"at\":\"x\"}", (unsigned long long)g->emitted);
        g->elem_pos = 0;
      }
    }
  }
  g->pos += n;
  *got = n;
  return FJ_OK;
}

static void array_past_4gib(void **state) {
  (void)state;
  gen_source g = {0};
  g.count = 70;
  g.pad = 64u << 20; /* 70 x 64 MiB: 4.4 GiB */
  fj_stream_options o = {.format = FJ_STREAM_ARRAY, .chunk_size = 1 << 20};
  fj_stream *s;
  OK(fj_stream_new_callback(&s, gen_read, &g, &o));
  fj_document doc;
  uint64_t offset = 1; /* after '[' */
  for (uint64_t i = 0; i < g.count; i++) {
    OK(fj_stream_next(s, &doc));
    char want[64];
    int wl = sprintf(want, "{\"i\":%llu,\"at\":\"x\"}", (unsigned long long)i);
    assert_int_equal(doc.index, i);
    assert_int_equal(doc.offset, offset);
    assert_int_equal(doc.line, i + 1);
    assert_int_equal(doc.len, (size_t)wl);
    assert_memory_equal(doc.data, want, doc.len);
    fj_object obj;
    fj_value v;
    uint64_t got;
    OK(fj_value_get_object(&doc.root, &obj));
    OK(fj_object_find(&obj, "i", &v));
    OK(fj_value_get_uint64(&v, &got));
    assert_int_equal(got, i);
    offset += (uint64_t)wl + 1 + g.pad;
  }
  assert_true(doc.offset > ((uint64_t)1 << 32));
  EXPECT(fj_stream_next(s, &doc), FJ_END);
  assert_int_equal(fj_stream_position(s), g.pos);
  assert_int_equal(g.pos, offset - g.pad);
  fj_stream_free(s);
}

/* ---- the NDJSON corpus against Python's json module ------------------------- */

/* A digest of a value that both sides print the same way: strings with
 * their byte length, numbers as %.17g doubles, containers with their sizes. */
static void digest(const fj_value *v, FILE *out) {
  fj_type t;
  OK(fj_value_get_type(v, &t));
  switch (t) {
  case FJ_TYPE_NULL: fputs("n", out); break;
  case FJ_TYPE_BOOL: {
    bool b;
    OK(fj_value_get_bool(v, &b));
    fputs(b ? "t" : "f", out);
    break;
  }
  case FJ_TYPE_NUMBER: {
    double d = 0;
    OK(fj_value_get_double(v, &d));
    fprintf(out, "d%.17g", d);
    break;
  }
  case FJ_TYPE_STRING: {
    const char *s;
    size_t n;
    OK(fj_value_get_string(v, &s, &n));
    fprintf(out, "s%zu:", n);
    fwrite(s, 1, n, out);
    break;
  }
  case FJ_TYPE_ARRAY: {
    fj_array a;
    fj_value el;
    fj_error err;
    OK(fj_value_get_array(v, &a));
    fputs("[", out);
    while ((err = fj_array_next(&a, &el)) == FJ_OK)
      digest(&el, out);
    EXPECT(err, FJ_END);
    fputs("]", out);
    break;
  }
  case FJ_TYPE_OBJECT: {
    fj_object o;
    fj_value k, val;
    fj_error err;
    OK(fj_value_get_object(v, &o));
    fputs("{", out);
    while ((err = fj_object_next(&o, &k, &val)) == FJ_OK) {
      digest(&k, out);
      digest(&val, out);
    }
    EXPECT(err, FJ_END);
    fputs("}", out);
    break;
  }
  }
}

static const char python_digest[] =
    "import json,sys\n"
    "def d(v):\n"
    "  if v is None: return 'n'\n"
    "  if v is True: return 't'\n"
    "  if v is False: return 'f'\n"
    "  if isinstance(v,(int,float)): return 'd%.17g' % float(v)\n"
    "  if isinstance(v,str):\n"
    "    b=v.encode('utf-8','surrogatepass'); return 's%d:' % len(b) + v\n"
    "  if isinstance(v,list): return '[' + ''.join(d(x) for x in v) + ']'\n"
    "  return '{' + ''.join(d(k)+d(x) for k,x in v.items()) + '}'\n"
    "out=open(sys.argv[2],'w',encoding='utf-8',errors='surrogatepass',newline='')\n"
    "for no,line in enumerate(open(sys.argv[1],'rb').read().split(b'\\n'),1):\n"
    "  if not line.strip(b' \\t\\r'): continue\n"
    "  try: v=json.loads(line.decode('utf-8'))\n"
    "  except Exception: out.write('%d bad\\n' % no); continue\n"
    "  out.write('%d %s\\n' % (no, d(v)))\n";

static void corpus_against_python(void **state) {
  (void)state;
  if (system("python3 -c 'import json' >/dev/null 2>&1") != 0) skip();
  size_t clen;
  unsigned char *corpus = fj_test_read_file(FJ_DATA_DIR "/corpus/amazon_cellphones.ndjson", &clen);
  if (!corpus) skip();
  /* the corpus, then bad lines of several kinds, and the corpus again */
  const char bad[] = "{\"a\":1,}\n[1 2]\n\"unterminated\n{\"x\":tru}\n[1]]\n\xff\n{\"k\":01}\n"
                     "\n   \n[\"ok\"]\r\n";
  size_t len = 2 * clen + sizeof bad - 1;
  char *in = malloc(len);
  memcpy(in, corpus, clen);
  memcpy(in + clen, bad, sizeof bad - 1);
  memcpy(in + clen + sizeof bad - 1, corpus, clen);
  free(corpus);
  char dir[] = "/tmp/fj_stream_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char src[64], want[64], got[64], cmd[512];
  snprintf(src, sizeof src, "%s/in.ndjson", dir);
  snprintf(want, sizeof want, "%s/want", dir);
  snprintf(got, sizeof got, "%s/got", dir);
  FILE *f = fopen(src, "wb");
  fwrite(in, 1, len, f);
  fclose(f);
  char script[64];
  snprintf(script, sizeof script, "%s/digest.py", dir);
  f = fopen(script, "w");
  fputs(python_digest, f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "python3 %s %s %s", script, src, want);
  assert_int_equal(system(cmd), 0);

  for (size_t chunk = 0; chunk <= 4096; chunk += 4096) {
    fj_stream_options o = {.flags = FJ_STREAM_VALIDATE};
    fj_stream *s;
    FILE *in_f = NULL;
    if (chunk) {
      in_f = fopen(src, "rb");
      o.chunk_size = chunk;
      OK(fj_stream_new_file(&s, in_f, &o));
    } else {
      OK(fj_stream_new_buffer(&s, in, len, &o));
    }
    FILE *out = fopen(got, "wb");
    fj_document doc;
    fj_error err;
    size_t docs = 0;
    while ((err = fj_stream_next(s, &doc)) != FJ_END) {
      docs++;
      fprintf(out, "%llu ", (unsigned long long)doc.line);
      if (err) {
        fputs("bad\n", out);
        continue;
      }
      digest(&doc.root, out);
      fputs("\n", out);
    }
    fclose(out);
    fj_stream_free(s);
    if (in_f) fclose(in_f);
    assert_true(docs > 1500);
    snprintf(cmd, sizeof cmd, "cmp -s %s %s", want, got);
    assert_int_equal(system(cmd), 0);
  }
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  assert_int_equal(system(cmd), 0);
  free(in);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ndjson_basics),
      cmocka_unit_test(error_columns),
      cmocka_unit_test(ndjson_cursor),
      cmocka_unit_test(ndjson_batch_sizes),
      cmocka_unit_test(escapes_at_every_block_offset),
      cmocka_unit_test(json_seq),
      cmocka_unit_test(concatenated),
      cmocka_unit_test(cut_off_scalars),
      cmocka_unit_test(cut_inside_a_character),
      cmocka_unit_test(chunked_ndjson),
      cmocka_unit_test(chunked_concatenated_and_seq),
      cmocka_unit_test(oversized_documents),
      cmocka_unit_test(oversized_last_document),
      cmocka_unit_test(long_line_small_chunks),
      cmocka_unit_test(bounded_memory),
      cmocka_unit_test(read_errors),
      cmocka_unit_test(fd_and_file_sources),
      cmocka_unit_test(invalid_arguments),
      cmocka_unit_test(array_elements),
      cmocka_unit_test(array_errors),
      cmocka_unit_test(array_surroundings_checked),
      cmocka_unit_test(array_mutations_against_validation),
      cmocka_unit_test(handles_end_with_next),
      cmocka_unit_test(array_oversized_cut_element),
      cmocka_unit_test(array_long_key_on_path),
      cmocka_unit_test(array_past_4gib),
      cmocka_unit_test(corpus_against_python),
      cmocka_unit_test(callback_contract_broken),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
