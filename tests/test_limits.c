/* Limits: inputs too large for 32-bit index offsets are refused up front
 * (before any byte is read), and truncated documents are always rejected:
 * every prefix of every corpus document (100 sampled evenly, plus the last
 * 128 bytes byte by byte) fails validation, since each corpus root is a
 * container that only its final bracket closes. A million nested brackets
 * in every stream format, from a buffer and in chunks, is a depth error at
 * the first bracket past the limit (the cursor's, parser's and generated
 * readers' own million-bracket tests are in test_cursor.c and test_codec.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "fastjson.h"
#include "test_util.h"

static fj_error discard(void *ctx, const void *bytes, size_t len) {
  (void)ctx;
  (void)bytes;
  (void)len;
  return FJ_OK;
}

static void oversized_input_is_refused_up_front(void **state) {
  (void)state;
  if (sizeof(size_t) < 8) skip();
  fj_parser *p;
  assert_int_equal(fj_parser_new(&p, NULL), FJ_OK);
  static const char small[] = "[1]";
  /* the length is a lie: the parser must refuse it without reading */
  size_t huge = (size_t)FJ_MAX_DOCUMENT_SIZE + 1;
  fj_value root;
  fj_location loc;
  assert_int_equal(fj_parser_parse(p, small, huge, &root), FJ_ERR_CAPACITY);
  assert_int_equal(fj_parser_last_error(p, NULL), FJ_ERR_CAPACITY);
  assert_int_equal(fj_parser_validate(p, small, (size_t)5 << 30), FJ_ERR_CAPACITY);
  assert_int_equal(fj_minify(p, small, huge, (fj_sink){discard, NULL}), FJ_ERR_CAPACITY);
  /* SIZE_MAX: small + len would pass the end of the address space (UBSan:
   * pointer overflow, found by a trial, before the check was first) */
  assert_int_equal(fj_parser_parse(p, small, SIZE_MAX, &root), FJ_ERR_CAPACITY);
  assert_int_equal(fj_parser_validate(p, small, SIZE_MAX), FJ_ERR_CAPACITY);
  assert_int_equal(fj_pretty(p, small, SIZE_MAX, NULL, (fj_sink){discard, NULL}), FJ_ERR_CAPACITY);
  /* and the parser still works afterwards */
  assert_int_equal(fj_parser_parse(p, small, 3, &root), FJ_OK);
  assert_int_equal(fj_parser_last_error(p, &loc), FJ_OK);
  fj_parser_free(p);
}

/* The offset just past the root's closing bracket (the document without
 * its trailing whitespace). */
static size_t content_end(const unsigned char *s, size_t n) {
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == '\t'))
    n--;
  return n;
}

static void check_prefix(fj_parser *p, const unsigned char *buf, size_t k, const char *name) {
  unsigned char *copy = malloc(k ? k : 1); /* exact size: over-reads are caught */
  memcpy(copy, buf, k);
  fj_error err = fj_parser_validate(p, copy, k);
  if (err == FJ_OK) fail_msg("%s: prefix of %zu bytes accepted", name, k);
  fj_location loc;
  assert_int_equal(fj_parser_last_error(p, &loc), err);
  assert_true(loc.offset <= k);
  free(copy);
}

static void every_truncated_corpus_document_is_rejected(void **state) {
  (void)state;
  size_t count, checked = 0;
  char **names = fj_test_list_dir(FJ_DATA_DIR "/corpus", ".json", &count);
  if (!names) skip();
  fj_parser *p;
  assert_int_equal(fj_parser_new(&p, NULL), FJ_OK);
  for (size_t i = 0; i < count; i++) {
    char path[1024];
    size_t len;
    snprintf(path, sizeof path, "%s/%s", FJ_DATA_DIR "/corpus", names[i]);
    unsigned char *buf = fj_test_read_file(path, &len);
    assert_non_null(buf);
    size_t end = content_end(buf, len);
    size_t stride = end / 100 + 1;
    for (size_t k = 0; k < end; k += stride, checked++)
      check_prefix(p, buf, k, names[i]);
    for (size_t k = end > 128 ? end - 128 : 0; k < end; k++, checked++)
      check_prefix(p, buf, k, names[i]);
    assert_int_equal(fj_parser_validate(p, buf, end), FJ_OK);
    free(buf);
  }
  fj_parser_free(p);
  fj_test_free_list(names, count);
  printf("prefixes checked: %zu\n", checked);
  assert_true(checked > 1000);
}

/* ---- a million nested brackets in a stream ---------------------------------------- */

typedef struct chunks {
  const char *data;
  size_t len, pos;
} chunks;

static fj_error read_chunk(void *ctx, void *buf, size_t cap, size_t *got) {
  chunks *c = ctx;
  size_t n = c->len - c->pos < cap ? c->len - c->pos : cap;
  memcpy(buf, c->data + c->pos, n);
  c->pos += n;
  *got = n;
  return FJ_OK;
}

/* Enters arrays while it can; the error that stops it. */
static fj_error enter_all(fj_value v) {
  fj_array a;
  fj_error err;
  while ((err = fj_value_get_array(&v, &a)) == FJ_OK && (err = fj_array_next(&a, &v)) == FJ_OK)
    ;
  return err;
}

/* The first document of `in` as format `f`, from the buffer or in chunks:
 * validated, a depth error at `depth_at`; not validated, a document whose
 * walk ends in a depth error. Then the stream ends cleanly. */
static void check_stream(const char *in, size_t len, fj_stream_format f, bool chunked,
                         uint64_t depth_at) {
  for (int validate = 0; validate < 2; validate++) {
    fj_stream_options o = {.format = f, .flags = validate ? FJ_STREAM_VALIDATE : 0};
    chunks src = {in, len, 0};
    fj_stream *s;
    if (chunked)
      assert_int_equal(fj_stream_new_callback(&s, read_chunk, &src, &o), FJ_OK);
    else
      assert_int_equal(fj_stream_new_buffer(&s, in, len, &o), FJ_OK);
    fj_document doc;
    fj_error err = fj_stream_next(s, &doc);
    if (validate) {
      assert_int_equal(err, FJ_ERR_DEPTH);
      assert_int_equal(doc.error_offset, depth_at);
    } else {
      assert_int_equal(err, FJ_OK);
      assert_int_equal(enter_all(doc.root), FJ_ERR_DEPTH);
    }
    assert_int_equal(fj_stream_next(s, &doc), FJ_END);
    fj_stream_free(s);
  }
}

static void stream_million_brackets(void **state) {
  (void)state;
  const size_t n = 1000000;
  char *in = malloc(2 * n + 2);
  assert_non_null(in);
  in[0] = 0x1E; /* a JSON text sequence's record separator */
  memset(in + 1, '[', n);
  memset(in + 1 + n, ']', n);
  in[2 * n + 1] = '\n';
  for (int chunked = 0; chunked < 2; chunked++) {
    check_stream(in + 1, 2 * n, FJ_STREAM_NDJSON, chunked, FJ_DEFAULT_MAX_DEPTH);
    check_stream(in + 1, 2 * n, FJ_STREAM_CONCATENATED, chunked, FJ_DEFAULT_MAX_DEPTH);
    check_stream(in, 2 * n + 2, FJ_STREAM_JSON_SEQ, chunked, 1 + FJ_DEFAULT_MAX_DEPTH);
    /* the elements of the outer array: the first starts at offset 1 */
    check_stream(in + 1, 2 * n, FJ_STREAM_ARRAY, chunked, 1 + FJ_DEFAULT_MAX_DEPTH);
  }
  free(in);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(oversized_input_is_refused_up_front),
      cmocka_unit_test(every_truncated_corpus_document_is_rejected),
      cmocka_unit_test(stream_million_brackets),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
